/* sysfs_drop.c - what removing a node means (stage 2: its open files are orphaned, as in 2.6.20). */
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
 * An attribute file's removal orphans its open files: it waits for the
 * read or write in flight on each (if any), and from then on they fail
 * with -ENODEV instead of calling show() or store().  Each open file still
 * holds its kobject reference and its owner module until it is closed:
 * orphaning stops the calls into the driver, not the last put.
 */
void sysfs_drop_dirent(struct sysfs_dirent *sd)
{
	trace_event("remove", sd->trace_name, NULL);
	if (sd->s_type == SYSFS_KOBJ_ATTR)
		sysfs_orphan_files(sd);
	sysfs_put(sd);
}
