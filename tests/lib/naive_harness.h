/* naive_harness.h - one harness every stage shares: a driver that frees its data at unplug, read through a file held open. */
#ifndef KTEST_NAIVE_HARNESS_H
#define KTEST_NAIVE_HARNESS_H

#include <stdio.h>
#include <string.h>
#include <device.h>
#include "explore.h"
#include "oops.h"
#include "slab.h"
#include "task.h"
#include "vfs.h"
#include "wait.h"

/*
 * The article's mouse, reduced to its race: a file of the device is open
 * (opened before the race, as "cat < clicks &" would hold it), one task
 * reads it and closes it, another unplugs the device, and the driver frees
 * its data as soon as device_unregister() returns, as drivers were written.
 *
 * Stages 1 and 2 are broken by design here: the open file pins the
 * kobject, nothing pins the driver's data, and on the schedules where the
 * unplug runs between the open and the show() the read is a use-after-free.
 * The explorer must find it (expected_bug).  From stage 3 on, the unplug's
 * drain waits for a read in flight and refuses a later one (-ENODEV): no
 * schedule may fail.
 */
static struct device naive_dev;
static int *naive_clicks;		/* the driver's data, freed at unplug */
static struct file *naive_file;

static ssize_t naive_clicks_show(struct device *dev, struct device_attribute *attr, char *buf)
{
	(void)dev;
	(void)attr;
	return sprintf(buf, "%d\n", *naive_clicks);
}
static DEVICE_ATTR(clicks, 0444, naive_clicks_show, NULL);

/* The structure is static: nothing to free when the last reference goes. */
static void naive_release(struct device *dev)
{
	(void)dev;
}

static __maybe_unused void naive_boot(void)
{
	static bool booted;

	if (booted)
		return;
	booted = true;
	task_init_main("test");
	oops_init();
	stage_init();
}

static void naive_setup(void)
{
	naive_clicks = kmalloc(sizeof(*naive_clicks), "naive_clicks");
	*naive_clicks = 3;
	memset(&naive_dev, 0, sizeof(naive_dev));
	naive_dev.release = naive_release;
	if (device_register(&naive_dev, "naive0") || device_create_file(&naive_dev, &dev_attr_clicks) ||
	    vfs_open("/sys/devices/naive0/clicks", VFS_READ, &naive_file))
		explore_fail("the harness could not set up /sys/devices/naive0/clicks");
}

static void *naive_reader_main(void *arg)
{
	char buf[32];

	(void)arg;
	vfs_read(naive_file, buf, sizeof(buf));	/* the value, or -ENODEV once the device is gone */
	vfs_close(naive_file);
	return NULL;
}

static void *naive_unplug_main(void *arg)
{
	(void)arg;
	device_remove_file(&naive_dev, &dev_attr_clicks);
	device_unregister(&naive_dev);
	kfree(naive_clicks);	/* the naive driver: its data goes with the unplug */
	return NULL;
}

/*
 * A second file whose show() fails, and a reader that keeps both files
 * open until the unplug is over: the paths no other test takes.  An
 * operation must give its active reference back when it ends, on its
 * error path too, and not at the close: otherwise the unplug's drain waits
 * for the reader, which waits for the unplug, and nothing ever runs again.
 */
static struct file *naive_broken_file;
static struct wait_queue_head naive_unplugged_wq;
static atomic_bool naive_unplugged;

static ssize_t naive_broken_show(struct device *dev, struct device_attribute *attr, char *buf)
{
	(void)dev;
	(void)attr;
	(void)buf;
	return -EIO;
}
static DEVICE_ATTR(broken, 0444, naive_broken_show, NULL);

static void naive_held_setup(void)
{
	naive_setup();
	init_waitqueue_head(&naive_unplugged_wq);
	atomic_store(&naive_unplugged, false);
	if (device_create_file(&naive_dev, &dev_attr_broken) ||
	    vfs_open("/sys/devices/naive0/broken", VFS_READ, &naive_broken_file))
		explore_fail("the harness could not set up /sys/devices/naive0/broken");
}

static void *naive_holder_main(void *arg)
{
	char buf[32];

	(void)arg;
	vfs_read(naive_file, buf, sizeof(buf));
	vfs_read(naive_broken_file, buf, sizeof(buf));	/* -EIO, or -ENODEV once the device is gone */
	wait_event_desc(&naive_unplugged_wq, "the harness: the unplug to finish", atomic_load(&naive_unplugged));
	vfs_close(naive_broken_file);
	vfs_close(naive_file);
	return NULL;
}

static void *naive_held_unplug_main(void *arg)
{
	(void)arg;
	device_remove_file(&naive_dev, &dev_attr_broken);
	naive_unplug_main(NULL);
	atomic_store(&naive_unplugged, true);
	wake_up_all(&naive_unplugged_wq);
	return NULL;
}

#define NAIVE_READS_HELD_ACROSS_UNPLUG(bug, your_functions) {					\
	.name = "reads-held-across-unplug",					\
	.claim = "reads that end (one of them in an error) hold nothing that an unplug waits for, " \
		 "though their files stay open until the unplug is over",	\
	.setup = naive_held_setup,						\
	.tasks = {								\
		{ "cat", naive_holder_main, NULL },				\
		{ "unplug", naive_held_unplug_main, NULL },			\
	},									\
	.expected_bug = (bug),							\
	.yours = (your_functions),						\
}

#define NAIVE_READ_VS_UNPLUG(bug, your_functions) {						\
	.name = "read-vs-unplug",						\
	.claim = "a read of a file held open never touches the data a driver freed at unplug", \
	.setup = naive_setup,							\
	.tasks = {								\
		{ "cat", naive_reader_main, NULL },				\
		{ "unplug", naive_unplug_main, NULL },				\
	},									\
	.expected_bug = (bug),							\
	.yours = (your_functions),						\
}

#endif
