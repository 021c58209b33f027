/* printk.c - the kernel log: whole lines to standard error, never interleaved. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "kernel.h"

/*
 * One write() per line: two tasks printing at once give two whole lines in
 * some order, never a line spliced from both.  No lock is taken, so printk
 * is also usable from the fault handler.
 */
void printk(const char *fmt, ...)
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
	if (n == 0 || buf[n - 1] != '\n')
		buf[n++] = '\n';
	if (write(STDERR_FILENO, buf, n) < 0)
		return;
}
