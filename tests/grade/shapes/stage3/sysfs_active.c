/* sysfs_active.c - the active reference: s_active, an rw_semaphore used as a counter. */
#include <stdio.h>
#include <exercise.h>
#include <sysfs_internal.h>

/*
 * The trick: an rw_semaphore counts its readers, and lets in a writer only
 * when there are none.  Read it as a counter:
 *
 *	down_read_trylock()	one more operation in flight (never sleeps:
 *				fails once a writer holds or waits for it)
 *	up_read()		one operation less
 *	down_write()		deletion: wait until the count is zero, and
 *				from then on make every trylock fail
 *
 * The write side is taken once, when the node is deleted, and never
 * released: a deleted node stays deleted.  The semaphore is destroyed
 * with the dirent's memory (sysfs_tree.c), never unlocked.
 *
 * No ANNOTATE_RWLOCK_* for helgrind and drd here, on purpose.  They would
 * make the tools treat s_active as a lock, and a deletion as a write lock
 * its task never unlocks: every task that deleted a node would be
 * reported as "still holding" it.  The tools need no help either: the
 * rw_semaphore is a mutex and a condition variable, so the up_read() of
 * the last operation and the return of down_write() are ordered by that
 * mutex, and so is everything the operation did before with everything
 * the deleting task does after (free the kobject).
 */

/**
 * sysfs_get_active - start one operation on @sd.
 * @sd: the node; the caller holds an s_count on it
 *
 * Returns @sd, or NULL if @sd is being deleted or is already deleted: the
 * caller must then fail its operation with -ENODEV and touch nothing of
 * @sd outside sysfs (kobject, attribute, ops).  The trap: this must never
 * sleep.  An operation that waited here for a deletion would wait for
 * ever, since the writer never lets go.
 */
struct sysfs_dirent *sysfs_get_active(struct sysfs_dirent *sd)
{
	bool ok;

	if (!sd)
		return NULL;
	@EXERCISE sysfs_get_active
	TODO("sysfs_get_active", "an operation may start only while the node is not being deleted, and must never wait for a deletion: try, and say whether it worked");
	ok = true;
	@END
	return sysfs_active_got(sd, ok);
}

/**
 * sysfs_put_active - end the operation that sysfs_get_active() started.
 * @sd: the node, as returned by sysfs_get_active() (NULL: nothing to do)
 *
 * After this the caller must not touch anything of @sd outside sysfs:
 * a deletion that waited for this operation may now return, and its
 * caller may free the kobject at once.
 */
void sysfs_put_active(struct sysfs_dirent *sd)
{
	if (!sd)
		return;
	sysfs_active_putting(sd);
	@EXERCISE sysfs_put_active
	TODO("sysfs_put_active", "the operation is over: give back what sysfs_get_active took, so that a deletion waiting for the operations in flight can go on");
	@END
}

/**
 * sysfs_get_active_two - active references on @sd and on its parent.
 * @sd: an attribute (or any node); the caller holds an s_count on it
 *
 * An attribute's operation uses two things outside sysfs: the attribute
 * (guarded by @sd's active reference) and the kobject it belongs to
 * (guarded by the parent directory's).  The parent's is taken first and
 * released last (sysfs_put_active_two()), so the two nest like locks: no
 * moment exists at which the operation holds the attribute but not its
 * kobject.  If either cannot be had, the operation holds neither.
 *
 * Returns @sd, or NULL (the caller fails with -ENODEV).
 */
struct sysfs_dirent *sysfs_get_active_two(struct sysfs_dirent *sd)
{
	@EXERCISE sysfs_get_active_two
	TODO("sysfs_get_active_two", "an attribute's operation uses the attribute and its kobject: hold the parent's active reference around the node's own, all or nothing");
	return sd;
	@END
}

/**
 * sysfs_put_active_two - drop what sysfs_get_active_two() took: @sd's
 * first, its parent's last.
 */
void sysfs_put_active_two(struct sysfs_dirent *sd)
{
	@EXERCISE sysfs_put_active_two
	TODO("sysfs_put_active_two", "undo sysfs_get_active_two in the reverse order: the node first, its parent last");
	(void)sd;
	@END
}

/**
 * sysfs_deactivate - @sd is being deleted: no new operation may start,
 * and the ones in flight must end before the deletion goes on.
 * @sd: a node already unlinked from the tree; the caller holds an s_count
 *
 * Sleeps until the last operation in flight has called
 * sysfs_put_active(), then returns with the write side held for good.
 * Called from an operation on @sd itself (an attribute that removes its
 * own node from its store()), it waits for itself: a deadlock.  lockdep
 * reports it before the wait (the store holds s_active for reading and
 * this takes it for writing: recursive locking of one class); without
 * lockdep the hung-task watchdog does.  That is what
 * sysfs_schedule_callback() is for.
 */
void sysfs_deactivate(struct sysfs_dirent *sd)
{
	@EXERCISE sysfs_deactivate
	TODO("sysfs_deactivate", "a deletion shuts out new operations and waits for those in flight, once and for ever");
	@END
	/*
	 * Lie to lockdep, as sysfs did in 2007: the write side is kept for
	 * good, but lockdep must not think this task holds it, or the task's
	 * next deletion would look like recursive locking.  What lockdep
	 * keeps is the order: whatever this task held, it held before
	 * s_active, and down_write() above has already checked that.  (The
	 * test spares an unfinished exercise a report about the lie itself.)
	 */
	if (lock_is_held(&sd->s_active.dep_map))
		rwsem_release(&sd->s_active.dep_map, _RET_IP_);
	trace_event("deactivate", sd->trace_name, NULL);
}

/*
 * s_active's birth, name and death, with the dirent's (sysfs_tree.c).  It
 * is born open: operations may start as soon as the dirent can be found.
 * The whole path goes into the semaphore's name once it is known, so that
 * a hung-task report says which node a deletion waits for.  For lockdep,
 * every node's s_active is one lock class, "&sd->s_active": this init site.
 */
void sysfs_active_init(struct sysfs_dirent *sd, const char *name)
{
	char what[96];

	snprintf(what, sizeof(what), "s_active of %s", name);
	init_rwsem(&sd->s_active, what);
}

void sysfs_active_name(struct sysfs_dirent *sd, const char *path)
{
	snprintf(sd->s_active.name, sizeof(sd->s_active.name), "s_active of %.83s", path);
}

/*
 * sysfs_active_destroy - the last s_count is gone.  Nobody can start an
 * operation on sd any more (that needs an s_count), so no reader holds
 * s_active: destroying it is safe even though a deleted node's s_active
 * is still held for writing, and for ever will be.
 */
void sysfs_active_destroy(struct sysfs_dirent *sd)
{
	destroy_rwsem(&sd->s_active);
}
