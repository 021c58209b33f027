/* watchdog.h - the hung-task detector: a task blocked too long ends the run. */
#ifndef KSIM_WATCHDOG_H
#define KSIM_WATCHDOG_H

#include "kernel.h"

/*
 * A task that sleeps says on what, for as long as it sleeps:
 *	sched_block("rwsem s_active of /sys/...");  ...wait...  sched_unblock();
 * The watchdog thread looks every 100 ms; a task blocked for longer than
 * the limit is reported the way the kernel's khungtaskd does:
 *
 *	INFO: task cat[2] blocked for more than 2 seconds.
 *	      waiting on: down_write rwsem s_active of /sys/...
 *	Call Trace: ...
 *
 * and the run ends with exit status 4.
 */
void sched_block(const char *what);
void sched_unblock(void);

/* watchdog_start - start the detector; limit_ms 0 means the default (2000 ms,
 * or $KSIM_HUNG_TASK_TIMEOUT_MS). */
void watchdog_start(long limit_ms);
void watchdog_set_limit(long limit_ms);
long watchdog_limit(void);

#define EXIT_OK 0
#define EXIT_EXPECT 1	/* an "expect" line of the scenario did not hold */
#define EXIT_USAGE 2	/* the script is wrong: FILE:LINE:COL: message */
#define EXIT_OOPS 3	/* oops, BUG, WARN or use-after-free */
#define EXIT_HUNG 4	/* the hung-task watchdog fired */
#define EXIT_AWAIT 5	/* no task reached an "await"ed delay point in time: the run stopped there */

#endif
