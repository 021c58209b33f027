/* lex.c - split a scenario script into words and operators, with positions. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "script.h"

/*
 * Every token remembers its line and column so that each complaint about
 * the script can point at the very character that is wrong.  A lexical
 * error does not stop the lexer: it becomes a T_ERROR token and the lexer
 * skips to the end of the line, so the parser can report every bad line of
 * a script in one run.
 */
struct lexer {
	const char *src;
	size_t pos;
	size_t line_start;	/* offset of the first byte of the current line */
	int line;
	struct tokens *out;
};

static void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n);
	if (!p)
		abort();
	return p;
}

static int col_of(struct lexer *lx, size_t pos)
{
	return (int)(pos - lx->line_start) + 1;
}

static struct token *emit(struct lexer *lx, enum tok_kind kind, size_t start, int line, int col)
{
	struct tokens *t = lx->out;
	struct token *tok;

	if (t->n == t->cap) {
		t->cap = t->cap ? 2 * t->cap : 64;
		t->v = xrealloc(t->v, t->cap * sizeof(*t->v));
	}
	tok = &t->v[t->n++];
	memset(tok, 0, sizeof(*tok));
	tok->kind = kind;
	tok->line = line;
	tok->col = col;
	tok->start = start;
	tok->end = lx->pos;
	return tok;
}

/* An error at pos: report it as a token, then skip the rest of the line. */
static __attribute__((format(printf, 3, 4)))
void lex_error(struct lexer *lx, size_t pos, const char *fmt, ...)
{
	struct token *tok;
	char msg[200];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	tok = emit(lx, T_ERROR, pos, lx->line, col_of(lx, pos));
	tok->text = strdup(msg);
	while (lx->src[lx->pos] && lx->src[lx->pos] != '\n')
		lx->pos++;
}

/* A growing word buffer. */
struct wbuf {
	char *s;
	size_t len, cap;
};

static void wput(struct wbuf *w, char c)
{
	if (w->len + 2 > w->cap) {
		w->cap = w->cap ? 2 * w->cap : 32;
		w->s = xrealloc(w->s, w->cap);
	}
	w->s[w->len++] = c;
	w->s[w->len] = '\0';
}

static bool is_operator(char c)
{
	return strchr(";&|<>()`", c) != NULL;
}

static bool ends_word(char c)
{
	return c == '\0' || c == ' ' || c == '\t' || c == '\r' || c == '\n' || is_operator(c);
}

/* A backslash-newline joins two lines, as in sh. */
static void continue_line(struct lexer *lx)
{
	lx->pos += 2;
	lx->line++;
	lx->line_start = lx->pos;
}

/* One word: returns false if it was a lexical error (already emitted). */
static bool lex_word(struct lexer *lx)
{
	const char *s = lx->src;
	size_t start = lx->pos;
	int line = lx->line, col = col_of(lx, start);
	struct wbuf w = { 0 };
	struct token *tok;

	wput(&w, 'x');		/* make sure w.s exists, even for '' */
	w.len = 0;
	w.s[0] = '\0';
	while (!ends_word(s[lx->pos])) {
		char c = s[lx->pos];
		size_t q = lx->pos;

		if (c == '\'') {
			for (lx->pos++; s[lx->pos] != '\''; lx->pos++) {
				if (s[lx->pos] == '\0' || s[lx->pos] == '\n')
					goto open_quote;
				wput(&w, s[lx->pos]);
			}
			lx->pos++;
		} else if (c == '"') {
			for (lx->pos++; s[lx->pos] != '"'; lx->pos++) {
				if (s[lx->pos] == '\0' || s[lx->pos] == '\n')
					goto open_quote;
				if (s[lx->pos] == '\\' && strchr("\"\\$`", s[lx->pos + 1]))
					lx->pos++;
				else if (s[lx->pos] == '$' || s[lx->pos] == '`')
					goto expansion;
				wput(&w, s[lx->pos]);
			}
			lx->pos++;
		} else if (c == '\\') {
			if (s[lx->pos + 1] == '\n') {
				continue_line(lx);
				continue;
			}
			if (s[lx->pos + 1] == '\0') {
				free(w.s);
				lex_error(lx, q, "backslash at the end of the script");
				return false;
			}
			wput(&w, s[lx->pos + 1]);
			lx->pos += 2;
		} else if (c == '$') {
			goto expansion;
		} else if (c == '*' || c == '?') {
			free(w.s);
			lex_error(lx, q, "'%c': wildcards are not supported; write the path out, or quote it", c);
			return false;
		} else {
			wput(&w, c);
			lx->pos++;
		}
		continue;
open_quote:
		free(w.s);
		lex_error(lx, q, "unterminated %s quote (quotes must close on the same line)",
			  c == '\'' ? "single" : "double");
		return false;
expansion:
		free(w.s);
		lex_error(lx, lx->pos, "'%c': variables and command substitution are not supported",
			  s[lx->pos]);
		return false;
	}
	tok = emit(lx, T_WORD, start, line, col);
	tok->text = w.s;
	return true;
}

void lex(struct tokens *out, const char *src, int first_line)
{
	struct lexer lx = { .src = src, .line = first_line, .out = out };

	for (;;) {
		size_t p = lx.pos;
		char c = src[p];

		switch (c) {
		case '\0':
			emit(&lx, T_EOF, p, lx.line, col_of(&lx, p));
			return;
		case '\n':
			lx.pos++;
			emit(&lx, T_NEWLINE, p, lx.line, col_of(&lx, p));
			lx.line++;
			lx.line_start = lx.pos;
			break;
		case ' ': case '\t': case '\r':
			lx.pos++;
			break;
		case '#':
			/* A comment only where a word could start: "a#b" is a word. */
			while (src[lx.pos] && src[lx.pos] != '\n')
				lx.pos++;
			break;
		case ';':
			lx.pos++;
			if (src[lx.pos] == ';') {
				lex_error(&lx, p, "';;' is sh's case terminator: an empty command between two ';'");
				break;
			}
			emit(&lx, T_SEMI, p, lx.line, col_of(&lx, p));
			break;
		case '&':
			lx.pos++;
			if (src[lx.pos] == '&') {
				lex_error(&lx, p, "'&&' is not supported: write the commands one after the other");
				break;
			}
			if (src[lx.pos] == '>') {
				lex_error(&lx, p, "'&>' is not supported: only '>' and '>>' redirect");
				break;
			}
			emit(&lx, T_AMP, p, lx.line, col_of(&lx, p));
			break;
		case '>':
			lx.pos++;
			if (src[lx.pos] == '>') {
				lx.pos++;
				emit(&lx, T_GTGT, p, lx.line, col_of(&lx, p));
			} else if (src[lx.pos] == '&' || src[lx.pos] == '|') {
				lex_error(&lx, p, "'>%c' is not supported: only '>' and '>>' redirect", src[lx.pos]);
			} else {
				emit(&lx, T_GT, p, lx.line, col_of(&lx, p));
			}
			break;
		case '|':
			lex_error(&lx, p, "'%s': pipes and '||' are not supported",
				  src[p + 1] == '|' ? "||" : "|");
			break;
		case '<':
			lex_error(&lx, p, "'<': input redirection is not supported");
			break;
		case '(': case ')':
			lex_error(&lx, p, "'%c': subshells are not supported", c);
			break;
		case '`':
			lex_error(&lx, p, "'`': command substitution is not supported");
			break;
		default:
			if (c == '\\' && src[p + 1] == '\n')
				continue_line(&lx);
			else
				lex_word(&lx);	/* an escaped character starts a word too */
			break;
		}
	}
}

void tokens_free(struct tokens *t)
{
	for (int i = 0; i < t->n; i++)
		free(t->v[i].text);
	free(t->v);
	t->v = NULL;
	t->n = t->cap = 0;
}
