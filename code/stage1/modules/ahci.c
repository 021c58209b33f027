/* ahci.c - the AHCI SATA controller driver: one controller, one disk behind it. */
#include <libata.h>
#include <module.h>
#include <slab.h>

/* The controller, as the PCI layer would give it to us: /sys/devices/0000:00:1f.2. */
static struct device *controller;
static struct Scsi_Host *host;

static __noinline void ahci_controller_release(struct device *dev)
{
	kfree(dev);
}

static int ahci_init(void)
{
	controller = kzalloc(sizeof(*controller), "ahci_controller");
	controller->release = ahci_controller_release;
	device_register(controller, "0000:00:1f.2");
	host = ata_host_register(controller);
	return host ? 0 : -ENODEV;
}

/* The driver goes: remove what it registered.  Whatever userspace still holds stays. */
static void ahci_exit(void)
{
	ata_host_detach(host);
	device_unregister(controller);
}

MODULE_INFO("ahci", ahci_init, ahci_exit, "libata");
