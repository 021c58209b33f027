/* sysfs.h - the kernel's objects as a tree of directories and attribute files (stage 2: attributes have an owner). */
#ifndef KSIM_SYSFS_H
#define KSIM_SYSFS_H

#include <pthread.h>
#include <stdatomic.h>
#include <kobject.h>
#include <mutex.h>
#include <module.h>

/*
 * attribute - one file of a kobject's directory: a name, a mode, and the
 * module that owns it.
 *
 * owner is the module whose code serves the file (its show() and store()).
 * Opening the file pins that module with try_module_get() until the file
 * is closed, so rmmod refuses while the file is open.  That is all it
 * pins: the kobject the file hangs under, and the code its release runs,
 * may belong to other modules (seed example 2).
 */
struct attribute {
	const char *name;
	unsigned int mode;	/* 0444 read-only, 0644 read-write, 0200 write-only */
	struct module *owner;	/* set by sysfs_create_file(), see below */
};

/*
 * __ATTR - initialise a typed attribute (device_attribute and the like).
 * In 2.6.21 it also wrote .owner = THIS_MODULE.  Here THIS_MODULE is a
 * pointer that insmod fills in when it loads the module, not a constant
 * the linker knows, so it cannot appear in a static initialiser: owner is
 * filled in when the file is created instead, by sysfs_create_file().
 */
#define __ATTR(_name, _mode, _show, _store) { \
	.attr = { .name = #_name, .mode = _mode }, .show = _show, .store = _store }

enum sysfs_type { SYSFS_DIR = 1, SYSFS_KOBJ_ATTR = 2, SYSFS_KOBJ_LINK = 4 };

/*
 * sysfs_dirent - one node of the tree: a directory (a kobject), an
 * attribute file, or a symlink.
 *
 * s_count keeps the dirent's own memory alive; the tree holds one count,
 * every open file another.  As in stage 1 a dirent *assumes* its kobject
 * is alive for as long as it exists, and an open file makes sure of it by
 * holding a kobject reference, and now a module reference too.
 */
struct sysfs_dirent {
	atomic_int s_count;
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
	struct file *s_files;		/* SYSFS_KOBJ_ATTR: its open files, under sysfs_files_mutex */
	char trace_name[TRACE_NAME_LEN];
};

/* The tree's lock: children lists, s_removed, lookups. */
extern struct mutex sysfs_mutex;
extern struct sysfs_dirent *sysfs_root;
/*
 * The lock of every node's list of open files (s_files), the "buffer
 * collection" of 2.6.20's orphaning (sysfs_file.c).  2.6.21 kept the list
 * under the file's inode mutex; one lock for all nodes does the same job.
 */
extern struct mutex sysfs_files_mutex;
struct file;
/* sysfs_orphan_files - removal: mark every open file of sd orphaned, waiting for its operation in flight. */
void sysfs_orphan_files(struct sysfs_dirent *sd);

struct sysfs_dirent *sysfs_get(struct sysfs_dirent *sd);
void sysfs_put(struct sysfs_dirent *sd);

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
void sysfs_remove_dir(struct kobject *kobj);
/* A directory for a kobject at an explicit place (e.g. /sys/block). */
int sysfs_create_dir_at(struct kobject *kobj, const char *parent_path);

int __sysfs_create_file(struct kobject *kobj, struct attribute *attr, struct module *owner);
/*
 * sysfs_create_file - add attr to kobj's directory, owned by the module
 * that makes the call.  A macro, so that THIS_MODULE is expanded in the
 * caller: in a module it is that module, in code built into ksim it is
 * NULL (nothing to pin).  __sysfs_create_file() records owner in attr.
 */
#define sysfs_create_file(kobj, attr) __sysfs_create_file((kobj), (attr), THIS_MODULE)
void sysfs_remove_file(struct kobject *kobj, struct attribute *attr);
int sysfs_create_link(struct kobject *kobj, struct kobject *target, const char *name);
void sysfs_remove_link(struct kobject *kobj, const char *name);

int sysfs_schedule_callback_owner(struct kobject *kobj, void (*func)(void *), void *data,
				  struct module *owner);
/*
 * sysfs_schedule_callback - call func(data) later, from a kworker.
 * For an attribute that must remove its own device: it cannot do that from
 * its own store() (stage 3 shows why), so it asks for a callback.  Holds a
 * reference on kobj until the callback has run.
 *
 * owner is the module that contains func; the macro passes the caller's
 * THIS_MODULE, as device_schedule_callback() did in the kernel after the
 * fix of April 2007.  What the callback does with it is this stage's second
 * exercise (sysfs_callback.c).  Returns 0, or -ENODEV if owner is already
 * going away (the kernel's may also return -ENOMEM; kmalloc() here cannot
 * fail, slab.h).
 */
#define sysfs_schedule_callback(kobj, func, data) \
	sysfs_schedule_callback_owner((kobj), (func), (data), THIS_MODULE)

#endif
