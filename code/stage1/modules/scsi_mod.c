/* scsi_mod.c - the SCSI midlayer: hosts, targets, devices and their sysfs files. */
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <mutex.h>
#include <module.h>
#include <scsi.h>
#include <slab.h>

static struct scsi_driver *upper_driver;	/* sd_mod, when loaded */
/* Serialises removal: the delete callback (a kworker) and rmmod of the host's driver race for it. */
static DEFINE_MUTEX(scan_mutex);
static int next_host_no;

/*
 * The releases run when the last reference goes, whoever drops it: the
 * driver that unregistered, or a process closing a sysfs file long after.
 * Each object holds its parent with a get_device() of its own, as the
 * kernel's SCSI layer does (drivers/scsi/scsi_scan.c), and drops it only
 * in its release; so the last put of a disk runs the whole chain, device,
 * target, host, whatever sysfs or kobject_del() did with their own
 * references meanwhile.
 */
static __noinline void scsi_host_dev_release(struct device *dev)
{
	struct Scsi_Host *shost = container_of(dev, struct Scsi_Host, shost_gendev);

	/* The template is the low-level driver's memory (libata's). */
	if (shost->hostt->host_release)
		shost->hostt->host_release(shost);
	kfree(shost);
}

static __noinline void scsi_target_dev_release(struct device *dev)
{
	struct device *parent = dev->parent;

	kfree(container_of(dev, struct scsi_target, dev));
	put_device(parent);	/* the host, held since scsi_scan_host() */
}

/*
 * scsi_target_reap - the target's last device is released: drop the
 * reference the target was registered with.  In 2007 this ran from the
 * device's release (scsi_device_dev_release_usercontext() ->
 * scsi_target_reap(), the frames of the mail's second oops), and it also
 * took the target out of sysfs and read the host template
 * (shost->hostt->target_destroy).  Here the target leaves sysfs with its
 * disk (__scsi_remove_device()), because our sysfs removes a directory
 * with everything in it, and the template is read one step later, by the
 * host's release: the same chain, the same unloaded memory at its end.
 */
static __noinline void scsi_target_reap(struct scsi_target *starget)
{
	put_device(&starget->dev);
}

static __noinline void scsi_device_dev_release(struct device *dev)
{
	struct scsi_device *sdev = container_of(dev, struct scsi_device, sdev_gendev);
	struct device *parent = dev->parent;

	scsi_target_reap(sdev->target);
	kfree(sdev);
	put_device(parent);	/* the target, held since scsi_scan_host() */
}

static ssize_t model_show(struct device *dev, struct device_attribute *attr, char *buf)
{
	(void)dev; (void)attr;
	return snprintf(buf, 64, "KSIM DISK\n");
}

static ssize_t state_show(struct device *dev, struct device_attribute *attr, char *buf)
{
	struct scsi_device *sdev = container_of(dev, struct scsi_device, sdev_gendev);

	(void)attr;
	return snprintf(buf, 64, "%s\n", sdev->state);
}

#include <scsi_delete.h>	/* delete_store(): the stage's way of deleting */

static DEVICE_ATTR(model, 0444, model_show, NULL);
static DEVICE_ATTR(state, 0444, state_show, NULL);
static DEVICE_ATTR(delete, 0200, NULL, delete_store);
static struct device_attribute *const sdev_attrs[] = { &dev_attr_model, &dev_attr_state, &dev_attr_delete };

struct Scsi_Host *scsi_host_alloc(const struct scsi_host_template *sht, struct device *parent)
{
	struct Scsi_Host *shost = kzalloc(sizeof(*shost), "Scsi_Host");

	shost->hostt = sht;
	shost->host_no = next_host_no++;
	shost->shost_gendev.parent = parent;
	shost->shost_gendev.release = scsi_host_dev_release;
	device_initialize(&shost->shost_gendev);
	shost->shost_gendev.kobj.release_reads = (uintptr_t)sht;
	return shost;
}

int scsi_add_host(struct Scsi_Host *shost)
{
	return device_add(&shost->shost_gendev, "host%d", shost->host_no);
}

void scsi_scan_host(struct Scsi_Host *shost)
{
	struct scsi_target *starget = kzalloc(sizeof(*starget), "scsi_target");
	struct scsi_device *sdev = kzalloc(sizeof(*sdev), "scsi_device");

	starget->dev.parent = get_device(&shost->shost_gendev);
	starget->dev.release = scsi_target_dev_release;
	device_register(&starget->dev, "target%d:0:0", shost->host_no);

	sdev->host = shost;
	sdev->target = starget;
	sdev->state = "running";
	sdev->sdev_gendev.parent = get_device(&starget->dev);
	sdev->sdev_gendev.release = scsi_device_dev_release;
	device_register(&sdev->sdev_gendev, "%d:0:0:0", shost->host_no);
	for (size_t i = 0; i < ARRAY_SIZE(sdev_attrs); i++)
		device_create_file(&sdev->sdev_gendev, sdev_attrs[i]);
	shost->sdev = sdev;
	if (upper_driver)
		upper_driver->probe(sdev);
}

/*
 * __scsi_remove_device - the disk is gone.
 * The host forgets it first, so that a later scsi_remove_host() does not
 * find it.  "deleted" is written only after the attribute files are gone,
 * when no show() can be reading state.  The disk and its target leave
 * sysfs before the disk's registration reference is dropped: that put may
 * be the last one, and then the release chain frees them both.
 * Call with scan_mutex held.
 */
static void __scsi_remove_device(struct scsi_device *sdev)
{
	struct scsi_target *starget = sdev->target;

	lockdep_assert_held(&scan_mutex);
	/* Released: stage 4's scsi_device_get() reads it without scan_mutex. */
	__atomic_store_n(&sdev->removed, true, __ATOMIC_RELEASE);
	sdev->host->sdev = NULL;
	if (upper_driver)
		upper_driver->remove(sdev);
	for (size_t i = 0; i < ARRAY_SIZE(sdev_attrs); i++)
		device_remove_file(&sdev->sdev_gendev, sdev_attrs[i]);
	sdev->state = "deleted";
	device_del(&sdev->sdev_gendev);
	device_del(&starget->dev);
	put_device(&sdev->sdev_gendev);
}

/*
 * scsi_remove_device - called from delete (its callback, or since 2018
 * its store), which holds a reference on sdev; the host's removal may
 * have come first.
 */
void scsi_remove_device(struct scsi_device *sdev)
{
	mutex_lock(&scan_mutex);
	if (!sdev->removed)
		__scsi_remove_device(sdev);
	mutex_unlock(&scan_mutex);
}

void scsi_remove_host(struct Scsi_Host *shost)
{
	mutex_lock(&scan_mutex);
	if (shost->sdev)
		__scsi_remove_device(shost->sdev);
	mutex_unlock(&scan_mutex);
	device_del(&shost->shost_gendev);
}

void scsi_host_put(struct Scsi_Host *shost)
{
	put_device(&shost->shost_gendev);
}

int scsi_register_driver(struct scsi_driver *drv)
{
	upper_driver = drv;
	return 0;
}

void scsi_unregister_driver(struct scsi_driver *drv)
{
	if (upper_driver == drv)
		upper_driver = NULL;
}

static int scsi_init(void)
{
	return 0;
}

static void scsi_exit(void)
{
}

MODULE_INFO("scsi_mod", scsi_init, scsi_exit);
