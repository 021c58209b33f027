/* test_explore.c - stage 1 under schedules nobody scripted: its count holds on every one, its use-after-free shows. */
#include <string.h>
#include "ktest.h"
#include "naive_harness.h"

/*
 * Two tasks change one kobject's count at once, on every schedule of at
 * most one preemption and under PCT: kobject_get() and kobject_put() must
 * each change it in one atomic step.  The count is an atomic_t (kref.h)
 * and every read of it is a schedule point, kref_read() too, so a count
 * read and then written back, or decremented and then read to see whether
 * it reached zero, is two schedule points, and the explorer runs the other
 * task in between on some schedule, every time, as a second CPU does only
 * now and then.
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
		       "reached zero in one atomic step (kref_put()), not read the count apart from the "
		       "decrement (before it, or after it): then both puts can see zero, or neither",
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

/*
 * Four tasks on one kobject whose count reaches zero among them: it starts
 * at 4, one reference per task.  Each getter takes a second reference on
 * the strength of its own (as an open takes one for the file), then drops
 * both; each putter drops its own.  So gets and puts interleave, and the
 * last two puts race to release.  held counts the references the tasks
 * hold by their own account (one more after a get returns, one fewer just
 * before a put is called), so a release that comes while it is not zero
 * came too early, whoever's step brought the count down.  It is a plain
 * int, watching the protocol, not part of it: one task runs at a time and
 * it changes between schedule points, so it adds none.
 */
static int held, released_while_held;

static void mixed_release(struct kobject *kobj)
{
	(void)kobj;
	count_releases++;
	if (held != 0 && !released_while_held)
		released_while_held = held;	/* the first early release's */
}
static const struct kobj_type mixed_ktype = { .release = mixed_release };

static void mixed_setup(void)
{
	count_releases = 0;
	released_while_held = 0;
	held = 4;
	kobject_init(&count_kobj, &mixed_ktype);
	for (int i = 1; i < held; i++)
		kref_get(&count_kobj.kref);
}

static void mixed_put(void)
{
	held--;
	kobject_put(&count_kobj);
}

static void *mixed_getter(void *arg)
{
	(void)arg;
	kobject_get(&count_kobj);
	held++;
	mixed_put();		/* the reference it took */
	mixed_put();		/* its own */
	return NULL;
}

static void *mixed_putter(void *arg) { (void)arg; mixed_put(); return NULL; }

#define MIXED "two kobject_get() and six kobject_put() from four tasks at once (every reference dropped in the end)"

static void mixed_check(void)
{
	explore_assert(!released_while_held,
		       MIXED " released the object while the tasks still held %d reference(s): either a get was "
		       "lost (kobject_get() must add one in a single atomic step, kref_get(), not read the count "
		       "and write it back) or a put released the object before its own decrement reached zero "
		       "(kobject_put() must leave that test to kref_put())", released_while_held);
	explore_assert(count_releases == 1,
		       MIXED " released the object %d times, want exactly once. kobject_put() must decrement and "
		       "learn whether it reached zero in one atomic step (kref_put()): asked apart, two puts can "
		       "both see zero, or neither. And kobject_get() must add in one step (kref_get()): a count "
		       "read and written back can undo another task's put", count_releases);
	explore_assert(kref_read(&count_kobj.kref) == 0,
		       MIXED " left the count at %d, want 0: a get or a put was lost. kobject_get() and "
		       "kobject_put() must each change the count in one atomic step (kref_get(), kref_put())",
		       kref_read(&count_kobj.kref));
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

static const struct explore_harness gets_and_puts = {
	.name = "two-gets-two-puts",
	.claim = "two getters (get, put, put) and two putters (put) on a count of 4 release the object "
		 "exactly once, after the last put",
	.setup = mixed_setup,
	.tasks = { { "getter0", mixed_getter, NULL }, { "getter1", mixed_getter, NULL },
		   { "putter0", mixed_putter, NULL }, { "putter1", mixed_putter, NULL } },
	.check = mixed_check,
	/* 7,932 schedules with the reference, under a second: check-stage1 affords one preemption more. */
	.grade_dfs = "dfs:2",
	.explore_dfs = "dfs:3",
	.explore_dfs_why = "one more than dfs:2, since four tasks of stage 1 are cheap: 38,538 schedules, a few "
			   "seconds (dfs:8 is 654,360 and still not the whole space)",
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
	&get_vs_get, &put_vs_put, &get_vs_put, &gets_and_puts, &read_vs_unplug, &reads_held,
};

START_TEST(two_gets_two_puts_on_every_schedule)
{
	explore_grade(&gets_and_puts, naive_boot);
}
END_TEST

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
	tcase_add_test(tc, two_gets_two_puts_on_every_schedule);
	tcase_add_test(tc, read_vs_unplug_shows_the_use_after_free);
	tcase_add_test(tc, reads_held_across_unplug_show_the_use_after_free);
	return explore_test_main(argc, argv, naive_boot, harnesses, ARRAY_SIZE(harnesses), s);
}

