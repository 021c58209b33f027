/* explore_shrink.c - the explorer's shrinker: a failing schedule made short, with as few preemptions as search can find. */
#include <stdio.h>
#include <stdlib.h>
#include "explore_int.h"

int explore_preemptions(const struct sched_log *log, unsigned long n)
{
	int p = 0;

	for (unsigned long i = 0; i < n && i < SCHED_LOG_MAX; i++)
		p += log->d[i].current >= 0 && log->d[i].chosen != log->d[i].current;
	return p;
}

/* Replay forced[0..n) with the default after it: does it still fail? */
bool explore_still_fails(const struct runner *rn, const int8_t *forced, unsigned long n)
{
	struct sched_strategy st = { .kind = SCHED_REPLAY, .forced = forced, .nforced = n,
				     .budget = EXPLORE_BUDGET };

	return explore_run_one(rn, &st) != 0;
}

/*
 * explore_shrink - from a failing log, the shortest prefix of decisions that still
 * fails when the rest runs without preemption, then each remaining
 * preemption dropped if the run fails without it.  Returns the length of
 * the shrunk schedule in decisions (left in forced).
 */
unsigned long explore_shrink(const struct runner *rn, int8_t *forced)
{
	struct sched_log *log = &rn->sh->log;
	unsigned long n = log->ndecisions < SCHED_LOG_MAX ? log->ndecisions : SCHED_LOG_MAX;
	unsigned long best = n;
	bool *preempt = calloc(n + 1, sizeof(*preempt));

	if (!preempt)
		abort();
	/* Copies: every explore_still_fails() below overwrites the log. */
	for (unsigned long i = 0; i < n; i++) {
		forced[i] = log->d[i].chosen;
		preempt[i] = log->d[i].current >= 0 && log->d[i].chosen != log->d[i].current;
	}
	/* The shortest prefix: none at all, then up to and with each preemption. */
	for (unsigned long m = 0; m <= n; m++) {
		if (m && !preempt[m - 1])
			continue;
		if (explore_still_fails(rn, forced, m)) {
			best = m;
			break;
		}
	}
	free(preempt);
	/* Drop single switches inside the prefix, keeping the run failing. */
	for (unsigned long i = 1; i < best; i++) {
		int8_t was = forced[i];

		if (was == forced[i - 1])
			continue;
		forced[i] = forced[i - 1];	/* stay with whoever ran before */
		if (!explore_still_fails(rn, forced, best))
			forced[i] = was;
	}
	return best;
}

/*
 * explore_fewer_preemptions - the shrinker drops the preemptions it can one at a
 * time, and a failure can survive that with more than it needs (dropping
 * one switch moves every later one).  Bounded search settles it: every
 * schedule with one preemption, then two, and so on below r's count, up to
 * FEWER_RUNS schedules a bound.  The first that fails (shrunk in turn)
 * replaces r, and needs as few preemptions as any failure can, possibly
 * for another broken invariant: the one to show first.  True if it did.
 */
#define FEWER_RUNS 20000
bool explore_fewer_preemptions(const struct explore_harness *h, const struct explore_opts *o,
			       struct explore_result *r)
{
	static bool deepening;	/* the searches below are this search, not new ones */
	struct explore_opts fewer = *o;
	struct explore_result *simpler;
	char strategy[16];
	bool found = false;

	if (deepening)
		return false;
	simpler = malloc(sizeof(*simpler));
	if (!simpler)
		abort();
	deepening = true;
	fewer.strategy = strategy;
	fewer.runs = FEWER_RUNS;
	fewer.quiet = true;
	for (int bound = 1; bound < r->preemptions && !found; bound++) {
		snprintf(strategy, sizeof(strategy), "dfs:%d", bound);
		found = explore(h, &fewer, simpler) == 1;
		if (!found && !simpler->exhausted)
			break;	/* too many schedules to be sure: keep r */
	}
	deepening = false;
	if (found) {
		simpler->runs = r->runs;	/* what it took to find the bug at all */
		*r = *simpler;
	}
	free(simpler);
	return found;
}
