/* mousedev.h - the mouse of stage 1 again, as a character device /dev/mouseN: what stage 5's drivers share. */
#ifndef KSIM_MOUSEDEV_H
#define KSIM_MOUSEDEV_H

#include <bus.h>
#include <cdev.h>
#include <devres.h>
#include <devtmpfs.h>
#include <mutex.h>
#include <revocable.h>
#include <wait.h>

/*
 * The same story as stage 1's mouse, one layer down.  In 2007 an open
 * sysfs file kept calling show() after the driver had freed the mouse;
 * sysfs grew active references, and a file of a removed attribute now
 * fails with ENODEV.  A character device has no such layer: an open
 * /dev/mouse0 keeps its file_operations and its private_data after the
 * driver's remove(), and the driver's data, allocated with devm_kzalloc()
 * at probe, is freed by the driver core right after remove() returns.
 *
 * The device's files: read gives the click count ("3\n"); ioctl
 * MOUSEDEV_IOC_CLICK counts one click and returns the new count.  Two
 * delay points widen the windows: mousedev_read inside the device's read
 * (mousedev_show()), mousedev_ioctl between an ioctl's start and its
 * look at the mouse.
 *
 * The fixed driver's read of a mouse never clicked waits for the first
 * click, as the kernel's mousedev read waits for a packet: a task asleep
 * inside the driver, which remove() must wake (the hang-up, below).
 */
#define MOUSEDEV_MAJOR		13	/* the kernel's input major */
#define MOUSEDEV_MINOR_BASE	32	/* /dev/input/mouse0 is 13:32 */
#define MOUSEDEV_MAX		4
#define MOUSEDEV_IOC_CLICK	1

/* struct mousedev - the driver's data for one mouse: devm_kzalloc()'d at probe, freed after remove(). */
struct mousedev {
	int clicks;			/* the fixed driver changes it under wait's lock */
	int minor;			/* 0..MOUSEDEV_MAX-1: /dev/mouseN */
	char name[16];
	struct cdev cdev;		/* the naive driver's cdev (the fixed one's is cdev_alloc()'d) */
	/* The fixed driver's: readers waiting for a click sleep on wait, until a click or the hang-up. */
	struct wait_queue_head wait;
	bool dead;			/* set by mousedev_hangup(), under wait's lock; never cleared */
};

/**
 * mousedev_minor - the number of a device called "mouseN", or -1.
 * @devname: the device's name
 *
 * Context: any.  Return: N, or -1 if not a mouse name below MOUSEDEV_MAX.
 */
int mousedev_minor(const char *devname);

/**
 * mousedev_show - read the device: the click count, as text, into @buf.
 * @m: the mouse's data (the caller must know it is alive)
 * @buf: where to
 * @len: its size
 *
 * The device answers slowly: the delay point mousedev_read sits between
 * the call and the read of @m, the window a scenario widens.
 *
 * Context: may sleep.  Return: the length of the text.
 */
ssize_t mousedev_show(struct mousedev *m, char *buf, size_t len);

/**
 * mousedev_copy_out - what a read() returns from @text at *@ppos.
 * @text: the whole content
 * @n: its length
 * @buf: the reader's buffer
 * @len: its size
 * @ppos: the file position, advanced
 *
 * Context: any.  Return: the bytes copied (0 at the end).
 */
ssize_t mousedev_copy_out(const char *text, size_t n, char *buf, size_t len, loff_t *ppos);

/**
 * mousedev_wait_show - the fixed driver's read of the device: wait for a click, then mousedev_show().
 * @m: the mouse's data, inside an access (the revoke waits for the caller)
 * @buf: where to
 * @len: its size
 *
 * A mouse never clicked has nothing to say: the caller sleeps on @m->wait
 * until a click (MOUSEDEV_IOC_CLICK) or mousedev_hangup().  The sleep is
 * inside the caller's access, so remove() cannot finish its revoke while
 * the caller sleeps: only the hang-up ends it.  The delay point
 * mousedev_wait is the queue's (probe sets it on @m->wait): every lock of
 * the queue passes it, this first look included, so a driver that waits
 * on the queue its own way opens the same window.
 *
 * Context: may sleep, for as long as nobody clicks.  Return: the length of
 * the text, or -ENODEV if the mouse was hung up.
 */
ssize_t mousedev_wait_show(struct mousedev *m, char *buf, size_t len);

/**
 * mousedev_hangup - the device is gone: mark it dead and wake every reader asleep on it.
 * @m: the mouse's data
 *
 * The kernel's mousedev_mark_dead() and mousedev_hangup(), in one.  A
 * reader asleep in mousedev_wait_show() is inside an access: without the
 * wake, remove()'s revoke waits for it, and it waits for a click that
 * will never come.  remove() calls this before it revokes.  The mark is
 * made under @m->wait's lock, where the sleepers test it.
 *
 * Context: may sleep.  Return: nothing.
 */
void mousedev_hangup(struct mousedev *m);

/**
 * mousedev_poll - what an open file of the fixed driver is ready for, through one access.
 * @file: an open file of mousedev_open()
 *
 * Context: may sleep.  Return: POLLHUP | POLLERR once the mouse is hung up
 * or revoked; else POLLOUT, and POLLIN if a read would not wait.
 */
unsigned int mousedev_poll(struct file *file);

/*
 * The fixed driver (modules/mousedev.c) puts a revocable provider between
 * its open files and its data.  The shape is sysfs's active reference
 * again, at the level of file operations:
 *
 *	open		takes a reference to the provider's memory
 *			(revocable_provider_get(): kernfs's s_count)
 *	read, ioctl	each is one access: revocable_try_access() ...
 *			revocable_withdraw_access() (SRCU: kernfs's s_active),
 *			-ENODEV once the provider is revoked
 *	remove()	hangs up (wakes the reads asleep inside an access),
 *			then revokes: no new access sees the mouse, the ones
 *			in flight are waited for; then devres frees the mouse
 *	release		drops the open's reference; the last one frees the
 *			provider, however late
 *
 * mousedev_providers[] is how open finds the provider of a minor: probe
 * publishes it, remove() takes it out, both under mousedev_lock.  The
 * table's reference is the provider's own (the one revoke gives up).
 */
extern struct mutex mousedev_lock;
extern struct revocable_provider *mousedev_providers[MOUSEDEV_MAX];

/**
 * mousedev_open - open /dev/mouseN: a reference to the mouse's provider in private_data.
 * @inode: the device node (iminor() names the mouse)
 * @file: the new file
 *
 * Context: may sleep; takes mousedev_lock.  Return: 0, or -ENODEV if the
 * mouse is no longer plugged.
 */
int mousedev_open(struct inode *inode, struct file *file);

/**
 * mousedev_read - the click count, through one access to the provider.
 * @file: an open file of mousedev_open()
 * @buf: the reader's buffer
 * @len: its size
 * @ppos: the file position
 *
 * Context: may sleep (mousedev_show() does, inside the access).  Return:
 * the bytes read, 0 at the end, or -ENODEV once the mouse is unplugged.
 */
ssize_t mousedev_read(struct file *file, char *buf, size_t len, loff_t *ppos);

/**
 * mousedev_release - the last close: drop the open's provider reference.
 * @inode: the device node
 * @file: the file
 *
 * Context: may sleep.  Return: 0.
 */
int mousedev_release(struct inode *inode, struct file *file);

/**
 * mousedev_ioctl - MOUSEDEV_IOC_CLICK, through one access to the provider.
 * @file: an open file of mousedev_open()
 * @cmd: the command
 * @arg: unused
 *
 * Context: may sleep.  Return: the new count, -ENOTTY for another
 * command, or -ENODEV once the mouse is unplugged.
 */
long mousedev_ioctl(struct file *file, unsigned int cmd, unsigned long arg);

#endif
