/* delay.c - msleep and the named delay points of the scenarios. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include "delay.h"
#include "scheduler.h"
#include "task.h"

#define MAX_DELAY_POINTS 32

/*
 * Points register from constructors (before main, single-threaded); only
 * their delay, and whether a task passed them while armed, change later:
 * those are the atomic fields.  The counts that "await" reads are under
 * await_lock, and a pass broadcasts await_cond: a shell waiting for a task
 * to get to a point is woken by that task, not by a clock.
 */
static struct {
	const char *name, *file;
	atomic_uint ms;
	atomic_bool reached;	/* passed while armed, since it was last armed */
	unsigned long passes;	/* passes while armed (await_lock) */
	unsigned long seen;	/* passes an await has returned for, or that came before the arming */
} points[MAX_DELAY_POINTS];
static atomic_int npoints;
static pthread_mutex_t await_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t await_cond = PTHREAD_COND_INITIALIZER;

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
	pthread_mutex_lock(&await_lock);
	points[i].seen = points[i].passes;	/* an await waits for a pass from now on */
	pthread_mutex_unlock(&await_lock);
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
		pthread_mutex_lock(&await_lock);
		points[i].passes++;
		sched_cond_broadcast(&await_cond);
		pthread_mutex_unlock(&await_lock);
		msleep(ms);
	}
}

const char *delay_point_file(const char *name)
{
	int i = delay_find(name);

	return i >= 0 ? points[i].file : NULL;
}

/* await_clock_ms - now, on the clock msleep() sleeps on: virtual under the controlled scheduler. */
static long await_clock_ms(void)
{
	return current && current->sched_ctl && sched_controlled() ? sched_clock_ms() : jiffies_ms();
}

int delay_await(const char *name, long timeout_ms)
{
	int i = delay_find(name);
	long deadline;
	int err = 0;

	if (i < 0)
		return -ENOENT;
	if (!atomic_load(&points[i].ms))
		return -EINVAL;
	pthread_mutex_lock(&await_lock);
	deadline = await_clock_ms() + timeout_ms;
	while (points[i].passes == points[i].seen) {
		long left = deadline - await_clock_ms();

		if (left <= 0) {
			err = -ETIMEDOUT;
			break;
		}
		sched_cond_timedwait(&await_cond, &await_lock, "await (a task at a delay point)", left);
	}
	points[i].seen = points[i].passes;
	pthread_mutex_unlock(&await_lock);
	return err;
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
