/* mutexdev_fixed.c - mutexdev written right: the device leaves the driver's state under the lock, sysfs outside it. */
#include <stdio.h>
#include <string.h>
#include <device.h>
#include <hotplug.h>
#include <module.h>
#include <mutex.h>
#include <slab.h>

/*
 * mutexdev with its one mistake fixed.  The unplug still takes drv->lock,
 * but only to take the device out of the driver's state; it calls
 * device_unregister() after letting go of it.  A show() in flight may
 * then wait for drv->lock, and get it, while the unregister waits for the
 * show(): the only order left is s_active, then drv->lock, and lockdep
 * finds no cycle however the two runs are arranged.  The kernel's drivers
 * do the same (take the device off their lists under their lock, remove
 * it from sysfs outside the lock).
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

/* The fix: under drv->lock only the driver's own state; device_unregister() after. */
static __noinline int mutexdev_unplug(const char *devname)
{
	struct mutexdev_driver *drv = &mutexdev_drv;
	struct device *dev;

	(void)devname;
	mutex_lock(&drv->lock);
	dev = drv->dev;
	drv->dev = NULL;
	mutex_unlock(&drv->lock);
	if (!dev)
		return -ENODEV;
	device_unregister(dev);
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

MODULE_INFO("mutexdev_fixed", mutexdev_init, mutexdev_exit);
