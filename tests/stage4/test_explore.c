/* test_explore.c - stage 4's active reference and remove_self under schedules nobody scripted. */
#include <string.h>
#include "lockdep.h"
#include <pci.h>
#include "vfs.h"
#include "wait.h"
#include "watchdog.h"
#include "active_harness.h"

/* ---- two sysfs_remove_self() callers and an unplug ---- */

static atomic_int winners, got_in;
static struct sysfs_dirent *attr2;	/* a second node (two-drains, remove-self-vs-other-put) */
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
 * ---- two remove_self() callers, and a put on another node meanwhile ----
 *
 * The caller that loses the claim sleeps on the one shared queue until
 * the removal is done and the winner's operation is out.  A put that
 * drains another node wakes that queue: the loser tests its condition
 * again, under sysfs_mutex, whenever that happens.  The winner marks the
 * removal done (SUICIDED) and takes its count back in one hold of the
 * mutex; were it to let the mutex go in between, a wake-up from the other
 * node in that moment would let the loser see "done and drained" while the
 * winner's store is still running.  Here the other node is attr2, whose
 * removal begins while an operation is inside it.
 */
static void self_vs_other_drain_setup(void)
{
	remove_self_setup();
	attr2 = sysfs_new_dirent("attr2", SYSFS_KOBJ_ATTR);
	mutex_lock(&sysfs_mutex);
	sysfs_link_child(dir, attr2);
	mutex_unlock(&sysfs_mutex);
}

/* Both removers inside attr before either removes it: the race needs a loser. */
static DECLARE_WAIT_QUEUE_HEAD(both_in_wq);

static void *remover_when_both_in_main(void *arg)
{
	(void)arg;
	if (!sysfs_get_active(attr))
		explore_fail("a remover could not get into the live node");
	atomic_fetch_add(&got_in, 1);
	wake_up_all(&both_in_wq);
	wait_event_desc(&both_in_wq, "the harness's remover, until both are inside", atomic_load(&got_in) == 2);
	if (sysfs_remove_self(attr)) {
		atomic_fetch_add(&winners, 1);
		sched_point();	/* the rest of the winner's store */
		atomic_store(&winner_leaving, true);
	} else {
		explore_assert(atomic_load(&winner_leaving),
			       "a sysfs_remove_self() caller that lost the claim returned while the winner's "
			       "operation was still running, woken by a put on another node: the winner must mark "
			       "the removal done and take its count back in one hold of sysfs_mutex");
	}
	sysfs_put_active(attr);
	sysfs_put(attr);	/* the close */
	return NULL;
}

/*
 * An operation on attr2 during which attr2's removal begins: the bias,
 * under sysfs_mutex, then the operation's put, which drains attr2 and
 * wakes the shared queue.
 */
static void *other_node_put_main(void *arg)
{
	(void)arg;
	if (!sysfs_get_active(attr2))
		explore_fail("the harness could not get into attr2");
	mutex_lock(&sysfs_mutex);
	sysfs_deactivate_start(attr2);
	mutex_unlock(&sysfs_mutex);
	sysfs_put_active(attr2);
	return NULL;
}

static void self_vs_other_drain_check(void)
{
	explore_assert(atomic_load(&winners) == 1, "%d of the two sysfs_remove_self() callers returned true: "
		       "exactly one must", atomic_load(&winners));
	explore_assert(atomic_read(&attr2->s_active) == SD_DEACTIVATED_BIAS,
		       "attr2's s_active is %d after its operation ended, not SD_DEACTIVATED_BIAS",
		       atomic_read(&attr2->s_active));
	remove_self_check();
}

static const struct explore_harness remove_self_vs_other_put = {
	.name = "remove-self-vs-other-put",
	.claim = "of two stores that remove their own node, the loser returns only after the winner's store "
		 "is out, even when a put on another node wakes the shared queue in between",
	.setup = self_vs_other_drain_setup,
	.tasks = {
		{ "sh", remover_when_both_in_main, NULL },
		{ "sh", remover_when_both_in_main, NULL },
		{ "cat", other_node_put_main, NULL },
	},
	.check = self_vs_other_drain_check,
};

/*
 * ---- a store that breaks and unbreaks its protection, beside a read ----
 *
 * recover_store() and SCSI's delete give their active reference back
 * (sysfs_break_active_protection()) and take it again afterwards, without
 * any lock: the unbreak's increment meets the puts of other operations on
 * the same node.  Here the read stays inside until the store has broken,
 * so that the read's put can fall inside the store's unbreak; an increment
 * split into a read and a set loses that put (or the unbreak) there.
 */
static atomic_bool store_broke;
static DECLARE_WAIT_QUEUE_HEAD(store_broke_wq);

static void break_beside_setup(void)
{
	fresh_run();
	atomic_store(&store_broke, false);
}

static void *breaking_store_main(void *arg)
{
	(void)arg;
	if (!sysfs_get_active(attr))
		explore_fail("the store could not get into the live node");
	sysfs_break_active_protection(attr);
	atomic_store(&store_broke, true);
	wake_up_all(&store_broke_wq);
	sysfs_unbreak_active_protection(attr);
	sysfs_put_active(attr);
	return NULL;
}

static void *read_beside_main(void *arg)
{
	(void)arg;
	if (!sysfs_get_active(attr))
		explore_fail("the read could not get into the live node");
	wait_event_desc(&store_broke_wq, "the harness's read, until the store has broken its protection",
			atomic_load(&store_broke));
	sysfs_put_active(attr);
	return NULL;
}

static void break_beside_check(void)
{
	explore_assert(atomic_read(&attr->s_active) == 0,
		       "s_active is %d after the store (break, unbreak, put) and the read (get, put) ended on "
		       "the live node, not 0: an increment or a decrement was lost", atomic_read(&attr->s_active));
	active_refs_back_to_zero();
}

static const struct explore_harness break_beside_read = {
	.name = "break-beside-read",
	.claim = "a store that breaks and unbreaks its active protection while a read is inside the same "
		 "node leaves the count where it found it, whatever the interleaving",
	.setup = break_beside_setup,
	.tasks = {
		{ "sh", breaking_store_main, NULL },
		{ "cat", read_beside_main, NULL },
	},
	.check = break_beside_check,
};

/*
 * ---- two removals of one file: the unplug, and sysfs_remove_file() ----
 *
 * Both shut the file and drain it, each without sysfs_mutex; the one that
 * comes back first unlinks it and drops the tree's s_count, and the close
 * of the open file may drop the last other one.  The other removal then
 * comes back to a node nobody holds, unless it took an s_count of its own
 * before letting the mutex go (kernfs_get() before kernfs_drain(), in
 * __kernfs_remove()).
 */
static struct attribute attr_named = { .name = "attr" };

static void two_removals_setup(void)
{
	fresh_run();
	unplugged.sd = dir;
	sysfs_get(attr);	/* the open file's */
}

static void *cat_then_close_main(void *arg)
{
	(void)arg;
	if (sysfs_get_active(attr)) {
		operation_body("an operation (sysfs_get_active)");
		sysfs_put_active(attr);
	}
	sysfs_put(attr);	/* the close */
	return NULL;
}

static void *remove_file_main(void *arg)
{
	(void)arg;
	sysfs_remove_file(&unplugged, &attr_named);
	return NULL;
}

static const struct explore_harness two_removals = {
	.name = "two-removals",
	.claim = "a file removed twice at once (its device's unplug and sysfs_remove_file()) while an "
		 "operation is inside is drained, unlinked and freed once, and no removal touches it after",
	.setup = two_removals_setup,
	.tasks = {
		{ "cat", cat_then_close_main, NULL },
		{ "unplug", unplug_main, NULL },
		{ "rm", remove_file_main, NULL },
	},
	.check = active_refs_back_to_zero,
};

/*
 * ---- two deleters of two nodes, draining on the one shared wait queue ----
 *
 * Every deleter sleeps on sysfs_deactivate_waitq, and a put that drains
 * one node wakes them all: a deleter woken by another node's put must test
 * its own count again and sleep on.  Each node has an operation inside,
 * held until both deleters are draining, so that the first put wakes a
 * deleter whose node is still busy.
 */
static atomic_int draining;		/* deleters past their deactivate_start */
static atomic_bool op_inside[2];	/* node i has the harness's operation inside */
static DECLARE_WAIT_QUEUE_HEAD(both_draining_wq);

static struct sysfs_dirent *node_of(void *arg)
{
	return arg ? attr2 : attr;
}

static void two_drains_setup(void)
{
	fresh_run();
	attr2 = sysfs_new_dirent("attr2", SYSFS_KOBJ_ATTR);
	mutex_lock(&sysfs_mutex);
	sysfs_link_child(dir, attr2);
	mutex_unlock(&sysfs_mutex);
	atomic_store(&draining, 0);
	atomic_store(&op_inside[0], false);
	atomic_store(&op_inside[1], false);
}

/* An operation on node arg (0: attr, 1: attr2) that stays inside until both deleters drain. */
static void *held_op_main(void *arg)
{
	struct sysfs_dirent *sd = node_of(arg);

	if (!sysfs_get_active(sd))
		return NULL;	/* its deleter came first: nothing inside */
	atomic_store(&op_inside[arg != NULL], true);
	wait_event_desc(&both_draining_wq, "the harness's operation, until both deleters drain",
			atomic_load(&draining) == 2);
	atomic_store(&op_inside[arg != NULL], false);
	sysfs_put_active(sd);
	return NULL;
}

static void *drain_main(void *arg)
{
	struct sysfs_dirent *sd = node_of(arg);

	mutex_lock(&sysfs_mutex);
	sysfs_deactivate_start(sd);
	mutex_unlock(&sysfs_mutex);
	atomic_fetch_add(&draining, 1);
	wake_up_all(&both_draining_wq);
	sysfs_deactivate(sd);
	explore_assert(!atomic_load(&op_inside[arg != NULL]),
		       "sysfs_deactivate() of %s returned while an operation was still inside it: the put on "
		       "the other node woke every deleter on the shared queue, and this one did not test its "
		       "own count again before returning (sleep in a loop, while, not once, if)", sd->s_name);
	return NULL;
}

static void two_drains_check(void)
{
	explore_assert(atomic_read(&attr->s_active) == SD_DEACTIVATED_BIAS &&
		       atomic_read(&attr2->s_active) == SD_DEACTIVATED_BIAS,
		       "s_active is %d and %d after both drains, not SD_DEACTIVATED_BIAS: a count was lost or kept",
		       atomic_read(&attr->s_active), atomic_read(&attr2->s_active));
	active_refs_back_to_zero();
}

static const struct explore_harness two_drains = {
	.name = "two-drains",
	.claim = "two deleters draining two nodes at once, each with an operation inside, each return only "
		 "once their own node's operation is out",
	.setup = two_drains_setup,
	.tasks = {
		{ "cat", held_op_main, NULL },
		{ "cat", held_op_main, (void *)1 },
		{ "deleter", drain_main, NULL },
		{ "deleter", drain_main, (void *)1 },
	},
	.check = two_drains_check,
	/*
	 * Four tasks, each blocking and woken on one shared queue, make a
	 * large tree: 454,275 schedules with one preemption (about 150
	 * CPU-seconds, half of explore-stage4's budget) and more than the
	 * cap's 2,000,000 with two.  The bug it is for, a drain that sleeps
	 * once, needs no preemption (dfs:0 finds it at the tenth schedule);
	 * PCT tries preemptions beside it, and check-stage4 the first 20,000
	 * schedules of dfs:1.
	 */
	.explore_dfs = "dfs:0",
	.explore_dfs_why = "454,275 schedules with one preemption, over 2,000,000 with two",
};

/*
 * ---- the PCI remove file vs a surprise removal: lockdep's cycle, run ----
 *
 * The chapter "Seeing a deadlock before it happens: lockdep": lockdep
 * reports pci_rescan_remove_lock against the remove
 * file's s_active.  This harness asks whether a schedule really hangs, and
 * one does, in kernfs's order too: the store holds its active reference;
 * the removal, under pci_rescan_remove_lock, shuts "remove" and drains it,
 * waiting for the store; the store's remove_self takes sysfs_mutex and
 * breaks (the count reaches the bias and wakes the removal), removes the
 * node and takes its count back before the woken removal has looked; the
 * removal sleeps on, and the store waits for pci_rescan_remove_lock.  The
 * kernel's PCI store has the same cycle (its remove attribute is
 * DEVICE_ATTR_IGNORE_LOCKDEP, so lockdep never says so there), and the
 * grade requires the explorer to find it.  The SCSI/s390 store below,
 * which breaks by hand across its whole removal, has no such schedule.
 */

static struct file *pci_remove_file;

/*
 * lockdep off: it reports the cycle from any one schedule (the lockdep
 * chapter);
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
	.yours = "sysfs_get_active(), sysfs_put_active(), sysfs_deactivate_start(), sysfs_deactivate() "
		 "and sysfs_remove_self()",
};

/*
 * ---- the same race with SCSI's and s390's store: no schedule hangs ----
 *
 * recover_store() (code/stage4/pci.c) breaks its protection by hand and
 * keeps it broken while it waits for pci_rescan_remove_lock, so the
 * removal's drain never waits for it.  Every schedule with a preemption
 * and the PCT runs must end with pci0 removed once and both tasks out.
 */
static struct file *pci_recover_file;

static void pci_recover_setup(void)
{
	lockdep_set_enabled(false);
	if (pci_plug("pci0", &dev_attr_recover) ||
	    vfs_open("/sys/devices/pci0/recover", VFS_WRITE, &pci_recover_file))
		explore_fail("the harness could not plug pci0 and open its recover file");
}

/* "echo 1 > /sys/devices/pci0/recover", its file opened before the race. */
static void *echo_recover_main(void *arg)
{
	(void)arg;
	vfs_write(pci_recover_file, "1", 1);
	vfs_close(pci_recover_file);
	return NULL;
}

static const struct explore_harness recover_vs_surprise = {
	.name = "recover-vs-surprise-removal",
	.claim = "a write to a PCI device's recover file (broken by hand across the removal, as SCSI's "
		 "delete and s390's recover do) and a surprise removal of the card, together, remove the "
		 "device once, both return, and nothing hangs",
	.setup = pci_recover_setup,
	.tasks = {
		{ "sh", echo_recover_main, NULL },
		{ "pciehp", surprise_removal_main, NULL },
	},
	.check = pci_remove_check,
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
}
END_TEST

static const struct explore_harness *const harnesses[] = {
	&get_vs_deactivate, &op_vs_unplug, &remove_self_race, &read_vs_unplug, &reads_held,
	&remove_vs_surprise, &recover_vs_surprise, &two_drains, &break_beside_read,
	&remove_self_vs_other_put, &two_removals,
};

START_TEST(remove_vs_surprise_removal_deadlocks_on_some_schedule)
{
	explore_expect_bug(&remove_vs_surprise, boot_once);
}
END_TEST

/*
 * Four tasks make explore_grade()'s plan (every schedule with a preemption,
 * then PCT) cost 15 s; every schedule without a preemption (2136, about a
 * second) already shows a drain that sleeps once, at the tenth.
 */
START_TEST(two_drains_on_the_shared_queue_on_every_schedule)
{
	struct explore_opts o = { .strategy = "dfs:0", .runs = 20000, .quiet = true };
	struct explore_result r;
	char msg[12000];

	explore_boot_hook = boot_once;
	if (explore(&two_drains, &o, &r) != 0) {
		ck_assert_msg(!strstr(r.output, "TODO("), "exercise not done yet: %s", strstr(r.output, "TODO("));
		explore_describe(&two_drains, &r, msg, sizeof(msg));
		ck_abort_msg("%s", msg);
	}
	ck_assert_msg(r.exhausted, "the two-drains harness ran %ld schedules without exhausting dfs:0", r.runs);
}
END_TEST

START_TEST(recover_vs_surprise_removal_on_every_schedule)
{
	explore_grade(&recover_vs_surprise, boot_once);
}
END_TEST

START_TEST(break_beside_read_on_every_schedule)
{
	explore_grade(&break_beside_read, boot_once);
}
END_TEST

START_TEST(remove_self_vs_a_put_on_another_node_on_every_schedule)
{
	explore_grade(&remove_self_vs_other_put, boot_once);
}
END_TEST

START_TEST(two_removals_of_one_file_on_every_schedule)
{
	explore_grade(&two_removals, boot_once);
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
	tcase_add_test(tc, break_beside_read_on_every_schedule);
	tcase_add_test(tc, remove_self_vs_a_put_on_another_node_on_every_schedule);
	tcase_add_test(tc, two_removals_of_one_file_on_every_schedule);
	tcase_add_test(tc, two_drains_on_the_shared_queue_on_every_schedule);
	tcase_add_test(tc, remove_vs_surprise_removal_deadlocks_on_some_schedule);
	tcase_add_test(tc, recover_vs_surprise_removal_on_every_schedule);
	tcase_add_test(tc, a_task_that_spins_is_reported_as_a_soft_lockup);
	return explore_test_main(argc, argv, boot_once, harnesses, ARRAY_SIZE(harnesses), s);
}
