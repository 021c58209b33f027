/* sysfs_self.c - sysfs_remove_file_self() and device_remove_file_self(), on top of sysfs_remove_self(). */
#include <string.h>
#include "sysfs_internal.h"
#include "sysfs_self.h"

bool sysfs_remove_file_self(struct kobject *kobj, const struct attribute *attr)
{
	struct sysfs_dirent *sd = NULL;
	bool removed;

	/* The node the caller's operation is on; the s_count keeps it while we remove it. */
	mutex_lock(&sysfs_mutex);
	for (sd = kobj->sd ? kobj->sd->s_children : NULL; sd; sd = sd->s_sibling)
		if (strcmp(sd->s_name, attr->name) == 0)
			break;
	sysfs_get(sd);
	mutex_unlock(&sysfs_mutex);
	/*
	 * fs/sysfs/file.c warns here (WARN_ON_ONCE): kernfs unlinks a node
	 * only after draining it, so the caller's own node is always found.
	 * Stage 4 unlinks at deactivation, before the drain, so a racing
	 * unplug can make this miss, and a miss is an answer, not a bug.
	 */
	if (!sd)
		return false;
	removed = sysfs_remove_self(sd);
	sysfs_put(sd);
	return removed;
}

bool device_remove_file_self(struct device *dev, struct device_attribute *attr)
{
	return sysfs_remove_file_self(&dev->kobj, &attr->attr);
}
