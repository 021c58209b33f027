/* softlockup.c - report a task that has been running, never sleeping, past a limit. */
#include <pthread.h>
#include <stdlib.h>
#include <time.h>
#include "module.h"
#include "oops.h"
#include "softlockup.h"
#include "task.h"
#include "watchdog.h"

#define SOFTLOCKUP_DEFAULT_MS 5000
#define SAMPLE_MS 100
/*
 * A sample counts as running when the task used at least this share of it
 * on a CPU.  Not 100 %: on a busy machine a spinning thread gets only part
 * of a CPU; a task that sleeps gets next to none.
 */
#define RUNNING_PERCENT 20
#define MAX_WATCHED 256

/* What the detector remembers of one task between samples. */
struct watched {
	struct task_struct *t;
	int pid;		/* with t: a new task at a reused address is not the old one */
	long cpu_ms;		/* the task's CPU time at the last sample */
	long running_since;	/* jiffies_ms() when its current run began, or -1 */
};

static struct watched watched[MAX_WATCHED];
static long limit_ms;

static long cpu_ms_of(struct task_struct *t)
{
	struct timespec ts;
	clockid_t cid;

	/* ESRCH: the thread has returned and is waiting to be joined. */
	if (pthread_getcpuclockid(t->thread, &cid) != 0 || clock_gettime(cid, &ts) != 0)
		return -1;
	return ts.tv_sec * 1000L + ts.tv_nsec / 1000000L;
}

static struct watched *slot_of(struct task_struct *t)
{
	struct watched *free_slot = NULL;

	for (int i = 0; i < MAX_WATCHED; i++) {
		if (watched[i].t == t && watched[i].pid == t->pid)
			return &watched[i];
		if (!watched[i].t && !free_slot)
			free_slot = &watched[i];
	}
	if (free_slot)
		*free_slot = (struct watched){ .t = t, .pid = t->pid, .cpu_ms = -1, .running_since = -1 };
	return free_slot;
}

/* One sample: update every task's run; the first one stuck past the limit, or NULL. */
static struct task_struct *sample(long now, long *stuck_ms)
{
	struct task_struct *t, *stuck = NULL;
	bool seen[MAX_WATCHED] = { false };

	pthread_mutex_lock(&tasks_lock);
	for (t = tasks_head; t; t = t->next) {
		struct watched *w = slot_of(t);
		long cpu = cpu_ms_of(t);

		if (!w)
			continue;
		seen[w - watched] = true;
		if (cpu < 0 || w->cpu_ms < 0 || (cpu - w->cpu_ms) * 100 < RUNNING_PERCENT * SAMPLE_MS)
			w->running_since = -1;		/* it slept (or is new, or gone) */
		else if (w->running_since < 0)
			w->running_since = now - SAMPLE_MS;
		w->cpu_ms = cpu;
		if (!stuck && w->running_since >= 0 && now - w->running_since > limit_ms) {
			stuck = t;
			*stuck_ms = now - w->running_since;
		}
	}
	pthread_mutex_unlock(&tasks_lock);
	for (int i = 0; i < MAX_WATCHED; i++)
		if (!seen[i])
			watched[i].t = NULL;	/* joined and freed: forget it */
	return stuck;
}

static void *softlockupd(void *unused)
{
	struct timespec tick = { 0, SAMPLE_MS * 1000000L };
	struct task_struct *t;
	long stuck_ms = 0;

	(void)unused;
	for (;;) {
		nanosleep(&tick, NULL);
		t = sample(jiffies_ms(), &stuck_ms);
		if (!t)
			continue;
		/* The kernel's words; its watchdog prefixes "watchdog: " to all it prints. */
		printk("watchdog: BUG: soft lockup - CPU#0 stuck for %lds! [%s:%d]", (stuck_ms + 500) / 1000,
		       t->comm, t->pid);
		print_modules();
		oops_dump_task(t);
		printk("\"KSIM_SOFTLOCKUP_TIMEOUT_MS=MS ksim ...\" changes this limit (%ld ms).", limit_ms);
		oops_blame_task(t, "soft lockup");
		oops_end(EXIT_OOPS);
	}
	return NULL;
}

void softlockup_start(long ms)
{
	const char *env = getenv("KSIM_SOFTLOCKUP_TIMEOUT_MS");
	pthread_t thread;

	if (ms == 0 && env)
		ms = atol(env);
	if (ms < 0)
		return;
	limit_ms = ms > 0 ? ms : SOFTLOCKUP_DEFAULT_MS;
	if (pthread_create(&thread, NULL, softlockupd, NULL) == 0)
		pthread_detach(thread);
}
