/*
 * scsi_delete.h - scsi_mod's "delete" attribute, 2007's way: a callback.
 * Included by modules/scsi_mod.c, which is the same in every stage; a
 * stage that deletes another way has a scsi_delete.h of its own
 * (code/stage4/), found first on the include path.
 */
#ifndef KSIM_SCSI_DELETE_H
#define KSIM_SCSI_DELETE_H

#include <scsi.h>

/* The callback of "delete": runs from a kworker, after store() has returned. */
static __noinline void scsi_device_delete_cb(void *data)
{
	scsi_remove_device(data);
}

/*
 * "echo 1 > delete" removes the device.  store() cannot remove its own
 * attribute file while it runs inside it, so it asks for a callback.
 */
static ssize_t delete_store(struct device *dev, struct device_attribute *attr, const char *buf, size_t count)
{
	struct scsi_device *sdev = container_of(dev, struct scsi_device, sdev_gendev);
	int err;

	(void)attr; (void)buf;
	err = sysfs_schedule_callback(&dev->kobj, scsi_device_delete_cb, sdev);
	return err ? err : (ssize_t)count;
}

#endif
