/* sysfs.h - the kernel's objects as a tree of directories and attribute files (stage 3: two counters). */
#ifndef KSIM_SYSFS_H
#define KSIM_SYSFS_H

#include <pthread.h>
#include <stdatomic.h>
#include "kobject.h"
#include "module.h"
#include "rwsem.h"

/*
 * attribute - one file of a kobject's directory: a name and a mode.
 * There is no owner module any more: sysfs calls into an attribute only
 * under an active reference, and a module removes its attributes before
 * it goes, so the module cannot go while sysfs is inside it.
 */
struct attribute {
	const char *name;
	unsigned int mode;	/* 0444 read-only, 0644 read-write, 0200 write-only */
};

/* __ATTR - initialise a typed attribute (device_attribute and the like). */
#define __ATTR(_name, _mode, _show, _store) { \
	.attr = { .name = #_name, .mode = _mode }, .show = _show, .store = _store }

enum sysfs_type { SYSFS_DIR = 1, SYSFS_KOBJ_ATTR = 2, SYSFS_KOBJ_LINK = 4 };

/*
 * sysfs_dirent - one node of the tree: a directory (a kobject), an
 * attribute file, or a symlink.  It has two counters, for two lifetimes:
 *
 * s_count  keeps the dirent's own memory: the name, the parent pointer,
 *	    the type.  The tree holds one, every open file one.  It says
 *	    nothing about the kobject or the attribute the dirent points at.
 * s_active guards everything outside sysfs proper: the kobject, the
 *	    attribute, its sysfs_ops, the driver code behind them.  It is an
 *	    rw_semaphore used as a counter: one operation (an open's checks,
 *	    one read, one write) holds it for reading, with
 *	    sysfs_get_active(); deletion takes it for writing, once, and never
 *	    gives it back (sysfs_deactivate()), so from then on every
 *	    sysfs_get_active() fails and the operation returns -ENODEV.
 *
 * The union (s.kobj, s.attr) may be read only under an active reference
 * on this dirent (for a file's kobject: on its parent).  s.target of a
 * link is sysfs's own memory, held by an s_count.
 */
struct sysfs_dirent {
	atomic_int s_count;
	struct rw_semaphore s_active;
	struct sysfs_dirent *s_parent;
	struct sysfs_dirent *s_children;	/* sorted by name */
	struct sysfs_dirent *s_sibling;
	char *s_name;
	enum sysfs_type s_type;
	bool s_removed;			/* unlinked from the tree */
	union {
		struct kobject *kobj;		/* SYSFS_DIR */
		struct attribute *attr;		/* SYSFS_KOBJ_ATTR */
		struct sysfs_dirent *target;	/* SYSFS_KOBJ_LINK (holds an s_count) */
	} s;
	char trace_name[TRACE_NAME_LEN];
};

/* The tree's lock: children lists, s_removed, lookups. */
extern pthread_mutex_t sysfs_mutex;
extern struct sysfs_dirent *sysfs_root;

/* sysfs_get/sysfs_put - s_count: the dirent's memory, nothing more. */
struct sysfs_dirent *sysfs_get(struct sysfs_dirent *sd);
void sysfs_put(struct sysfs_dirent *sd);

/*
 * The active reference (sysfs_active.c).  The caller must hold an s_count
 * (the dirent's memory must outlive the call).  Hold an active reference
 * for one operation, never across a return to user space.
 */
struct sysfs_dirent *sysfs_get_active(struct sysfs_dirent *sd);
void sysfs_put_active(struct sysfs_dirent *sd);
/* Both a node's and its parent's: an attribute's op needs its kobject (the parent's) too. */
struct sysfs_dirent *sysfs_get_active_two(struct sysfs_dirent *sd);
void sysfs_put_active_two(struct sysfs_dirent *sd);
/* sysfs_deactivate - deletion: wait for the operations in flight, refuse all later ones. */
void sysfs_deactivate(struct sysfs_dirent *sd);

/*
 * sysfs_lookup - the dirent at an absolute path ("/sys/block/sda/device/delete"),
 * following symlinks, with an s_count held; NULL if there is none.
 * Call with sysfs_mutex held.
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
