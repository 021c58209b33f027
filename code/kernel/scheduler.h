/* scheduler.h - controlled scheduling: the simulated tasks run one at a time, switched at schedule points. */
#ifndef KSIM_SCHEDULER_H
#define KSIM_SCHEDULER_H

#include <pthread.h>
#include <stdatomic.h>
#include "kernel.h"

/*
 * By default every task of the simulation is a free thread and the host's
 * scheduler decides who runs when; a delay point is how a scenario opens a
 * window it already suspects.  In controlled mode the tasks are still
 * threads (so helgrind, drd and the sanitizers see ordinary mutex and
 * condition-variable hand-offs), but exactly one of them runs at a time:
 * it holds the baton until it reaches a schedule point, where a strategy
 * decides who runs next.
 *
 * Schedule points are the operations through which tasks can observe each
 * other: every atomic_t operation (atomic.h), mutex, rwsem, wait queue,
 * kref, kfree and delay point.  Between two points a task's steps are
 * invisible to the others, so switching only there loses no interleaving
 * that matters to the protocol.
 *
 * The scheduler knows every wait, so when no task can run it knows at once
 * that the run is deadlocked and names each task's wait; msleep() and
 * delay points advance a virtual clock instead of the wall clock, only
 * when nothing else can run, so a run never depends on the machine's
 * speed.  A task that takes more than a step budget of schedule points is
 * reported as a soft lockup.
 *
 * A run is a sequence of decisions, one at each point where two or more
 * tasks could run.  The log of decisions is the schedule: replaying it
 * ("replay:0x5,1x3,0x2" - task slot 0 five times, slot 1 three times...)
 * gives the same run, and once it is used up the default is to keep the
 * running task going (no preemption).
 */

#define SCHED_MAX_TASKS 32
#define SCHED_LOG_MAX 65536
#define SCHED_MAX_DEPTH 8

enum sched_kind {
	SCHED_NONPREEMPTIVE,	/* keep the running task going; the lowest slot when it blocks */
	SCHED_RANDOM,		/* any runnable task, uniformly */
	SCHED_PCT,		/* PCT: random priorities, depth-1 priority change points */
	SCHED_REPLAY,		/* the decisions given, then non-preemptive */
};

/* One decision: who could run, who was running (-1: it blocked or ended), who was chosen. */
struct sched_decision {
	uint32_t runnable;
	int8_t current;
	int8_t chosen;
};

/*
 * struct sched_log - what one run did, in memory that outlives the run's
 * process if the explorer maps it shared: a child that dies in an oops
 * still leaves its schedule behind.
 */
struct sched_log {
	unsigned long ndecisions;
	unsigned long steps;
	int failed;			/* 0, or the exit status the run failed with */
	bool truncated;			/* more decisions than SCHED_LOG_MAX */
	struct sched_decision d[SCHED_LOG_MAX];
};

/* struct sched_strategy - how to decide, and everything the decisions depend on. */
struct sched_strategy {
	enum sched_kind kind;
	int depth;			/* PCT: the bug depth d */
	unsigned long seed;		/* RANDOM, PCT */
	unsigned long expect_steps;	/* PCT: k, the run length change points are drawn from */
	unsigned long budget;		/* steps before a soft lockup; 0: the default */
	/* REPLAY: the forced choices (task slots), in decision order. */
	const int8_t *forced;
	unsigned long nforced;
};

/*
 * sched_parse - "random", "pct:D", "nonpreemptive" or "replay:SCHEDULE"
 * into s.  The replay's decisions are allocated (sched_strategy_free()).
 * Returns 0, or -EINVAL with a message in err.
 */
int sched_parse(const char *spec, unsigned long seed, struct sched_strategy *s, char *err, size_t errlen);
void sched_strategy_free(struct sched_strategy *s);

/*
 * sched_format - the log's decisions as a replay string, run-length coded
 * ("replay:0x5,1x3"); only the first n decisions.  Returns buf.
 */
char *sched_format(const struct sched_log *log, unsigned long n, char *buf, size_t len);

/*
 * sched_start - from now on the calling task (already a task: current is
 * set) and every task it starts run under s.  log may be NULL (a private
 * one is used).  sched_stop - back to free threads; call it from the task
 * that started, once every other task has ended (or sleeps for ever idle,
 * like the workqueue's worker).
 */
void sched_start(const struct sched_strategy *s, struct sched_log *log);
/* sched_current_log - the log of the run in progress (or the last). */
const struct sched_log *sched_current_log(void);
void sched_stop(void);

/* Is controlled mode on?  One relaxed load: free-mode code pays no more. */
extern atomic_bool sched_on;
static inline bool sched_controlled(void)
{
	return atomic_load_explicit(&sched_on, memory_order_relaxed);
}

void __sched_point(void);
/* sched_point - a place where another task may run first. */
static inline void sched_point(void)
{
	if (sched_controlled())
		__sched_point();
}

/*
 * sched_wait - block until sched_wake(chan), then until chosen to run.
 * Only in controlled mode, from a task, with no pthread lock held that
 * another task may take.  what is the wait's name for a deadlock report.
 * idle: the task waits for work (a worker), not for a result: a run whose
 * only blocked tasks are idle has ended, it is not deadlocked.
 */
void sched_wait(const void *chan, const char *what, bool idle);
/* sched_wake - make every task waiting on chan runnable (it runs when chosen); which is woken first is a decision. */
void sched_wake(const void *chan);

/*
 * sched_cond_wait/sched_cond_broadcast - pthread_cond_wait/broadcast that
 * the scheduler knows about.  In free mode they are exactly the pthread
 * calls; in controlled mode the wait gives m up and sleeps on c as a
 * channel.  No wake-up can be lost in between: no other task runs until
 * this one has blocked.
 */
void sched_cond_wait(pthread_cond_t *c, pthread_mutex_t *m, const char *what);
void sched_cond_wait_idle(pthread_cond_t *c, pthread_mutex_t *m, const char *what);
void sched_cond_broadcast(pthread_cond_t *c);

/*
 * sched_wait_timeout - sched_wait() that also ends when ms of virtual time
 * have passed.  The task counts as a sleeper meanwhile, not as blocked: a
 * run whose other tasks all wait is not deadlocked while it sleeps, the
 * clock moves on to its deadline instead.  Returns true if sched_wake(chan)
 * woke it, false if the time ran out.  Only in controlled mode, from a task.
 */
bool sched_wait_timeout(const void *chan, const char *what, long ms);

/*
 * preempt_disable/preempt_enable - no switch at schedule points in between
 * (a blocking wait still switches).  For code that evaluates a condition
 * under a pthread lock that the other tasks take too (wait_event's test).
 */
void preempt_disable(void);
void preempt_enable(void);

/* sched_msleep - msleep() in controlled mode: sleep on the virtual clock. */
void sched_msleep(unsigned int ms);
/* sched_clock_ms - the virtual clock (controlled mode) in milliseconds. */
long sched_clock_ms(void);

struct task_struct;
/* The task lifecycle as kthread_run()/kthread_join() tell it (task.c). */
void sched_task_new(struct task_struct *t);
void sched_task_begin(struct task_struct *t);
void sched_task_exit(struct task_struct *t);
void sched_task_join(struct task_struct *t);
/* sched_task_forget - t is about to be freed (kthread_join): the scheduler lets go of it. */
void sched_task_forget(struct task_struct *t);

/*
 * sched_failure_hook - called once when a run fails (oops, BUG, deadlock,
 * soft lockup, a broken invariant), before the report's last line and the
 * exit: ksim prints the replay command, the explorer's child marks its
 * log.  status is the exit status the run ends with.
 */
extern void (*sched_failure_hook)(int status);
void sched_run_failed(int status);

#endif
