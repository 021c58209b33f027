/* percpu_ref.h - a reference count kept per CPU while it lives, made atomic when it is killed. */
#ifndef KSIM_PERCPU_REF_H
#define KSIM_PERCPU_REF_H

#include <stdatomic.h>
#include "kernel.h"
#include "percpu.h"
#include "rcu.h"
#include "scheduler.h"

/*
 * A kref makes every get and put of every CPU write one shared cache line.
 * A percpu_ref (the kernel's lib/percpu-refcount.c) does not, for as long
 * as the object lives: a get adds one to this CPU's own count, a put takes
 * one from it (maybe another CPU's: only the sum means anything), and no
 * put can tell that the count reached zero, since no CPU sees the sum.
 * That is the trade: the owner must say when the object starts to die,
 * with percpu_ref_kill(), which
 *   1. marks the ref dead and atomic: from now on gets and puts go to one
 *	atomic count, and percpu_ref_tryget_live() refuses;
 *   2. waits a grace period (synchronize_rcu()), after which no CPU is
 *	still adding to its own count on the strength of the old mode;
 *   3. folds the per-CPU counts into the atomic one, and drops the
 *	reference the owner held since init: from there on, the last put
 *	calls release(), as with a kref.
 * The atomic count starts at 1 + PERCPU_COUNT_BIAS, so that it cannot
 * reach zero while the per-CPU counts, which may be negative, are still
 * outside it; step 3 takes the bias away as it adds them.
 *
 * Differences from the kernel: its percpu_ref_kill() returns at once and
 * finishes from an RCU callback; ours waits for the grace period itself
 * (there is no callback thread), so it sleeps.  No switch back to percpu
 * mode (percpu_ref_reinit/resurrect), no INIT_ flags.
 */
struct percpu_ref;
typedef void (percpu_ref_func_t)(struct percpu_ref *ref);

#define __PERCPU_REF_ATOMIC	0x1	/* gets and puts go to count */
#define __PERCPU_REF_DEAD	0x2	/* killed: tryget_live fails */
#define PERCPU_COUNT_BIAS	(1L << 62)

struct percpu_ref {
	atomic_long count;		/* atomic mode's count; + PERCPU_COUNT_BIAS before the kill */
	long percpu_count;		/* the per-CPU longs (alloc_percpu offset) */
	atomic_uint flags;		/* __PERCPU_REF_* */
	percpu_ref_func_t *release;
};

/* percpu_ref_init - per-CPU mode, one reference (the owner's, dropped by percpu_ref_kill()). */
int percpu_ref_init(struct percpu_ref *ref, percpu_ref_func_t *release);
/* percpu_ref_exit - free the per-CPU counts; the ref must be released (or never used). */
void percpu_ref_exit(struct percpu_ref *ref);
/* percpu_ref_kill - start the ref's death: see above.  Call once.  Sleeps for a grace period. */
void percpu_ref_kill(struct percpu_ref *ref);
/* percpu_ref_is_zero - released (only meaningful after the kill). */
bool percpu_ref_is_zero(struct percpu_ref *ref);
/* The atomic-mode put: the count reached zero, call release(). */
void __percpu_ref_put_atomic(struct percpu_ref *ref);

static inline bool __ref_is_percpu(struct percpu_ref *ref)
{
	return !(atomic_load_explicit(&ref->flags, memory_order_relaxed) & __PERCPU_REF_ATOMIC);
}

/* percpu_ref_get - one more reference; the caller already holds one. */
static inline void percpu_ref_get(struct percpu_ref *ref)
{
	sched_point();
	rcu_read_lock();
	if (__builtin_expect(__ref_is_percpu(ref), 1))
		this_cpu_add(ref->percpu_count, 1);
	else
		atomic_fetch_add_explicit(&ref->count, 1, memory_order_relaxed);
	rcu_read_unlock();
}

/*
 * percpu_ref_tryget_live - a reference unless the ref has been killed;
 * true if taken.  The kernel's guard for "may a new user start?".
 */
static inline bool percpu_ref_tryget_live(struct percpu_ref *ref)
{
	bool ok = false;

	sched_point();
	rcu_read_lock();
	if (__builtin_expect(__ref_is_percpu(ref), 1)) {
		this_cpu_add(ref->percpu_count, 1);
		ok = true;
	} else if (!(atomic_load(&ref->flags) & __PERCPU_REF_DEAD)) {
		long c = atomic_load(&ref->count);

		while (c != 0 && !atomic_compare_exchange_weak(&ref->count, &c, c + 1))
			;
		ok = c != 0;
	}
	rcu_read_unlock();
	return ok;
}

/* percpu_ref_put - drop a reference; after the kill, the last one calls release(). */
static inline void percpu_ref_put(struct percpu_ref *ref)
{
	bool zero = false;

	sched_point();
	rcu_read_lock();
	if (__builtin_expect(__ref_is_percpu(ref), 1))
		this_cpu_add(ref->percpu_count, -1);
	else
		zero = atomic_fetch_sub_explicit(&ref->count, 1, memory_order_acq_rel) == 1;
	rcu_read_unlock();
	/* Outside the section: release() may free what a grace period waits for. */
	if (zero)
		__percpu_ref_put_atomic(ref);
}

#endif
