/* test_shell.c - the scenario runner, run as a subprocess on the scripts in tests/kernel/scripts/. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "ktest.h"

/*
 * Each test runs build/stage0/ksim (the demo stage: tests/kernel/demo/)
 * on a script and checks what the design promises: the exit status, what
 * is printed and where, and for a wrong script that nothing ran.
 */
#define SCRIPTS "tests/kernel/scripts/"
#define TIMEOUT 15.0

static void run(struct ksim_run *r, const char *script, const char *args)
{
	ksim_run(r, script, false, args, TIMEOUT);
}

static bool said_out(const struct ksim_run *r, const char *text)
{
	return strstr(r->out, text) != NULL;
}

static bool said_err(const struct ksim_run *r, const char *text)
{
	return strstr(r->err, text) != NULL;
}

#define ck_assert_out(r, text) \
	ck_assert_msg(said_out((r), (text)), "expected on stdout: \"%s\"\n--- stdout:\n%s--- stderr:\n%s", \
		      (text), (r)->out, (r)->err)
#define ck_assert_err(r, text) \
	ck_assert_msg(said_err((r), (text)), "expected on stderr: \"%s\"\n--- stdout:\n%s--- stderr:\n%s", \
		      (text), (r)->out, (r)->err)

/* ---- wrong scripts: exit 2, FILE:LINE:COL: first, and nothing ran ---- */
static const struct {
	const char *file;
	const char *where;	/* "LINE:COL" */
	const char *what;	/* part of the message */
} malformed[] = {
	{ "unknown_command", "4:1", "unknown command 'frobnicate'" },
	{ "missing_argument", "4:8", "insmod: missing argument" },
	{ "extra_argument", "4:16", "unexpected argument 'demo_a'" },
	{ "bad_redirect", "4:15", "insmod does not take a redirect" },
	{ "missing_redirect_file", "4:8", "missing file name after '>'" },
	{ "unterminated_quote", "4:6", "unterminated single quote" },
	{ "bad_time_unit", "4:7", "unknown time unit" },
	{ "kill_without_jobs", "4:6", "no job %% can exist here" },
	{ "kill_beyond_jobs", "5:6", "no job %2 can exist here: 1 job started" },
	{ "unknown_errno", "5:13", "unknown errno name 'ENODEVICE'" },
	{ "unknown_delay_point", "4:7", "unknown delay point 'no_such_point'; this stage has: chrdev_poll, chrdev_read, demo_read, demo_slow_store, srcu_read_unlock" },
	{ "bad_number", "4:24", "'one' is not a count" },
	{ "empty_command", "4:6", "empty command" },
	{ "leading_semicolon", "4:1", "empty command before ';'" },
	{ "background_builtin", "4:6", "cannot run in the background" },
	{ "pipe", "4:21", "pipes" },
	{ "and_and", "4:16", "'&&' is not supported" },
	{ "variable", "4:6", "variables" },
	{ "wildcard", "4:15", "wildcards are not supported" },
	{ "fd_redirect", "4:6", "redirects file descriptor 1" },
	{ "relative_path", "4:5", "paths must be absolute" },
	{ "ioctl_not_a_number", "4:19", "ioctl: 'click': the command must be a number" },
	{ "ioctl_not_a_device", "4:7", "only a device node (/dev/NAME) has an ioctl" },
	{ "poll_not_a_device", "4:6", "poll: '/sys/demo/value': only a device node (/dev/NAME) has a poll" },
	{ "cat_redirect_foreground", "4:1", "would wait for input forever" },
	{ "delay_without_unit", "4:23", "give the unit" },
	{ "expect_first", "2:1", "no command before it" },
	{ "trace_bad_op", "4:7", "expected on, off or mark" },
	{ "expect_unknown_kind", "5:8", "'success'" },
	{ "two_redirects", "4:26", "only one redirect" },
	{ "input_redirect", "4:5", "input redirection is not supported" },
	{ "bad_module_name", "4:8", "bad module name 'demo dev'" },
	{ "subshell", "4:1", "subshells are not supported" },
	{ "kill_signal", "5:6", "signals are not supported" },
	{ "hung_timeout_zero", "4:14", "must be more than 0" },
	{ "trace_mark_missing", "4:12", "missing label" },
	{ "redirect_without_command", "4:1", "a redirect with no command" },
	{ "plug_without_device", "4:6", "plug: missing argument" },
	{ "nul_byte", "4:8", "a NUL byte" },
	{ "config_unknown", "4:8", "config: unknown option 'DEBUG_EVERYTHING'" },
	{ "config_no_value", "4:8", "expected NAME=y or NAME=n" },
	{ "wait_beyond_jobs", "5:6", "wait: no job %2 can exist here: 1 job started" },
	{ "wait_option", "5:6", "wait: options are not supported" },
	{ "wait_bad_spec", "5:6", "wait: '1': name a job as %N" },
	{ "await_unknown_point", "4:7", "await: unknown delay point 'no_such_point'; this stage has: chrdev_poll, chrdev_read, demo_read, demo_slow_store, srcu_read_unlock" },
	{ "await_not_armed", "4:7", "await: delay point 'demo_slow_store' is not armed here, so no task would wait there: arm it on an earlier line with 'delay demo_slow_store TIME'" },
	{ "await_disarmed", "4:7", "await: delay point 'demo_slow_store' is not armed here" },
	{ "await_zero_timeout", "4:23", "await: the timeout must be more than 0" },
};

START_TEST(malformed_script_exits_2_and_runs_nothing)
{
	struct ksim_run r;
	char path[256], prefix[300];

	snprintf(path, sizeof(path), SCRIPTS "bad/%s.ksim", malformed[_i].file);
	snprintf(prefix, sizeof(prefix), "%s:%s: ", path, malformed[_i].where);
	run(&r, path, NULL);
	ck_assert_status(&r, 2);
	ck_assert_msg(strncmp(r.err, prefix, strlen(prefix)) == 0,
		      "%s: stderr should start with \"%s\"; it is:\n%s", path, prefix, r.err);
	ck_assert_err(&r, malformed[_i].what);
	/* Its first lines are "echo ran" and "insmod demo_dev": neither may have run. */
	ck_assert_msg(r.out[0] == '\0', "%s: something ran before the check:\n%s", path, r.out);
	/* And stderr holds only the script's mistakes: every line starts with its path. */
	for (const char *l = r.err; *l; l = strchr(l, '\n') + 1) {
		ck_assert_msg(strncmp(l, path, strlen(path)) == 0, "%s: not a parse error:\n%s", path, r.err);
		if (!strchr(l, '\n'))
			break;
	}
	ksim_run_free(&r);
}
END_TEST

START_TEST(every_mistake_of_a_script_is_reported)
{
	struct ksim_run r;

	run(&r, SCRIPTS "bad/two_errors.ksim", NULL);
	ck_assert_status(&r, 2);
	ck_assert_err(&r, "two_errors.ksim:3:1: unknown command 'frobnicate'");
	ck_assert_err(&r, "two_errors.ksim:5:7: 'forever': a time starts with a number");
	ck_assert_msg(r.out[0] == '\0', "nothing may run:\n%s", r.out);
	ksim_run_free(&r);
}
END_TEST

/* ---- scripts that run ---- */
START_TEST(basic_commands_print_like_the_shell)
{
	struct ksim_run r;

	run(&r, SCRIPTS "basic.ksim", NULL);
	ck_assert_status(&r, 0);
	ck_assert_out(&r, "Module                  Size  Used by\ndemo_dev ");
	ck_assert_out(&r, "\n42\n");
	ck_assert_out(&r, "free\noops\noverflow\nremove_self\nslow\nspin\nvalue\nwarn\n");
	ck_assert_out(&r, "quoted words and more plain escaped\n");
	ksim_run_free(&r);
}
END_TEST

START_TEST(failed_commands_are_printed_not_fatal)
{
	struct ksim_run r;

	run(&r, SCRIPTS "errors.ksim", NULL);
	ck_assert_status(&r, 0);
	ck_assert_err(&r, "cat: /sys/demo/value: No such file or directory\n");
	ck_assert_err(&r, "sh: /sys/nope: No such file or directory\n");
	ck_assert_err(&r, "sh: echo: write error: Invalid argument\n");
	ck_assert_err(&r, "ls: cannot access '/sys/nope': No such file or directory\n");
	ck_assert_err(&r, "rmmod: ERROR: Module demo_a is not currently loaded\n");
	ck_assert_err(&r, "plug: mouse0: No such device\n");
	/* The loader prints its own errors: once, not once more by the shell. */
	ck_assert_msg(strstr(strstr(r.err, "no_such_module") + 1, "no_such_module") == NULL,
		      "insmod's error printed twice:\n%s", r.err);
	ksim_run_free(&r);
}
END_TEST

START_TEST(background_job_pins_module_until_killed)
{
	struct ksim_run r;

	run(&r, SCRIPTS "jobs.ksim", NULL);
	ck_assert_status(&r, 0);
	ck_assert_out(&r, "[1] ");
	ck_assert_out(&r, "[1]+  Running                 cat > /sys/demo/value &\n");
	ck_assert_out(&r, "[1]-  Terminated              cat > /sys/demo/value\n");
	ck_assert_out(&r, "[1]+  Done                    cat /sys/demo/value\n");
	ck_assert_err(&r, "rmmod: ERROR: Module demo_dev is in use");
	ck_assert_err(&r, "sh: kill: %2: no such job");
	ksim_run_free(&r);
}
END_TEST

START_TEST(seed_command_lines_run_verbatim)
{
	struct ksim_run r;

	run(&r, SCRIPTS "seed_syntax.ksim", NULL);
	ck_assert_status(&r, 0);
	ck_assert_out(&r, "[1]+  Terminated              cat > /sys/demo/value\n");
	ksim_run_free(&r);
}
END_TEST

START_TEST(unplug_makes_an_open_file_fail_with_enodev)
{
	struct ksim_run r;

	run(&r, SCRIPTS "hotplug.ksim", NULL);
	ck_assert_status(&r, 0);
	ck_assert_err(&r, "cat: /sys/devices/demo0/name: No such device\n");
	ck_assert_err(&r, "plug: demo0: File exists\n");
	ksim_run_free(&r);
}
END_TEST

/*
 * "wait" then "expect": the job's outcome is what the expect checks, its
 * errno (ENODEV after an unplug, ENOENT) and what it printed, for "wait %N",
 * "wait %%" and "wait"; with no job left, wait succeeds.  Every expect of
 * the script must hold (exit 0, no "expect failed").
 */
START_TEST(wait_makes_the_job_outcome_what_expect_checks)
{
	struct ksim_run r;

	run(&r, SCRIPTS "wait_result.ksim", NULL);
	ck_assert_msg(!said_err(&r, "expect failed"), "an expect after wait did not hold:\n%s", r.err);
	ck_assert_status(&r, 0);
	ck_assert_err(&r, "cat: /sys/devices/demo0/name: No such device\n");
	ck_assert_err(&r, "sh: wait: %1: no such job\n");
	ck_assert_out(&r, "[2]+  Exit 1                  cat /sys/devices/demo9/name\n");
	ksim_run_free(&r);
}
END_TEST

START_TEST(failed_expect_goes_on_and_exits_1)
{
	struct ksim_run r;

	run(&r, SCRIPTS "expect_fail.ksim", NULL);
	ck_assert_status(&r, 1);
	ck_assert_err(&r, SCRIPTS "expect_fail.ksim:4: expect failed: 'cat /sys/demo/value' did not print \"99\"");
	ck_assert_out(&r, "still running\n");
	ksim_run_free(&r);
}
END_TEST

START_TEST(same_script_gives_the_same_trace)
{
	struct ksim_run a, b;

	ksim_run(&a, SCRIPTS "trace.ksim", true, NULL, TIMEOUT);
	ksim_run(&b, SCRIPTS "trace.ksim", true, NULL, TIMEOUT);
	ck_assert_status(&a, 0);
	ck_assert_status(&b, 0);
	ck_assert_ptr_nonnull(a.trace);
	ck_assert_ptr_nonnull(b.trace);
	ck_assert_msg(strncmp(a.trace, "ksim-trace 1\n", 13) == 0, "trace header:\n%s", a.trace);
	ck_assert_msg(strcmp(a.trace, b.trace) == 0, "two runs differ:\n--- 1:\n%s--- 2:\n%s", a.trace, b.trace);
	ck_assert_int_eq(trace_count(a.trace, "mark", "label:start"), 1);
	ck_assert_int_eq(trace_count(a.trace, "mark", "label:end"), 1);
	/* "trace off" drops the cat between it and "trace on". */
	ck_assert_int_eq(trace_count(a.trace, "open", NULL), 4);
	ck_assert_int_eq(trace_count(a.trace, "close", NULL), 4);
	ksim_run_free(&a);
	ksim_run_free(&b);
}
END_TEST

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

START_TEST(delay_point_stretches_the_store)
{
	struct ksim_run r;
	double t0 = now_s(), took;

	run(&r, SCRIPTS "delay.ksim", NULL);
	took = now_s() - t0;
	ck_assert_status(&r, 0);
	ck_assert_msg(took >= 0.3, "delay demo_slow_store 300ms, yet the run took %.3f s", took);
	ksim_run_free(&r);
}
END_TEST

START_TEST(an_armed_delay_point_nobody_passes_is_named)
{
	struct ksim_run r;

	run(&r, SCRIPTS "delay-unreached.ksim", NULL);
	ck_assert_status(&r, 0);
	ck_assert_msg(said_err(&r, "ksim: note: 'delay demo_slow_store 10ms' was armed, but no task passed "
			       "delay_point(\"demo_slow_store\")") &&
			      said_err(&r, "the function of tests/kernel/demo/demofs.c that calls it did not run"),
		      "the delay point no store passed was not named:\n%s", r.err);
	ck_assert_msg(!said_err(&r, "'delay demo_read"),
		      "demo_read was passed by the read, yet named as never reached:\n%s", r.err);
	ksim_run_free(&r);
}
END_TEST

/*
 * await: the shell goes on once a task is held at the point, not once the
 * task is done (jobs says Running), free and under the controlled
 * scheduler; the second await of the script waits for a second pass.
 */
START_TEST(await_returns_once_a_task_is_held_at_the_point)
{
	static const char *const modes[] = { NULL, "--sched nonpreemptive", "--sched random --seed 3" };
	struct ksim_run r;

	for (size_t i = 0; i < sizeof(modes) / sizeof(modes[0]); i++) {
		run(&r, SCRIPTS "await.ksim", modes[i]);
		ck_assert_msg(!said_err(&r, "expect failed"), "%s: an expect did not hold:\n%s",
			      modes[i] ? modes[i] : "free", r.err);
		ck_assert_status(&r, 0);
		ck_assert_out(&r, "[1]+  Running                 echo 1 > /sys/demo/slow &\n");
		ksim_run_free(&r);
	}
}
END_TEST

/* Each await waits for a pass of its own: one task held, two awaits, the second times out (status 5). */
START_TEST(await_that_no_task_answers_stops_the_run_with_5)
{
	struct ksim_run r;

	run(&r, SCRIPTS "await_timeout.ksim", NULL);
	ck_assert_status(&r, 5);
	ck_assert_err(&r, SCRIPTS "await_timeout.ksim:7:1: await: no task reached delay point 'demo_slow_store' "
		      "in 300 ms: the function of tests/kernel/demo/demofs.c that calls "
		      "delay_point(\"demo_slow_store\") did not run, or no longer calls it");
	ck_assert_err(&r, "ksim: the run stops here: the lines after this await were written for a task held at "
		      "'demo_slow_store'\n");
	ck_assert_msg(!said_err(&r, ":6:1: await"), "the first await, answered by the held store, failed:\n%s", r.err);
	ck_assert_msg(!said_out(&r, "not reached"), "ran past the failed await:\n%s", r.out);
	ck_assert_msg(r.seconds >= 0.3, "await ... 300ms gave up after %.3f s", r.seconds);
	ksim_run_free(&r);
}
END_TEST

/* A task that passed the point and left before the await began does not answer it. */
START_TEST(await_is_not_answered_by_a_task_gone_before_it)
{
	struct ksim_run r;

	run(&r, SCRIPTS "await_gone.ksim", "--sched nonpreemptive");
	ck_assert_status(&r, 5);
	ck_assert_err(&r, "await_gone.ksim:6:1: await: no task reached delay point 'demo_slow_store' in 10 s");
	ksim_run_free(&r);
}
END_TEST

/*
 * Under --sched the deadline is on the virtual clock: with nothing else
 * to run, the default 10 s pass at once, as a failed await, not as a
 * deadlock of the scheduler; the run prints the schedule that replays it.
 */
START_TEST(await_timeout_is_virtual_under_the_controlled_scheduler)
{
	struct ksim_run r;

	run(&r, SCRIPTS "await_default_timeout.ksim", "--sched nonpreemptive");
	ck_assert_status(&r, 5);
	ck_assert_err(&r, "await_default_timeout.ksim:6:1: await: no task reached delay point 'demo_read' in 10 s");
	ck_assert_err(&r, "ksim: replay it with: ");
	ck_assert_msg(!said_err(&r, "deadlock"), "an await that times out was taken for a deadlock:\n%s", r.err);
	/* Under 10 s of the wall clock tells the virtual clock from the real one on any machine, however busy. */
	ck_assert_msg(r.seconds < 10, "a virtual 10 s took %.1f s of the wall clock", r.seconds);
	ksim_run_free(&r);
}
END_TEST

START_TEST(wait_on_a_job_holding_a_file_is_a_hang)
{
	struct ksim_run r;

	run(&r, SCRIPTS "hang_wait.ksim", "--hung-timeout 300");
	ck_assert_status(&r, 4);
	ck_assert_err(&r, "INFO: task sh[1] blocked for more than 300 ms");
	ck_assert_err(&r, "wait: a background job holds a file open");
	ck_assert_msg(!said_out(&r, "not reached"), "ran past the hang:\n%s", r.out);
	ksim_run_free(&r);
}
END_TEST

START_TEST(store_removing_its_own_file_is_a_hang)
{
	struct ksim_run r;

	run(&r, SCRIPTS "hang_remove_self.ksim", "--hung-timeout 300");
	ck_assert_status(&r, 4);
	ck_assert_err(&r, "blocked for more than 300 ms");
	ck_assert_err(&r, "demo_file_unregister");
	/*
	 * The frame found by scanning is the call into libc (the wait queue's
	 * pthread_cond_wait(), in cond_wait()), never the function pointer
	 * beside it; the frame chain then leads to the waiter.
	 */
	ck_assert_err(&r, "Call Trace:\n ? cond_wait+0x");
	ck_assert_err(&r, "\n demo_file_unregister+0x");
	ksim_run_free(&r);
}
END_TEST

START_TEST(hung_timeout_command_sets_the_limit)
{
	struct ksim_run r;

	ksim_run_text(&r, "insmod demo_dev\nhung_timeout 200ms\necho 1 > /sys/demo/remove_self\n", false, TIMEOUT);
	ck_assert_status(&r, 4);
	ck_assert_err(&r, "blocked for more than 200 ms");
	ksim_run_free(&r);
}
END_TEST

START_TEST(oops_ends_the_run_with_3)
{
	struct ksim_run r;

	run(&r, SCRIPTS "oops.ksim", NULL);
	ck_assert_status(&r, 3);
	ck_assert_err(&r, "BUG: ");
	ck_assert_msg(!said_out(&r, "not reached"), "ran past the oops:\n%s", r.out);
	ksim_run_free(&r);
}
END_TEST

/* The soft-lockup detector (code/kernel/softlockup.h): a store that spins is reported like the kernel does. */
START_TEST(store_that_spins_is_a_soft_lockup)
{
	struct ksim_run r;

	setenv("KSIM_SOFTLOCKUP_TIMEOUT_MS", "1000", 1);
	run(&r, SCRIPTS "softlockup.ksim", NULL);
	ck_assert_status(&r, 3);
	ck_assert_err(&r, "watchdog: BUG: soft lockup - CPU#0 stuck for ");
	ck_assert_err(&r, "s! [sh:1]");
	ck_assert_err(&r, "state:R pid:1");
	ck_assert_err(&r, "spin_store+0x");
	ck_assert_err(&r, "Modules linked in: demo_dev");
	ck_assert_msg(!said_out(&r, "not reached"), "ran past the soft lockup:\n%s", r.out);
	ck_assert_msg(r.seconds < 4, "the soft lockup of a 1 s limit was reported after %.1f s", r.seconds);
	ksim_run_free(&r);
}
END_TEST

/* Under the controlled scheduler a spin between schedule points holds the baton for ever: the wall-clock watchdog still sees it. */
START_TEST(store_that_spins_is_a_soft_lockup_under_the_controlled_scheduler)
{
	struct ksim_run r;

	setenv("KSIM_SOFTLOCKUP_TIMEOUT_MS", "1000", 1);
	run(&r, SCRIPTS "softlockup.ksim", "--sched nonpreemptive");
	ck_assert_status(&r, 3);
	ck_assert_err(&r, "watchdog: BUG: soft lockup - CPU#0 stuck for ");
	ck_assert_err(&r, "spin_store+0x");
	ck_assert_msg(r.seconds < 4, "the soft lockup of a 1 s limit was reported after %.1f s", r.seconds);
	ksim_run_free(&r);
}
END_TEST

START_TEST(store_that_sleeps_past_the_soft_lockup_limit_is_not_stuck)
{
	struct ksim_run r;

	setenv("KSIM_SOFTLOCKUP_TIMEOUT_MS", "1000", 1);
	run(&r, SCRIPTS "softlockup_sleeper.ksim", "--hung-timeout 3000");
	ck_assert_status(&r, 0);
	ck_assert_out(&r, "done");
	ck_assert_msg(!said_err(&r, "soft lockup"), "a sleeping store was taken for a soft lockup:\n%s", r.err);
	ksim_run_free(&r);
}
END_TEST

/* The slab (code/kernel/slab.c): a second kfree() names the object and shows both frees. */
START_TEST(double_free_names_the_object_and_both_frees)
{
	struct ksim_run r;

	ksim_run_text(&r, "insmod demo_dev\necho 1 > /sys/demo/free\necho 2 > /sys/demo/free\necho not reached\n",
		      false, TIMEOUT);
	ck_assert_status(&r, 3);
	ck_assert_err(&r, "BUG: KASAN-like double-free in free_store+0x");
	ck_assert_err(&r, "double free of demo_buf (size 24) at addr ");
	ck_assert_err(&r, "Call Trace:\n free_store+0x");
	ck_assert_err(&r, "Freed before by task sh[1]:\n free_store+0x");
	/* Both call traces reach the store that freed. */
	ck_assert_msg(strstr(r.err, "free_store") && strstr(strstr(r.err, "Freed before"), "free_store"),
		      "the earlier free's call trace does not reach free_store:\n%s", r.err);
	ck_assert_msg(!said_err(&r, "kernel BUG at"), "a double free is reported as a BUG_ON:\n%s", r.err);
	ck_assert_msg(!said_out(&r, "not reached"), "ran past the double free:\n%s", r.out);
	ksim_run_free(&r);
}
END_TEST

START_TEST(warn_runs_to_the_end_then_exits_3)
{
	struct ksim_run r;

	run(&r, SCRIPTS "warn.ksim", NULL);
	ck_assert_status(&r, 3);
	ck_assert_err(&r, "WARNING");
	ck_assert_out(&r, "reached the end\n");
	ksim_run_free(&r);
}
END_TEST

START_TEST(jobs_left_at_the_end_are_killed_and_closed)
{
	struct ksim_run r;

	run(&r, SCRIPTS "leftover_job.ksim", NULL);
	ck_assert_status(&r, 0);
	ck_assert_msg(!said_err(&r, "still open"), "a file stayed open:\n%s", r.err);
	ksim_run_free(&r);
}
END_TEST

START_TEST(interactive_stdin_prompts_and_goes_on_after_a_bad_line)
{
	struct ksim_run r;

	run(&r, "-", "-i <" SCRIPTS "stdin.ksim");
	/* The bad line is reported, the next lines still run, the status says 2. */
	ck_assert_status(&r, 2);
	ck_assert_msg(strncmp(r.out, "# ", 2) == 0, "no prompt:\n%s", r.out);
	ck_assert_out(&r, "demo_dev");
	ck_assert_out(&r, "# 0\n");
	ck_assert_err(&r, "<stdin>:3:1: unknown command 'bogus'");
	ck_assert_msg(!said_err(&r, "expect failed"), "expect after the bad line failed:\n%s", r.err);
	ksim_run_free(&r);
}
END_TEST

START_TEST(piped_stdin_is_a_whole_script)
{
	struct ksim_run r;

	run(&r, "", "<" SCRIPTS "basic.ksim");
	ck_assert_status(&r, 0);
	ck_assert_msg(strncmp(r.out, "# ", 2) != 0, "prompt without -i:\n%s", r.out);
	ck_assert_out(&r, "\n42\n");
	ksim_run_free(&r);

	/* Not interactive: one bad line and nothing runs. */
	run(&r, "-", "<" SCRIPTS "stdin.ksim");
	ck_assert_status(&r, 2);
	ck_assert_msg(r.out[0] == '\0', "something ran:\n%s", r.out);
	ck_assert_err(&r, "<stdin>:3:1: ");
	ksim_run_free(&r);
}
END_TEST

START_TEST(echo_option_prints_each_line_as_a_transcript)
{
	struct ksim_run r;

	run(&r, SCRIPTS "seed_syntax.ksim", "--echo");
	ck_assert_status(&r, 0);
	ck_assert_out(&r, "# insmod drivers/scsi/demo_a.ko; insmod drivers/scsi/demo_b.ko;\n"
		      "# insmod drivers/ata/demo_dev.ko\n# cat > /sys/demo/value &\n[1] ");
	ksim_run_free(&r);
}
END_TEST

START_TEST(bad_invocation_exits_2)
{
	struct ksim_run r;

	run(&r, SCRIPTS "no_such_script.ksim", NULL);
	ck_assert_status(&r, 2);
	ck_assert_err(&r, "no_such_script.ksim: No such file or directory");
	ksim_run_free(&r);

	run(&r, SCRIPTS "bad", NULL);	/* a directory */
	ck_assert_status(&r, 2);
	ck_assert_err(&r, "bad: Is a directory");
	ksim_run_free(&r);

	run(&r, SCRIPTS "basic.ksim", "--frobnicate");
	ck_assert_status(&r, 2);
	ck_assert_err(&r, "unknown option '--frobnicate'");
	ksim_run_free(&r);
}
END_TEST

static Suite *shell_suite(void)
{
	Suite *s = suite_create("shell");
	TCase *tc;

	tc = ktest_case(s, "parse", 60);
	tcase_add_loop_test(tc, malformed_script_exits_2_and_runs_nothing, 0,
			    sizeof(malformed) / sizeof(malformed[0]));
	tcase_add_test(tc, every_mistake_of_a_script_is_reported);
	tcase_add_test(tc, bad_invocation_exits_2);

	tc = ktest_case(s, "run", 60);
	tcase_add_test(tc, basic_commands_print_like_the_shell);
	tcase_add_test(tc, failed_commands_are_printed_not_fatal);
	tcase_add_test(tc, background_job_pins_module_until_killed);
	tcase_add_test(tc, seed_command_lines_run_verbatim);
	tcase_add_test(tc, unplug_makes_an_open_file_fail_with_enodev);
	tcase_add_test(tc, wait_makes_the_job_outcome_what_expect_checks);
	tcase_add_test(tc, failed_expect_goes_on_and_exits_1);
	tcase_add_test(tc, same_script_gives_the_same_trace);
	tcase_add_test(tc, delay_point_stretches_the_store);
	tcase_add_test(tc, an_armed_delay_point_nobody_passes_is_named);
	tcase_add_test(tc, await_returns_once_a_task_is_held_at_the_point);
	tcase_add_test(tc, await_that_no_task_answers_stops_the_run_with_5);
	tcase_add_test(tc, await_timeout_is_virtual_under_the_controlled_scheduler);
	tcase_add_test(tc, await_is_not_answered_by_a_task_gone_before_it);
	tcase_add_test(tc, jobs_left_at_the_end_are_killed_and_closed);
	tcase_add_test(tc, interactive_stdin_prompts_and_goes_on_after_a_bad_line);
	tcase_add_test(tc, piped_stdin_is_a_whole_script);
	tcase_add_test(tc, echo_option_prints_each_line_as_a_transcript);

	tc = ktest_case(s, "kernel_errors", 60);
	tcase_add_test(tc, wait_on_a_job_holding_a_file_is_a_hang);
	tcase_add_test(tc, store_removing_its_own_file_is_a_hang);
	tcase_add_test(tc, hung_timeout_command_sets_the_limit);
	tcase_add_test(tc, oops_ends_the_run_with_3);
	tcase_add_test(tc, store_that_spins_is_a_soft_lockup);
	tcase_add_test(tc, store_that_spins_is_a_soft_lockup_under_the_controlled_scheduler);
	tcase_add_test(tc, double_free_names_the_object_and_both_frees);
	tcase_add_test(tc, store_that_sleeps_past_the_soft_lockup_limit_is_not_stuck);
	tcase_add_test(tc, warn_runs_to_the_end_then_exits_3);
	return s;
}

int main(void)
{
	return ktest_main(shell_suite());
}
