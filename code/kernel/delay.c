/* delay.c - msleep and the named delay points of the scenarios. */
#include <limits.h>
#include <linux/futex.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include <valgrind/helgrind.h>
#include "delay.h"
#include "scheduler.h"
#include "task.h"

#define MAX_DELAY_POINTS 32

/*
 * Points register from constructors (before main, single-threaded); only
 * their delay, whether a task passed them while armed, and how often,
 * change later: those are the atomic fields.
 *
 * "await" (delay_await()) is the scenario's ordering, not the kernel's,
 * as a sleep in a shell script is: it must give Valgrind's race detectors no
 * happens-before edge between the task at the point and the shell, or a
 * race of the kernel code (stage 1's reader and the unplug that frees
 * under it) would look ordered.  So the shell sleeps on the count itself
 * with a futex, which helgrind and drd do not see as synchronisation, and
 * the count is hidden from them (delay_register()); under the controlled
 * scheduler it sleeps on the scheduler's clock, woken by the pass.
 */
static struct {
	const char *name, *file;
	atomic_uint ms;
	atomic_bool reached;	/* passed while armed, since it was last armed */
	atomic_uint passes;	/* passes while armed: a futex word */
	atomic_uint inside;	/* tasks in the point's delay now */
	unsigned int seen;	/* passes an await has returned for, or that came before the arming (the shell's) */
} points[MAX_DELAY_POINTS];
static atomic_int npoints;

void msleep(unsigned int ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };

	if (current && current->sched_ctl && sched_controlled()) {
		sched_msleep(ms);	/* the virtual clock: time passes only when nothing else can run */
		return;
	}
	while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
		;
}

void delay_register(const char *name, const char *file)
{
	int n = atomic_load(&npoints);

	for (int i = 0; i < n; i++)
		if (strcmp(points[i].name, name) == 0)
			return;
	if (n < MAX_DELAY_POINTS) {
		/* A copy: a module's string is unmapped with the module. */
		points[n].name = strdup(name);
		points[n].file = strdup(file);
		ANNOTATE_BENIGN_RACE_SIZED(&points[n].passes, sizeof(points[n].passes),
					   "await's count: the scenario's ordering, not the kernel's");
		ANNOTATE_BENIGN_RACE_SIZED(&points[n].inside, sizeof(points[n].inside),
					   "await's count: the scenario's ordering, not the kernel's");
		atomic_store(&npoints, n + 1);
	}
}

static int delay_find(const char *name)
{
	int n = atomic_load(&npoints);

	for (int i = 0; i < n; i++)
		if (strcmp(points[i].name, name) == 0)
			return i;
	return -1;
}

bool delay_known(const char *name)
{
	return delay_find(name) >= 0;
}

bool delay_armed(const char *name)
{
	int i = delay_find(name);

	return i >= 0 && atomic_load(&points[i].ms) != 0;
}

/* delay_names - the known points, sorted, ", " between them, for a message. */
void delay_names(char *buf, size_t len)
{
	int n = atomic_load(&npoints);
	const char *last = "";
	size_t used = 0;

	buf[0] = '\0';
	/* n is small: pick the next name in order each time round. */
	for (int k = 0; k < n; k++) {
		const char *next = NULL;

		for (int i = 0; i < n; i++)
			if (strcmp(points[i].name, last) > 0 && (!next || strcmp(points[i].name, next) < 0))
				next = points[i].name;
		if (!next)
			break;
		used += snprintf(buf + used, used < len ? len - used : 0, "%s%s", k ? ", " : "", next);
		last = next;
	}
}

int delay_set(const char *name, unsigned int ms)
{
	int i = delay_find(name);

	if (i < 0)
		return -ENOENT;
	atomic_store(&points[i].reached, false);
	atomic_store(&points[i].ms, ms);
	points[i].seen = atomic_load(&points[i].passes);	/* an await waits for a pass from now on */
	return 0;
}

void delay_reset(void)
{
	for (int i = 0; i < atomic_load(&npoints); i++)
		atomic_store(&points[i].ms, 0);
}

void delay_point(const char *name)
{
	int i = delay_find(name);
	unsigned int ms = i >= 0 ? atomic_load(&points[i].ms) : 0;

	sched_point();
	if (ms) {
		atomic_store(&points[i].reached, true);
		atomic_fetch_add(&points[i].inside, 1);
		atomic_fetch_add(&points[i].passes, 1);
		if (sched_controlled())
			sched_wake(&points[i].passes);
		syscall(SYS_futex, &points[i].passes, FUTEX_WAKE_PRIVATE, INT_MAX, NULL, NULL, 0);
		msleep(ms);
		atomic_fetch_sub(&points[i].inside, 1);
	}
}

const char *delay_point_file(const char *name)
{
	int i = delay_find(name);

	return i >= 0 ? points[i].file : NULL;
}

/* await_controlled - the awaiting task runs under the controlled scheduler: its clock is virtual. */
static bool await_controlled(void)
{
	return current && current->sched_ctl && sched_controlled();
}

/*
 * await_answered - a task got to point i for this await: it passed after
 * the await began (start), or it is still held there for a pass that no
 * await has returned for.  A pass of a task that has left the point
 * before the await began is not one: the script is waiting for another.
 */
static bool await_answered(int i, unsigned int start)
{
	unsigned int passes = atomic_load(&points[i].passes);

	return passes != start || (passes != points[i].seen && atomic_load(&points[i].inside) > 0);
}

/* await_sleep - one sleep of at most ms, or until points[i].passes is no longer seen. */
static void await_sleep(int i, unsigned int seen, long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	/* Neither misses a pass: the scheduler runs no one else before we sleep, the futex checks seen. */
	if (await_controlled())
		sched_wait_timeout(&points[i].passes, "await (a task at a delay point)", ms);
	else
		syscall(SYS_futex, &points[i].passes, FUTEX_WAIT_PRIVATE, seen, &ts, NULL, 0);
}

int delay_await(const char *name, long timeout_ms)
{
	int i = delay_find(name);
	unsigned int start;
	long deadline;

	if (i < 0)
		return -ENOENT;
	if (!atomic_load(&points[i].ms))
		return -EINVAL;
	start = atomic_load(&points[i].passes);
	deadline = (await_controlled() ? sched_clock_ms() : jiffies_ms()) + timeout_ms;
	while (!await_answered(i, start)) {
		long left = deadline - (await_controlled() ? sched_clock_ms() : jiffies_ms());

		if (left <= 0)
			return -ETIMEDOUT;
		await_sleep(i, start, left);
	}
	points[i].seen = atomic_load(&points[i].passes);
	return 0;
}

int delay_report_unreached(void (*report)(const char *name, const char *file, unsigned int ms))
{
	int unreached = 0;

	for (int i = 0; i < atomic_load(&npoints); i++) {
		unsigned int ms = atomic_load(&points[i].ms);

		if (ms && !atomic_load(&points[i].reached)) {
			report(points[i].name, points[i].file, ms);
			unreached++;
		}
	}
	return unreached;
}
