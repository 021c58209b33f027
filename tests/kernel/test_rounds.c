/* test_rounds.c - every waiting primitive holds in its second round, not only its first (SRCU's lesson). */
#include <stdio.h>
#include <string.h>
#include "explore.h"
#include "ktest.h"
#include "oops.h"
#include "percpu_ref.h"
#include "rwsem.h"
#include "task.h"
#include "wait.h"

/*
 * The simulated SRCU passed every schedule of one grace period and lost a
 * reader in the second (test_srcu.c, the straggler): state left behind by
 * one round (a counter, a flag, a count of waiters) can break the next.
 * Each harness here runs a primitive twice over with a task that is
 * preempted between or inside the rounds, and checks the promise of each
 * round.  SRCU's own harnesses stay in test_srcu.c.
 *
 * RCU has no harness of its own: under the controlled scheduler no task
 * stops inside an RCU read-side section (rcu.h), so a harness could not
 * catch a grace period that returns early.  Its two rounds run inside
 * percpu_ref's harness below, whose kills each wait for one, and the
 * argument that a section stamped before a grace period is waited for by
 * every later one is in rcu.c.
 */

static void boot(void)
{
	static bool booted;

	if (booted)
		return;
	booted = true;
	task_init_main("test");
	oops_init();
}

/* run - explore h under strategy s; 0 if every schedule passed (the failure is in r). */
static int run(const struct explore_harness *h, const char *s, struct explore_result *r)
{
	struct explore_opts o = { .strategy = s, .seed = 1, .runs = 1000000, .quiet = true };

	memset(r, 0, sizeof(*r));
	explore_boot_hook = boot;
	return explore(h, &o, r);
}

#define ASSERT_EVERY_SCHEDULE(h, s) do {						\
	struct explore_result r;							\
	ck_assert_msg(run((h), (s), &r) == 0, "%s under %s: %s\nreplay: %s", (h)->name, (s),	\
		      r.output, r.replay);						\
	ck_assert_msg(r.exhausted, "%s: %s stopped after %ld schedules without running them all",	\
		      (h)->name, (s), r.runs);						\
} while (0)

/*
 * ---- rwsem: writer, reader, writer ----
 *
 * A writer that enters twice, a second writer, and a reader that enters
 * twice: never a writer with anyone else inside, and at the end nobody
 * inside and nobody counted as waiting.  A writers_waiting count that one
 * round left above zero would shut the reader out of the next for ever.
 */
static struct rw_semaphore sem;
static atomic_int writers_in, readers_in;

static void rwsem_setup(void)
{
	init_rwsem(&sem, "rounds");
	atomic_store(&writers_in, 0);
	atomic_store(&readers_in, 0);
}

static void write_section(void)
{
	down_write(&sem);
	explore_assert(atomic_fetch_add(&writers_in, 1) == 0 && atomic_load(&readers_in) == 0,
		       "a writer entered with %d writer(s) and %d reader(s) inside",
		       atomic_load(&writers_in) - 1, atomic_load(&readers_in));
	sched_point();
	atomic_fetch_sub(&writers_in, 1);
	up_write(&sem);
}

static void read_section(void)
{
	down_read(&sem);
	atomic_fetch_add(&readers_in, 1);
	explore_assert(atomic_load(&writers_in) == 0, "a reader entered with a writer inside");
	sched_point();
	atomic_fetch_sub(&readers_in, 1);
	up_read(&sem);
}

static void *writer_twice(void *arg)
{
	(void)arg;
	write_section();
	write_section();
	return NULL;
}

static void *writer_once(void *arg)
{
	(void)arg;
	write_section();
	return NULL;
}

static void *reader_twice(void *arg)
{
	(void)arg;
	read_section();
	read_section();
	return NULL;
}

static void rwsem_check(void)
{
	explore_assert(sem.readers == 0 && !sem.writer && sem.writers_waiting == 0,
		       "after every section ended the rwsem has %d reader(s), writer %d, %d writer(s) waiting",
		       sem.readers, sem.writer, sem.writers_waiting);
	destroy_rwsem(&sem);
}

static const struct explore_harness rwsem_rounds = {
	.name = "rwsem-rounds",
	.claim = "over writer, reader, writer rounds, a writer is alone inside and every round leaves the "
		 "rwsem as it found it",
	.setup = rwsem_setup,
	.tasks = {
		{ "writer0", writer_twice, NULL },
		{ "reader", reader_twice, NULL },
		{ "writer1", writer_once, NULL },
	},
	.check = rwsem_check,
};

START_TEST(rwsem_holds_over_writer_reader_writer)
{
	ASSERT_EVERY_SCHEDULE(&rwsem_rounds, "dfs:2");
}
END_TEST

/*
 * ---- wait queues: two wake-ups, a sleeper that waits again ----
 *
 * The waker raises a count to 1 and wakes, then to 2 and wakes; each
 * sleeper waits for 1, then again for 2.  A lost wake-up leaves a sleeper
 * asleep with the count already there: the explorer reports the run as a
 * deadlock.  The second pair uses wait_event_mutex_desc(), the wait that
 * gives a mutex up while it sleeps.
 */
static DECLARE_WAIT_QUEUE_HEAD(rounds_wq);
static DEFINE_MUTEX(rounds_lock);
static atomic_int level;

static void wait_setup(void)
{
	atomic_store(&level, 0);
}

static void *sleeper(void *arg)
{
	(void)arg;
	for (int want = 1; want <= 2; want++) {
		wait_event_desc(&rounds_wq, "level", atomic_load(&level) >= want);
		explore_assert(atomic_load(&level) >= want, "woke with level %d, waiting for %d",
			       atomic_load(&level), want);
	}
	return NULL;
}

static void *mutex_sleeper(void *arg)
{
	(void)arg;
	mutex_lock(&rounds_lock);
	for (int want = 1; want <= 2; want++)
		wait_event_mutex_desc(&rounds_wq, "level under rounds_lock", atomic_load(&level) >= want,
				      &rounds_lock);
	mutex_unlock(&rounds_lock);
	return NULL;
}

static void *waker(void *arg)
{
	(void)arg;
	for (int i = 0; i < 2; i++) {
		atomic_fetch_add(&level, 1);
		wake_up_all(&rounds_wq);
	}
	return NULL;
}

static const struct explore_harness wait_rounds = {
	.name = "wait-rounds",
	.claim = "a sleeper that waits again after a wake-up is woken by the second one too",
	.setup = wait_setup,
	.tasks = {
		{ "sleeper", sleeper, NULL },
		{ "msleeper", mutex_sleeper, NULL },
		{ "waker", waker, NULL },
	},
};

START_TEST(a_sleeper_that_waits_again_is_woken_again)
{
	ASSERT_EVERY_SCHEDULE(&wait_rounds, "dfs:2");
}
END_TEST

/*
 * ---- percpu_ref: two refs killed in turn, a user of each ----
 *
 * There is no percpu_ref_reinit() here, so the second round is a second
 * ref: the killer kills A, then B (two grace periods); the user takes a
 * live reference on A, is preempted inside, drops it, then does the same
 * on B.  A ref is released exactly once, never while its user is inside,
 * and a tryget_live after the kill fails.
 */
static struct percpu_ref refs[2];
static atomic_int using[2], released_count[2], killed[2];

static void ref_release(struct percpu_ref *ref)
{
	int i = ref == &refs[1];

	explore_assert(atomic_load(&using[i]) == 0, "ref %c released while its user was inside", 'A' + i);
	atomic_fetch_add(&released_count[i], 1);
}

static void ref_setup(void)
{
	for (int i = 0; i < 2; i++) {
		BUG_ON(percpu_ref_init(&refs[i], ref_release) != 0);
		atomic_store(&using[i], 0);
		atomic_store(&released_count[i], 0);
		atomic_store(&killed[i], 0);
	}
}

static void *ref_user(void *arg)
{
	(void)arg;
	for (int i = 0; i < 2; i++) {
		bool was_killed = atomic_load(&killed[i]);

		if (!percpu_ref_tryget_live(&refs[i]))
			continue;
		explore_assert(!was_killed, "tryget_live on ref %c succeeded after its kill returned", 'A' + i);
		atomic_store(&using[i], 1);
		sched_point();
		atomic_store(&using[i], 0);
		percpu_ref_put(&refs[i]);
	}
	return NULL;
}

static void *ref_killer(void *arg)
{
	(void)arg;
	for (int i = 0; i < 2; i++) {
		percpu_ref_kill(&refs[i]);
		atomic_store(&killed[i], 1);
	}
	return NULL;
}

static void ref_check(void)
{
	for (int i = 0; i < 2; i++) {
		explore_assert(atomic_load(&released_count[i]) == 1 && percpu_ref_is_zero(&refs[i]),
			       "ref %c was released %d time(s), count %ld", 'A' + i,
			       atomic_load(&released_count[i]), atomic_load(&refs[i].count));
		percpu_ref_exit(&refs[i]);
	}
}

static const struct explore_harness percpu_ref_rounds = {
	.name = "percpu-ref-rounds",
	.claim = "two refs killed in turn, each with a user preempted inside: each is released once, "
		 "after its user left",
	.setup = ref_setup,
	.tasks = {
		{ "user", ref_user, NULL },
		{ "killer", ref_killer, NULL },
	},
	.check = ref_check,
};

START_TEST(two_kills_release_each_ref_once_after_its_user)
{
	ASSERT_EVERY_SCHEDULE(&percpu_ref_rounds, "dfs:2");
}
END_TEST

int main(void)
{
	Suite *s = suite_create("kernel-rounds");
	TCase *tc = ktest_case(s, "schedules", 120);

	tcase_add_test(tc, rwsem_holds_over_writer_reader_writer);
	tcase_add_test(tc, a_sleeper_that_waits_again_is_woken_again);
	tcase_add_test(tc, two_kills_release_each_ref_once_after_its_user);
	return ktest_main(s);
}
