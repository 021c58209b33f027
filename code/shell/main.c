/* main.c - ksim: boot the simulated kernel, then play a scenario's userspace against it. */
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "module.h"
#include "oops.h"
#include "shell.h"
#include "task.h"
#include "trace.h"
#include "vfs.h"
#include "softlockup.h"
#include "watchdog.h"
#include "workqueue.h"

/*
 * ksim [--trace FILE] [--hung-timeout MS] [--echo] [-i] [SCRIPT | -]
 *
 * With SCRIPT (or standard input that is not a terminal) the whole script
 * is parsed first and nothing runs if it has a mistake (exit status 2).
 * On a terminal, or with -i, it is an interactive shell: a "# " prompt, one
 * line at a time, a bad line is reported and skipped.
 *
 * Exit status: 0 ran to the end; 1 an expect failed (or the stage found
 * references left over); 2 the script is wrong; 3 an oops, BUG or WARN;
 * 4 the hung-task watchdog fired.  3 and 4 are decided where they happen
 * (oops_end), so a later, milder status can never hide them.
 */
static const char usage[] =
	"usage: ksim [--trace FILE] [--hung-timeout MS] [--echo] [-i] [SCRIPT | -]\n"
	"  SCRIPT          scenario to run (default: standard input)\n"
	"  --trace FILE    write the lifetime trace to FILE\n"
	"  --hung-timeout MS  report a task blocked longer than MS (default 2000)\n"
	"  --echo          print each script line, as '# LINE', before running it\n"
	"  -i              interactive: prompt and go on after a bad line\n";

struct options {
	const char *script;
	const char *trace;
	long hung_ms;
	bool echo;
	bool interactive;
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

		if (strcmp(a, "--trace") == 0 || strcmp(a, "--hung-timeout") == 0) {
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
	task_init_main("sh");
	files_alloc();
	oops_init();
	workqueue_init();
	watchdog_start(o->hung_ms);
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
static int end_run(void)
{
	jobs_end();
	exit_files();
	flush_scheduled_work();
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
	struct options o = { 0 };
	struct script s = { 0 };
	struct result last = { 0 };
	bool tty, interactive;
	char *text = NULL;

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
	free(last.out.s);
	script_free(&s);
	return worst;
}
