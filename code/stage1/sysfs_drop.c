/* sysfs_drop.c - what removing a node means: here, only that lookups stop finding it. */
#include <sysfs_internal.h>

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
 * In this stage removal does nothing to the kobject: a file that is open
 * keeps its kobject reference and will go on calling show() and store()
 * through it, after the device is gone, for as long as it stays open.
 */
void sysfs_drop_dirent(struct sysfs_dirent *sd)
{
	trace_event("remove", sd->trace_name, NULL);
	sysfs_put(sd);
}
