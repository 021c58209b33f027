/* test_stage1.c - stage 1's claims: an open file pins the kobject, and what that costs. */
#include <sched.h>
#include <stdatomic.h>
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
	ck_assert_msg(releases == 0, "release() ran while a reference was still held");
	kobject_put(&kobj);
	ck_assert_msg(releases == 1, "the last kobject_put() must call release() once; it ran %d times", releases);
	kobject_put(NULL);
}
END_TEST

/*
 * Two tasks drop the last two references of an object at the same moment,
 * many times over: exactly one of them must release it, every time.  A
 * put that looks at the count and then decrements it (instead of one
 * atomic decrement that says whether it reached zero) lets both see 2, or
 * both see 1.
 */
#define RACE_ROUNDS 20000
struct counted {
	struct kobject kobj;
	atomic_int released;
};
static void counted_release(struct kobject *kobj)
{
	atomic_fetch_add(&container_of(kobj, struct counted, kobj)->released, 1);
}
static const struct kobj_type counted_ktype = { .release = counted_release };
static struct counted *race_objs;
static atomic_int race_arrived;

/*
 * race_arrive - both racers reach round i, then go on as close together as
 * two CPUs can: each spins for the other, and yields only when the other
 * is plainly not running (a busy machine), where a spin would burn the
 * time slice it waits for.
 */
static void race_arrive(int i)
{
	atomic_fetch_add(&race_arrived, 1);
	for (int spins = 0; atomic_load(&race_arrived) < 2 * (i + 1); spins++)
		if (spins > 10000)
			sched_yield();
}

static void *race_putter(void *arg)
{
	(void)arg;
	for (int i = 0; i < RACE_ROUNDS; i++) {
		race_arrive(i);
		kobject_put(&race_objs[i].kobj);
	}
	return NULL;
}

START_TEST(kobject_put_from_two_tasks_at_once_releases_exactly_once)
{
	struct task_struct *t[2];
	int none = 0, twice = 0;

	task_init_main("test");
	race_objs = calloc(RACE_ROUNDS, sizeof(*race_objs));
	for (int i = 0; i < RACE_ROUNDS; i++) {
		kobject_init(&race_objs[i].kobj, &counted_ktype);
		kref_get(&race_objs[i].kobj.kref);	/* two holders, without the exercise's help */
	}
	atomic_store(&race_arrived, 0);
	for (int k = 0; k < 2; k++)
		t[k] = kthread_run(race_putter, NULL, "putter%d", k);
	for (int k = 0; k < 2; k++)
		kthread_join(t[k]);
	assert_no_todo();
	for (int i = 0; i < RACE_ROUNDS; i++) {
		none += atomic_load(&race_objs[i].released) == 0;
		twice += atomic_load(&race_objs[i].released) > 1;
	}
	free(race_objs);
	ck_assert_msg(none == 0 && twice == 0,
		      "kobject_put() from two tasks dropping the last two references at once: %d of %d objects "
		      "were never released, %d released more than once; the decrement and the test for zero must "
		      "be one atomic step "
		      "(the value atomic_fetch_sub() returns), not a read followed by a decrement",
		      none, RACE_ROUNDS, twice);
}
END_TEST

/*
 * The same race for kobject_get(): a get that reads the count and then
 * writes it back one higher loses one of two gets made at once, and the
 * object is later released while a holder still uses it.
 */
static void *race_getter(void *arg)
{
	(void)arg;
	for (int i = 0; i < RACE_ROUNDS; i++) {
		race_arrive(i);
		kobject_get(&race_objs[i].kobj);
	}
	return NULL;
}

START_TEST(kobject_get_from_two_tasks_at_once_counts_both)
{
	struct task_struct *t[2];
	int lost = 0;

	task_init_main("test");
	race_objs = calloc(RACE_ROUNDS, sizeof(*race_objs));
	for (int i = 0; i < RACE_ROUNDS; i++)
		kobject_init(&race_objs[i].kobj, &counted_ktype);
	atomic_store(&race_arrived, 0);
	for (int k = 0; k < 2; k++)
		t[k] = kthread_run(race_getter, NULL, "getter%d", k);
	for (int k = 0; k < 2; k++)
		kthread_join(t[k]);
	assert_no_todo();
	for (int i = 0; i < RACE_ROUNDS; i++)
		lost += kref_read(&race_objs[i].kobj.kref) != 3;
	free(race_objs);
	ck_assert_msg(lost == 0,
		      "two tasks taking a reference at once: %d of %d objects did not count both gets; "
		      "kobject_get() must increment in one atomic step (kref_get()), not read the count "
		      "and write it back one higher", lost, RACE_ROUNDS);
}
END_TEST

/* ---- the scenarios, through ksim ---- */

START_TEST(naive_driver_read_after_unplug_is_a_use_after_free)
{
	struct ksim_run r;

	ksim_run(&r, SCEN "mouse-naive-uaf.ksh", true, NULL, 20);
	ck_assert_no_todo(&r);
	ck_assert_status(&r, 3);
#ifdef __SANITIZE_THREAD__
	/* ThreadSanitizer sees the same bug as a race: the free against the reader's earlier access. */
	ck_assert_said(&r, "ThreadSanitizer: data race");
	ck_assert_said(&r, "mouse_naive_unplug");
#else
	ck_assert_said(&r, "use-after-free");
	ck_assert_said(&r, "mouse");
#endif
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
	ck_assert_msg(strstr(r.out, "3\n"), "the read after unplug should still print 3:\n%s", r.out);
	ck_assert_msg(trace_count(r.trace, "release", "kobject:mouse0") == 1,
		      "release of kobject:mouse0 ran %d times, want exactly once",
		      trace_count(r.trace, "release", "kobject:mouse0"));
	closed = trace_seq(r.trace, "close", "file:/sys/devices/mouse0/clicks#2", 1);
	released = trace_seq(r.trace, "release", "kobject:mouse0", 1);
	freed = trace_seq(r.trace, "free", "kobject:mouse0", 1);
	ck_assert_msg(closed && released > closed,
		      "release ran (event %ld) before the reader closed its file (event %ld)", released, closed);
	ck_assert_msg(freed, "release() ran (event %ld) but the mouse was never freed: mouse_release() must kfree() it",
		      released);
	ck_assert_msg(freed > released, "the mouse must be freed by release(), not before (free %ld, release %ld)",
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
	tcase_add_test(tc, kobject_put_from_two_tasks_at_once_releases_exactly_once);
	tcase_add_test(tc, kobject_get_from_two_tasks_at_once_counts_both);
	tc = ktest_case(s, "scenarios", 30);
	tcase_add_test(tc, naive_driver_read_after_unplug_is_a_use_after_free);
	tcase_add_test(tc, pinned_kobject_survives_unplug_and_is_released_after_close);
	tcase_add_test(tc, release_in_an_unloaded_module_oopses_at_last_close);
	tcase_add_test(tc, seed_example1_callback_runs_in_unloaded_scsi_mod);
	tcase_add_test(tc, seed_example2_last_close_reaches_unloaded_libata);
	tcase_add_test(tc, same_scenario_twice_gives_the_same_trace);
	return ktest_main(s);
}
