/* watchdog.c - khungtaskd: report a task blocked too long and end the run. */
#include <stdlib.h>
#include <stdio.h>
#include <valgrind/helgrind.h>
#include "delay.h"
#include "oops.h"
#include "task.h"
#include "watchdog.h"

#define HUNG_TASK_DEFAULT_MS 2000
static atomic_long hung_limit_ms = HUNG_TASK_DEFAULT_MS;

void sched_block(const char *what)
{
	if (!current)
		return;
	atomic_store(&current->blocked_since_ms, jiffies_ms());
	/*
	 * what is often a buffer on this task's stack, read by khungtaskd
	 * after it loads the pointer.  The atomics order the two; helgrind and
	 * drd need to be told (find_hung_task() has the other half).
	 */
	ANNOTATE_HAPPENS_BEFORE(&current->blocked_on);
	atomic_store(&current->blocked_on, what);
}

void sched_unblock(void)
{
	if (current)
		atomic_store(&current->blocked_on, NULL);
}

void watchdog_set_limit(long limit_ms)
{
	atomic_store(&hung_limit_ms, limit_ms > 0 ? limit_ms : HUNG_TASK_DEFAULT_MS);
}

long watchdog_limit(void)
{
	return atomic_load(&hung_limit_ms);
}

/* The first blocked-too-long task, or NULL.  what gets a copy of its reason. */
static struct task_struct *find_hung_task(char *what, size_t len)
{
	struct task_struct *t, *hung = NULL;
	long now = jiffies_ms(), limit = watchdog_limit();

	pthread_mutex_lock(&tasks_lock);
	for (t = tasks_head; t && !hung; t = t->next) {
		const char *on = atomic_load(&t->blocked_on);

		if (on && now - atomic_load(&t->blocked_since_ms) > limit) {
			ANNOTATE_HAPPENS_AFTER(&t->blocked_on);
			snprintf(what, len, "%s", on);
			/* Re-check: the task may have woken between the two loads. */
			if (atomic_load(&t->blocked_on) == on)
				hung = t;
		}
	}
	pthread_mutex_unlock(&tasks_lock);
	return hung;
}

static void *khungtaskd(void *unused)
{
	struct task_struct *t;
	char what[160];

	(void)unused;
	for (;;) {
		msleep(100);
		t = find_hung_task(what, sizeof(what));
		if (!t)
			continue;
		printk("INFO: task %s blocked for more than %ld ms.", t->tag, watchdog_limit());
		printk("      waiting on: %s", what);
		printk("\"ksim --hung-timeout MS\" changes this limit.");
		oops_dump_task(t);
		oops_end(EXIT_HUNG);
	}
	return NULL;
}

void watchdog_start(long limit_ms)
{
	const char *env = getenv("KSIM_HUNG_TASK_TIMEOUT_MS");

	if (limit_ms <= 0 && env)
		limit_ms = atol(env);
	watchdog_set_limit(limit_ms);
	kthread_run(khungtaskd, NULL, "khungtaskd");
}
