/* active_harness.h - schedule-exploration harnesses for the active reference, shared by stages 3 and 4. */
#ifndef KTEST_ACTIVE_HARNESS_H
#define KTEST_ACTIVE_HARNESS_H

#include <stdatomic.h>
#include <string.h>
#include "active_tree.h"
#include "explore.h"
#include "naive_harness.h"
#include "ktest.h"
#include "scheduler.h"

/*
 * The tree is /sys/devices/dev0/attr (active_tree.h), built once; every
 * run of a harness starts from a copy of it in a process of its own.  The
 * harness's own flags are plain C11 atomics, not atomic_t: they observe
 * the protocol, they are not part of it, so they are no schedule points.
 */
static atomic_bool deleted;		/* the deletion (drain) has returned */
static atomic_int inside;		/* operations between their get and their put */

static void boot_once(void)
{
	static bool booted;

	if (!booted)
		boot_active_kernel();
	booted = true;
}

/* Every run: a fresh tree, and the harness's flags back to the start. */
static void fresh_run(void)
{
	build_active_tree();
	atomic_store(&deleted, false);
	atomic_store(&inside, 0);
}

/* An operation's body: something to interrupt, and the claim checked at both ends. */
static void operation_body(const char *what)
{
	explore_assert(!atomic_load(&deleted), "%s got in after the deletion's drain had returned: the "
		       "deleter may already have freed what the operation uses (a use-after-free)", what);
	atomic_fetch_add(&inside, 1);
	sched_point();
	explore_assert(!atomic_load(&deleted), "the deletion's drain returned while %s was still inside "
		       "(between its get and its put)", what);
	atomic_fetch_sub(&inside, 1);
}

/* ---- get vs deactivate: operations on attr, and its deactivation ---- */

static void *reader_main(void *arg)
{
	(void)arg;
	for (int i = 0; i < 2; i++) {
		if (!sysfs_get_active(attr))
			break;	/* -ENODEV: fine, the node is going */
		operation_body("an operation (sysfs_get_active)");
		sysfs_put_active(attr);
	}
	return NULL;
}

static void *deactivator_main(void *arg)
{
	(void)arg;
	mutex_lock(&sysfs_mutex);
	sysfs_deactivate_start(attr);	/* stage 4: the bias, as a removal adds it; stage 3: nothing */
	mutex_unlock(&sysfs_mutex);
	sysfs_deactivate(attr);
	atomic_store(&deleted, true);
	explore_assert(atomic_load(&inside) == 0, "sysfs_deactivate() returned with %d operation(s) inside",
		       atomic_load(&inside));
	explore_assert(sysfs_get_active(attr) == NULL, "sysfs_get_active() succeeded after sysfs_deactivate()");
	return NULL;
}

static void active_refs_back_to_zero(void)
{
	long held = percpu_counter_sum(&sysfs_active_refs);

	explore_assert(held == 0, "%ld active reference(s) still held after every task ended (a get without "
		       "a put, or a put lost)", held);
}

static const struct explore_harness get_vs_deactivate = {
	.name = "get-vs-deactivate",
	.claim = "no operation gets in after a deactivation has drained, and the drain waits for every "
		 "operation inside, whatever the interleaving",
	.setup = fresh_run,
	.tasks = {
		{ "reader", reader_main, NULL },
		{ "reader", reader_main, NULL },
		{ "deleter", deactivator_main, NULL },
	},
	.check = active_refs_back_to_zero,
};

/* ---- an attribute's operation vs its device's unplug (sysfs_remove_dir) ---- */

static struct kobject unplugged;	/* only its sd: what sysfs_remove_dir() reads */

static void op_setup(void)
{
	fresh_run();
	unplugged.sd = dir;
	sysfs_get(attr);	/* the two open files' s_counts: they were opened before the race */
	sysfs_get(attr);
}

static void *op_main(void *arg)
{
	struct sysfs_dirent *sd;

	(void)arg;
	sd = sysfs_get_active_op(attr);
	if (sd) {
		operation_body("an attribute's operation (sysfs_get_active_op)");
		sysfs_put_active_op(sd);
	}
	sysfs_put(attr);	/* the close */
	return NULL;
}

static void *unplug_main(void *arg)
{
	(void)arg;
	sysfs_remove_dir(&unplugged);
	atomic_store(&deleted, true);
	return NULL;
}

static const struct explore_harness op_vs_unplug = {
	.name = "op-vs-unplug",
	.claim = "when the device's directory is removed, no attribute operation is inside it or gets in "
		 "afterwards, and nothing waits for ever",
	.setup = op_setup,
	.tasks = {
		{ "cat", op_main, NULL },
		{ "cat", op_main, NULL },
		{ "unplug", unplug_main, NULL },
	},
	.check = active_refs_back_to_zero,
};

/* Stage 1's use-after-free, and the paths no other test takes: closed from stage 3 on, on every schedule. */
static const struct explore_harness read_vs_unplug = NAIVE_READ_VS_UNPLUG(NULL, NULL);
static const struct explore_harness reads_held = NAIVE_READS_HELD_ACROSS_UNPLUG(NULL, NULL);

START_TEST(get_vs_deactivate_on_every_schedule)
{
	explore_grade(&get_vs_deactivate, boot_once);
}
END_TEST

START_TEST(op_vs_unplug_on_every_schedule)
{
	explore_grade(&op_vs_unplug, boot_once);
}
END_TEST

START_TEST(read_vs_unplug_on_every_schedule)
{
	explore_grade(&read_vs_unplug, boot_once);
}
END_TEST

START_TEST(reads_held_across_unplug_on_every_schedule)
{
	explore_grade(&reads_held, boot_once);
}
END_TEST

/* add_active_cases - the cases every stage with an active reference grades. */
static void add_active_cases(TCase *tc)
{
	tcase_add_test(tc, get_vs_deactivate_on_every_schedule);
	tcase_add_test(tc, op_vs_unplug_on_every_schedule);
	tcase_add_test(tc, read_vs_unplug_on_every_schedule);
	tcase_add_test(tc, reads_held_across_unplug_on_every_schedule);
}

#endif
