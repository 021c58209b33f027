/* trace.h - lifetime events to a file, with stable names instead of addresses. */
#ifndef KSIM_TRACE_H
#define KSIM_TRACE_H

#include <stdatomic.h>
#include "kernel.h"
#include "scheduler.h"

/* [trace-format] */
/*
 * The trace file (version 1) is text, one event a line:
 *
 *	ksim-trace 1
 *	SEQ TASK EVENT OBJECT [KEY=VALUE]...
 *
 * SEQ	  1, 2, 3... in the order events happened (one global lock orders them).
 * TASK	  "comm[pid]" of the task that did it: "sh[1]", "cat[2]", "kworker/0:1[3]".
 * EVENT  one of the TRACE_* names below.
 * OBJECT "kind:name", stable across runs: "kobject:sda", "module:scsi_mod",
 *	  "dirent:/sys/block/sda/device/delete", "file:/sys/devices/mouse0/clicks"
 *	  (an open file, named for its path), "work:sysfs_schedule_callback_work".
 *	  A name used twice in one run gets "#2", "#3"... from trace_name().
 * KEY=VALUE  count=N (the counter after the event), by=OBJECT|TASK (who holds
 *	  or drops the reference), ref=OBJECT (what a new object points at),
 *	  parent=OBJECT, owner=OBJECT (the module whose code or memory it is:
 *	  "module:NAME", with its "#N" if it was loaded more than once),
 *	  size=N, func=SYMBOL, point=NAME, label=NAME, msg=TEXT (last: rest of line),
 *	  in=F<G<H (with KSIM_TRACE_CALLERS=1: the functions that made the
 *	  event, innermost first, up to four),
 *	  needs=OBJECT,OBJECT (stage 2's "open": the modules the last close
 *	  may run code or read data of, as kobject_owners() found them).
 *	  Values never contain spaces, except msg which runs to the end of the line.
 *
 * Lines starting with '#' are comments.  Readers must report, not crash on,
 * an event name they do not know: a newer ksim may add some.
 */
/* [/trace-format] */
#define TRACE_EVENTS(X) \
	X(create)	/* object born; count=1 for refcounted ones */ \
	X(get)		/* a reference taken: count=, by= */ \
	X(put)		/* a reference dropped: count=, by= */ \
	X(release)	/* the count reached zero: the release method runs */ \
	X(free)		/* the memory is returned: any later access is a use-after-free */ \
	X(active_get)	/* sysfs active reference taken (stage 3) */ \
	X(active_put)	/* ...and dropped */ \
	X(active_fail)	/* refused: the node is being deleted */ \
	X(remove)	/* a sysfs node unlinked from the tree: lookups stop finding it */ \
	X(deactivate)	/* deletion: no new active reference will be granted */ \
	X(open)		/* a file opened: ref= the dirent */ \
	X(close)	/* ...and closed */ \
	X(mod_load)	/* module loaded (init ran) */ \
	X(mod_get)	/* module reference taken (try_module_get): count=, by= */ \
	X(mod_put)	/* ...and dropped */ \
	X(mod_unload)	/* module exit ran and its text is unmapped */ \
	X(work_queue)	/* work item queued: func= */ \
	X(work_run)	/* a kworker starts it */ \
	X(work_done)	/* ...and it returned */ \
	X(oops)		/* the kernel crashed: msg= */ \
	X(mark)		/* a label set by "trace mark NAME" in a scenario */

/* trace_open - start writing events to path (NULL: tracing stays off). */
int trace_open(const char *path);
/* trace_enable - "trace on|off" in a scenario: events are dropped while off. */
void trace_enable(bool on);
/* trace_close - flush and close; called at exit, also after an oops. */
void trace_close(void);
bool trace_enabled(void);

/*
 * trace_event - write one event.  fmt (may be NULL) formats the KEY=VALUE
 * tail.  Safe from any task; events are numbered under one lock so the
 * file order is the order in which they happened.
 *
 * A macro, as the kernel's tracepoints are static inline functions behind
 * a static key: with tracing off, an event costs one relaxed load and a
 * branch, and its arguments (trace_by(), say) are not even evaluated.
 * An out-of-line call with varargs would cost ten times that on every
 * get and put (chapter "What each design costs").
 *
 * Its arguments are evaluated with preemption off: a kref_read() or an
 * atomic_read() that only feeds the line is a schedule point elsewhere,
 * and here it must not be, or a traced run would have more schedule
 * points than the same run untraced, and a schedule found untraced would
 * replay as another run with its trace on.  No switch is lost: such a
 * read decides nothing, it only reports.
 */
extern atomic_bool trace_active;
void __trace_event(const char *event, const char *object, const char *fmt, ...) __printf(3, 4);
#ifndef KSIM_TRACE_COMPILED_OUT
#define trace_event(event, object, ...) do {						\
	if (__builtin_expect(atomic_load_explicit(&trace_active, memory_order_relaxed), 0)) {	\
		preempt_disable();							\
		__trace_event(event, object, __VA_ARGS__);				\
		preempt_enable();							\
	}										\
} while (0)
#else
/* For `make bench` only: the events gone, their arguments still type-checked. */
#define trace_event(event, object, ...) do {						\
	if (0)										\
		__trace_event(event, object, __VA_ARGS__);				\
} while (0)
#endif

/*
 * trace_name - a stable trace name for a new object: writes "kind:name" to
 * buf, or "kind:name#N" if that name was already used N-1 times in this run.
 */
void trace_name(char *buf, size_t len, const char *kind, const char *name);

#define TRACE_NAME_LEN 96

/*
 * trace_bind - say that the object at addr is called name in the trace, so
 * that kfree() of the memory that contains it writes its "free" event, by
 * whichever path the memory goes: release() as it should, or a driver that
 * frees too early.  trace_unbind - forget it without an event.
 */
void trace_bind(const void *addr, const char *name);
void trace_unbind(const void *addr);
/* trace_free_range - kfree()'s part: a "free" event for each bound object in [p, p+size). */
void trace_free_range(const void *p, size_t size);

/*
 * trace_by - the holder a get/put is charged to: what the current task set
 * with trace_by_set() (e.g. "file:/sys/devices/mouse0/clicks"), else the
 * task itself ("cat[2]").
 */
const char *trace_by(void);
/* trace_by_set - set the holder for the current task; returns the previous one. */
const char *trace_by_set(const char *by);

#endif
