/* libata.h - what libata exports to the ATA controller drivers (ahci). */
#ifndef KSIM_LIBATA_H
#define KSIM_LIBATA_H

#include <scsi.h>

/* ata_host_register - a SCSI host for the controller, scanned: sda appears. */
struct Scsi_Host *ata_host_register(struct device *controller);
/* ata_host_detach - the controller goes: remove its host and its disk. */
void ata_host_detach(struct Scsi_Host *shost);

#endif
