/* test_explore.c - stage 1 under schedules nobody scripted: the explorer must find its use-after-free. */
#include <string.h>
#include "ktest.h"
#include "naive_harness.h"

/* Stage 1 is broken by design here: an open file pins the kobject, nothing pins the driver's data. */
#define YOURS "kobject_get() and kobject_put() (the open file's pin on the kobject)"
static const struct explore_harness read_vs_unplug = NAIVE_READ_VS_UNPLUG("use-after-free", YOURS);
static const struct explore_harness reads_held = NAIVE_READS_HELD_ACROSS_UNPLUG("use-after-free", YOURS);
static const struct explore_harness *const harnesses[] = { &read_vs_unplug, &reads_held };

START_TEST(read_vs_unplug_shows_the_use_after_free)
{
	explore_expect_bug(&read_vs_unplug, naive_boot);
}
END_TEST

START_TEST(reads_held_across_unplug_show_the_use_after_free)
{
	explore_expect_bug(&reads_held, naive_boot);
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

