/* test_lockdep.c - lockdep reports what the kernel's reports, once, and nothing else. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "ktest.h"
#include "lockdep.h"
#include "mutex.h"
#include "oops.h"
#include "rwsem.h"
#include "task.h"
#include "watchdog.h"

/*
 * Every test runs its body in a child process (lockdep's graph is
 * process-wide and never forgets) with stderr captured, and checks the
 * exit status and what was printed.
 */
static int in_child(void (*fn)(void), char *errbuf, size_t len)
{
	int pipefd[2], st;
	ssize_t n, got = 0;
	pid_t pid;

	ck_assert(pipe(pipefd) == 0);
	pid = fork();
	if (pid == 0) {
		dup2(pipefd[1], 2);
		close(pipefd[0]);
		task_init_main("test");
		oops_init();
		lockdep_set_enabled(true);
		fn();
		_exit(atomic_load(&kernel_tainted) ? EXIT_OOPS : 0);
	}
	close(pipefd[1]);
	while (got < (ssize_t)len - 1 && (n = read(pipefd[0], errbuf + got, len - 1 - got)) > 0)
		got += n;
	errbuf[got] = '\0';
	close(pipefd[0]);
	waitpid(pid, &st, 0);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

static int count(const char *hay, const char *needle)
{
	int n = 0;

	for (const char *p = hay; (p = strstr(p, needle)); p++)
		n++;
	return n;
}

#define RUN(fn) \
	char err[16384]; \
	int status = in_child(fn, err, sizeof(err))
#define ASSERT_STATUS(want) \
	ck_assert_msg(status == (want), "exit %d, want %d; stderr:\n%s", status, (want), err)
#define ASSERT_SAID(text) \
	ck_assert_msg(strstr(err, (text)), "expected \"%s\" in:\n%s", (text), err)

static DEFINE_MUTEX(lock_a);
static DEFINE_MUTEX(lock_b);

/* ---- circular dependency ---- */

static void *a_then_b(void *unused)
{
	(void)unused;
	mutex_lock(&lock_a);
	mutex_lock(&lock_b);
	mutex_unlock(&lock_b);
	mutex_unlock(&lock_a);
	return NULL;
}

/* Two tasks, one after the other: A then B, then B then A.  Nothing ever waits. */
static void ab_then_ba(void)
{
	kthread_join(kthread_run(a_then_b, NULL, "first"));
	mutex_lock(&lock_b);
	mutex_lock(&lock_a);
	mutex_unlock(&lock_a);
	mutex_unlock(&lock_b);
}

START_TEST(ab_ba_in_two_runs_is_a_circular_dependency)
{
	RUN(ab_then_ba);
	ASSERT_STATUS(EXIT_OOPS);
	ASSERT_SAID("WARNING: possible circular locking dependency detected");
	ASSERT_SAID("test/1 is trying to acquire lock:\n(lock_a){+.+.}, at: ab_then_ba+");
	ASSERT_SAID("but task is already holding lock:\n(lock_b){+.+.}, at: ab_then_ba+");
	ASSERT_SAID("the existing dependency chain (in reverse order) is:");
	/* #1: the first task took B with A held, and where; #0: this acquisition. */
	ASSERT_SAID("-> #1 (lock_b){+.+.}:\n       mutex_lock+");
	ASSERT_SAID("       a_then_b+");
	ASSERT_SAID("-> #0 (lock_a){+.+.}:\n       mutex_lock+");
	ASSERT_SAID("  lock(lock_b);\n                               lock(lock_a);\n"
		    "                               lock(lock_b);\n  lock(lock_a);");
	ASSERT_SAID("1 lock held by test/1:\n #0: (lock_b){+.+.}, at: ab_then_ba+");
	ASSERT_SAID("stack backtrace:");
}
END_TEST

static DEFINE_MUTEX(lock_c);

/* A -> B, B -> C, then C -> A: the chain of three, "Chain exists of". */
static void abc_cycle(void)
{
	mutex_lock(&lock_a); mutex_lock(&lock_b); mutex_unlock(&lock_b); mutex_unlock(&lock_a);
	mutex_lock(&lock_b); mutex_lock(&lock_c); mutex_unlock(&lock_c); mutex_unlock(&lock_b);
	mutex_lock(&lock_c); mutex_lock(&lock_a); mutex_unlock(&lock_a); mutex_unlock(&lock_c);
}

START_TEST(a_longer_cycle_prints_the_whole_chain)
{
	RUN(abc_cycle);
	ASSERT_STATUS(EXIT_OOPS);
	ASSERT_SAID("-> #2 (lock_c){+.+.}:");
	ASSERT_SAID("-> #1 (lock_b){+.+.}:");
	ASSERT_SAID("-> #0 (lock_a){+.+.}:");
	ASSERT_SAID("Chain exists of:\n  lock_a --> lock_b --> lock_c");
}
END_TEST

/* The same inversion, done again and again: one report. */
static void ab_ba_three_times(void)
{
	for (int i = 0; i < 3; i++) {
		mutex_lock(&lock_a); mutex_lock(&lock_b); mutex_unlock(&lock_b); mutex_unlock(&lock_a);
		mutex_lock(&lock_b); mutex_lock(&lock_a); mutex_unlock(&lock_a); mutex_unlock(&lock_b);
	}
	fprintf(stderr, "reports=%d\n", lockdep_reports());
}

START_TEST(each_pair_of_classes_is_reported_once)
{
	RUN(ab_ba_three_times);
	ASSERT_STATUS(EXIT_OOPS);
	ck_assert_msg(count(err, "possible circular locking dependency") == 1, "not one report:\n%s", err);
	ASSERT_SAID("reports=1");
}
END_TEST

/* One order only, many times, from two tasks: nothing to report. */
static void ab_only(void)
{
	kthread_join(kthread_run(a_then_b, NULL, "first"));
	a_then_b(NULL);
	kthread_join(kthread_run(a_then_b, NULL, "second"));
}

START_TEST(one_order_is_never_reported)
{
	RUN(ab_only);
	ASSERT_STATUS(0);
	ck_assert_msg(!strstr(err, "WARNING"), "a report for one order:\n%s", err);
}
END_TEST

/* ---- recursive locking and the rwsem rules ---- */

static struct rw_semaphore sem_x, sem_y;

static void init_two_of_one_class(void)
{
	int i;

	/* One init site, so one class: as every sysfs_dirent's s_active. */
	for (i = 0; i < 2; i++)
		init_rwsem(i ? &sem_y : &sem_x, "instance");
}

/* Read, then read again, of one class (another instance): a writer queued between deadlocks it. */
static void read_then_read(void)
{
	init_two_of_one_class();
	down_read(&sem_x);
	down_read(&sem_y);
	up_read(&sem_y);
	up_read(&sem_x);
}

START_TEST(rwsem_read_then_read_of_one_class_is_recursive_locking)
{
	RUN(read_then_read);
	ASSERT_STATUS(EXIT_OOPS);
	ASSERT_SAID("WARNING: possible recursive locking detected");
	ASSERT_SAID("(i ? &sem_y : &sem_x){.+.+}, at: read_then_read+");
	ASSERT_SAID("  lock(i ? &sem_y : &sem_x);\n  lock(i ? &sem_y : &sem_x);");
	ASSERT_SAID(" May be due to missing lock nesting notation");
	ASSERT_SAID("1 lock held by test/1:");
}
END_TEST

/* A subclass says "nested on purpose": no report, and the class is printed "/1". */
static void read_then_read_nested(void)
{
	init_two_of_one_class();
	down_read(&sem_x);
	down_read_nested(&sem_y, SINGLE_DEPTH_NESTING);
	lockdep_print_held_locks();
	up_read(&sem_y);
	up_read(&sem_x);
}

START_TEST(a_subclass_makes_parent_child_nesting_legal)
{
	RUN(read_then_read_nested);
	ASSERT_STATUS(0);
	ck_assert_msg(!strstr(err, "WARNING"), "a report for nested locking:\n%s", err);
	ASSERT_SAID(" #1: (i ? &sem_y : &sem_x/1){.+.+}, at: read_then_read_nested+");
}
END_TEST

/*
 * Trylocks never wait: sysfs_get_active_two()'s parent-then-child
 * read-trylocks of one class are neither checked nor reported.
 */
static void trylock_nesting(void)
{
	init_two_of_one_class();
	ck_assert(down_read_trylock(&sem_x));
	ck_assert(down_read_trylock(&sem_y));
	fprintf(stderr, "depth=%d\n", lockdep_depth());
	up_read(&sem_y);
	up_read(&sem_x);
	fprintf(stderr, "depth=%d\n", lockdep_depth());
}

START_TEST(read_trylocks_of_one_class_nest_without_a_report)
{
	RUN(trylock_nesting);
	ASSERT_STATUS(0);
	ck_assert_msg(!strstr(err, "WARNING"), "a report for trylocks:\n%s", err);
	ASSERT_SAID("depth=2\ndepth=0");
}
END_TEST

/* A trylock that fails took nothing: it is not on the held stack. */
static void failed_trylock(void)
{
	init_two_of_one_class();
	down_write(&sem_x);
	up_write(&sem_x);
	down_write(&sem_x);	/* held: a trylock must fail */
	fprintf(stderr, "ok=%d depth=%d\n", down_read_trylock(&sem_x), lockdep_depth());
	up_write(&sem_x);
}

START_TEST(a_failed_trylock_records_nothing)
{
	RUN(failed_trylock);
	ASSERT_STATUS(0);
	ASSERT_SAID("ok=0 depth=1");
}
END_TEST

/* Locks taken under a trylock do depend on it: a read-trylock, then B; later B, then the write side. */
static void trylock_then_lock_orders(void)
{
	init_two_of_one_class();
	ck_assert(down_read_trylock(&sem_x));
	mutex_lock(&lock_b);
	mutex_unlock(&lock_b);
	up_read(&sem_x);
	mutex_lock(&lock_b);
	down_write(&sem_y);		/* as a deletion under a driver's lock */
	up_write(&sem_y);
	mutex_unlock(&lock_b);
}

START_TEST(what_is_taken_under_a_trylock_depends_on_it)
{
	RUN(trylock_then_lock_orders);
	ASSERT_STATUS(EXIT_OOPS);
	ASSERT_SAID("WARNING: possible circular locking dependency detected");
	ASSERT_SAID("-> #1 (lock_b){+.+.}:");
	ASSERT_SAID("  lock(lock_b);\n                               lock(i ? &sem_y : &sem_x);");
}
END_TEST

/* The task is about to wait for a lock instance it holds: the run ends at the report. */
static void write_after_own_read(void)
{
	init_two_of_one_class();
	watchdog_start(5000);
	down_read(&sem_x);
	down_write(&sem_x);
	fprintf(stderr, "not reached\n");
}

START_TEST(waiting_for_oneself_ends_the_run_with_exit_3_at_once)
{
	struct timespec t0, t1;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	RUN(write_after_own_read);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	ASSERT_STATUS(EXIT_OOPS);
	ASSERT_SAID("WARNING: possible recursive locking detected");
	ASSERT_SAID("would now wait for (i ? &sem_y : &sem_x) until it lets go of it itself");
	ck_assert_msg(!strstr(err, "not reached") && !strstr(err, "INFO: task"), "the run went on:\n%s", err);
	ck_assert_msg(t1.tv_sec - t0.tv_sec < 2, "took %ld s: the watchdog, not lockdep", (long)(t1.tv_sec - t0.tv_sec));
}
END_TEST

/* ---- classes ---- */

struct thing {
	struct mutex lock;
};

static void init_thing(struct thing *t)
{
	mutex_init(&t->lock);
}

/* Two things, one init site: one class, "&t->lock", and recursive locking if nested. */
static void two_things(void)
{
	struct thing a, b;

	init_thing(&a);
	init_thing(&b);
	mutex_lock(&a.lock);
	mutex_lock(&b.lock);
	mutex_unlock(&b.lock);
	mutex_unlock(&a.lock);
}

START_TEST(a_class_is_its_init_site_named_after_its_argument)
{
	RUN(two_things);
	ASSERT_STATUS(EXIT_OOPS);
	ASSERT_SAID("WARNING: possible recursive locking detected");
	ASSERT_SAID("(&t->lock){+.+.}, at: two_things+");
}
END_TEST

/* Released twice: "bad unlock balance". */
static void unlock_twice(void)
{
	init_two_of_one_class();
	down_read(&sem_x);
	up_read(&sem_x);
	lock_release(&sem_x.dep_map, 0);
}

START_TEST(releasing_a_lock_not_held_is_bad_unlock_balance)
{
	RUN(unlock_twice);
	ASSERT_STATUS(EXIT_OOPS);
	ASSERT_SAID("WARNING: bad unlock balance detected!");
	ASSERT_SAID("but there are no more locks to release!");
}
END_TEST

/* Off: the same inversion, silent. */
static void ab_ba_off(void)
{
	lockdep_set_enabled(false);
	ab_then_ba();
}

START_TEST(off_means_silent)
{
	RUN(ab_ba_off);
	ASSERT_STATUS(0);
	ck_assert_msg(!strstr(err, "WARNING"), "a report with lockdep off:\n%s", err);
}
END_TEST

/* ---- lockdep_assert_held() and lockdep_assert_not_held() ---- */

/* A function with a contract: call with lock_a held. */
static __noinline void needs_lock_a(void)
{
	lockdep_assert_held(&lock_a);
}

/* And one that must not be called with lock_a held. */
static __noinline void must_not_hold_lock_a(void)
{
	lockdep_assert_not_held(&lock_a);
}

static __noinline void caller_without_lock_a(void)
{
	needs_lock_a();
}

START_TEST(assert_held_without_the_lock_is_a_warning_with_the_callers_trace)
{
	RUN(caller_without_lock_a);
	ASSERT_STATUS(EXIT_OOPS);
	ASSERT_SAID("WARNING: CPU: 0 PID:");
	ASSERT_SAID("needs_lock_a+");
	ASSERT_SAID("lockdep_is_held(&lock_a) != LOCK_STATE_NOT_HELD");
	ASSERT_SAID("caller_without_lock_a+");
}
END_TEST

static __noinline void caller_with_lock_a(void)
{
	mutex_lock(&lock_a);
	must_not_hold_lock_a();
	mutex_unlock(&lock_a);
}

START_TEST(assert_not_held_with_the_lock_is_a_warning)
{
	RUN(caller_with_lock_a);
	ASSERT_STATUS(EXIT_OOPS);
	ASSERT_SAID("lockdep_is_held(&lock_a) != LOCK_STATE_HELD");
	ASSERT_SAID("caller_with_lock_a+");
}
END_TEST

/* Each contract kept, and each broken with lockdep off: silent. */
static void contracts_kept_and_off(void)
{
	mutex_lock(&lock_a);
	needs_lock_a();
	mutex_unlock(&lock_a);
	must_not_hold_lock_a();
	lockdep_set_enabled(false);
	needs_lock_a();
	caller_with_lock_a();
}

START_TEST(asserts_kept_or_with_lockdep_off_are_silent)
{
	RUN(contracts_kept_and_off);
	ASSERT_STATUS(0);
	ck_assert_msg(!strstr(err, "WARNING"), "a warning for a kept contract, or with lockdep off:\n%s", err);
}
END_TEST

/* ---- cost, counted ---- */

/*
 * What lockdep costs the fast paths, as a count rather than a time (a
 * time fails on a busy machine; make bench times it): graph_lock is the
 * one lock every task shares, so taking it on every lock would turn every
 * get+put into contention.  Off, as in a production kernel, a mutex
 * lock+unlock and a read-trylock of an active reference's map (what
 * sysfs_get_active()/sysfs_put_active() tell lockdep) never take it; on,
 * each acquire takes it exactly once and a release of a held lock never.
 */
static void graph_lock_counts(void)
{
	const unsigned long n = 1000;
	unsigned long taken[2];
	struct lockdep_map map = { .name = "s_active" };

	for (int on = 0; on < 2; on++) {
		lockdep_set_enabled(on);
		mutex_lock(&lock_a);
		mutex_lock(&lock_b);
		taken[on] = lockdep_graph_lock_taken();
		for (unsigned long i = 0; i < n; i++) {
			mutex_lock(&lock_c);
			mutex_unlock(&lock_c);
			rwsem_acquire_read(&map, 0, 1, _RET_IP_);
			rwsem_release(&map, _RET_IP_);
		}
		taken[on] = lockdep_graph_lock_taken() - taken[on];
		mutex_unlock(&lock_b);
		mutex_unlock(&lock_a);
	}
	fprintf(stderr, "graph lock taken %lu times with lockdep off, %lu with it on, for %lu rounds\n",
		taken[0], taken[1], n);
	_exit(taken[0] == 0 && taken[1] == 2 * n ? 0 : 1);
}

START_TEST(lockdep_off_never_takes_the_graph_lock_and_on_once_per_acquire)
{
	RUN(graph_lock_counts);
	ck_assert_msg(status == 0, "want 0 with lockdep off and 2 per round on:\n%s", err);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("kernel-lockdep");
	TCase *tc;

	tc = ktest_case(s, "circular", 10);
	tcase_add_test(tc, ab_ba_in_two_runs_is_a_circular_dependency);
	tcase_add_test(tc, a_longer_cycle_prints_the_whole_chain);
	tcase_add_test(tc, each_pair_of_classes_is_reported_once);
	tcase_add_test(tc, one_order_is_never_reported);
	tcase_add_test(tc, what_is_taken_under_a_trylock_depends_on_it);
	tc = ktest_case(s, "recursive", 10);
	tcase_add_test(tc, rwsem_read_then_read_of_one_class_is_recursive_locking);
	tcase_add_test(tc, a_subclass_makes_parent_child_nesting_legal);
	tcase_add_test(tc, read_trylocks_of_one_class_nest_without_a_report);
	tcase_add_test(tc, a_failed_trylock_records_nothing);
	tcase_add_test(tc, waiting_for_oneself_ends_the_run_with_exit_3_at_once);
	tc = ktest_case(s, "classes", 10);
	tcase_add_test(tc, a_class_is_its_init_site_named_after_its_argument);
	tcase_add_test(tc, releasing_a_lock_not_held_is_bad_unlock_balance);
	tcase_add_test(tc, off_means_silent);
	tc = ktest_case(s, "asserts", 10);
	tcase_add_test(tc, assert_held_without_the_lock_is_a_warning_with_the_callers_trace);
	tcase_add_test(tc, assert_not_held_with_the_lock_is_a_warning);
	tcase_add_test(tc, asserts_kept_or_with_lockdep_off_are_silent);
	tc = ktest_case(s, "cost", 20);
	tcase_add_test(tc, lockdep_off_never_takes_the_graph_lock_and_on_once_per_acquire);
	return ktest_main(s);
}
