/* sysfs_dirent.h - one node of sysfs, and its active reference (stage 4: kernfs's biased counter). */
#ifndef KSIM_SYSFS_DIRENT_H
#define KSIM_SYSFS_DIRENT_H

#include <limits.h>
#include <stdbool.h>
#include <atomic.h>
#include <kobject.h>
#include <lockdep.h>
#include <sysfs_refs.h>

/*
 * The deactivation bias.  Deletion adds it to s_active once: the count
 * turns negative, which every later sysfs_get_active() sees and refuses,
 * while the operations still inside go on counting down from
 * SD_DEACTIVATED_BIAS + n.  When the count equals the bias, the last one
 * is out.  (kernfs calls it KN_DEACTIVATED_BIAS and uses INT_MIN + 1.)
 */
#define SD_DEACTIVATED_BIAS INT_MIN

/* s_flags: kernfs_remove_self()'s bookkeeping. */
#define SYSFS_FLAG_SUICIDAL	0x1	/* a remove_self() has claimed the removal */
#define SYSFS_FLAG_SUICIDED	0x2	/* ...and finished it */

/*
 * sysfs_dirent - one node of the tree, as in stage 3, with kernfs's
 * active reference in place of the rw_semaphore:
 *
 * s_count  keeps the dirent's own memory, exactly as in stage 3.
 * s_active counts the operations inside the node: sysfs_get_active()
 *	    adds one unless the count is negative, sysfs_put_active() takes
 *	    it back.  Deletion adds SD_DEACTIVATED_BIAS and waits (on
 *	    sysfs_deactivate_waitq) until the count equals the bias.
 *
 * One operation holds one active reference, on the node it operates on.
 * That is enough for the kobject too: a directory's files are removed,
 * and so drained, before the directory and its kobject go.
 */
struct sysfs_dirent {
	atomic_t s_count;
	atomic_t s_active;
	struct lockdep_map dep_map;	/* s_active as lockdep sees it: an rwsem (attributes only) */
	atomic_t s_flags;		/* SYSFS_FLAG_*: set under sysfs_mutex, read anywhere */
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
 * sysfs_deactivate_start - the node is being removed, under sysfs_mutex:
 * add the bias now, unless it is already in (several removers may meet
 * on one node), so that from here on no operation gets in.
 * __sysfs_remove() does it for the whole subtree before it drains or
 * unlinks anything, as __kernfs_remove() does under kernfs_rwsem; the node
 * stays in the tree, shut, until it has drained.  Never sleeps.
 * sysfs_deactivate() then waits for the drain, outside the mutex.
 */
void sysfs_deactivate_start(struct sysfs_dirent *sd);

/*
 * kernfs_break_active_protection() and its undo: an operation gives up
 * its own active reference on sd (deletion of sd no longer waits for it)
 * and takes the count back before it returns, so that its caller's
 * sysfs_put_active() still balances.  In between, sd may be deleted at
 * any moment: the operation alone answers for what it still touches.
 */
void sysfs_break_active_protection(struct sysfs_dirent *sd);
void sysfs_unbreak_active_protection(struct sysfs_dirent *sd);

/*
 * sysfs_remove_self - kernfs_remove_self(): remove sd from inside an
 * operation on sd.  Of several tasks that call it on one node, exactly
 * one removes it and gets true; the others wait until that removal is
 * complete and get false.
 */
bool sysfs_remove_self(struct sysfs_dirent *sd);

/*
 * __sysfs_remove - __kernfs_remove(): take sd and its subtree out, in
 * kernfs's order (bias everything, then drain and unlink node by node).
 * Call with sysfs_mutex held: it drops it while a node drains.  A node
 * already unlinked is left alone (code/stage4/sysfs_remove.c).
 */
void __sysfs_remove(struct sysfs_dirent *sd);

/* What one operation on an attribute file holds: the file's active reference, and no other. */
static inline struct sysfs_dirent *sysfs_get_active_op(struct sysfs_dirent *sd)
{
	return sysfs_get_active(sd);
}

static inline void sysfs_put_active_op(struct sysfs_dirent *sd)
{
	sysfs_put_active(sd);
}

#endif
