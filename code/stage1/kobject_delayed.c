/* kobject_delayed.c - CONFIG_DEBUG_KOBJECT_RELEASE: the last put's cleanup runs later, on a kworker. */
#include <delay.h>
#include <kconfig.h>
#include <kobject.h>
#include <slab.h>
#include <workqueue.h>

/*
 * The kernel embeds a delayed_work in every kobject when the option is
 * on.  We allocate the work item instead: if a driver freed the kobject
 * meanwhile, the first access to freed memory is then the cleanup's
 * own reading of the kobject, and the report names kobject_cleanup()
 * instead of the workqueue's list handling.
 *
 * The kernel waits on a timer first (schedule_delayed_work()) and queues
 * the work when it fires, so a flush of the workqueue before then does
 * not wait for the cleanup.  Here the work is queued at once and sleeps
 * its delay inside: flush_scheduled_work(), the shell's settle, waits
 * for it, and a script can order itself after the cleanup without a
 * sleep of its own.
 */
struct kobject_delayed_release {
	struct work_struct work;
	struct kobject *kobj;
	void (*cleanup)(struct kobject *kobj);
};

static __noinline void kobject_delayed_cleanup(struct work_struct *work)
{
	struct kobject_delayed_release *d = container_of(work, struct kobject_delayed_release, work);

	msleep(DEBUG_KOBJECT_RELEASE_DELAY_MS);
	d->cleanup(d->kobj);
	kfree(d);
}

void kobject_release_delayed(struct kobject *kobj, void (*cleanup)(struct kobject *kobj))
{
	struct kobject_delayed_release *d = kzalloc(sizeof(*d), "kobject_delayed_release");

	/* lib/kobject.c prints the pointers; names keep two runs alike. */
	pr_info("kobject: '%s': kobject_release, parent '%s' (delayed %d)", kobject_name(kobj),
		kobj->parent ? kobject_name(kobj->parent) : "none", DEBUG_KOBJECT_RELEASE_DELAY_MS);
	d->kobj = kobj;
	d->cleanup = cleanup;
	INIT_WORK(&d->work, kobject_delayed_cleanup);
	schedule_work(&d->work);
}
