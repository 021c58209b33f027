/* tracegen.c - write a big, valid, synthetic ksim trace to measure trace2dot on. */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * Real scenarios write a few hundred events; a figure tool must still cope
 * when someone traces a stress run.  This plays the stage 1 story over and
 * over: a driver module plugs a device, a task opens its attribute, reads
 * it through an active reference, a callback runs on a kworker, and the
 * device is unplugged.  On every BUG_EVERY-th device the task keeps its
 * file open and the driver frees the kobject anyway (the stage 1 bug), so
 * the trace carries a few dangling references for the figure to find.  The output depends on
 * -n only: two runs give the same bytes.
 */
#define NMODULES 4
#define NHOSTS 16
#define BUG_EVERY 997
#define MARK_EVERY 100000

static FILE *out;
static uint64_t seq, limit;

/* ev - one event line, unless the trace is already as long as asked. */
static int ev(const char *task, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int ev(const char *task, const char *fmt, ...)
{
	va_list ap;

	if (seq >= limit)
		return -1;
	fprintf(out, "%" PRIu64 " %s ", ++seq, task);
	va_start(ap, fmt);
	vfprintf(out, fmt, ap);
	va_end(ap);
	putc('\n', out);
	return 0;
}

/* One device's life; returns -1 once the trace is long enough. */
static int episode(uint64_t i, long *host_count)
{
	unsigned m = i % NMODULES, h = i % NHOSTS;
	bool bug = i % BUG_EVERY == BUG_EVERY - 1;
	char cat[32], file[48], dirent[80], kobj[32], work[48];

	snprintf(cat, sizeof(cat), "cat[%" PRIu64 "]", 1000 + i);
	snprintf(file, sizeof(file), "file:%s/3", cat);
	snprintf(kobj, sizeof(kobj), "kobject:dev%" PRIu64, i);
	snprintf(dirent, sizeof(dirent), "dirent:/sys/devices/host%u/dev%" PRIu64 "/value", h, i);
	snprintf(work, sizeof(work), "work:drv_callback#%" PRIu64, i + 1);

#define E(task, ...) do { if (ev(task, __VA_ARGS__)) return -1; } while (0)
	E("sh[1]", "create slab:dev_priv#%" PRIu64 " size=64 owner=module:drv%u", i + 1, m);
	E("sh[1]", "create %s count=1 ref=slab:dev_priv#%" PRIu64 " parent=kobject:host%u "
	  "owner=module:drv%u", kobj, i + 1, h, m);
	E("sh[1]", "get kobject:host%u count=%ld by=%s", h, ++host_count[h], kobj);
	E("sh[1]", "create %s count=1 ref=%s", dirent, kobj);
	E(cat, "create %s count=1 ref=%s", file, dirent);
	E(cat, "open %s ref=%s", file, dirent);
	E(cat, "get %s count=2 by=%s", dirent, file);
	E(cat, "get %s count=2 by=%s", kobj, file);
	E(cat, "active_get %s count=1 by=%s", dirent, file);
	E(cat, "get %s count=3 by=%s", kobj, work);
	E(cat, "work_queue %s func=drv_callback owner=module:drv%u", work, m);
	E(cat, "active_put %s count=0 by=%s", dirent, file);
	E("kworker/0:1[2]", "work_run %s", work);
	E("kworker/0:1[2]", "work_done %s", work);
	E("kworker/0:1[2]", "put %s count=2 by=%s", kobj, work);
	E("kworker/0:1[2]", "free %s", work);
	if (!bug) {
		E(cat, "close %s", file);
		E(cat, "put %s count=1 by=%s", kobj, file);
		E(cat, "put %s count=1 by=%s", dirent, file);
		E(cat, "free %s", file);
	}
	E("sh[1]", "deactivate %s", dirent);
	E("sh[1]", "put %s count=%d by=sh[1]", dirent, bug);
	if (!bug) {	/* else the open file still holds the dirent */
		E("sh[1]", "release %s", dirent);
		E("sh[1]", "free %s", dirent);
	}
	E("sh[1]", "put %s count=%d by=sh[1]", kobj, bug);
	E("sh[1]", "put kobject:host%u count=%ld by=%s", h, --host_count[h], kobj);
	if (!bug)
		E("sh[1]", "release %s", kobj);
	E("sh[1]", "free slab:dev_priv#%" PRIu64, i + 1);
	E("sh[1]", "free %s", kobj);
	if (seq / MARK_EVERY != (seq + 30) / MARK_EVERY)
		E("sh[1]", "mark label:m%" PRIu64, (seq + 30) / MARK_EVERY);
#undef E
	return 0;
}

static void usage(FILE *f)
{
	fputs("usage: tracegen [-n EVENTS] [-o FILE]\n"
	      "Write a synthetic ksim trace of EVENTS events (default 1000000).\n", f);
}

int main(int argc, char **argv)
{
	const char *path = NULL;
	long host_count[NHOSTS];
	char *end;

	limit = 1000000;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-n") && i + 1 < argc) {
			errno = 0;
			limit = strtoull(argv[++i], &end, 10);
			if (errno || *end || !limit) {
				usage(stderr);
				return 2;
			}
		} else if (!strcmp(argv[i], "-o") && i + 1 < argc) {
			path = argv[++i];
		} else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			usage(stdout);
			return 0;
		} else {
			usage(stderr);
			return 2;
		}
	}
	out = path ? fopen(path, "w") : stdout;
	if (!out) {
		fprintf(stderr, "tracegen: %s: %s\n", path, strerror(errno));
		return 2;
	}
	fputs("ksim-trace 1\n# synthetic: tracegen -n\n", out);
	for (unsigned m = 0; m < NMODULES && !ev("insmod[1]", "mod_load module:drv%u", m); m++)
		;
	for (unsigned h = 0; h < NHOSTS; h++) {
		host_count[h] = 1;
		if (ev("insmod[1]", "create kobject:host%u count=1", h))
			break;
	}
	for (uint64_t i = 0; !episode(i, host_count); i++)
		;
	if (fflush(out) || ferror(out) || (path && fclose(out))) {
		fprintf(stderr, "tracegen: write error: %s\n", strerror(errno));
		return 1;
	}
	return 0;
}
