/* explore.h - schedule exploration: run a small concurrent program under many schedules, check invariants. */
#ifndef KTEST_EXPLORE_H
#define KTEST_EXPLORE_H

#include <stdbool.h>
#include "kernel.h"

/*
 * A harness is a few tasks aimed at one protocol (get vs deactivate, two
 * removers of one node...) and the invariants that must hold on every
 * schedule.  The explorer runs it many times under the controlled
 * scheduler (code/kernel/scheduler.h), each run in a process of its own
 * forked from a booted kernel, so a run that oopses, deadlocks or spins
 * costs that run only, and every run starts from the same state.
 *
 * Strategies: "pct:D" (PCT, Burckhardt et al., ASPLOS 2010: a bug of depth
 * D is found with probability at least 1/(n k^(D-1)) per run), "random",
 * "dfs:P" (every schedule with at most P preemptions, as CHESS bounds
 * them), "replay:SCHEDULE" (one run).  A failure is shrunk to the shortest
 * schedule that still fails, and printed with the command that replays it.
 */
#define EXPLORE_MAX_TASKS 6

struct explore_task {
	const char *name;		/* the task's comm */
	void *(*fn)(void *);
	void *arg;
};

struct explore_harness {
	const char *name;		/* "get-vs-deactivate": the --harness name */
	const char *claim;		/* what must hold, in one sentence */
	void (*setup)(void);		/* in the run's process, before any task starts */
	struct explore_task tasks[EXPLORE_MAX_TASKS];
	void (*check)(void);		/* after every task has ended: the end state */
	/*
	 * NULL: every schedule must pass.  Otherwise the stage is broken by
	 * design here (stages 1 and 2): some schedule must fail, and its output
	 * must contain this text, or the harness no longer shows the bug.
	 */
	const char *expected_bug;
	/*
	 * With expected_bug: the student's functions this harness runs through
	 * ("sysfs_deactivate() and sysfs_put_active()"), named when a student's
	 * build makes the bug vanish, since then one of them changed what the
	 * given code does.  NULL: it runs through none.
	 */
	const char *yours;
	/*
	 * make explore-stageN's bounded search for this harness: NULL is
	 * "dfs:2", every schedule with at most two preemptions.  A harness
	 * whose space is too large for that gives a smaller bound here, and
	 * in explore_dfs_why the reason, which the explorer prints beside the
	 * count, so nobody reads "every schedule within the bound" as dfs:2.
	 */
	const char *explore_dfs;
	const char *explore_dfs_why;
	/*
	 * check-stageN's deeper bounded search (explore_grade()), after dfs:1:
	 * NULL, none.  A harness cheap enough to search deeper within
	 * check-stageN's few seconds names its bound here; like dfs:1's, the
	 * search stops at 20,000 schedules.
	 */
	const char *grade_dfs;
};

/*
 * explore_fail - an invariant is broken: print why and end this run as
 * failed (exit status 1, as a broken "expect" of a scenario).  From a task
 * or from check().
 */
void explore_fail(const char *fmt, ...) __printf(1, 2) __noreturn;
#define explore_assert(cond, ...) do { if (!(cond)) explore_fail(__VA_ARGS__); } while (0)

struct explore_opts {
	const char *strategy;		/* see above */
	unsigned long seed;
	long runs;			/* pct, random: how many; dfs: the most before giving up */
	const char *trace;		/* a failing run is replayed with its trace written here (or NULL) */
	bool quiet;			/* no progress line */
	/*
	 * pct, random: 0 runs the schedules in order, one worker process at a
	 * time (check-stageN's plans).  N > 0 splits them into chunks of batch
	 * runs (0: EXPLORE_BATCH), run by N worker processes at once, and
	 * reports the failing run of lowest number, so the result is the same
	 * for every N (explore_par.c).  dfs: 0 searches in order, in one
	 * process at a time; N > 0 splits the search into subtrees, searched
	 * by N worker processes at once, and counts and reports what the
	 * search in order would (explore_dfs.c).
	 */
	int jobs;
	long batch;
};

struct explore_result {
	long runs;
	long failures;			/* 0 or 1: exploration stops at the first */
	bool exhausted;			/* dfs: every schedule within the bound was run */
	long subtrees;			/* dfs with jobs: the parts the workers searched */
	double seconds;
	int status;			/* the failing run's exit status (128 + signal if killed) */
	char replay[4096];		/* the shortest failing schedule, "replay:..." */
	int preemptions;		/* ... and how many preemptions it has */
	bool repeats;			/* the shrunk schedule fails again when replayed alone */
	char output[6000];		/* what the failing run printed (its tail) */
};

/* explore - run h under o; 0 if no run failed, 1 if one did, -1 if o is wrong (message printed). */
int explore(const struct explore_harness *h, const struct explore_opts *o, struct explore_result *r);

/*
 * explore_grade - what `make check-stageN` runs for one harness, booted by
 * boot: every schedule with at most one preemption (and then with the
 * harness's grade_dfs bound, if it names one), then PCT of depths 2
 * and 3 with fixed seeds, so the grade is the same on every run and every
 * machine.  A failure fails the calling Check test with explore_describe()'s
 * text, or names the exercise whose stub ran.
 */
void explore_grade(const struct explore_harness *h, void (*boot)(void));

/* explore_expect_bug - the grade of a harness with expected_bug: some schedule must show it. */
void explore_expect_bug(const struct explore_harness *h, void (*boot)(void));

/*
 * explore_summary - the line make explore-stageN prints for one search:
 * how many schedules of which strategy, and for dfs whether that was every
 * schedule within the bound or the search stopped at its cap (o->runs),
 * which it then says in so many words: "dfs:2 stopped at the cap after N
 * schedules: not exhaustive".
 */
void explore_summary(const struct explore_harness *h, const struct explore_opts *o, const struct explore_result *r,
		     char *buf, size_t len);

/* explore_describe - the failure as a student reads it: invariant, output, replay command. */
void explore_describe(const struct explore_harness *h, const struct explore_result *r, char *buf, size_t len);

/* explore_boot - what every run's process starts from (call once, before explore()). */
extern void (*explore_boot_hook)(void);

/*
 * explore_main - the explorer's command line, for `make explore-stageN`:
 *	PROG --explore [--harness NAME] [--sched S]... [--runs N] [--seed N] [--trace DIR] [--jobs N]
 * Without --sched: pct:2 and pct:3 (--runs each, default 15000) and dfs:2
 * (or the harness's explore_dfs), a harness's plan ending at its first
 * failure, by N workers at once (default: one per CPU; 0: dfs in order, in one process at a time),
 * with the same result for any N.  Exit 0 if every
 * harness passed every schedule, 1 if one failed, 2 for bad arguments.
 */
int explore_main(int argc, char **argv, const struct explore_harness *const *hs, int n);

/* The program's own path, for the replay command a failure prints. */
extern const char *explore_argv0;

/*
 * explore_test_main - main() of a stage's test_explore: with --explore as
 * its first argument the explorer's command line over hs (each run booted
 * by boot), else the Check suite that make check-stageN runs.
 */
struct Suite;
int explore_test_main(int argc, char **argv, void (*boot)(void), const struct explore_harness *const *hs,
		      int n, struct Suite *suite);

#endif
