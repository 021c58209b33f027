/* pcidev.c - a device whose "remove" attribute removes it from inside its own store(), as PCI's does since 2014. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "device.h"
#include "hotplug.h"
#include "module.h"
#include "slab.h"
#include "sysfs_self.h"

/*
 * What selfremove (stage 3) cannot do, done right: "echo 1 > remove"
 * removes /sys/devices/pciN before the echo returns, with no callback.
 * remove_store() asks device_remove_file_self() to remove its own node,
 * which first gives up the store's own active reference, so the removal
 * has nothing of ours to wait for.  Of several writers, one wins and
 * removes the device; the others return once that is done.
 *
 * pcidev_lock plays pci_rescan_remove_lock: whoever takes a device out
 * (remove, unplug, rmmod) does it under the lock, and only once.
 */
struct pcidev {
	struct device dev;
	int nr;
};

#define PCIDEV_MAX 4
static struct pcidev *pcidevs[PCIDEV_MAX];
static pthread_mutex_t pcidev_lock = PTHREAD_MUTEX_INITIALIZER;

static __noinline void pcidev_release(struct device *dev)
{
	kfree(container_of(dev, struct pcidev, dev));
}

static ssize_t vendor_show(struct device *dev, struct device_attribute *attr, char *buf)
{
	(void)dev;
	(void)attr;
	return snprintf(buf, 16, "0x8086\n");
}

static ssize_t remove_store(struct device *dev, struct device_attribute *attr, const char *buf, size_t count);

static DEVICE_ATTR(vendor, 0444, vendor_show, NULL);
static DEVICE_ATTR(remove, 0200, NULL, remove_store);

/* pcidev_remove - take device nr out, if it is still there.  Under pcidev_lock. */
static void pcidev_remove(int nr)
{
	struct pcidev *p = pcidevs[nr];

	if (!p)
		return;
	pcidevs[nr] = NULL;
	device_remove_file(&p->dev, &dev_attr_remove);	/* gone already after a remove_self */
	device_remove_file(&p->dev, &dev_attr_vendor);
	device_unregister(&p->dev);
	printk("pci%d: removed", nr);
}

static __noinline ssize_t remove_store(struct device *dev, struct device_attribute *attr,
				       const char *buf, size_t count)
{
	struct pcidev *p = container_of(dev, struct pcidev, dev);

	(void)buf;
	/*
	 * From the call below on, our node may be deleted at any moment, and
	 * with it the guarantee that dev lives: hold it ourselves.
	 */
	get_device(dev);
	if (device_remove_file_self(dev, attr)) {
		pthread_mutex_lock(&pcidev_lock);
		if (pcidevs[p->nr] == p)
			pcidev_remove(p->nr);
		pthread_mutex_unlock(&pcidev_lock);
	}
	put_device(dev);
	return count;
}

static int pcidev_number(const char *devname)
{
	int n = atoi(devname + strlen("pci"));

	return n >= 0 && n < PCIDEV_MAX ? n : -1;
}

static int pcidev_plug(const char *devname)
{
	int n = pcidev_number(devname);
	struct pcidev *p;

	if (n < 0)
		return -EINVAL;
	pthread_mutex_lock(&pcidev_lock);
	if (pcidevs[n]) {
		pthread_mutex_unlock(&pcidev_lock);
		return -EEXIST;
	}
	p = kzalloc(sizeof(*p), "pcidev");
	p->nr = n;
	p->dev.release = pcidev_release;
	device_register(&p->dev, "%s", devname);
	device_create_file(&p->dev, &dev_attr_vendor);
	device_create_file(&p->dev, &dev_attr_remove);
	pcidevs[n] = p;
	pthread_mutex_unlock(&pcidev_lock);
	return 0;
}

static int pcidev_unplug(const char *devname)
{
	int n = pcidev_number(devname);
	int err = -ENODEV;

	if (n < 0)
		return err;
	pthread_mutex_lock(&pcidev_lock);
	if (pcidevs[n]) {
		pcidev_remove(n);
		err = 0;
	}
	pthread_mutex_unlock(&pcidev_lock);
	return err;
}

static struct hotplug_bus pcidev_bus = { .prefix = "pci", .plug = pcidev_plug, .unplug = pcidev_unplug };

static int pcidev_init(void)
{
	hotplug_register(&pcidev_bus);
	return 0;
}

static void pcidev_exit(void)
{
	hotplug_unregister(&pcidev_bus);
	pthread_mutex_lock(&pcidev_lock);
	for (int n = 0; n < PCIDEV_MAX; n++)
		pcidev_remove(n);
	pthread_mutex_unlock(&pcidev_lock);
}

MODULE_INFO("pcidev", pcidev_init, pcidev_exit);
