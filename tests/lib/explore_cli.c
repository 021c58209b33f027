/* explore_cli.c - the explorer's command line (make explore-stageN) and a test_explore's main(). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "explore_int.h"
#include "ktest.h"

void explore_summary(const struct explore_harness *h, const struct explore_opts *o, const struct explore_result *r,
		     char *buf, size_t len)
{
	bool dfs = strncmp(o->strategy, "dfs:", 4) == 0;
	char cap[160] = "";

	if (dfs && !r->failures && !r->exhausted)
		snprintf(cap, sizeof(cap), "; %s stopped at the cap after %ld schedules: not exhaustive",
			 o->strategy, r->runs);
	else if (dfs && !r->failures)
		snprintf(cap, sizeof(cap), ", every schedule within the bound");
	snprintf(buf, len, "explore %s: %s: %ld schedule%s in %.1f s (%.0f/s)%s, %ld failure%s", h->name,
		 o->strategy, r->runs, r->runs == 1 ? "" : "s", r->seconds,
		 r->seconds > 0 ? r->runs / r->seconds : 0.0, cap, r->failures, r->failures == 1 ? "" : "s");
}

static void print_result(const struct explore_harness *h, const struct explore_opts *o,
			 const struct explore_result *r, bool planned)
{
	char line[512];

	explore_summary(h, o, r, line, sizeof(line));
	if (planned && h->explore_dfs && strncmp(o->strategy, "dfs:", 4) == 0)
		printf("%s (this harness's bound, not dfs:2: %s)\n", line, h->explore_dfs_why);
	else
		printf("%s\n", line);
}

int explore_main(int argc, char **argv, const struct explore_harness *const *hs, int n)
{
	const char *only = NULL, *scheds[8], *trace_dir = NULL;
	int nsched = 0, bad = 0, rc = 0, jobs = (int)sysconf(_SC_NPROCESSORS_ONLN);
	bool planned;	/* no --sched: the default plan, each harness with its own dfs bound */
	long runs = EXPLORE_RUNS;
	unsigned long seed = 1;

	for (int i = 2; i < argc; i += 2) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;

		if (!v) {
			fprintf(stderr, "explore: %s needs a value\n", a);
			return 2;
		}
		if (strcmp(a, "--harness") == 0)
			only = v;
		else if (strcmp(a, "--sched") == 0 && nsched < 8)
			scheds[nsched++] = v;
		else if (strcmp(a, "--runs") == 0)
			runs = atol(v);
		else if (strcmp(a, "--seed") == 0)
			seed = strtoul(v, NULL, 10);
		else if (strcmp(a, "--trace") == 0)
			trace_dir = v;
		else if (strcmp(a, "--jobs") == 0)
			jobs = atoi(v);
		else {
			fprintf(stderr, "explore: unknown option '%s' (--harness NAME, --sched S, --runs N, "
				"--seed N, --trace DIR, --jobs N)\n", a);
			return 2;
		}
	}
	if (jobs < 0)
		jobs = 0;	/* 0: the sequential search, in one worker process at a time */
	planned = !nsched;
	if (!nsched) {
		scheds[nsched++] = "pct:2";
		scheds[nsched++] = "pct:3";
		scheds[nsched++] = "dfs:2";
		printf("explore: the plan: PCT of depths 2 and 3, %ld schedules each (seed %lu), then every schedule "
		       "with at most 2 preemptions (dfs:2, or the bound a harness names, with why), each harness "
		       "until its first failure\n", runs, seed);
	}
	for (int k = 0; k < n; k++) {
		const struct explore_harness *h = hs[k];
		bool found = false;

		if (only && strcmp(only, h->name) != 0)
			continue;
		for (int j = 0; j < nsched; j++) {
			/* The default plan's dfs:2 is the harness's own bound where it names one (explore.h). */
			const char *s = planned && h->explore_dfs && !strcmp(scheds[j], "dfs:2") ? h->explore_dfs
												 : scheds[j];
			/* dfs runs until the bounded space is exhausted: RUNS caps the random strategies only. */
			struct explore_opts o = { .strategy = s, .seed = seed,
						  .runs = strncmp(s, "dfs:", 4) ? runs : EXPLORE_DFS_CAP, .jobs = jobs };
			struct explore_result r;
			char trace[512], desc[12000];
			int got;

			if (trace_dir) {
				snprintf(trace, sizeof(trace), "%s/%s.trace", trace_dir, h->name);
				o.trace = trace;
			}
			got = explore(h, &o, &r);
			if (got < 0)
				return 2;
			print_result(h, &o, &r, planned);
			if (got == 0)
				continue;
			found = true;
			explore_describe(h, &r, desc, sizeof(desc));
			if (h->expected_bug && strstr(r.output, h->expected_bug)) {
				printf("  the bug this stage is known for, as expected (\"%s\"):\n%s", h->expected_bug, desc);
			} else {
				printf("  FAILED: %s", desc);
				rc = 1;
			}
			if (trace_dir)
				printf("  trace of the shrunk run: %s (draw it: trace2dot --lifelines %s)\n", trace, trace);
			break;
		}
		if (h->expected_bug && !found) {
			printf("explore %s: FAILED: no schedule showed the bug this stage is known for (\"%s\")\n",
			       h->name, h->expected_bug);
			rc = 1;
		}
	}
	if (only && !bad) {
		bool known = false;

		for (int k = 0; k < n; k++)
			known |= strcmp(only, hs[k]->name) == 0;
		if (!known) {
			fprintf(stderr, "explore: no harness '%s'; there are:", only);
			for (int k = 0; k < n; k++)
				fprintf(stderr, " %s", hs[k]->name);
			fprintf(stderr, "\n");
			return 2;
		}
	}
	return rc;
}

int explore_test_main(int argc, char **argv, void (*boot)(void), const struct explore_harness *const *hs,
		      int n, Suite *suite)
{
	explore_argv0 = argv[0];
	explore_boot_hook = boot;
	if (argc > 1 && strcmp(argv[1], "--explore") == 0)
		return explore_main(argc, argv, hs, n);	/* the suite is left unrun */
	return ktest_main(suite);
}
