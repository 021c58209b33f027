/* ksim_run.c - ksim as a subprocess of a test: run a script, time-limited, and read what it printed and traced. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "ktest.h"

static char *slurp_fd(int fd)
{
	size_t len = 0, cap = 4096;
	char *buf = malloc(cap);
	ssize_t n;

	while ((n = read(fd, buf + len, cap - len - 1)) > 0) {
		len += n;
		if (cap - len < 2)
			buf = realloc(buf, cap *= 2);
	}
	buf[len] = '\0';
	return buf;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

void ksim_run(struct ksim_run *r, const char *script, bool want_trace,
	      const char *extra_args, double timeout_s)
{
	const char *ksim = getenv("KSIM");
	char outp[] = "/tmp/ktest-out-XXXXXX", errp[] = "/tmp/ktest-err-XXXXXX";
	char tracep[] = "/tmp/ktest-trace-XXXXXX";
	int outfd = mkstemp(outp), errfd = mkstemp(errp), tfd = -1, st;
	double deadline;
	char cmd[4096], tracearg[32] = "";
	pid_t pid;

	memset(r, 0, sizeof(*r));
	ck_assert_msg(ksim != NULL, "KSIM is not set: run the suites through make");
	ck_assert_msg(outfd >= 0 && errfd >= 0, "cannot create files in /tmp");
	/*
	 * Unlinked at once: the descriptors keep the files, and a test killed
	 * by its time limit leaves nothing behind in /tmp.  ksim writes its
	 * trace through /dev/fd/N, which reopens the unlinked file.
	 */
	unlink(outp);
	unlink(errp);
	/*
	 * Every scenario a suite runs ends in a second or two, a hang within
	 * the watchdog's 2 s.  A run still going after KSIM_RUN_MAX_S is an
	 * endless loop: stop it well before the test case's own time limit,
	 * so the test fails with a message rather than a timeout.
	 */
	if (timeout_s > KSIM_RUN_MAX_S)
		timeout_s = KSIM_RUN_MAX_S;
	timeout_s *= ktest_multiplier();
	if (timeout_s > ktest_hang_left())
		timeout_s = ktest_hang_left() > 0.5 ? ktest_hang_left() : 0.5;
	deadline = now_s() + timeout_s;
	if (want_trace) {
		tfd = mkstemp(tracep);
		ck_assert_msg(tfd >= 0, "cannot create files in /tmp");
		unlink(tracep);
		snprintf(tracearg, sizeof(tracearg), "--trace /dev/fd/%d", tfd);
	}
	snprintf(cmd, sizeof(cmd), "exec %s %s %s %s", ksim, tracearg,
		 extra_args ? extra_args : "", script);
	pid = fork();
	if (pid == 0) {
		dup2(outfd, 1);
		dup2(errfd, 2);
		setpgid(0, 0);
		/* If the test is killed (its own time limit), ksim must not live on. */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
		_exit(127);
	}
	for (;;) {
		pid_t w = waitpid(pid, &st, WNOHANG);

		if (w == pid)
			break;
		if (now_s() > deadline) {
			kill(-pid, SIGKILL);
			kill(pid, SIGKILL);
			waitpid(pid, &st, 0);
			fprintf(stderr, "ktest: %s was still running after %.0f s and was killed (exit status 124): "
				"an endless loop in your code, or a wait that nothing ends?\n", script, timeout_s);
			st = 124 << 8;
			break;
		}
		usleep(5000);
	}
	r->status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
	r->seconds = now_s() - (deadline - timeout_s);
	lseek(outfd, 0, SEEK_SET);
	lseek(errfd, 0, SEEK_SET);
	r->out = slurp_fd(outfd);
	r->err = slurp_fd(errfd);
	close(outfd);
	close(errfd);
	r->hung = r->status == 124 || r->status == 4 || strstr(r->err, "BUG: soft lockup");
	if (r->hung)
		ktest_hang_charge(r->seconds);
	if (want_trace) {
		lseek(tfd, 0, SEEK_SET);
		r->trace = slurp_fd(tfd);
		close(tfd);
	}
}

void ktest_hang_expected(struct ksim_run *r, int want)
{
	if (r->hung && r->status == want) {
		ktest_hang_charge(-r->seconds);
		r->hung = false;
	}
}

void ksim_run_text(struct ksim_run *r, const char *text, bool want_trace, double timeout_s)
{
	char path[] = "/tmp/ktest-script-XXXXXX";
	int fd = mkstemp(path);

	ck_assert(fd >= 0);
	ck_assert(write(fd, text, strlen(text)) == (ssize_t)strlen(text));
	close(fd);
	ksim_run(r, path, want_trace, NULL, timeout_s);
	unlink(path);
}

void ksim_run_free(struct ksim_run *r)
{
	free(r->out);
	free(r->err);
	free(r->trace);
}

/**
 * ksim_assert_same_trace_twice - run @script twice with @extra_args (may be
 * NULL), each run writing its trace, and fail unless both traces are equal
 * (and, if @no_todo, unless no exercise stub ran).
 *
 * Context: a Check test, in its own process.
 */
void ksim_assert_same_trace_twice(const char *script, const char *extra_args, bool no_todo)
{
	struct ksim_run a, b;

	ksim_run(&a, script, true, extra_args, 20);
	ksim_run(&b, script, true, extra_args, 20);
	if (no_todo)
		ck_assert_no_todo(&a);
	ck_assert_msg(a.trace && a.trace[0], "%s: no trace written", script);
	ck_assert_msg(strcmp(a.trace, b.trace) == 0, "%s: two runs gave different traces:\n%.1500s\n---\n%.1500s",
		      script, a.trace, b.trace);
	ksim_run_free(&a);
	ksim_run_free(&b);
}

/* Does one trace line (SEQ TASK EVENT OBJECT ...) match? */
static bool trace_line_matches(const char *line, const char *event, const char *object)
{
	char ev[64], obj[256];

	if (sscanf(line, "%*u %*s %63s %255s", ev, obj) != 2)
		return false;
	return (!event || strcmp(ev, event) == 0) && (!object || strcmp(obj, object) == 0);
}

long trace_seq(const char *trace, const char *event, const char *object, int n)
{
	const char *line = trace;

	while (line && *line) {
		if (trace_line_matches(line, event, object) && --n == 0)
			return strtol(line, NULL, 10);
		line = strchr(line, '\n');
		if (line)
			line++;
	}
	return 0;
}

int trace_count(const char *trace, const char *event, const char *object)
{
	int n = 0;

	while (trace_seq(trace, event, object, n + 1))
		n++;
	return n;
}

/* first_todo - the first "TODO(name): ..." line ksim printed, for a one-line failure. */
const char *first_todo(const char *err)
{
	static char line[256];
	const char *t = strstr(err, "TODO(");
	size_t n;

	if (!t)
		return "";
	n = strcspn(t, "\n");
	snprintf(line, sizeof(line), "%.*s", (int)n, t);
	return line;
}
