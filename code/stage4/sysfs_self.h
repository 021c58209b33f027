/* sysfs_self.h - an attribute that removes itself from inside its own method: remove_self, or break/unbreak. */
#ifndef KSIM_SYSFS_SELF_H
#define KSIM_SYSFS_SELF_H

#include <stdbool.h>
#include <device.h>

struct sysfs_dirent;

/*
 * sysfs_remove_file_self - remove attr of kobj, called from attr's own
 * show() or store().  True for the one caller that removed it; false if
 * the file was not there or another caller removed it (that removal is
 * complete when this returns).  From the call on, the node may be gone:
 * the caller answers for keeping alive what it still uses (hold a
 * reference on the device across the call).
 */
bool sysfs_remove_file_self(struct kobject *kobj, const struct attribute *attr);
bool device_remove_file_self(struct device *dev, struct device_attribute *attr);

/*
 * sysfs_file_break_active_protection - fs/sysfs/file.c's
 * sysfs_break_active_protection(kobj, attr) (our name for that is taken by
 * the node-level pair in sysfs_dirent.h): called from attr's own method,
 * it takes a reference on kobj and on attr's node, and gives the method's
 * active reference back, so that removing attr no longer waits for the
 * method.  Returns the node, for sysfs_file_unbreak_active_protection()
 * (which takes the count back and drops both references), or NULL if attr
 * was not found; then nothing is held.
 */
struct sysfs_dirent *sysfs_file_break_active_protection(struct kobject *kobj, const struct attribute *attr);
void sysfs_file_unbreak_active_protection(struct sysfs_dirent *sd);

#endif
