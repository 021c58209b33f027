/* main.c - ksim: boot the simulated kernel, then play a scenario's userspace against it. */
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "delay.h"
#include "lockdep.h"
#include "module.h"
#include "oops.h"
#include "scheduler.h"
#include "shell.h"
#include "task.h"
#include "trace.h"
#include "vfs.h"
#include "softlockup.h"
#include "watchdog.h"
#include "workqueue.h"

/*
 * ksim [--trace FILE] [--hung-timeout MS] [--sched STRATEGY [--seed N]] [--[no-]lockdep] [--echo] [-i] [SCRIPT | -]
 *
 * With SCRIPT (or standard input that is not a terminal) the whole script
 * is parsed first and nothing runs if it has a mistake (exit status 2).
 * On a terminal, or with -i, it is an interactive shell: a "# " prompt, one
 * line at a time, a bad line is reported and skipped.
 *
 * Exit status: 0 ran to the end; 1 an expect failed (or the stage found
 * references left over); 2 the script is wrong; 3 an oops, BUG or WARN;
 * 4 the hung-task watchdog fired; 5 no task reached the delay point of an
 * "await" in time (await.c).  3, 4 and 5 are decided where they happen
 * (oops_end, do_await) and end the run there, so a later, milder status
 * can never hide them.
 *
 * With --sched the tasks run one at a time under the controlled scheduler
 * (code/kernel/scheduler.h): time is virtual, a deadlock is reported at
 * once (status 4) instead of by the watchdog, and a run that fails prints
 * the schedule that replays it.
 */
static const char usage[] =
	"usage: ksim [--trace FILE] [--hung-timeout MS] [--sched S [--seed N]] [--[no-]lockdep] [--echo] [-i] [SCRIPT | -]\n"
	"  SCRIPT          scenario to run (default: standard input)\n"
	"  --trace FILE    write the lifetime trace to FILE\n"
	"  --hung-timeout MS  report a task blocked longer than MS (default 2000)\n"
	"  --sched S       run the tasks one at a time: nonpreemptive, random, pct:D,\n"
	"                  replay:SCHEDULE (a failing run prints its own)\n"
	"  --seed N        the seed of random and pct:D (default 1)\n"
	"  --no-lockdep    do not check the order locks are taken in (KSIM_LOCKDEP=0)\n"
	"  --lockdep       check it even under Valgrind (default: on elsewhere)\n"
	"  --echo          print each script line, as '# LINE', before running it\n"
	"  -i              interactive: prompt and go on after a bad line\n"
	"exit status: 0 ran to the end, 1 an expect failed, 2 the script is wrong,\n"
	"  3 oops/BUG/WARN, 4 a hung task, 5 no task reached an awaited delay point\n";

struct options {
	const char *script;
	const char *trace;
	long hung_ms;
	bool echo;
	bool interactive;
	const char *sched;
	unsigned long seed;
	const char *argv0;
	struct sched_strategy strategy;
	int lockdep;		/* -1 not said, 0 --no-lockdep, 1 --lockdep */
};

static int worst = EXIT_OK;

static void worse(int status)
{
	if (status > worst)
		worst = status;
}

static __noreturn void usage_error(const char *fmt, const char *arg)
{
	fprintf(stderr, "ksim: ");
	fprintf(stderr, fmt, arg);
	fprintf(stderr, "\n%s", usage);
	exit(EXIT_USAGE);
}

static void parse_options(int argc, char **argv, struct options *o)
{
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (strcmp(a, "--sched") == 0 || strcmp(a, "--seed") == 0) {
			char *end;

			if (i + 1 == argc)
				usage_error("%s needs an argument", a);
			if (a[3] == 'c') {
				o->sched = argv[++i];
			} else {
				o->seed = strtoul(argv[++i], &end, 10);
				if (*end || !*argv[i])
					usage_error("--seed: '%s' is not a number", argv[i]);
			}
		} else if (strcmp(a, "--trace") == 0 || strcmp(a, "--hung-timeout") == 0) {
			if (i + 1 == argc)
				usage_error("%s needs an argument", a);
			if (a[2] == 't') {
				o->trace = argv[++i];
			} else {
				char *end;

				o->hung_ms = strtol(argv[++i], &end, 10);
				if (*end || o->hung_ms <= 0)
					usage_error("--hung-timeout: '%s' is not a number of milliseconds", argv[i]);
			}
		} else if (strcmp(a, "--lockdep") == 0 || strcmp(a, "--no-lockdep") == 0) {
			o->lockdep = a[2] == 'l';
		} else if (strcmp(a, "--echo") == 0) {
			o->echo = true;
		} else if (strcmp(a, "-i") == 0) {
			o->interactive = true;
		} else if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
			fputs(usage, stdout);
			exit(EXIT_OK);
		} else if (a[0] == '-' && a[1]) {
			usage_error("unknown option '%s'", a);
		} else if (o->script) {
			usage_error("one script at a time ('%s')", a);
		} else {
			o->script = a;
		}
	}
	if (o->sched) {
		char err[160];

		if (sched_parse(o->sched, o->seed ? o->seed : 1, &o->strategy, err, sizeof(err)) != 0)
			usage_error("--sched: %s", err);
	}
	if (o->seed && (!o->sched || (o->strategy.kind != SCHED_RANDOM && o->strategy.kind != SCHED_PCT)))
		usage_error("%s needs --sched random or --sched pct:D (the other strategies draw nothing)", "--seed");
}

/* The run under --sched failed: print the schedule that replays it, once. */
static const struct options *replay_opts;
static bool replay_said;

static void say_replay(int status)
{
	static char buf[16384];

	(void)status;
	if (replay_said || !replay_opts)
		return;
	replay_said = true;
	sched_format(sched_current_log(), ~0UL, buf, sizeof(buf));
	fprintf(stderr, "ksim: this run's schedule: %s\n", buf);
	fprintf(stderr, "ksim: replay it with: %s --sched %s %s\n", replay_opts->argv0, buf,
		replay_opts->script ? replay_opts->script : "-");
}

/*
 * read_all - the whole script, NUL-terminated; NULL, with a message, if it
 * cannot be read (a directory, say) or holds a NUL byte, which would end
 * the text early and silently.
 */
static char *read_all(FILE *f, const char *name)
{
	struct strbuf b = { 0 };
	char buf[4096];
	size_t n, total = 0;
	const char *nul;

	strbuf_add(&b, "", 0);
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0) {
		strbuf_add(&b, buf, n);
		total += n;
	}
	if (ferror(f)) {
		fprintf(stderr, "ksim: %s: %s\n", name, strerror(errno));
		free(b.s);
		return NULL;
	}
	nul = memchr(b.s, '\0', total);
	if (nul) {
		int line = 1, col = 1;

		for (const char *p = b.s; p < nul; p++, col++)
			if (*p == '\n')
				line++, col = 0;
		fprintf(stderr, "%s:%d:%d: a NUL byte: a script is text\n", name, line, col);
		free(b.s);
		return NULL;
	}
	return b.s;
}

/* Modules are looked for next to the ksim binary: build/stageN/NAME.so. */
static void set_module_dir(const char *argv0)
{
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	if (n <= 0) {
		snprintf(exe, sizeof(exe), "%s", argv0);
		n = strlen(exe);
	}
	exe[n] = '\0';
	module_set_dir(dirname(exe));
}

static void boot(const struct options *o, const char *argv0)
{
	if (o->lockdep >= 0)
		lockdep_set_enabled(o->lockdep);
	task_init_main("sh");
	files_alloc();
	oops_init();
	if (o->sched) {
		/* Before the first task starts: every task of the run is a controlled one. */
		replay_opts = o;
		sched_failure_hook = say_replay;
		sched_start(&o->strategy, NULL);
		watchdog_set_limit(o->hung_ms);
	}
	workqueue_init();
	/*
	 * Controlled, the scheduler sees a deadlock itself, and a spin through
	 * schedule points (its step budget); a spin between them holds the
	 * baton for ever, and only the soft-lockup watchdog's own thread, on
	 * the wall clock, can see it.
	 */
	if (!o->sched)
		watchdog_start(o->hung_ms);
	else
		task_skip_pid();	/* khungtaskd's: the same pids as a free run */
	softlockup_start(0);
	set_module_dir(argv0);
	stage_init();
	if (o->trace) {
		int err = trace_open(o->trace);

		if (err) {
			fprintf(stderr, "ksim: cannot write the trace to %s: %s\n", o->trace, strerror(-err));
			exit(EXIT_USAGE);
		}
	}
}

static void run_commands(const struct script *s, int from, struct result *last, bool echo)
{
	for (int i = from; i < s->ncmd; i++) {
		const struct command *c = s->cmd[i];

		if (echo && c->line_text)
			out_printf("# %s\n", c->line_text);
		if (c->kind == CMD_EXPECT) {
			if (!expect_check(s, c, last))
				worse(EXIT_EXPECT);
			continue;
		}
		exec_command(c, last);
	}
}

static void run_interactive(struct script *s, struct result *last, bool echo, bool prompt)
{
	char *line = NULL;
	size_t cap = 0;
	int lineno = 0;

	for (;;) {
		if (prompt) {
			out_printf("# ");
			fflush(stdout);
		}
		if (getline(&line, &cap, stdin) < 0)
			break;
		lineno++;
		int from = s->ncmd;

		if (script_parse(s, line, lineno)) {
			worse(EXIT_USAGE);
			continue;
		}
		run_commands(s, from, last, echo);
	}
	if (prompt)
		out_printf("\n");
	free(line);
}

/*
 * The end of a run, in the order the kernel would see it: the processes
 * still running die (their files close, on their own tasks), queued work
 * runs, and only then does the stage check what is left.  Every step is
 * under the watchdog, so an oops or a hang at the very end is still
 * reported, with its exit status.
 */
/* say_unreached - a delay the script armed opened no window: say where its call is. */
static void say_unreached(const char *name, const char *file, unsigned int ms)
{
	fprintf(stderr, "ksim: note: 'delay %s %ums' was armed, but no task passed delay_point(\"%s\"), "
		"so the race window it opens never opened and this run did not test that race: the "
		"function of %s that calls it did not run, or no longer calls it\n", name, ms, name, file);
}

static int end_run(void)
{
	jobs_end();
	exit_files();
	flush_scheduled_work();
	delay_report_unreached(say_unreached);
	if (stage_verify() != 0)
		worse(EXIT_EXPECT);
	if (atomic_load(&kernel_tainted))
		worse(EXIT_OOPS);
	trace_close();
	fflush(stdout);
	return worst;
}

int main(int argc, char **argv)
{
	struct options o = { .lockdep = -1 };
	struct script s = { 0 };
	struct result last = { 0 };
	bool tty, interactive;
	char *text = NULL;

	o.argv0 = argv[0];
	parse_options(argc, argv, &o);
	/* Whole lines, in order with the kernel's lines on stderr. */
	setvbuf(stdout, NULL, _IOLBF, 0);
	tty = isatty(STDIN_FILENO);
	interactive = !o.script || strcmp(o.script, "-") == 0 ? o.interactive || tty : false;
	if (o.script && strcmp(o.script, "-") != 0) {
		FILE *f = fopen(o.script, "r");

		if (!f) {
			fprintf(stderr, "ksim: %s: %s\n", o.script, strerror(errno));
			return EXIT_USAGE;
		}
		text = read_all(f, o.script);
		fclose(f);
		if (!text)
			return EXIT_USAGE;
		s.file = o.script;
	} else {
		s.file = "<stdin>";
		if (!interactive && !(text = read_all(stdin, s.file)))
			return EXIT_USAGE;
	}
	if (text && script_parse(&s, text, 1)) {
		free(text);
		script_free(&s);
		return EXIT_USAGE;
	}
	free(text);

	boot(&o, argv[0]);
	if (interactive)
		run_interactive(&s, &last, o.echo, true);
	else
		run_commands(&s, 0, &last, o.echo);
	worse(end_run());
	if (worst != EXIT_OK && o.sched)
		say_replay(worst);
	free(last.out.s);
	script_free(&s);
	return worst;
}
