/* test_core.c - the simulated kernel's mechanisms behave like the kernel's. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include <valgrind/valgrind.h>
#include "delay.h"
#include "kref.h"
#include "lockdep.h"
#include "mutex.h"
#include "ktest.h"
#include "oops.h"
#include "rwsem.h"
#include "scheduler.h"
#include "slab.h"
#include "task.h"
#include "trace.h"
#include "watchdog.h"
#include "workqueue.h"

/* Every test starts as a kernel would: task 1, the oops handler, a kworker. */
static void boot(void)
{
	task_init_main("test");
	oops_init();
	workqueue_init();
}

/* ---- tasks ---- */

struct task_seen {
	pthread_t thread;
	int depth;			/* lockdep_depth() as the task starts */
	struct task_struct *self;	/* current */
};
static DEFINE_MUTEX(left_held);

/* The first task leaves with a lock held: nothing of that may reach the next. */
static void *leaves_a_lock_held(void *arg)
{
	struct task_seen *seen = arg;

	seen->thread = pthread_self();
	seen->self = current;
	mutex_lock(&left_held);
	seen->depth = lockdep_depth();
	return NULL;
}

static void *starts(void *arg)
{
	struct task_seen *seen = arg;

	seen->thread = pthread_self();
	seen->self = current;
	seen->depth = lockdep_depth();
	return NULL;
}

START_TEST(a_thread_runs_the_next_task_clean)
{
	struct task_seen a = { 0 }, b = { 0 };
	struct task_struct *t;

	boot();
	t = kthread_run(leaves_a_lock_held, &a, "first");
	kthread_join(t);
	ck_assert_int_eq(a.depth, 1);
	t = kthread_run(starts, &b, "second");
	kthread_join(t);
	ck_assert_msg(b.self == t, "current in the second task is not its task_struct");
	ck_assert_msg(b.depth == 0, "the second task starts holding %d lock(s) of the task before it", b.depth);
#if !defined(__SANITIZE_THREAD__)
	/* Natively the thread is reused (task.c): the test above saw one thread run both. */
	if (!RUNNING_ON_VALGRIND)
		ck_assert_msg(pthread_equal(a.thread, b.thread),
			      "the second task did not run on the first one's thread: threads are not reused");
#endif
}
END_TEST

/* ---- kref ---- */

static atomic_int released;
static void count_release(struct kref *k)
{
	(void)k;
	atomic_fetch_add(&released, 1);
}

START_TEST(kref_last_put_releases_once)
{
	struct kref k;

	kref_init(&k);
	kref_get(&k);
	ck_assert_int_eq(kref_put(&k, count_release), 0);
	ck_assert_int_eq(atomic_load(&released), 0);
	ck_assert_int_eq(kref_put(&k, count_release), 1);
	ck_assert_int_eq(atomic_load(&released), 1);
}
END_TEST

struct hammer { struct kref *k; int rounds; };
static void *hammer_fn(void *arg)
{
	struct hammer *h = arg;

	for (int i = 0; i < h->rounds; i++) {
		kref_get(h->k);
		kref_put(h->k, count_release);
	}
	kref_put(h->k, count_release);	/* the reference this task was given */
	return NULL;
}

START_TEST(kref_concurrent_get_put_releases_exactly_once)
{
	struct kref k;
	struct hammer h = { &k, 100000 };
	struct task_struct *t[4];

	boot();
	kref_init(&k);
	for (int i = 0; i < 4; i++)
		kref_get(&k);		/* one for each task, taken before it starts */
	for (int i = 0; i < 4; i++)
		t[i] = kthread_run(hammer_fn, &h, "hammer%d", i);
	kref_put(&k, count_release);	/* the creator's */
	for (int i = 0; i < 4; i++)
		kthread_join(t[i]);
	ck_assert_int_eq(atomic_load(&released), 1);
	ck_assert_int_eq(kref_read(&k), 0);
}
END_TEST

/* ---- slab ---- */

/*
 * A lookup structure whose entries leave it in their release(), under
 * its lock: between the last put and the removal, a lookup under the
 * lock can still find an entry whose count is zero.
 */
struct entry {
	struct kref kref;
};
static DEFINE_MUTEX(table_lock);
static struct entry *table_slot;
static atomic_int entry_released;

static void entry_release(struct kref *k)
{
	struct entry *e = container_of(k, struct entry, kref);

	mutex_lock(&table_lock);
	if (table_slot == e)
		table_slot = NULL;
	mutex_unlock(&table_lock);
	atomic_fetch_add(&entry_released, 1);
}

static void *last_put_fn(void *arg)
{
	kref_put(arg, entry_release);
	return NULL;
}

START_TEST(kref_get_unless_zero_refuses_an_entry_found_while_dying)
{
	static struct entry e;
	struct task_struct *t;

	boot();
	kref_init(&e.kref);
	table_slot = &e;
	mutex_lock(&table_lock);		/* a lookup is in progress */
	t = kthread_run(last_put_fn, &e.kref, "putter");
	while (kref_read(&e.kref) != 0)		/* the last put has happened... */
		usleep(1000);
	ck_assert_ptr_eq(table_slot, &e);	/* ...and its release waits for our lock */
	ck_assert_msg(!kref_get_unless_zero(&table_slot->kref),
		      "kref_get_unless_zero() took a reference on an entry whose count was zero");
	ck_assert_msg(kref_read(&e.kref) == 0, "the dying entry's count changed to %d", kref_read(&e.kref));
	mutex_unlock(&table_lock);
	kthread_join(t);
	ck_assert_int_eq(atomic_load(&entry_released), 1);
	ck_assert_ptr_null(table_slot);
	/* And on a live entry it is an ordinary get. */
	kref_init(&e.kref);
	ck_assert(kref_get_unless_zero(&e.kref));
	ck_assert_int_eq(kref_read(&e.kref), 2);
}
END_TEST

/*
 * kref_read() is a schedule point, as every atomic_t read is: a put that
 * decrements and then reads the count to see zero must leave a window the
 * explorer can open.  A trace line's read is not one, or a traced run
 * would meet more points than the same run untraced, and a schedule found
 * untraced would replay as another run with its trace on.
 */
START_TEST(kref_read_is_a_schedule_point_but_not_in_a_trace_line)
{
	char path[] = "/tmp/ktest-trace-XXXXXX", err[128];
	int fd = mkstemp(path);
	struct sched_strategy st;
	const struct sched_log *log;
	unsigned long before, read_steps, traced_steps;
	struct kref k;

	boot();
	close(fd);
	ck_assert_int_eq(sched_parse("nonpreemptive", 1, &st, err, sizeof(err)), 0);
	ck_assert_int_eq(trace_open(path), 0);
	kref_init(&k);
	sched_start(&st, NULL);
	log = sched_current_log();
	before = log->steps;
	ck_assert_int_eq(kref_read(&k), 1);
	read_steps = log->steps - before;
	before = log->steps;
	trace_event("get", "kref:k", "count=%d", kref_read(&k));
	traced_steps = log->steps - before;
	sched_stop();
	trace_close();
	unlink(path);
	sched_strategy_free(&st);
	ck_assert_msg(read_steps == 1, "kref_read() made %lu schedule points, want 1", read_steps);
	ck_assert_msg(traced_steps == 0, "a trace line's kref_read() made %lu schedule points, want 0", traced_steps);
}
END_TEST

START_TEST(kfree_poisons_and_fences_the_object)
{
	char *p = kmalloc(40, "victim");
	const char *name, *by;
	size_t size;
	uintptr_t start;

	boot();
	strcpy(p, "alive");
	ck_assert_int_eq(slab_live_objects(), 1);
	kfree(p);
	ck_assert_int_eq(slab_live_objects(), 0);
	ck_assert(slab_lookup_freed((uintptr_t)p + 3, &name, &size, &start, &by));
	ck_assert_str_eq(name, "victim");
	ck_assert_uint_eq(size, 40);
	ck_assert_ptr_eq((void *)start, p);
	ck_assert_str_eq(by, "test[1]");
}
END_TEST

/* Run fn in a child and return its exit status; its stderr goes to errbuf. */
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
		fn();
		_exit(0);
	}
	close(pipefd[1]);
	while (got < (ssize_t)len - 1 && (n = read(pipefd[0], errbuf + got, len - 1 - got)) > 0)
		got += n;
	errbuf[got] = '\0';
	close(pipefd[0]);
	waitpid(pid, &st, 0);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

static void read_after_free(void)
{
	volatile int *p;

	boot();
	p = kmalloc(sizeof(int) * 4, "mouse_priv");
	p[1] = 7;
	kfree((void *)p);
	(void)p[1];		/* the use-after-free */
}

START_TEST(read_after_kfree_is_reported_as_bug_exit_3)
{
	char err[8192];
	int status = in_child(read_after_free, err, sizeof(err));

	ck_assert_msg(status == EXIT_OOPS, "exit %d, want 3; stderr:\n%s", status, err);
	ck_assert_msg(strstr(err, "use-after-free"), "no use-after-free report:\n%s", err);
	ck_assert_msg(strstr(err, "mouse_priv"), "the report does not name the object:\n%s", err);
	ck_assert_msg(strstr(err, "read_after_free"), "the report has no call trace:\n%s", err);
}
END_TEST

static void double_free(void)
{
	void *p;

	boot();
	p = kmalloc(8, "twice");
	kfree(p);
	kfree(p);
}

START_TEST(double_kfree_is_a_bug)
{
	char err[8192];
	int status = in_child(double_free, err, sizeof(err));

	ck_assert_msg(status == EXIT_OOPS, "exit %d, want 3; stderr:\n%s", status, err);
	ck_assert_msg(strstr(err, "double free of twice (size 8)"), "no double-free report:\n%s", err);
	ck_assert_msg(strstr(err, "Freed before by task "), "the earlier free is not shown:\n%s", err);
}
END_TEST

/* An allocation the host cannot back: the address space is limited first. */
static void kmalloc_beyond_the_host(void)
{
	struct rlimit lim = { 64UL << 20, 64UL << 20 };

	boot();
	if (setrlimit(RLIMIT_AS, &lim) != 0)
		_exit(1);
	kmalloc(256UL << 20, "huge");
	_exit(0);	/* kmalloc() returned: NULL, or memory past the limit */
}

START_TEST(kmalloc_never_returns_null_and_a_host_out_of_memory_is_a_bug)
{
	char err[8192];
	int status = in_child(kmalloc_beyond_the_host, err, sizeof(err));

	ck_assert_msg(status == EXIT_OOPS, "exit %d, want 3 (kmalloc() must not return NULL); stderr:\n%s",
		      status, err);
	ck_assert_msg(strstr(err, "kmalloc: no memory for huge") && strstr(err, "kernel BUG at"),
		      "no report naming the object:\n%s", err);
}
END_TEST

/* ---- rwsem ---- */

static struct rw_semaphore sem;
static atomic_int writer_in;

static void *writer_fn(void *unused)
{
	(void)unused;
	down_write(&sem);
	atomic_store(&writer_in, 1);
	up_write(&sem);
	return NULL;
}

START_TEST(waiting_writer_makes_read_trylock_fail)
{
	struct task_struct *w;

	boot();
	init_rwsem(&sem, "test_sem");
	ck_assert_int_eq(down_read_trylock(&sem), 1);
	w = kthread_run(writer_fn, NULL, "writer");
	/* Wait until the writer is queued behind our read hold. */
	while (!atomic_load(&w->blocked_on))
		msleep(1);
	ck_assert_msg(down_read_trylock(&sem) == 0,
		      "down_read_trylock succeeded while a writer waits: pthread rwlock semantics, not the kernel's");
	ck_assert_int_eq(atomic_load(&writer_in), 0);
	up_read(&sem);
	kthread_join(w);
	ck_assert_int_eq(atomic_load(&writer_in), 1);
	ck_assert_int_eq(down_read_trylock(&sem), 1);
	up_read(&sem);
	destroy_rwsem(&sem);
}
END_TEST

START_TEST(write_held_forever_refuses_every_reader)
{
	boot();
	init_rwsem(&sem, "test_sem");
	down_write(&sem);		/* what sysfs deactivation does, never undone */
	for (int i = 0; i < 3; i++)
		ck_assert_int_eq(down_read_trylock(&sem), 0);
	destroy_rwsem(&sem);
}
END_TEST

static void self_deadlock(void)
{
	boot();
	lockdep_set_enabled(false);	/* the watchdog's claim: lockdep would report first (test_lockdep.c) */
	watchdog_start(300);
	init_rwsem(&sem, "s_active of /sys/demo/self");
	down_read(&sem);
	down_write(&sem);	/* waits for our own read hold: forever */
}

START_TEST(self_deadlock_is_reported_by_the_watchdog_exit_4)
{
	char err[8192];
	int status = in_child(self_deadlock, err, sizeof(err));

	ck_assert_msg(status == EXIT_HUNG, "exit %d, want 4; stderr:\n%s", status, err);
	ck_assert_msg(strstr(err, "blocked for more than 300 ms"), "no hung-task report:\n%s", err);
	ck_assert_msg(strstr(err, "down_write s_active of /sys/demo/self"),
		      "the report does not say what the task waits on:\n%s", err);
}
END_TEST

/* ---- workqueue ---- */

static char order[16];
struct tagged_work { struct work_struct work; char tag; };

static void append_tag(struct work_struct *w)
{
	struct tagged_work *t = container_of(w, struct tagged_work, work);

	msleep(5);
	order[strlen(order)] = t->tag;
	snprintf(order + strlen(order), sizeof(order) - strlen(order), "%s",
		 strcmp(current->comm, "kworker/0:1") == 0 ? "" : "?");
}

START_TEST(work_runs_in_queue_order_on_a_kworker)
{
	struct tagged_work w[3];

	boot();
	for (int i = 0; i < 3; i++) {
		INIT_WORK(&w[i].work, append_tag);
		w[i].tag = 'a' + i;
		ck_assert(schedule_work(&w[i].work));
	}
	ck_assert(!schedule_work(&w[2].work));	/* already queued */
	flush_scheduled_work();
	ck_assert_str_eq(order, "abc");
	ck_assert(workqueue_idle());
}
END_TEST

/* ---- delay points ---- */

DELAY_POINT(test_point)

START_TEST(delay_point_sleeps_only_when_set)
{
	long t0;

	boot();
	ck_assert(delay_known("test_point"));
	ck_assert_int_eq(delay_set("no_such_point", 10), -ENOENT);
	t0 = jiffies_ms();
	delay_point("test_point");
	ck_assert_int_lt(jiffies_ms() - t0, 50);
	ck_assert_int_eq(delay_set("test_point", 120), 0);
	t0 = jiffies_ms();
	delay_point("test_point");
	ck_assert_int_ge(jiffies_ms() - t0, 120);
}
END_TEST

/* ---- trace ---- */

START_TEST(trace_names_are_stable_and_numbered)
{
	char a[TRACE_NAME_LEN], b[TRACE_NAME_LEN], c[TRACE_NAME_LEN];

	trace_name(a, sizeof(a), "kobject", "sda");
	trace_name(b, sizeof(b), "kobject", "sda");
	trace_name(c, sizeof(c), "module", "sda");
	ck_assert_str_eq(a, "kobject:sda");
	ck_assert_str_eq(b, "kobject:sda#2");
	ck_assert_str_eq(c, "module:sda");
}
END_TEST

START_TEST(trace_file_has_header_and_ordered_events)
{
	char path[] = "/tmp/ktest-trace-XXXXXX", buf[512];
	int fd = mkstemp(path);
	FILE *f;

	boot();
	close(fd);
	ck_assert_int_eq(trace_open(path), 0);
	trace_event("create", "kobject:sda", "count=1");
	trace_enable(false);
	trace_event("get", "kobject:sda", "count=2");	/* dropped: tracing is off */
	trace_enable(true);
	trace_event("put", "kobject:sda", "count=0 by=%s", current->tag);
	trace_close();
	f = fopen(path, "r");
	ck_assert(f);
	buf[fread(buf, 1, sizeof(buf) - 1, f)] = '\0';
	fclose(f);
	unlink(path);
	ck_assert_str_eq(buf, "ksim-trace 1\n"
			      "1 test[1] create kobject:sda count=1\n"
			      "2 test[1] put kobject:sda count=0 by=test[1]\n");
}
END_TEST

int main(void)
{
	Suite *s = suite_create("kernel-core");
	TCase *tc;

	tc = ktest_case(s, "task", 10);
	tcase_add_test(tc, a_thread_runs_the_next_task_clean);
	tc = ktest_case(s, "kref", 20);
	tcase_add_test(tc, kref_last_put_releases_once);
	tcase_add_test(tc, kref_concurrent_get_put_releases_exactly_once);
	tcase_add_test(tc, kref_get_unless_zero_refuses_an_entry_found_while_dying);
	tcase_add_test(tc, kref_read_is_a_schedule_point_but_not_in_a_trace_line);
	tc = ktest_case(s, "slab", 10);
	tcase_add_test(tc, kfree_poisons_and_fences_the_object);
	tcase_add_test(tc, read_after_kfree_is_reported_as_bug_exit_3);
	tcase_add_test(tc, double_kfree_is_a_bug);
	tcase_add_test(tc, kmalloc_never_returns_null_and_a_host_out_of_memory_is_a_bug);
	tc = ktest_case(s, "rwsem", 10);
	tcase_add_test(tc, waiting_writer_makes_read_trylock_fail);
	tcase_add_test(tc, write_held_forever_refuses_every_reader);
	tcase_add_test(tc, self_deadlock_is_reported_by_the_watchdog_exit_4);
	tc = ktest_case(s, "workqueue", 10);
	tcase_add_test(tc, work_runs_in_queue_order_on_a_kworker);
	tc = ktest_case(s, "delay", 10);
	tcase_add_test(tc, delay_point_sleeps_only_when_set);
	tc = ktest_case(s, "trace", 10);
	tcase_add_test(tc, trace_names_are_stable_and_numbered);
	tcase_add_test(tc, trace_file_has_header_and_ordered_events);
	return ktest_main(s);
}
