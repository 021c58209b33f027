/* ktest.h - what every Check suite of the workbook shares. */
#ifndef KTEST_H
#define KTEST_H

#include <check.h>
#include <stdbool.h>

/*
 * ktest_main - run the suite in fork mode, so a test that crashes or hangs
 * is one failed test ("Received signal 11", "Test timeout expired") and the
 * others still run.  Fails if no test ran at all: a misspelt CK_RUN_CASE
 * would otherwise select nothing and exit 0.
 */
int ktest_main(Suite *s);

/* ktest_case - a test case with the workbook's timeout (seconds, scaled by
 * CK_TIMEOUT_MULTIPLIER under Valgrind). */
TCase *ktest_case(Suite *s, const char *name, double timeout);

/* The result of running ksim on a script. */
struct ksim_run {
	int status;		/* exit status, or 128+signal */
	char *out, *err;	/* what it printed (NUL-terminated, malloc'ed) */
	char *trace;		/* the trace file's text if asked for, else NULL */
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

/* trace_count - lines of a trace with this event on this object (NULL: any). */
int trace_count(const char *trace, const char *event, const char *object);
/* trace_seq - SEQ of the n-th (1-based) such line, or 0 if there is none. */
long trace_seq(const char *trace, const char *event, const char *object, int n);

/* Assert with the run's output attached, so a failure shows what ksim said. */
#define ck_assert_run(r, cond, ...) \
	ck_assert_msg((cond), __VA_ARGS__), (void)(r)
#define ck_assert_status(r, want) \
	ck_assert_msg((r)->status == (want), "ksim exited %d, expected %d\n--- stdout:\n%.1200s--- stderr:\n%.1800s", \
		      (r)->status, (want), (r)->out, (r)->err)
#define ck_assert_said(r, text) \
	ck_assert_msg(strstr((r)->out, (text)) || strstr((r)->err, (text)), \
		      "expected ksim to print \"%s\"\n--- stdout:\n%.1200s--- stderr:\n%.1800s", (text), (r)->out, (r)->err)

/* A student's stub ran inside ksim: say which exercise, not the symptom it caused. */
const char *first_todo(const char *err);
#define ck_assert_no_todo(r) \
	ck_assert_msg(!strstr((r)->err, "TODO("), "ksim ran an unfinished exercise: %s", first_todo((r)->err))

#endif
