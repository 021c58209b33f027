/* workqueue.h - deferred work run by kernel worker threads (kworkers). */
#ifndef KSIM_WORKQUEUE_H
#define KSIM_WORKQUEUE_H

#include "kernel.h"

struct work_struct;
typedef void (*work_func_t)(struct work_struct *work);

struct work_struct {
	work_func_t func;
	struct work_struct *next;
	char trace_name[96];
};

/* INIT_WORK - prepare work to call func; name is what the trace calls it. */
void __init_work(struct work_struct *work, work_func_t func, const char *name);
#define INIT_WORK(work, fn) __init_work((work), (fn), #fn)

/*
 * schedule_work - queue work on the system workqueue.  One worker thread,
 * "kworker/0:1", runs items in the order they were queued, so scenarios
 * are deterministic.  Returns false if work was already queued.
 */
bool schedule_work(struct work_struct *work);
/* flush_scheduled_work - wait until every item queued so far has run. */
void flush_scheduled_work(void);
/* workqueue_idle - nothing queued and nothing running. */
bool workqueue_idle(void);

void workqueue_init(void);
void workqueue_shutdown(void);

#endif
