/* test_explore.c - stage 4's active reference and remove_self under schedules nobody scripted. */
#include <string.h>
#include "lockdep.h"
#include <pci.h>
#include "vfs.h"
#include "watchdog.h"
#include "../stage3/active_harness.h"

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

/*
 * ---- the PCI remove file vs a surprise removal: lockdep's cycle, run ----
 *
 * Chapter 6: lockdep reports pci_rescan_remove_lock against the remove
 * file's s_active.  This harness asks whether a schedule really hangs, and
 * one does, with a single preemption: the removal unlinks (and so
 * deactivates) "remove" while the store has its protection broken; the
 * store's remove_self finds the node unlinked, takes its count back and
 * waits for pci_rescan_remove_lock, which the removal holds while it
 * drains "remove", which waits for that count.  Stage 4 is broken by
 * design here (it unlinks before it drains; kernfs drains first, which
 * narrows the window: see the chapter), so the grade requires the
 * explorer to find the deadlock.
 */

static struct file *pci_remove_file;

/*
 * lockdep off: it reports the cycle from any one schedule (chapter 6);
 * here the question is whether some schedule really deadlocks.
 */
static void pci_remove_setup(void)
{
	lockdep_set_enabled(false);
	if (pci_plug("pci0", NULL) || vfs_open("/sys/devices/pci0/remove", VFS_WRITE, &pci_remove_file))
		explore_fail("the harness could not plug pci0 and open its remove file");
}

/* "echo 1 > /sys/devices/pci0/remove", its file opened before the race. */
static void *echo_remove_main(void *arg)
{
	(void)arg;
	vfs_write(pci_remove_file, "1", 1);
	vfs_close(pci_remove_file);
	return NULL;
}

/* The slot reports the card gone: pciehp's removal, under pci_rescan_remove_lock. */
static void *surprise_removal_main(void *arg)
{
	(void)arg;
	pci_unplug("pci0");
	return NULL;
}

static void pci_remove_check(void)
{
	struct file *f;

	explore_assert(vfs_open("/sys/devices/pci0/vendor", VFS_READ, &f) == -ENOENT,
		       "pci0 is still there after its remove file was written and the card was unplugged");
	active_refs_back_to_zero();
}

static const struct explore_harness remove_vs_surprise = {
	.name = "remove-vs-surprise-removal",
	.claim = "a write to a PCI device's remove file and a surprise removal of the card, together, "
		 "remove the device once and both return",
	.setup = pci_remove_setup,
	.tasks = {
		{ "sh", echo_remove_main, NULL },
		{ "pciehp", surprise_removal_main, NULL },
	},
	.check = pci_remove_check,
	.expected_bug = "waiting on: mutex pci_rescan_remove_lock",
};

/* ---- a task that spins waiting for another: the scheduler's step budget ---- */

static atomic_t spin_flag;

static void spin_setup(void)
{
	atomic_set(&spin_flag, 0);
}

static void *spinner_main(void *arg)
{
	(void)arg;
	while (!atomic_read(&spin_flag))
		;	/* a student's busy wait: every read is a schedule point, none lets go */
	return NULL;
}

static void *setter_main(void *arg)
{
	(void)arg;
	atomic_set(&spin_flag, 1);
	return NULL;
}

static const struct explore_harness spin = {
	.name = "spin",
	.claim = "a busy wait ends (it need not: this harness is the scheduler's own test)",
	.setup = spin_setup,
	.tasks = { { "spinner", spinner_main, NULL }, { "setter", setter_main, NULL } },
};

START_TEST(a_task_that_spins_is_reported_as_a_soft_lockup)
{
	struct explore_opts o = { .strategy = "nonpreemptive", .runs = 1, .quiet = true };
	struct explore_result r;

	explore_boot_hook = boot_once;
	ck_assert_int_eq(explore(&spin, &o, &r), 1);
	ck_assert_msg(r.status == EXIT_OOPS && strstr(r.output, "soft lockup") && strstr(r.output, "spinner_main"),
		      "a spinning task was not reported as a soft lockup in spinner_main (status %d):\n%s",
		      r.status, r.output);
	ck_assert_msg(r.seconds < 2 * KTEST_SLOWDOWN, "the soft lockup took %.1f s to report", r.seconds);
}
END_TEST

static const struct explore_harness *const harnesses[] = {
	&get_vs_deactivate, &op_vs_unplug, &remove_self_race, &read_vs_unplug, &reads_held,
	&remove_vs_surprise,
};

START_TEST(remove_vs_surprise_removal_deadlocks_on_some_schedule)
{
	explore_expect_bug(&remove_vs_surprise, boot_once);
}
END_TEST

START_TEST(remove_self_race_on_every_schedule)
{
	explore_grade(&remove_self_race, boot_once);
}
END_TEST

int main(int argc, char **argv)
{
	Suite *s = suite_create("explore");
	TCase *tc = ktest_case(s, "schedules", 20);

	add_active_cases(tc);
	tcase_add_test(tc, remove_self_race_on_every_schedule);
	tcase_add_test(tc, remove_vs_surprise_removal_deadlocks_on_some_schedule);
	tcase_add_test(tc, a_task_that_spins_is_reported_as_a_soft_lockup);
	return explore_test_main(argc, argv, boot_once, harnesses, ARRAY_SIZE(harnesses), s);
}
