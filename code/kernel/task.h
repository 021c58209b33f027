/* task.h - simulated tasks: every thread of ksim is a task with a name and a pid. */
#ifndef KSIM_TASK_H
#define KSIM_TASK_H

#include <pthread.h>
#include <stdatomic.h>
#include "kernel.h"

#define TASK_COMM_LEN 24

/*
 * struct task_struct - one thread of the simulation: the scenario's shell,
 * a userspace process it started ("cat", "echo"), a kworker.
 *
 * Pids are handed out in creation order from 1, so the same scenario gives
 * every task the same pid on every run: traces and figures name tasks by
 * "comm[pid]" and must not depend on thread ids or addresses.
 */
struct task_struct {
	char comm[TASK_COMM_LEN];
	int pid;
	char tag[TASK_COMM_LEN + 12];	/* "comm[pid]", as the trace names it */
	pthread_t thread;
	/* Stack bounds, so the oops unwinder never follows a bad frame pointer. */
	uintptr_t stack_lo, stack_hi;
	/* What the task sleeps on, or NULL: read by the hung-task watchdog. */
	_Atomic(const char *) blocked_on;
	_Atomic long blocked_since_ms;
	const char *trace_by;		/* who the next get/put is charged to (trace.h) */
	int srcu_traced[2];		/* the last SRCU index locked, unlocked (srcu_traced_index()) */
	bool srcu_traced_set[2];	/* ...if one was since it was last read */
	/*
	 * The runner's state for this task (code/shell/), NULL in a task it
	 * did not start.  It lives here, not in a thread-local variable: a
	 * thread runs task after task (task.c), and the next must not inherit it.
	 */
	void *files;			/* the stage's file table */
	void *job;			/* the background job the task runs */
	void *out;			/* where its standard output is also collected */
	/* Controlled mode (scheduler.c), under its lock: slot, state, what it waits on. */
	bool sched_ctl;
	int sched_slot, sched_state;
	bool sched_idle;
	const void *sched_chan;
	const char *sched_what;
	long sched_wake_at;
	pthread_cond_t sched_cv;
	int preempt_count;		/* preempt_disable() depth: no switch at schedule points */
	void *(*fn)(void *);
	void *arg;
	void *ret;			/* fn's value, once it has returned */
	_Atomic bool exited;		/* fn has returned: its thread may run another task */
	struct task_struct *next;	/* all tasks, for the watchdog */
};

/* The task running this code: set for every thread that kthread_run() started. */
extern _Thread_local struct task_struct *current;

/* task_init_main - make the calling thread task 1 (the scenario's shell). */
void task_init_main(const char *comm);

/*
 * kthread_run - start a new task running fn(arg) on a thread of its own
 * (a new one, or one whose task has returned: task.c).
 * The task is visible to the watchdog until it returns.  Returns the task,
 * which stays allocated until kthread_join().
 */
struct task_struct *kthread_run(void *(*fn)(void *), void *arg, const char *fmt, ...) __printf(3, 4);
/* kthread_join - wait for the task to return and free it; returns fn's value. */
void *kthread_join(struct task_struct *t);
/*
 * task_skip_pid - take the next pid for nobody.  A run under the controlled
 * scheduler starts no khungtaskd; it skips that thread's pid instead, so
 * that its tasks carry the same pids, and its traces the same names, as a
 * free run of the same scenario.
 */
void task_skip_pid(void);

/* The list of live tasks, for the watchdog: read and changed under tasks_lock. */
extern pthread_mutex_t tasks_lock;
extern struct task_struct *tasks_head;

/* Milliseconds since the simulation started (monotonic). */
long jiffies_ms(void);

#endif
