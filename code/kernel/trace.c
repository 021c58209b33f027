/* trace.c - write lifetime events to the trace file, one ordered line each. */
#include <alloca.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "task.h"
#include "trace.h"

/*
 * One lock orders every event: the sequence number is the order in which
 * events happened, whichever task produced them.  Tracing costs a lock and
 * a formatted line per event, which is why it is off unless asked for.
 */
static pthread_mutex_t trace_lock = PTHREAD_MUTEX_INITIALIZER;
static FILE *trace_file;
static bool trace_on;
/*
 * trace_active mirrors "file open and tracing on" without the lock, so
 * that an untraced run takes no lock per event: a lock taken by every
 * task would order them all and hide real races from helgrind and drd.
 */
static atomic_bool trace_active;
static unsigned long trace_seq;

int trace_open(const char *path)
{
	FILE *f;

	if (!path)
		return 0;
	f = fopen(path, "w");
	if (!f)
		return -errno;
	pthread_mutex_lock(&trace_lock);
	trace_file = f;
	trace_on = true;
	atomic_store(&trace_active, true);
	fprintf(f, "ksim-trace 1\n");
	pthread_mutex_unlock(&trace_lock);
	return 0;
}

void trace_enable(bool on)
{
	pthread_mutex_lock(&trace_lock);
	trace_on = on;
	atomic_store(&trace_active, on && trace_file);
	pthread_mutex_unlock(&trace_lock);
}

bool trace_enabled(void)
{
	bool on;

	pthread_mutex_lock(&trace_lock);
	on = trace_file && trace_on;
	pthread_mutex_unlock(&trace_lock);
	return on;
}

/*
 * trace_close - flush and close.  Called from the oops path too: a task that
 * faulted while holding trace_lock would deadlock us, so give up after a
 * try rather than hang the report.
 */
void trace_close(void)
{
	if (pthread_mutex_trylock(&trace_lock) != 0)
		return;
	if (trace_file) {
		fclose(trace_file);
		trace_file = NULL;
		atomic_store(&trace_active, false);
	}
	pthread_mutex_unlock(&trace_lock);
}

void trace_event(const char *event, const char *object, const char *fmt, ...)
{
	va_list ap;

	if (!atomic_load(&trace_active))
		return;
	pthread_mutex_lock(&trace_lock);
	if (trace_file && trace_on) {
		fprintf(trace_file, "%lu %s %s %s", ++trace_seq,
			current ? current->tag : "?[0]", event, object);
		if (fmt && *fmt) {
			fputc(' ', trace_file);
			va_start(ap, fmt);
			vfprintf(trace_file, fmt, ap);
			va_end(ap);
		}
		fputc('\n', trace_file);
		/* An oops ends the process with _exit(): keep the file current. */
		fflush(trace_file);
	}
	pthread_mutex_unlock(&trace_lock);
}

/* The names given out so far, to number a name's second and later uses. */
struct used_name {
	struct used_name *next;
	unsigned int uses;
	char name[];
};
static struct used_name *used_names;
static pthread_mutex_t names_lock = PTHREAD_MUTEX_INITIALIZER;

void trace_name(char *buf, size_t len, const char *kind, const char *name)
{
	struct used_name *u;
	size_t n = strlen(kind) + strlen(name) + 2;
	char *full = alloca(n);

	snprintf(full, n, "%s:%s", kind, name);
	pthread_mutex_lock(&names_lock);
	for (u = used_names; u; u = u->next)
		if (strcmp(u->name, full) == 0)
			break;
	if (!u) {
		u = calloc(1, sizeof(*u) + n);
		if (!u)
			abort();
		memcpy(u->name, full, n);
		u->next = used_names;
		used_names = u;
	}
	u->uses++;
	if (u->uses == 1)
		snprintf(buf, len, "%s", full);
	else
		snprintf(buf, len, "%s#%u", full, u->uses);
	pthread_mutex_unlock(&names_lock);
}

/* Bound objects: few are alive at once, so a list is enough. */
struct bound {
	struct bound *next;
	const void *addr;
	char name[TRACE_NAME_LEN];
};
static struct bound *bound_head;
static pthread_mutex_t bound_lock = PTHREAD_MUTEX_INITIALIZER;

void trace_bind(const void *addr, const char *name)
{
	struct bound *b = calloc(1, sizeof(*b));

	if (!b)
		abort();
	b->addr = addr;
	snprintf(b->name, sizeof(b->name), "%s", name);
	pthread_mutex_lock(&bound_lock);
	b->next = bound_head;
	bound_head = b;
	pthread_mutex_unlock(&bound_lock);
}

/* Unlink the first bound object in [lo, hi) into *out; false if none. */
static bool bound_take(uintptr_t lo, uintptr_t hi, struct bound **out)
{
	struct bound **pp;

	pthread_mutex_lock(&bound_lock);
	for (pp = &bound_head; *pp; pp = &(*pp)->next) {
		uintptr_t a = (uintptr_t)(*pp)->addr;

		if (a >= lo && a < hi) {
			*out = *pp;
			*pp = (*pp)->next;
			pthread_mutex_unlock(&bound_lock);
			return true;
		}
	}
	pthread_mutex_unlock(&bound_lock);
	return false;
}

void trace_unbind(const void *addr)
{
	struct bound *b;

	if (bound_take((uintptr_t)addr, (uintptr_t)addr + 1, &b))
		free(b);
}

void trace_free_range(const void *p, size_t size)
{
	struct bound *b;

	while (bound_take((uintptr_t)p, (uintptr_t)p + size, &b)) {
		trace_event("free", b->name, NULL);
		free(b);
	}
}

const char *trace_by(void)
{
	if (!current)
		return "?[0]";
	return current->trace_by ? current->trace_by : current->tag;
}

const char *trace_by_set(const char *by)
{
	const char *old = current->trace_by;

	current->trace_by = by;
	return old;
}
