/* output.c - the programs' standard output, also kept for "expect output". */
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "shell.h"

/*
 * out_lock orders whole writes to stdout against each other and against a
 * capture of stdout (lsmod prints with printf): while fd 1 is pointed at a
 * capture file, no other task's output may land in it.
 */
static pthread_mutex_t out_lock = PTHREAD_MUTEX_INITIALIZER;

void strbuf_add(struct strbuf *b, const char *s, size_t n)
{
	if (b->len + n + 1 > b->cap) {
		b->cap = (b->len + n + 1) * 2;
		b->s = realloc(b->s, b->cap);
		if (!b->s)
			abort();
	}
	memcpy(b->s + b->len, s, n);
	b->len += n;
	b->s[b->len] = '\0';
}

void strbuf_reset(struct strbuf *b)
{
	b->len = 0;
	if (b->s)
		b->s[0] = '\0';
}

void out_write(const char *s, size_t n)
{
	struct strbuf *capture = out_capture();

	pthread_mutex_lock(&out_lock);
	fwrite(s, 1, n, stdout);
	fflush(stdout);
	pthread_mutex_unlock(&out_lock);
	if (capture)
		strbuf_add(capture, s, n);
}

void out_printf(const char *fmt, ...)
{
	char buf[1024];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	out_write(buf, (size_t)n < sizeof(buf) ? (size_t)n : sizeof(buf) - 1);
}

/* Errors go out as one write, so a kernel line (printk) never splits them. */
void err_printf(const char *fmt, ...)
{
	char buf[1024];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf) - 1, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if (n > (int)sizeof(buf) - 2)
		n = sizeof(buf) - 2;
	buf[n++] = '\n';
	pthread_mutex_lock(&out_lock);
	fflush(stdout);		/* what was printed before comes before the error */
	if (write(STDERR_FILENO, buf, n) < 0)
		n = 0;
	pthread_mutex_unlock(&out_lock);
}

void out_capture_stdout(void (*fn)(void))
{
	char buf[4096];
	struct strbuf got = { 0 };
	int saved, fd;
	ssize_t n;

	pthread_mutex_lock(&out_lock);
	fflush(stdout);
	fd = memfd_create("ksim-stdout", 0);
	saved = dup(STDOUT_FILENO);
	if (fd < 0 || saved < 0) {
		/* Cannot capture: print it anyway, "expect output" will not see it. */
		pthread_mutex_unlock(&out_lock);
		fn();
		fflush(stdout);
		return;
	}
	dup2(fd, STDOUT_FILENO);
	fn();
	fflush(stdout);
	dup2(saved, STDOUT_FILENO);
	close(saved);
	lseek(fd, 0, SEEK_SET);
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		strbuf_add(&got, buf, n);
	close(fd);
	pthread_mutex_unlock(&out_lock);
	if (got.len)
		out_write(got.s, got.len);
	free(got.s);
}
