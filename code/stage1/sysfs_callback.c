/* sysfs_callback.c - run a function later, from a kworker (as 2.6.21 had it). */
#include <stdio.h>
#include <string.h>
#include <delay.h>
#include <module.h>
#include <oops.h>
#include <slab.h>
#include <sysfs.h>
#include <task.h>
#include <workqueue.h>

DELAY_POINT(sysfs_schedule_callback_work)

struct sysfs_schedule_callback_struct {
	struct kobject *kobj;
	void (*func)(void *);
	void *data;
	struct work_struct work;
};

static __noinline void sysfs_schedule_callback_work(struct work_struct *work)
{
	struct sysfs_schedule_callback_struct *ss =
		container_of(work, struct sysfs_schedule_callback_struct, work);
	const char *old = trace_by_set(work->trace_name);

	/* The seed's msleep(100): long enough for a whole rmmod sequence. */
	delay_point("sysfs_schedule_callback_work");
	ss->func(ss->data);
	kobject_put(ss->kobj);
	trace_by_set(old);
	kfree(ss);
}

/*
 * The kobject is pinned until the callback has run; the module that holds
 * func is not.  Nothing stops that module from being unloaded while the
 * work item waits, and then ss->func points into unmapped memory.
 */
int sysfs_schedule_callback(struct kobject *kobj, void (*func)(void *), void *data)
{
	struct sysfs_schedule_callback_struct *ss;
	char sym[128];
	const char *mod, *old;

	ss = kmalloc(sizeof(*ss), "sysfs_schedule_callback_struct");
	INIT_WORK(&ss->work, sysfs_schedule_callback_work);
	old = trace_by_set(ss->work.trace_name);
	ss->kobj = kobject_get(kobj);
	trace_by_set(old);
	ss->func = func;
	ss->data = data;
	/* For the trace: the work item will call func, which is the module's code. */
	sprint_symbol(sym, sizeof(sym), (uintptr_t)func);
	*strchrnul(sym, '+') = '\0';
	mod = module_trace_name_of((uintptr_t)func);
	trace_event("create", ss->work.trace_name, "ref=%s func=%s%s%s", kobj->trace_name, sym,
		    mod ? " owner=" : "", mod ? mod : "");
	schedule_work(&ss->work);
	return 0;
}
