/* test_explore.c - stage 1 under schedules nobody scripted: its count holds on every one, its use-after-free shows. */
#include <string.h>
#include "ktest.h"
#include "naive_harness.h"

/*
 * Two tasks change one kobject's count at once, on every schedule of at
 * most one preemption and under PCT: kobject_get() and kobject_put() must
 * each change it in one atomic step.  The count is an atomic_t (kref.h),
 * so a count read and then written back is two schedule points, and the
 * explorer runs the other task in between on some schedule, every time,
 * as a second CPU does only now and then.
 */
static struct kobject count_kobj;
static int count_releases;

static void count_release(struct kobject *kobj)
{
	(void)kobj;
	count_releases++;
}
static const struct kobj_type count_ktype = { .release = count_release };

/* count_setup_holders - a kobject with n references, none taken by the exercise's code. */
static void count_setup_holders(int n)
{
	count_releases = 0;
	kobject_init(&count_kobj, &count_ktype);
	while (--n > 0)
		kref_get(&count_kobj.kref);
}
static void count_setup_one(void) { count_setup_holders(1); }
static void count_setup_two(void) { count_setup_holders(2); }

static void *count_getter(void *arg) { (void)arg; kobject_get(&count_kobj); return NULL; }
static void *count_putter(void *arg) { (void)arg; kobject_put(&count_kobj); return NULL; }

static void gets_check(void)
{
	explore_assert(kref_read(&count_kobj.kref) == 3,
		       "kobject_get() from two tasks at once left the count at %d, want 3 (1 + two gets): one get "
		       "was lost, so the object will be released while a holder still uses it. kobject_get() "
		       "must add one in a single atomic step (kref_get()), not read the count and write it back",
		       kref_read(&count_kobj.kref));
}

static void puts_check(void)
{
	explore_assert(count_releases == 1,
		       "kobject_put() from two tasks dropping the last two references at once released the "
		       "object %d times, want exactly once: kobject_put() must decrement and learn whether it "
		       "reached zero in one atomic step (kref_put()), not read the count and then decrement",
		       count_releases);
}

static void get_put_check(void)
{
	explore_assert(kref_read(&count_kobj.kref) == 2 && count_releases == 0,
		       "kobject_get() and kobject_put() at once on a count of 2 left it at %d (want 2) and "
		       "released the object %d times (want 0): each must change the count in one atomic step "
		       "(kref_get(), kref_put()), not read it and write it back",
		       kref_read(&count_kobj.kref), count_releases);
}

static const struct explore_harness get_vs_get = {
	.name = "get-vs-get",
	.claim = "two kobject_get() at once both count",
	.setup = count_setup_one,
	.tasks = { { "getter0", count_getter, NULL }, { "getter1", count_getter, NULL } },
	.check = gets_check,
};

static const struct explore_harness put_vs_put = {
	.name = "put-vs-put",
	.claim = "of two kobject_put() dropping the last two references at once, exactly one releases",
	.setup = count_setup_two,
	.tasks = { { "putter0", count_putter, NULL }, { "putter1", count_putter, NULL } },
	.check = puts_check,
};

static const struct explore_harness get_vs_put = {
	.name = "get-vs-put",
	.claim = "a kobject_get() and a kobject_put() at once leave the count where it was",
	.setup = count_setup_two,
	.tasks = { { "getter", count_getter, NULL }, { "putter", count_putter, NULL } },
	.check = get_put_check,
};

START_TEST(get_vs_get_on_every_schedule)
{
	explore_grade(&get_vs_get, naive_boot);
}
END_TEST

START_TEST(put_vs_put_on_every_schedule)
{
	explore_grade(&put_vs_put, naive_boot);
}
END_TEST

START_TEST(get_vs_put_on_every_schedule)
{
	explore_grade(&get_vs_put, naive_boot);
}
END_TEST

/* Stage 1 is broken by design here: an open file pins the kobject, nothing pins the driver's data. */
#define YOURS "kobject_get() and kobject_put() (the open file's pin on the kobject)"
static const struct explore_harness read_vs_unplug = NAIVE_READ_VS_UNPLUG("use-after-free", YOURS);
static const struct explore_harness reads_held = NAIVE_READS_HELD_ACROSS_UNPLUG("use-after-free", YOURS);
static const struct explore_harness *const harnesses[] = {
	&get_vs_get, &put_vs_put, &get_vs_put, &read_vs_unplug, &reads_held,
};

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

	tcase_add_test(tc, get_vs_get_on_every_schedule);
	tcase_add_test(tc, put_vs_put_on_every_schedule);
	tcase_add_test(tc, get_vs_put_on_every_schedule);
	tcase_add_test(tc, read_vs_unplug_shows_the_use_after_free);
	tcase_add_test(tc, reads_held_across_unplug_show_the_use_after_free);
	return explore_test_main(argc, argv, naive_boot, harnesses, ARRAY_SIZE(harnesses), s);
}

