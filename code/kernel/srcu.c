/* srcu.c - sleepable RCU: two counters per domain, an index flip, and a wait for the old index to drain. */
#include "srcu.h"

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
 * may flip in between: the reader then counts in the old index after the
 * updater stopped looking at it.  That is harmless: everything the updater
 * did before its flip is visible to a reader that loaded the index before
 * it and reads the protected data after raising the counter.
 */
__noinline int srcu_read_lock(struct srcu_struct *ssp)
{
	int idx = atomic_read(&ssp->srcu_idx) & 1;

	atomic_inc(&ssp->srcu_lock_nesting[idx]);
	lockdep_call(lock_acquire(&ssp->dep_map, 0, 0, 2, _RET_IP_));
	return idx;
}

__noinline void srcu_read_unlock(struct srcu_struct *ssp, int idx)
{
	WARN_ON(idx & ~1);
	lockdep_call(lock_release(&ssp->dep_map, _RET_IP_));
	/* The waker's half of wait.h's pattern: change the count, then wake. */
	if (atomic_dec_return(&ssp->srcu_lock_nesting[idx & 1]) == 0)
		wake_up_all(&ssp->srcu_wq);
}

__noinline void synchronize_srcu(struct srcu_struct *ssp)
{
	int idx;

	/* The kernel's srcu_lock_sync(): a write acquisition, over at once. */
	lockdep_call(lock_acquire(&ssp->dep_map, 0, 0, 0, _RET_IP_));
	lockdep_call(lock_release(&ssp->dep_map, _RET_IP_));
	mutex_lock(&ssp->srcu_gp_mutex);
	idx = atomic_read(&ssp->srcu_idx) & 1;
	atomic_inc(&ssp->srcu_idx);	/* the flip: new readers count in idx ^ 1 */
	wait_event_desc(&ssp->srcu_wq, "synchronize_srcu",
			atomic_read(&ssp->srcu_lock_nesting[idx]) == 0);
	mutex_unlock(&ssp->srcu_gp_mutex);
}
