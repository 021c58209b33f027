/* dot_escape.c - quote trace text for DOT strings and HTML-like labels. */
#include <string.h>

#include "view.h"

/*
 * Graphviz wants UTF-8 and rejects some bytes outright; trace names are
 * ASCII by contract, so anything else (a corrupt or hostile trace) becomes
 * '?' rather than an unrenderable figure.
 */
static int plain(int c)
{
	return c >= 0x20 && c < 0x7f ? c : '?';
}

void dot_str(FILE *out, const char *s)
{
	for (; *s; s++) {
		int c = plain((unsigned char)*s);

		if (c == '"' || c == '\\')
			putc('\\', out);
		putc(c, out);
	}
}

void dot_html(FILE *out, const char *s)
{
	for (; *s; s++) {
		int c = plain((unsigned char)*s);

		switch (c) {
		case '&': fputs("&amp;", out); break;
		case '<': fputs("&lt;", out); break;
		case '>': fputs("&gt;", out); break;
		case '"': fputs("&quot;", out); break;
		default: putc(c, out);
		}
	}
}

const char *dot_tail(const char *s, size_t max)
{
	size_t len = strlen(s);

	return len <= max ? s : s + len - max;
}

void dot_str_tail(FILE *out, const char *s, size_t max)
{
	const char *t = dot_tail(s, max);

	if (t != s)
		fputs("...", out);
	dot_str(out, t);
}

void dot_str_wrap(FILE *out, const char *s, size_t width, size_t max)
{
	size_t col = 0, n = 0;

	for (; *s && n < max; s++, n++, col++) {
		/* Break at the first space past the width: messages are prose. */
		if (*s == ' ' && col >= width) {
			fputs("\\n", out);
			col = 0;
			continue;
		}
		char c[2] = { *s, 0 };

		dot_str(out, c);
	}
	if (*s)
		fputs("...", out);
}
