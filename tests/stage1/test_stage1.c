/* test_stage1.c - stage 1's claims: an open file pins the kobject, and what that costs. */
#include <stdlib.h>
#include <string.h>
#include <kobject.h>
#include "ktest.h"
#include "exercise.h"
#include "task.h"

#define SCEN "code/scenarios/"

/* ---- the exercises, called directly ---- */

static int releases;
static void count_release(struct kobject *kobj)
{
	(void)kobj;
	releases++;
}
static const struct kobj_type counting_ktype = { .release = count_release };

/* Fail naming the exercise whose stub ran, if one did (at the caller's line). */
#define assert_no_todo() ck_assert_exercises_done("exercises/stage1/")

START_TEST(kobject_get_takes_a_reference)
{
	struct kobject kobj;

	task_init_main("test");
	kobject_init(&kobj, &counting_ktype);
	ck_assert_ptr_eq(kobject_get(&kobj), &kobj);
	assert_no_todo();
	ck_assert_msg(kref_read(&kobj.kref) == 2,
		      "after kobject_init() and one kobject_get() the count is %d, want 2", kref_read(&kobj.kref));
	ck_assert_ptr_null(kobject_get(NULL));
}
END_TEST

START_TEST(kobject_put_releases_on_the_last_reference_only)
{
	struct kobject kobj;

	task_init_main("test");
	kobject_init(&kobj, &counting_ktype);
	kref_get(&kobj.kref);		/* a second holder, without the exercise's help */
	kobject_put(&kobj);
	assert_no_todo();
	ck_assert_msg(kref_read(&kobj.kref) == 1, "kobject_put() left the count at %d, want 1",
		      kref_read(&kobj.kref));
	ck_assert_msg(releases == 0, "kobject_put() of one of two references called release(): only the put "
		      "that drops the last one may");
	kobject_put(&kobj);
	ck_assert_msg(releases == 1, "the last kobject_put() must call release() once; it ran %d times", releases);
	kobject_put(NULL);
}
END_TEST

/*
 * Two tasks changing the count at once: test_explore's get-vs-get,
 * put-vs-put and get-vs-put, under the controlled scheduler, where the
 * window between a read and a write of the count opens on every run.
 */

/* ---- the scenarios, through ksim ---- */

START_TEST(naive_driver_read_after_unplug_is_a_use_after_free)
{
	struct ksim_run r;

	ksim_run(&r, SCEN "mouse-naive-uaf.ksh", true, NULL, 20);
	ck_assert_no_todo(&r);
	ck_assert_status(&r, 3);
#ifdef __SANITIZE_THREAD__
	/*
	 * ThreadSanitizer sees the same bug as a race (the free against the
	 * reader's earlier access) when the tasks run at once; under the
	 * controlled scheduler its hand-offs order them, and the simulated
	 * report comes first.  Either way the bug is reported.
	 */
	if (strstr(r.err, "ThreadSanitizer: data race")) {
		ck_assert_said(&r, "mouse_naive_unplug");
	} else
#endif
	{
		ck_assert_said(&r, "use-after-free");
		ck_assert_said(&r, "mouse");
	}
	/* The trace shows why: the mouse was freed while the file still held its kobject. */
	ck_assert_int_eq(trace_count(r.trace, "free", "kobject:mouse0"), 1);
	ck_assert_int_eq(trace_count(r.trace, "close", NULL), 1);	/* the first cat only */
	ksim_run_free(&r);
}
END_TEST

START_TEST(pinned_kobject_survives_unplug_and_is_released_after_close)
{
	struct ksim_run r;
	long closed, released, freed;

	ksim_run(&r, SCEN "mouse-pinned.ksh", true, NULL, 20);
	ck_assert_no_todo(&r);
	ck_assert_status(&r, 0);
	ck_assert_msg(strstr(r.out, "3\n"), "the read after unplug should still print 3 (mouse_unplug() must leave "
		      "the mouse to mouse_release()):\n%s", r.out);
	ck_assert_msg(trace_count(r.trace, "release", "kobject:mouse0") == 1,
		      "release of kobject:mouse0 ran %d times, want exactly once (the last kobject_put() calls it)",
		      trace_count(r.trace, "release", "kobject:mouse0"));
	/* Every reference of the story is in the trace the figures are drawn from: two opens' gets, their two closes' puts and the unplug's. */
	ck_assert_msg(trace_count(r.trace, "get", "kobject:mouse0") == 2 && trace_count(r.trace, "put", "kobject:mouse0") == 3,
		      "the trace has %d gets and %d puts of kobject:mouse0, want 2 and 3 (kobject_get() and "
		      "kobject_put() each write one event):\n%s", trace_count(r.trace, "get", "kobject:mouse0"),
		      trace_count(r.trace, "put", "kobject:mouse0"), r.trace);
	closed = trace_seq(r.trace, "close", "file:/sys/devices/mouse0/clicks#2", 1);
	released = trace_seq(r.trace, "release", "kobject:mouse0", 1);
	freed = trace_seq(r.trace, "free", "kobject:mouse0", 1);
	ck_assert_msg(closed && released > closed,
		      "release ran (event %ld) before the reader closed its file (event %ld): the open file's "
		      "reference must keep it, so kobject_put() releases on the last reference only", released, closed);
	ck_assert_msg(freed, "release() ran (event %ld) but the mouse was never freed: mouse_release() must kfree() it",
		      released);
	ck_assert_msg(freed > released, "the mouse must be freed by mouse_release(), not before: mouse_unplug() "
		      "must not kfree() it (free %ld, release %ld)",
		      freed, released);
	ksim_run_free(&r);
}
END_TEST

START_TEST(release_in_an_unloaded_module_oopses_at_last_close)
{
	struct ksim_run r;

	ksim_run(&r, SCEN "mouse-release-unloaded.ksh", false, NULL, 20);
	ck_assert_no_todo(&r);
	ck_assert_status(&r, 3);
	ck_assert_said(&r, "BUG: unable to handle page fault");
	ck_assert_said(&r, "mouse_release");
	ck_assert_said(&r, "unloaded");
	ksim_run_free(&r);
}
END_TEST

START_TEST(seed_example1_callback_runs_in_unloaded_scsi_mod)
{
	struct ksim_run r;

	ksim_run(&r, SCEN "seed-example1.ksh", false, NULL, 20);
	ck_assert_no_todo(&r);
	ck_assert_status(&r, 3);
	ck_assert_said(&r, "kworker/0:1");
	ck_assert_said(&r, "scsi_device_delete_cb");
	ck_assert_said(&r, "sysfs_schedule_callback_work");
	ck_assert_said(&r, "process_one_work");
	ksim_run_free(&r);
}
END_TEST

START_TEST(seed_example2_last_close_reaches_unloaded_libata)
{
	struct ksim_run r;

	ksim_run(&r, SCEN "seed-example2.ksh", false, NULL, 20);
	ck_assert_no_todo(&r);
	ck_assert_status(&r, 3);
	ck_assert_said(&r, "scsi_host_dev_release");
	ck_assert_said(&r, "libata");
	ck_assert_said(&r, "vfs_close");
	ksim_run_free(&r);
}
END_TEST

START_TEST(same_scenario_twice_gives_the_same_trace)
{
	static const char *const scripts[] = { SCEN "mouse-pinned.ksh", SCEN "seed-example2.ksh" };

	for (size_t i = 0; i < ARRAY_SIZE(scripts); i++)
		ksim_assert_same_trace_twice(scripts[i], NULL, true);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("stage1");
	TCase *tc;

	tc = ktest_case(s, "exercises", 10);
	tcase_add_test(tc, kobject_get_takes_a_reference);
	tcase_add_test(tc, kobject_put_releases_on_the_last_reference_only);
	tc = ktest_case(s, "scenarios", 30);
	tcase_add_test(tc, naive_driver_read_after_unplug_is_a_use_after_free);
	tcase_add_test(tc, pinned_kobject_survives_unplug_and_is_released_after_close);
	tcase_add_test(tc, release_in_an_unloaded_module_oopses_at_last_close);
	tcase_add_test(tc, seed_example1_callback_runs_in_unloaded_scsi_mod);
	tcase_add_test(tc, seed_example2_last_close_reaches_unloaded_libata);
	tcase_add_test(tc, same_scenario_twice_gives_the_same_trace);
	return ktest_main(s);
}
