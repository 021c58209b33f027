/* task.c - tasks are threads with a name, a deterministic pid and known stack bounds. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <valgrind/valgrind.h>
#include "task.h"
#include "lockdep.h"
#include "oops.h"
#include "percpu.h"
#include "rcu.h"
#include "scheduler.h"

_Thread_local struct task_struct *current;

pthread_mutex_t tasks_lock = PTHREAD_MUTEX_INITIALIZER;
struct task_struct *tasks_head;
static int next_pid = 1;	/* under tasks_lock */
static struct timespec boot_time;

long jiffies_ms(void)
{
	struct timespec now;

	if (sched_controlled())
		return sched_clock_ms();	/* virtual time: a run never depends on the machine's speed */
	clock_gettime(CLOCK_MONOTONIC, &now);
	return (now.tv_sec - boot_time.tv_sec) * 1000 +
	       (now.tv_nsec - boot_time.tv_nsec) / 1000000;
}

/* Record where this thread's stack lies, so the unwinder stays inside it. */
static void task_stack_bounds(struct task_struct *t)
{
	pthread_attr_t attr;
	void *addr;
	size_t size;

	if (pthread_getattr_np(pthread_self(), &attr) == 0) {
		if (pthread_attr_getstack(&attr, &addr, &size) == 0) {
			t->stack_lo = (uintptr_t)addr;
			t->stack_hi = (uintptr_t)addr + size;
		}
		pthread_attr_destroy(&attr);
	}
}

void task_skip_pid(void)
{
	pthread_mutex_lock(&tasks_lock);
	next_pid++;
	pthread_mutex_unlock(&tasks_lock);
}

static void task_link(struct task_struct *t)
{
	pthread_mutex_lock(&tasks_lock);
	t->pid = next_pid++;
	snprintf(t->tag, sizeof(t->tag), "%s[%d]", t->comm, t->pid);
	t->next = tasks_head;
	tasks_head = t;
	pthread_mutex_unlock(&tasks_lock);
}

static void task_unlink(struct task_struct *t)
{
	struct task_struct **pp;

	pthread_mutex_lock(&tasks_lock);
	for (pp = &tasks_head; *pp; pp = &(*pp)->next) {
		if (*pp == t) {
			*pp = t->next;
			break;
		}
	}
	pthread_mutex_unlock(&tasks_lock);
}

void task_init_main(const char *comm)
{
	static struct task_struct main_task;

	clock_gettime(CLOCK_MONOTONIC, &boot_time);
	snprintf(main_task.comm, sizeof(main_task.comm), "%s", comm);
	main_task.thread = pthread_self();
	task_link(&main_task);
	current = &main_task;
	task_stack_bounds(&main_task);
	oops_task_init();
}

/*
 * Threads are kept for the next task.  A thread per task cost a clone()
 * each time, and the schedule explorer starts thousands of short tasks: a
 * third of its time went to creating threads on this project's machines.
 * So a thread whose task has returned waits, idle, for the next
 * kthread_run().  A task's own state lives in its task_struct; what the
 * kernel keeps per thread (held locks, RCU depth, per-CPU slot) is reset
 * between tasks, so nothing of one task is seen by the next.
 *
 * Not under Valgrind or ThreadSanitizer: two tasks run one after the other
 * on one thread are ordered by program order, and a race between them that
 * nothing else orders would not be reported.  There every task gets a
 * thread of its own.
 */
struct idle_thread {
	pthread_t thread;
	uintptr_t stack_lo, stack_hi;	/* the thread's stack, the same for all its tasks */
	pthread_cond_t wake;
	struct task_struct *task;	/* the next task, under tasks_lock */
	struct idle_thread *next;
};
static struct idle_thread *idle_threads;	/* under tasks_lock */
static pthread_cond_t task_exited = PTHREAD_COND_INITIALIZER;
static bool reuse_threads;

/* A forked child has the calling thread only: the idle ones stayed behind. */
static void forget_idle_threads(void)
{
	idle_threads = NULL;
}

static void kthread_once(void)
{
#if defined(__SANITIZE_THREAD__)
	reuse_threads = false;
#else
	reuse_threads = !RUNNING_ON_VALGRIND;
#endif
	pthread_atfork(NULL, NULL, forget_idle_threads);
}

/*
 * The task t has returned: tell kthread_join(), then wait for the next
 * task (or, when threads are not reused, end the thread: NULL).
 */
static struct task_struct *kthread_next(struct idle_thread *self, struct task_struct *t)
{
	pthread_mutex_lock(&tasks_lock);
	atomic_store(&t->exited, true);
	pthread_cond_broadcast(&task_exited);
	t = NULL;
	if (reuse_threads) {
		self->task = NULL;
		self->next = idle_threads;
		idle_threads = self;
		while (!self->task)
			pthread_cond_wait(&self->wake, &tasks_lock);
		t = self->task;
	}
	pthread_mutex_unlock(&tasks_lock);
	return t;
}

/*
 * kthread - every task runs here.  It is a real function with a frame of
 * its own, so it ends every call trace as in the kernel; its state is on
 * the heap, so its frame stays small (the unwinder scans stacks for frame
 * records, and a large frame is more to scan).
 */
static __noinline void *kthread(void *arg)
{
	struct idle_thread *self = calloc(1, sizeof(*self));
	struct task_struct *t = arg;

	if (!self)
		abort();
	self->thread = pthread_self();
	pthread_cond_init(&self->wake, NULL);
	task_stack_bounds(t);
	self->stack_lo = t->stack_lo;
	self->stack_hi = t->stack_hi;
	while (t) {
		current = t;
		t->stack_lo = self->stack_lo;
		t->stack_hi = self->stack_hi;
		rcu_depth = 0;
		lockdep_task_start();
		oops_task_init();
		sched_task_begin(t);	/* under the controlled scheduler: wait to be chosen */
		t->ret = t->fn(t->arg);
		percpu_task_end();	/* before another task can run: slots are claimed in a fixed order */
		sched_task_exit(t);
		current = NULL;
		t = kthread_next(self, t);
	}
	pthread_cond_destroy(&self->wake);
	free(self);
	return NULL;
}

struct task_struct *kthread_run(void *(*fn)(void *), void *arg, const char *fmt, ...)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;
	struct task_struct *t = calloc(1, sizeof(*t));
	struct idle_thread *idle;
	va_list ap;

	if (!t)
		abort();
	pthread_once(&once, kthread_once);
	va_start(ap, fmt);
	vsnprintf(t->comm, sizeof(t->comm), fmt, ap);
	va_end(ap);
	t->fn = fn;
	t->arg = arg;
	/* Link before the thread starts: the pid must follow creation order. */
	task_link(t);
	sched_task_new(t);
	pthread_mutex_lock(&tasks_lock);
	idle = idle_threads;
	if (idle) {
		idle_threads = idle->next;
		t->thread = idle->thread;
		idle->task = t;
		pthread_cond_signal(&idle->wake);
	}
	pthread_mutex_unlock(&tasks_lock);
	if (!idle && pthread_create(&t->thread, NULL, kthread, t) != 0) {
		printk("kthread_run: cannot start %s", t->tag);
		abort();
	}
	return t;
}

void *kthread_join(struct task_struct *t)
{
	void *ret;

	sched_task_join(t);	/* controlled: a wait the scheduler knows, not a blind one */
	pthread_mutex_lock(&tasks_lock);
	while (!atomic_load(&t->exited))
		pthread_cond_wait(&task_exited, &tasks_lock);
	pthread_mutex_unlock(&tasks_lock);
	if (!reuse_threads)
		pthread_join(t->thread, NULL);	/* its thread ended with it */
	ret = t->ret;
	sched_task_forget(t);
	task_unlink(t);
	free(t);
	return ret;
}
