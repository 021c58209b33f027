/* cdev.c - character devices: the table of numbers, open by number, and a file's calls into its driver. */
#include <stdio.h>
#include <string.h>
#include "cdev.h"
#include "delay.h"
#include "module.h"
#include "mutex.h"
#include "slab.h"

/* cdev_map - every added cdev; cdev_lock guards it and the lookups' gets. */
static struct cdev *cdev_map;
static DEFINE_MUTEX(cdev_lock);

/*
 * chrdev_read: a read of a file that was opened earlier reaches its driver
 * this much later.  A scenario opens /dev/mouse0 with "cat ... &", unplugs
 * the mouse meanwhile, and the read then runs as a read of a file held
 * open across the unplug does (make real-kernel's "cat <&3").  Passed only
 * when armed: a delay point is also a point where the explorer may switch
 * tasks, and the stages' explored schedules stay what they were.
 */
DELAY_POINT(chrdev_read)
DELAY_POINT(chrdev_poll)	/* the same, before a poll */

void cdev_init(struct cdev *cdev, const struct file_operations *fops)
{
	memset(cdev, 0, sizeof(*cdev));
	kref_init(&cdev->kref);
	cdev->ops = fops;
	cdev->owner = fops->owner;
}

struct cdev *cdev_alloc(void)
{
	struct cdev *p = kzalloc(sizeof(*p), "cdev");

	kref_init(&p->kref);
	p->dynamic = true;
	return p;
}

/* cdev_range_taken - does a cdev of the table hold a number of [dev, dev + count)?  With cdev_lock. */
static bool cdev_range_taken(dev_t dev, unsigned int count)
{
	for (struct cdev *p = cdev_map; p; p = p->next)
		if (dev < p->dev + p->count && p->dev < dev + count)
			return true;
	return false;
}

int cdev_add(struct cdev *p, dev_t dev, unsigned int count)
{
	int err = -EBUSY;

	mutex_lock(&cdev_lock);
	if (!cdev_range_taken(dev, count)) {
		p->dev = dev;
		p->count = count;
		snprintf(p->trace_name, sizeof(p->trace_name), "cdev:%u:%u", MAJOR(dev), MINOR(dev));
		p->next = cdev_map;
		cdev_map = p;
		trace_event("create", p->trace_name, NULL);
		err = 0;
	}
	mutex_unlock(&cdev_lock);
	return err;
}

/* cdev_default_release - the last reference: an embedded cdev is the driver's memory, cdev_alloc()'s is ours. */
static void cdev_default_release(struct kref *kref)
{
	struct cdev *p = container_of(kref, struct cdev, kref);

	trace_event("release", p->trace_name, NULL);
	if (p->dynamic)
		kfree(p);
}

/* cdev_put - drop a reference taken by an open (with its module pin) or by cdev_add(). */
static void cdev_put(struct cdev *p, struct module *owner)
{
	kref_put(&p->kref, cdev_default_release);
	module_put(owner);
}

void cdev_del(struct cdev *p)
{
	mutex_lock(&cdev_lock);
	for (struct cdev **pp = &cdev_map; *pp; pp = &(*pp)->next)
		if (*pp == p) {
			*pp = p->next;
			break;
		}
	mutex_unlock(&cdev_lock);
	trace_event("del", p->trace_name, NULL);
	kref_put(&p->kref, cdev_default_release);
}

/*
 * cdev_get_by_number - the cdev that holds dev, with a reference on it and
 * a pin on its owner, or NULL.  Under cdev_lock: a cdev in the table still
 * has cdev_add()'s reference, so the get cannot race its last put.
 */
static struct cdev *cdev_get_by_number(dev_t dev)
{
	struct cdev *p;

	mutex_lock(&cdev_lock);
	for (p = cdev_map; p; p = p->next)
		if (dev >= p->dev && dev < p->dev + p->count)
			break;
	if (p && !try_module_get(p->owner))
		p = NULL;
	if (p)
		kref_get(&p->kref);
	mutex_unlock(&cdev_lock);
	return p;
}

int chrdev_open(dev_t dev, int mode, struct file **filp)
{
	struct cdev *p = cdev_get_by_number(dev);
	struct file *file;
	int err;

	if (!p)
		return -ENXIO;
	file = kzalloc(sizeof(*file), "file");
	file->f_op = p->ops;
	file->f_inode.i_rdev = dev;
	file->f_inode.i_cdev = p;
	file->f_mode = mode;
	trace_name(file->trace_name, sizeof(file->trace_name), "file", p->trace_name);
	trace_event("open", file->trace_name, "ref=%s", p->trace_name);
	err = file->f_op->open ? file->f_op->open(&file->f_inode, file) : 0;
	if (err) {
		trace_event("close", file->trace_name, NULL);
		cdev_put(p, p->owner);
		kfree(file);
		return err;
	}
	*filp = file;
	return 0;
}

ssize_t kernel_read(struct file *file, void *buf, size_t len, loff_t *pos)
{
	if (!file->f_op->read)
		return -EINVAL;
	if (delay_armed("chrdev_read"))
		delay_point("chrdev_read");
	return file->f_op->read(file, buf, len, pos);
}

long vfs_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	if (!file->f_op->unlocked_ioctl)
		return -ENOTTY;
	return file->f_op->unlocked_ioctl(file, cmd, arg);
}

unsigned int vfs_poll(struct file *file)
{
	if (delay_armed("chrdev_poll"))
		delay_point("chrdev_poll");
	if (!file->f_op->poll)
		return POLLIN | POLLOUT;
	return file->f_op->poll(file);
}

/*
 * The owner is read from the file's operations, not from the cdev: the
 * cdev may sit in memory its driver has freed by now (cdev.h), and its
 * last put below is the file's last look at it.
 */
void fput(struct file *file)
{
	struct cdev *p = file->f_inode.i_cdev;
	struct module *owner = file->f_op->owner;

	trace_event("close", file->trace_name, NULL);
	if (file->f_op->release)
		file->f_op->release(&file->f_inode, file);
	cdev_put(p, owner);
	kfree(file);
}
