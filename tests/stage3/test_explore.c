/* test_explore.c - stage 3's active reference under schedules nobody scripted (the controlled scheduler). */
#include "../stage3/active_harness.h"	/* spelt as tests/stage4 spells it */

static const struct explore_harness *const harnesses[] = {
	&get_vs_deactivate, &op_vs_unplug, &read_vs_unplug, &reads_held,
};

int main(int argc, char **argv)
{
	Suite *s = suite_create("explore");
	TCase *tc = ktest_case(s, "schedules", 20);

	add_active_cases(tc);
	return explore_test_main(argc, argv, boot_once, harnesses, ARRAY_SIZE(harnesses), s);
}
