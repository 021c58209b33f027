/* test_explore.c - stage 1 under schedules nobody scripted: the explorer must find the bug this stage is known for. */
#include <string.h>
#include "ktest.h"
#include "naive_harness.h"

static const struct explore_harness read_vs_unplug = NAIVE_READ_VS_UNPLUG("use-after-free");
static const struct explore_harness reads_held = NAIVE_READS_HELD_ACROSS_UNPLUG("use-after-free");
static const struct explore_harness *const harnesses[] = { &read_vs_unplug, &reads_held };

/* Stage 1 is broken by design: a schedule must show its use-after-free, and every run must find it. */
static void shows_the_use_after_free(const struct explore_harness *h)
{
	struct explore_opts o = { .strategy = "pct:2", .seed = 1, .runs = 2000, .quiet = true };
	struct explore_result r;

	explore_boot_hook = naive_boot;
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
	Suite *s;
	TCase *tc;

	explore_argv0 = argv[0];
	if (argc > 1 && strcmp(argv[1], "--explore") == 0) {
		explore_boot_hook = naive_boot;
		return explore_main(argc, argv, harnesses, ARRAY_SIZE(harnesses));
	}
	s = suite_create("stage1-explore");
	tc = ktest_case(s, "schedules", 20);
	tcase_add_test(tc, read_vs_unplug_shows_the_use_after_free);
	tcase_add_test(tc, reads_held_across_unplug_show_the_use_after_free);
	return ktest_main(s);
}
