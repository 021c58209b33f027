/* pci.c - stage 4's PCI core: pciN devices, their vendor and remove files, and their removal. */
#include <ctype.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <delay.h>
#include <mutex.h>
#include <pci.h>
#include <slab.h>
#include <sysfs_self.h>

/*
 * pci_rescan_remove_lock: whoever takes a device out (its remove file, an
 * unplug, the slot driver's exit) does it under the lock, and only once.
 */
static struct pci_dev *pci_devs[PCI_DEV_MAX];
static DEFINE_MUTEX(pci_rescan_remove_lock);

/*
 * The window a scenario holds open ("delay pci_store_entry"): a store
 * that removes its device (remove, recover) waits here before it starts,
 * still inside its active reference, so that an unplug that comes
 * meanwhile drains the node with the store inside.  make real-kernel's
 * test module holds its store at the same place (meet=1).
 */
DELAY_POINT(pci_store_entry)

static __noinline void pci_release_dev(struct device *dev)
{
	kfree(to_pci_dev(dev));
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

/* pci_remove_nr - take device nr out, if it is still there.  Under the lock. */
static void pci_remove_nr(int nr)
{
	struct pci_dev *pdev = pci_devs[nr];

	if (!pdev)
		return;
	pci_devs[nr] = NULL;
	device_unregister(&pdev->dev);	/* its directory goes with every file in it */
	printk("pci%d: removed", nr);
}

void pci_stop_and_remove_bus_device_locked(struct pci_dev *pdev)
{
	mutex_lock(&pci_rescan_remove_lock);
	if (pci_devs[pdev->nr] == pdev)
		pci_remove_nr(pdev->nr);
	mutex_unlock(&pci_rescan_remove_lock);
}

/*
 * "echo 1 > remove" removes /sys/devices/pciN before the echo returns,
 * with no callback.  device_remove_file_self() first gives the store's
 * own active reference up, so the removal has nothing of ours to wait
 * for.  Of several writers, one wins and removes the device; the others
 * return once that is done.  (The kernel's store removes only when the
 * number written is not 0, and takes no device reference; ours removes on
 * any write, and needs the reference, as the comment inside says.)
 */
static __noinline ssize_t remove_store(struct device *dev, struct device_attribute *attr,
				       const char *buf, size_t count)
{
	(void)buf;
	delay_point("pci_store_entry");
	/*
	 * From the call below on, our node may be deleted at any moment, and
	 * with it the guarantee that dev lives: hold it ourselves.
	 */
	get_device(dev);
	if (device_remove_file_self(dev, attr))
		pci_stop_and_remove_bus_device_locked(to_pci_dev(dev));
	put_device(dev);
	return count;
}

/*
 * "echo 1 > recover" removes the device too, the way SCSI's delete has
 * since 2018 (sdev_store_delete(), commit 0ee223b2e1f6) and s390's PCI
 * recover since 2020 (recover_store(), commit 576c75e36c68): break the
 * active protection by hand, remove the file, take the lock and remove
 * the device, and only then unbreak.  The store holds no active reference
 * while it waits for pci_rescan_remove_lock, so a removal that holds the
 * lock and drains the file does not wait for it: no cycle, where
 * remove_store() above has one.  The break also takes a reference on the
 * device's kobject and the unbreak drops it: dev stays alive across the
 * wait, whoever removes it meanwhile.  (s390's store goes on to rescan the
 * bus; ours only removes.)
 */
static __noinline ssize_t recover_store(struct device *dev, struct device_attribute *attr,
					const char *buf, size_t count)
{
	struct sysfs_dirent *sd;

	(void)buf;
	delay_point("pci_store_entry");
	sd = sysfs_file_break_active_protection(&dev->kobj, &attr->attr);
	if (WARN_ON(!sd))	/* never: a node with an operation inside is still linked */
		return -ENODEV;
	device_remove_file(dev, attr);	/* of several writers, the first removes it; it drains, not us */
	pci_stop_and_remove_bus_device_locked(to_pci_dev(dev));
	sysfs_file_unbreak_active_protection(sd);
	return count;
}

DEVICE_ATTR(recover, 0200, NULL, recover_store);

/* "pciN" -> N, for N a slot that exists; -1 for anything else ("pcifoo", "pci01"). */
static int pci_number(const char *devname)
{
	const char *digits = devname + strlen("pci");
	char *end;
	long n;

	if (!isdigit((unsigned char)digits[0]) || (digits[0] == '0' && digits[1]))
		return -1;
	n = strtol(digits, &end, 10);
	return *end == '\0' && n < PCI_DEV_MAX ? (int)n : -1;
}

int pci_plug(const char *devname, struct device_attribute *driver_attr)
{
	int n = pci_number(devname), err = 0;
	struct pci_dev *pdev;

	if (n < 0)
		return -EINVAL;
	mutex_lock(&pci_rescan_remove_lock);
	if (pci_devs[n]) {
		err = -EEXIST;
		goto out;
	}
	pdev = kzalloc(sizeof(*pdev), "pci_dev");
	pdev->nr = n;
	pdev->dev.release = pci_release_dev;
	err = device_register(&pdev->dev, "pci%d", n);
	if (err) {
		put_device(&pdev->dev);	/* as after a failed device_register() in the kernel */
		goto out;
	}
	/* A file that cannot be created is missing; the device works without it. */
	device_create_file(&pdev->dev, &dev_attr_vendor);
	device_create_file(&pdev->dev, &dev_attr_remove);
	if (driver_attr)
		device_create_file(&pdev->dev, driver_attr);
	pci_devs[n] = pdev;
out:
	mutex_unlock(&pci_rescan_remove_lock);
	return err;
}

int pci_unplug(const char *devname)
{
	int n = pci_number(devname);
	int err = -ENODEV;

	if (n < 0)
		return err;
	mutex_lock(&pci_rescan_remove_lock);
	if (pci_devs[n]) {
		pci_remove_nr(n);
		err = 0;
	}
	mutex_unlock(&pci_rescan_remove_lock);
	return err;
}

void pci_unplug_all(void)
{
	mutex_lock(&pci_rescan_remove_lock);
	for (int n = 0; n < PCI_DEV_MAX; n++)
		pci_remove_nr(n);
	mutex_unlock(&pci_rescan_remove_lock);
}
