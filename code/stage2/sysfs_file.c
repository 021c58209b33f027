/* sysfs_file.c - open, read, write and close of attribute files (stage 2: pin the kobject and the owner). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "delay.h"
#include "kobject_owners.h"
#include "module.h"
#include "slab.h"
#include "sysfs_internal.h"
#include "vfs.h"

DELAY_POINT(sysfs_read_file)
DELAY_POINT(sysfs_write_file)

#define SYSFS_BUF 4096

/*
 * struct file - an open attribute file.  It holds an s_count on its
 * dirent, a reference on the kobject and one on the attribute's owner
 * module, all taken at open and kept until close: userspace decides how
 * long the kobject lives, and the owner cannot be unloaded meanwhile.
 */
struct file {
	struct sysfs_dirent *sd;
	struct kobject *kobj;
	struct module *owner;	/* pinned: attr->owner, read while the attribute surely existed */
	int mode;
	size_t pos, len;
	char trace_name[TRACE_NAME_LEN];
	char buf[SYSFS_BUF];
};

/*
 * sysfs_trace_open - the "open" event.  needs= lists the modules the last put of
 * the file's kobject may run code of or read data of (kobject_owners(),
 * this stage's first exercise); the "mod_get" event that follows shows
 * the one module the open pins.  The difference is what can go missing.
 */
static void sysfs_trace_open(struct file *file, struct sysfs_dirent *sd)
{
	const char *mods[8];
	char needs[256];
	size_t len = 0;
	int n;

	if (!trace_enabled()) {
		trace_event("open", file->trace_name, "ref=%s", sd->trace_name);
		return;
	}
	n = kobject_owners(sd->s_parent->s.kobj, mods, ARRAY_SIZE(mods));
	needs[0] = '\0';
	for (int i = 0; i < n && len < sizeof(needs); i++) {
		struct module *mod = find_module(mods[i]);	/* loaded: its trace name has the right #N */

		len += snprintf(needs + len, sizeof(needs) - len, "%s%s%s", i ? "," : "",
				mod ? "" : "module:", mod ? mod->trace_name : mods[i]);
	}
	trace_event("open", file->trace_name, "ref=%s%s%s", sd->trace_name, n > 0 ? " needs=" : "", needs);
}

int vfs_open(const char *path, int mode, struct file **filp)
{
	struct sysfs_dirent *sd;
	struct attribute *attr;
	struct file *file;
	const char *old;

	pthread_mutex_lock(&sysfs_mutex);
	sd = sysfs_lookup(path);
	if (!sd) {
		pthread_mutex_unlock(&sysfs_mutex);
		return -ENOENT;
	}
	if (sd->s_type != SYSFS_KOBJ_ATTR) {
		pthread_mutex_unlock(&sysfs_mutex);
		sysfs_put(sd);
		return -EISDIR;
	}
	attr = sd->s.attr;
	if (((mode & VFS_READ) && !(attr->mode & 0444)) || ((mode & VFS_WRITE) && !(attr->mode & 0222))) {
		pthread_mutex_unlock(&sysfs_mutex);
		sysfs_put(sd);
		return -EACCES;
	}
	file = kzalloc(sizeof(*file), "file");
	file->sd = sd;
	file->mode = mode;
	trace_name(file->trace_name, sizeof(file->trace_name), "file", path);
	/*
	 * The owner first (2.6.21's check_perm() took the kobject first, then
	 * the module; with sysfs_mutex held here the order does not matter,
	 * and failing before the kobject is taken leaves less to undo): once
	 * its module is going away, the attribute's code may vanish any
	 * moment, and the open fails with -ENODEV.  The file is still in the tree (we hold
	 * sysfs_mutex) and a module removes its files before it is unmapped,
	 * so attr and attr->owner are valid memory here.
	 */
	if (!try_module_get_by(attr->owner, file->trace_name)) {
		pthread_mutex_unlock(&sysfs_mutex);
		sysfs_put(sd);
		kfree(file);
		return -ENODEV;
	}
	file->owner = attr->owner;
	sysfs_trace_open(file, sd);
	/* The directory is in the tree too, so its kobject is registered and alive. */
	old = trace_by_set(file->trace_name);
	file->kobj = kobject_get(sd->s_parent->s.kobj);
	trace_by_set(old);
	pthread_mutex_unlock(&sysfs_mutex);
	*filp = file;
	return 0;
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

/*
 * vfs_close - sysfs_release(): drop what open took, kobject first, module
 * last.  The last kobject_put() may run release() code, and the module
 * must still be there if that code is the owner's.  Whether it is the
 * owner's is exactly what nobody checked (seed example 2).
 */
void vfs_close(struct file *file)
{
	const char *old = trace_by_set(file->trace_name);

	trace_event("close", file->trace_name, NULL);
	kobject_put(file->kobj);
	trace_by_set(old);
	module_put_by(file->owner, file->trace_name);
	sysfs_put(file->sd);
	kfree(file);
}

int vfs_readdir(const char *path, void (*emit)(const char *name, bool dir, void *ctx), void *ctx)
{
	struct sysfs_dirent *dir, *sd;

	pthread_mutex_lock(&sysfs_mutex);
	dir = sysfs_lookup(path);
	if (!dir || dir->s_type != SYSFS_DIR) {
		pthread_mutex_unlock(&sysfs_mutex);
		if (dir)
			sysfs_put(dir);
		return dir ? -ENOTDIR : -ENOENT;
	}
	for (sd = dir->s_children; sd; sd = sd->s_sibling)
		emit(sd->s_name, sd->s_type != SYSFS_KOBJ_ATTR, ctx);
	pthread_mutex_unlock(&sysfs_mutex);
	sysfs_put(dir);
	return 0;
}
