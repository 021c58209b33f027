/* softlockup.c - report a task that has been running, never sleeping, past a limit. */
#include <dirent.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <valgrind/valgrind.h>
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

/*
 * What the detector remembers of one thread between samples.  Threads are
 * read from /proc/self/task, not from the task list: a task's pthread_t is
 * written by pthread_create() without a lock the detector could take, so
 * only a thread found stuck - running for seconds, long since created -
 * is matched to its task.
 */
struct watched {
	int tid;		/* 0: free */
	long switches;		/* voluntary context switches when its run began */
	long cpu_ms;		/* CPU time when its run began */
	long since;		/* jiffies_ms() when its run began */
	bool seen;		/* found in this sample */
};

static struct watched watched[MAX_WATCHED];
static long limit_ms;

/* The thread's CPU time (ms) and voluntary context switches, from /proc; false if it is gone. */
static bool thread_stats(int tid, long *cpu_ms, long *switches)
{
	char path[64], buf[1024], *p;
	unsigned long utime, stime;
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "/proc/self/task/%d/stat", tid);
	if (!(f = fopen(path, "r")))
		return false;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	/* After "(comm)": state and 10 more fields, then utime and stime (clock ticks). */
	p = strrchr(buf, ')');
	if (!p || sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %lu %lu", &utime, &stime) != 2)
		return false;
	*cpu_ms = (long)(utime + stime) * 1000 / sysconf(_SC_CLK_TCK);
	snprintf(path, sizeof(path), "/proc/self/task/%d/status", tid);
	if (!(f = fopen(path, "r")))
		return false;
	*switches = -1;
	while (fgets(buf, sizeof(buf), f))
		if (sscanf(buf, "voluntary_ctxt_switches: %ld", switches) == 1)
			break;
	fclose(f);
	return *switches >= 0;
}

static struct watched *slot_of(int tid, bool *fresh)
{
	struct watched *free_slot = NULL;

	*fresh = false;
	for (int i = 0; i < MAX_WATCHED; i++) {
		if (watched[i].tid == tid)
			return &watched[i];
		if (!watched[i].tid && !free_slot)
			free_slot = &watched[i];
	}
	if (free_slot) {
		*free_slot = (struct watched){ .tid = tid };
		*fresh = true;
	}
	return free_slot;
}

/* One sample: the id of the first thread stuck past the limit, or 0. */
static int sample(long now, long *stuck_ms)
{
	int stuck = 0, me = gettid();
	struct dirent *d;
	DIR *dir = opendir("/proc/self/task");

	if (!dir)
		return 0;
	for (int i = 0; i < MAX_WATCHED; i++)
		watched[i].seen = false;
	while ((d = readdir(dir))) {
		int tid = atoi(d->d_name);
		long cpu, switches;
		struct watched *w;
		bool fresh;

		if (tid <= 0 || tid == me || !thread_stats(tid, &cpu, &switches) || !(w = slot_of(tid, &fresh)))
			continue;
		w->seen = true;
		/* It slept, or is new: a new run begins now. */
		if (fresh || switches != w->switches) {
			w->switches = switches;
			w->cpu_ms = cpu;
			w->since = now;
			continue;
		}
		if (!stuck && now - w->since > limit_ms &&
		    (cpu - w->cpu_ms) * 100 >= RUNNING_PERCENT * (now - w->since)) {
			stuck = tid;
			*stuck_ms = now - w->since;
		}
	}
	closedir(dir);
	for (int i = 0; i < MAX_WATCHED; i++)
		if (!watched[i].seen)
			watched[i].tid = 0;	/* gone: forget it */
	return stuck;
}

/* The wall clock in ms: under the controlled scheduler jiffies_ms() is virtual and stands still while a task spins. */
static long real_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000L + ts.tv_nsec / 1000000L;
}

/* The task running on thread tid, or NULL (a thread that is no task: ours, libc's, a tool's). */
static struct task_struct *task_of(int tid)
{
	struct task_struct *t, *found = NULL;
	clockid_t cid;

	pthread_mutex_lock(&tasks_lock);
	/* The kernel's per-thread CPU clock id encodes the thread id: ~tid << 3 | 6. */
	/* An exited task's thread may be running another task now (task.c). */
	for (t = tasks_head; t && !found; t = t->next)
		if (!atomic_load(&t->exited) && pthread_getcpuclockid(t->thread, &cid) == 0 &&
		    ~((int)cid >> 3) == tid)
			found = t;
	pthread_mutex_unlock(&tasks_lock);
	return found;
}

static void *softlockupd(void *unused)
{
	struct timespec tick = { 0, SAMPLE_MS * 1000000L };
	struct task_struct *t;
	long stuck_ms = 0;
	int tid;

	(void)unused;
	for (;;) {
		nanosleep(&tick, NULL);
		tid = sample(real_ms(), &stuck_ms);
		if (!tid || !(t = task_of(tid)))
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
	/*
	 * Under Valgrind threads take turns on one lock, each turn a
	 * voluntary switch: nothing would ever look stuck.  Off there.
	 */
	if (ms < 0 || RUNNING_ON_VALGRIND)
		return;
	limit_ms = ms > 0 ? ms : SOFTLOCKUP_DEFAULT_MS;
	if (pthread_create(&thread, NULL, softlockupd, NULL) == 0)
		pthread_detach(thread);
}
