/* sysfs_drop.c - what removing a node means: stage 3 deactivates it, then lets its memory go. */
#include <sysfs_internal.h>
#include <verify.h>

void sysfs_trace_create(struct sysfs_dirent *sd)
{
	struct kobject *kobj = sd->s_type == SYSFS_DIR ? sd->s.kobj :
			       sd->s_type == SYSFS_KOBJ_ATTR ? sd->s_parent->s.kobj : NULL;

	if (kobj)
		trace_event("create", sd->trace_name, "count=1 ref=%s", kobj->trace_name);
	else
		trace_event("create", sd->trace_name, "count=1%s%s", sd->s_type == SYSFS_KOBJ_LINK ?
			    " ref=" : "", sd->s_type == SYSFS_KOBJ_LINK ? sd->s.target->trace_name : "");
	trace_bind(sd, sd->trace_name);
}

/*
 * sysfs_drop_dirent - sd is unlinked: lookups no longer find it, but a
 * file opened before may still try an operation on it.
 *
 * Deactivation closes that door and waits until every operation already
 * through it has come out.  From then on nothing reaches the kobject or
 * the attribute through sd, so the caller (kobject_del(), a driver's
 * sysfs_remove_file()) may let them go at once.  What stays is sd's own
 * memory, for as long as files keep it open: the tree's s_count goes
 * here, and the last close frees it.
 */
void sysfs_drop_dirent(struct sysfs_dirent *sd)
{
	trace_event("remove", sd->trace_name, NULL);
	sysfs_deactivate(sd);
	verify_expect_gone(sd, sd->trace_name, "held by an s_count (a file left open?)");
	sysfs_put(sd);
}
