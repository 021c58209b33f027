/* test_srcu.c - SRCU waits for every reader in progress, never for a later one, and lockdep sees it. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "explore.h"
#include "ktest.h"
#include "oops.h"
#include "srcu.h"
#include "task.h"
#include "watchdog.h"

static struct srcu_struct ss;

static void boot(void)
{
	static bool booted;

	if (booted)
		return;
	booted = true;
	task_init_main("test");
	oops_init();
}

/* run - explore h with strategy s; 0 if every schedule passed (the failure is in r). */
static int run(const struct explore_harness *h, const char *s, long runs, struct explore_result *r)
{
	struct explore_opts o = { .strategy = s, .seed = 1, .runs = runs, .quiet = true };

	memset(r, 0, sizeof(*r));
	explore_boot_hook = boot;
	return explore(h, &o, r);
}

#define ASSERT_PASSES(h, s, runs) do {							\
	struct explore_result r;							\
	ck_assert_msg(run((h), (s), (runs), &r) == 0, "%s under %s: %s\nreplay: %s", (h)->name, (s),	\
		      r.output, r.replay);						\
} while (0)

/*
 * ---- readers and one updater ----
 *
 * Each reader marks itself IN once srcu_read_lock() returned and LEFT just
 * before srcu_read_unlock().  The updater notes which readers were IN when
 * it called synchronize_srcu(): every one of them must be LEFT when it returns.
 */
enum { OUT, IN, LEFT };
static atomic_int state[2];

static void readers_setup(void)
{
	init_srcu_struct(&ss);
	atomic_store(&state[0], OUT);
	atomic_store(&state[1], OUT);
}

static void *reader_main(void *arg)
{
	int me = (int)(intptr_t)arg, idx, idx2;

	idx = srcu_read_lock(&ss);
	atomic_store(&state[me], IN);
	if (me == 0) {
		/* A nested section: its own index, and the outer one still counts. */
		idx2 = srcu_read_lock(&ss);
		sched_point();
		srcu_read_unlock(&ss, idx2);
	}
	sched_point();
	atomic_store(&state[me], LEFT);
	srcu_read_unlock(&ss, idx);
	return NULL;
}

static void *updater_main(void *arg)
{
	bool was_in[2];

	(void)arg;
	for (int i = 0; i < 2; i++)
		was_in[i] = atomic_load(&state[i]) == IN;
	synchronize_srcu(&ss);
	for (int i = 0; i < 2; i++)
		explore_assert(!was_in[i] || atomic_load(&state[i]) == LEFT,
			       "synchronize_srcu() returned while reader %d, inside its section when it was "
			       "called, was still inside", i);
	return NULL;
}

static void readers_check(void)
{
	explore_assert(atomic_read(&ss.srcu_lock_nesting[0]) == 0 && atomic_read(&ss.srcu_lock_nesting[1]) == 0,
		       "after every reader left, the counters are %d and %d, not 0 and 0",
		       atomic_read(&ss.srcu_lock_nesting[0]), atomic_read(&ss.srcu_lock_nesting[1]));
	cleanup_srcu_struct(&ss);
}

static const struct explore_harness readers_vs_update = {
	.name = "srcu-readers",
	/* One grace period: srcu-straggler-* below check the next one. */
	.claim = "a first synchronize_srcu() returns only after every reader that was inside when it was "
		 "called has left, nested sections included, and the counters end at zero",
	.setup = readers_setup,
	.tasks = {
		{ "reader0", reader_main, (void *)0 },
		{ "reader1", reader_main, (void *)1 },
		{ "updater", updater_main, NULL },
	},
	.check = readers_check,
};

/* No schedule with at most two preemptions loses a reader (every one of them is run). */
START_TEST(no_schedule_loses_a_reader_dfs_2)
{
	struct explore_result r;

	ck_assert_msg(run(&readers_vs_update, "dfs:2", 1000000, &r) == 0, "%s\nreplay: %s", r.output, r.replay);
	ck_assert_msg(r.exhausted, "dfs:2 stopped after %ld schedules without running them all", r.runs);
}
END_TEST

/*
 * ---- a second grace period: the straggler ----
 *
 * A reader may load the index, be preempted, and count itself only after
 * an updater has flipped and looked: it counts in the index that is now
 * idle.  That grace period need not wait for it (it began after the call),
 * but the next flip makes that index current again, and the next
 * synchronize_srcu() must wait for the straggler all the same.  Each
 * updater below notes, before every call, whether the reader is inside,
 * and checks after the call that such a reader has left.  One grace
 * period never shows the bug; two do, from one updater or from two.
 */
static void *sync_and_check(void)
{
	bool was_in = atomic_load(&state[0]) == IN;

	synchronize_srcu(&ss);
	explore_assert(!was_in || atomic_load(&state[0]) == LEFT,
		       "synchronize_srcu() returned while the reader, inside its section when it was called, "
		       "was still inside");
	return NULL;
}

static void *straggler_reader(void *arg)
{
	int idx;

	(void)arg;
	idx = srcu_read_lock(&ss);
	atomic_store(&state[0], IN);
	sched_point();		/* preempted inside its section */
	atomic_store(&state[0], LEFT);
	srcu_read_unlock(&ss, idx);
	return NULL;
}

static void *twice_updater(void *arg)
{
	(void)arg;
	sync_and_check();
	return sync_and_check();
}

static void *once_updater(void *arg)
{
	(void)arg;
	return sync_and_check();
}

static const struct explore_harness straggler_one_updater = {
	.name = "srcu-straggler-twice",
	.claim = "an updater that calls synchronize_srcu() twice waits, the second time, for a reader that "
		 "counted itself after the first call's flip",
	.setup = readers_setup,
	.tasks = {
		{ "reader", straggler_reader, NULL },
		{ "updater", twice_updater, NULL },
	},
	.check = readers_check,
};

static const struct explore_harness straggler_two_updaters = {
	.name = "srcu-straggler-two-updaters",
	.claim = "of two updaters, the second to flip waits for a reader that counted itself after the "
		 "first one's flip",
	.setup = readers_setup,
	.tasks = {
		{ "reader", straggler_reader, NULL },
		{ "updater0", once_updater, NULL },
		{ "updater1", once_updater, NULL },
	},
	.check = readers_check,
};

/* Every schedule with at most two preemptions (three for one updater), each run in full. */
START_TEST(a_straggler_is_waited_for_by_the_next_grace_period)
{
	static const struct {
		const struct explore_harness *h;
		const char *s;
	} plan[] = {
		{ &straggler_one_updater, "dfs:2" },
		{ &straggler_one_updater, "dfs:3" },
		{ &straggler_two_updaters, "dfs:2" },
	};

	char why[3 * 8192] = "";
	size_t n = 0;

	/* Every search runs, so a failure names each shape that shows it. */
	for (size_t i = 0; i < ARRAY_SIZE(plan); i++) {
		struct explore_result r;

		if (run(plan[i].h, plan[i].s, 1000000, &r) != 0)
			n += snprintf(why + n, sizeof(why) - n, "%s under %s: %s\nreplay: %s\n",
				      plan[i].h->name, plan[i].s, r.output, r.replay);
		else if (!r.exhausted)
			n += snprintf(why + n, sizeof(why) - n, "%s: %s stopped after %ld schedules without "
				      "running them all\n", plan[i].h->name, plan[i].s, r.runs);
	}
	ck_assert_msg(!n, "%s", why);
}
END_TEST

#ifdef SRCU_ONE_WAIT
/*
 * The negative control: this file built against a synchronize_srcu()
 * without its first wait (srcu.c with SRCU_ONE_WAIT, the code before the
 * straggler was found), by make check-kernel-srcu.  The searches above
 * must each find the reader left inside, with a replay that fails again.
 */
START_TEST(without_the_idle_index_scan_the_straggler_is_lost)
{
	static const struct {
		const struct explore_harness *h;
		const char *s;
	} plan[] = {
		{ &straggler_one_updater, "dfs:3" },
		{ &straggler_two_updaters, "dfs:2" },
	};

	for (size_t i = 0; i < ARRAY_SIZE(plan); i++) {
		struct explore_result r;

		ck_assert_msg(run(plan[i].h, plan[i].s, 1000000, &r) == 1,
			      "%s: %s ran %ld schedules and lost no reader with a single wait", plan[i].h->name,
			      plan[i].s, r.runs);
		ck_assert_msg(strstr(r.output, "was still inside"), "%s failed otherwise:\n%s", plan[i].h->name,
			      r.output);
		ck_assert_msg(r.repeats, "%s: the shrunk schedule did not fail again: %s", plan[i].h->name, r.replay);
	}
}
END_TEST
#endif

/*
 * ---- a reader in progress blocks the updater; one after the flip does not ----
 *
 * Run one at a time, switching only where a task blocks (nonpreemptive):
 * the first reader enters and waits for "go"; the updater flips and waits
 * for it; the second reader enters after the flip, lets the first go, and
 * then stays inside until the updater has returned.  If synchronize_srcu()
 * waited for the second reader too, the three would wait for each other,
 * and the controlled scheduler reports that at once.
 */
static DECLARE_WAIT_QUEUE_HEAD(go_wq);
static DECLARE_WAIT_QUEUE_HEAD(done_wq);
static atomic_t go, done, first_in, first_left, late_idx;

static void flip_setup(void)
{
	init_srcu_struct(&ss);
	atomic_set(&go, 0);
	atomic_set(&done, 0);
	atomic_set(&first_in, 0);
	atomic_set(&first_left, 0);
	atomic_set(&late_idx, -1);
}

static void *first_reader(void *arg)
{
	int idx = srcu_read_lock(&ss);

	(void)arg;
	atomic_set(&first_in, 1);
	wait_event_desc(&go_wq, "go", atomic_read(&go));
	atomic_set(&first_left, 1);
	srcu_read_unlock(&ss, idx);
	return NULL;
}

static void *flip_updater(void *arg)
{
	bool was_in = atomic_read(&first_in) && !atomic_read(&first_left);

	(void)arg;
	synchronize_srcu(&ss);
	explore_assert(!was_in || atomic_read(&first_left),
		       "synchronize_srcu() returned before the reader in progress left");
	atomic_set(&done, 1);
	wake_up_all(&done_wq);
	return NULL;
}

static void *late_reader(void *arg)
{
	int idx = srcu_read_lock(&ss);

	(void)arg;
	atomic_set(&late_idx, idx);
	atomic_set(&go, 1);
	wake_up_all(&go_wq);
	if (idx == 1)	/* after the flip: stay inside until the updater is done */
		wait_event_desc(&done_wq, "done", atomic_read(&done));
	srcu_read_unlock(&ss, idx);
	return NULL;
}

static const struct explore_harness late_reader_does_not_block = {
	.name = "srcu-late-reader",
	.claim = "synchronize_srcu() waits for the reader in progress and not for one that entered after its flip",
	.setup = flip_setup,
	.tasks = {
		{ "reader", first_reader, NULL },
		{ "updater", flip_updater, NULL },
		{ "late", late_reader, NULL },
	},
	.check = readers_check,
};

START_TEST(a_reader_in_progress_blocks_synchronize_srcu_and_a_later_one_does_not)
{
	/* In task order, as described above: the late reader does enter after the flip. */
	ASSERT_PASSES(&late_reader_does_not_block, "nonpreemptive", 1);
	/* And in every order with up to two preemptions, whichever side of the flip it lands on. */
	ASSERT_PASSES(&late_reader_does_not_block, "dfs:2", 1000000);
}
END_TEST

/*
 * ---- the index kept in a shared object: the hang ----
 *
 * Two readers keep their index in one object (the first revocable's
 * mistake).  If the updater flips between their locks, the second overwrites
 * the first one's index; both unlock index 1, and index 0 keeps a reader
 * for ever.  The explorer must find that schedule, and its replay must hang
 * again: this is what stage 5's explorer runs are made of.
 */
static struct {
	int idx;
} shared;

static void *shared_reader(void *arg)
{
	(void)arg;
	shared.idx = srcu_read_lock(&ss);
	sched_point();
	srcu_read_unlock(&ss, shared.idx);
	return NULL;
}

static void *plain_updater(void *arg)
{
	(void)arg;
	synchronize_srcu(&ss);
	return NULL;
}

static const struct explore_harness shared_index = {
	.name = "srcu-shared-index",
	.claim = "two readers that keep their SRCU index in one shared object never hang the updater",
	.setup = readers_setup,
	.tasks = {
		{ "reader0", shared_reader, NULL },
		{ "reader1", shared_reader, NULL },
		{ "updater", plain_updater, NULL },
	},
	.check = readers_check,
};

START_TEST(an_index_shared_by_two_readers_hangs_synchronize_srcu_and_the_explorer_finds_it)
{
	struct explore_result r;

	ASSERT_PASSES(&shared_index, "nonpreemptive", 1);
	ck_assert_msg(run(&shared_index, "dfs:2", 1000000, &r) == 1,
		      "dfs:2 ran %ld schedules and never hung synchronize_srcu() with a shared index", r.runs);
	ck_assert_msg(strstr(r.output, "deadlock") && strstr(r.output, "synchronize_srcu"),
		      "the failure is not the updater hung in synchronize_srcu():\n%s", r.output);
	ck_assert_msg(r.repeats, "the shrunk schedule did not hang again: %s", r.replay);
}
END_TEST

/* ---- free threads: an updater retires objects that readers may still be reading ---- */

struct obj {
	atomic_int alive;
};
static _Atomic(struct obj *) cur;
static atomic_bool stop;
static atomic_long reads;

/*
 * free_reader - a plain thread, not a task: task_init_main() is for the
 * test's one main thread (it links one static task, which three threads
 * would link three times, the task list then a cycle).
 */
static void *free_reader(void *arg)
{
	(void)arg;
	while (!atomic_load(&stop)) {
		int idx = srcu_read_lock(&ss);
		struct obj *o = atomic_load(&cur);

		for (int i = 0; i < 50; i++)
			ck_assert_msg(atomic_load(&o->alive), "a reader saw an object retired under it");
		srcu_read_unlock(&ss, idx);
		atomic_fetch_add(&reads, 1);
	}
	return NULL;
}

START_TEST(free_threads_never_read_a_retired_object)
{
	enum { NOBJ = 2000 };
	static struct obj objs[NOBJ];
	pthread_t t[3];

	task_init_main("test");
	init_srcu_struct(&ss);
	atomic_store(&objs[0].alive, 1);
	atomic_store(&cur, &objs[0]);
	for (int i = 0; i < 3; i++)
		pthread_create(&t[i], NULL, free_reader, NULL);
	/* At least NOBJ grace periods, and on until the readers have done some work. */
	for (long i = 1; i < NOBJ || (atomic_load(&reads) < 20000 && i < 1000000); i++) {
		struct obj *old, *o = &objs[i % NOBJ];

		atomic_store(&o->alive, 1);	/* retired two grace periods ago at least */
		old = atomic_exchange(&cur, o);
		synchronize_srcu(&ss);
		atomic_store(&old->alive, 0);	/* what kfree() would do */
	}
	atomic_store(&stop, true);
	for (int i = 0; i < 3; i++)
		pthread_join(t[i], NULL);
	ck_assert_msg(atomic_load(&reads) > 0, "no reader ran");
	cleanup_srcu_struct(&ss);
}
END_TEST

/* ---- lockdep ---- */

/* in_child - run fn in a child with lockdep on and stderr captured; its exit status. */
static int in_child(void (*fn)(void), char *buf, size_t len)
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
	while (got < (ssize_t)len - 1 && (n = read(pipefd[0], buf + got, len - 1 - got)) > 0)
		got += n;
	buf[got] = '\0';
	close(pipefd[0]);
	waitpid(pid, &st, 0);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

static void nested_sections(void)
{
	int a, b;

	init_srcu_struct(&ss);
	a = srcu_read_lock(&ss);
	b = srcu_read_lock(&ss);
	srcu_read_unlock(&ss, b);
	srcu_read_unlock(&ss, a);
	synchronize_srcu(&ss);
}

START_TEST(nested_sections_are_legal_for_lockdep)
{
	char err[8192];
	int status = in_child(nested_sections, err, sizeof(err));

	ck_assert_msg(status == 0 && !strstr(err, "WARNING"), "exit %d, want 0 and no report:\n%s", status, err);
}
END_TEST

static void sync_inside_section(void)
{
	init_srcu_struct(&ss);
	srcu_read_lock(&ss);
	synchronize_srcu(&ss);
	fprintf(stderr, "not reached\n");
}

START_TEST(synchronize_srcu_inside_its_own_section_is_reported)
{
	char err[16384];
	int status = in_child(sync_inside_section, err, sizeof(err));

	ck_assert_msg(status == EXIT_OOPS, "exit %d, want %d:\n%s", status, EXIT_OOPS, err);
	ck_assert_msg(strstr(err, "WARNING: possible recursive locking detected"), "no report:\n%s", err);
	ck_assert_msg(strstr(err, "&ss"), "the report does not name the domain (&ss):\n%s", err);
	ck_assert_msg(strstr(err, "synchronize_srcu"), "the report does not show synchronize_srcu():\n%s", err);
	ck_assert_msg(!strstr(err, "not reached"), "the run went on into a wait for ever:\n%s", err);
}
END_TEST

/* A reader that takes a mutex inside its section, and an updater that calls synchronize_srcu() under it. */
static DEFINE_MUTEX(drv_lock);

static void mutex_around_synchronize(void)
{
	int idx;

	init_srcu_struct(&ss);
	idx = srcu_read_lock(&ss);
	mutex_lock(&drv_lock);
	mutex_unlock(&drv_lock);
	srcu_read_unlock(&ss, idx);
	mutex_lock(&drv_lock);
	synchronize_srcu(&ss);	/* no reader now: it returns; lockdep still sees the order */
	mutex_unlock(&drv_lock);
}

START_TEST(a_mutex_inside_a_section_and_around_synchronize_srcu_is_a_circular_dependency)
{
	char err[16384];
	int status = in_child(mutex_around_synchronize, err, sizeof(err));

	ck_assert_msg(status == EXIT_OOPS, "exit %d, want %d:\n%s", status, EXIT_OOPS, err);
	ck_assert_msg(strstr(err, "WARNING: possible circular locking dependency detected"), "no report:\n%s", err);
	ck_assert_msg(strstr(err, "drv_lock") && strstr(err, "&ss"), "the report does not name both:\n%s", err);
}
END_TEST

int main(void)
{
#ifdef SRCU_ONE_WAIT
	Suite *s = suite_create("kernel-srcu-one-wait");
	TCase *tc = ktest_case(s, "schedules", 60);

	tcase_add_test(tc, without_the_idle_index_scan_the_straggler_is_lost);
#else
	Suite *s = suite_create("kernel-srcu");
	TCase *tc;

	tc = ktest_case(s, "schedules", 120);
	tcase_add_test(tc, a_reader_in_progress_blocks_synchronize_srcu_and_a_later_one_does_not);
	tcase_add_test(tc, no_schedule_loses_a_reader_dfs_2);
	tcase_add_test(tc, a_straggler_is_waited_for_by_the_next_grace_period);
	tcase_add_test(tc, an_index_shared_by_two_readers_hangs_synchronize_srcu_and_the_explorer_finds_it);
	tc = ktest_case(s, "threads", 30);
	tcase_add_test(tc, free_threads_never_read_a_retired_object);
	tc = ktest_case(s, "lockdep", 10);
	tcase_add_test(tc, nested_sections_are_legal_for_lockdep);
	tcase_add_test(tc, synchronize_srcu_inside_its_own_section_is_reported);
	tcase_add_test(tc, a_mutex_inside_a_section_and_around_synchronize_srcu_is_a_circular_dependency);
#endif
	return ktest_main(s);
}
