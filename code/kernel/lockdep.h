/* lockdep.h - the lock validator: proves an order of lock taking can deadlock before it does. */
#ifndef KSIM_LOCKDEP_H
#define KSIM_LOCKDEP_H

#include <stdatomic.h>
#include "kernel.h"

/*
 * lockdep does not watch locks, it watches *classes* of locks: every lock
 * initialised at one place in the source belongs to one class (all the
 * sysfs_dirents' s_active are "&sd->s_active", whichever node they guard).
 * Each task keeps the stack of locks it holds, with where it took each.
 * Taking lock B while holding lock A records the dependency A -> B in one
 * graph shared by all tasks.  A new dependency that closes a cycle in that
 * graph is a deadlock waiting for the right timing, and is reported at once,
 * on the first run that merely takes the locks in both orders - no task has
 * to wait, let alone hang.  Taking a class that the task already holds is
 * reported as recursive locking.
 *
 * The kernel's rules (kernel/locking/lockdep.c), kept here:
 *  - a trylock cannot wait, so it is not checked and adds no dependency
 *    on what is held; locks taken while it is held do depend on it;
 *  - a read acquisition of an rwsem counts like a write one (a waiting
 *    writer makes a second reader wait: read-then-read of one class is
 *    recursive locking too); only recursive readers (read 2: the kernel's
 *    rwlock_t readers and SRCU's sections, srcu.h) nest in a read of their
 *    class without a report;
 *  - subclasses: lock_acquire(..., subclass, ...) with subclass > 0 (the
 *    *_nested() calls) makes a class of its own, "name/1", for nesting
 *    that the code orders by other means (a parent before its child).
 *
 * Anything can be described as a lock, not only a mutex: a reference that
 * a deleter waits to see dropped is a read lock its holders take, and the
 * wait for it is an acquisition of the write side (sysfs's s_active).
 *
 * A report taints the kernel: the run goes on and ends with exit status 3.
 * One case cannot go on: a task about to wait for a lock instance it holds
 * itself would wait for ever, so the run ends there, with the report.
 *
 * Differences from the kernel: the kernel's lockdep prints its first
 * report and then turns itself off (every report function in
 * kernel/locking/lockdep.c begins with debug_locks_off_graph_unlock()),
 * so one boot shows one report, and the one to fix first is the first.
 * "Each pair of classes reported once" is our rule, not the kernel's: ours
 * goes on checking, so that a scenario can show two reports.  And where
 * ours ends the run at a self-wait (the simulation's choice), the kernel
 * prints the report and the task then hangs, until the hung-task detector
 * reports it (hung_task_timeout_secs, 120 s by default).
 *
 * lockdep is on by default; "ksim --no-lockdep" or KSIM_LOCKDEP=0 turn it
 * off.  Its graph lock must not order tasks that the code under test does
 * not order, or it would hide the very races the race detectors are run
 * to find: ThreadSanitizer is told to ignore what lockdep does under it,
 * and under Valgrind, whose tools cannot be told, lockdep steps aside.
 */

/* struct lock_class_key - its address names a class: a static object per init site. */
struct lock_class_key {
	char unused;
};

struct lock_class;

/*
 * struct lockdep_map - what a lock (or anything described as one) carries
 * for lockdep: its class's key and name.  A static lock may leave key NULL:
 * its own address is then the key (DEFINE_MUTEX).  A map that was never
 * given a name is not described: acquire and release ignore it.
 */
struct lockdep_map {
	struct lock_class_key *key;
	const char *name;
	_Atomic(struct lock_class *) class_cache;	/* subclass 0's class, once known */
};

#define MAX_LOCKDEP_SUBCLASSES 8
#define SINGLE_DEPTH_NESTING 1

/* _RET_IP_ - where the function using it was called from: the "at:" of a held lock. */
#define _RET_IP_ ((uintptr_t)__builtin_return_address(0))

void lockdep_init_map(struct lockdep_map *map, const char *name, struct lock_class_key *key, int subclass);

/*
 * lock_acquire - the task takes (or, for a blocking lock, is about to wait
 * for) the lock of map.  Called before the wait, so that a deadlock is
 * reported instead of entered.
 * @subclass: 0, or the nesting level (the *_nested() calls)
 * @trylock: 1 if it cannot wait (a trylock that succeeded): not checked
 * @read: 1 for the read side of an rwsem, 2 for a recursive reader (SRCU)
 * @ip: the caller's address (_RET_IP_)
 */
void lock_acquire(struct lockdep_map *map, unsigned int subclass, int trylock, int read, uintptr_t ip);
/* lock_release - the task no longer holds it (in any order, not only the last taken). */
void lock_release(struct lockdep_map *map, uintptr_t ip);

/* What lock_is_held() knows: off, lockdep cannot say (LOCK_STATE_UNKNOWN). */
#define LOCK_STATE_UNKNOWN	-1
#define LOCK_STATE_NOT_HELD	0
#define LOCK_STATE_HELD		1

/* lock_is_held - does the current task hold map's lock?  A LOCK_STATE_*. */
int lock_is_held(const struct lockdep_map *map);
#define lockdep_is_held(lock)	lock_is_held(&(lock)->dep_map)

/*
 * lockdep_assert_held/lockdep_assert_not_held - the line after a comment
 * that says "Call with sysfs_mutex held" (or "not sysfs_mutex") checks it:
 * a WARN with the call trace of the caller that broke the contract, and a
 * tainted run (exit status 3), as the kernel's WARN_ON(debug_locks && ...).
 * Both are silent when lockdep is off (LOCK_STATE_UNKNOWN satisfies
 * either), and a load and a branch then, like the annotations below.
 * @lock: a struct mutex or rw_semaphore, or anything with a dep_map
 */
#define lockdep_assert(cond) \
	do { if (atomic_load_explicit(&debug_locks, memory_order_relaxed) && !(cond)) \
		__warn(__FILE__, __LINE__, #cond); } while (0)
#define lockdep_assert_held(lock)	lockdep_assert(lockdep_is_held(lock) != LOCK_STATE_NOT_HELD)
#define lockdep_assert_not_held(lock)	lockdep_assert(lockdep_is_held(lock) != LOCK_STATE_HELD)

/*
 * The kernel's names for the two, by kind of lock (include/linux/lockdep.h).
 * With lockdep off each is a load and a branch, not a call: a kernel built
 * without CONFIG_DEBUG_LOCK_ALLOC has nothing there at all, and on the
 * active reference's path a call each way was a tenth of the get+put pair
 * (make bench).
 */
#define lockdep_call(call) \
	do { if (atomic_load_explicit(&debug_locks, memory_order_relaxed)) call; } while (0)
#define mutex_acquire(l, s, t, i)	lockdep_call(lock_acquire(l, s, t, 0, i))
#define mutex_release(l, i)		lockdep_call(lock_release(l, i))
#define rwsem_acquire(l, s, t, i)	lockdep_call(lock_acquire(l, s, t, 0, i))
#define rwsem_acquire_read(l, s, t, i)	lockdep_call(lock_acquire(l, s, t, 1, i))
#define rwsem_release(l, i)		lockdep_call(lock_release(l, i))

/* debug_locks - lockdep is checking (it is off under Valgrind, TSan, or when told). */
extern atomic_bool debug_locks;
/* lockdep_set_enabled - on or off, before any task takes a lock (ksim's option). */
void lockdep_set_enabled(bool on);
/* lockdep_task_start - the calling thread starts a task: it holds no lock (task.c). */
void lockdep_task_start(void);
/* lockdep_reports - how many reports were printed (tests). */
int lockdep_reports(void);
/* lockdep_print_held_locks - "N locks held by comm/pid:" and each, for the current task. */
void lockdep_print_held_locks(void);
/* lockdep_graph_lock_taken - how often the graph lock every task shares was taken (tests). */
unsigned long lockdep_graph_lock_taken(void);

/* lockdep_depth - how many locks the current task holds (tests). */
int lockdep_depth(void);

#endif
