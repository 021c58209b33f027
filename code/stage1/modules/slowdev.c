/* slowdev.c - a device whose store() is slow, and whose driver frees it the moment it is unplugged. */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <delay.h>
#include <device.h>
#include <hotplug.h>
#include <module.h>
#include <slab.h>

/*
 * struct slowdev - one device, /sys/devices/slowN, with one attribute:
 * "echo MS > busy_ms" keeps the device busy for MS milliseconds inside
 * store(), as a driver that talks to slow hardware does, and then records
 * MS in the device's memory.
 *
 * The driver frees its slowdev as soon as it is unplugged, the way
 * mouse_naive does (stage 1).  Unplugging waits for a store() in flight
 * to return (stage 2 through the file's orphaning, stage 3 on from the
 * active reference), so store() itself is safe; whether the rest is, is
 * what the scenarios of stages 2 and 3 show.  It lives in stage 1, the
 * base both of those build on; stage 1 itself, where nothing waits, has
 * no scenario for it.  busy_ms is atomic because
 * two writers, each through its own open file, may be inside store() at
 * once.
 */
struct slowdev {
	struct device dev;
	atomic_int busy_ms;
};

#define SLOWDEV_MAX 4
static struct slowdev *slowdevs[SLOWDEV_MAX];

static ssize_t busy_ms_show(struct device *dev, struct device_attribute *attr, char *buf)
{
	struct slowdev *s = container_of(dev, struct slowdev, dev);

	(void)attr;
	return snprintf(buf, 32, "%d\n", atomic_load(&s->busy_ms));
}

static __noinline ssize_t busy_ms_store(struct device *dev, struct device_attribute *attr,
					const char *buf, size_t count)
{
	struct slowdev *s = container_of(dev, struct slowdev, dev);
	int ms = atoi(buf);

	(void)attr;
	if (ms < 0 || ms > 10000)
		return -EINVAL;
	/* Busy from here on: a scenario that arms this point can await the store inside store(). */
	delay_point("busy_ms_store");
	msleep(ms);
	/* After the wait, the driver's memory again: it must still be there. */
	atomic_store(&s->busy_ms, ms);
	return count;
}

static DEVICE_ATTR(busy_ms, 0644, busy_ms_show, busy_ms_store);

static __noinline void slowdev_release(struct device *dev)
{
	(void)dev;	/* nothing: the driver frees on unplug, right after unregistering */
}

static int slowdev_number(const char *devname)
{
	int n = atoi(devname + strlen("slow"));

	return n >= 0 && n < SLOWDEV_MAX ? n : -1;
}

static int slowdev_plug(const char *devname)
{
	int n = slowdev_number(devname);
	struct slowdev *s;

	if (n < 0 || slowdevs[n])
		return -EEXIST;
	s = kzalloc(sizeof(*s), "slowdev");
	s->dev.release = slowdev_release;
	device_register(&s->dev, "%s", devname);
	device_create_file(&s->dev, &dev_attr_busy_ms);
	slowdevs[n] = s;
	return 0;
}

/*
 * slowdev_remove - device_remove_file() waits for a store() in flight;
 * once device_unregister() returns sysfs is done with s for good, and
 * the memory goes at once.
 */
static void slowdev_remove(struct slowdev *s)
{
	device_remove_file(&s->dev, &dev_attr_busy_ms);
	device_unregister(&s->dev);
	kfree(s);
}

static int slowdev_unplug(const char *devname)
{
	int n = slowdev_number(devname);
	struct slowdev *s = n >= 0 ? slowdevs[n] : NULL;

	if (!s)
		return -ENODEV;
	slowdevs[n] = NULL;
	slowdev_remove(s);
	return 0;
}

static struct hotplug_bus slowdev_bus = { .prefix = "slow", .plug = slowdev_plug, .unplug = slowdev_unplug };

static int slowdev_init(void)
{
	hotplug_register(&slowdev_bus);
	return 0;
}

static void slowdev_exit(void)
{
	hotplug_unregister(&slowdev_bus);
	for (int n = 0; n < SLOWDEV_MAX; n++)
		if (slowdevs[n])
			slowdev_remove(slowdevs[n]);
}

MODULE_INFO("slowdev", slowdev_init, slowdev_exit);
