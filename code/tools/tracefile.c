/* tracefile.c - the trace reader: one pass, every line checked, nothing trusted. */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tracefile.h"

const char *const tev_name[TEV_NR] = {
#define TEV_NAME(name) [TEV_##name] = #name,
	TRACE_EVENTS(TEV_NAME)
#undef TEV_NAME
};

/*
 * A trace may be cut short by a crash (the oops is often the last thing a
 * run writes), may come from a newer ksim, or may not be a trace at all.
 * So the reader reads fixed-size chunks, never trusts a length, and stops
 * a line at TRACE_MAX_LINE instead of growing a buffer without bound.
 */
struct linereader {
	FILE *f;
	size_t pos, end;
	bool eof;
	char buf[1 << 16];
};

enum { LR_EOF, LR_LINE, LR_TOOLONG };

/*
 * lr_next - copy the next line (without '\n') into line[TRACE_MAX_LINE + 1].
 * *nl says whether it ended in a newline: only the last line of a file may
 * lack one, and then it may be a half-written event.
 */
static int lr_next(struct linereader *lr, char *line, size_t *len, bool *nl)
{
	size_t n = 0;
	bool toolong = false;

	for (;;) {
		if (lr->pos == lr->end) {
			if (lr->eof)
				break;
			lr->end = fread(lr->buf, 1, sizeof(lr->buf), lr->f);
			lr->pos = 0;
			if (lr->end < sizeof(lr->buf))
				lr->eof = true;
			continue;
		}
		char *p = lr->buf + lr->pos;
		size_t avail = lr->end - lr->pos;
		char *q = memchr(p, '\n', avail);
		size_t take = q ? (size_t)(q - p) : avail;

		if (!toolong) {
			if (n + take > TRACE_MAX_LINE) {
				toolong = true;
			} else {
				memcpy(line + n, p, take);
				n += take;
			}
		}
		lr->pos += take;
		if (q) {
			lr->pos++;
			*len = n;
			*nl = true;
			return toolong ? LR_TOOLONG : LR_LINE;
		}
	}
	*len = n;
	*nl = false;
	if (toolong)
		return LR_TOOLONG;
	return n ? LR_LINE : LR_EOF;
}

/* Parser state for one line: the message of the first thing found wrong. */
struct lp {
	struct tracefile *tf;
	char err[512];
};

/* Quote a piece of the input in a message: short, printable, never raw. */
static void fail(struct lp *lp, const char *what, const char *s, size_t len)
{
	char q[64];
	size_t i, n = 0;

	for (i = 0; i < len && n < 40; i++)
		q[n++] = isprint((unsigned char)s[i]) ? s[i] : '?';
	q[n] = '\0';
	snprintf(lp->err, sizeof(lp->err), "%s '%s%s'", what, q,
		 i < len ? "..." : "");
}

static void failf(struct lp *lp, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void failf(struct lp *lp, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(lp->err, sizeof(lp->err), fmt, ap);
	va_end(ap);
}

static bool is_space(char c)
{
	return c == ' ' || c == '\t';
}

/* next_field - the next space-separated field, or NULL at end of line. */
static char *next_field(char **s, size_t *len)
{
	char *p = *s;

	while (is_space(*p))
		p++;
	if (!*p)
		return NULL;
	char *start = p;

	while (*p && !is_space(*p))
		p++;
	*len = (size_t)(p - start);
	*s = p;
	return start;
}

/* "kind:name": kind is a C-ish word, name anything without spaces. */
static bool is_object(const char *s, size_t len)
{
	size_t k = 0;

	while (k < len && (islower((unsigned char)s[k]) || isdigit((unsigned char)s[k]) ||
			   s[k] == '_'))
		k++;
	return k > 0 && k + 1 < len && s[k] == ':';
}

/* "comm[pid]": comm may hold '/' and ':' ("kworker/0:1[3]"), pid is digits. */
static bool is_task(const char *s, size_t len)
{
	size_t i;

	if (len < 4 || s[len - 1] != ']')
		return false;
	for (i = len - 2; i > 0 && isdigit((unsigned char)s[i]); i--)
		;
	return s[i] == '[' && i < len - 2 && i > 0;
}

static uint32_t intern_name(struct tracefile *tf, const char *s, size_t len, bool task)
{
	uint32_t before = tf->names.nr;
	uint32_t id = strtab_intern(&tf->names, s, len);

	if (tf->names.nr == before)
		return id;
	/* First sighting: work out its kind once, not on every line. */
	if (id >= tf->kind_cap) {
		tf->kind_cap = tf->kind_cap ? tf->kind_cap * 2 : 256;
		tf->kind = xrealloc(tf->kind, tf->kind_cap * sizeof(*tf->kind));
	}
	if (task) {
		tf->kind[id] = KIND_TASK;
	} else {
		const char *colon = memchr(s, ':', len);

		tf->kind[id] = strtab_intern(&tf->kinds, s, (size_t)(colon - s));
	}
	return id;
}

/* A by= holder is an object or a task; object wins ("file:cat[2]/3"). */
static bool parse_name(struct lp *lp, const char *key, const char *v, size_t len,
		       bool task_ok, uint32_t *id)
{
	char what[64];

	if (is_object(v, len)) {
		*id = intern_name(lp->tf, v, len, false);
		return true;
	}
	if (task_ok && is_task(v, len)) {
		*id = intern_name(lp->tf, v, len, true);
		return true;
	}
	snprintf(what, sizeof(what), "bad %s= value (want kind:name%s)", key,
		 task_ok ? " or comm[pid]" : "");
	fail(lp, what, v, len);
	return false;
}

static bool parse_int(const char *v, size_t len, bool sign, int64_t *out)
{
	char buf[32], *end;

	if (!len || len >= sizeof(buf))
		return false;
	memcpy(buf, v, len);
	buf[len] = '\0';
	if (!isdigit((unsigned char)buf[0]) && !(sign && buf[0] == '-' && len > 1))
		return false;
	errno = 0;
	long long x = strtoll(buf, &end, 10);

	if (errno || *end)
		return false;
	*out = x;
	return true;
}

/* One KEY=VALUE; *s is just past it.  msg= swallows the rest of the line. */
static bool parse_kv(struct lp *lp, struct tev *ev, char **s)
{
	size_t len;
	char *f = next_field(s, &len);
	char *eq = memchr(f, '=', len);
	int64_t x;

	if (!eq) {
		fail(lp, "expected KEY=VALUE, got", f, len);
		return false;
	}
	size_t klen = (size_t)(eq - f);
	char *v = eq + 1;
	size_t vlen = len - klen - 1;

	if (!klen) {
		fail(lp, "empty key in", f, len);
		return false;
	}
#define KEY(name) (klen == sizeof(name) - 1 && !memcmp(f, name, klen))
	if (KEY("msg")) {
		/* Runs to the end of the line, spaces included. */
		vlen = strlen(v);
		ev->msg = strtab_intern(&lp->tf->syms, v, vlen);
		*s = v + vlen;
		return true;
	}
	if (!vlen) {
		fail(lp, "empty value in", f, len);
		return false;
	}
	if (KEY("count")) {
		if (!parse_int(v, vlen, true, &x)) {
			fail(lp, "bad count value", v, vlen);
			return false;
		}
		ev->count = x;
		ev->has_count = true;
	} else if (KEY("idx")) {
		if (!parse_int(v, vlen, true, &x) || x < INT32_MIN || x > INT32_MAX) {
			fail(lp, "bad idx value", v, vlen);
			return false;
		}
		ev->idx = (int32_t)x;
		ev->has_idx = true;
	} else if (KEY("size")) {
		if (!parse_int(v, vlen, false, &x)) {
			fail(lp, "bad size value", v, vlen);
			return false;
		}
	} else if (KEY("by")) {
		return parse_name(lp, "by", v, vlen, true, &ev->by);
	} else if (KEY("ref")) {
		return parse_name(lp, "ref", v, vlen, false, &ev->ref);
	} else if (KEY("parent")) {
		return parse_name(lp, "parent", v, vlen, false, &ev->parent);
	} else if (KEY("owner")) {
		if (vlen <= 7 || memcmp(v, "module:", 7)) {
			fail(lp, "bad owner= value (want module:NAME)", v, vlen);
			return false;
		}
		return parse_name(lp, "owner", v, vlen, false, &ev->owner);
	} else if (KEY("func")) {
		ev->func = strtab_intern(&lp->tf->syms, v, vlen);
	} else if (KEY("in")) {
		ev->in = strtab_intern(&lp->tf->syms, v, vlen);
	}
	/* point=, label= and keys from newer versions carry nothing we draw. */
#undef KEY
	return true;
}

static int event_type(const char *s, size_t len)
{
	for (int i = 0; i < TEV_NR; i++)
		if (strlen(tev_name[i]) == len && !memcmp(tev_name[i], s, len))
			return i;
	return -1;
}

/*
 * parse_event - one "SEQ TASK EVENT OBJECT [KEY=VALUE]..." line.
 * Returns 1 for an event, 0 for an unknown event name (skipped), -1 with
 * lp->err set if the line is malformed.
 */
static int parse_event(struct lp *lp, char *s, uint64_t prev, struct tev *ev)
{
	size_t len;
	char *f;
	int64_t seq;

	memset(ev, 0, sizeof(*ev));
	ev->by = ev->ref = ev->parent = ev->owner = ev->func = ev->msg = ev->in = NONE;

	f = next_field(&s, &len);
	if (!parse_int(f, len, false, &seq) || seq <= 0) {
		fail(lp, "bad sequence number", f, len);
		return -1;
	}
	ev->seq = (uint64_t)seq;
	if (ev->seq <= prev) {
		failf(lp, "sequence number %" PRIu64 " not greater than the previous %" PRIu64,
		      ev->seq, prev);
		return -1;
	}

	f = next_field(&s, &len);
	if (!f) {
		failf(lp, "missing TASK, EVENT and OBJECT after the sequence number");
		return -1;
	}
	if (!is_task(f, len)) {
		fail(lp, "bad task (want comm[pid])", f, len);
		return -1;
	}
	ev->task = intern_name(lp->tf, f, len, true);

	f = next_field(&s, &len);
	if (!f) {
		failf(lp, "missing EVENT and OBJECT after the task");
		return -1;
	}
	int type = event_type(f, len);
	char *evname = f;
	size_t evlen = len;

	f = next_field(&s, &len);
	if (!f) {
		failf(lp, "missing OBJECT after the event");
		return -1;
	}
	if (!is_object(f, len)) {
		fail(lp, "bad object (want kind:name)", f, len);
		return -1;
	}
	if (type < 0) {
		fail(lp, "unknown event", evname, evlen);
		return 0;
	}
	ev->type = (uint8_t)type;
	if (type == TEV_mark && (len <= 6 || memcmp(f, "label:", 6))) {
		fail(lp, "mark wants label:NAME, got", f, len);
		return -1;
	}
	ev->obj = intern_name(lp->tf, f, len, false);

	while (*s) {
		while (is_space(*s))
			s++;
		if (!*s)
			break;
		if (!parse_kv(lp, ev, &s))
			return -1;
	}
	return 1;
}

static void push(struct tracefile *tf, const struct tev *ev)
{
	if (tf->nr == tf->cap) {
		tf->cap = tf->cap ? tf->cap * 2 : 1024;
		tf->ev = xrealloc(tf->ev, tf->cap * sizeof(*tf->ev));
	}
	tf->ev[tf->nr++] = *ev;
}

static void init(struct tracefile *tf, const char *path)
{
	memset(tf, 0, sizeof(*tf));
	tf->path = path;
	strtab_init(&tf->names);
	strtab_init(&tf->kinds);
	strtab_init(&tf->syms);
	strtab_intern(&tf->kinds, "task", 4);	/* KIND_TASK */
	tf->label_kind = strtab_intern(&tf->kinds, "label", 5);
	tf->module_kind = strtab_intern(&tf->kinds, "module", 6);
}

/* parse_header - the first line that is not blank or a comment must be "ksim-trace 1". */
static bool parse_header(struct lp *lp, char *p)
{
	if (strncmp(p, "ksim-trace", 10) || !is_space(p[10])) {
		fail(lp, "missing header 'ksim-trace 1', got", p, strlen(p));
		return false;
	}
	char *v = p + 11;

	while (is_space(*v))
		v++;
	if (v[0] == '1' && !v[strspn(v + 1, " \t") + 1])
		return true;
	fail(lp, "unsupported trace version (this reader knows 'ksim-trace 1')", v, strlen(v));
	return false;
}

/*
 * clean_line - the line of len bytes, NUL-terminated, without a CR at its
 * end, from its first non-blank character; NULL (lp->err set) if it holds
 * a NUL byte.
 */
static char *clean_line(struct lp *lp, char *line, size_t len)
{
	line[len] = '\0';
	if (memchr(line, '\0', len)) {
		failf(lp, "NUL byte in line (is this a text trace?)");
		return NULL;
	}
	if (len && line[len - 1] == '\r')	/* tolerate CRLF */
		line[--len] = '\0';
	while (is_space(*line))
		line++;
	return line;
}

/* Unknown events may come by the thousand: say so, but not a million times. */
#define MAX_WARNINGS 20

/* warn_unknown - the n-th event of a kind this reader does not know: ignored, said so. */
static void warn_unknown(const struct lp *lp, unsigned n)
{
	if (n <= MAX_WARNINGS)
		fprintf(stderr, "%s:%u: %s ignored\n", lp->tf->path, lp->tf->lines, lp->err);
	else if (n == MAX_WARNINGS + 1)
		fprintf(stderr, "%s:%u: more unknown events ignored silently\n",
			lp->tf->path, lp->tf->lines);
}

int tracefile_load(struct tracefile *tf, const char *path)
{
	static char line[TRACE_MAX_LINE + 1];
	struct linereader *lr = xmalloc(sizeof(*lr));
	bool stdin_ = !strcmp(path, "-");
	const char *name = stdin_ ? "<stdin>" : path;
	bool header = false, nl;
	uint64_t prev = 0;
	unsigned warnings = 0;
	struct lp lp;
	size_t len;
	int r, ret = -1;

	init(tf, name);
	lp.tf = tf;
	lr->f = stdin_ ? stdin : fopen(path, "r");
	lr->pos = lr->end = 0;
	lr->eof = false;
	if (!lr->f) {
		fprintf(stderr, "trace2dot: %s: %s\n", name, strerror(errno));
		free(lr);
		tracefile_free(tf);
		return -1;
	}

	while ((r = lr_next(lr, line, &len, &nl)) != LR_EOF) {
		struct tev ev;

		tf->lines++;
		lp.err[0] = '\0';
		if (r == LR_TOOLONG) {
			failf(&lp, "line too long (more than %d bytes)", TRACE_MAX_LINE);
			goto bad;
		}
		char *p = clean_line(&lp, line, len);

		if (!p)
			goto bad;
		if (!*p || *p == '#')
			continue;
		if (!header) {
			if (!parse_header(&lp, p))
				goto bad;
			header = true;
			continue;
		}
		r = parse_event(&lp, p, prev, &ev);
		if (r < 0)
			goto bad;
		if (!nl && r == 0) {
			/* An unknown name in a half-written line is a truncated known one. */
			goto bad;
		}
		prev = ev.seq;
		if (r == 0) {
			warn_unknown(&lp, ++warnings);
			continue;
		}
		push(tf, &ev);
	}
	if (ferror(lr->f)) {
		fprintf(stderr, "trace2dot: %s: read error: %s\n", name, strerror(errno));
		goto out;
	}
	ret = 0;
	goto out;
bad:
	if (!nl)
		fprintf(stderr, "%s:%u: truncated last line (no newline at end of file): %s\n",
			name, tf->lines, lp.err);
	else
		fprintf(stderr, "%s:%u: %s\n", name, tf->lines, lp.err);
out:
	if (!stdin_)
		fclose(lr->f);
	free(lr);
	if (ret)
		tracefile_free(tf);
	return ret;
}

void tracefile_free(struct tracefile *tf)
{
	strtab_free(&tf->names);
	strtab_free(&tf->kinds);
	strtab_free(&tf->syms);
	free(tf->kind);
	free(tf->ev);
}

const char *tracefile_short(const struct tracefile *tf, uint32_t id)
{
	const char *s = strtab_str(&tf->names, id);

	if (tf->kind[id] == KIND_TASK)
		return s;
	return strchr(s, ':') + 1;
}
