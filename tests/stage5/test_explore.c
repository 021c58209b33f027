/* test_explore.c - stage 5's revocable under schedules nobody scripted: accesses, revoke, the last close. */
#include <string.h>
#include "ktest.h"
#include "wait.h"
#include "revocable_harness.h"

/*
 * ---- two tasks through one open file, and the driver's remove() ----
 *
 * Two threads of one process call through the same consumer (an open
 * file), the first twice, while the remover revokes.  Each call takes an
 * access with its own handle; whatever the order, an access that found
 * the resource ends before revoke returns, one that begins after the
 * clear finds NULL, and every access leaves the provider's SRCU.  A read
 * index shared by the two threads (one handle for the whole file, as
 * revocable was first merged) lets one overwrite the other's, and revoke
 * waits for ever.
 */
static void *reader_twice_main(void *arg)
{
	(void)arg;
	consumer_call();
	consumer_call();
	return NULL;
}

static void *reader_once_main(void *arg)
{
	(void)arg;
	consumer_call();
	return NULL;
}

static void shared_file_check(void)
{
	assert_drained();
	revocable_consumer_release(consumer);	/* the last close */
	assert_all_freed();
}

static const struct explore_harness access_vs_revoke = {
	.name = "access-vs-revoke",
	.claim = "two tasks calling through one open file while the provider is revoked: no access uses "
		 "the resource after revoke returns, and every access leaves the provider's SRCU with the "
		 "index it entered with (revocable_try_access() keeps it for revocable_withdraw_access()), "
		 "so revocable_provider_revoke() never waits for ever",
	.setup = fresh_provider,
	.tasks = {
		{ "reader", reader_twice_main, NULL },
		{ "reader", reader_once_main, NULL },
		{ "remove", remover_main, NULL },
	},
	.check = shared_file_check,
};

/*
 * ---- an access, then the last close, against revoke ----
 *
 * No one else holds the provider: its memory is kept by the provider's
 * own reference until revoke drops it, by the consumer's until the close,
 * by the handle's during the access.  Revoke may still be waiting in
 * synchronize_srcu() when the access ends and the file is closed, so it
 * must hold its own reference until the wait is over: dropped before,
 * the close frees the srcu_struct that revoke is waiting on.  A consumer
 * that kept the provider pointer without a reference of its own (the
 * later "by-value" design) reaches freed memory once revoke has dropped
 * the last one.
 */
static void *access_then_close_main(void *arg)
{
	(void)arg;
	consumer_call();
	revocable_consumer_release(consumer);
	return NULL;
}

static void last_close_check(void)
{
	assert_all_freed();
}

static const struct explore_harness revoke_vs_last_close = {
	.name = "revoke-vs-last-close",
	.claim = "an access and the file's last close against revoke: the provider's memory lives until "
		 "the last of them lets go, and is freed then",
	.setup = fresh_provider,
	.tasks = {
		{ "reader", access_then_close_main, NULL },
		{ "remove", remover_main, NULL },
	},
	.check = last_close_check,
};

/*
 * ---- two open files, each with its own consumer, and a second access after revoke ----
 *
 * Two processes that opened the device each have a consumer; each call's
 * handle is its own.  A task whose first call found the resource calls
 * again and must then find NULL if revoke has returned meanwhile.
 */
static struct revocable_consumer *second;

static void two_files_setup(void)
{
	fresh_provider();
	second = revocable_consumer_open(rp);
}

static void *second_file_main(void *arg)
{
	(void)arg;
	for (int i = 0; i < 2; i++) {
		int ret = revocable_consumer_call(second, use_res, NULL);

		explore_assert(ret == 0 || ret == -ENODEV, "a call returned %d", ret);
	}
	return NULL;
}

static void *after_revoke_main(void *arg)
{
	(void)arg;
	consumer_call();
	if (atomic_load(&revoke_returned)) {
		int ret = revocable_consumer_call(consumer, use_res, NULL);

		explore_assert(ret == -ENODEV, "a call that began after revocable_provider_revoke() returned "
			       "got %d, not -ENODEV: revocable_try_access() must return NULL once revoked", ret);
	}
	return NULL;
}

static void two_files_check(void)
{
	assert_drained();
	revocable_consumer_release(second);
	revocable_consumer_release(consumer);
	assert_all_freed();
}

static const struct explore_harness two_files = {
	.name = "two-files",
	.claim = "two open files, each with its own consumer and a handle per call, against revoke: every "
		 "access after revoke returned is refused, none in progress outlives it",
	.setup = two_files_setup,
	.tasks = {
		{ "reader", after_revoke_main, NULL },
		{ "reader2", second_file_main, NULL },
		{ "remove", remover_main, NULL },
	},
	.check = two_files_check,
};

/*
 * ---- revoke during a long access ----
 *
 * The access begins, and revoke is called while it is inside (the access
 * waits until the remover has said so); revoke must not return before
 * the access withdraws, on any schedule.
 */
static atomic_bool in_access, revoke_called;
static DECLARE_WAIT_QUEUE_HEAD(long_wq);

static int long_use(void *p, void *arg)
{
	(void)arg;
	atomic_store(&in_access, true);
	wake_up_all(&long_wq);
	wait_event_desc(&long_wq, "the harness's access, until revoke is called", atomic_load(&revoke_called));
	return use_res(p, NULL);
}

static void long_access_setup(void)
{
	fresh_provider();
	atomic_store(&in_access, false);
	atomic_store(&revoke_called, false);
}

static void *long_reader_main(void *arg)
{
	int ret;

	(void)arg;
	ret = revocable_consumer_call(consumer, long_use, NULL);
	explore_assert(ret == 0, "the long access did not find the resource (%d): revoke had not been called yet", ret);
	return NULL;
}

static void *long_remover_main(void *arg)
{
	wait_event_desc(&long_wq, "the harness's remover, until the access is inside", atomic_load(&in_access));
	atomic_store(&revoke_called, true);
	wake_up_all(&long_wq);
	return remover_main(arg);
}

static const struct explore_harness revoke_during_long_access = {
	.name = "revoke-during-long-access",
	.claim = "revoke called while an access is inside returns only after the access is withdrawn",
	.setup = long_access_setup,
	.tasks = {
		{ "reader", long_reader_main, NULL },
		{ "remove", long_remover_main, NULL },
	},
	.check = shared_file_check,
};

/*
 * ---- the kernel's two broken designs, shown on the reference ----
 *
 * Revocable as first merged (62eb557580eb, reverted before 7.0): a
 * consumer allocated one handle (revocable_alloc()) and every task used
 * it, so the read index of one task's access was overwritten by
 * another's.  Here two readers share one struct revocable.  If revoke
 * flips the SRCU index between their try_access calls, both withdraw with
 * the second index, the first index keeps a reader for ever, and revoke
 * waits in synchronize_srcu() for ever: the explorer must find that
 * schedule, and its replay must hang again.
 */
static struct revocable shared_rev;

static void shared_handle_setup(void)
{
	fresh_provider();
	revocable_init(rp, &shared_rev);	/* at open, as revocable_alloc() did */
}

static void *shared_handle_reader_main(void *arg)
{
	void *p;

	(void)arg;
	p = revocable_try_access(&shared_rev);
	if (p)
		use_res(p, NULL);
	revocable_withdraw_access(&shared_rev);
	return NULL;
}

static const struct explore_harness first_merged_shared_handle = {
	.name = "first-merged-shared-handle",
	.claim = "two tasks that share one struct revocable (revocable as first merged) never hang revoke",
	.setup = shared_handle_setup,
	.tasks = {
		{ "reader", shared_handle_reader_main, NULL },
		{ "reader", shared_handle_reader_main, NULL },
		{ "remove", remover_main, NULL },
	},
	.expected_bug = "waiting on: synchronize_srcu",
	.yours = "revocable_try_access(), revocable_withdraw_access() and revocable_provider_revoke()",
};

/*
 * The "by-value" provider (the redesign merged on top, then reverted with
 * it): the producer's pointer to the provider was cleared at revoke, but
 * a consumer that had been handed a copy of it kept the copy, without a
 * reference of its own.  Once revoke drops the provider's reference, the
 * provider is freed, and the consumer's next revocable_init() takes a
 * reference in freed memory: the slab's fence reports the use-after-free.
 */
static struct revocable_provider *stale_copy;

static void by_value_setup(void)
{
	live_before = slab_live_objects();
	res = kzalloc(sizeof(*res), "revocable_res");
	atomic_store(&res->magic, RES_ALIVE);
	rp = revocable_provider_alloc(res);
	stale_copy = rp;	/* filp->private_data = rp: a copy, no reference */
	atomic_store(&revoke_returned, false);
	atomic_store(&using, 0);
}

static void *by_value_reader_main(void *arg)
{
	(void)arg;
	for (int i = 0; i < 2; i++) {
		struct revocable rev;
		void *p;

		revocable_init(stale_copy, &rev);
		p = revocable_try_access(&rev);
		if (p)
			use_res(p, NULL);
		revocable_withdraw_access(&rev);
		revocable_deinit(&rev);
	}
	return NULL;
}

static const struct explore_harness by_value_provider = {
	.name = "by-value-provider",
	.claim = "a consumer that keeps a copy of the provider pointer without a reference never reaches freed memory",
	.setup = by_value_setup,
	/* The remover first: the schedule without a preemption shows it, cheap under a sanitizer too. */
	.tasks = {
		{ "remove", remover_main, NULL },
		{ "reader", by_value_reader_main, NULL },
	},
	.expected_bug = "use-after-free",
	.yours = "revocable_try_access(), revocable_withdraw_access() and revocable_provider_revoke()",
};

static const struct explore_harness *const harnesses[] = {
	&access_vs_revoke, &revoke_vs_last_close, &two_files, &revoke_during_long_access,
	&first_merged_shared_handle, &by_value_provider,
};

START_TEST(access_vs_revoke_on_every_schedule)
{
	explore_grade(&access_vs_revoke, boot_once);
}
END_TEST

START_TEST(revoke_vs_last_close_on_every_schedule)
{
	explore_grade(&revoke_vs_last_close, boot_once);
}
END_TEST

START_TEST(two_files_on_every_schedule)
{
	explore_grade(&two_files, boot_once);
}
END_TEST

START_TEST(revoke_during_a_long_access_on_every_schedule)
{
	explore_grade(&revoke_during_long_access, boot_once);
}
END_TEST

START_TEST(a_handle_shared_by_two_tasks_hangs_revoke_on_some_schedule)
{
	explore_expect_bug(&first_merged_shared_handle, boot_once);
}
END_TEST

START_TEST(a_copy_of_the_provider_without_a_reference_is_a_use_after_free_on_some_schedule)
{
	explore_expect_bug(&by_value_provider, boot_once);
}
END_TEST

int main(int argc, char **argv)
{
	Suite *s = suite_create("explore");
	TCase *tc = ktest_case(s, "schedules", 20);

	tcase_add_test(tc, access_vs_revoke_on_every_schedule);
	tcase_add_test(tc, revoke_vs_last_close_on_every_schedule);
	tcase_add_test(tc, two_files_on_every_schedule);
	tcase_add_test(tc, revoke_during_a_long_access_on_every_schedule);
	tcase_add_test(tc, a_handle_shared_by_two_tasks_hangs_revoke_on_some_schedule);
	tcase_add_test(tc, a_copy_of_the_provider_without_a_reference_is_a_use_after_free_on_some_schedule);
	return explore_test_main(argc, argv, boot_once, harnesses, ARRAY_SIZE(harnesses), s);
}
