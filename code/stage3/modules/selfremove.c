/* selfremove.c - a device with a "remove" attribute that unregisters it from inside its own store(). */
#include <stdio.h>
#include <string.h>
#include <device.h>
#include <hotplug.h>
#include <module.h>
#include <slab.h>

/*
 * The wrong way to write what scsi_mod's "delete" does right.  remove's
 * store() runs under an active reference on its own node (and on the
 * device's directory); device_remove_file() deactivates that node, which
 * waits until every active reference is gone, including the one the
 * waiting store() itself holds.  Nothing will ever release it: the task
 * sleeps for good, and the hung-task watchdog ends the run (exit 4).
 * sysfs_schedule_callback() exists to do the removal from another task,
 * after store() has returned.
 */
static struct device *selfremove_dev;

static __noinline void selfremove_release(struct device *dev)
{
	kfree(dev);
}

static __noinline ssize_t remove_store(struct device *dev, struct device_attribute *attr,
				       const char *buf, size_t count)
{
	(void)buf;
	device_remove_file(dev, attr);		/* waits for this very store() */
	device_unregister(dev);
	selfremove_dev = NULL;
	return count;
}

static DEVICE_ATTR(remove, 0200, NULL, remove_store);

static int selfremove_plug(const char *devname)
{
	if (selfremove_dev)
		return -EEXIST;
	selfremove_dev = kzalloc(sizeof(*selfremove_dev), "selfremove_device");
	selfremove_dev->release = selfremove_release;
	device_register(selfremove_dev, "%s", devname);
	device_create_file(selfremove_dev, &dev_attr_remove);
	return 0;
}

static int selfremove_unplug(const char *devname)
{
	(void)devname;
	if (!selfremove_dev)
		return -ENODEV;
	device_remove_file(selfremove_dev, &dev_attr_remove);
	device_unregister(selfremove_dev);
	selfremove_dev = NULL;
	return 0;
}

static struct hotplug_bus selfremove_bus = {
	.prefix = "selfremove", .plug = selfremove_plug, .unplug = selfremove_unplug,
};

static int selfremove_init(void)
{
	hotplug_register(&selfremove_bus);
	return 0;
}

static void selfremove_exit(void)
{
	hotplug_unregister(&selfremove_bus);
	if (selfremove_dev)
		selfremove_unplug(NULL);
}

MODULE_INFO("selfremove", selfremove_init, selfremove_exit);
