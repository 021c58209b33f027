/* explore_search.c - the explorer's search: the next schedule to run (seeded PCT or random, bounded DFS). */
#include "explore_int.h"

static uint64_t mix(uint64_t a, uint64_t b)
{
	uint64_t z = a * 0x9e3779b97f4a7c15ULL + b + 0x632be59bd9b4e019ULL;

	z = (z ^ (z >> 31)) * 0xbf58476d1ce4e5b9ULL;
	return z ^ (z >> 29);
}

static long dfs_next(struct explore_shared *sh, int bound);

/* explore_next_schedule - the strategy of run sh->run into st; false when there is none (dfs exhausted). */
bool explore_next_schedule(const struct runner *rn, struct sched_strategy *st)
{
	struct explore_shared *sh = rn->sh;

	*st = rn->base;
	if (rn->bound >= 0) {
		long n = sh->run == 0 ? (long)sh->floor : dfs_next(sh, rn->bound);

		if (n < 0) {
			sh->exhausted = true;
			return false;
		}
		sh->nforced = (unsigned long)n;
		st->kind = SCHED_REPLAY;
		st->forced = sh->forced;
		st->nforced = sh->nforced;
	} else if (rn->base.kind != SCHED_REPLAY) {
		st->seed = mix(rn->o->seed, (uint64_t)sh->run);
		st->expect_steps = sh->max_steps > 20 ? sh->max_steps : 20;
	}
	return true;
}

/*
 * The next DFS schedule into sh->forced; its length, or -1 when the bounded
 * space is exhausted.  The first run of a search forces sh->forced's first
 * sh->floor decisions (none for a whole search, a subtree's prefix for a
 * part of one, explore_dfs.c), and no later run changes them.
 */
static long dfs_next(struct explore_shared *sh, int bound)
{
	while (sh->depth > sh->floor) {
		struct dfs_node *nd = &sh->stack[sh->depth - 1];

		for (int a = 0; a < SCHED_MAX_TASKS; a++) {
			uint32_t bit = 1u << a;
			int cost = nd->current >= 0 && a != nd->current;

			if (!(nd->runnable & bit) || (nd->tried & bit) || nd->pre_before + cost > bound)
				continue;
			nd->tried |= bit;
			nd->chosen = (int8_t)a;
			for (unsigned long i = 0; i < sh->depth; i++)
				sh->forced[i] = sh->stack[i].chosen;
			return (long)sh->depth;
		}
		sh->depth--;
	}
	return -1;
}

/* Add the decisions the last run made past its forced prefix to the DFS stack. */
bool explore_dfs_extend(struct explore_shared *sh)
{
	const struct sched_log *log = &sh->log;
	unsigned long n = log->ndecisions;

	if (log->truncated || n > SCHED_LOG_MAX)
		return false;
	for (unsigned long i = sh->depth; i < n; i++) {
		const struct sched_decision *d = &log->d[i];
		const struct dfs_node *prev = i ? &sh->stack[i - 1] : NULL;
		int pre = prev ? prev->pre_before + (prev->current >= 0 && prev->chosen != prev->current) : 0;

		sh->stack[i] = (struct dfs_node){ d->runnable, 1u << d->chosen, d->current, d->chosen, pre };
	}
	sh->depth = n;
	return true;
}
