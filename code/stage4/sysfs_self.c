/* sysfs_self.c - sysfs_remove_file_self(), device_remove_file_self() and the file-level break/unbreak of active protection. */
#include <string.h>
#include <delay.h>
#include <sysfs_internal.h>
#include <sysfs_self.h>

DELAY_POINT(sysfs_remove_self)

/* The node of attr under kobj, with an s_count for the caller; NULL if it is not (or no longer) linked. */
static struct sysfs_dirent *sysfs_find_and_get(struct kobject *kobj, const struct attribute *attr)
{
	struct sysfs_dirent *sd;

	mutex_lock(&sysfs_mutex);
	for (sd = kobj->sd ? kobj->sd->s_children : NULL; sd; sd = sd->s_sibling)
		if (strcmp(sd->s_name, attr->name) == 0)
			break;
	sysfs_get(sd);
	mutex_unlock(&sysfs_mutex);
	return sd;
}

bool sysfs_remove_file_self(struct kobject *kobj, const struct attribute *attr)
{
	/* The node the caller's operation is on; the s_count keeps it while we remove it. */
	struct sysfs_dirent *sd = sysfs_find_and_get(kobj, attr);
	bool removed;

	/*
	 * fs/sysfs/file.c warns here (WARN_ON_ONCE) and so do we: a removal
	 * unlinks a node only after draining it (__sysfs_remove(), kernfs's
	 * order), and the caller's operation is inside it, so the node the
	 * caller runs on is always found.
	 */
	if (WARN_ON(!sd))
		return false;
	/*
	 * The window a scenario holds open ("delay sysfs_remove_self"): the
	 * operation has given its active reference up and not yet claimed the
	 * removal, so an unplug or an rmmod in it does not wait for the
	 * operation, and a second remover gets in beside it.  It is opened
	 * here, in given code, with the break and unbreak every remove_self()
	 * does, so that it is the same window whichever correct order
	 * sysfs_remove_self() takes its steps in (kernfs takes the lock first,
	 * and then there is no window inside it to sleep in).
	 */
	if (delay_armed("sysfs_remove_self")) {
		sysfs_break_active_protection(sd);
		delay_point("sysfs_remove_self");
		sysfs_unbreak_active_protection(sd);
	}
	removed = sysfs_remove_self(sd);
	sysfs_put(sd);
	return removed;
}

bool device_remove_file_self(struct device *dev, struct device_attribute *attr)
{
	return sysfs_remove_file_self(&dev->kobj, &attr->attr);
}

struct sysfs_dirent *sysfs_file_break_active_protection(struct kobject *kobj, const struct attribute *attr)
{
	struct sysfs_dirent *sd;

	kobject_get(kobj);
	sd = sysfs_find_and_get(kobj, attr);
	if (sd)
		sysfs_break_active_protection(sd);
	else
		kobject_put(kobj);	/* nothing is held on failure (the kernel added this put in 2024) */
	return sd;
}

void sysfs_file_unbreak_active_protection(struct sysfs_dirent *sd)
{
	/* The directory's node outlives sd (sd's s_count holds it), and keeps pointing at kobj. */
	struct kobject *kobj = sd->s_parent->s.kobj;

	sysfs_unbreak_active_protection(sd);
	sysfs_put(sd);
	kobject_put(kobj);
}
