/* test_sched.c - the controlled scheduler as a reader relies on it: same seed, same run; a replay; deadlocks reported at once. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ktest.h"

/*
 * The scheduler's own tests run the demo stage (build/stage0/ksim, its
 * scripts in tests/kernel/scripts/), never a stage a student is writing:
 * a failure here is the scheduler's, not an exercise's.
 */
#define SCRIPTS "tests/kernel/scripts/"
/* Two writers and two readers at once, held at delay points: many interleavings are possible. */
#define RACE SCRIPTS "race.ksim"

START_TEST(same_strategy_and_seed_give_the_same_trace)
{
	struct ksim_run a, b;

	ksim_run(&a, RACE, true, "--sched random --seed 7", 5);
	ksim_run(&b, RACE, true, "--sched random --seed 7", 5);
	ck_assert_status(&a, 0);
	ck_assert_msg(a.trace && strlen(a.trace) > 200, "the run wrote no trace");
	ck_assert_msg(strcmp(a.trace, b.trace) == 0 && strcmp(a.out, b.out) == 0,
		      "two runs with --sched random --seed 7 differ: the controlled scheduler is not deterministic");
	ksim_run_free(&a);
	ksim_run_free(&b);
}
END_TEST

/* The determinism above would be worthless if the seed changed nothing. */
START_TEST(different_seeds_give_different_interleavings)
{
	char *first = NULL;
	bool differ = false;

	for (int seed = 1; seed <= 6 && !differ; seed++) {
		struct ksim_run r;
		char args[64];

		snprintf(args, sizeof(args), "--sched random --seed %d", seed);
		ksim_run(&r, RACE, true, args, 5);
		ck_assert_status(&r, 0);
		if (!first)
			first = strdup(r.trace);
		else
			differ = strcmp(first, r.trace) != 0;
		ksim_run_free(&r);
	}
	free(first);
	ck_assert_msg(differ, "six seeds of --sched random gave six identical traces of a racy scenario");
}
END_TEST

/* A failing run prints its schedule; replaying it gives the same run, byte for byte. */
START_TEST(a_failing_run_prints_a_schedule_that_replays_it)
{
	struct ksim_run r, again;
	const char *p;
	char sched[4096], args[4200];

	ksim_run(&r, SCRIPTS "race_oops.ksim", true, "--sched random --seed 3", 5);
	ck_assert_status(&r, 3);
	p = strstr(r.err, "--sched replay:");
	ck_assert_msg(p != NULL, "a failing run under --sched did not print how to replay it:\n%s", r.err);
	ck_assert_int_eq(sscanf(p, "--sched %4000s", sched), 1);
	snprintf(args, sizeof(args), "--sched %s", sched);
	ksim_run(&again, SCRIPTS "race_oops.ksim", true, args, 5);
	ck_assert_status(&again, 3);
	ck_assert_msg(strcmp(r.trace, again.trace) == 0, "replaying %s gave another trace", sched);
	ksim_run_free(&r);
	ksim_run_free(&again);
}
END_TEST

/* No hung-task timeout to wait for: when no task can run, the scheduler knows. */
START_TEST(a_deadlock_is_reported_at_once_naming_each_wait)
{
	struct ksim_run r;

	/* A store that unregisters its own file waits for itself. */
	ksim_run(&r, SCRIPTS "hang_remove_self.ksim", false, "--sched nonpreemptive --no-lockdep", 5);
	ck_assert_status(&r, 4);
	ck_assert_said(&r, "waiting on: demo_file_unregister: waiting for show/store in flight");
	ck_assert_said(&r, "no task can run");
	/* The scheduler's own verdict, not the hung-task watchdog's after its limit (no wall time asked: a busy machine must not fail this). */
	ck_assert_msg(!strstr(r.out, "blocked for more than") && !strstr(r.err, "blocked for more than"),
		      "the hung-task watchdog reported it, not the scheduler:\n%s%s", r.out, r.err);
	ksim_run_free(&r);
}
END_TEST

/* Bad strategies are the user's mistake: exit status 2 and a message, never a run. */
START_TEST(a_bad_strategy_is_refused)
{
	static const char *const bad[] = { "--sched pct:0", "--sched pct:x", "--sched replay:1x", "--sched fifo",
					   "--sched replay:99", "--seed 3" };

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct ksim_run r;

		ksim_run(&r, RACE, false, bad[i], 5);
		ck_assert_msg(r.status == 2, "ksim %s exited %d, want 2 (a usage error)", bad[i], r.status);
		ck_assert_msg(strstr(r.err, "ksim:"), "ksim %s said nothing about why:\n%s", bad[i], r.err);
		ksim_run_free(&r);
	}
}
END_TEST

int main(void)
{
	Suite *s = suite_create("kernel-sched");
	TCase *tc = ktest_case(s, "scheduler", 20);

	tcase_add_test(tc, same_strategy_and_seed_give_the_same_trace);
	tcase_add_test(tc, different_seeds_give_different_interleavings);
	tcase_add_test(tc, a_failing_run_prints_a_schedule_that_replays_it);
	tcase_add_test(tc, a_deadlock_is_reported_at_once_naming_each_wait);
	tcase_add_test(tc, a_bad_strategy_is_refused);
	return ktest_main(s);
}
