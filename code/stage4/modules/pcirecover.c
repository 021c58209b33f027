/* pcirecover.c - a slot driver whose PCI devices get the recover file: the break-by-hand store. */
#include <hotplug.h>
#include <module.h>
#include <pci.h>

/*
 * pcidev's twin (modules/pcidev.c), for scenarios that remove a device
 * through recover_store() (pci.c, built in) instead of remove_store():
 * each device it plugs has the core's vendor and remove files and
 * recover.  Load one of the two: both claim the names "pciN".
 */
static int pcirecover_plug(const char *devname)
{
	return pci_plug(devname, &dev_attr_recover);
}

static struct hotplug_bus pcirecover_bus = { .prefix = "pci", .plug = pcirecover_plug, .unplug = pci_unplug };

static int pcirecover_init(void)
{
	hotplug_register(&pcirecover_bus);
	return 0;
}

static void pcirecover_exit(void)
{
	hotplug_unregister(&pcirecover_bus);
	pci_unplug_all();
}

MODULE_INFO("pcirecover", pcirecover_init, pcirecover_exit);
