/* test_ktest.c - the tests' time limit (ktest.c): what it stops and what it lets run, on a machine under load. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "ktest.h"

/*
 * A test's limit counts the time the test had: a deadlock (no CPU at all)
 * and a busy loop (all the CPU it gets) run out of it, each a suite of one
 * test with a 3 s case (2 s of counted time), run by this program as a
 * child (argv[1] names it), and judged on what the child printed and how
 * long it took.  A test that a loaded machine gives a tenth of a CPU
 * counts a tenth of the clock's time: that is the rule's own test below,
 * since how loaded this machine is, no test can decide.
 */
#define CHILD_CASE_S 3
#define COUNTED_S (CHILD_CASE_S - 1)

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* The children's tests. */
START_TEST(waits_on_nothing)
{
	int fd[2];
	char c;

	ck_assert_int_eq(pipe(fd), 0);
	ck_assert_msg(read(fd[0], &c, 1) < 0, "a pipe nobody writes gave a byte");	/* never returns */
}
END_TEST

START_TEST(spins)
{
	for (volatile unsigned long i = 0;; i++)
		;
}
END_TEST

static int child_main(const char *what)
{
	Suite *s = suite_create(what);
	TCase *tc = ktest_case(s, "child", CHILD_CASE_S);

	tcase_add_test(tc, strcmp(what, "hang") == 0 ? waits_on_nothing : spins);
	return ktest_main(s);
}

/* Run this program as child WHAT; its exit status, its output in out, its wall time. */
static int run_child(const char *self, const char *what, char *out, size_t len, double *wall)
{
	int fd[2], status;
	size_t n = 0;
	ssize_t got;
	double t0 = now_s();
	pid_t pid;

	ck_assert_int_eq(pipe(fd), 0);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		dup2(fd[1], 1);
		dup2(fd[1], 2);
		close(fd[0]);
		/* Its own limits: no shared budget, no output directory, no multiplier. */
		unsetenv("KTEST_HANG_FILE");
		unsetenv("KTEST_OUTPUT_DIR");
		unsetenv("CK_TIMEOUT_MULTIPLIER");
		unsetenv("CK_DEFAULT_TIMEOUT");
		execl(self, self, what, (char *)NULL);
		_exit(127);
	}
	close(fd[1]);
	while (n + 1 < len && (got = read(fd[0], out + n, len - 1 - n)) > 0)
		n += got;
	out[n] = 0;
	close(fd[0]);
	waitpid(pid, &status, 0);
	*wall = now_s() - t0;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

static const char *self;

START_TEST(a_deadlock_runs_out_of_time_at_its_limit)
{
	char out[8192];
	double wall;

	ck_assert_int_ne(run_child(self, "hang", out, sizeof(out), &wall), 0);
	ck_assert_msg(strstr(out, "ran out of time after 2 s"), "a test blocked for ever did not run out of its "
		      "2 s:\n%s", out);
	ck_assert_msg(wall < COUNTED_S + 3, "a test blocked for ever ran %.1f s before it was stopped (its limit "
		      "is %d s: a wait counts whole)", wall, COUNTED_S);
}
END_TEST

START_TEST(a_busy_loop_runs_out_of_time)
{
	char out[8192];
	double wall;

	ck_assert_int_ne(run_child(self, "spin", out, sizeof(out), &wall), 0);
	ck_assert_msg(strstr(out, "ran out of time after 2 s"), "a test that spins for ever did not run out of "
		      "its 2 s:\n%s", out);
}
END_TEST

/*
 * What a tick counts, on the shapes of the tests above and one a loaded
 * machine makes: a second of a test that had 8% of a CPU (two cores at
 * load 25) counts 0.08 s; a deadlock's second (the timer's own reading
 * aside, nothing) and a busy loop's count whole.
 */
START_TEST(a_tick_counts_the_cpu_a_starved_test_had_and_all_of_a_wait)
{
	ck_assert_double_eq_tol(ktest_counted(1.0, 0.0), 1.0, 1e-9);		/* a deadlock */
	ck_assert_double_eq_tol(ktest_counted(1.0, 0.005), 1.0, 1e-9);		/* a deadlock, a watchdog ticking */
	ck_assert_double_eq_tol(ktest_counted(1.0, 0.08), 0.08, 1e-9);		/* starved by load */
	ck_assert_double_eq_tol(ktest_counted(1.0, 1.0), 1.0, 1e-9);		/* a busy loop */
	ck_assert_double_eq_tol(ktest_counted(1.0, 2.0), 1.0, 1e-9);		/* two processes at once */
}
END_TEST

int main(int argc, char **argv)
{
	Suite *s;
	TCase *tc;

	if (argc > 1)
		return child_main(argv[1]);
	self = argv[0];
	s = suite_create("ktest");
	tc = ktest_case(s, "limits", 30);
	tcase_add_test(tc, a_deadlock_runs_out_of_time_at_its_limit);
	tcase_add_test(tc, a_busy_loop_runs_out_of_time);
	tcase_add_test(tc, a_tick_counts_the_cpu_a_starved_test_had_and_all_of_a_wait);
	return ktest_main(s);
}
