/* libata.c - the ATA library: turns an ATA controller into a SCSI host. */
#include <stdio.h>
#include <libata.h>
#include <module.h>
#include <slab.h>

static __noinline void ata_host_release(struct Scsi_Host *shost)
{
	printk("ata%d: host released", shost->host_no + 1);
}

/*
 * The SCSI host template of every ATA host.  It is libata's data: when
 * libata is unloaded, this memory is unmapped, and a Scsi_Host that still
 * exists keeps pointing at it.  Not const: .module is THIS_MODULE, which
 * the kernel writes into the initialiser and our loader knows only once
 * the module is mapped, so ata_init() fills it in.
 */
static struct scsi_host_template ata_sht = {
	.name = "ahci",
	.host_release = ata_host_release,
};

struct Scsi_Host *ata_host_register(struct device *controller)
{
	struct Scsi_Host *shost = scsi_host_alloc(&ata_sht, controller);

	if (scsi_add_host(shost)) {
		scsi_host_put(shost);
		return NULL;
	}
	scsi_scan_host(shost);
	return shost;
}

void ata_host_detach(struct Scsi_Host *shost)
{
	scsi_remove_host(shost);
	scsi_host_put(shost);
}

static int ata_init(void)
{
	ata_sht.module = THIS_MODULE;
	return 0;
}

static void ata_exit(void)
{
}

MODULE_INFO("libata", ata_init, ata_exit, "scsi_mod");
