/* sysfs_self.h - an attribute that removes itself from inside its own method (kernfs_remove_self()'s wrappers). */
#ifndef KSIM_SYSFS_SELF_H
#define KSIM_SYSFS_SELF_H

#include <stdbool.h>
#include "device.h"

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

#endif
