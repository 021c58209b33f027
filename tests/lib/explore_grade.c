/* explore_grade.c - the explorer as Check tests grade with it: a fixed plan of schedules, a failure as a test's message. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "explore_int.h"
#include "ktest.h"

/*
 * Under a sanitizer each schedule costs ten times more, and what the run is
 * for is the sanitizer's report on the schedules it sees, not coverage:
 * the plain build grades coverage with the full plan.  Every schedule of at
 * most one preemption is still tried.
 */
#ifdef KSIM_SANITIZER
#define GRADE_PCT_RUNS 60
#else
#define GRADE_PCT_RUNS 250
#endif

/*
 * explain_trace - where the shrunk failing run's trace goes, for the
 * drawing tests/lib/explain.sh makes of it (make explain-stageN):
 * $KSIM_DIR/explain/HARNESS.trace, made with every event's functions
 * (KSIM_TRACE_CALLERS).  False (no trace) without KSIM_DIR.
 */
static bool explain_trace(const struct explore_harness *h, char *path, size_t len)
{
	const char *dir = getenv("KSIM_DIR");

	if (!dir || !*dir || (size_t)snprintf(path, len, "%s/explain", dir) >= len)
		return false;
	if (mkdir(path, 0777) != 0 && errno != EEXIST)
		return false;
	if ((size_t)snprintf(path, len, "%s/explain/%s.trace", dir, h->name) >= len)
		return false;
	setenv("KSIM_TRACE_CALLERS", "1", 1);
	return true;
}

/*
 * explain_functions - the functions the failing run's steps were made in,
 * read from its trace's in= chains: of each, the first two that are not
 * the kernel's bookkeeping around an event (sysfs_active_got() records
 * the get that sysfs_get_active() makes), each named once, in the order
 * they first made a step.  So an invariant broken with no call trace in
 * sight still names the functions, the student's among them, it ran through.
 */
static void explain_functions(const char *trace, char *buf, size_t len)
{
	FILE *f = fopen(trace, "r");
	char line[4096], seen[2048] = ",";
	size_t used = 0;
	int n = 0;

	buf[0] = 0;
	if (!f)
		return;
	while (fgets(line, sizeof(line), f) && n < 16) {
		char *in = strstr(line, " in="), *fn, *save = NULL;
		int taken = 0;

		if (!in)
			continue;
		in[strcspn(in + 1, " \n") + 1] = 0;
		for (fn = strtok_r(in + 4, "<", &save); fn && taken < 2; fn = strtok_r(NULL, "<", &save)) {
			char key[160];

			if (!strncmp(fn, "sysfs_active_", 13) || !strncmp(fn, "trace_", 6))
				continue;
			taken++;
			snprintf(key, sizeof(key), ",%s,", fn);
			if (strstr(seen, key) || strlen(seen) + strlen(fn) + 2 >= sizeof(seen))
				continue;
			strcat(seen, fn);
			strcat(seen, ",");
			used += snprintf(buf + used, used < len ? len - used : 0, "%s%s()", n++ ? ", " : "", fn);
		}
	}
	fclose(f);
}

/* explain_note - the drawing's path, and the command that draws it again (stage from KSIM_DIR's stageN). */
static void explain_note(const char *trace, char *buf, size_t len)
{
	const char *dir = getenv("KSIM_DIR"), *st = dir ? strrchr(dir, '/') : NULL;
	size_t n = strlen(trace) - strlen(".trace"), k;
	char fns[1024];

	explain_functions(trace, fns, sizeof(fns));
	k = fns[0] ? (size_t)snprintf(buf, len, "--- its steps were made in: %s\n", fns) : 0;
	if (k >= len)
		return;
	buf += k;
	len -= k;
	st = st ? st + 1 : dir;
	snprintf(buf, len, "--- the failing schedule, drawn (one line per object and task, each step named by "
		 "the function that made it): %.*s.svg\n    (make explain-%s draws it again)\n", (int)n, trace,
		 st && !strncmp(st, "stage", 5) ? st : "stageN");
}

void explore_grade(const struct explore_harness *h, void (*boot)(void))
{
	/*
	 * The harness's deeper bound (grade_dfs) comes after dfs:1, not in its
	 * place: a code with more schedule points can make the deeper search
	 * stop at its cap, and dfs:1's promise must hold all the same.
	 */
	const struct explore_opts plan[] = {
		{ .strategy = "dfs:1", .runs = 20000, .quiet = true },
		{ .strategy = h->grade_dfs, .runs = 20000, .quiet = true },
		{ .strategy = "pct:2", .seed = 1, .runs = GRADE_PCT_RUNS, .quiet = true },
		{ .strategy = "pct:3", .seed = 2, .runs = GRADE_PCT_RUNS, .quiet = true },
	};
	struct explore_result r;
	char msg[12000], trace[4096];
	bool traced = explain_trace(h, trace, sizeof(trace));

	explore_boot_hook = boot;
	for (size_t i = 0; i < ARRAY_SIZE(plan); i++) {
		struct explore_opts o = plan[i];

		if (!o.strategy)
			continue;	/* no deeper bound for this harness */
		/* The shrunk failing run is replayed once more, its trace written. */
		if (traced)
			o.trace = trace;
		if (explore(h, &o, &r) != 0) {
			size_t n;

			/* A stub ran: name the exercise, not the race it caused. */
			ck_assert_msg(!strstr(r.output, "TODO("), "exercise not done yet: %s", first_todo(r.output));
			explore_describe(h, &r, msg, sizeof(msg));
			n = strlen(msg);
			if (traced && r.repeats && access(trace, F_OK) == 0)
				explain_note(trace, msg + n, sizeof(msg) - n);
			ck_abort_msg("%s", msg);
		}
	}
}

/*
 * explore_expect_bug - the grade of a harness that must fail (expected_bug):
 * every schedule with at most one preemption, then PCT; the first failure
 * must show the bug and fail again when replayed.  A test that would pass
 * if the bug it documents vanished is no test.
 */
void explore_expect_bug(const struct explore_harness *h, void (*boot)(void))
{
	static const struct explore_opts plan[] = {
		{ .strategy = "dfs:1", .runs = 20000, .quiet = true },
		{ .strategy = "pct:2", .seed = 1, .runs = 2000, .quiet = true },
	};
	struct explore_result r = { 0 };
	size_t i;

	explore_boot_hook = boot;
	for (i = 0; i < ARRAY_SIZE(plan); i++)
		if (explore(h, &plan[i], &r) != 0)
			break;
	/* A stub ran: name the exercise, not the hang it caused. */
	ck_assert_msg(!strstr(r.output, "TODO("), "exercise not done yet: %s", first_todo(r.output));
	ck_assert_msg(i < ARRAY_SIZE(plan) || !h->yours,
		      "%s documents a bug of the given code (%s) that the reference shows on some schedule; "
		      "on your build no schedule showed it (%ld runs of the last plan), so your code changed "
		      "what this harness does. It runs through your %s: one of them does something the "
		      "reference does not (a wait that returns too early, a wake-up that wakes nobody, a "
		      "reference kept or dropped); their own tests above say which", h->name, h->expected_bug,
		      r.runs, h->yours);
	ck_assert_msg(i < ARRAY_SIZE(plan), "no schedule of %s failed (%ld runs of the last plan): the bug it "
		      "shows (%s) is gone from the given code? Then the harness documents nothing any more",
		      h->name, r.runs, h->expected_bug);
	/* Another failure than the documented one: the student's functions it runs through are the suspects. */
	ck_assert_msg(strstr(r.output, h->expected_bug), "%s failed, but without \"%s\"%s%s%s:\n%s", h->name,
		      h->expected_bug, h->yours ? " (it runs through your " : "", h->yours ? h->yours : "",
		      h->yours ? ", so look there first)" : "", r.output);
	ck_assert_msg(r.repeats, "the failing schedule did not fail again when replayed: %s", r.replay);
}
