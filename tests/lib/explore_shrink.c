/* explore_shrink.c - the explorer's shrinker: a failing schedule cut to its shortest prefix and fewest preemptions. */
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
