/* sysfs_dirent.h - one node of sysfs, and its active reference (stage 3: an rw_semaphore). */
#ifndef KSIM_SYSFS_DIRENT_H
#define KSIM_SYSFS_DIRENT_H

#include <stdbool.h>
#include <atomic.h>
#include <kobject.h>
#include <rwsem.h>
#include <sysfs_refs.h>

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
	atomic_t s_count;
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

/*
 * sysfs_deactivate_start - stage 4 shuts a node's door here, under
 * sysfs_mutex, before it drains and unlinks (kernfs's order).  Stage 3
 * cannot: its door is down_write(), which shuts and waits in one call, and
 * waiting under sysfs_mutex would stall every lookup behind one slow
 * operation.  So nothing happens here, and stage 3's door shuts in
 * sysfs_deactivate(), after the unlink (2007's order).  Only the
 * benchmark, which times both stages the same way, calls it.
 */
static inline void sysfs_deactivate_start(struct sysfs_dirent *sd)
{
	(void)sd;
}

/* Both a node's and its parent's: an attribute's op needs its kobject (the parent's) too. */
struct sysfs_dirent *sysfs_get_active_two(struct sysfs_dirent *sd);
void sysfs_put_active_two(struct sysfs_dirent *sd);

/*
 * What one operation on an attribute file holds (sysfs_file.c): the
 * active references of the attribute's node and of its directory, whose
 * kobject the operation is called on.
 */
static inline struct sysfs_dirent *sysfs_get_active_op(struct sysfs_dirent *sd)
{
	return sysfs_get_active_two(sd);
}

static inline void sysfs_put_active_op(struct sysfs_dirent *sd)
{
	sysfs_put_active_two(sd);
}

#endif
