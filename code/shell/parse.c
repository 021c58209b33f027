/* parse.c - turn tokens into checked commands; every mistake is reported before anything runs. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "delay.h"
#include "kconfig.h"
#include "module.h"
#include "script.h"

/*
 * Why so strict: a scenario reproduces a race or a use-after-free.  If a
 * typo in line 7 were found only when line 7 runs, lines 1-6 would already
 * have loaded modules and opened files, and the run would end in a state
 * nobody meant.  So the whole script is checked first (exit status 2, and
 * nothing runs), including what can be checked statically: argument counts,
 * times, errno names, delay points, job numbers.
 */
struct parser {
	struct script *s;
	const char *src;
	struct tokens toks;
	int errors;
};

static __attribute__((format(printf, 4, 5)))
void perr(struct parser *p, int line, int col, const char *fmt, ...)
{
	char msg[300];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	fflush(stdout);
	fprintf(stderr, "%s:%d:%d: %s\n", p->s->file, line, col, msg);
	p->errors++;
}

#define perr_at(p, tok, ...) perr((p), (tok)->line, (tok)->col, __VA_ARGS__)

/* What one command looks like while it is being checked. */
struct cmdline {
	struct token *w[64];		/* its words */
	int nw;
	struct token *redir_op, *redir;	/* '>' or '>>' and its file */
	struct token *amp;		/* the '&' that ends it, or NULL */
	struct token *last;		/* its last token, for "missing argument" */
	struct command c;
};

struct cmd_spec {
	const char *name;
	enum cmd_kind kind;
	int min, max;			/* arguments after the name; max -1: any */
	bool can_bg;			/* a userspace program: may run with '&' */
	bool can_redir;
	const char *usage;
	bool (*check)(struct parser *p, struct cmdline *cl);
};

/* The column just after the command's last token: where a missing word goes. */
static int col_after(struct cmdline *cl)
{
	return cl->last->col + (int)(cl->last->end - cl->last->start) + 1;
}

static bool check_name(struct parser *p, struct token *t, const char *what, const char *name)
{
	size_t n = strlen(name);

	if (n == 0 || n >= MODULE_NAME_LEN || strspn(name, "abcdefghijklmnopqrstuvwxyz"
	    "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-") != n) {
		perr_at(p, t, "bad %s name '%s' (letters, digits, '_' and '-', at most %d)",
			what, t->text, MODULE_NAME_LEN - 1);
		return false;
	}
	return true;
}

/* The scenario has no current directory: every path is absolute. */
static bool check_path(struct parser *p, struct token *t)
{
	if (t->text[0] != '/') {
		perr_at(p, t, "'%s': paths must be absolute (start with '/')", t->text);
		return false;
	}
	return true;
}

static bool check_module(struct parser *p, struct cmdline *cl)
{
	char name[MODULE_NAME_LEN + 8];

	module_name_of_path(cl->w[1]->text, name, sizeof(name));
	if (!check_name(p, cl->w[1], "module", name))
		return false;
	cl->c.arg = strdup(name);
	return true;
}

static bool check_ls(struct parser *p, struct cmdline *cl)
{
	if (cl->nw == 1) {
		cl->c.arg = strdup("/");
		return true;
	}
	cl->c.arg = strdup(cl->w[1]->text);
	return check_path(p, cl->w[1]);
}

static bool check_cat(struct parser *p, struct cmdline *cl)
{
	if (cl->redir_op) {
		if (cl->nw > 1) {
			perr_at(p, cl->redir_op, "cat FILE > FILE is not supported: only 'cat > FILE &'");
			return false;
		}
		if (cl->redir_op->kind == T_GTGT) {
			perr_at(p, cl->redir_op, "cat >> FILE is not supported: write 'cat > FILE &'");
			return false;
		}
		if (!cl->amp) {
			perr_at(p, cl->w[0], "'cat > FILE' would wait for input forever: "
				"run it in the background with '&' and end it with kill");
			return false;
		}
		return true;
	}
	if (cl->nw == 1) {
		perr(p, cl->last->line, col_after(cl), "cat: missing file (cat FILE, or cat > FILE &)");
		return false;
	}
	for (int i = 1; i < cl->nw; i++)
		if (!check_path(p, cl->w[i]))
			return false;
	return true;
}

static bool check_echo(struct parser *p, struct cmdline *cl)
{
	(void)p;
	cl->c.newline = true;
	cl->c.first_arg = 1;
	if (cl->nw > 1 && strcmp(cl->w[1]->text, "-n") == 0) {
		cl->c.newline = false;
		cl->c.first_arg = 2;
	}
	return true;
}

/*
 * check_jobspec - %N, %%, %+ or %- for kill and wait: *n gets N or JOB_*.
 * A job that cannot exist at this point of the script (more than were
 * started with '&' before it) is a mistake of the script, found here.
 */
static bool check_jobspec(struct parser *p, struct token *t, const char *cmd, long *n)
{
	const char *a = t->text;
	int started = p->s->jobs_started;
	char *end;

	if (a[0] != '%' || a[1] == '\0') {
		perr_at(p, t, "%s: '%s': name a job as %%N, %%%% or %%-", cmd, a);
		return false;
	}
	if (strcmp(a, "%%") == 0 || strcmp(a, "%+") == 0) {
		*n = JOB_CURRENT;
	} else if (strcmp(a, "%-") == 0) {
		*n = JOB_PREVIOUS;
	} else {
		*n = strtol(a + 1, &end, 10);
		if (*end || *n <= 0) {
			perr_at(p, t, "%s: '%s': bad job number", cmd, a);
			return false;
		}
	}
	if (started == 0 || *n > started || (*n == JOB_PREVIOUS && started < 2)) {
		perr_at(p, t, "%s: no job %s can exist here: %d job%s started with '&' before this",
			cmd, a, started, started == 1 ? "" : "s");
		return false;
	}
	return true;
}

static bool check_kill(struct parser *p, struct cmdline *cl)
{
	if (cl->w[1]->text[0] == '-') {
		perr_at(p, cl->w[1], "kill: signals are not supported; 'kill %%N' ends job N (SIGTERM)");
		return false;
	}
	return check_jobspec(p, cl->w[1], "kill", &cl->c.n);
}

/* wait [%N]: without a job, every job (n = 0). */
static bool check_wait(struct parser *p, struct cmdline *cl)
{
	cl->c.n = 0;
	if (cl->nw == 1)
		return true;
	if (cl->w[1]->text[0] == '-') {
		perr_at(p, cl->w[1], "wait: options are not supported; 'wait' waits for every job, 'wait %%N' for job N");
		return false;
	}
	return check_jobspec(p, cl->w[1], "wait", &cl->c.n);
}

static bool check_time(struct parser *p, struct token *t, bool bare_ms, bool unit_required, long *ms)
{
	const char *bad = parse_time(t->text, bare_ms, unit_required, ms);

	if (bad) {
		perr_at(p, t, "'%s': %s", t->text, bad);
		return false;
	}
	return true;
}

static bool check_sleep(struct parser *p, struct cmdline *cl)
{
	return check_time(p, cl->w[1], false, false, &cl->c.ms);
}

/* check_number - a command's number (decimal, or hex with 0x), into *v. */
static bool check_number(struct parser *p, struct token *t, const char *what, unsigned long *v)
{
	char *end;

	errno = 0;
	*v = strtoul(t->text, &end, 0);
	if (!t->text[0] || *end || errno || t->text[0] == '-') {
		perr_at(p, t, "ioctl: '%s': the %s must be a number (decimal, or hex with 0x)", t->text, what);
		return false;
	}
	return true;
}

/* check_dev_node - the file of ioctl or poll: a path under /dev/, kept in c.arg. */
static bool check_dev_node(struct parser *p, struct cmdline *cl, const char *prog)
{
	cl->c.arg = strdup(cl->w[1]->text);
	if (check_path(p, cl->w[1]) && strncmp(cl->w[1]->text, "/dev/", 5) != 0) {
		perr_at(p, cl->w[1], "%s: '%s': only a device node (/dev/NAME) has %s %s", prog, cl->w[1]->text,
			strcmp(prog, "ioctl") == 0 ? "an" : "a", prog);
		return false;
	}
	return check_path(p, cl->w[1]);
}

/* ioctl FILE CMD [ARG]: the file, then the numbers the driver's unlocked_ioctl gets. */
static bool check_ioctl(struct parser *p, struct cmdline *cl)
{
	if (!check_dev_node(p, cl, "ioctl") || !check_number(p, cl->w[2], "command", &cl->c.ioctl_cmd))
		return false;
	return cl->nw < 4 || check_number(p, cl->w[3], "argument", &cl->c.ioctl_arg);
}

/* poll FILE: a device node, whose driver's poll says what the file is ready for. */
static bool check_poll(struct parser *p, struct cmdline *cl)
{
	return check_dev_node(p, cl, "poll");
}

static bool check_device(struct parser *p, struct cmdline *cl)
{
	cl->c.arg = strdup(cl->w[1]->text);
	return check_name(p, cl->w[1], "device", cl->w[1]->text);
}

/* A delay point this stage has; if not, say so for CMD ("delay", "await") and list those it has. */
static bool point_known(struct parser *p, struct token *point, const char *cmd)
{
	char names[1024];

	if (delay_known(point->text))
		return true;
	delay_names(names, sizeof(names));
	perr_at(p, point, "%s: unknown delay point '%s'; this stage has: %s", cmd, point->text,
		names[0] ? names : "none");
	return false;
}

static bool check_delay(struct parser *p, struct cmdline *cl)
{
	struct token *point = cl->w[1], *t = cl->w[2];

	if (!point_known(p, point, "delay"))
		return false;
	cl->c.arg = strdup(point->text);
	if (strcmp(t->text, "off") == 0) {
		cl->c.ms = 0;
		return true;
	}
	return check_time(p, t, true, true, &cl->c.ms);
}

/* The default of "await POINT": long past any window a scenario holds open, short of a wait for ever. */
#define AWAIT_DEFAULT_MS 10000

/*
 * await POINT [TIMEOUT]: a known point, armed by an earlier line of the
 * script (its last "delay POINT" is not "off"), since only an armed point
 * holds the task that passes it: an unarmed one would let it run on, and
 * the order the await stands for would be a guess again.
 */
static bool check_await(struct parser *p, struct cmdline *cl)
{
	struct token *point = cl->w[1];
	const struct command *armed = NULL;

	if (!point_known(p, point, "await"))
		return false;
	for (int i = p->s->ncmd - 1; i >= 0 && !armed; i--)
		if (p->s->cmd[i]->kind == CMD_DELAY && strcmp(p->s->cmd[i]->arg, point->text) == 0)
			armed = p->s->cmd[i];
	if (!armed || armed->ms == 0) {
		perr_at(p, point, "await: delay point '%s' is not armed here, so no task would wait there: "
			"arm it on an earlier line with 'delay %s TIME'", point->text, point->text);
		return false;
	}
	cl->c.arg = strdup(point->text);
	cl->c.ms = AWAIT_DEFAULT_MS;
	if (cl->nw < 3)
		return true;
	if (!check_time(p, cl->w[2], false, false, &cl->c.ms))
		return false;
	if (cl->c.ms <= 0) {
		perr_at(p, cl->w[2], "await: the timeout must be more than 0");
		return false;
	}
	return true;
}

static bool check_trace(struct parser *p, struct cmdline *cl)
{
	struct token *op = cl->w[1];
	int want;

	if (strcmp(op->text, "on") == 0) {
		cl->c.op = TRACE_ON, want = 2;
	} else if (strcmp(op->text, "off") == 0) {
		cl->c.op = TRACE_OFF, want = 2;
	} else if (strcmp(op->text, "mark") == 0) {
		cl->c.op = TRACE_MARK, want = 3;
	} else {
		perr_at(p, op, "trace: '%s': expected on, off or mark LABEL", op->text);
		return false;
	}
	if (cl->nw > want) {
		perr_at(p, cl->w[want], "trace %s: unexpected argument '%s'", op->text, cl->w[want]->text);
		return false;
	}
	if (cl->nw < want) {
		perr(p, cl->last->line, col_after(cl), "trace mark: missing label");
		return false;
	}
	if (want == 3) {
		struct token *l = cl->w[2];

		/* Trace values never contain spaces (trace.h): a reader splits on them. */
		if (strspn(l->text, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.:/-")
		    != strlen(l->text) || !l->text[0]) {
			perr_at(p, l, "trace mark: bad label '%s' (letters, digits and _.:/- only)", l->text);
			return false;
		}
		cl->c.arg = strdup(l->text);
	}
	return true;
}

static bool check_hung_timeout(struct parser *p, struct cmdline *cl)
{
	if (!check_time(p, cl->w[1], true, false, &cl->c.ms))
		return false;
	if (cl->c.ms <= 0) {
		perr_at(p, cl->w[1], "hung_timeout: the limit must be more than 0");
		return false;
	}
	return true;
}

/* config NAME=y|n: a debug option of the simulated kernel (kconfig.h), for the rest of the run. */
static bool check_config(struct parser *p, struct cmdline *cl)
{
	struct token *t = cl->w[1];
	const char *eq = strchr(t->text, '=');
	char *name;
	bool known;

	if (!eq || (strcmp(eq, "=y") != 0 && strcmp(eq, "=n") != 0)) {
		perr_at(p, t, "config: '%s': expected NAME=y or NAME=n", t->text);
		return false;
	}
	name = strndup(t->text, eq - t->text);
	if (strncmp(name, "CONFIG_", 7) == 0)
		memmove(name, name + 7, strlen(name + 7) + 1);
	known = kconfig_known(name);
	if (!known) {
		perr_at(p, t, "config: unknown option '%s' (known: DEBUG_KOBJECT_RELEASE)", name);
		free(name);
		return false;
	}
	cl->c.arg = name;
	cl->c.n = eq[1] == 'y';
	return true;
}

static bool check_expect(struct parser *p, struct cmdline *cl)
{
	static const struct {
		const char *name;
		enum expect_kind kind;
		int min, max;		/* words after the kind */
		const char *usage;
	} kinds[] = {
		{ "ok", EXPECT_OK, 0, 0, "expect ok" },
		{ "fail", EXPECT_FAIL, 0, 1, "expect fail [ERRNO]" },
		{ "output", EXPECT_OUTPUT, 1, -1, "expect output TEXT" },
		{ "loaded", EXPECT_LOADED, 1, 1, "expect loaded MODULE" },
		{ "unloaded", EXPECT_UNLOADED, 1, 1, "expect unloaded MODULE" },
		{ "modref", EXPECT_MODREF, 2, 2, "expect modref MODULE N" },
	};
	struct token *k = cl->w[1];
	int nargs = cl->nw - 2;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(kinds); i++)
		if (strcmp(kinds[i].name, k->text) == 0)
			break;
	if (i == ARRAY_SIZE(kinds)) {
		perr_at(p, k, "expect: '%s': expected ok, fail, output, loaded, unloaded or modref", k->text);
		return false;
	}
	if (nargs < kinds[i].min) {
		perr(p, cl->last->line, col_after(cl), "%s: missing argument", kinds[i].usage);
		return false;
	}
	if (kinds[i].max >= 0 && nargs > kinds[i].max) {
		perr_at(p, cl->w[2 + kinds[i].max], "%s: unexpected argument '%s'", kinds[i].usage,
			cl->w[2 + kinds[i].max]->text);
		return false;
	}
	if (!p->s->have_prev) {
		perr_at(p, cl->w[0], "expect: no command before it to check");
		return false;
	}
	cl->c.op = kinds[i].kind;
	switch (kinds[i].kind) {
	case EXPECT_OK:
		break;
	case EXPECT_FAIL:
		if (nargs == 1) {
			cl->c.n = errno_by_name(cl->w[2]->text);
			if (!cl->c.n) {
				perr_at(p, cl->w[2], "expect fail: unknown errno name '%s' (ENODEV, EBUSY, ENOENT...)",
					cl->w[2]->text);
				return false;
			}
		}
		break;
	case EXPECT_OUTPUT: {
		/* The words, joined by single spaces: "expect output Used by" works unquoted. */
		size_t len = 1;
		char *s;

		for (int j = 2; j < cl->nw; j++)
			len += strlen(cl->w[j]->text) + 1;
		s = calloc(1, len);
		for (int j = 2; j < cl->nw; j++) {
			if (j > 2)
				strcat(s, " ");
			strcat(s, cl->w[j]->text);
		}
		cl->c.arg = s;
		break;
	}
	case EXPECT_LOADED:
	case EXPECT_UNLOADED:
		cl->c.arg = strdup(cl->w[2]->text);
		return check_name(p, cl->w[2], "module", cl->w[2]->text);
	case EXPECT_MODREF: {
		char *end;

		cl->c.arg = strdup(cl->w[2]->text);
		if (!check_name(p, cl->w[2], "module", cl->w[2]->text))
			return false;
		cl->c.n = strtol(cl->w[3]->text, &end, 10);
		if (*end || !cl->w[3]->text[0] || cl->c.n < 0) {
			perr_at(p, cl->w[3], "expect modref: '%s' is not a count", cl->w[3]->text);
			return false;
		}
		break;
	}
	}
	return true;
}

static const struct cmd_spec specs[] = {
	{ "insmod", CMD_INSMOD, 1, 1, true, false, "insmod NAME|PATH.ko", check_module },
	{ "rmmod", CMD_RMMOD, 1, 1, true, false, "rmmod NAME", check_module },
	{ "lsmod", CMD_LSMOD, 0, 0, true, false, "lsmod", NULL },
	{ "ls", CMD_LS, 0, 1, true, false, "ls [PATH]", check_ls },
	{ "cat", CMD_CAT, 0, -1, true, true, "cat FILE... | cat > FILE &", check_cat },
	{ "echo", CMD_ECHO, 0, -1, true, true, "echo [-n] WORDS [> FILE]", check_echo },
	{ "kill", CMD_KILL, 1, 1, false, false, "kill %N", check_kill },
	{ "sleep", CMD_SLEEP, 1, 1, true, false, "sleep TIME", check_sleep },
	{ "wait", CMD_WAIT, 0, 1, false, false, "wait [%N]", check_wait },
	{ "jobs", CMD_JOBS, 0, 0, false, false, "jobs", NULL },
	{ "plug", CMD_PLUG, 1, 1, false, false, "plug DEVICE", check_device },
	{ "unplug", CMD_UNPLUG, 1, 1, false, false, "unplug DEVICE", check_device },
	{ "delay", CMD_DELAY, 2, 2, false, false, "delay POINT TIME", check_delay },
	{ "await", CMD_AWAIT, 1, 2, false, false, "await POINT [TIMEOUT]", check_await },
	{ "settle", CMD_SETTLE, 0, 0, false, false, "settle", NULL },
	{ "trace", CMD_TRACE, 1, 2, false, false, "trace on|off|mark LABEL", check_trace },
	{ "hung_timeout", CMD_HUNG_TIMEOUT, 1, 1, false, false, "hung_timeout TIME", check_hung_timeout },
	{ "config", CMD_CONFIG, 1, 1, false, false, "config NAME=y|n", check_config },
	{ "ioctl", CMD_IOCTL, 2, 3, true, false, "ioctl FILE CMD [ARG]", check_ioctl },
	{ "poll", CMD_POLL, 1, 1, true, false, "poll FILE", check_poll },
	{ "expect", CMD_EXPECT, 1, -1, false, false, "expect ok|fail|output|loaded|unloaded|modref ...", check_expect },
};

static void command_free(struct command *c)
{
	for (int i = 0; i < c->argc; i++)
		free(c->argv[i]);
	free(c->argv);
	free(c->text);
	free(c->line_text);
	free(c->redir);
	free(c->arg);
}

static void script_add(struct script *s, struct command *c)
{
	if (s->ncmd == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 32;
		s->cmd = realloc(s->cmd, s->cap * sizeof(*s->cmd));
		if (!s->cmd)
			abort();
	}
	s->cmd[s->ncmd] = malloc(sizeof(*c));
	if (!s->cmd[s->ncmd])
		abort();
	*s->cmd[s->ncmd++] = *c;
}

/* One command is complete: check it against its spec and keep it. */
static bool finish(struct parser *p, struct cmdline *cl, bool first_on_line, size_t line_end)
{
	struct command *c = &cl->c;
	const struct cmd_spec *spec = NULL;
	struct token *name = cl->w[0];

	if (cl->nw == 0) {
		perr_at(p, cl->redir_op, "a redirect with no command");
		return false;
	}
	for (size_t i = 0; i < ARRAY_SIZE(specs); i++)
		if (strcmp(specs[i].name, name->text) == 0)
			spec = &specs[i];
	if (!spec) {
		perr_at(p, name, "unknown command '%s' (insmod rmmod lsmod ls cat echo ioctl poll kill sleep wait "
			"jobs plug unplug delay await settle trace hung_timeout config expect)", name->text);
		return false;
	}
	c->kind = spec->kind;
	c->file = p->s->file;
	c->line = name->line;
	c->col = name->col;
	if (cl->nw - 1 < spec->min) {
		perr(p, cl->last->line, col_after(cl), "%s: missing argument (%s)", spec->name, spec->usage);
		return false;
	}
	if (spec->max >= 0 && cl->nw - 1 > spec->max) {
		perr_at(p, cl->w[spec->max + 1], "%s: unexpected argument '%s' (%s)", spec->name,
			cl->w[spec->max + 1]->text, spec->usage);
		return false;
	}
	if (cl->redir_op && !spec->can_redir) {
		perr_at(p, cl->redir_op, "%s does not take a redirect (%s)", spec->name, spec->usage);
		return false;
	}
	if (cl->amp && !spec->can_bg) {
		perr_at(p, cl->amp, "'%s' is a shell builtin here and cannot run in the background",
			spec->name);
		return false;
	}
	if (cl->redir_op) {
		struct token *before = cl->redir_op > p->toks.v ? cl->redir_op - 1 : cl->redir_op;

		/* sh reads "echo 1>FILE" as "echo >FILE" writing an empty line: say so. */
		if (before != cl->redir_op && before->kind == T_WORD && before->end == cl->redir_op->start &&
		    before->text[0] && strspn(before->text, "0123456789") == strlen(before->text)) {
			perr_at(p, before, "'%s%s' redirects file descriptor %s in sh: put a space before '%s'",
				before->text, cl->redir_op->kind == T_GT ? ">" : ">>", before->text,
				cl->redir_op->kind == T_GT ? ">" : ">>");
			return false;
		}
		if (!check_path(p, cl->redir))
			return false;
		c->redir = strdup(cl->redir->text);
	}
	c->background = cl->amp != NULL;
	if (spec->check && !spec->check(p, cl))
		return false;

	c->argc = cl->nw;
	c->argv = calloc(cl->nw + 1, sizeof(char *));
	for (int i = 0; i < cl->nw; i++)
		c->argv[i] = strdup(cl->w[i]->text);
	c->text = strndup(p->src + name->start, cl->last->end - name->start);
	if (first_on_line) {
		size_t b = name->start;

		while (b > 0 && p->src[b - 1] != '\n')
			b--;
		c->line_text = strndup(p->src + b, line_end - b);
	}
	if (c->background)
		p->s->jobs_started++;
	if (c->kind != CMD_EXPECT)
		p->s->have_prev = true;
	script_add(p->s, c);
	memset(c, 0, sizeof(*c));
	return true;
}

/* The offset where the line holding token i ends (its newline or the end). */
static size_t line_end_from(struct parser *p, int i)
{
	while (p->toks.v[i].kind != T_NEWLINE && p->toks.v[i].kind != T_EOF)
		i++;
	return p->toks.v[i].start;
}

/* Parse the line starting at token *i; on an error skip the rest of it. */
static void parse_line(struct parser *p, int *i)
{
	struct cmdline cl;
	bool first = true;
	size_t lend = line_end_from(p, *i);

	memset(&cl, 0, sizeof(cl));
	for (;; (*i)++) {
		struct token *t = &p->toks.v[*i];

		switch (t->kind) {
		case T_WORD:
			if (cl.nw == (int)ARRAY_SIZE(cl.w)) {
				perr_at(p, t, "too many words in one command");
				goto skip;
			}
			cl.w[cl.nw++] = t;
			cl.last = t;
			break;
		case T_GT:
		case T_GTGT:
			if (cl.redir_op) {
				perr_at(p, t, "only one redirect per command");
				goto skip;
			}
			if (t[1].kind != T_WORD) {
				perr_at(p, t, "missing file name after '%s'", t->kind == T_GT ? ">" : ">>");
				goto skip;
			}
			cl.redir_op = t;
			cl.redir = t + 1;
			cl.last = t + 1;
			(*i)++;
			break;
		case T_SEMI:
		case T_AMP:
			if (cl.nw == 0 && !cl.redir_op) {
				perr_at(p, t, "empty command before '%s'", t->kind == T_SEMI ? ";" : "&");
				goto skip;
			}
			if (t->kind == T_AMP)
				cl.amp = t;
			if (!finish(p, &cl, first, lend))
				goto skip;
			first = false;
			memset(&cl, 0, sizeof(cl));
			break;
		case T_NEWLINE:
		case T_EOF:
			if ((cl.nw || cl.redir_op) && !finish(p, &cl, first, lend))
				goto skip;
			return;
		case T_ERROR:
			perr_at(p, t, "%s", t->text);
			goto skip;
		}
	}
skip:
	command_free(&cl.c);
	while (p->toks.v[*i].kind != T_NEWLINE && p->toks.v[*i].kind != T_EOF)
		(*i)++;
}

int script_parse(struct script *s, const char *src, int first_line)
{
	struct parser p = { .s = s, .src = src };
	int old_ncmd = s->ncmd, old_jobs = s->jobs_started;
	bool old_prev = s->have_prev;
	int i = 0;

	lex(&p.toks, src, first_line);
	while (p.toks.v[i].kind != T_EOF) {
		parse_line(&p, &i);
		if (p.toks.v[i].kind == T_NEWLINE)
			i++;
	}
	tokens_free(&p.toks);
	if (p.errors) {
		/* All or nothing: a script with a mistake must not half-run. */
		while (s->ncmd > old_ncmd) {
			command_free(s->cmd[--s->ncmd]);
			free(s->cmd[s->ncmd]);
		}
		s->jobs_started = old_jobs;
		s->have_prev = old_prev;
	}
	return p.errors;
}

void script_free(struct script *s)
{
	for (int i = 0; i < s->ncmd; i++) {
		command_free(s->cmd[i]);
		free(s->cmd[i]);
	}
	free(s->cmd);
	s->cmd = NULL;
	s->ncmd = s->cap = 0;
}
