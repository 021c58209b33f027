/*
 * scsi_delete.h - scsi_mod's "delete" attribute, stage 4: today's delete,
 * which removes its device itself and pins the LLD.  It replaces stage 1's
 * file of the same name for modules/scsi_mod.c.
 */
#ifndef KSIM_SCSI_DELETE_H
#define KSIM_SCSI_DELETE_H

#include <delay.h>
#include <module.h>
#include <scsi.h>
#include <sysfs_self.h>

/*
 * scsi_device_get - a reference on sdev, and one on the module of its
 * host's template (the low-level driver's), for a user that may still run
 * when that driver is told to go.  Fails once sdev is being removed, or
 * once the module is going away.
 */
static int scsi_device_get(struct scsi_device *sdev)
{
	if (__atomic_load_n(&sdev->removed, __ATOMIC_ACQUIRE))
		return -ENXIO;
	if (!try_module_get(sdev->host->hostt->module))
		return -ENXIO;
	get_device(&sdev->sdev_gendev);
	return 0;
}

/*
 * scsi_device_put - the device first, the module after.  The put may be
 * the disk's last, and then its release chain runs up to the host and
 * reads the template: the module must still be there (the kernel's order
 * since 2021, commit f2b85040acec, "shost->hostt is required in the
 * release handler").  The module is read before the put, which may free
 * sdev.  The delay point (declared in module_points.c) holds the store
 * between the two puts.
 */
static void scsi_device_put(struct scsi_device *sdev)
{
	struct module *mod = sdev->host->hostt->module;

	put_device(&sdev->sdev_gendev);
	delay_point("scsi_device_put");
	module_put(mod);
}

/*
 * "echo 1 > delete", the kernel's way since 2018-2019
 * (sdev_store_delete()): the store removes the device itself, before the
 * write returns, with no callback.  Breaking its active protection lets
 * the removal of the store's own file go through without waiting for the
 * store; scsi_device_get() keeps the disk and the LLD's module for as long
 * as the store runs, so that nothing the removal's last put reaches is
 * unmapped under it.
 */
static ssize_t delete_store(struct device *dev, struct device_attribute *attr, const char *buf, size_t count)
{
	struct scsi_device *sdev = container_of(dev, struct scsi_device, sdev_gendev);
	struct sysfs_dirent *sd;

	(void)buf;
	if (scsi_device_get(sdev))
		return -ENODEV;
	sd = sysfs_file_break_active_protection(&dev->kobj, &attr->attr);
	/*
	 * The node is always found, as in the kernel (which warns if not,
	 * WARN_ON_ONCE): a removal unlinks it only after draining it, and
	 * this store is inside it.  From the break on, a removal of the
	 * device holding scan_mutex no longer waits for this store, which may
	 * then sleep on scan_mutex in scsi_remove_device() without a cycle.
	 */
	WARN_ON(!sd);
	device_remove_file(dev, attr);
	scsi_remove_device(sdev);
	if (sd)
		sysfs_file_unbreak_active_protection(sd);
	scsi_device_put(sdev);
	return count;
}

#endif
