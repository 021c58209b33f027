/* sysfs_callback.c - run a function later, from a kworker, with the function's module pinned (the fix of April 2007). */
#include <stdio.h>
#include <string.h>
#include <delay.h>
#include <exercise.h>
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
	struct module *owner;	/* the module that contains func */
	struct work_struct work;
};

/*
 * sysfs_schedule_callback_work - the kworker's side.  func is the owner's
 * code, so the owner must stay loaded until func has returned; and the
 * kobject_put() after it may run a release() that is the owner's code
 * too.  The module reference is therefore the very last thing dropped.
 */
static __noinline void sysfs_schedule_callback_work(struct work_struct *work)
{
	struct sysfs_schedule_callback_struct *ss =
		container_of(work, struct sysfs_schedule_callback_struct, work);
	const char *old = trace_by_set(work->trace_name);

	/* The seed's msleep(100): long enough for a whole rmmod sequence. */
	delay_point("sysfs_schedule_callback_work");
	ss->func(ss->data);
	kobject_put(ss->kobj);
	@EXERCISE sysfs_schedule_callback_work
	TODO("sysfs_schedule_callback_work", "give back the module reference taken when the callback was scheduled, once nothing of that module can run from this work item any more");
	@END
	trace_by_set(old);
	kfree(ss);
}

/*
 * sysfs_schedule_callback_owner - the kobject is pinned until the callback
 * has run, and so is owner, the module that holds func: rmmod of that
 * module is refused ("in use") while the work item waits.  If owner is
 * already going away, fail with -ENODEV, as the kernel did: its exit may
 * be removing this very device, and func may be unmapped before the work
 * runs.
 */
int sysfs_schedule_callback_owner(struct kobject *kobj, void (*func)(void *), void *data,
				  struct module *owner)
{
	struct sysfs_schedule_callback_struct *ss;
	char sym[128];
	const char *mod, *old;

	ss = kmalloc(sizeof(*ss), "sysfs_schedule_callback_struct");
	INIT_WORK(&ss->work, sysfs_schedule_callback_work);
	@EXERCISE sysfs_schedule_callback
	TODO("sysfs_schedule_callback", "the work item will call func later, from a kworker: pin the module that holds func until then, and refuse if that module is already going away");
	@END
	old = trace_by_set(ss->work.trace_name);
	ss->kobj = kobject_get(kobj);
	trace_by_set(old);
	ss->func = func;
	ss->data = data;
	ss->owner = owner;
	/* For the trace: the work item will call func, which is the module's code. */
	sprint_symbol(sym, sizeof(sym), (uintptr_t)func);
	*strchrnul(sym, '+') = '\0';
	mod = module_trace_name_of((uintptr_t)func);
	trace_event("create", ss->work.trace_name, "ref=%s func=%s%s%s", kobj->trace_name, sym,
		    mod ? " owner=" : "", mod ? mod : "");
	schedule_work(&ss->work);
	return 0;
}
