/* test_explore.c - stage 3's active reference under schedules nobody scripted (the controlled scheduler). */
#include <string.h>
#include "../stage3/active_harness.h"	/* through -Itests/lib: the overlay build uses -I- */
#include "naive_harness.h"

/* Stage 1's use-after-free, which the active reference closes: no schedule may show it now. */
static const struct explore_harness read_vs_unplug = NAIVE_READ_VS_UNPLUG(NULL);
static const struct explore_harness reads_held = NAIVE_READS_HELD_ACROSS_UNPLUG(NULL);
static const struct explore_harness *const harnesses[] = { &get_vs_deactivate, &op_vs_unplug, &read_vs_unplug, &reads_held };

START_TEST(get_vs_deactivate_on_every_schedule)
{
	explore_grade(&get_vs_deactivate);
}
END_TEST

START_TEST(read_vs_unplug_on_every_schedule)
{
	explore_grade(&read_vs_unplug);
}
END_TEST

START_TEST(reads_held_across_unplug_on_every_schedule)
{
	explore_grade(&reads_held);
}
END_TEST

START_TEST(op_vs_unplug_on_every_schedule)
{
	explore_grade(&op_vs_unplug);
}
END_TEST

int main(int argc, char **argv)
{
	Suite *s;
	TCase *tc;

	explore_argv0 = argv[0];
	if (argc > 1 && strcmp(argv[1], "--explore") == 0) {
		explore_boot_hook = boot_once;
		return explore_main(argc, argv, harnesses, ARRAY_SIZE(harnesses));
	}
	s = suite_create("stage3-explore");
	tc = ktest_case(s, "schedules", 20);
	tcase_add_test(tc, get_vs_deactivate_on_every_schedule);
	tcase_add_test(tc, op_vs_unplug_on_every_schedule);
	tcase_add_test(tc, read_vs_unplug_on_every_schedule);
	tcase_add_test(tc, reads_held_across_unplug_on_every_schedule);
	return ktest_main(s);
}
