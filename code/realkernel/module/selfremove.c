// SPDX-License-Identifier: GPL-2.0
/*
 * selfremove.c - a pseudo device whose "remove" attribute unregisters the
 * device from inside its own store(), the new way or the old way.
 *
 * The workbook's test module for Linux 6.1 (make real-kernel).  It puts the
 * lines stage 4 runs on its simulated kernel in front of the real one:
 *
 *   way=self  device_remove_file_self(): the store first gives up the
 *             active reference it runs under, so the removal has nothing
 *             of its own to wait for, and the write returns with the
 *             device gone.
 *   way=old   device_remove_file(): the removal drains the attribute's
 *             node, and one of the operations it waits for is this very
 *             store.  The writer sleeps for good in kernfs_drain(); the
 *             hung-task detector reports it.
 *
 * The device sits straight under /sys/devices (root_device_register()), and
 * its name, the name of its remove attribute and a read-only "vendor" file
 * mirror stage 4's devices (selfremove0/remove, pci0/remove, pci0/eject,
 * pci0/vendor), so a scenario's lines are the same text on both kernels.
 * delay_ms keeps the store in the window after the device is gone and
 * before it returns into this module: an rmmod in that window unloads the
 * code the store is about to return to.
 */
#include <linux/delay.h>
#include <linux/device.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/string.h>
#include <linux/sysfs.h>

static char *way = "self";
module_param(way, charp, 0444);
MODULE_PARM_DESC(way, "how remove's store removes its device: self or old");

static char *name = "selfremove0";
module_param(name, charp, 0444);
MODULE_PARM_DESC(name, "the device's name under /sys/devices");

static char *attr = "remove";
module_param(attr, charp, 0444);
MODULE_PARM_DESC(attr, "the name of the self-removing attribute");

static unsigned int delay_ms;
module_param(delay_ms, uint, 0444);
MODULE_PARM_DESC(delay_ms, "sleep this long in the store after the removal, before returning");

/* The device while it is registered; whoever unregisters it clears this under the lock. */
static struct device *selfremove_dev;
static DEFINE_MUTEX(selfremove_lock);
static bool old_way;

/* selfremove_take - claim the device for unregistering; NULL if someone already has. */
static struct device *selfremove_take(struct device *dev)
{
	struct device *ours;

	mutex_lock(&selfremove_lock);
	ours = selfremove_dev;
	if (ours && (!dev || ours == dev))
		selfremove_dev = NULL;
	else
		ours = NULL;
	mutex_unlock(&selfremove_lock);
	return ours;
}

static ssize_t vendor_show(struct device *dev, struct device_attribute *da, char *buf)
{
	return sysfs_emit(buf, "0x8086\n");
}
static DEVICE_ATTR_RO(vendor);

static ssize_t remove_store(struct device *dev, struct device_attribute *da,
			    const char *buf, size_t count)
{
	if (old_way) {
		/* Waits until no operation is inside this file: never, we are one. */
		device_remove_file(dev, da);
	} else if (!device_remove_file_self(dev, da)) {
		return count;	/* another writer is removing it */
	}
	dev = selfremove_take(dev);
	if (dev)
		root_device_unregister(dev);
	if (delay_ms)
		msleep(delay_ms);	/* the window: nothing waits for this store now */
	return count;
}

/* Named at load time (attr=), so not DEVICE_ATTR_WO(). */
static struct device_attribute dev_attr_remove = {
	.attr = { .mode = 0200 },
	.store = remove_store,
};

static int __init selfremove_init(void)
{
	struct device *dev;
	int err;

	if (strcmp(way, "self") && strcmp(way, "old")) {
		pr_err("selfremove: way=%s: want way=self or way=old\n", way);
		return -EINVAL;
	}
	old_way = !strcmp(way, "old");
	dev_attr_remove.attr.name = attr;
	sysfs_attr_init(&dev_attr_remove.attr);

	dev = root_device_register(name);
	if (IS_ERR(dev))
		return PTR_ERR(dev);
	err = device_create_file(dev, &dev_attr_vendor);
	if (!err)
		err = device_create_file(dev, &dev_attr_remove);
	if (err) {
		root_device_unregister(dev);
		return err;
	}
	selfremove_dev = dev;
	pr_info("selfremove: /sys/devices/%s/%s removes its device the %s way\n",
		name, attr, old_way ? "old" : "self");
	return 0;
}

static void __exit selfremove_exit(void)
{
	struct device *dev = selfremove_take(NULL);

	if (dev)
		root_device_unregister(dev);
}

module_init(selfremove_init);
module_exit(selfremove_exit);
MODULE_DESCRIPTION("A device that removes itself from its own sysfs store (workbook test module)");
MODULE_LICENSE("GPL");
