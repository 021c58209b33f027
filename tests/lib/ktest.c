/* ktest.c - the fork-mode Check runner every suite shares: timeouts, a hang budget, output per test. */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdio_ext.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>
#include "ktest.h"
#include "task.h"

/*
 * The simulated kernel, if this suite is linked with it (the suites of the
 * scenario runner are not): weak, so ktest links either way, and a hang
 * dump only happens where there are tasks to dump.
 */
extern pthread_mutex_t tasks_lock __attribute__((weak));
extern struct task_struct *tasks_head __attribute__((weak));
void oops_dump_task(struct task_struct *t) __attribute__((weak));
void printk(const char *fmt, ...) __attribute__((weak));

static bool forking = true;	/* false under CK_FORK=no: the fixture arms no timer */

/*
 * ---- graded runs: verdicts on a descriptor the grader opened, and canaries ----
 *
 * What a graded suite's process may claim is not believed (it runs the
 * student's code): Check's own verdict is an exit status, and a redefined
 * _exit(), an atexit() handler rewriting the XML log, or a helper editing
 * the results directory changes it.  So the grader (tests/grade/grade.sh,
 * as root) opens two descriptors the run inherits: KTEST_KEY_FD, a file
 * only root can open, holding a random key and the names of this run's
 * canaries; KTEST_VERDICT_FD, a pipe only root reads.  A test's "pass"
 * reaches that pipe, with the key, only from here, once its body returned
 * and its teardowns ran: a failed assertion, a crash, an early exit or a
 * timeout never gets there, whatever exit status Check then sees.  The
 * canaries run a real test's body, then fail as an assertion does: one
 * reported passed means the failures were swallowed.  The grader voids the
 * grading when a canary passed or when Check's counts (the summary line
 * written below) claim more passes than the pipe carried.  This stops a
 * submission that does not know this file; one that reads the key from
 * this process's memory can forge its own verdicts, which is why the gate
 * refuses system calls, constructors and symbols outside the stage's API
 * (README, "Grading a course").
 */
struct ktest_slot {
	TCase *tc;
	const TTest *body;	/* the test whose body runs */
	int i;			/* its loop index */
	bool canary;		/* runs body, then fails */
	TTest tt;		/* what Check runs: body's name (or a canary's), the trampoline */
};

static struct ktest_slot *slots;
static int nslots;
static int verdict_fd = -1;
static char key[128];
static int running = -1;		/* in a test's process: the slot it runs */
static bool body_returned;		/* ... and whether its body returned */
static unsigned long long rng;

static bool graded(void)
{
	return getenv("KTEST_VERDICT_FD") && getenv("KTEST_KEY_FD");
}

static struct ktest_slot *new_slot(void)
{
	struct ktest_slot *n = realloc(slots, (nslots + 1) * sizeof(*slots));

	if (!n) {
		fprintf(stderr, "ktest: out of memory\n");
		exit(EXIT_FAILURE);
	}
	slots = n;
	memset(&slots[nslots], 0, sizeof(*slots));
	return &slots[nslots++];
}

void ktest_add_test(TCase *tc, const TTest *tt, int start, int end)
{
	struct ktest_slot *sl;
	int i;

	if (!graded()) {
		_tcase_add_test(tc, tt, 0, 0, start, end);
		return;
	}
	/* Registered by ktest_main(), once the canaries are known: one slot per iteration. */
	for (i = start; i < end; i++) {
		sl = new_slot();
		sl->tc = tc;
		sl->body = tt;
		sl->i = i;
	}
}

/* One line on the verdict pipe, in one write (a pipe keeps writes under PIPE_BUF whole). */
static void verdict(const char *what, const char *rest)
{
	char line[512];
	int n;

	if (verdict_fd < 0)
		return;
	n = snprintf(line, sizeof(line), "%s\t%s\t%s\t%s\n", key, what, program_invocation_short_name, rest);
	if (n > 0 && n < (int)sizeof(line) && write(verdict_fd, line, n) != n)
		perror("ktest: the verdict pipe");
}

/* Every test of a graded run: its body, then, for a canary, a failure like an assertion's. */
static void trampoline(int k)
{
	struct ktest_slot *sl = &slots[k];

	running = k;
	body_returned = false;
	sl->body->fn(sl->i);
	body_returned = true;
	if (sl->canary)
		_ck_assert_failed(sl->body->file, sl->body->line, "Assertion 'ok' failed", NULL);
}

/* The test's teardown: a body that returned (and a canary whose failure was swallowed) passed. */
static void report_pass(void)
{
	if (running >= 0 && body_returned)
		verdict("pass", slots[running].tt.name);
	body_returned = false;
}

static unsigned long long next_random(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

/* Insert a canary running slot r's body, at a random place among r's case's tests. */
static void add_canary(const char *name, int r)
{
	struct ktest_slot c = slots[r];
	int k, same = 0, at = -1, pos;

	for (k = 0; k < nslots; k++)
		same += slots[k].tc == c.tc;
	pos = next_random() % (same + 1);
	for (k = 0, same = 0; k < nslots && at < 0; k++)
		if (slots[k].tc == c.tc && same++ == pos)
			at = k;
	if (at < 0)	/* after the case's last test */
		for (k = 0; k < nslots; k++)
			if (slots[k].tc == c.tc)
				at = k + 1;
	c.canary = true;
	c.tt.name = strdup(name);
	new_slot();
	memmove(&slots[at + 1], &slots[at], (nslots - 1 - at) * sizeof(*slots));
	slots[at] = c;
}

/* Read the key and the canaries' names, then register every slot with Check. */
static void register_graded(void)
{
	char buf[4096], *line, *save = NULL;
	ssize_t n = 0, got;
	int fd = atoi(getenv("KTEST_KEY_FD")), k;

	verdict_fd = atoi(getenv("KTEST_VERDICT_FD"));
	/* The programs a test runs (ksim) get neither descriptor, nor may another process read this one. */
	fcntl(verdict_fd, F_SETFD, FD_CLOEXEC);
	prctl(PR_SET_DUMPABLE, 0);
	while (n < (ssize_t)sizeof(buf) - 1 && (got = pread(fd, buf + n, sizeof(buf) - 1 - n, n)) > 0)
		n += got;
	close(fd);
	buf[n > 0 ? n : 0] = '\0';
	unsetenv("KTEST_KEY_FD");
	unsetenv("KTEST_VERDICT_FD");
	for (k = 0; k < nslots; k++) {
		slots[k].tt = *slots[k].body;
		slots[k].tt.fn = trampoline;
	}
	line = strtok_r(buf, "\n", &save);
	if (!line || strlen(line) >= sizeof(key)) {
		fprintf(stderr, "ktest: no key on descriptor %d: no test can pass\n", fd);
		line = NULL;
	} else {
		strcpy(key, line);
	}
	for (k = 0; line && key[k]; k++)
		rng = rng * 131 + (unsigned char)key[k];
	rng ^= (unsigned long long)getpid() << 32 | (unsigned long long)time(NULL);
	rng |= 1;
	while (nslots && (line = strtok_r(NULL, "\n", &save)))
		add_canary(line, next_random() % nslots);
	for (k = 0; k < nslots; k++)
		_tcase_add_test(slots[k].tc, &slots[k].tt, 0, 0, k, k + 1);
}

int ktest_main(Suite *s)
{
	SRunner *sr;
	int failed, run;
	char counts[64];

	if (graded())
		register_graded();
	sr = srunner_create(s);

	/* Fork mode unless CK_FORK says otherwise (CK_FORK=no: one process, for gdb). */
	srunner_set_fork_status(sr, getenv("CK_FORK") ? CK_FORK_GETENV : CK_FORK);
	forking = srunner_fork_status(sr) == CK_FORK;
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	run = srunner_ntests_run(sr);
	srunner_free(sr);
	snprintf(counts, sizeof(counts), "%d\t%d", run, failed);
	verdict("summary", counts);
	if (run == 0) {
		fprintf(stderr, "ktest: no test ran (is CK_RUN_SUITE/CK_RUN_CASE misspelt?)\n");
		return EXIT_FAILURE;
	}
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

/* ---- the hang budget, shared by every suite and table of one runtests.sh run ---- */

static double hang_budget(void)
{
	const char *b = getenv("KTEST_HANG_BUDGET_S");

	return b ? atof(b) : 15;
}

static double hang_spent(void)
{
	const char *path = getenv("KTEST_HANG_FILE");
	FILE *f = path ? fopen(path, "r") : NULL;
	double sum = 0, x;

	if (!f)
		return 0;
	while (fscanf(f, "%lf", &x) == 1)
		sum += x;
	fclose(f);
	return sum;
}

double ktest_hang_left(void)
{
	return getenv("KTEST_HANG_FILE") ? hang_budget() - hang_spent() : 1e9;
}

void ktest_hang_charge(double seconds)
{
	const char *path = getenv("KTEST_HANG_FILE");
	char line[32];
	int fd, n;

	if (!path || (fd = open(path, O_WRONLY | O_APPEND | O_CREAT, 0644)) < 0)
		return;
	n = snprintf(line, sizeof(line), "%.1f\n", seconds);
	if (write(fd, line, n) != n)
		perror(path);
	close(fd);
}

/* ktest_multiplier - $CK_TIMEOUT_MULTIPLIER (Valgrind runs set it), at least 1. */
double ktest_multiplier(void)
{
	const char *m = getenv("CK_TIMEOUT_MULTIPLIER");

	return m && atof(m) > 1 ? atof(m) : 1;
}

/* ---- the fixture every test runs in its own process ---- */

/* SEQ of the test starting now: one more than the last, kept in DIR/SUITE.seq. */
static int next_seq(const char *dir)
{
	char path[4096];
	int fd, seq = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s.seq", dir, program_invocation_short_name);
	fd = open(path, O_RDWR | O_CREAT, 0644);
	if (fd < 0)
		return 0;
	flock(fd, LOCK_EX);
	f = fdopen(fd, "r+");
	if (fscanf(f, "%d", &seq) != 1)
		seq = 0;
	seq++;
	rewind(f);
	fprintf(f, "%d\n", seq);
	fclose(f);		/* drops the lock */
	return seq;
}

/* Send this test's output to DIR/SUITE.SEQ.out. */
static void redirect_output(const char *dir)
{
	char path[4096];
	int fd;

	snprintf(path, sizeof(path), "%s/%s.%d.out", dir, program_invocation_short_name, next_seq(dir));
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0)
		return;
	/* What the runner had buffered is the runner's to print, not this test's. */
	__fpurge(stdout);
	__fpurge(stderr);
	dup2(fd, 1);
	dup2(fd, 2);
	close(fd);
	setvbuf(stdout, NULL, _IOLBF, 0);
}

/*
 * A test's time limit counts the time the test had, not the time that
 * passed: on a machine loaded by other builds a test that gets a tenth of
 * a CPU takes ten times as long and has done nothing wrong.  Every TICK_S
 * the fixture's timer reads the CPU time of the test's processes
 * (ktest_tree_cpu(), less what the timer's own reading cost).  A tick in
 * which they had at least IDLE_SHARE of a CPU counts the CPU time they
 * had (at most the tick): the test was running, or waiting for a CPU.  A
 * tick in which they had less counts whole: the test was waiting on
 * itself, a deadlock, or on a sleep.  So a deadlock or a busy loop runs
 * out of time as it always did, and a test slowed by the machine's load
 * does not.  A test that polls for ever, a little CPU every tick, is
 * stopped by the wall clock at WALL_TIMES its limit.
 */
#define TICK_S 1
#define IDLE_SHARE 0.01
#define WALL_TIMES 8

static double test_limit;	/* this test's seconds of counted time */
static double counted, last_cpu, last_wall, first_wall, reading;
static timer_t timer;
static bool armed;
/* Held by a tick while it runs, so the teardown can wait for one in flight. */
static pthread_mutex_t tick_lock = PTHREAD_MUTEX_INITIALIZER;

double ktest_counted(double wall, double cpu)
{
	return cpu >= IDLE_SHARE * wall ? (cpu < wall ? cpu : wall) : wall;
}

static double wall_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Print every live simulated task's call trace, as khungtaskd would. */
static void dump_tasks(void)
{
	struct timespec until;
	struct task_struct *t;

	if (!&tasks_head || !&tasks_lock || !oops_dump_task || !printk)
		return;
	clock_gettime(CLOCK_REALTIME, &until);
	until.tv_sec += 1;
	/* A task stuck inside task_link() would keep the lock: give up after a second. */
	if (pthread_mutex_timedlock(&tasks_lock, &until) != 0) {
		printk("ktest: the task list is locked; no call traces");
		return;
	}
	for (t = tasks_head; t; t = t->next) {
		/* A task that has returned (not joined yet) has no stack to show. */
		if (atomic_load(&t->exited))
			continue;
		oops_dump_task(t);
	}
	pthread_mutex_unlock(&tasks_lock);
}

/* The test ran out of its time: say so, with the simulated tasks' call traces, and fail. */
static void out_of_time(double wall)
{
	fprintf(stderr, "ktest: %s is still running after %.0f s (%.0f s on the clock); the simulated tasks' "
		"call traces:\n", tcase_name() ? tcase_name() : "the test", counted, wall);
	dump_tasks();
	ktest_hang_charge(test_limit);
	ck_abort_msg("ran out of time after %.0f s: an endless loop, or a wait that nothing ends? "
		     "(its output ends with the simulated tasks' call traces)", test_limit);
}

/* The test's own timer: count the tick, and stop the test before Check would kill it without a word. */
static void __attribute__((unused)) tick(union sigval unused)
{
	struct timespec t0, t1;
	double wall = wall_now(), cpu, dw, dc;

	(void)unused;
	pthread_mutex_lock(&tick_lock);
	if (!armed) {
		pthread_mutex_unlock(&tick_lock);
		return;
	}
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t0);
	cpu = ktest_tree_cpu();
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t1);
	dw = wall - last_wall;
	dc = cpu - last_cpu - reading;
	/* This reading's cost shows in the next tick's CPU time: not the test's. */
	reading = (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9;
	counted += cpu >= 0 ? ktest_counted(dw, dc) : dw;
	last_wall = wall;
	last_cpu = cpu;
	if (counted >= test_limit || wall - first_wall >= WALL_TIMES * test_limit)
		out_of_time(wall - first_wall);	/* ends the process, lock held */
	pthread_mutex_unlock(&tick_lock);
}

#if defined(__SANITIZE_THREAD__)
#define KTEST_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define KTEST_TSAN 1
#endif
#endif

/* Under ThreadSanitizer: one expiry at the limit, on the clock. */
static void __attribute__((unused)) expire(union sigval unused)
{
	(void)unused;
	pthread_mutex_lock(&tick_lock);
	if (armed)
		out_of_time(wall_now() - first_wall);
	pthread_mutex_unlock(&tick_lock);
}

/*
 * The ticks come from a SIGEV_THREAD timer, whose thread glibc starts
 * from inside libc.  ThreadSanitizer does not see that thread created, and
 * a tick's malloc() and fopen() in it crash it; a thread of our own
 * instead makes the test process multi-threaded in TSan's eyes, and a test
 * that forks a child that starts threads (output_of_child()) then dies.
 * So under TSan the timer fires once, at the limit on the clock, as every
 * build's did before time was counted: TSan's suites are the reference's,
 * run once, not a student's under load.
 */
static void arm_timer(double limit)
{
#ifdef KTEST_TSAN
	struct sigevent se = { .sigev_notify = SIGEV_THREAD, .sigev_notify_function = expire };
	struct itimerspec its = { { 0, 0 }, { (time_t)limit, (long)((limit - (time_t)limit) * 1e9) } };
#else
	struct sigevent se = { .sigev_notify = SIGEV_THREAD, .sigev_notify_function = tick };
	struct itimerspec its = { { TICK_S, 0 }, { TICK_S, 0 } };
#endif
	test_limit = limit;
	counted = reading = 0;
	first_wall = last_wall = wall_now();
#ifndef KTEST_TSAN
	last_cpu = ktest_tree_cpu();
#endif
	if (timer_create(CLOCK_MONOTONIC, &se, &timer) == 0) {
		armed = true;
		timer_settime(timer, 0, &its, NULL);
	}
}

/*
 * The test passed: stop the timer and wait for a tick in flight, so no
 * tick runs while the test's process exits (Valgrind's drd sees a tick
 * beside exit()'s clean-up as a race, and it would be one).
 */
static void disarm_timer(void)
{
	if (!armed)
		return;
	timer_delete(timer);
	pthread_mutex_lock(&tick_lock);
	armed = false;
	pthread_mutex_unlock(&tick_lock);
}

#define KTEST_MAX_CASES 16
static double case_timeout[KTEST_MAX_CASES];
static int ncases;

static void ktest_setup(int i)
{
	const char *dir = getenv("KTEST_OUTPUT_DIR");
	double limit = case_timeout[i] * ktest_multiplier() - 1, left = ktest_hang_left();

	/* Without fork both would outlive the test: a debugger's stop must not time out. */
	if (!forking)
		return;
	if (dir)
		redirect_output(dir);
	if (left <= 0.5)
		ck_abort_msg("not run: tests of this stage already ran out of time for %.0f s in all (the limit "
			     "is %.0f s a stage); fix the hang the first of them shows", hang_spent(), hang_budget());
	arm_timer(left < limit ? left : limit);
}

static void ktest_teardown(void)
{
	if (forking)
		disarm_timer();
	report_pass();
}

/* Check's fixtures take no argument: one tiny setup per test case. */
#define KTEST_SETUP(i) static void ktest_setup_##i(void) { ktest_setup(i); }
KTEST_SETUP(0) KTEST_SETUP(1) KTEST_SETUP(2) KTEST_SETUP(3) KTEST_SETUP(4) KTEST_SETUP(5)
KTEST_SETUP(6) KTEST_SETUP(7) KTEST_SETUP(8) KTEST_SETUP(9) KTEST_SETUP(10) KTEST_SETUP(11)
KTEST_SETUP(12) KTEST_SETUP(13) KTEST_SETUP(14) KTEST_SETUP(15)
static void (*const setups[KTEST_MAX_CASES])(void) = {
	ktest_setup_0, ktest_setup_1, ktest_setup_2, ktest_setup_3, ktest_setup_4, ktest_setup_5,
	ktest_setup_6, ktest_setup_7, ktest_setup_8, ktest_setup_9, ktest_setup_10, ktest_setup_11,
	ktest_setup_12, ktest_setup_13, ktest_setup_14, ktest_setup_15,
};

TCase *ktest_case(Suite *s, const char *name, double timeout)
{
	TCase *tc = tcase_create(name);

	if (ncases == KTEST_MAX_CASES) {
		fprintf(stderr, "ktest: more than %d test cases in one suite (raise KTEST_MAX_CASES)\n",
			KTEST_MAX_CASES);
		exit(EXIT_FAILURE);
	}
	case_timeout[ncases] = timeout;
	tcase_add_checked_fixture(tc, setups[ncases++], ktest_teardown);
	/* Check's own limit is the wall clock's: past what ktest's timer allows (see tick()). */
	tcase_set_timeout(tc, timeout * WALL_TIMES + 1);
	suite_add_tcase(s, tc);
	return tc;
}
