/* await.c - "await POINT": the shell waits until a background task is held at an armed delay point. */
#include <stdio.h>
#include <unistd.h>
#include "delay.h"
#include "scheduler.h"
#include "shell.h"
#include "trace.h"
#include "watchdog.h"

/*
 * A scenario orders its tasks the way the seed did: a delay point holds
 * one task in a window, and the shell acts while it is there.  "await"
 * is the shell's half of that: it returns when a task has got to the
 * point, whatever the machine's load, instead of after a sleep that
 * guesses how long the task takes to get there.
 *
 * A point that no task reaches in time ends the run on the spot, with its
 * own exit status: the lines after the await were written for a task held
 * at that point, and running them in another order would show something
 * else than the script says.
 */

/* say_time - ms as the script would write it: "10 s", "500 ms". */
static void say_time(char *buf, size_t len, long ms)
{
	if (ms % 1000 == 0)
		snprintf(buf, len, "%ld s", ms / 1000);
	else
		snprintf(buf, len, "%ld ms", ms);
}

static __noreturn void await_timed_out(const struct command *c)
{
	const char *file = delay_point_file(c->arg);
	char t[32];

	say_time(t, sizeof(t), c->ms);
	fflush(stdout);
	fprintf(stderr, "%s:%d:%d: await: no task reached delay point '%s' in %s: the function of %s that "
		"calls delay_point(\"%s\") did not run, or no longer calls it (or the task that should get "
		"there ended, or is stuck, before it)\n", c->file, c->line, c->col, c->arg, t,
		file ? file : "?", c->arg);
	fprintf(stderr, "ksim: the run stops here: the lines after this await were written for a task "
		"held at '%s'\n", c->arg);
	sched_run_failed(EXIT_AWAIT);	/* under --sched: the schedule that replays this run */
	trace_close();
	fflush(stdout);
	_exit(EXIT_AWAIT);
}

int do_await(const struct command *c)
{
	int err = delay_await(c->arg, c->ms);

	if (err == -ETIMEDOUT)
		await_timed_out(c);
	/* The script was checked for the other two: a point that is known, and armed by then. */
	if (err)
		err_printf("%s:%d:%d: await: delay point '%s' is %s", c->file, c->line, c->col, c->arg,
			   err == -ENOENT ? "unknown" : "not armed");
	return err;
}
