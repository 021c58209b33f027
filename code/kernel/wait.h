/* wait.h - wait queues: sleep until a condition holds, woken by whoever changes it. */
#ifndef KSIM_WAIT_H
#define KSIM_WAIT_H

#include <pthread.h>
#include <stdio.h>
#include "kernel.h"
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
};

void init_waitqueue_head(struct wait_queue_head *wq);
void wake_up_all(struct wait_queue_head *wq);
/*
 * wait_queue_sleep - one sleep, with wq->lock held.  A function of its
 * own, not part of the macro: a hung task's call trace then shows the
 * function that waits (sysfs_deactivate), not a guess.
 */
void wait_queue_sleep(struct wait_queue_head *wq);

/*
 * wait_event_desc - sleep until condition is true.  what says, for the
 * hung-task watchdog, what the task waits for ("kernfs_drain ...").
 */
#define wait_event_desc(wq, what, condition) do {				\
	pthread_mutex_lock(&(wq)->lock);					\
	if (!(condition)) {							\
		sched_block(what);						\
		while (!(condition))						\
			wait_queue_sleep(wq);					\
		sched_unblock();						\
	}									\
	pthread_mutex_unlock(&(wq)->lock);					\
} while (0)

#endif
