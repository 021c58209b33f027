/* task_wait.h - a test waits for what a task has done, never for a length of time. */
#ifndef KTEST_TASK_WAIT_H
#define KTEST_TASK_WAIT_H

#include <stdatomic.h>
#include <stdbool.h>
#include <time.h>
#include "task.h"

/* task_wait_now_ms - the monotonic clock, in milliseconds. */
static inline long task_wait_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000L + ts.tv_nsec / 1000000L;
}

/**
 * task_wait_asleep_or_done - wait until @t sleeps or @done is set.
 * @t: a task of the test (kthread_run())
 * @done: set by @t when the call under test has returned
 * @limit_ms: how long to wait at most
 *
 * A task sleeps, as far as a test can see, once it has said what it waits on
 * (sched_block(): a wait queue, a mutex, an rwsem); it says so with the
 * wait queue's lock held, so a wake-up cannot come between that and the
 * sleep.  A test that must know "the call under test did not return while
 * X held" waits for this instead of sleeping for a while: on a correct
 * build it goes on as soon as the task is asleep, and a build that returns
 * too early sets @done, which the caller then asserts against.  A call that
 * neither sleeps the kernel's way nor returns (it polls) uses up @limit_ms,
 * and the caller's assertions decide.
 *
 * Context: a test's main task; polls every millisecond.
 * Return: true if @t slept or @done was set within @limit_ms.
 */
static inline bool task_wait_asleep_or_done(struct task_struct *t, atomic_bool *done, long limit_ms)
{
	long end = task_wait_now_ms() + limit_ms;

	while (!atomic_load(&t->blocked_on) && !atomic_load(done)) {
		if (task_wait_now_ms() >= end)
			return false;
		struct timespec ms = { 0, 1000000L };
		nanosleep(&ms, NULL);
	}
	return true;
}

#endif
