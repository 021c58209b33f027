/* ktest.h - what every Check suite of the workbook shares. */
#ifndef KTEST_H
#define KTEST_H

#include <check.h>
#include <stdbool.h>

/*
 * ktest_main - run the suite in fork mode, so a test that crashes or hangs
 * is one failed test ("Received signal 11", "Test timeout expired") and the
 * others still run.  Fails if no test ran at all: a misspelt CK_RUN_CASE
 * would otherwise select nothing and exit 0.  CK_FORK=no runs every test
 * in this process, as Check documents it, for a debugger (make
 * debug-stageN): then no test has a time limit or an output file of its own.
 */
int ktest_main(Suite *s);

/*
 * ktest_case - a test case with the workbook's timeout (seconds, scaled by
 * CK_TIMEOUT_MULTIPLIER under Valgrind).  Every test of the case runs with
 * ktest's fixture (in the test's own process):
 *  - with $KTEST_OUTPUT_DIR set (runtests.sh sets it), what the test prints
 *    goes to a file of its own, SUITE.SEQ.out (SEQ counts the tests in the
 *    order they run), so a failure can be shown with its own output only;
 *  - a second before its time limit, a test still running prints the call
 *    trace of every simulated task (what a hang looks like from inside)
 *    and fails with "ran out of time" instead of Check's bare "Test
 *    timeout expired"; the limit counts the time the test had, not the
 *    time that passed: CPU time while it runs or waits for a CPU, clock
 *    time while it waits on itself (a deadlock, a sleep), so a machine
 *    under load slows a test without failing it (ktest.c);
 *  - with $KTEST_HANG_FILE set, the seconds lost to tests that ran out of
 *    time, and to runs of ksim that hung where the test did not want a
 *    hang (ck_assert_status()), are added up there, across the suites and
 *    scenario tables of one run; once they reach $KTEST_HANG_BUDGET_S (default 15), the tests
 *    left fail at once ("not run"), so a hanging exercise costs a student
 *    at most that long per stage, not every test's full time limit.
 */
TCase *ktest_case(Suite *s, const char *name, double timeout);

/*
 * ktest_add_test - every suite's tcase_add_test() and tcase_add_loop_test()
 * (the macros below replace Check's).  Outside grading it is Check's own.
 * Graded (tests/grade/grade.sh hands the run $KTEST_VERDICT_FD and
 * $KTEST_KEY_FD, inherited descriptors the trusted grader opened), the
 * tests are registered by ktest_main() instead: each through one
 * trampoline that, once the test's body and its case's teardowns have
 * returned, writes "KEY<TAB>pass<TAB>SUITE<TAB>TEST" to the verdict
 * descriptor; among them, at random places, the canaries the key file
 * names, tests that run a real test's body and then fail.  ktest_main()
 * also writes Check's own counts there ("KEY<TAB>summary<TAB>SUITE<TAB>RUN
 * <TAB>FAILED"), so the grader can hold the suite's summary against the
 * verdicts (tests/grade/gradefmt.py; README, "Grading a course").
 */
void ktest_add_test(TCase *tc, const TTest *tt, int start, int end);
#undef tcase_add_test
#define tcase_add_test(tc, tf) ktest_add_test((tc), (tf), 0, 1)
#undef tcase_add_loop_test
#define tcase_add_loop_test(tc, tf, s, e) ktest_add_test((tc), (tf), (s), (e))

/*
 * KTEST_SLOWDOWN - a time bound in a test is written for a plain build and
 * multiplied by this: a sanitizer makes every step many times slower, and
 * a bound that held without it would fail a correct build under it.
 */
#ifdef KSIM_SANITIZER
#define KTEST_SLOWDOWN 15
#else
#define KTEST_SLOWDOWN 1
#endif

/**
 * ktest_tree_cpu - seconds of CPU used by this process, its waited-for
 * children and its live descendants (ktest_cpu.c)
 *
 * Context: any thread; reads /proc once per process on the machine.
 * Return: the seconds, or -1 if /proc cannot be read.
 */
double ktest_tree_cpu(void);

/**
 * ktest_counted - what a tick counts against a test's time limit
 * @wall: the tick's seconds on the clock
 * @cpu: the seconds of CPU the test's processes had in it
 *
 * Context: any; never sleeps.
 * Return: @cpu (at most @wall) if it is at least 1% of @wall, else @wall
 * (the test waited on itself: a deadlock, a sleep).
 */
double ktest_counted(double wall, double cpu);

/* ktest_hang_left - seconds left of the run's hang budget (a large number without $KTEST_HANG_FILE). */
double ktest_hang_left(void);
/* ktest_hang_charge - count seconds lost to a run that had to be killed. */
void ktest_hang_charge(double seconds);
/* ktest_multiplier - $CK_TIMEOUT_MULTIPLIER (set under Valgrind), at least 1: scales every time limit. */
double ktest_multiplier(void);

/* The result of running ksim on a script. */
struct ksim_run {
	int status;		/* exit status, or 128+signal */
	char *out, *err;	/* what it printed (NUL-terminated, malloc'ed) */
	char *trace;		/* the trace file's text if asked for, else NULL */
	double seconds;		/* how long it ran */
	bool hung;		/* it hung: its time was charged to the hang budget */
};

/*
 * ksim_run - run $KSIM (the stage's ksim, set by make) on script, with the
 * trace written and read back if want_trace, killed after timeout_s seconds
 * (status 124).  extra_args may be NULL.
 */
/* The longest a ksim_run() may take (times $CK_TIMEOUT_MULTIPLIER), whatever timeout_s says. */
#define KSIM_RUN_MAX_S 5.0
void ksim_run(struct ksim_run *r, const char *script, bool want_trace,
	      const char *extra_args, double timeout_s);
/* ksim_run_text - the same for a script given as text (written to a temp file). */
void ksim_run_text(struct ksim_run *r, const char *text, bool want_trace, double timeout_s);
void ksim_run_free(struct ksim_run *r);
/* ksim_assert_same_trace_twice - two runs of script, traced, must give the same trace. */
void ksim_assert_same_trace_twice(const char *script, const char *extra_args, bool no_todo);

/* trace_count - lines of a trace with this event on this object (NULL: any). */
int trace_count(const char *trace, const char *event, const char *object);
/* trace_seq - SEQ of the n-th (1-based) such line, or 0 if there is none. */
long trace_seq(const char *trace, const char *event, const char *object, int n);

/* Assert with the run's output attached, so a failure shows what ksim said. */
#define ck_assert_run(r, cond, ...) \
	ck_assert_msg((cond), __VA_ARGS__), (void)(r)
/*
 * A run that hung (killed for time, the hung-task watchdog's exit status
 * 4, a soft lockup) is charged to the hang budget; ck_assert_status() gives
 * the time back when the test wanted that very outcome (a scenario that
 * shows a deadlock).
 */
void ktest_hang_expected(struct ksim_run *r, int want);
#define ck_assert_status(r, want) \
	ktest_hang_expected((r), (want)), \
	ck_assert_msg((r)->status == (want), "ksim exited %d, expected %d\n--- stdout:\n%.1200s--- stderr:\n%.1800s", \
		      (r)->status, (want), (r)->out, (r)->err)
#define ck_assert_said(r, text) \
	ck_assert_msg(strstr((r)->out, (text)) || strstr((r)->err, (text)), \
		      "expected ksim to print \"%s\"\n--- stdout:\n%.1200s--- stderr:\n%.1800s", (text), (r)->out, (r)->err)

/*
 * ck_assert_exercises_done - fail, at the caller's line, if an exercise stub
 * ran in this process: the test names the exercise, not the symptom the
 * stub caused.  where says where the TODO is ("exercises/stage1/").
 * A macro, so the failure cites the test's line, not a helper's.
 */
#define ck_assert_exercises_done(where) \
	ck_assert_msg(exercise_pending() == NULL, "exercise not done yet: %s (see the TODO in %s)", \
		      exercise_pending(), (where))
const char *exercise_pending(void);

/* A student's stub ran inside ksim: say which exercise, not the symptom it caused. */
const char *first_todo(const char *err);
#define ck_assert_no_todo(r) \
	ck_assert_msg(!strstr((r)->err, "TODO("), "ksim ran an unfinished exercise: %s", first_todo((r)->err))

#endif
