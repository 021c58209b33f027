/* test_explore.c - stage 1 under schedules nobody scripted: the explorer must find its use-after-free. */
#include <string.h>
#include "ktest.h"
#include "naive_harness.h"

/* Stage 1 is broken by design here: an open file pins the kobject, nothing pins the driver's data. */
static const struct explore_harness read_vs_unplug = NAIVE_READ_VS_UNPLUG("use-after-free");
static const struct explore_harness reads_held = NAIVE_READS_HELD_ACROSS_UNPLUG("use-after-free");
static const struct explore_harness *const harnesses[] = { &read_vs_unplug, &reads_held };

/* A schedule must show the use-after-free, and every run must find it. */
static void shows_the_use_after_free(const struct explore_harness *h)
{
	struct explore_opts o = { .strategy = "pct:2", .seed = 1, .runs = 2000, .quiet = true };
	struct explore_result r;

	ck_assert_msg(explore(h, &o, &r) == 1,
		      "no schedule of %s failed in %ld runs: stage 1's use-after-free is gone?", h->name, r.runs);
	ck_assert_msg(strstr(r.output, h->expected_bug),
		      "%s failed, but not with a %s:\n%s", h->name, h->expected_bug, r.output);
	ck_assert_msg(r.repeats, "the failing schedule did not fail again when replayed: %s", r.replay);
}

START_TEST(read_vs_unplug_shows_the_use_after_free)
{
	shows_the_use_after_free(&read_vs_unplug);
}
END_TEST

START_TEST(reads_held_across_unplug_show_the_use_after_free)
{
	shows_the_use_after_free(&reads_held);
}
END_TEST

int main(int argc, char **argv)
{
	Suite *s = suite_create("explore");
	TCase *tc = ktest_case(s, "schedules", 20);

	tcase_add_test(tc, read_vs_unplug_shows_the_use_after_free);
	tcase_add_test(tc, reads_held_across_unplug_show_the_use_after_free);
	return explore_test_main(argc, argv, naive_boot, harnesses, ARRAY_SIZE(harnesses), s);
}

