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
 *   way=break what SCSI's delete (sdev_store_delete(), since 0ee223b2e1f6)
 *             and s390's PCI recover (recover_store(), 576c75e36c68) do by
 *             hand: sysfs_break_active_protection() (which also pins the
 *             device's kobject until the unbreak),
 *             device_remove_file(), take the lock and remove the device,
 *             and only then sysfs_unbreak_active_protection().  The store
 *             gives its active reference back after it has let go of the
 *             lock, so nobody who holds the lock waits for it.
 *
 * Writing 1 to /sys/module/selfremove/parameters/unplug takes the device
 * out as a hotplug driver does: under selfremove_lock, held across the
 * removal (pci_rescan_remove_lock and pci_stop_and_remove_bus_device()
 * stand behind it).  The self way takes the same lock once
 * device_remove_file_self() has returned, as PCI's remove_store() does.
 * With meet=1 the two meet where a real unplug can catch a store: the
 * unplug waits until a store is inside remove's store(), and the store
 * waits until the unplug has deactivated its node and so sleeps in the
 * drain, waiting for this store.  Then the self way deadlocks: the store's
 * device_remove_file_self() breaks its protection and removes the node
 * under kernfs_rwsem, restores its active reference before it returns
 * (kernfs_remove_self() in fs/kernfs/dir.c), and waits for
 * selfremove_lock; the unplug, woken by the break but run only after the
 * store lets go of the CPU, finds the count one above the bias and sleeps
 * again in kernfs_drain().  On one CPU without full preemption (make
 * real-kernel boots one vCPU with preempt=voluntary, Debian's default) nothing
 * can run between the break and the restore, so the hang is certain
 * there; on more CPUs it is a race the unplug can win.  The break way
 * runs clean in the same meeting.
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
#include <linux/jiffies.h>
#include <linux/kernfs.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/string.h>
#include <linux/sysfs.h>
#include <linux/wait.h>

static char *way = "self";
module_param(way, charp, 0444);
MODULE_PARM_DESC(way, "how remove's store removes its device: self, old or break");

static char *name = "selfremove0";
module_param(name, charp, 0444);
MODULE_PARM_DESC(name, "the device's name under /sys/devices");

static char *attr = "remove";
module_param(attr, charp, 0444);
MODULE_PARM_DESC(attr, "the name of the self-removing attribute");

static unsigned int delay_ms;
module_param(delay_ms, uint, 0444);
MODULE_PARM_DESC(delay_ms, "sleep this long in the store after the removal, before returning");

static bool meet;
module_param(meet, bool, 0444);
MODULE_PARM_DESC(meet, "the store and an unplug wait for each other: the unplug drains the store");

/* The device while it is registered; whoever unregisters it clears this under the lock. */
static struct device *selfremove_dev;
static DEFINE_MUTEX(selfremove_lock);
static enum { WAY_SELF, WAY_OLD, WAY_BREAK } selfremove_way;

/* meet=1: the two sides of the meeting, each waiting for the other's flag. */
static DECLARE_WAIT_QUEUE_HEAD(meet_wq);
static bool store_inside;
#define MEET_TIMEOUT (30 * HZ)

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

/*
 * selfremove_meet_unplug - with meet=1, hold this store (inside its active
 * reference) until an unplug has deactivated its node: the bias the
 * removal adds makes the count negative just before kernfs_drain() sleeps.
 * The count is kernfs's own (struct kernfs_node in <linux/kernfs.h>); a
 * test module reads it because no interface says "someone drains me".
 * The waits are interruptible, so that only the deadlock under test is a
 * hung task.
 */
static void selfremove_meet_unplug(struct device *dev, struct device_attribute *da)
{
	struct kernfs_node *kn;
	unsigned long deadline = jiffies + MEET_TIMEOUT;

	WRITE_ONCE(store_inside, true);
	wake_up_all(&meet_wq);
	kn = sysfs_get_dirent(dev->kobj.sd, da->attr.name);
	if (!kn)
		return;
	while (atomic_read(&kn->active) >= 0 && time_before(jiffies, deadline))
		msleep_interruptible(10);
	if (atomic_read(&kn->active) < 0)
		pr_info("selfremove: remove_store: %s/%s is being drained: removing it now\n",
			dev_name(dev), da->attr.name);
	else	/* the scenario's console check wants the line above: this one fails it */
		pr_warn("selfremove: remove_store: no unplug came within %d s\n",
			MEET_TIMEOUT / HZ);
	kernfs_put(kn);
}

/*
 * selfremove_store_break - SCSI's delete: break, remove the file, lock and
 * remove the device, unbreak.  sysfs_break_active_protection() also takes
 * a reference on the kobject, dropped by the unbreak, so the device
 * outlives an unplug that comes meanwhile (fs/sysfs/file.c).
 */
static void selfremove_store_break(struct device *dev, struct device_attribute *da)
{
	struct kernfs_node *kn;
	struct device *ours;

	kn = sysfs_break_active_protection(&dev->kobj, &da->attr);
	WARN_ON_ONCE(!kn);
	device_remove_file(dev, da);
	ours = selfremove_take(dev);
	if (ours)
		root_device_unregister(ours);
	else
		pr_info("selfremove: remove_store: the device was already taken out\n");
	if (kn)
		sysfs_unbreak_active_protection(kn);
}

static ssize_t remove_store(struct device *dev, struct device_attribute *da,
			    const char *buf, size_t count)
{
	if (meet)
		selfremove_meet_unplug(dev, da);
	if (selfremove_way == WAY_BREAK) {
		selfremove_store_break(dev, da);
		return count;
	}
	if (selfremove_way == WAY_OLD) {
		/* Waits until no operation is inside this file: never, we are one. */
		device_remove_file(dev, da);
	} else if (!device_remove_file_self(dev, da)) {
		return count;	/* another writer is removing it */
	}
	/* The self way: the count is back, and now the lock an unplug may hold. */
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

/*
 * unplug_set - "echo 1 > /sys/module/selfremove/parameters/unplug": take
 * the device out under selfremove_lock, held across the removal.  Its
 * remove file goes first, by name, while the device's directory is still
 * there (device_del() would remove it later, in kobject_del(), after
 * clearing the kobject's sysfs node, where a store still inside could no
 * longer find its own file).
 */
static int unplug_set(const char *val, const struct kernel_param *kp)
{
	struct device *dev;

	if (meet && wait_event_interruptible_timeout(meet_wq, READ_ONCE(store_inside),
						     MEET_TIMEOUT) <= 0)
		return -ETIMEDOUT;
	mutex_lock(&selfremove_lock);
	dev = selfremove_dev;
	if (dev) {
		pr_info("selfremove: unplug: removing %s under selfremove_lock\n", dev_name(dev));
		device_remove_file(dev, &dev_attr_remove);
		root_device_unregister(dev);
		selfremove_dev = NULL;
	}
	mutex_unlock(&selfremove_lock);
	return 0;
}

static const struct kernel_param_ops unplug_ops = { .set = unplug_set };
module_param_cb(unplug, &unplug_ops, NULL, 0200);
MODULE_PARM_DESC(unplug, "write anything: take the device out under selfremove_lock");

static int __init selfremove_init(void)
{
	struct device *dev;
	int err;

	if (!strcmp(way, "self")) {
		selfremove_way = WAY_SELF;
	} else if (!strcmp(way, "old")) {
		selfremove_way = WAY_OLD;
	} else if (!strcmp(way, "break")) {
		selfremove_way = WAY_BREAK;
	} else {
		pr_err("selfremove: way=%s: want way=self, old or break\n", way);
		return -EINVAL;
	}
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
		name, attr, way);
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
