/* bus.c - stage 5's driver core: plug creates a device and probes, unplug unbinds (remove(), then devres) and unregisters. */
#include <stdio.h>
#include <string.h>
#include <bus.h>
#include <devres.h>
#include <hotplug.h>
#include <mutex.h>
#include <slab.h>

/*
 * struct bus_device - a device the bus created: the struct device, and
 * which driver it is bound to.  Freed by its release, at its last put,
 * which an open sysfs file may delay: never by the driver.
 */
struct bus_device {
	struct device dev;
	struct device_driver *drv;
	char name[16];
	struct bus_device *next;
};

/* bus_lock guards the lists; probe and remove run without it (they may sleep). */
static DEFINE_MUTEX(bus_lock);
static struct device_driver *drivers;
static struct bus_device *devices;

/* bus_device_release - the last reference to the device: free the bus's structure. */
static __noinline void bus_device_release(struct device *dev)
{
	kfree(container_of(dev, struct bus_device, dev));
}

/* bus_driver_of - the registered driver whose prefix @name starts with.  With bus_lock. */
static struct device_driver *bus_driver_of(const char *name)
{
	struct device_driver *drv;

	for (drv = drivers; drv; drv = drv->next)
		if (strncmp(name, drv->prefix, strlen(drv->prefix)) == 0)
			break;
	return drv;
}

/* bus_take - the device called @name (any name if NULL) bound to @drv (any if NULL), off the list, or NULL. */
static struct bus_device *bus_take(const char *name, struct device_driver *drv)
{
	struct bus_device **pp, *bd;

	mutex_lock(&bus_lock);
	for (pp = &devices; (bd = *pp); pp = &bd->next)
		if ((!name || strcmp(bd->name, name) == 0) && (!drv || bd->drv == drv))
			break;
	if (bd)
		*pp = bd->next;
	mutex_unlock(&bus_lock);
	return bd;
}

void device_release_driver(struct device *dev)
{
	struct bus_device *bd = container_of(dev, struct bus_device, dev);

	bd->drv->remove(dev);
	/* The driver's remove() has returned: what it allocated with devm_ goes now. */
	devres_release_all(dev);
	dev_set_drvdata(dev, NULL);
}

/* bus_plug - the hotplug handler: create the device, probe its driver. */
static int bus_plug(const char *devname)
{
	struct device_driver *drv;
	struct bus_device *bd;
	int err;

	mutex_lock(&bus_lock);
	drv = bus_driver_of(devname);
	for (bd = devices; bd && strcmp(bd->name, devname) != 0; bd = bd->next)
		;
	mutex_unlock(&bus_lock);
	if (!drv)
		return -ENODEV;
	if (bd || strlen(devname) >= sizeof(bd->name))
		return bd ? -EEXIST : -EINVAL;
	bd = kzalloc(sizeof(*bd), "bus_device");
	snprintf(bd->name, sizeof(bd->name), "%s", devname);
	bd->drv = drv;
	bd->dev.release = bus_device_release;
	device_register(&bd->dev, "%s", devname);
	err = drv->probe(&bd->dev);
	if (err) {
		devres_release_all(&bd->dev);
		device_unregister(&bd->dev);
		return err;
	}
	mutex_lock(&bus_lock);
	bd->next = devices;
	devices = bd;
	mutex_unlock(&bus_lock);
	return 0;
}

/* bus_unbind - unbind and unregister a device taken off the list. */
static void bus_unbind(struct bus_device *bd)
{
	device_release_driver(&bd->dev);
	device_unregister(&bd->dev);
}

/* bus_unplug - the hotplug handler: the device is gone. */
static int bus_unplug(const char *devname)
{
	struct bus_device *bd = bus_take(devname, NULL);

	if (!bd)
		return -ENODEV;
	bus_unbind(bd);
	return 0;
}

int driver_register(struct device_driver *drv)
{
	drv->hp = kzalloc(sizeof(*drv->hp), "hotplug_bus");
	drv->hp->prefix = drv->prefix;
	drv->hp->plug = bus_plug;
	drv->hp->unplug = bus_unplug;
	mutex_lock(&bus_lock);
	drv->next = drivers;
	drivers = drv;
	mutex_unlock(&bus_lock);
	hotplug_register(drv->hp);
	return 0;
}

void driver_unregister(struct device_driver *drv)
{
	struct device_driver **pp;
	struct bus_device *bd;

	hotplug_unregister(drv->hp);
	while ((bd = bus_take(NULL, drv)))
		bus_unbind(bd);
	mutex_lock(&bus_lock);
	for (pp = &drivers; *pp != drv; pp = &(*pp)->next)
		;
	*pp = drv->next;
	mutex_unlock(&bus_lock);
	kfree(drv->hp);
}
