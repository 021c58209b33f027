/* mouse.h - a hot-pluggable USB mouse, the device of the LWN article's example. */
#ifndef KSIM_MOUSE_H
#define KSIM_MOUSE_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <device.h>
#include <hotplug.h>
#include <slab.h>

/*
 * struct mouse - the driver's per-device data, with the struct device
 * embedded: the device's kobject is inside this allocation, so the
 * allocation must live as long as the kobject does.
 */
struct mouse {
	struct device dev;
	int clicks;
	char name[16];
};

#define MOUSE_MAX 4
static struct mouse *mice[MOUSE_MAX];	/* plugged in now, by number */

static ssize_t clicks_show(struct device *dev, struct device_attribute *attr, char *buf)
{
	struct mouse *m = container_of(dev, struct mouse, dev);

	(void)attr;
	return snprintf(buf, 32, "%d\n", m->clicks);
}

static ssize_t clicks_store(struct device *dev, struct device_attribute *attr, const char *buf, size_t count)
{
	struct mouse *m = container_of(dev, struct mouse, dev);

	(void)attr;
	m->clicks = atoi(buf);
	return count;
}

static DEVICE_ATTR(clicks, 0644, clicks_show, clicks_store);

/* mouse_number - "mouse3" -> 3, or -1. */
static inline int mouse_number(const char *devname)
{
	int n = atoi(devname + strlen("mouse"));

	return n >= 0 && n < MOUSE_MAX ? n : -1;
}

/* mouse_add - probe: allocate, register /sys/devices/mouseN with its clicks file. */
static inline int mouse_add(const char *devname, void (*release)(struct device *))
{
	int n = mouse_number(devname);
	struct mouse *m;

	if (n < 0 || mice[n])
		return -EEXIST;
	m = kzalloc(sizeof(*m), "mouse");
	snprintf(m->name, sizeof(m->name), "%s", devname);
	m->dev.release = release;
	device_register(&m->dev, "%s", devname);
	device_create_file(&m->dev, &dev_attr_clicks);
	mice[n] = m;
	return 0;
}

/* mouse_take - the plugged mouse of that name, now forgotten by the driver. */
static inline struct mouse *mouse_take(const char *devname)
{
	int n = mouse_number(devname);
	struct mouse *m = n >= 0 ? mice[n] : NULL;

	if (m)
		mice[n] = NULL;
	return m;
}

#endif
