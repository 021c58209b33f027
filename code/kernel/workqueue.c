/* workqueue.c - the system workqueue: one kworker runs queued items in order. */
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include "delay.h"
#include "module.h"
#include "oops.h"
#include "scheduler.h"
#include "task.h"
#include "trace.h"
#include "watchdog.h"
#include "workqueue.h"

/*
 * A single worker keeps scenarios deterministic: items run one at a time,
 * in the order they were queued.  The kernel has a pool of kworkers, but
 * nothing a scenario of this workbook shows depends on there being more
 * than one.
 */
static pthread_mutex_t wq_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t wq_cond = PTHREAD_COND_INITIALIZER;
static struct work_struct *wq_head, *wq_tail;
static bool wq_running;		/* the worker is inside an item */
static unsigned long wq_started;	/* items the worker has begun */
static bool wq_stop;
static struct task_struct *wq_worker;

void __init_work(struct work_struct *work, work_func_t func, const char *name)
{
	work->func = func;
	work->next = NULL;
	trace_name(work->trace_name, sizeof(work->trace_name), "work", name);
}

/* The function's name without its offset, for the trace: "func" or "func [mod]". */
static void work_func_name(char *buf, size_t len, work_func_t func)
{
	char *plus;

	sprint_symbol(buf, len, (uintptr_t)func);
	plus = strchr(buf, '+');
	if (plus)
		*plus = '\0';
}

bool schedule_work(struct work_struct *work)
{
	char func[128];
	const char *mod = module_trace_name_of((uintptr_t)work->func);
	struct work_struct *w;
	bool idle;

	sched_point();
	pthread_mutex_lock(&wq_lock);
	idle = wq_worker && !wq_head && !wq_running;
	for (w = wq_head; w; w = w->next) {
		if (w == work) {
			pthread_mutex_unlock(&wq_lock);
			return false;
		}
	}
	work->next = NULL;
	if (wq_tail)
		wq_tail->next = work;
	else
		wq_head = work;
	wq_tail = work;
	work_func_name(func, sizeof(func), work->func);
	if (mod)
		trace_event("work_queue", work->trace_name, "func=%s owner=%s", func, mod);
	else
		trace_event("work_queue", work->trace_name, "func=%s", func);
	sched_cond_broadcast(&wq_cond);
	/*
	 * An idle worker starts the item before we go on, so "work_run" comes
	 * right after "work_queue" in every trace instead of wherever the
	 * scheduler puts it: two runs of a scenario give the same trace.  A
	 * busy worker is not waited for (its item may wait on our locks).
	 */
	if (idle) {
		unsigned long want = wq_started + 1;

		while (wq_started < want && !wq_stop)
			sched_cond_wait(&wq_cond, &wq_lock, "schedule_work (waiting for kworker/0:1 to start it)");
	}
	pthread_mutex_unlock(&wq_lock);
	return true;
}

/*
 * process_one_work - run one item; work may be freed by its own function.
 * Its "work_run" event is already written (under wq_lock, see schedule_work).
 */
static __noinline void process_one_work(struct work_struct *work, const char *name)
{
	work->func(work);
	trace_event("work_done", name, NULL);
}

static __noinline void *worker_thread(void *unused)
{
	struct work_struct *work;
	char name[sizeof(work->trace_name)];

	(void)unused;
	pthread_mutex_lock(&wq_lock);
	for (;;) {
		while (!wq_head && !wq_stop)
			sched_cond_wait_idle(&wq_cond, &wq_lock, "worker_thread (idle)");
		if (!wq_head)
			break;
		work = wq_head;
		wq_head = work->next;
		if (!wq_head)
			wq_tail = NULL;
		wq_running = true;
		memcpy(name, work->trace_name, sizeof(name));
		trace_event("work_run", name, NULL);
		wq_started++;
		sched_cond_broadcast(&wq_cond);
		pthread_mutex_unlock(&wq_lock);

		process_one_work(work, name);

		pthread_mutex_lock(&wq_lock);
		wq_running = false;
		sched_cond_broadcast(&wq_cond);
	}
	pthread_mutex_unlock(&wq_lock);
	return NULL;
}

void workqueue_init(void)
{
	wq_worker = kthread_run(worker_thread, NULL, "kworker/0:1");
}

bool workqueue_idle(void)
{
	bool idle;

	pthread_mutex_lock(&wq_lock);
	idle = !wq_head && !wq_running;
	pthread_mutex_unlock(&wq_lock);
	return idle;
}

/*
 * flush_scheduled_work - wait for everything queued so far.  A work item
 * that never returns (a deadlock) keeps us here: the watchdog reports it.
 */
void flush_scheduled_work(void)
{
	pthread_mutex_lock(&wq_lock);
	sched_block("flush_scheduled_work (waiting for kworker/0:1)");
	while (wq_head || wq_running)
		sched_cond_wait(&wq_cond, &wq_lock, "flush_scheduled_work (waiting for kworker/0:1)");
	sched_unblock();
	pthread_mutex_unlock(&wq_lock);
}

void workqueue_shutdown(void)
{
	if (!wq_worker)
		return;
	flush_scheduled_work();
	pthread_mutex_lock(&wq_lock);
	wq_stop = true;
	sched_cond_broadcast(&wq_cond);
	pthread_mutex_unlock(&wq_lock);
	kthread_join(wq_worker);
	wq_worker = NULL;
	wq_stop = false;
}
