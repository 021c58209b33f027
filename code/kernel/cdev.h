/* cdev.h - character devices: a driver's file_operations registered under a device number. */
#ifndef KSIM_CDEV_H
#define KSIM_CDEV_H

#include "fs.h"
#include "kref.h"
#include "vfs.h"	/* VFS_READ, VFS_WRITE */

/*
 * struct cdev - a range of device numbers whose opens go to one driver's
 * file_operations.  A driver embeds it in its per-device state, calls
 * cdev_init() and cdev_add() when the device appears and cdev_del() when
 * it goes.
 *
 * The trap, the kernel's as well as ours: cdev_del() stops new opens and
 * returns.  It does not wait for the files already open, and it does not
 * stop them calling the driver: each keeps its f_op and its private_data,
 * and every read or ioctl still lands in the driver, after its remove()
 * has run and its memory (devres.h) is freed.  Each open file also holds a
 * reference on the cdev itself, so a cdev embedded in memory the driver
 * frees at remove() is read again by the last release.  What keeps the
 * driver's state alive, or tells its open files it is gone, is the
 * driver's job; this layer only counts.
 *
 * Differences from the kernel: the cdev's count is a kref, not a kobject
 * (our kobjects belong to the stages; the kernel's cdev_device_add() makes
 * the device the cdev's kobject parent, which a stage can do by hand); the
 * table of numbers is a list, not kobj_map; a file is opened by number
 * (chrdev_open()), since there is no filesystem of device nodes; nothing
 * here reserves numbers (register_chrdev_region()).  Three follow from
 * opening by number:
 *
 *	cdev_del() stops	the kernel's chrdev_open() looks first at
 *	every open here		the inode's i_cdev, which the node's first
 *				open cached and which only the cdev's
 *				release (cdev_purge()) or the inode's
 *				eviction (cd_forget()) clear: while a file
 *				still holds the cdev, a new open of that
 *				node reaches the driver's open() after
 *				cdev_del().  Here every open looks the
 *				number up, so none does.
 *	one module pin		the kernel pins two modules per open file,
 *				the cdev's owner (cdev_get()) and the
 *				f_op's (fops_get()), and __fput() drops
 *				both.  Here the open pins the cdev's owner
 *				and fput() drops the f_op's: cdev_init()
 *				makes them the same module.
 *	the owner from f_op	the kernel's cdev_put() reads p->owner
 *				from the cdev at the last fput(), memory
 *				that a driver which embedded the cdev in
 *				devm_ memory has freed; fput() here reads
 *				it from the file's f_op, and the put of
 *				the cdev's kref is the close's only look
 *				at the cdev.
 */
struct cdev {
	struct kref kref;		/* the cdev_add()'s reference, and one per open file */
	struct module *owner;		/* pinned by each open file */
	const struct file_operations *ops;
	dev_t dev;			/* the first number of the range */
	unsigned int count;		/* how many numbers */
	struct cdev *next;		/* the table of added cdevs (cdev_map) */
	bool dynamic;			/* cdev_alloc()'s: the last put frees it */
	char trace_name[TRACE_NAME_LEN];
};

/**
 * cdev_init - prepare @cdev, with the operations of its files.
 * @cdev: the structure, usually embedded in the driver's device state
 * @fops: the operations; fops->owner, if set, is pinned by each open file
 *
 * Context: any task.  Return: nothing.
 */
void cdev_init(struct cdev *cdev, const struct file_operations *fops);

/**
 * cdev_alloc - a cdev of its own allocation, freed by its last put: the
 * one to use when open files may outlive the driver's data.
 *
 * The caller sets ->ops and ->owner (cdev_init() is for embedded cdevs).
 *
 * Context: may sleep.  Return: the cdev (never NULL, as kmalloc()).
 */
struct cdev *cdev_alloc(void);

/**
 * cdev_add - make @count numbers from @dev open @p's files from now on.
 * @p: an initialised cdev
 * @dev: the first device number
 * @count: how many
 *
 * Context: may sleep.  Return: 0, or -EBUSY if a number of the range is
 * already taken by another cdev.
 */
int cdev_add(struct cdev *p, dev_t dev, unsigned int count);

/**
 * cdev_del - no new open finds @p; drop cdev_add()'s reference.
 * @p: an added cdev
 *
 * Files already open are untouched: they keep calling @p's operations, and
 * hold their reference on @p until their last fput().  Nothing waits.
 *
 * Context: may sleep.  Return: nothing.
 */
void cdev_del(struct cdev *p);

/**
 * chrdev_open - open device number @dev: find its cdev, pin it and its
 * owner, and call the driver's open().
 * @dev: the device number
 * @mode: VFS_READ and/or VFS_WRITE
 * @filp: set to the new file on success
 *
 * Context: may sleep (the driver's open may).  Return: 0; -ENXIO if no cdev
 * has @dev or its module is going away; or what the driver's open returned.
 */
int chrdev_open(dev_t dev, int mode, struct file **filp);

/**
 * kernel_read - read from an open file through its f_op->read.
 * @file: the file
 * @buf: where to
 * @len: at most this much
 * @pos: the position to read at, advanced by the driver
 *
 * Context: may sleep.  Return: bytes read, 0 at the end, a negative errno,
 * or -EINVAL if the file has no read.
 */
ssize_t kernel_read(struct file *file, void *buf, size_t len, loff_t *pos);

/**
 * vfs_ioctl - the driver's unlocked_ioctl on an open file.
 * @file: the file
 * @cmd: the command
 * @arg: its argument
 *
 * Context: may sleep.  Return: what the driver returned, or -ENOTTY if the
 * file has no ioctl.
 */
long vfs_ioctl(struct file *file, unsigned int cmd, unsigned long arg);

/**
 * vfs_poll - the driver's poll on an open file: what the file is ready for, now.
 * @file: the file
 *
 * A delay point, chrdev_poll, sits before the call when armed (as
 * chrdev_read does before a read): a scenario polls a file held open
 * across an unplug.
 *
 * Context: may sleep.  Return: the POLL* mask (fs.h); a file without a
 * poll is always ready to read and write (POLLIN | POLLOUT), as the
 * kernel's DEFAULT_POLLMASK says.
 */
unsigned int vfs_poll(struct file *file);

/**
 * fput - the last close of @file: the driver's release(), then drop the
 * file's references on the cdev and its module, and free the file.
 * @file: an open file; not to be used after
 *
 * Context: may sleep.  Return: nothing.
 */
void fput(struct file *file);

#endif
