/* sysfs_dir.c - directories for kobjects, their attribute files and symlinks. */
#include <string.h>
#include <sysfs.h>
#include <sysfs_internal.h>

static int sysfs_add(struct sysfs_dirent *parent, const char *name, enum sysfs_type type,
		     void *what, struct sysfs_dirent **out)
{
	struct sysfs_dirent *sd = sysfs_new_dirent(name, type);
	int err;

	if (type == SYSFS_DIR)
		sd->s.kobj = what;
	else if (type == SYSFS_KOBJ_ATTR)
		sd->s.attr = what;
	else
		sd->s.target = sysfs_get(what);
	mutex_lock(&sysfs_mutex);
	err = parent->s_removed ? -ENOENT : sysfs_link_child(parent, sd);
	if (!err)
		sysfs_trace_create(sd);
	mutex_unlock(&sysfs_mutex);
	if (err) {
		sysfs_put(sd);
		return err;
	}
	if (out)
		*out = sd;
	return 0;
}

int sysfs_create_dir_at(struct kobject *kobj, const char *parent_path)
{
	struct sysfs_dirent *parent;
	int err;

	mutex_lock(&sysfs_mutex);
	parent = sysfs_lookup(parent_path);
	mutex_unlock(&sysfs_mutex);
	if (!parent)
		return -ENOENT;
	err = sysfs_add(parent, kobject_name(kobj), SYSFS_DIR, kobj, &kobj->sd);
	sysfs_put(parent);
	return err;
}

int sysfs_create_dir(struct kobject *kobj)
{
	if (kobj->parent && !kobj->parent->sd)
		return -ENOENT;
	if (!kobj->parent)
		return sysfs_create_dir_at(kobj, "/sys/devices");
	return sysfs_add(kobj->parent->sd, kobject_name(kobj), SYSFS_DIR, kobj, &kobj->sd);
}

int sysfs_create_file(struct kobject *kobj, struct attribute *attr)
{
	return kobj->sd ? sysfs_add(kobj->sd, attr->name, SYSFS_KOBJ_ATTR, attr, NULL) : -ENOENT;
}

int sysfs_create_link(struct kobject *kobj, struct kobject *target, const char *name)
{
	if (!kobj->sd || !target->sd)
		return -ENOENT;
	return sysfs_add(kobj->sd, name, SYSFS_KOBJ_LINK, target->sd, NULL);
}
