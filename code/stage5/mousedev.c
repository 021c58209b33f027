/* mousedev.c - what both stage-5 mouse drivers call: the device's slow read, and copying it to the reader. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <delay.h>
#include <mousedev.h>

DELAY_POINT(mousedev_read)
DELAY_POINT(mousedev_ioctl)
DELAY_POINT(mousedev_wait)

DEFINE_MUTEX(mousedev_lock);
struct revocable_provider *mousedev_providers[MOUSEDEV_MAX];

int mousedev_minor(const char *devname)
{
	char *end;
	long n;

	if (strncmp(devname, "mouse", 5) != 0 || !devname[5])
		return -1;
	n = strtol(devname + 5, &end, 10);
	return !*end && n >= 0 && n < MOUSEDEV_MAX ? (int)n : -1;
}

ssize_t mousedev_show(struct mousedev *m, char *buf, size_t len)
{
	/* The device takes its time to answer: unplug may come meanwhile. */
	delay_point("mousedev_read");
	return snprintf(buf, len, "%d\n", m->clicks);
}

/* [mousedev-wait-show] */
ssize_t mousedev_wait_show(struct mousedev *m, char *buf, size_t len)
{
	char what[64];
	bool dead;

	snprintf(what, sizeof(what), "mousedev_wait_show: a click of %s, or its hang-up", m->name);
	/* Asleep inside the caller's access: the revoke waits for this, and only a wake ends it. */
	wait_event_desc(&m->wait, what, m->clicks > 0 || m->dead);
	wait_queue_lock(&m->wait);
	dead = m->dead;
	wait_queue_unlock(&m->wait);
	if (dead)
		return -ENODEV;
	return mousedev_show(m, buf, len);
}
/* [/mousedev-wait-show] */

ssize_t mousedev_copy_out(const char *text, size_t n, char *buf, size_t len, loff_t *ppos)
{
	size_t left;

	if (*ppos < 0 || (size_t)*ppos >= n)
		return 0;
	left = n - (size_t)*ppos;
	if (left > len)
		left = len;
	memcpy(buf, text + *ppos, left);
	*ppos += left;
	return left;
}

long mousedev_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	struct revocable rev;
	struct mousedev *m;
	long ret = -ENODEV;

	(void)arg;
	if (cmd != MOUSEDEV_IOC_CLICK)
		return -ENOTTY;
	/* The window between the open and the access: the mouse may go. */
	delay_point("mousedev_ioctl");
	revocable_init(file->private_data, &rev);
	m = revocable_try_access(&rev);
	if (m) {
		/* Under the lock the readers test it; then wake them: there is something to read. */
		wait_queue_lock(&m->wait);
		ret = ++m->clicks;
		wait_queue_unlock(&m->wait);
		wake_up_all(&m->wait);
	}
	revocable_withdraw_access(&rev);	/* NULL or not: the access ends here */
	revocable_deinit(&rev);
	return ret;
}

/*
 * The kernel's mousedev_poll() answers from the device's exist flag; here
 * the access answers too: a revoked provider is a device gone.  No
 * registration on the wait queue (fs.h): the answer is for now.
 */
unsigned int mousedev_poll(struct file *file)
{
	struct revocable rev;
	struct mousedev *m;
	unsigned int mask = POLLHUP | POLLERR;

	revocable_init(file->private_data, &rev);
	m = revocable_try_access(&rev);
	if (m) {
		wait_queue_lock(&m->wait);
		if (!m->dead)
			mask = POLLOUT | (m->clicks > 0 ? POLLIN : 0);
		wait_queue_unlock(&m->wait);
	}
	revocable_withdraw_access(&rev);
	revocable_deinit(&rev);
	return mask;
}
