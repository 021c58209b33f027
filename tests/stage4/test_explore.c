/* test_explore.c - stage 4's active reference and remove_self under schedules nobody scripted. */
#include <string.h>
#include "../stage3/active_harness.h"	/* through -Itests/lib: the overlay build uses -I- */

/* ---- two sysfs_remove_self() callers and an unplug ---- */

static atomic_int winners, got_in;
static atomic_bool winner_leaving;	/* the winner's operation is past its work, about to put */

static void remove_self_setup(void)
{
	fresh_run();
	unplugged.sd = dir;
	sysfs_get(attr);	/* each remover's open file */
	sysfs_get(attr);
	sysfs_get(attr);	/* ours, so that remove_self_check() may look at it */
	atomic_store(&winners, 0);
	atomic_store(&got_in, 0);
	atomic_store(&winner_leaving, false);
}

/* A store that removes its own device: the operation, its remove_self, the rest of the store. */
static void *remover_main(void *arg)
{
	(void)arg;
	if (sysfs_get_active(attr)) {
		atomic_fetch_add(&got_in, 1);
		if (sysfs_remove_self(attr)) {
			atomic_fetch_add(&winners, 1);
			sched_point();	/* the rest of the winner's store */
			atomic_store(&winner_leaving, true);
		} else {
			explore_assert(atomic_load(&winner_leaving),
				       "a sysfs_remove_self() caller that lost the claim returned while the "
				       "winner's operation was still running: the losers must wait until the "
				       "winner's store is out");
		}
		sysfs_put_active(attr);
	}
	sysfs_put(attr);	/* the close */
	return NULL;
}

static void remove_self_check(void)
{
	explore_assert(atomic_load(&got_in) == 0 || atomic_load(&winners) == 1,
		       "%d of the %d sysfs_remove_self() callers returned true: exactly one must",
		       atomic_load(&winners), atomic_load(&got_in));
	explore_assert(attr->s_removed, "the node is still in the tree after every remover and the unplug ended");
	explore_assert(atomic_read(&attr->s_active) == SD_DEACTIVATED_BIAS,
		       "s_active is %d after everything ended, not SD_DEACTIVATED_BIAS: a count was lost or kept",
		       atomic_read(&attr->s_active));
	active_refs_back_to_zero();
}

static const struct explore_harness remove_self_race = {
	.name = "remove-self-race",
	.claim = "of two stores that remove their own device while it is unplugged, exactly one removes "
		 "it, the other returns only after the first one's store is out, and nothing hangs",
	.setup = remove_self_setup,
	.tasks = {
		{ "sh", remover_main, NULL },
		{ "sh", remover_main, NULL },
		{ "unplug", unplug_main, NULL },
	},
	.check = remove_self_check,
};

static const struct explore_harness *const harnesses[] = {
	&get_vs_deactivate, &op_vs_unplug, &remove_self_race,
};

START_TEST(get_vs_deactivate_on_every_schedule)
{
	explore_grade(&get_vs_deactivate);
}
END_TEST

START_TEST(op_vs_unplug_on_every_schedule)
{
	explore_grade(&op_vs_unplug);
}
END_TEST

START_TEST(remove_self_race_on_every_schedule)
{
	explore_grade(&remove_self_race);
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
	s = suite_create("stage4-explore");
	tc = ktest_case(s, "schedules", 20);
	tcase_add_test(tc, get_vs_deactivate_on_every_schedule);
	tcase_add_test(tc, op_vs_unplug_on_every_schedule);
	tcase_add_test(tc, remove_self_race_on_every_schedule);
	return ktest_main(s);
}
