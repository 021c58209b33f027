/* sysfs_file.c - open, read, write and close of attribute files (stage 2: pin the kobject and the owner; orphan on removal). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <delay.h>
#include <kobject_owners.h>
#include <module.h>
#include <slab.h>
#include <sysfs_internal.h>
#include <vfs.h>

DELAY_POINT(sysfs_read_file)
DELAY_POINT(sysfs_write_file)
DELAY_POINT(sysfs_release)

DEFINE_MUTEX(sysfs_files_mutex);

#define SYSFS_BUF 4096

/*
 * struct file - an open attribute file.  It holds an s_count on its
 * dirent, a reference on the kobject and one on the attribute's owner
 * module, all taken at open and kept until close: userspace decides how
 * long the kobject lives, and the owner cannot be unloaded meanwhile.
 *
 * It is also 2.6.20's struct sysfs_buffer (Oliver Neukum's fix for a race
 * between sysfs_remove_file() and read()/write()): every read and write
 * runs under sem, and the file is on its node's list of open files, so
 * that removing the node can wait for the operation in flight and mark
 * the file orphaned.  An orphaned file calls no show() and no store()
 * again; it still holds its kobject until close.
 */
struct file {
	struct sysfs_dirent *sd;
	struct kobject *kobj;
	struct module *owner;	/* pinned: attr->owner, read while the attribute surely existed */
	const struct sysfs_ops *ops;	/* buffer->ops: read at open, so that an orphaned file reads no kobject */
	struct mutex sem;	/* buffer->sem: one operation at a time, and removal waits for it */
	bool orphaned;		/* the node was removed: no more calls into the driver */
	struct file *next_open;	/* the node's other open files (sd->s_files) */
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
	mutex_init(&file->sem);	/* lockdep names the class &file->sem, as the kernel would */
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
	err = -ENODEV;
	if (!try_module_get_by(attr->owner, file->trace_name))
		goto out_free;
	file->owner = attr->owner;
	sysfs_trace_open(file, sd);
	/* The directory is in the tree too, so its kobject is registered and alive. */
	old = trace_by_set(file->trace_name);
	file->kobj = kobject_get(sd->s_parent->s.kobj);
	trace_by_set(old);
	file->ops = file->kobj->ktype->sysfs_ops;
	/* Join the node's open files while it is surely in the tree: its removal will find us. */
	mutex_lock(&sysfs_files_mutex);
	file->next_open = sd->s_files;
	sd->s_files = file;
	mutex_unlock(&sysfs_files_mutex);
	mutex_unlock(&sysfs_mutex);
	*filp = file;
	return 0;

out_free:
	kfree(file);
out_put:
	sysfs_put(sd);
out_unlock:
	mutex_unlock(&sysfs_mutex);
	return err;
}

/*
 * sysfs_orphan_files - 2.6.20's orphan_all_buffers(): for each open file
 * of the removed node, wait until no read or write is inside it (take its
 * sem), and mark it orphaned.  When this returns, no show() or store() of
 * sd runs and none will start: the driver may free what they use.  What it
 * does not do is drop anything the files hold (see vfs_close()).
 */
void sysfs_orphan_files(struct sysfs_dirent *sd)
{
	mutex_lock(&sysfs_files_mutex);
	for (struct file *f = sd->s_files; f; f = f->next_open) {
		mutex_lock(&f->sem);
		f->orphaned = true;
		mutex_unlock(&f->sem);
	}
	mutex_unlock(&sysfs_files_mutex);
}

/*
 * vfs_read - the first read calls show() into the file's buffer; later
 * reads return the rest of it, then 0 (end of file), like sysfs.  As in
 * 2.6.21, a file orphaned before its buffer was filled fails with -ENODEV;
 * one already filled still returns what it has, which calls nothing.
 */
ssize_t vfs_read(struct file *file, char *buf, size_t len)
{
	struct kobject *kobj = file->kobj;
	ssize_t n;

	/* A window between open and the read: the device may go meanwhile. */
	delay_point("sysfs_read_file");
	mutex_lock(&file->sem);
	if (file->pos == 0) {
		n = file->orphaned ? -ENODEV : file->ops->show(kobj, file->sd->s.attr, file->buf);
		if (n < 0) {
			mutex_unlock(&file->sem);
			return n;
		}
		file->len = (size_t)n < SYSFS_BUF ? (size_t)n : SYSFS_BUF;
	}
	n = file->len - file->pos < len ? file->len - file->pos : len;
	memcpy(buf, file->buf + file->pos, n);
	file->pos += n;
	mutex_unlock(&file->sem);
	return n;
}

ssize_t vfs_write(struct file *file, const char *buf, size_t len)
{
	struct kobject *kobj = file->kobj;
	char kbuf[SYSFS_BUF];
	ssize_t ret;

	if (len >= sizeof(kbuf))
		len = sizeof(kbuf) - 1;
	memcpy(kbuf, buf, len);
	kbuf[len] = '\0';
	delay_point("sysfs_write_file");
	mutex_lock(&file->sem);
	ret = file->orphaned ? -ENODEV : file->ops->store(kobj, file->sd->s.attr, kbuf, len);
	mutex_unlock(&file->sem);
	return ret;
}

/*
 * vfs_close - sysfs_release(): drop what open took, kobject first, module
 * last.  The last kobject_put() may run release() code, and the module
 * must still be there if that code is the owner's.  Whether it is the
 * owner's is exactly what nobody checked (seed example 2).
 */
void vfs_close(struct file *file)
{
	const char *old;
	struct file **pp;

	mutex_lock(&sysfs_files_mutex);
	for (pp = &file->sd->s_files; *pp != file; pp = &(*pp)->next_open)
		;
	*pp = file->next_open;
	mutex_unlock(&sysfs_files_mutex);
	/* A window before the puts, for a scenario to let a removal finish first. */
	delay_point("sysfs_release");
	old = trace_by_set(file->trace_name);
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
