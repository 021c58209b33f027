/* scsi.h - the SCSI midlayer's objects, as scsi_mod exports them to sd_mod and libata. */
#ifndef KSIM_SCSI_H
#define KSIM_SCSI_H

#include <device.h>

/*
 * A host adapter's driver (libata, for ahci) describes itself with a
 * template.  The template is the driver's data: it lives in the driver
 * module's memory and is unmapped with it.
 */
struct module;
struct Scsi_Host;
struct scsi_host_template {
	const char *name;
	struct module *module;		/* the LLD's module: what scsi_device_get() pins */
	void (*host_release)(struct Scsi_Host *shost);	/* last words of the LLD, may be NULL */
};

/* Scsi_Host - one host adapter: /sys/devices/.../host0. */
struct Scsi_Host {
	struct device shost_gendev;
	const struct scsi_host_template *hostt;
	int host_no;
	struct scsi_device *sdev;	/* one device per host is enough here */
};

/*
 * scsi_target - target0:0:0, between a host and its devices.  It holds
 * its host with a reference of its own (dev.parent = get_device(host)),
 * and is reaped by the release of its last device.
 */
struct scsi_target {
	struct device dev;
};

/*
 * scsi_device - one disk: .../target0:0:0/0:0:0:0, with model, state and
 * delete.  It holds its target with a reference of its own
 * (sdev_gendev.parent = get_device(&starget->dev)), dropped only by its
 * release.
 */
struct scsi_device {
	struct device sdev_gendev;
	struct Scsi_Host *host;
	struct scsi_target *target;
	const char *state;
	bool removed;
};

/* An upper-level driver (sd_mod) binds to each new scsi_device. */
struct scsi_driver {
	const char *name;
	int (*probe)(struct scsi_device *sdev);
	void (*remove)(struct scsi_device *sdev);
};

struct Scsi_Host *scsi_host_alloc(const struct scsi_host_template *sht, struct device *parent);
int scsi_add_host(struct Scsi_Host *shost);
/* scsi_scan_host - find the disk behind the host and register it. */
void scsi_scan_host(struct Scsi_Host *shost);
void scsi_remove_host(struct Scsi_Host *shost);
void scsi_host_put(struct Scsi_Host *shost);
void scsi_remove_device(struct scsi_device *sdev);
int scsi_register_driver(struct scsi_driver *drv);
void scsi_unregister_driver(struct scsi_driver *drv);

#endif
