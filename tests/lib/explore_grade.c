/* explore_grade.c - the explorer as Check tests grade with it: a fixed plan of schedules, a failure as a test's message. */
#include <string.h>
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

void explore_grade(const struct explore_harness *h, void (*boot)(void))
{
	static const struct explore_opts plan[] = {
		{ .strategy = "dfs:1", .runs = 20000, .quiet = true },
		{ .strategy = "pct:2", .seed = 1, .runs = GRADE_PCT_RUNS, .quiet = true },
		{ .strategy = "pct:3", .seed = 2, .runs = GRADE_PCT_RUNS, .quiet = true },
	};
	struct explore_result r;
	char msg[12000];

	explore_boot_hook = boot;
	for (size_t i = 0; i < ARRAY_SIZE(plan); i++) {
		if (explore(h, &plan[i], &r) != 0) {
			/* A stub ran: name the exercise, not the race it caused. */
			ck_assert_msg(!strstr(r.output, "TODO("), "exercise not done yet: %s", first_todo(r.output));
			explore_describe(h, &r, msg, sizeof(msg));
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
	ck_assert_msg(strstr(r.output, h->expected_bug), "%s failed, but without \"%s\":\n%s", h->name,
		      h->expected_bug, r.output);
	ck_assert_msg(r.repeats, "the failing schedule did not fail again when replayed: %s", r.replay);
}
