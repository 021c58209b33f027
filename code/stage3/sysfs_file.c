/* sysfs_file.c - open, read, write and close of attribute files (stage 3: an active reference per operation). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <delay.h>
#include <slab.h>
#include <sysfs_internal.h>
#include <vfs.h>

DELAY_POINT(sysfs_read_file)
DELAY_POINT(sysfs_write_file)

#define SYSFS_BUF 4096

atomic_int sysfs_open_files;

/*
 * struct file - an open attribute file.  It holds an s_count on its
 * dirent and nothing else: not the kobject, not the module.  Keeping a
 * file open keeps a few bytes of sysfs memory, and decides nothing about
 * the device, its driver or its module.
 */
struct file {
	struct sysfs_dirent *sd;
	int mode;
	size_t pos, len;
	char trace_name[TRACE_NAME_LEN];
	char buf[SYSFS_BUF];
};

/*
 * sysfs_open_check - may the file be opened in this mode?  The attribute's
 * mode and its kobject's ops are driver memory: look at them only under
 * the operation's active references (sysfs_get_active_op()).
 */
static int sysfs_open_check(struct sysfs_dirent *sd, int mode)
{
	const struct sysfs_ops *ops;
	struct attribute *attr;
	int err = 0;

	if (!sysfs_get_active_op(sd))
		return -ENODEV;
	attr = sd->s.attr;
	ops = sd->s_parent->s.kobj->ktype->sysfs_ops;
	if (((mode & VFS_READ) && (!(attr->mode & 0444) || !ops->show)) ||
	    ((mode & VFS_WRITE) && (!(attr->mode & 0222) || !ops->store)))
		err = -EACCES;
	sysfs_put_active_op(sd);
	return err;
}

int vfs_open(const char *path, int mode, struct file **filp)
{
	struct sysfs_dirent *sd;
	struct file *file;
	int err;

	mutex_lock(&sysfs_mutex);
	sd = sysfs_lookup(path);
	mutex_unlock(&sysfs_mutex);
	if (!sd)
		return -ENOENT;
	if (sd->s_type != SYSFS_KOBJ_ATTR) {
		sysfs_put(sd);
		return -EISDIR;
	}
	/* The active references of the check are the opening task's. */
	err = sysfs_open_check(sd, mode);
	if (err) {
		sysfs_put(sd);
		return err;
	}
	file = kzalloc(sizeof(*file), "file");
	file->sd = sd;		/* the lookup's s_count is the file's now */
	file->mode = mode;
	trace_name(file->trace_name, sizeof(file->trace_name), "file", path);
	trace_event("open", file->trace_name, "ref=%s", sd->trace_name);
	atomic_fetch_add(&sysfs_open_files, 1);
	*filp = file;
	return 0;
}

/*
 * vfs_read - the first read calls show() into the file's buffer, under the
 * active references, which it drops before returning to user space; later
 * reads return the rest of the buffer (sysfs memory only), then 0.
 */
ssize_t vfs_read(struct file *file, char *buf, size_t len)
{
	struct sysfs_dirent *sd = file->sd;
	ssize_t n;

	if (file->pos == 0) {
		struct kobject *kobj;
		const char *old;

		/* The window of stage 1: between open and the read, the device may go. */
		delay_point("sysfs_read_file");
		old = trace_by_set(file->trace_name);
		if (!sysfs_get_active_op(sd)) {
			trace_by_set(old);
			return -ENODEV;
		}
		kobj = sd->s_parent->s.kobj;
		n = kobj->ktype->sysfs_ops->show(kobj, sd->s.attr, file->buf);
		sysfs_put_active_op(sd);
		trace_by_set(old);
		if (n < 0)
			return n;
		file->len = (size_t)n < SYSFS_BUF ? (size_t)n : SYSFS_BUF;
	}
	n = file->len - file->pos < len ? file->len - file->pos : len;
	memcpy(buf, file->buf + file->pos, n);
	file->pos += n;
	return n;
}

/* vfs_write - one store(), under the active references of the attribute and its kobject. */
ssize_t vfs_write(struct file *file, const char *buf, size_t len)
{
	struct sysfs_dirent *sd = file->sd;
	char kbuf[SYSFS_BUF];
	struct kobject *kobj;
	const char *old;
	ssize_t n;

	if (len >= sizeof(kbuf))
		len = sizeof(kbuf) - 1;
	memcpy(kbuf, buf, len);
	kbuf[len] = '\0';
	delay_point("sysfs_write_file");
	old = trace_by_set(file->trace_name);
	if (!sysfs_get_active_op(sd)) {
		trace_by_set(old);
		return -ENODEV;
	}
	kobj = sd->s_parent->s.kobj;
	n = kobj->ktype->sysfs_ops->store(kobj, sd->s.attr, kbuf, len);
	sysfs_put_active_op(sd);
	trace_by_set(old);
	return n;
}

/*
 * vfs_close - sysfs_release(): drop the file's s_count.  Nothing else to
 * let go, so the last close of a deleted node frees sysfs memory and
 * touches no kobject and no module, however late it comes.
 */
void vfs_close(struct file *file)
{
	trace_event("close", file->trace_name, NULL);
	sysfs_put(file->sd);
	atomic_fetch_sub(&sysfs_open_files, 1);
	kfree(file);
}

int vfs_readdir(const char *path, void (*emit)(const char *name, bool dir, void *ctx), void *ctx)
{
	struct sysfs_dirent *dir, *sd;

	mutex_lock(&sysfs_mutex);
	dir = sysfs_lookup(path);
	if (!dir || dir->s_type != SYSFS_DIR) {
		mutex_unlock(&sysfs_mutex);
		if (dir)
			sysfs_put(dir);
		return dir ? -ENOTDIR : -ENOENT;
	}
	/* Names and types are sysfs memory: no active reference needed. */
	for (sd = dir->s_children; sd; sd = sd->s_sibling)
		emit(sd->s_name, sd->s_type != SYSFS_KOBJ_ATTR, ctx);
	mutex_unlock(&sysfs_mutex);
	sysfs_put(dir);
	return 0;
}
