/* sd_mod.c - the SCSI disk driver: a block device, /sys/block/sda, for each disk. */
#include <stdio.h>
#include <module.h>
#include <scsi.h>
#include <slab.h>

/* gendisk - the block layer's view of the disk; it holds its scsi_device. */
struct gendisk {
	struct kobject kobj;
	struct scsi_device *sdev;
};
static struct gendisk *disk;	/* one disk is enough here: sda */

static __noinline void disk_release(struct kobject *kobj)
{
	struct gendisk *gd = container_of(kobj, struct gendisk, kobj);

	put_device(&gd->sdev->sdev_gendev);
	kfree(gd);
}

static ssize_t disk_show(struct kobject *kobj, struct attribute *attr, char *buf)
{
	(void)kobj; (void)attr;
	return snprintf(buf, 64, "8:0\n");
}

static const struct sysfs_ops disk_sysfs_ops = { .show = disk_show };
static const struct kobj_type disk_ktype = { .release = disk_release, .sysfs_ops = &disk_sysfs_ops };
static struct attribute disk_dev_attr = { .name = "dev", .mode = 0444 };

static int sd_probe(struct scsi_device *sdev)
{
	disk = kzalloc(sizeof(*disk), "gendisk");
	kobject_init(&disk->kobj, &disk_ktype);
	disk->sdev = sdev;
	get_device(&sdev->sdev_gendev);
	if (kobject_add_at(&disk->kobj, "/sys/block", "sda") == 0) {
		sysfs_create_file(&disk->kobj, &disk_dev_attr);
		sysfs_create_link(&disk->kobj, &sdev->sdev_gendev.kobj, "device");
	}
	return 0;
}

static void sd_remove(struct scsi_device *sdev)
{
	(void)sdev;
	if (!disk)
		return;
	kobject_del(&disk->kobj);
	kobject_put(&disk->kobj);
	disk = NULL;
}

static struct scsi_driver sd_driver = { .name = "sd", .probe = sd_probe, .remove = sd_remove };

static int sd_init(void)
{
	return scsi_register_driver(&sd_driver);
}

static void sd_exit(void)
{
	scsi_unregister_driver(&sd_driver);
}

MODULE_INFO("sd_mod", sd_init, sd_exit, "scsi_mod");
