/* atomic.h - atomic_t with the kernel's names; every operation is a schedule point. */
#ifndef KSIM_ATOMIC_H
#define KSIM_ATOMIC_H

#include <stdatomic.h>
#include "scheduler.h"

/*
 * atomic_t - an int that tasks change without a lock, as kernfs keeps its
 * active count.  The names and meanings are the kernel's
 * (Documentation/atomic_t.txt): atomic_read/atomic_set, atomic_inc/dec,
 * the *_return forms that give the new value, atomic_cmpxchg and the
 * conditional forms.  (The kernel's atomic_fetch_add() and friends are
 * left out: C11's <stdatomic.h> already owns those names.)
 *
 * Two differences, both on purpose:
 *  - every operation without a suffix is sequentially consistent (in the
 *    kernel atomic_read(), atomic_set() and the forms that return nothing,
 *    atomic_inc() among them, are relaxed; the ones that return a value,
 *    atomic_dec_return() and atomic_dec_and_test() among them, are fully
 *    ordered): ThreadSanitizer then needs no fences explained to it, and a
 *    protocol that is wrong is wrong in its logic, not in a memory-order
 *    subtlety.  The value-returning forms also come with the kernel's
 *    _relaxed, _acquire and _release suffixes, so that an ordering too weak
 *    can be written down; only ThreadSanitizer on free threads sees one
 *    (the controlled scheduler runs one task at a time, and x86 gives a
 *    relaxed and a fully ordered read-modify-write the same instruction);
 *  - every operation is a schedule point: under the controlled scheduler
 *    (scheduler.h) another task may run just before it.  A task's steps
 *    between two atomics are invisible to the others, so this is where
 *    interleavings matter.
 */
typedef struct {
	atomic_int counter;
} atomic_t;

#define ATOMIC_INIT(i) { (i) }

static inline int atomic_read(const atomic_t *v)
{
	sched_point();
	return atomic_load((atomic_int *)&v->counter);
}

static inline void atomic_set(atomic_t *v, int i)
{
	sched_point();
	atomic_store(&v->counter, i);
}

/* The value before adding i: what the named operations below are made of. */
static inline int __atomic_t_add(int i, atomic_t *v)
{
	sched_point();
	return atomic_fetch_add_explicit(&v->counter, i, memory_order_seq_cst);
}

static inline int __atomic_t_sub(int i, atomic_t *v)
{
	sched_point();
	return atomic_fetch_sub_explicit(&v->counter, i, memory_order_seq_cst);
}

static inline int __atomic_t_or(int i, atomic_t *v)
{
	sched_point();
	return atomic_fetch_or_explicit(&v->counter, i, memory_order_seq_cst);
}

/* The value-returning forms with a weaker order: NAME_relaxed, NAME_acquire, NAME_release. */
#define ATOMIC_T_RETURN_ORDER(suffix, order)							\
static inline int atomic_add_return##suffix(int i, atomic_t *v)				\
{												\
	sched_point();										\
	return atomic_fetch_add_explicit(&v->counter, i, order) + i;				\
}												\
static inline int atomic_sub_return##suffix(int i, atomic_t *v)				\
{												\
	sched_point();										\
	return atomic_fetch_sub_explicit(&v->counter, i, order) - i;				\
}												\
static inline int atomic_inc_return##suffix(atomic_t *v) { return atomic_add_return##suffix(1, v); } \
static inline int atomic_dec_return##suffix(atomic_t *v) { return atomic_sub_return##suffix(1, v); }
ATOMIC_T_RETURN_ORDER(_relaxed, memory_order_relaxed)
ATOMIC_T_RETURN_ORDER(_acquire, memory_order_acquire)
ATOMIC_T_RETURN_ORDER(_release, memory_order_release)

static inline int atomic_add_return(int i, atomic_t *v) { return __atomic_t_add(i, v) + i; }
static inline int atomic_sub_return(int i, atomic_t *v) { return __atomic_t_sub(i, v) - i; }
static inline int atomic_inc_return(atomic_t *v) { return atomic_add_return(1, v); }
static inline int atomic_dec_return(atomic_t *v) { return atomic_sub_return(1, v); }
static inline void atomic_add(int i, atomic_t *v) { __atomic_t_add(i, v); }
static inline void atomic_sub(int i, atomic_t *v) { __atomic_t_sub(i, v); }
static inline void atomic_inc(atomic_t *v) { __atomic_t_add(1, v); }
static inline void atomic_dec(atomic_t *v) { __atomic_t_sub(1, v); }
static inline void atomic_or(int i, atomic_t *v) { __atomic_t_or(i, v); }
/* atomic_dec_and_test - true if the decrement reached zero. */
static inline bool atomic_dec_and_test(atomic_t *v) { return atomic_dec_return(v) == 0; }

/* atomic_cmpxchg - if *v == old, set it to new; return what *v was either way. */
static inline int atomic_cmpxchg(atomic_t *v, int old, int new)
{
	sched_point();
	atomic_compare_exchange_strong(&v->counter, &old, new);
	return old;
}

/* atomic_try_cmpxchg - like cmpxchg, but true on success and *old updated on failure. */
static inline bool atomic_try_cmpxchg(atomic_t *v, int *old, int new)
{
	sched_point();
	return atomic_compare_exchange_strong(&v->counter, old, new);
}

/* atomic_add_unless - add a unless *v == u; true if it added. */
static inline bool atomic_add_unless(atomic_t *v, int a, int u)
{
	int c = atomic_read(v);

	do {
		if (c == u)
			return false;
	} while (!atomic_try_cmpxchg(v, &c, c + a));
	return true;
}

static inline bool atomic_inc_not_zero(atomic_t *v) { return atomic_add_unless(v, 1, 0); }

/* atomic_inc_unless_negative - add one unless *v < 0; true if it added (kernfs_get_active's test). */
static inline bool atomic_inc_unless_negative(atomic_t *v)
{
	int c = atomic_read(v);

	do {
		if (c < 0)
			return false;
	} while (!atomic_try_cmpxchg(v, &c, c + 1));
	return true;
}

#endif
