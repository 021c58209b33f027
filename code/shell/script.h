/* script.h - a scenario script, checked whole before any of it runs. */
#ifndef KSIM_SCRIPT_H
#define KSIM_SCRIPT_H

#include <stdbool.h>
#include <stddef.h>

/*
 * The language is a small, strict subset of sh: one command a line, or
 * several separated by ';' or '&'; words, 'single' and "double" quotes, a
 * backslash escape, '#' comments (only where a word starts), '>' and '>>'
 * redirections, '&' to run in the background.  Anything sh would do that we
 * do not (pipes, variables, globs, '&&') is refused at parse time, with the
 * line and column, so a scenario never half-runs on a typo.
 *
 * Programs (each runs as a task of its own; '&' runs it in the background):
 *	insmod NAME|PATH.ko   rmmod NAME   lsmod   ls [PATH]   sleep TIME
 *	cat FILE...   cat > FILE &   echo [-n] WORDS [> FILE | >> FILE]
 *	ioctl /dev/NAME CMD [ARG]   poll /dev/NAME
 * Shell builtins (run in the shell's task, never in the background):
 *	kill %N|%%|%+|%-   wait [%N|%%|%+|%-]   jobs
 * "wait %N" waits for job N, "wait" for every job; either way the job's
 * outcome (N's, or the newest job's) becomes the last command's, as in sh:
 * "expect fail ENODEV" checks the job's errno, "expect output" what the job
 * printed (followed by the shell's "[N]+  Done ..." notices).
 * Simulation:
 *	plug DEV   unplug DEV   delay POINT TIME|off   hung_timeout TIME
 *	await POINT [TIMEOUT]   settle
 *	trace on|off   trace mark LABEL   config NAME=y|n (kconfig.h)
 * "await POINT" is how a script orders a background task before its next
 * line: it waits until a task is held at the armed delay point POINT (one
 * pass per await; at most TIMEOUT, 10 s by default, after which the run
 * stops with exit status 5).  "settle" waits until the work the kernel has
 * queued so far has run (flush_scheduled_work()).  Neither is a guess of
 * how long something takes, as a sleep would be.
 * Assertions about the last command before them:
 *	expect ok | fail [ERRNO] | output TEXT... | loaded MOD | unloaded MOD | modref MOD N
 * TIME: 100ms, 1s, 0.5, 2m; a bare number is seconds for sleep and await, milliseconds
 * for hung_timeout, and not allowed (except 0) for delay.
 */

/* ---- tokens (lex.c) ---- */
enum tok_kind {
	T_WORD,		/* text: the word with quotes and escapes removed */
	T_SEMI,		/* ; */
	T_AMP,		/* & */
	T_GT,		/* > */
	T_GTGT,		/* >> */
	T_NEWLINE,
	T_EOF,
	T_ERROR,	/* text: what is wrong (unsupported operator, open quote...) */
};

struct token {
	enum tok_kind kind;
	char *text;
	int line, col;		/* 1-based, where the token starts */
	size_t start, end;	/* its bytes in the source: [start, end) */
};

struct tokens {
	struct token *v;
	int n, cap;
};

/* lex - split src into tokens; line numbers start at first_line. Never fails:
 * a lexical error is a T_ERROR token that the parser reports. */
void lex(struct tokens *out, const char *src, int first_line);
void tokens_free(struct tokens *t);

/* ---- commands (parse.c) ---- */
enum cmd_kind {
	CMD_INSMOD, CMD_RMMOD, CMD_LSMOD, CMD_LS, CMD_CAT, CMD_ECHO,
	CMD_KILL, CMD_SLEEP, CMD_WAIT, CMD_JOBS,
	CMD_PLUG, CMD_UNPLUG, CMD_DELAY, CMD_AWAIT, CMD_SETTLE, CMD_TRACE, CMD_HUNG_TIMEOUT, CMD_CONFIG, CMD_IOCTL, CMD_POLL,
	CMD_EXPECT,
};

enum expect_kind { EXPECT_OK, EXPECT_FAIL, EXPECT_OUTPUT, EXPECT_LOADED, EXPECT_UNLOADED, EXPECT_MODREF };
enum trace_op { TRACE_ON, TRACE_OFF, TRACE_MARK };

/* kill's job spec: %N is N; %%, %+ and %- are these. */
#define JOB_CURRENT  (-1)
#define JOB_PREVIOUS (-2)

struct command {
	enum cmd_kind kind;
	const char *file;	/* the script's path, for messages at run time (await) */
	int line, col;		/* where the command name is */
	char *text;		/* the command as written, for job notices and messages */
	char *line_text;	/* the whole source line, on the first command of a line */
	int argc;
	char **argv;		/* argv[0] is the command name */
	char *redir;		/* the file of '>' or '>>', or NULL */
	bool background;	/* ended with '&' */
	bool newline;		/* echo: end with '\n' (no -n) */
	int first_arg;		/* echo: argv index after the options */
	char *arg;		/* module, device, delay point, trace label, expected text */
	long ms;		/* sleep, delay, hung_timeout; await: its timeout */
	unsigned long ioctl_cmd, ioctl_arg;	/* ioctl: the command and its argument */
	long n;			/* kill, wait: job number or JOB_* (wait: 0 for all); expect modref: count; expect fail: errno (0: any); config: on */
	int op;			/* enum expect_kind or enum trace_op */
};

struct script {
	const char *file;	/* for messages: the script's path, or "<stdin>" */
	struct command **cmd;	/* each allocated once: a running job points at its own */
	int ncmd, cap;
	int jobs_started;	/* '&' commands so far: no job number can be higher */
	bool have_prev;		/* a command came before, so "expect" has something to check */
};

/*
 * script_parse - parse src (lines numbered from first_line) and append its
 * commands to s.  Every error is printed as "FILE:LINE:COL: message" on
 * stderr; returns how many there were.  On error nothing of src is kept,
 * so an interactive shell can go on with the next line.
 */
int script_parse(struct script *s, const char *src, int first_line);
void script_free(struct script *s);

/* ---- words with a meaning (words.c) ---- */
/* errno_by_name - ENODEV -> 19; 0 if the name is unknown. */
int errno_by_name(const char *name);
/* errno_name - 19 -> "ENODEV"; "E?" if unknown. */
const char *errno_name(int err);
/*
 * parse_time - "100ms", "1s", "0.1", "2m" to milliseconds.  bare_ms says what
 * a number without a unit means (milliseconds or seconds); bare numbers
 * other than 0 are refused if unit_required.  NULL, or what is wrong.
 */
const char *parse_time(const char *s, bool bare_ms, bool unit_required, long *ms);
/* module_name_of_path - "drivers/scsi/scsi_mod.ko" -> "scsi_mod" into buf. */
const char *module_name_of_path(const char *path, char *buf, size_t len);

#endif
