/* srcu.c - sleepable RCU: two counters per domain; a grace period drains the idle one, flips, drains the old one. */
#include "delay.h"
#include "srcu.h"
#include "task.h"

/* A reader held here is still inside its section, its work done: what a revoke must wait for. */
DELAY_POINT(srcu_read_unlock)

int __init_srcu_struct(struct srcu_struct *ssp, const char *name, struct lock_class_key *key)
{
	atomic_set(&ssp->srcu_idx, 0);
	atomic_set(&ssp->srcu_lock_nesting[0], 0);
	atomic_set(&ssp->srcu_lock_nesting[1], 0);
	mutex_init(&ssp->srcu_gp_mutex);
	init_waitqueue_head(&ssp->srcu_wq);
	lockdep_init_map(&ssp->dep_map, name, key, 0);
	return 0;
}

void cleanup_srcu_struct(struct srcu_struct *ssp)
{
	WARN_ON(atomic_read(&ssp->srcu_lock_nesting[0]) || atomic_read(&ssp->srcu_lock_nesting[1]));
}

/*
 * The index is read and the counter raised in two steps, and an updater
 * may flip in between: the reader then counts in the index that has just
 * gone idle, after the updater stopped looking at it (a straggler).  For
 * that grace period this is harmless: the section began after the call.
 * It is not for the next one, whose flip makes that index current again:
 * that is why synchronize_srcu() drains the idle index before it flips.
 */
__noinline int srcu_read_lock(struct srcu_struct *ssp)
{
	int idx = atomic_read(&ssp->srcu_idx) & 1;

	atomic_inc(&ssp->srcu_lock_nesting[idx]);
	lockdep_call(lock_acquire(&ssp->dep_map, 0, 0, 2, _RET_IP_));
	if (current)
		current->srcu_traced[0] = idx, current->srcu_traced_set[0] = true;
	return idx;
}

__noinline void srcu_read_unlock(struct srcu_struct *ssp, int idx)
{
	WARN_ON(idx & ~1);
	delay_point("srcu_read_unlock");
	if (current)
		current->srcu_traced[1] = idx, current->srcu_traced_set[1] = true;
	lockdep_call(lock_release(&ssp->dep_map, _RET_IP_));
	/* The waker's half of wait.h's pattern: change the count, then wake. */
	if (atomic_dec_return(&ssp->srcu_lock_nesting[idx & 1]) == 0)
		wake_up_all(&ssp->srcu_wq);
}

int srcu_traced_index(bool unlocked)
{
	if (!current || !current->srcu_traced_set[unlocked])
		return -1;
	current->srcu_traced_set[unlocked] = false;
	return current->srcu_traced[unlocked];
}

/*
 * srcu_wait_for_index - sleep until no reader is counted in index @idx.
 * A reader counted there when the wait began keeps the count above zero
 * until it leaves, so a zero seen after that means it has left.
 */
static void srcu_wait_for_index(struct srcu_struct *ssp, int idx)
{
	wait_event_desc(&ssp->srcu_wq, "synchronize_srcu",
			atomic_read(&ssp->srcu_lock_nesting[idx]) == 0);
}

/*
 * synchronize_srcu - the kernel's srcu_advance_state() in one call: scan
 * the idle index, flip, scan the old one.  A reader inside when it is
 * called has counted itself in one of the two counters, and each is seen
 * at zero after the call began; so that reader has left, whichever index
 * it loaded and however late it counted itself.  That needs no mutex;
 * srcu_gp_mutex is for progress: without it another updater could flip
 * between our read of the index and our flip, and either of our waits
 * could then be on the index new readers are entering, which they may
 * keep above zero for ever.
 */
__noinline void synchronize_srcu(struct srcu_struct *ssp)
{
	int idx;

	/* The kernel's srcu_lock_sync(): a write acquisition, over at once. */
	lockdep_call(lock_acquire(&ssp->dep_map, 0, 0, 0, _RET_IP_));
	lockdep_call(lock_release(&ssp->dep_map, _RET_IP_));
	mutex_lock(&ssp->srcu_gp_mutex);
	idx = atomic_read(&ssp->srcu_idx) & 1;	/* stable: only this mutex's holder flips */
#ifndef SRCU_ONE_WAIT	/* defined only by the test that shows what the first wait is for */
	/*
	 * SRCU_STATE_SCAN1: wait for the idle index to drain.  New readers
	 * count in idx, so only stragglers of an earlier flip are there, and
	 * some may have been inside before this call.
	 */
	srcu_wait_for_index(ssp, idx ^ 1);
#endif
	atomic_inc(&ssp->srcu_idx);	/* the flip: new readers count in idx ^ 1 */
	/* SRCU_STATE_SCAN2: every reader that counted in idx before the flip. */
	srcu_wait_for_index(ssp, idx);
	mutex_unlock(&ssp->srcu_gp_mutex);
}
