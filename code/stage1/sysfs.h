/* sysfs.h - the kernel's objects as a tree of directories and attribute files. */
#ifndef KSIM_SYSFS_H
#define KSIM_SYSFS_H

#include <pthread.h>
#include <stdatomic.h>
#include <kobject.h>
#include <mutex.h>

/* attribute - one file of a kobject's directory: a name and a mode. */
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
 * attribute file, or a symlink.
 *
 * s_count keeps the dirent's own memory alive; the tree holds one count,
 * every open file another.  In this stage a dirent also *assumes* its
 * kobject is alive for as long as it exists: an open file makes sure of it
 * by holding a kobject reference too.  That is the design stage 3 undoes.
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
	char trace_name[TRACE_NAME_LEN];
};

/* The tree's lock: children lists, s_removed, lookups. */
extern struct mutex sysfs_mutex;
extern struct sysfs_dirent *sysfs_root;

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
int sysfs_create_file(struct kobject *kobj, struct attribute *attr);
void sysfs_remove_file(struct kobject *kobj, struct attribute *attr);
int sysfs_create_link(struct kobject *kobj, struct kobject *target, const char *name);
void sysfs_remove_link(struct kobject *kobj, const char *name);

/*
 * sysfs_schedule_callback - call func(data) later, from a kworker.
 * For an attribute that must remove its own device: it cannot do that from
 * its own store() (stage 3 shows why), so it asks for a callback.  Holds a
 * reference on kobj until the callback has run.
 */
int sysfs_schedule_callback(struct kobject *kobj, void (*func)(void *), void *data);

#endif
