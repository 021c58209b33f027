/* bus.h - stage 5's driver core: devices that a bus creates, drivers bound to them, devres released after remove(). */
#ifndef KSIM_BUS_H
#define KSIM_BUS_H

#include <device.h>

/*
 * In stages 1-4 a driver allocated the struct device itself, with its data
 * around it.  Here the bus does, as USB's core does for an interface: the
 * device is the bus's, the driver's data hangs off it (dev_set_drvdata(),
 * often from devm_kzalloc()), and the driver sees only probe() and remove().
 * "plug NAME" creates /sys/devices/NAME and probes the driver whose prefix
 * NAME starts with; "unplug NAME" unbinds it (device_release_driver()) and
 * unregisters the device.
 *
 * Unbinding is the kernel's order (__device_release_driver() in
 * drivers/base/dd.c): the driver's remove(), then every managed resource
 * of the device (devres_release_all(), newest first).  A probe that fails
 * has its managed resources released too, as really_probe() does.
 *
 * Differences from the kernel: one bus, no matching tables (a prefix of
 * the device's name), no deferred probe, no device_lock(): plug and unplug
 * of one name are the scenario's, one at a time.  The kernel's remove()
 * runs under device_lock() (device_release_driver_internal()), so a file
 * operation that takes that lock while remove() waits for it deadlocks;
 * no stage 5 driver takes it, and nothing here would show it.  Two
 * orders differ too, neither visible to stage 5's drivers, which have no
 * attributes of their own:
 *
 *	driver attributes	the kernel removes the driver's attribute
 *				groups (drv->dev_groups) in device_remove(),
 *				before it calls remove(), so a driver's
 *				sysfs files are drained before its remove()
 *				runs
 *	hot unplug		the kernel's device_del() removes the
 *				device's attributes (device_remove_attrs())
 *				before it unbinds the driver
 *				(bus_remove_device()); bus_unbind() here
 *				unbinds first, then unregisters
 */
struct device_driver {
	const char *name;
	const char *prefix;		/* claims the devices whose names start with it */
	struct module *owner;
	int (*probe)(struct device *dev);
	void (*remove)(struct device *dev);
	/* The core's: */
	struct hotplug_bus *hp;
	struct device_driver *next;
};

/**
 * driver_register - from now on, plugging a device whose name starts with
 * @drv->prefix creates it and probes @drv.
 * @drv: the driver, in its module's data
 *
 * Context: may sleep.  Return: 0.
 */
int driver_register(struct device_driver *drv);

/**
 * driver_unregister - unbind @drv from every device it drives, then forget it.
 * @drv: a registered driver
 *
 * Each device is unbound (remove(), then its devres) and unregistered, as
 * an unplug would.
 *
 * Context: may sleep.  Return: nothing.
 */
void driver_unregister(struct device_driver *drv);

/**
 * device_release_driver - unbind @dev from its driver: remove(), then devres.
 * @dev: a bound device of the bus
 *
 * Context: may sleep.  Return: nothing.
 */
void device_release_driver(struct device *dev);

#endif
