/* test_active.c - the active reference, called directly: the exercises and their classic mistakes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/wait.h>
#include "delay.h"
#include <device.h>
#include "exercise.h"
#include "ktest.h"
#include "oops.h"
#include <sysfs_internal.h>
#include "task.h"
#include "task_wait.h"
#include "trace.h"
#include "vfs.h"
#include "watchdog.h"

#include "active_tree.h"

static void boot(void)
{
	boot_active_tree();
}

/* Read side holders of sd's s_active right now. */
static int readers(struct sysfs_dirent *sd)
{
	int n;

	pthread_mutex_lock(&sd->s_active.lock);
	n = sd->s_active.readers;
	pthread_mutex_unlock(&sd->s_active.lock);
	return n;
}

static bool writer_in(struct sysfs_dirent *sd)
{
	bool w;

	pthread_mutex_lock(&sd->s_active.lock);
	w = sd->s_active.writer;
	pthread_mutex_unlock(&sd->s_active.lock);
	return w;
}

/* Fail naming the exercise whose stub ran, if one did (at the caller's line). */
#define assert_no_todo() ck_assert_exercises_done("exercises/stage3/sysfs_active.c")

/* ---- deactivation from another task, so the test can watch it wait ---- */

static atomic_bool deactivated;

static void *deactivate_main(void *arg)
{
	sysfs_deactivate(arg);
	atomic_store(&deactivated, true);
	return NULL;
}

/*
 * Wait up to ms for the deleting task to be blocked in down_write, or to
 * have returned (a build that does not wait: the caller asserts on it).
 */
static bool writer_waits(struct sysfs_dirent *sd, long ms)
{
	long end = task_wait_now_ms() + ms;
	bool waiting = false;

	while (!waiting && !atomic_load(&deactivated) && task_wait_now_ms() < end) {
		pthread_mutex_lock(&sd->s_active.lock);
		waiting = sd->s_active.writers_waiting > 0;
		pthread_mutex_unlock(&sd->s_active.lock);
		if (!waiting)
			msleep(1);
	}
	return waiting;
}

START_TEST(get_active_counts_one_operation_and_put_active_ends_it)
{
	boot();
	ck_assert_ptr_eq(sysfs_get_active(attr), attr);
	assert_no_todo();
	ck_assert_msg(readers(attr) == 1,
		      "sysfs_get_active() must take s_active for reading (down_read_trylock): %d readers, want 1",
		      readers(attr));
	sysfs_put_active(attr);
	assert_no_todo();
	ck_assert_msg(readers(attr) == 0, "sysfs_put_active() must give the read side back (up_read): "
		      "%d readers left", readers(attr));
}
END_TEST

START_TEST(deleted_node_get_active_fails)
{
	boot();
	sysfs_deactivate(attr);
	assert_no_todo();
	ck_assert_msg(writer_in(attr), "sysfs_deactivate() must take s_active for writing (down_write) and keep it");
	ck_assert_msg(sysfs_get_active(attr) == NULL,
		      "sysfs_get_active() succeeded on a deleted node: an operation after deletion would "
		      "reach the kobject; it must fail (down_read_trylock returns 0 then)");
	assert_no_todo();
	ck_assert_msg(readers(attr) == 0, "a failed sysfs_get_active() must not count a reader");
}
END_TEST

START_TEST(deactivate_waits_for_the_operation_in_flight)
{
	struct task_struct *t;

	boot();
	ck_assert_ptr_eq(sysfs_get_active(attr), attr);	/* an operation in flight */
	t = kthread_run(deactivate_main, attr, "rmmod");
	ck_assert_msg(writer_waits(attr, 2000) || atomic_load(&deactivated),
		      "the deleting task neither waited nor finished");
	/* Blocked in down_write behind our read side, it cannot return before our put. */
	assert_no_todo();
	ck_assert_msg(!atomic_load(&deactivated),
		      "sysfs_deactivate() returned while an operation still held its active reference: "
		      "the driver would now free what that operation is using (down_write waits for readers)");
	/* New operations are refused while deletion waits, and without sleeping. */
	ck_assert_msg(sysfs_get_active(attr) == NULL,
		      "sysfs_get_active() succeeded while a deletion was waiting: with a stream of "
		      "operations the deletion would wait for ever");
	sysfs_put_active(attr);
	kthread_join(t);
	ck_assert_msg(atomic_load(&deactivated), "sysfs_deactivate() did not return after the last put");
	ck_assert_msg(sysfs_get_active(attr) == NULL,
		      "sysfs_deactivate(): the node must stay deactivated: never up_write()");
}
END_TEST

/* ---- the two-node helpers: order and failure paths, from the trace ---- */

static char tracefile[] = "/tmp/ktest-active-XXXXXX";

static char *read_trace(void)
{
	FILE *f;
	char *text;
	long n;

	trace_close();
	f = fopen(tracefile, "r");
	ck_assert_ptr_nonnull(f);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	text = calloc(1, n + 1);
	ck_assert_int_eq(fread(text, 1, n, f), n);
	fclose(f);
	unlink(tracefile);
	return text;
}

static void trace_to_file(void)
{
	int fd = mkstemp(tracefile);

	ck_assert_int_ge(fd, 0);
	close(fd);
	ck_assert_int_eq(trace_open(tracefile), 0);
}

START_TEST(active_two_takes_the_parent_first_and_releases_it_last)
{
	char *tr;
	long pget, cget, cput, pput;

	boot();
	trace_to_file();
	ck_assert_ptr_eq(sysfs_get_active_two(attr), attr);
	assert_no_todo();
	ck_assert_msg(readers(dir) == 1 && readers(attr) == 1,
		      "sysfs_get_active_two() must hold both nodes' active references (parent %d, node %d)",
		      readers(dir), readers(attr));
	sysfs_put_active_two(attr);
	assert_no_todo();
	ck_assert_msg(readers(dir) == 0 && readers(attr) == 0,
		      "sysfs_put_active_two() must drop both (parent %d, node %d left)", readers(dir), readers(attr));
	tr = read_trace();
	pget = trace_seq(tr, "active_get", dir->trace_name, 1);
	cget = trace_seq(tr, "active_get", attr->trace_name, 1);
	cput = trace_seq(tr, "active_put", attr->trace_name, 1);
	pput = trace_seq(tr, "active_put", dir->trace_name, 1);
	ck_assert_msg(pget && cget && pget < cget,
		      "sysfs_get_active_two(): the parent's active reference must be taken first (trace: parent at %ld, "
		      "node at %ld)",
		      pget, cget);
	ck_assert_msg(cput && pput && cput < pput,
		      "sysfs_put_active_two(): the parent's active reference must be released last, after the node's: "
		      "released the parent before the child (trace: node put at %ld, parent put at %ld)", cput, pput);
	free(tr);
}
END_TEST

START_TEST(active_two_fails_whole_when_the_node_is_deleted)
{
	struct sysfs_dirent *got;

	boot();
	sysfs_deactivate(attr);
	got = sysfs_get_active_two(attr);
	assert_no_todo();
	ck_assert_msg(got == NULL, "sysfs_get_active_two() succeeded on a deleted attribute");
	ck_assert_msg(readers(dir) == 0, "sysfs_get_active_two() failed but kept the parent's active reference: "
		      "the directory can never be deleted now (give back what you took)");
}
END_TEST

START_TEST(active_two_fails_whole_when_the_parent_is_deleted)
{
	struct sysfs_dirent *got;

	boot();
	sysfs_deactivate(dir);
	got = sysfs_get_active_two(attr);
	assert_no_todo();
	ck_assert_msg(got == NULL, "sysfs_get_active_two() succeeded although the kobject's directory is deleted");
	ck_assert_msg(readers(attr) == 0, "sysfs_get_active_two() failed but kept the node's active reference");
}
END_TEST

/*
 * A node without a parent (not linked into the tree yet, or the root):
 * there is no parent's reference to take, and the node's own is enough.
 * A solution that takes the parent's without looking dereferences NULL.
 */
START_TEST(active_two_of_a_node_without_a_parent_takes_only_its_own)
{
	struct sysfs_dirent *lone;

	boot();
	lone = sysfs_new_dirent("lone", SYSFS_KOBJ_ATTR);
	ck_assert_ptr_null(lone->s_parent);
	ck_assert_msg(sysfs_get_active_two(lone) == lone,
		      "sysfs_get_active_two() of a node without a parent must succeed with the node's own "
		      "active reference (take the parent's only if sd->s_parent)");
	assert_no_todo();
	ck_assert_msg(readers(lone) == 1, "sysfs_get_active_two() of a node without a parent: %d readers, want 1",
		      readers(lone));
	sysfs_put_active_two(lone);
	assert_no_todo();
	ck_assert_msg(readers(lone) == 0, "sysfs_put_active_two() left %d readers on a node without a parent",
		      readers(lone));
	sysfs_put(lone);
}
END_TEST

/* ---- stage_verify: the RFD's check finds what was left behind ---- */

static int releases;
static void count_release(struct kobject *kobj)
{
	(void)kobj;
	releases++;
}
static const struct kobj_type counting_ktype = { .release = count_release };

START_TEST(stage_verify_reports_a_deleted_kobject_still_referenced)
{
	struct kobject kobj;

	boot();
	kobject_init(&kobj, &counting_ktype);
	ck_assert_int_eq(kobject_add(&kobj, NULL, "leaky0"), 0);
	kobject_del(&kobj);
	assert_no_todo();
	ck_assert_msg(stage_verify() != 0, "stage_verify() missed a deleted kobject that was never released");
	kobject_put(&kobj);
	ck_assert_int_eq(releases, 1);
	ck_assert_msg(stage_verify() == 0, "stage_verify() still complains after the last put");
}
END_TEST

START_TEST(stage_verify_reports_a_removed_node_still_open)
{
	struct kobject kobj;
	struct attribute a = { .name = "value", .mode = 0444 };
	static const struct sysfs_ops ops = { 0 };
	static const struct kobj_type ktype = { .release = count_release, .sysfs_ops = &ops };
	struct sysfs_dirent *sd;

	boot();
	kobject_init(&kobj, &ktype);
	ck_assert_int_eq(kobject_add(&kobj, NULL, "open0"), 0);
	ck_assert_int_eq(sysfs_create_file(&kobj, &a), 0);
	mutex_lock(&sysfs_mutex);
	sd = sysfs_lookup("/sys/devices/open0/value");	/* what an open file holds */
	mutex_unlock(&sysfs_mutex);
	ck_assert_ptr_nonnull(sd);
	kobject_del(&kobj);
	kobject_put(&kobj);
	assert_no_todo();
	ck_assert_msg(releases == 1, "deleting the directory must not wait for the s_count of an open file");
	ck_assert_msg(stage_verify() != 0, "stage_verify() missed a removed node whose memory is still held");
	sysfs_put(sd);
	ck_assert_msg(stage_verify() == 0, "stage_verify() still complains after the last s_count went");
}
END_TEST

/* The last s_count of a node with a reader in s_active: destroy_rwsem() must BUG. */
START_TEST(a_node_freed_with_an_operation_inside_is_a_bug)
{
	char msg[8192 + 256];
	const char *failure = busy_free_failure(boot, "(a reader in s_active) must end in destroy_rwsem()'s "
						"BUG_ON, from sysfs_active_destroy()", msg, sizeof(msg));

	ck_assert_msg(!failure, "%s", failure);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("stage3-active");
	TCase *tc;

	tc = ktest_case(s, "exercises", 10);
	tcase_add_checked_fixture(tc, NULL, fail_if_warned);
	tcase_add_test(tc, get_active_counts_one_operation_and_put_active_ends_it);
	tcase_add_test(tc, deleted_node_get_active_fails);
	tcase_add_test(tc, deactivate_waits_for_the_operation_in_flight);
	tcase_add_test(tc, active_two_takes_the_parent_first_and_releases_it_last);
	tcase_add_test(tc, active_two_fails_whole_when_the_node_is_deleted);
	tcase_add_test(tc, active_two_fails_whole_when_the_parent_is_deleted);
	tcase_add_test(tc, active_two_of_a_node_without_a_parent_takes_only_its_own);
	tcase_add_test(tc, a_node_freed_with_an_operation_inside_is_a_bug);
	tc = ktest_case(s, "verify", 10);
	tcase_add_test(tc, stage_verify_reports_a_deleted_kobject_still_referenced);
	tcase_add_test(tc, stage_verify_reports_a_removed_node_still_open);
	return ktest_main(s);
}
