/* softlockup.c - report a task that has been running, never sleeping, past a limit. */
#include <pthread.h>
#include <stdio.h>
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
 * Stuck: no voluntary context switch (the task never slept, never blocked)
 * since the run began, and on a CPU for at least this share of the run.
 * Not most of it: on a busy machine a spinning thread gets only part of a
 * CPU; a task blocked for good gets none.
 */
#define RUNNING_PERCENT 10
#define MAX_WATCHED 256

/* What the detector remembers of one task between samples. */
struct watched {
	struct task_struct *t;
	int pid;		/* with t: a new task at a reused address is not the old one */
	long switches;		/* its voluntary context switches when its run began */
	long cpu_ms;		/* its CPU time when its run began */
	long since;		/* jiffies_ms() when its run began */
};

static struct watched watched[MAX_WATCHED];
static long limit_ms;

/*
 * The thread's CPU time (ms) and voluntary context switches, or false if
 * it has returned.  The kernel's per-thread CPU clock id encodes the
 * thread id (~tid << 3 | 6), which names its /proc entry.
 */
static bool thread_stats(struct task_struct *t, long *cpu_ms, long *switches)
{
	struct timespec ts;
	clockid_t cid;
	char path[64], line[128];
	FILE *f;

	if (pthread_getcpuclockid(t->thread, &cid) != 0 || clock_gettime(cid, &ts) != 0)
		return false;
	*cpu_ms = ts.tv_sec * 1000L + ts.tv_nsec / 1000000L;
	*switches = -1;
	snprintf(path, sizeof(path), "/proc/self/task/%d/status", (int)~((int)cid >> 3));
	f = fopen(path, "r");
	if (!f)
		return true;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "voluntary_ctxt_switches: %ld", switches) == 1)
			break;
	fclose(f);
	return true;
}

static struct watched *slot_of(struct task_struct *t, bool *fresh)
{
	struct watched *free_slot = NULL;

	*fresh = false;
	for (int i = 0; i < MAX_WATCHED; i++) {
		if (watched[i].t == t && watched[i].pid == t->pid)
			return &watched[i];
		if (!watched[i].t && !free_slot)
			free_slot = &watched[i];
	}
	if (free_slot) {
		*free_slot = (struct watched){ .t = t, .pid = t->pid };
		*fresh = true;
	}
	return free_slot;
}

/* One sample: the first task stuck past the limit, or NULL. */
static struct task_struct *sample(long now, long *stuck_ms)
{
	struct task_struct *t, *stuck = NULL;
	bool seen[MAX_WATCHED] = { false };

	pthread_mutex_lock(&tasks_lock);
	for (t = tasks_head; t; t = t->next) {
		long cpu, switches;
		bool fresh;
		struct watched *w = slot_of(t, &fresh);

		if (!w || !thread_stats(t, &cpu, &switches))
			continue;
		seen[w - watched] = true;
		/* It slept (or is new; or /proc cannot say, and then nothing is reported). */
		if (fresh || switches != w->switches || switches < 0) {
			w->switches = switches;
			w->cpu_ms = cpu;
			w->since = now;
			continue;
		}
		if (!stuck && now - w->since > limit_ms &&
		    (cpu - w->cpu_ms) * 100 >= RUNNING_PERCENT * (now - w->since)) {
			stuck = t;
			*stuck_ms = now - w->since;
		}
	}
	pthread_mutex_unlock(&tasks_lock);
	for (int i = 0; i < MAX_WATCHED; i++)
		if (!seen[i])
			watched[i].t = NULL;	/* joined and freed: forget it */
	return stuck;
}

/* The wall clock in ms: under the controlled scheduler jiffies_ms() is virtual and stands still while a task spins. */
static long real_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000L + ts.tv_nsec / 1000000L;
}

static void *softlockupd(void *unused)
{
	struct timespec tick = { 0, SAMPLE_MS * 1000000L };
	struct task_struct *t;
	long stuck_ms = 0;

	(void)unused;
	for (;;) {
		nanosleep(&tick, NULL);
		t = sample(real_ms(), &stuck_ms);
		if (!t)
			continue;
		/* The kernel's words; its watchdog prefixes "watchdog: " to all it prints. */
		printk("watchdog: BUG: soft lockup - CPU#0 stuck for %lds! [%s:%d]", (stuck_ms + 500) / 1000,
		       t->comm, t->pid);
		print_modules();
		oops_dump_running_task(t);
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
