/* sysfs.h - the kernel's objects as a tree of directories and attribute files (stage 3: two counters). */
#ifndef KSIM_SYSFS_H
#define KSIM_SYSFS_H

#include <pthread.h>
#include <kobject.h>
#include <mutex.h>
#include <module.h>

/*
 * attribute - one file of a kobject's directory: a name and a mode.
 * There is no owner module any more: sysfs calls into an attribute only
 * under an active reference, and a module removes its attributes before
 * it goes, so the module cannot go while sysfs is inside it.
 */
struct attribute {
	const char *name;
	unsigned int mode;	/* 0444 read-only, 0644 read-write, 0200 write-only */
	/*
	 * A static attribute's own lock class key: stage 4 describes each
	 * attribute's active reference to lockdep as a class of its own, as
	 * sysfs has done since 2010 (the kernel's attr->skey).
	 */
	struct lock_class_key skey;
};

/* __ATTR - initialise a typed attribute (device_attribute and the like). */
#define __ATTR(_name, _mode, _show, _store) { \
	.attr = { .name = #_name, .mode = _mode }, .show = _show, .store = _store }

#include <sysfs_dirent.h>

/* The tree's lock: children lists, s_removed, lookups. */
extern struct mutex sysfs_mutex;
extern struct sysfs_dirent *sysfs_root;

/*
 * sysfs_lookup - the dirent at an absolute path ("/sys/block/sda/device/delete"),
 * following symlinks, with an s_count held; NULL if there is none.
 * Call with sysfs_mutex held (its definition asserts it).
 */
struct sysfs_dirent *sysfs_lookup(const char *path);
/* sysfs_path - the absolute path of a dirent, for messages and trace names. */
void sysfs_path(const struct sysfs_dirent *sd, char *buf, size_t len);

/* A directory for a kobject under its parent's (or under /sys/devices). */
int sysfs_create_dir(struct kobject *kobj);
/*
 * sysfs_remove_dir - remove kobj's directory and its files.  Waits for
 * every operation in flight on them; when it returns, sysfs will never
 * touch kobj, its attributes or their code again.
 */
void sysfs_remove_dir(struct kobject *kobj);
/* A directory for a kobject at an explicit place (e.g. /sys/block). */
int sysfs_create_dir_at(struct kobject *kobj, const char *parent_path);
int sysfs_create_file(struct kobject *kobj, struct attribute *attr);
/* sysfs_remove_file - remove one attribute; like sysfs_remove_dir(), waits for its operations. */
void sysfs_remove_file(struct kobject *kobj, struct attribute *attr);
int sysfs_create_link(struct kobject *kobj, struct kobject *target, const char *name);
void sysfs_remove_link(struct kobject *kobj, const char *name);

/*
 * sysfs_schedule_callback - call func(data) later, from a kworker.
 *
 * For an attribute that must remove its own device: its store() runs
 * under an active reference on its own node, and removal waits for that
 * reference, so a store() that removed its device directly would wait for
 * itself forever.  It asks for a callback instead.
 *
 * Holds a reference on kobj and one on owner, the module that contains
 * func, until the callback has run: func is code that runs after the
 * attribute's operation has returned, outside any active reference, and
 * only a module reference keeps that code mapped.  Fails with -ENODEV if
 * owner is already going away.  The macro passes the caller's THIS_MODULE.
 */
int sysfs_schedule_callback_owner(struct kobject *kobj, void (*func)(void *), void *data,
				  struct module *owner);
#define sysfs_schedule_callback(kobj, func, data) \
	sysfs_schedule_callback_owner((kobj), (func), (data), THIS_MODULE)

#endif
