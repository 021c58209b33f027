/* mousedev_fops.c - the fixed mouse driver's file operations, every call through the revocable provider, and its hang-up. */
#include <exercise.h>
#include <mousedev.h>
#include <mutex.h>

int mousedev_open(struct inode *inode, struct file *file)
{
	/* BEGIN EXERCISE mousedev_open */
	unsigned int minor = iminor(inode) - MOUSEDEV_MINOR_BASE;
	struct revocable_provider *rp = NULL;

	/*
	 * The table holds the provider's own reference until remove() takes
	 * it out: a get under the same lock cannot meet the last put.
	 */
	mutex_lock(&mousedev_lock);
	if (minor < MOUSEDEV_MAX && mousedev_providers[minor])
		rp = revocable_provider_get(mousedev_providers[minor]);
	mutex_unlock(&mousedev_lock);
	if (!rp)
		return -ENODEV;
	file->private_data = rp;
	return 0;
	/* STUB: (void)inode; (void)file; return -ENODEV; */
	/* END EXERCISE */
}

ssize_t mousedev_read(struct file *file, char *buf, size_t len, loff_t *ppos)
{
	/* BEGIN EXERCISE mousedev_read */
	struct revocable rev;	/* this access's: its SRCU index is this task's alone */
	struct mousedev *m;
	char text[32];
	ssize_t n = -ENODEV;

	revocable_init(file->private_data, &rev);
	m = revocable_try_access(&rev);
	if (m)
		n = mousedev_wait_show(m, text, sizeof(text));	/* may sleep: a hang-up wakes it */
	revocable_withdraw_access(&rev);	/* NULL or not; after it, m may be freed */
	revocable_deinit(&rev);
	if (n < 0)
		return n;
	return mousedev_copy_out(text, n, buf, len, ppos);
	/* STUB: (void)file; (void)buf; (void)len; (void)ppos; return -ENODEV; */
	/* END EXERCISE */
}

int mousedev_release(struct inode *inode, struct file *file)
{
	/* BEGIN EXERCISE mousedev_release */
	(void)inode;
	revocable_provider_put(file->private_data);	/* the last one frees the provider */
	return 0;
	/* STUB: (void)inode; (void)file; return 0; */
	/* END EXERCISE */
}

void mousedev_hangup(struct mousedev *m)
{
	/* BEGIN EXERCISE mousedev_hangup */
	wait_queue_lock(&m->wait);
	m->dead = true;		/* under the lock the sleepers test it with */
	wait_queue_unlock(&m->wait);
	wake_up_all(&m->wait);	/* each sleeper tests again, finds dead, leaves its access */
	/* STUB: (void)m; */
	/* END EXERCISE */
}
