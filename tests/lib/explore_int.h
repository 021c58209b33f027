/* explore_int.h - what the explorer's files share: the runner, the page its processes share, the DFS stack. */
#ifndef KTEST_EXPLORE_INT_H
#define KTEST_EXPLORE_INT_H

#include "explore.h"
#include "scheduler.h"

#define EXPLORE_RUN_SECONDS 5	/* wall clock for one run: past it, a task spins without schedule points */
#define EXPLORE_BUDGET 200000UL	/* schedule points in one run before a soft lockup */
#define EXIT_INVARIANT 1
#define EXPLORE_SPIN_MS 2000	/* a task running this long without sleeping is a soft lockup */
#define EXPLORE_DFS_CAP 2000000L	/* dfs schedules before giving up on exhausting the bound */
#define EXPLORE_RUNS 15000L	/* pct, random: make explore-stageN's RUNS, sized in explore.mk */

struct dfs_node {
	uint32_t runnable, tried;
	int8_t current, chosen;
	int pre_before;			/* preemptions in the decisions before this one */
};

/*
 * What the explorer's processes share.  A worker process runs schedule
 * after schedule in a loop (a fork per schedule costs more than the run
 * itself); if a run fails, the worker dies with it, and what it was doing
 * is all here: the run's number, its forced prefix, its log.
 */
struct explore_shared {
	struct sched_log log;		/* the run in progress, or the last one */
	long run;			/* runs completed */
	unsigned long max_steps;	/* PCT's k: the longest run seen */
	bool exhausted;			/* dfs: nothing left within the bound */
	int8_t forced[SCHED_LOG_MAX];	/* the run's forced prefix (dfs, replay) */
	unsigned long nforced;
	unsigned long depth;		/* dfs: the stack's height */
	unsigned long floor;		/* dfs: the stack never drops below this (a subtree's forced prefix) */
	long item;			/* parallel dfs: the subtree this worker is in, or -1 */
	struct dfs_node stack[SCHED_LOG_MAX];
};

struct runner {
	const struct explore_harness *h;
	const struct explore_opts *o;
	struct sched_strategy base;	/* the parsed strategy (dfs: nonpreemptive) */
	int bound;			/* dfs: the preemption bound, else -1 */
	struct explore_shared *sh;
	int out;			/* a memfd: what the runs printed */
	const char *trace;		/* write the run's trace here (a replay), or NULL */
};

#define EXPLORE_BATCH 500	/* runs per worker process: bounds what runs leave behind */

/* explore_run.c: one run, in this process or in a fresh one. */
void explore_run_here(const struct runner *rn, const struct sched_strategy *st);
int explore_spawn(const struct runner *rn, long runs, const struct sched_strategy *one);
int explore_fork(const struct runner *rn, long runs);
int explore_exit_status(int wstatus);
int explore_run_one(const struct runner *rn, const struct sched_strategy *st);
void explore_run_output(const struct runner *rn, char *buf, size_t len);

/* explore_par.c: the schedules of a pct or random search, in chunks, by several workers at once. */
int explore_parallel(struct runner *rn, double t0);
void explore_progress(const struct runner *rn, long runs, double t0);

/* explore_dfs.c: a bounded dfs by several workers at once, split into subtrees. */
int explore_dfs_parallel(struct runner *rn, double t0, bool *exhausted, long *subtrees);

/* explore_search.c: which schedule runs next. */
bool explore_next_schedule(const struct runner *rn, struct sched_strategy *st);
bool explore_dfs_extend(struct explore_shared *sh);

/* explore_shrink.c: a failing schedule made short. */
int explore_preemptions(const struct sched_log *log, unsigned long n);
bool explore_still_fails(const struct runner *rn, const int8_t *forced, unsigned long n);
unsigned long explore_shrink(const struct runner *rn, int8_t *forced);
bool explore_fewer_preemptions(const struct explore_harness *h, const struct explore_opts *o,
			       struct explore_result *r);

#endif
