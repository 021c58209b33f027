/* kref.h - a reference count that calls a release function when it drops to zero. */
#ifndef KSIM_KREF_H
#define KSIM_KREF_H

#include <stdatomic.h>
#include <valgrind/helgrind.h>
#include "atomic.h"
#include "kernel.h"

/*
 * struct kref - the count is an atomic_t, as the kernel's is underneath
 * (its kref holds a refcount_t, which holds an atomic_t).  So code that
 * changes the count by hand goes through atomic.h, whose every operation
 * is a schedule point: a count read and then written back in two steps
 * (atomic_set(..., kref_read(...) + 1)) leaves a window between them that
 * the controlled scheduler can open, as two CPUs can.
 *
 * Differences from the kernel: no refcount_t, so no saturation; a get from
 * zero or a put below it is a WARN, as refcount_t's are.
 */
struct kref {
	atomic_t refcount;
};

/* kref_init - the creator holds the first reference. */
static inline void kref_init(struct kref *kref)
{
	atomic_store_explicit(&kref->refcount.counter, 1, memory_order_relaxed);
}

/*
 * kref_read - the count at this instant, for reports and tests: another
 * task may change it the moment it is read.  A schedule point, as every
 * atomic_t read is: code that decides on what it read (decrement, then
 * "did that reach zero?" read apart) has a window between the two that
 * the controlled scheduler must be able to open, or a put that releases
 * twice passes every schedule.  A trace line's read is not one: trace_event()
 * evaluates its arguments with preemption off (trace.h).
 */
static inline int kref_read(const struct kref *kref)
{
	return atomic_read(&kref->refcount);
}

/*
 * kref_get - take one more reference.  The caller must already hold one
 * (directly, or through a lock that keeps the object alive): a kref at zero
 * is being released and must not come back, hence the WARN.
 */
static inline void kref_get(struct kref *kref)
{
	WARN_ON(atomic_inc_return(&kref->refcount) <= 1);
}

/*
 * kref_get_unless_zero - take a reference unless the count is already zero.
 *
 * For objects found through a lookup structure (a list, a table) whose
 * release() removes them from it: between the last put and the removal,
 * a lookup under the structure's lock can still find an object whose
 * count is zero.  kref_get() would bring it back from the dead; this
 * refuses, and the caller treats the object as not found.  Returns 1 if a
 * reference was taken, 0 if not.  The kernel's kref has been a refcount_t
 * since 4.11, whose refcount_inc_not_zero() does this; kobject_get_unless_zero()
 * wraps it (kset_find_obj() uses it under the kset's list lock).
 */
static inline int kref_get_unless_zero(struct kref *kref)
{
	int old = kref_read(kref);

	do {
		if (old <= 0)
			return 0;
	} while (!atomic_try_cmpxchg(&kref->refcount, &old, old + 1));
	return 1;
}

/*
 * kref_put - drop a reference; the last one calls release(kref).
 *
 * Returns 1 if this call released the object, 0 otherwise.  When it
 * returns 0 the caller must not touch the object again: another task may
 * drop the last reference the next instant.  release must not be NULL or
 * a bare free(): it frees the structure that contains the kref.
 *
 * The decrement is sequentially consistent (atomic.h), so every earlier
 * access by any holder happens before release() (ThreadSanitizer does not
 * understand the kernel's release-decrement-then-acquire-fence idiom, so
 * we use the stronger ordering).  Helgrind and drd do not see atomics as
 * synchronisation at all; the annotations tell them the same thing, so a
 * correct count shows no false race between the last put and release().
 */
static inline int kref_put(struct kref *kref, void (*release)(struct kref *kref))
{
	int new = atomic_dec_return(&kref->refcount);

	WARN_ON(new < 0);
	if (new == 0) {
		ANNOTATE_HAPPENS_AFTER(&kref->refcount);
		ANNOTATE_HAPPENS_BEFORE_FORGET_ALL(&kref->refcount);
		release(kref);
		return 1;
	}
	ANNOTATE_HAPPENS_BEFORE(&kref->refcount);
	return 0;
}

#endif
