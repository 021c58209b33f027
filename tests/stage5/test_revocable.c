/* test_revocable.c - stage 5's revocable called directly: accesses, revoke, the provider's memory, lockdep. */
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "exercise.h"
#include "ktest.h"
#include "lockdep.h"
#include "oops.h"
#include "slab.h"
#include "task.h"
#include "watchdog.h"
#include <revocable_consumer.h>
#include <revocable_provider.h>

#define assert_no_todo() ck_assert_exercises_done("exercises/stage5/revocable.c")

static int resource = 42;	/* what the provider hands out; its value is never changed */

static void boot(void)
{
	static bool booted;

	if (!booted) {
		task_init_main("test");
		oops_init();
	}
	booted = true;
}

START_TEST(an_access_before_revoke_finds_the_resource_and_its_withdrawal_leaves_the_section)
{
	struct revocable_provider *rp;
	struct revocable rev;
	int *res;

	boot();
	rp = revocable_provider_alloc(&resource);
	revocable_init(rp, &rev);
	res = revocable_try_access(&rev);
	assert_no_todo();
	ck_assert_msg(res == &resource, "revocable_try_access() before any revoke returned %p, not the resource %p",
		      (void *)res, (void *)&resource);
	ck_assert_msg(revocable_provider_readers(rp) == 1,
		      "inside an access the provider's SRCU counts %d reader(s), not 1: revocable_try_access() "
		      "must enter a read-side section (srcu_read_lock())", revocable_provider_readers(rp));
	ck_assert_msg(rev.idx == 0 || rev.idx == 1, "revocable_try_access() left %d in the handle's idx, "
		      "not the index srcu_read_lock() returned", rev.idx);
	revocable_withdraw_access(&rev);
	assert_no_todo();
	ck_assert_msg(revocable_provider_readers(rp) == 0,
		      "after revocable_withdraw_access() the provider's SRCU still counts %d reader(s)",
		      revocable_provider_readers(rp));
	revocable_deinit(&rev);
	revocable_provider_revoke(rp);
}
END_TEST

START_TEST(an_access_after_revoke_finds_null_and_is_withdrawn_all_the_same)
{
	struct revocable_provider *rp;
	struct revocable rev;
	void *res;

	boot();
	rp = revocable_provider_alloc(&resource);
	revocable_provider_get(rp);	/* a consumer's, so the provider outlives revoke */
	revocable_provider_revoke(rp);
	assert_no_todo();
	ck_assert_msg(atomic_load(&rp->res) == NULL,
		      "revocable_provider_revoke() returned with the provider still pointing at the resource");
	revocable_init(rp, &rev);
	res = revocable_try_access(&rev);
	assert_no_todo();
	ck_assert_msg(res == NULL, "revocable_try_access() after revocable_provider_revoke() returned %p, not NULL",
		      res);
	revocable_withdraw_access(&rev);
	assert_no_todo();
	ck_assert_msg(revocable_provider_readers(rp) == 0,
		      "an access that found NULL, withdrawn, still counts %d reader(s) in the provider's SRCU: "
		      "revocable_withdraw_access() must leave the section on the NULL path too, or the next "
		      "synchronize_srcu() waits for ever", revocable_provider_readers(rp));
	revocable_deinit(&rev);
	revocable_provider_put(rp);
}
END_TEST

/*
 * The provider's memory: revoke drops the provider's own reference, and a
 * consumer's keeps the memory until its put; the last put frees it.
 */
START_TEST(the_provider_outlives_revoke_while_a_consumer_holds_it_and_the_last_put_frees_it)
{
	struct revocable_provider *rp;
	long before;

	boot();
	before = slab_live_objects();
	rp = revocable_provider_alloc(&resource);
	revocable_provider_get(rp);
	ck_assert_int_eq(kref_read(&rp->kref), 2);
	revocable_provider_revoke(rp);
	assert_no_todo();
	ck_assert_msg(kref_read(&rp->kref) == 1,
		      "after revocable_provider_revoke() the provider has %d reference(s), not 1 (the consumer's): "
		      "revoke must drop the provider's own reference, and only that", kref_read(&rp->kref));
	ck_assert_msg(slab_live_objects() == before + 1, "the provider was freed while a consumer still held it: "
		      "revocable_provider_revoke() must drop the provider's own reference, and only that");
	revocable_provider_put(rp);
	ck_assert_msg(slab_live_objects() == before,
		      "%ld object(s) left after the consumer's last put: the provider leaked",
		      slab_live_objects() - before);
}
END_TEST

/* The consumer an open file is: -ENODEV after revoke, and its close frees what it kept. */
static int read_value(void *res, void *arg)
{
	*(int *)arg = *(int *)res;
	return 0;
}

START_TEST(an_open_file_reads_until_revoke_and_gets_enodev_after)
{
	struct revocable_provider *rp;
	struct revocable_consumer *c;
	int v = 0;
	long before;

	boot();
	before = slab_live_objects();
	rp = revocable_provider_alloc(&resource);
	c = revocable_consumer_open(rp);
	ck_assert_msg(revocable_consumer_call(c, read_value, &v) == 0, "a read through the open file before "
		      "any revoke was refused: revocable_try_access() must return the resource until it is revoked");
	assert_no_todo();
	ck_assert_msg(v == 42, "a read through the open file before revoke read %d, not 42", v);
	revocable_provider_revoke(rp);
	assert_no_todo();
	ck_assert_msg(revocable_consumer_call(c, read_value, &v) == -ENODEV,
		      "a read through the open file after revocable_provider_revoke() did not get -ENODEV: "
		      "revocable_try_access() must return NULL once revoked");
	ck_assert_msg(revocable_provider_readers(rp) == 0, "the refused read left %d reader(s) counted: "
		      "revocable_withdraw_access() must leave the section on the NULL path too",
		      revocable_provider_readers(rp));
	revocable_consumer_release(c);
	ck_assert_msg(slab_live_objects() == before, "%ld object(s) left after the last close: "
		      "revocable_provider_revoke() must drop the provider's own reference",
		      slab_live_objects() - before);
}
END_TEST

/*
 * ---- free threads ----
 *
 * Readers call through one open file as fast as they can while the main
 * thread revokes: an access that found the resource must end before
 * revoke returns (the resource is then marked dead, as kfree() would).
 * A reader counted for ever keeps revoke waiting: the hung-task watchdog
 * ends the test with the waiting task's call trace.
 */
static atomic_int alive;
static atomic_long calls;
static atomic_int readers_done;
static struct revocable_consumer *shared;

static int check_alive(void *res, void *arg)
{
	(void)arg;
	for (int i = 0; i < 20; i++)
		ck_assert_msg(atomic_load((atomic_int *)res), "an access used the resource after "
			      "revocable_provider_revoke() returned (found by revocable_try_access(), not yet "
			      "withdrawn by revocable_withdraw_access())");
	return 0;
}

static void *free_reader(void *arg)
{
	(void)arg;
	while (revocable_consumer_call(shared, check_alive, NULL) == 0)
		atomic_fetch_add(&calls, 1);
	atomic_fetch_add(&readers_done, 1);
	return NULL;
}

START_TEST(free_threads_never_use_the_resource_after_revoke)
{
	struct revocable_provider *rp;
	pthread_t t[3];

	boot();
	watchdog_start(0);	/* a revoke that waits for ever is reported, with what it waits on */
	atomic_store(&alive, 1);
	rp = revocable_provider_alloc(&alive);
	shared = revocable_consumer_open(rp);
	for (int i = 0; i < 3; i++)
		pthread_create(&t[i], NULL, free_reader, NULL);
	while (atomic_load(&calls) < 3000 && atomic_load(&readers_done) < 3)
		sched_yield();
	revocable_provider_revoke(rp);
	atomic_store(&alive, 0);	/* what kfree() would do */
	for (int i = 0; i < 3; i++)
		pthread_join(t[i], NULL);
	assert_no_todo();
	ck_assert_msg(revocable_provider_readers(rp) == 0, "%d reader(s) left counted after every access was "
		      "withdrawn (revocable_withdraw_access())", revocable_provider_readers(rp));
	revocable_consumer_release(shared);
}
END_TEST

/* ---- lockdep: revoke inside an access of its own provider waits for itself ---- */

static int revoke_from_inside(void *res, void *arg)
{
	(void)res;
	revocable_provider_revoke(arg);
	fprintf(stderr, "not reached\n");
	return 0;
}

START_TEST(revoke_inside_an_access_of_its_own_provider_is_reported)
{
	char err[16384];
	int pipefd[2], st;
	ssize_t n, got = 0;
	pid_t pid;

	ck_assert(pipe(pipefd) == 0);
	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		struct revocable_provider *rp;
		struct revocable_consumer *c;

		dup2(pipefd[1], 2);
		close(pipefd[0]);
		boot();
		lockdep_set_enabled(true);
		rp = revocable_provider_alloc(&resource);
		c = revocable_consumer_open(rp);
		revocable_consumer_call(c, revoke_from_inside, rp);
		_exit(atomic_load(&kernel_tainted) ? EXIT_OOPS : 0);
	}
	close(pipefd[1]);
	while (got < (ssize_t)sizeof(err) - 1 && (n = read(pipefd[0], err + got, sizeof(err) - 1 - got)) > 0)
		got += n;
	err[got] = '\0';
	close(pipefd[0]);
	waitpid(pid, &st, 0);
	ck_assert_msg(!strstr(err, "TODO("), "an exercise is not done yet: %s", first_todo(err));
	ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == EXIT_OOPS, "status %d, want exit %d:\n%s", st, EXIT_OOPS, err);
	ck_assert_msg(strstr(err, "possible recursive locking detected") && strstr(err, "revocable_provider_revoke"),
		      "no lockdep report naming revocable_provider_revoke():\n%s", err);
	ck_assert_msg(!strstr(err, "not reached"), "revoke went on into a wait for ever:\n%s", err);
}
END_TEST

/*
 * The provider's own checks, in the code given with the exercises: each
 * warns, and a test that expects the warning is what keeps it there.
 */
START_TEST(a_provider_for_no_resource_warns)
{
	struct revocable_provider *rp;

	boot();
	atomic_store(&kernel_tainted, false);
	rp = revocable_provider_alloc(NULL);
	ck_assert_msg(atomic_load(&kernel_tainted),
		      "revocable_provider_alloc(NULL) did not warn: a provider of nothing hands every access NULL, "
		      "as if revoked from the start");
	atomic_store(&kernel_tainted, false);	/* the warning this test wants */
	revocable_provider_put(rp);
}
END_TEST

/*
 * A consumer that opens a read-side section and lets its reference go
 * without the withdrawal (here by hand: the section opened straight on the
 * provider's srcu_struct).  The last put frees the provider with the
 * section still counted; its cleanup_srcu_struct() must say so.
 */
START_TEST(a_provider_freed_with_a_section_still_open_warns)
{
	struct revocable_provider *rp;

	boot();
	atomic_store(&kernel_tainted, false);
	rp = revocable_provider_alloc(&resource);
	srcu_read_lock(&rp->srcu);		/* never unlocked: the memory goes below */
	revocable_provider_put(rp);		/* the only reference */
	ck_assert_msg(atomic_load(&kernel_tainted),
		      "the provider was freed with a read-side section still open in it, and nothing warned: "
		      "its release must cleanup_srcu_struct(), which checks that no reader is left");
	atomic_store(&kernel_tainted, false);	/* the warning this test wants */
}
END_TEST

int main(void)
{
	Suite *s = suite_create("revocable");
	TCase *tc = ktest_case(s, "exercises", 10);

	tcase_add_test(tc, an_access_before_revoke_finds_the_resource_and_its_withdrawal_leaves_the_section);
	tcase_add_test(tc, an_access_after_revoke_finds_null_and_is_withdrawn_all_the_same);
	tcase_add_test(tc, the_provider_outlives_revoke_while_a_consumer_holds_it_and_the_last_put_frees_it);
	tcase_add_test(tc, an_open_file_reads_until_revoke_and_gets_enodev_after);
	tcase_add_test(tc, free_threads_never_use_the_resource_after_revoke);
	tc = ktest_case(s, "lockdep", 10);
	tcase_add_test(tc, revoke_inside_an_access_of_its_own_provider_is_reported);
	tc = ktest_case(s, "warnings", 10);
	tcase_add_test(tc, a_provider_for_no_resource_warns);
	tcase_add_test(tc, a_provider_freed_with_a_section_still_open_warns);
	return ktest_main(s);
}
