/* wait.h - wait queues: sleep until a condition holds, woken by whoever changes it. */
#ifndef KSIM_WAIT_H
#define KSIM_WAIT_H

#include <pthread.h>
#include <stdio.h>
#include "kernel.h"
#include "mutex.h"
#include "watchdog.h"

/*
 * struct wait_queue_head - tasks sleeping until something changes.
 *
 * The condition a task waits for is usually an atomic that the waker
 * changes without any lock (kernfs's active count).  The pattern is the
 * kernel's: the waker first changes the condition, then calls
 * wake_up_all(); the sleeper tests the condition under the queue's lock
 * before every sleep.  A wake-up cannot be lost: wake_up_all() takes the
 * same lock, so it either runs before the test (which then sees the new
 * value) or after the sleeper is asleep (and wakes it).
 */
struct wait_queue_head {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	/* Simulation only: a delay point passed before each lock of the queue (waitqueue_delay_point()). */
	const char *delay;
};

/* DECLARE_WAIT_QUEUE_HEAD - a queue ready before any task runs, as the kernel declares one. */
#define DECLARE_WAIT_QUEUE_HEAD(name) \
	struct wait_queue_head name = { PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, NULL }

void init_waitqueue_head(struct wait_queue_head *wq);
/*
 * waitqueue_delay_point - pass the delay point @name before every lock of
 * @wq (wait_queue_lock(), which wait_event_desc() and every test of the
 * queue's condition take).  A window armed here is armed from the kernel
 * side: a reader that must sleep on the queue reaches it however its
 * driver's code is written, not only through one given helper.
 */
void waitqueue_delay_point(struct wait_queue_head *wq, const char *name);
void wake_up_all(struct wait_queue_head *wq);
/*
 * wait_queue_sleep - one sleep, with wq->lock held.  A function of its
 * own, not part of the macro: a hung task's call trace then shows the
 * function that waits (sysfs_deactivate), not a guess.
 */
void wait_queue_sleep(struct wait_queue_head *wq, const char *what);
/*
 * wait_queue_lock/unlock - the queue's lock, around a test of the
 * condition.  No switch of the controlled scheduler happens in between
 * (the test's atomics are not schedule points there): a sleeper's test and
 * its sleep are one step, as they are for a task that prepare_to_wait()
 * has put on the queue.
 */
void wait_queue_lock(struct wait_queue_head *wq);
void wait_queue_unlock(struct wait_queue_head *wq);

/*
 * wait_event_desc - sleep until condition is true.  what says, for the
 * hung-task watchdog, what the task waits for ("kernfs_drain ...").
 */
#define wait_event_desc(wq, what, condition) do {				\
	wait_queue_lock(wq);							\
	if (!(condition)) {							\
		sched_block(what);						\
		while (!(condition))						\
			wait_queue_sleep(wq, what);				\
		sched_unblock();						\
	}									\
	wait_queue_unlock(wq);							\
} while (0)

/*
 * wait_event_mutex_desc - the same, for a condition that must be tested
 * with mutex m held (kernfs_remove_self()'s wait, under kernfs_rwsem).
 *
 * The queue's lock is taken before each test, as prepare_to_wait() puts a
 * task on the queue before it tests: a waker that changes the condition
 * without m (sysfs_put_active()) and then wakes the queue cannot slip in
 * between the test and the sleep.  Lock order: m, then the queue's lock.
 *
 * Context: called and returns with m held; m is given up only while asleep.
 */
#define wait_event_mutex_desc(wq, what, condition, m) do {			\
	lockdep_assert_held(m);							\
	for (;;) {								\
		wait_queue_lock(wq);						\
		if (condition) {						\
			wait_queue_unlock(wq);					\
			break;							\
		}								\
		mutex_unlock(m);						\
		sched_block(what);						\
		wait_queue_sleep(wq, what);					\
		sched_unblock();						\
		wait_queue_unlock(wq);						\
		mutex_lock(m);							\
	}									\
} while (0)

#endif
