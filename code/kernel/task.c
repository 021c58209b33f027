/* task.c - tasks are threads with a name, a deterministic pid and known stack bounds. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "task.h"
#include "oops.h"
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
 * kthread - every task starts here.  It is a real function with a frame of
 * its own, so it ends every call trace as in the kernel.
 */
static __noinline void *kthread(void *arg)
{
	struct task_struct *t = arg;

	void *ret;

	current = t;
	task_stack_bounds(t);
	oops_task_init();
	sched_task_begin(t);	/* under the controlled scheduler: wait to be chosen */
	ret = t->fn(t->arg);
	sched_task_exit(t);
	return ret;
}

struct task_struct *kthread_run(void *(*fn)(void *), void *arg, const char *fmt, ...)
{
	struct task_struct *t = calloc(1, sizeof(*t));
	va_list ap;

	if (!t)
		abort();
	va_start(ap, fmt);
	vsnprintf(t->comm, sizeof(t->comm), fmt, ap);
	va_end(ap);
	t->fn = fn;
	t->arg = arg;
	/* Link before the thread starts: the pid must follow creation order. */
	task_link(t);
	sched_task_new(t);
	if (pthread_create(&t->thread, NULL, kthread, t) != 0) {
		printk("kthread_run: cannot start %s", t->tag);
		abort();
	}
	return t;
}

void *kthread_join(struct task_struct *t)
{
	void *ret = NULL;

	sched_task_join(t);	/* controlled: a wait the scheduler knows, not a blind pthread_join */
	pthread_join(t->thread, &ret);
	sched_task_forget(t);
	task_unlink(t);
	free(t);
	return ret;
}
