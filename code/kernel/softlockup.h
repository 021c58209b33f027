/* softlockup.h - the soft-lockup detector: a task that runs without sleeping too long ends the run. */
#ifndef KSIM_SOFTLOCKUP_H
#define KSIM_SOFTLOCKUP_H

/*
 * The hung-task watchdog (watchdog.h) catches a task that sleeps for ever;
 * this catches the other way a task never finishes: it never sleeps.  A
 * loop that spins on a count that nothing changes, a retry that always
 * fails: in the kernel that CPU stops scheduling, and the watchdog's timer
 * reports
 *
 *	watchdog: BUG: soft lockup - CPU#0 stuck for 22s! [cat:1234]
 *
 * with the stuck task's stack.  Here every task runs on a thread of its
 * own from start to end (task.c), and "stuck"
 * is read from what Linux counts for it: a task that has made no
 * voluntary context switch (it never slept, never waited) for longer than
 * the limit, and was on a CPU for part of that time, is reported the same
 * way (its RIP, its call trace, the modules) and the run ends with exit
 * status 3 (EXIT_OOPS), instead of spinning until someone notices.  A task
 * that sleeps, waits on a lock or blocks in a read is never counted; one
 * that spins on a busy machine, with only part of a CPU, still is.
 */

/*
 * softlockup_start - start the detector (a plain thread, not a task, so
 * the scenario's pids do not change).  limit_ms 0 means the default
 * (5000 ms, or $KSIM_SOFTLOCKUP_TIMEOUT_MS); a negative limit turns the
 * detector off.
 */
void softlockup_start(long limit_ms);

#endif
