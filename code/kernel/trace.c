/* trace.c - write lifetime events to the trace file, one ordered line each. */
#include <alloca.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "ksym.h"
#include "task.h"
#include "trace.h"
#include "unwind.h"

/*
 * One lock orders every event: the sequence number is the order in which
 * events happened, whichever task produced them.  The lines go into a
 * buffer, and the buffer to the file in large writes: a write() per event
 * would cost a microsecond, which slows a traced run enough to change which
 * races it shows.  Whatever ends the process goes through trace_close()
 * (the normal end, exit() through atexit, an oops or a hung task through
 * oops_end(), a sanitizer's report through its death callback), so a trace
 * is complete up to the event that ended the run.  Only a SIGKILL loses
 * the buffered tail (ktest kills a run only when it already failed).
 */
#define TRACE_BUF_SIZE (256 * 1024)
/* Room that must be free before an event is formatted: the longest line, with msg=. */
#define TRACE_LINE_MAX 4096

static pthread_mutex_t trace_lock = PTHREAD_MUTEX_INITIALIZER;
static int trace_fd = -1;
static bool trace_on;
/*
 * KSIM_TRACE_CALLERS=1 when the trace is opened: every event names the
 * functions it was made in (in=), so a drawing of a failing run can say
 * whose code each step ran.  Off by default: an unwind per event is the
 * cost, and the book's figures do not draw it.
 */
static bool trace_callers;
/*
 * trace_active mirrors "file open and tracing on" without the lock, so
 * that an untraced run takes no lock per event (trace_event() tests it
 * inline, before any argument is evaluated): a lock taken by every task
 * would order them all and hide real races from helgrind and drd.
 */
atomic_bool trace_active;
static unsigned long trace_seq;
static char trace_buf[TRACE_BUF_SIZE];
/* Bytes of whole lines in trace_buf: an event is counted once it is complete. */
static atomic_size_t trace_len;

/* Write out [0, len) of the buffer; the caller holds trace_lock, or is the one task ending the run. */
static void trace_write_out(size_t len)
{
	size_t done = 0;

	while (done < len) {
		ssize_t n = write(trace_fd, trace_buf + done, len - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;	/* a full disk: the trace ends here, the run goes on */
		done += n;
	}
	atomic_store_explicit(&trace_len, 0, memory_order_relaxed);
}

static void trace_close_atexit(void)
{
	trace_close();
}

#ifdef KSIM_SANITIZER
#include <sanitizer/common_interface_defs.h>
/* A sanitizer's report ends the process without exit(): flush the trace first. */
static void trace_close_sanitizer(void)
{
	trace_close();
}
#endif

int trace_open(const char *path)
{
	static bool hooked;
	int fd;

	if (!path)
		return 0;
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
	if (fd < 0)
		return -errno;
	pthread_mutex_lock(&trace_lock);
	if (!hooked) {
		atexit(trace_close_atexit);
#ifdef KSIM_SANITIZER
		__sanitizer_set_death_callback(trace_close_sanitizer);
#endif
		hooked = true;
	}
	trace_fd = fd;
	trace_on = true;
	trace_callers = getenv("KSIM_TRACE_CALLERS") && strcmp(getenv("KSIM_TRACE_CALLERS"), "1") == 0;
	trace_seq = 0;
	memcpy(trace_buf, "ksim-trace 1\n", 13);
	atomic_store_explicit(&trace_len, 13, memory_order_relaxed);
	atomic_store(&trace_active, true);
	pthread_mutex_unlock(&trace_lock);
	return 0;
}

void trace_enable(bool on)
{
	pthread_mutex_lock(&trace_lock);
	trace_on = on;
	atomic_store(&trace_active, on && trace_fd >= 0);
	pthread_mutex_unlock(&trace_lock);
}

bool trace_enabled(void)
{
	bool on;

	pthread_mutex_lock(&trace_lock);
	on = trace_fd >= 0 && trace_on;
	pthread_mutex_unlock(&trace_lock);
	return on;
}

/*
 * trace_close - flush and close.  Called from the oops path too, where the
 * task that faulted may hold trace_lock (a fault while formatting an
 * event): wait a little for the lock, which any other holder lets go of
 * within microseconds, then write the complete lines without it.  The run
 * ends right after, so nothing appends to them any more that matters.
 */
void trace_close(void)
{
	struct timespec deadline;
	bool locked;

	clock_gettime(CLOCK_REALTIME, &deadline);
	deadline.tv_nsec += 200 * 1000 * 1000;
	if (deadline.tv_nsec >= 1000000000L) {
		deadline.tv_sec++;
		deadline.tv_nsec -= 1000000000L;
	}
	locked = pthread_mutex_timedlock(&trace_lock, &deadline) == 0;
	if (trace_fd >= 0) {
		atomic_store(&trace_active, false);
		trace_write_out(atomic_load_explicit(&trace_len, memory_order_relaxed));
		close(trace_fd);
		trace_fd = -1;
	}
	if (locked)
		pthread_mutex_unlock(&trace_lock);
}

/* The decimal digits of v at p; returns the end. */
static char *put_ulong(char *p, unsigned long v)
{
	char tmp[24];
	int n = 0;

	do
		tmp[n++] = '0' + v % 10;
	while (v /= 10);
	while (n)
		*p++ = tmp[--n];
	return p;
}

/* s at p, at most up to end; returns the end of what was copied. */
static char *put_str(char *p, const char *end, const char *s)
{
	size_t n = strlen(s);

	if (n > (size_t)(end - p))
		n = end - p;
	memcpy(p, s, n);
	return p + n;
}

/*
 * format_tail - fmt with its arguments at p, up to end, for the
 * conversions the events use (%s %d %u %ld %lu %%); NULL at anything
 * else, and the caller falls back to vsnprintf().  Half the cost of an
 * event was vsnprintf()'s.
 */
static char *format_tail(char *p, const char *end, const char *fmt, va_list ap)
{
	for (; *fmt && p < end; fmt++) {
		bool is_long = false;
		long v;

		if (*fmt != '%') {
			*p++ = *fmt;
			continue;
		}
		if (*++fmt == 'l' && fmt[1]) {
			is_long = true;
			fmt++;
		}
		switch (*fmt) {
		case 's':
			p = put_str(p, end, va_arg(ap, const char *));
			break;
		case 'd':
			v = is_long ? va_arg(ap, long) : va_arg(ap, int);
			if (v < 0) {
				*p++ = '-';
				p = put_ulong(p, -(unsigned long)v);
			} else {
				p = put_ulong(p, v);
			}
			break;
		case 'u':
			p = put_ulong(p, is_long ? va_arg(ap, unsigned long) : va_arg(ap, unsigned int));
			break;
		case '%':
			if (!is_long) {
				*p++ = '%';
				break;
			}
			return NULL;
		default:
			return NULL;
		}
	}
	return p;
}

/*
 * put_callers - " in=F<G<H": the innermost functions (up to four) of the
 * call chain that made the event, the tracing code itself left out.
 * Static functions are named too; one inlined into its caller is not.
 */
static __noinline char *put_callers(char *p, char *end)
{
	uintptr_t frames[12];
	struct ksym_hit hit;
	int n = stack_trace_save(frames, 12), shown = 0;

	for (int i = 0; i < n && shown < 4 && p < end; i++) {
		/* A return address is one past its call: look up the call. */
		if (!ksym_lookup(FRAME_ADDR(frames[i]) - 1, &hit) || !hit.name ||
		    strcmp(hit.name, "__trace_event") == 0 || strcmp(hit.name, "put_callers") == 0)
			continue;
		*p++ = shown++ ? '<' : ' ';
		if (shown == 1) {
			memcpy(p, "in=", 3);
			p += 3;
		}
		p = put_str(p, end, hit.name);
	}
	return p;
}

void __trace_event(const char *event, const char *object, const char *fmt, ...)
{
	va_list ap;

	pthread_mutex_lock(&trace_lock);
	if (trace_fd >= 0 && trace_on) {
		size_t len = atomic_load_explicit(&trace_len, memory_order_relaxed);
		char *p, *end;

		if (TRACE_BUF_SIZE - len < TRACE_LINE_MAX) {
			trace_write_out(len);
			len = 0;
		}
		/* Formatted by hand up to the tail: vsnprintf() for the whole line costs twice as much. */
		p = trace_buf + len;
		end = p + TRACE_LINE_MAX - 1;
		p = put_ulong(p, ++trace_seq);
		*p++ = ' ';
		p = put_str(p, end, current ? current->tag : "?[0]");
		*p++ = ' ';
		p = put_str(p, end, event);
		*p++ = ' ';
		p = put_str(p, end - 1, object);
		if (trace_callers)
			p = put_callers(p, end - 64);
		if (fmt && *fmt) {
			char *q;
			int n;

			*p++ = ' ';
			va_start(ap, fmt);
			q = format_tail(p, end - 24, fmt, ap);	/* room for one more number */
			va_end(ap);
			if (q) {
				p = q;
			} else {
				va_start(ap, fmt);
				n = vsnprintf(p, end - p, fmt, ap);
				va_end(ap);
				if (n > 0)
					p += n < end - p ? n : end - p - 1;
			}
		}
		*p++ = '\n';
		atomic_store_explicit(&trace_len, p - trace_buf, memory_order_relaxed);
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
