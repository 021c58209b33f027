/* sysfs_active.c - the active reference as kernfs keeps it: an atomic count with a deactivation bias. */
#include <stdio.h>
#include <valgrind/helgrind.h>
#include <delay.h>
#include <exercise.h>
#include <sysfs_internal.h>
#include <wait.h>

/*
 * Stage 3 counted operations with an rw_semaphore; kernfs counts them in a
 * plain atomic_t, with one number set apart:
 *
 *	s_active >= 0			live: that many operations inside
 *	s_active == BIAS + n		deleted: n operations still inside
 *	s_active == BIAS		deleted and drained
 *
 * sysfs_get_active() increments unless the count is negative, in one
 * atomic step, so one atomic_add of the bias (sysfs_deactivate_start(),
 * when a removal begins) shuts the door on every later operation at once;
 * sysfs_put_active() decrements, and the put that brings a deleted node
 * down to the bias wakes its deleter.  The deleters all sleep on one wait
 * queue, as they do on kernfs_root's deactivate_waitq: a node needs no
 * room of its own for them, and any number may wait for the same node.
 *
 * The counter is an atomic, and helgrind and drd take an atomic for a
 * plain access that orders nothing; the annotations say what it orders:
 * everything an operation did before its put happens before the deleter
 * returns from the drain and frees what the operation used.
 *
 * lockdep cannot see a wait on a count, so it is told, as kernfs tells it
 * in kernfs_get_active()/kernfs_drain(): a get is a read-trylock of the
 * node's dep_map, a put its release, a drain an acquisition and release
 * of the write side.  Every drain of an attribute is told, whether or not
 * an operation is inside: kernfs did so from 3.14 to 6.0, when it drained
 * every node that had been activated.  Since Linux 6.1 (commit
 * 2d7f9f8c1815, "kernfs: Improve kernfs_drain() and always call on
 * removal") kernfs_drain() returns at once, annotation and all, when the
 * count is already at the bias; lockdep on 6.1 and later hears of a drain
 * only when an operation is inside the node as it is removed.  An operation that takes a lock L under its active
 * reference then records "s_active before L", and a task that drains the
 * node while holding L records "L before s_active": a cycle, reported on
 * the first run that does both, whether or not they ever overlap.
 */
/* Unused in the skeleton until the exercises are done: hence __maybe_unused. */
static __maybe_unused DECLARE_WAIT_QUEUE_HEAD(sysfs_deactivate_waitq);

/**
 * sysfs_get_active - start one operation on @sd.
 * @sd: the node; the caller holds an s_count on it
 *
 * Returns @sd, or NULL once @sd has been deactivated: the caller fails
 * with -ENODEV and touches nothing of @sd outside sysfs.  Never sleeps.
 */
struct sysfs_dirent *sysfs_get_active(struct sysfs_dirent *sd)
{
	bool ok;

	if (!sd)
		return NULL;
	@EXERCISE sysfs_get_active
	TODO("sysfs_get_active", "let one more operation in unless the node has been deactivated, deciding and counting in one indivisible step");
	ok = true;
	@END
	if (ok)
		rwsem_acquire_read(&sd->dep_map, 0, 1, _RET_IP_);
	return sysfs_active_got(sd, ok);
}

/**
 * sysfs_put_active - end the operation that sysfs_get_active() started.
 * @sd: the node, as returned by sysfs_get_active() (NULL: nothing to do)
 *
 * If @sd is deleted and this was the last operation inside, its deleter
 * is waiting: wake it.  After the decrement the caller must not touch
 * anything of @sd outside sysfs.
 */
void sysfs_put_active(struct sysfs_dirent *sd)
{
	if (!sd)
		return;
	sysfs_active_putting(sd);
	rwsem_release(&sd->dep_map, _RET_IP_);
	ANNOTATE_HAPPENS_BEFORE(&sd->s_active);
	@EXERCISE sysfs_put_active
	TODO("sysfs_put_active", "the operation is over: count it out, and if the node is deleted and this was the last operation inside, tell whoever waits for it");
	@END
}

/* sysfs_drained - every operation that was inside deleted @sd has come out. */
static __maybe_unused bool sysfs_drained(struct sysfs_dirent *sd)
{
	return atomic_read(&sd->s_active) == SD_DEACTIVATED_BIAS;
}

/* drain_what - what a deleter waits for, in words for the hung-task watchdog. */
static __maybe_unused void drain_what(const struct sysfs_dirent *sd, int inside, char *buf, size_t len)
{
	snprintf(buf, len, "sysfs_drain %s (%d active inside as it began)", sd->trace_name, inside);
}

/**
 * sysfs_deactivate_start - @sd is being removed: no new operation may start.
 * @sd: the node the caller removes
 *
 * One atomic add of the bias, unless the count is negative already (a
 * second remover of the same node): the count turns negative and every
 * later sysfs_get_active() refuses.  Only removers add the bias, and they
 * hold sysfs_mutex, so the test and the add cannot be split by another;
 * gets and puts never change the sign.  Never sleeps.
 *
 * Context: call with sysfs_mutex held.
 */
void sysfs_deactivate_start(struct sysfs_dirent *sd)
{
	lockdep_assert_held(&sysfs_mutex);
	@EXERCISE sysfs_deactivate_start
	TODO("sysfs_deactivate_start", "shut the door on new operations in one step, while the operations already inside keep their count; a second remover of the same node must not shut it twice");
	(void)sd;
	@END
}

/**
 * sysfs_deactivate - wait until the operations inside deleted @sd are out.
 * @sd: a node already deactivated (sysfs_deactivate_start()); the caller
 *	holds an s_count on it
 *
 * Sleeps until the count equals the bias.  An operation that deletes its
 * own node without sysfs_remove_self() waits for itself here: the
 * hung-task watchdog reports it, as in stage 3.
 *
 * Context: may sleep.  Call with sysfs_mutex not held.
 */
void sysfs_deactivate(struct sysfs_dirent *sd)
{
	char what[TRACE_NAME_LEN + 64];

	lockdep_assert_not_held(&sysfs_mutex);
	/* The wait for the count, told to lockdep as taking the write side. */
	rwsem_acquire(&sd->dep_map, 0, 0, _RET_IP_);
	@EXERCISE sysfs_deactivate
	TODO("sysfs_deactivate", "sleep until every operation that was inside the deleted node has come out");
	(void)what;
	@END
	rwsem_release(&sd->dep_map, _RET_IP_);
	ANNOTATE_HAPPENS_AFTER(&sd->s_active);
	trace_event("deactivate", sd->trace_name, NULL);
}

/*
 * kernfs_break_active_protection() - the caller's operation gives its
 * active reference on @sd back early; sysfs_unbreak_active_protection()
 * takes the count again, without the check, since @sd may be deleted by
 * then (the count is only bookkeeping for the caller's final put).
 *
 * lockdep hears both: the break is a put, so the operation no longer
 * holds s_active and its own removal's drain is no recursive locking;
 * the unbreak is a write-trylock, so the caller's final put has a lock
 * to release, and what the caller takes afterwards is ordered after it.
 */
void sysfs_break_active_protection(struct sysfs_dirent *sd)
{
	sysfs_put_active(sd);
}

void sysfs_unbreak_active_protection(struct sysfs_dirent *sd)
{
	atomic_inc(&sd->s_active);
	rwsem_acquire(&sd->dep_map, 0, 1, _RET_IP_);
	sysfs_active_got(sd, true);
}

/* sysfs_self_removed - the removal some remove_self() claimed is complete, its caller out. */
static __maybe_unused bool sysfs_self_removed(struct sysfs_dirent *sd)
{
	return (atomic_read(&sd->s_flags) & SYSFS_FLAG_SUICIDED) && sysfs_drained(sd);
}

/**
 * sysfs_remove_self - remove @sd from inside an operation on @sd.
 * @sd: the node the caller's operation holds an active reference on
 *
 * kernfs_remove_self()'s order: take sysfs_mutex, give up our own active
 * reference (so that the removal does not wait for us), and claim the
 * removal.  The one task that claims it removes the node with
 * __sysfs_remove() (which finds nothing to do if an ordinary removal
 * has unlinked it already) and returns true; any other waits until that
 * removal is done and the claimant's operation is out, and returns false.
 * Either way the count is taken back before returning, so the caller's
 * put balances.
 *
 * The trap: the claimant marks the removal done (SUICIDED) and takes its
 * count back in one step under sysfs_mutex, and the others test
 * "SUICIDED and drained" under the same mutex.  Were the claimant to mark
 * it done and only then take its count back, there would be a moment in
 * which the node looks drained although the claimant's operation is still
 * running, and a waiting caller could return inside it.  kernfs holds
 * kernfs_rwsem across both for this reason.
 */
bool sysfs_remove_self(struct sysfs_dirent *sd)
{
	char what[TRACE_NAME_LEN + 64];
	bool first = false;

	@EXERCISE sysfs_remove_self
	TODO("sysfs_remove_self", "a method that removes its own node must first stop counting itself inside it, or the removal waits for itself; of two tasks removing it at once, one removes while the other waits");
	(void)what; (void)sd;
	@END
	return first;
}

/* s_active's birth, name and death, with the dirent's (sysfs_tree.c): born live, at zero. */
void sysfs_active_init(struct sysfs_dirent *sd, const char *name)
{
	(void)name;
	atomic_set(&sd->s_active, 0);
	atomic_set(&sd->s_flags, 0);
}

/*
 * The trace name already says which node a drain waits for.  What is
 * named here is the lock class: kernfs gives each attribute's active
 * reference a class of its own, keyed by the attribute (a file removing
 * another file of its device is then no "recursive locking"), and leaves
 * directories out.  sysfs_link_child() calls this once the node knows
 * its attribute, before anyone can reach it.
 */
void sysfs_active_name(struct sysfs_dirent *sd, const char *path)
{
	/* For an attribute node made without an attribute (the tests' trees): one class for all. */
	static struct lock_class_key no_attr_key;

	(void)path;
	if (sd->s_type == SYSFS_KOBJ_ATTR)
		lockdep_init_map(&sd->dep_map, "&sd->s_active",
				 sd->s.attr ? &sd->s.attr->skey : &no_attr_key, 0);
}

/* sysfs_active_destroy - the last s_count is gone: no operation can be inside. */
void sysfs_active_destroy(struct sysfs_dirent *sd)
{
	int v = atomic_read(&sd->s_active);

	BUG_ON(v != 0 && v != SD_DEACTIVATED_BIAS);
}
