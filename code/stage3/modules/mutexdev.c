/* mutexdev.c - a driver that holds its own mutex across device_unregister(), while its show() takes it too. */
#include <stdio.h>
#include <string.h>
#include <device.h>
#include <hotplug.h>
#include <module.h>
#include <mutex.h>
#include <slab.h>

/*
 * The classic driver deadlock of sysfs, written on purpose (mutexdev_fixed
 * is the same driver written right).  drv->lock guards the driver's state:
 * the device it has, and how often "state" was read.
 *
 *   cat state:  sysfs takes the active reference of "state", then
 *               state_show() takes drv->lock                 s_active, then lock
 *   unplug:     mutexdev_unplug() takes drv->lock, then
 *               device_unregister() drains "state"           lock, then s_active
 *
 * A cat that is inside state_show(), waiting for drv->lock, while the
 * unplug holds drv->lock and waits for that cat to leave "state": neither
 * ever moves.  It needs the two to overlap, which a test rarely arranges;
 * lockdep needs only to see each order once, in any two runs.
 */
struct mutexdev_driver {
	struct mutex lock;
	struct device *dev;	/* the one device: /sys/devices/mutexdev0 */
	int reads;
};

static struct mutexdev_driver mutexdev_drv;

static __noinline void mutexdev_release(struct device *dev)
{
	kfree(dev);
}

static __noinline ssize_t state_show(struct device *dev, struct device_attribute *attr, char *buf)
{
	struct mutexdev_driver *drv = &mutexdev_drv;
	int n;

	(void)dev;
	(void)attr;
	mutex_lock(&drv->lock);
	n = ++drv->reads;
	mutex_unlock(&drv->lock);
	return snprintf(buf, 32, "read %d\n", n);
}

static DEVICE_ATTR(state, 0444, state_show, NULL);

static int mutexdev_plug(const char *devname)
{
	struct mutexdev_driver *drv = &mutexdev_drv;
	struct device *dev;

	if (strcmp(devname, "mutexdev0"))
		return -ENODEV;
	mutex_lock(&drv->lock);
	if (drv->dev) {
		mutex_unlock(&drv->lock);
		return -EEXIST;
	}
	dev = kzalloc(sizeof(*dev), "mutexdev_device");
	dev->release = mutexdev_release;
	device_register(dev, "%s", devname);
	device_create_file(dev, &dev_attr_state);
	drv->dev = dev;
	mutex_unlock(&drv->lock);
	return 0;
}

/* The mistake: device_unregister() under drv->lock.  It waits for every show() in flight. */
static __noinline int mutexdev_unplug(const char *devname)
{
	struct mutexdev_driver *drv = &mutexdev_drv;

	(void)devname;
	mutex_lock(&drv->lock);
	if (!drv->dev) {
		mutex_unlock(&drv->lock);
		return -ENODEV;
	}
	device_unregister(drv->dev);
	drv->dev = NULL;
	mutex_unlock(&drv->lock);
	return 0;
}

static struct hotplug_bus mutexdev_bus = {
	.prefix = "mutexdev", .plug = mutexdev_plug, .unplug = mutexdev_unplug,
};

static int mutexdev_init(void)
{
	struct mutexdev_driver *drv = &mutexdev_drv;

	/* One lock class for every lock initialised here: lockdep calls it "&drv->lock". */
	mutex_init(&drv->lock);
	hotplug_register(&mutexdev_bus);
	return 0;
}

static void mutexdev_exit(void)
{
	hotplug_unregister(&mutexdev_bus);
	mutexdev_unplug(NULL);
}

MODULE_INFO("mutexdev", mutexdev_init, mutexdev_exit);
