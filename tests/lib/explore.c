/* explore.c - the schedule explorer: run a harness under a strategy until a run fails, shrink it, describe it. */
#include <malloc.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>
#include "explore_int.h"
#include "oops.h"
#include "watchdog.h"

const char *explore_argv0 = "the explorer";

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int explore(const struct explore_harness *h, const struct explore_opts *o, struct explore_result *r)
{
	struct runner rn = { .h = h, .o = o, .bound = -1 };
	char err[160];
	int8_t *forced;
	int status = 0;
	double t0 = now_s();

	memset(r, 0, sizeof(*r));
	if (strncmp(o->strategy, "dfs:", 4) == 0) {
		char *end;

		rn.bound = (int)strtol(o->strategy + 4, &end, 10);
		if (end == o->strategy + 4 || *end || rn.bound < 0 || rn.bound > 8) {
			fprintf(stderr, "explore: dfs:P wants a preemption bound P from 0 to 8\n");
			return -1;
		}
		sched_parse("nonpreemptive", 0, &rn.base, err, sizeof(err));
	} else if (sched_parse(o->strategy, o->seed, &rn.base, err, sizeof(err)) != 0) {
		fprintf(stderr, "explore: %s\n", err);
		return -1;
	}
	rn.base.budget = EXPLORE_BUDGET;
	rn.sh = mmap(NULL, sizeof(*rn.sh), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	rn.out = memfd_create("explore-output", 0);
	forced = malloc(SCHED_LOG_MAX);
	if (rn.sh == MAP_FAILED || rn.out < 0 || !forced)
		abort();
	/*
	 * Every worker is a fresh process: what it pays for is paid again.
	 * One malloc arena (not one per new thread); symbols are bound at
	 * start (-z now in the Makefile), not lazily in each worker.
	 */
	mallopt(M_ARENA_MAX, 1);

	if (rn.base.kind == SCHED_REPLAY) {
		status = explore_run_one(&rn, &rn.base);
		r->runs = 1;
		r->repeats = true;
	} else if (o->jobs > 0 && rn.bound < 0) {
		status = explore_parallel(&rn, t0);
		r->runs = rn.sh->run + (status != 0);
	} else if (o->jobs > 0) {
		status = explore_dfs_parallel(&rn, t0, &r->exhausted, &r->subtrees);
		r->runs = rn.sh->run + (status != 0);
	} else {
		while (rn.sh->run < o->runs && !rn.sh->exhausted) {
			long before = rn.sh->run;

			status = explore_spawn(&rn, o->runs, NULL);
			if (status != 0)
				break;
			if (rn.sh->run == before)
				break;	/* dfs ended inside the worker */
			explore_progress(&rn, rn.sh->run, t0);
		}
		r->runs = rn.sh->run + (status != 0);
		r->exhausted = rn.sh->exhausted;
	}
	if (status != 0) {
		unsigned long n;

		r->failures = 1;
		r->status = status;
		explore_run_output(&rn, r->output, sizeof(r->output));
		if (rn.base.kind == SCHED_REPLAY) {
			n = rn.base.nforced;
			memcpy(forced, rn.base.forced, n);
		} else if (status == 128 + SIGALRM || strstr(r->output, "soft lockup")) {
			/*
			 * A spin does not depend on the schedule, and each replay would
			 * cost seconds: it is reported with the schedule it ran, unshrunk.
			 */
			n = rn.sh->log.ndecisions < SCHED_LOG_MAX ? rn.sh->log.ndecisions : SCHED_LOG_MAX;
			r->repeats = true;
		} else {
			n = explore_shrink(&rn, forced);
			/* Once more, to leave the shrunk run's log and output behind. */
			r->repeats = explore_still_fails(&rn, forced, n);
			if (r->repeats)
				explore_run_output(&rn, r->output, sizeof(r->output));
		}
		sched_format(&rn.sh->log, n, r->replay, sizeof(r->replay));
		r->preemptions = explore_preemptions(&rn.sh->log, n);
		if (rn.base.kind != SCHED_REPLAY && r->preemptions > 1 && explore_fewer_preemptions(h, o, r))
			goto out;	/* r is the simpler failure's, trace and all */
		if (o->trace) {
			struct sched_strategy st = { .kind = SCHED_REPLAY, .forced = forced, .nforced = n,
						     .budget = EXPLORE_BUDGET };

			rn.trace = o->trace;
			explore_run_one(&rn, &st);
		}
	}
out:
	r->seconds = now_s() - t0;
	if (!o->quiet && isatty(STDERR_FILENO))
		fprintf(stderr, "\r\033[K");
	if (rn.base.kind == SCHED_REPLAY)
		sched_strategy_free(&rn.base);
	free(forced);
	close(rn.out);
	munmap(rn.sh, sizeof(*rn.sh));
	return r->failures ? 1 : 0;
}

static const char *status_words(int status)
{
	switch (status) {
	case EXIT_INVARIANT: return "an invariant was broken";
	case EXIT_OOPS: return "the kernel oopsed (BUG, use-after-free, soft lockup)";
	case EXIT_HUNG: return "a deadlock: no task could run";
	case 128 + SIGALRM: return "a task ran for seconds without a schedule point (a busy loop?)";
	default: return status > 128 ? "the run was killed by a signal" : "the run failed";
	}
}

void explore_describe(const struct explore_harness *h, const struct explore_result *r, char *buf, size_t len)
{
	if (r->repeats)
		snprintf(buf, len,
			 "harness %s (%s): %s, on schedule %ld.\n"
			 "--- what the failing run printed (shrunk to %d preemption%s):\n%s"
			 "--- replay it:\n  %s --explore --harness %s --sched %s\n",
			 h->name, h->claim, status_words(r->status), r->runs, r->preemptions,
			 r->preemptions == 1 ? "" : "s", r->output, explore_argv0, h->name, r->replay);
	else
		snprintf(buf, len,
			 "harness %s (%s): %s, on schedule %ld.\n"
			 "--- what the failing run printed:\n%s"
			 "--- replayed alone in a fresh process it passes: the failure depends on what an "
			 "earlier run of the same process left behind (a reference never dropped, a flag never "
			 "reset). Its schedule: %s\n",
			 h->name, h->claim, status_words(r->status), r->runs, r->output, r->replay);
}
