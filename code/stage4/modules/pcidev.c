/* pcidev.c - the slot driver of stage 4's PCI devices, and eject: a self-removing store in a module, the mistake. */
#include <hotplug.h>
#include <module.h>
#include <pci.h>
#include <sysfs_self.h>

/*
 * The devices, their remove file and their release belong to the PCI
 * core (pci.c), built in.  This module says when devices arrive and
 * leave, and its exit takes every device out.
 *
 * eject_store() is remove_store() written in this module, and it is
 * wrong: once device_remove_file_self() has given the active reference
 * up, no drain waits for this store, and an rmmod in that window unmaps
 * the code it is about to return to (code/scenarios/remove-self-vs-rmmod.ksh
 * writes to both).  A try_module_get(THIS_MODULE) here would not save it:
 * the store would still return into this module after its module_put().
 */
static __noinline ssize_t eject_store(struct device *dev, struct device_attribute *attr,
				      const char *buf, size_t count)
{
	(void)buf;
	get_device(dev);
	if (device_remove_file_self(dev, attr))
		pci_stop_and_remove_bus_device_locked(to_pci_dev(dev));
	put_device(dev);
	return count;
}

static DEVICE_ATTR(eject, 0200, NULL, eject_store);

static int pcidev_plug(const char *devname)
{
	return pci_plug(devname, &dev_attr_eject);
}

static struct hotplug_bus pcidev_bus = { .prefix = "pci", .plug = pcidev_plug, .unplug = pci_unplug };

static int pcidev_init(void)
{
	hotplug_register(&pcidev_bus);
	return 0;
}

static void pcidev_exit(void)
{
	hotplug_unregister(&pcidev_bus);
	pci_unplug_all();
}

MODULE_INFO("pcidev", pcidev_init, pcidev_exit);
