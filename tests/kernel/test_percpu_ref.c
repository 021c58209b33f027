/* test_percpu_ref.c - per-CPU counts, RCU's grace period and percpu_ref behave like the kernel's. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include "ktest.h"
#include "percpu.h"
#include "percpu_ref.h"
#include "rcu.h"

static atomic_int released;

static void count_release(struct percpu_ref *ref)
{
	(void)ref;
	atomic_fetch_add(&released, 1);
}

/* ---- per-CPU counters ---- */

static struct percpu_counter counter;

static void *add_then_exit(void *arg)
{
	percpu_counter_add(&counter, (long)arg);
	return NULL;
}

START_TEST(percpu_counter_sums_every_thread_even_after_it_ended)
{
	pthread_t t[3 * NR_CPUS];

	ck_assert_int_eq(percpu_counter_init(&counter), 0);
	percpu_counter_add(&counter, 5);
	/* More threads than slots over the test, some alive at once: slots are reused and shared. */
	for (int round = 0; round < 3; round++) {
		for (int i = 0; i < NR_CPUS; i++)
			ck_assert_int_eq(pthread_create(&t[round * NR_CPUS + i], NULL, add_then_exit, (void *)2L), 0);
		for (int i = 0; i < NR_CPUS; i++)
			pthread_join(t[round * NR_CPUS + i], NULL);
	}
	percpu_counter_dec(&counter);
	ck_assert_msg(percpu_counter_sum(&counter) == 5 + 3 * NR_CPUS * 2 - 1,
		      "sum %ld, expected %d: a thread's count was lost when its slot was given back or reused",
		      percpu_counter_sum(&counter), 5 + 3 * NR_CPUS * 2 - 1);
	percpu_counter_destroy(&counter);
}
END_TEST

START_TEST(alloc_percpu_returns_zeroed_distinct_memory)
{
	long a = alloc_percpu_size(8), b = alloc_percpu_size(24), c;

	ck_assert(a > 0 && b > 0 && a != b);
	this_cpu_add(a, 7);
	free_percpu(a);
	c = alloc_percpu_size(8);
	ck_assert_msg(c > 0 && percpu_sum(c) == 0, "a reused per-CPU allocation must start at zero");
	free_percpu(b);
	free_percpu(c);
}
END_TEST

/* ---- percpu_ref, one thread ---- */

START_TEST(kill_drops_the_owners_reference_and_the_last_put_releases)
{
	struct percpu_ref ref;

	atomic_store(&released, 0);
	ck_assert_int_eq(percpu_ref_init(&ref, count_release), 0);
	percpu_ref_get(&ref);
	percpu_ref_get(&ref);
	percpu_ref_put(&ref);
	ck_assert_int_eq(atomic_load(&released), 0);
	percpu_ref_kill(&ref);
	ck_assert_msg(atomic_load(&released) == 0, "released by the kill although one reference is held");
	ck_assert_msg(!percpu_ref_tryget_live(&ref), "percpu_ref_tryget_live() succeeded after the kill");
	percpu_ref_get(&ref);	/* a holder may still take more */
	percpu_ref_put(&ref);
	ck_assert_int_eq(atomic_load(&released), 0);
	percpu_ref_put(&ref);
	ck_assert_msg(atomic_load(&released) == 1, "the last put did not release (released %d times)",
		      atomic_load(&released));
	ck_assert(percpu_ref_is_zero(&ref));
	percpu_ref_exit(&ref);
}
END_TEST

START_TEST(kill_with_no_other_holder_releases_at_once)
{
	struct percpu_ref ref;

	atomic_store(&released, 0);
	ck_assert_int_eq(percpu_ref_init(&ref, count_release), 0);
	ck_assert(percpu_ref_tryget_live(&ref));
	percpu_ref_put(&ref);
	ck_assert_int_eq(atomic_load(&released), 0);
	percpu_ref_kill(&ref);
	ck_assert_int_eq(atomic_load(&released), 1);
	percpu_ref_exit(&ref);
}
END_TEST

/* ---- percpu_ref, many threads ---- */

/*
 * Users hammer tryget_live/put while the owner kills the ref.  The claim:
 * release() runs exactly once, and never while a user holds a reference
 * (a user checks between its get and its put).  Without the grace period
 * the kill would fold the per-CPU counts while a user is still adding to
 * its own, lose that reference, and release under it.
 */
struct user {
	struct percpu_ref *ref;
	atomic_bool *stop;
	atomic_int *bad;
	long gets;
};

static void *user_main(void *arg)
{
	struct user *u = arg;

	while (!atomic_load(u->stop)) {
		if (!percpu_ref_tryget_live(u->ref)) {
			percpu_ref_get(u->ref);	/* dead: a holder's get still works... */
			percpu_ref_put(u->ref);	/* ...since this thread holds its own reference */
			continue;
		}
		u->gets++;
		if (atomic_load(&released))
			atomic_fetch_add(u->bad, 1);
		percpu_ref_put(u->ref);
	}
	percpu_ref_put(u->ref);	/* the reference the owner gave this user */
	return NULL;
}

START_TEST(kill_under_load_releases_once_after_the_last_user)
{
	enum { USERS = 3, ROUNDS = 300 };

	for (int round = 0; round < ROUNDS; round++) {
		struct percpu_ref ref;
		struct user u[USERS];
		pthread_t t[USERS];
		atomic_bool stop = false;
		atomic_int bad = 0;

		atomic_store(&released, 0);
		ck_assert_int_eq(percpu_ref_init(&ref, count_release), 0);
		for (int i = 0; i < USERS; i++) {
			percpu_ref_get(&ref);	/* handed to the user */
			u[i] = (struct user){ &ref, &stop, &bad, 0 };
			pthread_create(&t[i], NULL, user_main, &u[i]);
		}
		percpu_ref_kill(&ref);
		ck_assert_msg(atomic_load(&released) == 0, "round %d: released by the kill while %d users hold it",
			      round, USERS);
		atomic_store(&stop, true);
		for (int i = 0; i < USERS; i++)
			pthread_join(t[i], NULL);
		ck_assert_msg(atomic_load(&bad) == 0, "round %d: a user held a reference after release()", round);
		ck_assert_msg(atomic_load(&released) == 1, "round %d: released %d times, expected once",
			      round, atomic_load(&released));
		percpu_ref_exit(&ref);
	}
}
END_TEST

/* A get on one thread and its put on another: the per-CPU counts go negative, the sum is right. */
static void *put_one(void *arg)
{
	percpu_ref_put(arg);
	return NULL;
}

START_TEST(a_put_on_another_cpu_balances_the_get)
{
	struct percpu_ref ref;
	pthread_t t[4];

	atomic_store(&released, 0);
	ck_assert_int_eq(percpu_ref_init(&ref, count_release), 0);
	for (int i = 0; i < 4; i++)
		percpu_ref_get(&ref);
	for (int i = 0; i < 3; i++) {
		pthread_create(&t[i], NULL, put_one, &ref);
		pthread_join(t[i], NULL);
	}
	percpu_ref_kill(&ref);
	ck_assert_msg(atomic_load(&released) == 0, "released with one reference still held");
	pthread_create(&t[3], NULL, put_one, &ref);
	pthread_join(t[3], NULL);
	ck_assert_int_eq(atomic_load(&released), 1);
	percpu_ref_exit(&ref);
}
END_TEST

/* ---- RCU ---- */

static atomic_int rcu_phase;

static void *long_reader(void *arg)
{
	(void)arg;
	rcu_read_lock();
	atomic_store(&rcu_phase, 1);
	usleep(200 * 1000);
	atomic_store(&rcu_phase, 2);
	rcu_read_unlock();
	return NULL;
}

START_TEST(synchronize_rcu_waits_for_a_section_in_progress)
{
	pthread_t t;

	pthread_create(&t, NULL, long_reader, NULL);
	while (atomic_load(&rcu_phase) == 0)
		usleep(1000);
	synchronize_rcu();
	ck_assert_msg(atomic_load(&rcu_phase) == 2, "synchronize_rcu() returned inside a reader's section");
	pthread_join(t, NULL);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("kernel-percpu-ref");
	TCase *tc;

	tc = ktest_case(s, "percpu", 20);
	tcase_add_test(tc, percpu_counter_sums_every_thread_even_after_it_ended);
	tcase_add_test(tc, alloc_percpu_returns_zeroed_distinct_memory);
	tc = ktest_case(s, "percpu_ref", 30);
	tcase_add_test(tc, kill_drops_the_owners_reference_and_the_last_put_releases);
	tcase_add_test(tc, kill_with_no_other_holder_releases_at_once);
	tcase_add_test(tc, kill_under_load_releases_once_after_the_last_user);
	tcase_add_test(tc, a_put_on_another_cpu_balances_the_get);
	tc = ktest_case(s, "rcu", 20);
	tcase_add_test(tc, synchronize_rcu_waits_for_a_section_in_progress);
	return ktest_main(s);
}
