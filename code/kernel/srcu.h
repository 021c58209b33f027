/* srcu.h - sleepable RCU: readers that may sleep, and an updater that waits for the readers it could miss. */
#ifndef KSIM_SRCU_H
#define KSIM_SRCU_H

#include "atomic.h"
#include "lockdep.h"
#include "mutex.h"
#include "wait.h"

/*
 * struct srcu_struct - one domain of SRCU readers (a driver's, a
 * revocable provider's): srcu_read_lock() enters a read-side section and
 * returns an index, srcu_read_unlock() leaves it with that same index,
 * and synchronize_srcu() returns only once every section that began
 * before it has ended.  Unlike rcu_read_lock(), a section may sleep, so
 * the updater cannot wait for a pass through the scheduler: it counts the
 * readers instead.
 *
 * The counting is the classic SRCU's: two counters, one per index.  A
 * reader counts itself in the counter the index points at, and must leave
 * through the same counter, which is why srcu_read_lock() hands the index
 * back and srcu_read_unlock() takes it.  synchronize_srcu() flips the
 * index, so that new readers count in the other counter, and waits for
 * the old one to drain: readers that arrive after the flip never hold it
 * up.  An unlock with the wrong index leaves the old counter above zero
 * for ever, and synchronize_srcu() with it: the hang of a struct that
 * keeps one index for every thread that reads through it.
 *
 * Why it waits twice.  A reader loads the index, then raises the counter:
 * two steps, and a flip may fall between them.  Such a straggler counts in
 * the index that has just gone idle, after the updater looked at it.  The
 * grace period under way need not wait for it, but the next flip makes
 * that index current again, and a synchronize_srcu() that only drained
 * the old index after its flip would return with the straggler inside
 * (test_srcu's straggler harnesses: two updaters, or one that calls twice).
 * So, as the kernel's Tree SRCU does (srcu_advance_state() in
 * kernel/rcu/srcutree.c, SRCU_STATE_SCAN1 then SRCU_STATE_SCAN2),
 * synchronize_srcu() first waits for the idle index to drain, then flips,
 * then waits for the old one.  What that guarantees: a reader inside when
 * synchronize_srcu() is called has counted itself in one of the two
 * counters, the updater sees each counter at zero after the call began,
 * and a counter holding that reader cannot be zero until it leaves; so
 * the reader has left when synchronize_srcu() returns.  The first wait
 * cannot starve: new readers count in the current index, and only
 * stragglers of an earlier flip, a bounded few, count in the idle one.
 *
 * Differences from the kernel: the kernel's counters are per CPU, a lock
 * count and an unlock count per index, summed without a lock, with
 * memory barriers between the sums and the flip; a scan that finds
 * readers gives up and is retried later from a workqueue.  Ours are two
 * atomic_t, sequentially consistent like every atomic_t here (atomic.h),
 * so no barrier is needed, and a scan sleeps on a wait queue until the
 * last reader of its index wakes it.
 * There is no call_srcu(), and no expedited or polled grace period.
 *
 * lockdep sees a read-side section as a recursive read acquisition of the
 * domain (nested sections are legal) and synchronize_srcu() as a write
 * acquisition that is released at once, as the kernel's srcu_lock_sync():
 * synchronize_srcu() inside a section of its own domain, which would wait
 * for itself, is reported, and so is a lock taken around it by a reader
 * and around a reader by the updater.
 */
struct srcu_struct {
	atomic_t srcu_idx;			/* new readers count in srcu_lock_nesting[srcu_idx & 1] */
	atomic_t srcu_lock_nesting[2];		/* readers in their section, per index */
	struct mutex srcu_gp_mutex;		/* one grace period at a time */
	struct wait_queue_head srcu_wq;		/* synchronize_srcu() waits here for the old index to drain */
	struct lockdep_map dep_map;
};

/*
 * init_srcu_struct - set up a domain; its lockdep class is the call site,
 * named after the argument (as the kernel's macro does).
 */
#define init_srcu_struct(ssp) ({						\
	static struct lock_class_key __srcu_key;				\
	__init_srcu_struct((ssp), #ssp, &__srcu_key);				\
})
int __init_srcu_struct(struct srcu_struct *ssp, const char *name, struct lock_class_key *key);

/**
 * cleanup_srcu_struct - tear down a domain no reader uses any more.
 * @ssp: the domain
 *
 * Context: no section of @ssp in progress (a WARN if one is: its reader
 * would then unlock freed memory).  Return: nothing.
 */
void cleanup_srcu_struct(struct srcu_struct *ssp);

/**
 * srcu_read_lock - enter a read-side section of @ssp.
 * @ssp: the domain
 *
 * Context: any task; may be nested, and the section may sleep.
 * Return: the index to hand to the matching srcu_read_unlock(), 0 or 1.
 * It belongs to this section: keep it on the reader's stack, never in an
 * object that another reader may overwrite.
 */
int srcu_read_lock(struct srcu_struct *ssp);

/**
 * srcu_read_unlock - leave the read-side section that srcu_read_lock() began.
 * @ssp: the domain
 * @idx: what that srcu_read_lock() returned
 *
 * Context: any task, in a section of @ssp.  Wakes synchronize_srcu() if
 * this was the last reader it waited for.  Return: nothing.
 */
void srcu_read_unlock(struct srcu_struct *ssp, int idx);

/**
 * srcu_traced_index - for a trace: the index of this task's last section.
 * @unlocked: false for what its last srcu_read_lock() returned, true for
 *	what its last srcu_read_unlock() was given
 *
 * Read once: the next call says -1 until another lock (or unlock).  A
 * trace that shows both draws a withdrawal that lowered another counter
 * than its access raised (make explain-stageN), the hang of a shared index.
 *
 * Context: any task.  Return: 0 or 1, or -1 if none since the last call.
 */
int srcu_traced_index(bool unlocked);

/**
 * synchronize_srcu - wait until every section of @ssp in progress has ended.
 * @ssp: the domain
 *
 * Sections that begin while it waits do not hold it up.
 *
 * Context: sleeps; never inside a section of @ssp (lockdep reports it, and
 * the wait would be for ever).  Return: nothing.
 */
void synchronize_srcu(struct srcu_struct *ssp);

/*
 * srcu_dereference - load a pointer that an updater publishes and later
 * clears, inside a section of @ssp; rcu_assign_pointer - the updater's
 * store.  The pointer is an _Atomic one: the load acquires what the store
 * released (the kernel's pairing of the two), and ThreadSanitizer sees it.
 * Both are schedule points, like atomic.h's operations, so the explorer
 * can run another task between a reader's srcu_read_lock() and its load.
 *
 * Differences from the kernel: no __rcu annotation (sparse does not run
 * here) and no lockdep check that the caller is inside a section of @ssp.
 */
#define srcu_dereference(p, ssp) ({						\
	(void)(ssp);								\
	sched_point();								\
	atomic_load_explicit(&(p), memory_order_acquire);			\
})
#define rcu_assign_pointer(p, v) do {						\
	sched_point();								\
	atomic_store_explicit(&(p), (v), memory_order_release);			\
} while (0)

#endif
