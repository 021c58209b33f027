/* demo_dev.c - files and a hot-plug bus for testing the scenario runner. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "delay.h"
#include "demo.h"
#include "hotplug.h"
#include "module.h"
#include "slab.h"

/*
 *   /sys/demo/value        read/write: an integer (a store that is not one: -EINVAL)
 *   /sys/demo/slow         a store that passes the delay point demo_slow_store
 *   /sys/demo/remove_self  a store that unregisters its own file: it waits for
 *                          its own operation to end, forever (the watchdog's case)
 *   /sys/demo/oops         a store that writes through a NULL pointer
 *   /sys/demo/warn         a store that WARNs and carries on
 *   /sys/demo/overflow     a store that overflows a signed int (UBSan's control case)
 *   /sys/demo/free         a store that frees a buffer: the second write frees it
 *                          again (the slab's double-free report)
 *   /sys/demo/spin         a store that never returns and never sleeps (the
 *                          soft-lockup detector's case)
 *   plug demoN / unplug demoN   add / remove /sys/devices/demoN/name
 */
static pthread_mutex_t value_lock = PTHREAD_MUTEX_INITIALIZER;
static long value;

static ssize_t value_show(void *data, char *buf, size_t len)
{
	long v;

	(void)data;
	pthread_mutex_lock(&value_lock);
	v = value;
	pthread_mutex_unlock(&value_lock);
	return snprintf(buf, len, "%ld\n", v);
}

static ssize_t value_store(void *data, const char *buf, size_t len)
{
	char tmp[32], *end;
	long v;

	(void)data;
	if (len == 0 || len >= sizeof(tmp))
		return -EINVAL;
	memcpy(tmp, buf, len);
	tmp[len] = '\0';
	v = strtol(tmp, &end, 10);
	if (end == tmp || (*end && strcmp(end, "\n") != 0))
		return -EINVAL;
	pthread_mutex_lock(&value_lock);
	value = v;
	pthread_mutex_unlock(&value_lock);
	return len;
}

static ssize_t slow_show(void *data, char *buf, size_t len)
{
	(void)data;
	return snprintf(buf, len, "slow\n");
}

static ssize_t slow_store(void *data, const char *buf, size_t len)
{
	(void)data;
	(void)buf;
	delay_point(DEMO_SLOW_POINT);
	return len;
}

static ssize_t remove_self_store(void *data, const char *buf, size_t len)
{
	(void)data;
	(void)buf;
	/* Waits for the active operation that is this very store: a deadlock. */
	demo_file_unregister("/sys/demo/remove_self");
	return len;
}

/*
 * An address in the never-mapped first page, but not NULL: UBSan would stop
 * a NULL store itself, before the fault handler could report it.  volatile,
 * so the compiler cannot see through it either.
 */
static int *volatile demo_bad = (int *)16;

static ssize_t oops_store(void *data, const char *buf, size_t len)
{
	(void)data;
	(void)buf;
	*demo_bad = 1;
	return len;
}

static ssize_t warn_store(void *data, const char *buf, size_t len)
{
	(void)data;
	(void)buf;
	WARN_ON(len > 0);
	return len;
}

/* volatile: the compiler may not fold the overflow away, nor warn about it. */
static volatile int demo_big = __INT_MAX__;

static ssize_t overflow_store(void *data, const char *buf, size_t len)
{
	int v = demo_big;

	(void)data;
	(void)buf;
	v += (int)len;		/* undefined: only UBSan says so */
	demo_big = v;
	return len;
}

/* Allocated by the first write to /sys/demo/free, and freed by every write. */
static void *demo_buf;

static ssize_t free_store(void *data, const char *buf, size_t len)
{
	(void)data;
	(void)buf;
	if (!demo_buf)
		demo_buf = kmalloc(24, "demo_buf");
	kfree(demo_buf);
	return len;
}

/* A count that nothing changes: the store spins on it for ever. */
static volatile int demo_spin_done;

static ssize_t spin_store(void *data, const char *buf, size_t len)
{
	(void)data;
	(void)buf;
	while (!demo_spin_done)
		;
	return len;
}

static const struct {
	const char *path;
	demo_show_t show;
	demo_store_t store;
} demo_files[] = {
	{ "/sys/demo/value", value_show, value_store },
	{ "/sys/demo/slow", slow_show, slow_store },
	{ "/sys/demo/remove_self", NULL, remove_self_store },
	{ "/sys/demo/oops", NULL, oops_store },
	{ "/sys/demo/warn", NULL, warn_store },
	{ "/sys/demo/overflow", NULL, overflow_store },
	{ "/sys/demo/spin", NULL, spin_store },
	{ "/sys/demo/free", NULL, free_store },
};

/* ---- the hot-plug bus: one file per device, gone at unplug ---- */
#define DEMO_MAX_DEVICES 8

struct demo_device {
	char name[16];
	char path[64];
};

/* Only the shell task plugs and unplugs (hotplug.c), so no lock is needed here. */
static struct demo_device *devices[DEMO_MAX_DEVICES];

static ssize_t name_show(void *data, char *buf, size_t len)
{
	struct demo_device *dev = data;

	return snprintf(buf, len, "%s\n", dev->name);
}

static int demo_find_device(const char *name)
{
	for (int i = 0; i < DEMO_MAX_DEVICES; i++)
		if (devices[i] && strcmp(devices[i]->name, name) == 0)
			return i;
	return -1;
}

static int demo_plug(const char *name)
{
	struct demo_device *dev;
	int i, err;

	if (demo_find_device(name) >= 0)
		return -EEXIST;
	for (i = 0; i < DEMO_MAX_DEVICES && devices[i]; i++)
		;
	if (i == DEMO_MAX_DEVICES || strlen(name) >= sizeof(dev->name))
		return -ENOSPC;
	dev = calloc(1, sizeof(*dev));
	if (!dev)
		return -ENOMEM;
	snprintf(dev->name, sizeof(dev->name), "%s", name);
	snprintf(dev->path, sizeof(dev->path), "/sys/devices/%s/name", name);
	err = demo_file_register(dev->path, THIS_MODULE, name_show, NULL, dev);
	if (err) {
		free(dev);
		return err;
	}
	devices[i] = dev;
	return 0;
}

static void demo_remove_device(int i)
{
	struct demo_device *dev = devices[i];

	/* Unregistering drains the readers: after it, nobody can reach dev. */
	demo_file_unregister(dev->path);
	devices[i] = NULL;
	free(dev);
}

static int demo_unplug(const char *name)
{
	int i = demo_find_device(name);

	if (i < 0)
		return -ENODEV;
	demo_remove_device(i);
	return 0;
}

static struct hotplug_bus demo_bus = {
	.prefix = "demo",
	.plug = demo_plug,
	.unplug = demo_unplug,
};

static int demo_dev_init(void)
{
	size_t i;
	int err;

	for (i = 0; i < ARRAY_SIZE(demo_files); i++) {
		err = demo_file_register(demo_files[i].path, THIS_MODULE, demo_files[i].show,
					 demo_files[i].store, NULL);
		if (err)
			goto undo;
	}
	hotplug_register(&demo_bus);
	return 0;
undo:
	while (i-- > 0)
		demo_file_unregister(demo_files[i].path);
	return err;
}

static void demo_dev_exit(void)
{
	hotplug_unregister(&demo_bus);
	for (int i = 0; i < DEMO_MAX_DEVICES; i++)
		if (devices[i])
			demo_remove_device(i);
	for (size_t i = 0; i < ARRAY_SIZE(demo_files); i++)
		demo_file_unregister(demo_files[i].path);
}

MODULE_INFO("demo_dev", demo_dev_init, demo_dev_exit);
