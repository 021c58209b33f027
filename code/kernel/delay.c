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
 * those are the atomic fields.
 */
static struct {
	const char *name, *file;
	atomic_uint ms;
	atomic_bool reached;	/* passed while armed, since it was last armed */
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
		msleep(ms);
	}
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
