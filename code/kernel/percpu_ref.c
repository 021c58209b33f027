/* percpu_ref.c - a percpu_ref's birth, kill and release. */
#include "percpu_ref.h"

int percpu_ref_init(struct percpu_ref *ref, percpu_ref_func_t *release)
{
	long off = alloc_percpu_size(sizeof(long));

	if (off < 0)
		return off;
	ref->percpu_count = off;
	ref->release = release;
	atomic_store(&ref->flags, 0);
	atomic_store(&ref->count, 1 + PERCPU_COUNT_BIAS);
	return 0;
}

void percpu_ref_exit(struct percpu_ref *ref)
{
	if (ref->percpu_count)
		free_percpu(ref->percpu_count);
	ref->percpu_count = 0;
}

void __percpu_ref_put_atomic(struct percpu_ref *ref)
{
	ref->release(ref);
}

bool percpu_ref_is_zero(struct percpu_ref *ref)
{
	return !__ref_is_percpu(ref) && atomic_load(&ref->count) == 0;
}

void percpu_ref_kill(struct percpu_ref *ref)
{
	unsigned int old = atomic_fetch_or(&ref->flags, __PERCPU_REF_ATOMIC | __PERCPU_REF_DEAD);

	if (WARN_ON(old & __PERCPU_REF_DEAD))
		return;	/* killed twice: the owner's reference was dropped already */
	/*
	 * After the grace period no get or put still works on a per-CPU
	 * count: the ones that saw per-CPU mode have ended their section,
	 * the later ones use count.  Now the per-CPU sum is final.
	 */
	synchronize_rcu();
	atomic_fetch_add(&ref->count, percpu_sum(ref->percpu_count) - PERCPU_COUNT_BIAS);
	percpu_ref_put(ref);	/* the owner's reference, from percpu_ref_init() */
}
