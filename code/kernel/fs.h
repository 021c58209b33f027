/* fs.h - an open file of a character device: struct file, its file_operations, the inode it was opened through. */
#ifndef KSIM_FS_H
#define KSIM_FS_H

#include "kernel.h"
#include "trace.h"

struct cdev;
struct file;
struct module;

/* dev_t - a device number, major and minor, in the kernel's layout. */
#define MINORBITS	20
#define MINORMASK	((1U << MINORBITS) - 1)
#define MAJOR(dev)	((unsigned int)((dev) >> MINORBITS))
#define MINOR(dev)	((unsigned int)((dev) & MINORMASK))
#define MKDEV(ma, mi)	((dev_t)(((ma) << MINORBITS) | (mi)))

/*
 * struct inode - what a device node names: the device number, and the
 * character device found for it at open (i_cdev).
 *
 * Differences from the kernel: there is no inode cache; each open file has
 * an inode of its own, made at open from the number the caller names.
 */
struct inode {
	dev_t i_rdev;
	struct cdev *i_cdev;
};

/*
 * struct file_operations - the driver's side of an open file.  Every
 * operation is called with the file (and, for open and release, its
 * inode); open usually sets file->private_data to the driver's state for
 * the device, and every later call reads it from there.  owner is the
 * module whose code these are: pinned from open to the last release.
 */
struct file_operations {
	struct module *owner;
	int (*open)(struct inode *inode, struct file *file);
	ssize_t (*read)(struct file *file, char *buf, size_t len, loff_t *ppos);
	long (*unlocked_ioctl)(struct file *file, unsigned int cmd, unsigned long arg);
	unsigned int (*poll)(struct file *file);	/* the POLL* mask below, now */
	int (*release)(struct inode *inode, struct file *file);
};

/*
 * The bits a poll returns (the kernel's values): data to read, room to
 * write, an error, the device hung up.  A driver whose device is gone
 * answers POLLHUP | POLLERR, so a program waiting in poll() wakes and
 * learns it.
 *
 * Differences from the kernel: poll is called with the file only, and
 * answers what is true now, as poll(2) with a timeout of 0 does.  There is
 * no poll_table: the kernel's driver registers the task on its wait queue
 * (poll_wait()) and drops it when poll(2) returns, so a sleeping poll is
 * never inside the driver and never holds the device up.
 */
#define POLLIN		0x0001
#define POLLOUT		0x0004
#define POLLERR		0x0008
#define POLLHUP		0x0010

/*
 * struct file - one open of a device node.  f_op is the cdev's operations,
 * copied at open: what a later cdev_del() or rmmod does to the cdev does
 * not change which functions this file calls.
 *
 * Differences from the kernel: only character devices' files are this
 * struct file.  An open sysfs attribute is still each stage's own struct
 * file, private to its sysfs_file.c, behind vfs.h's calls; in the kernel
 * both are one struct file, sysfs's state hanging off private_data.  The
 * scenario runner tells the two apart by the path: one under /dev/ is a
 * device node, opened through devtmpfs_open() and chrdev_open(), as the
 * kernel's path walk hands a device node's open to the character-device
 * layer; any other path is sysfs's.  Making sysfs's files this struct
 * would rename the open, read and close that stages 1-4 and their
 * chapters show, for no change in what they teach.
 */
struct file {
	const struct file_operations *f_op;
	struct inode f_inode;
	void *private_data;	/* the driver's, set in open */
	int f_mode;		/* VFS_READ | VFS_WRITE (vfs.h) */
	loff_t f_pos;
	char trace_name[TRACE_NAME_LEN];
};

static inline struct inode *file_inode(struct file *file) { return &file->f_inode; }
static inline unsigned int iminor(const struct inode *inode) { return MINOR(inode->i_rdev); }

#endif
