/* sysfs_remove.c - taking nodes out, in 2007's order: unlink under sysfs_mutex, then drop each node outside it (from stage 3 on, the drop deactivates and drains). */
#include <string.h>
#include <sysfs.h>
#include <sysfs_internal.h>

/* Remove one named entry of kobj's directory. */
static void sysfs_remove_name(struct kobject *kobj, const char *name)
{
	struct sysfs_dirent *sd;

	mutex_lock(&sysfs_mutex);
	for (sd = kobj->sd ? kobj->sd->s_children : NULL; sd; sd = sd->s_sibling)
		if (strcmp(sd->s_name, name) == 0)
			break;
	if (sd)
		sysfs_unlink_child(sd);
	mutex_unlock(&sysfs_mutex);
	if (sd)
		sysfs_drop_dirent(sd);
}

void sysfs_remove_file(struct kobject *kobj, struct attribute *attr)
{
	sysfs_remove_name(kobj, attr->name);
}

void sysfs_remove_link(struct kobject *kobj, const char *name)
{
	sysfs_remove_name(kobj, name);
}

/*
 * sysfs_remove_dir - take kobj's directory and everything in it out of the
 * tree.  Entries are unlinked under the lock, then dropped outside it,
 * children before their directory.
 */
void sysfs_remove_dir(struct kobject *kobj)
{
	struct sysfs_dirent *dir = kobj->sd, *removed = NULL, *sd;

	if (!dir)
		return;
	mutex_lock(&sysfs_mutex);
	while ((sd = dir->s_children)) {
		sysfs_unlink_child(sd);
		sd->s_sibling = removed;	/* reuse the link for our private list */
		removed = sd;
	}
	sysfs_unlink_child(dir);
	kobj->sd = NULL;
	mutex_unlock(&sysfs_mutex);
	while ((sd = removed)) {
		removed = sd->s_sibling;
		sd->s_sibling = NULL;
		sysfs_drop_dirent(sd);
	}
	sysfs_drop_dirent(dir);
}
