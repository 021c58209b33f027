/* sysfs_file.c - open, read, write and close of attribute files (stage 1: pin the kobject). */
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

/*
 * struct file - an open attribute file.  It holds an s_count on its dirent
 * and, in this stage, a reference on the kobject, taken at open and kept
 * until close: userspace decides how long the kobject lives.
 */
struct file {
	struct sysfs_dirent *sd;
	struct kobject *kobj;
	int mode;
	size_t pos, len;
	char trace_name[TRACE_NAME_LEN];
	char buf[SYSFS_BUF];
};

int vfs_open(const char *path, int mode, struct file **filp)
{
	struct sysfs_dirent *sd;
	struct attribute *attr;
	struct file *file;
	const char *old;
	int err = -ENOENT;

	mutex_lock(&sysfs_mutex);
	sd = sysfs_lookup(path);
	if (!sd)
		goto out_unlock;
	err = -EISDIR;
	if (sd->s_type != SYSFS_KOBJ_ATTR)
		goto out_put;
	attr = sd->s.attr;
	err = -EACCES;
	if (((mode & VFS_READ) && !(attr->mode & 0444)) || ((mode & VFS_WRITE) && !(attr->mode & 0222)))
		goto out_put;
	file = kzalloc(sizeof(*file), "file");
	file->sd = sd;
	file->mode = mode;
	trace_name(file->trace_name, sizeof(file->trace_name), "file", path);
	trace_event("open", file->trace_name, "ref=%s", sd->trace_name);
	/*
	 * The directory is still in the tree (we hold sysfs_mutex), so its
	 * kobject is still registered and alive: safe to take a reference.
	 */
	old = trace_by_set(file->trace_name);
	file->kobj = kobject_get(sd->s_parent->s.kobj);
	trace_by_set(old);
	mutex_unlock(&sysfs_mutex);
	*filp = file;
	return 0;

out_put:
	sysfs_put(sd);
out_unlock:
	mutex_unlock(&sysfs_mutex);
	return err;
}

/*
 * vfs_read - the first read calls show() into the file's buffer; later
 * reads return the rest of it, then 0 (end of file), like sysfs.
 */
ssize_t vfs_read(struct file *file, char *buf, size_t len)
{
	struct kobject *kobj = file->kobj;
	ssize_t n;

	if (file->pos == 0) {
		const struct sysfs_ops *ops = kobj->ktype->sysfs_ops;

		/* A window between finding show() and calling it: the device may go. */
		delay_point("sysfs_read_file");
		n = ops->show(kobj, file->sd->s.attr, file->buf);
		if (n < 0)
			return n;
		file->len = (size_t)n < SYSFS_BUF ? (size_t)n : SYSFS_BUF;
	}
	n = file->len - file->pos < len ? file->len - file->pos : len;
	memcpy(buf, file->buf + file->pos, n);
	file->pos += n;
	return n;
}

ssize_t vfs_write(struct file *file, const char *buf, size_t len)
{
	struct kobject *kobj = file->kobj;
	char kbuf[SYSFS_BUF];

	if (len >= sizeof(kbuf))
		len = sizeof(kbuf) - 1;
	const struct sysfs_ops *ops = kobj->ktype->sysfs_ops;

	memcpy(kbuf, buf, len);
	kbuf[len] = '\0';
	delay_point("sysfs_write_file");
	return ops->store(kobj, file->sd->s.attr, kbuf, len);
}

/* vfs_close - sysfs_release(): drop what open took, kobject first. */
void vfs_close(struct file *file)
{
	const char *old = trace_by_set(file->trace_name);

	trace_event("close", file->trace_name, NULL);
	kobject_put(file->kobj);
	trace_by_set(old);
	sysfs_put(file->sd);
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
	for (sd = dir->s_children; sd; sd = sd->s_sibling)
		emit(sd->s_name, sd->s_type != SYSFS_KOBJ_ATTR, ctx);
	mutex_unlock(&sysfs_mutex);
	sysfs_put(dir);
	return 0;
}
