/* pci.h - stage 4's PCI core: devices /sys/devices/pciN whose "remove" file removes them from inside its own store(). */
#ifndef KSIM_PCI_H
#define KSIM_PCI_H

#include <stdbool.h>
#include <device.h>

/*
 * Built into ksim, as drivers/pci is built into the kernel, and that is
 * the point: once remove_store() has given its active reference up,
 * nothing stops the module that plugged the device from being unloaded,
 * so the code the store still runs must not be in one (see pcidev's
 * eject, which is).  The slot driver (modules/pcidev.c) only says when
 * devices arrive and leave.
 */
struct pci_dev {
	struct device dev;
	int nr;
};

#define PCI_DEV_MAX 4
#define to_pci_dev(d) container_of(d, struct pci_dev, dev)

/*
 * "pciN" arrives: register it with the core's files (vendor, remove) and
 * driver_attr, the slot driver's own file, if not NULL.  0, -EINVAL or -EEXIST.
 */
int pci_plug(const char *devname, struct device_attribute *driver_attr);
/* "pciN" leaves: 0, or -ENODEV if it is not there (a remove got there first). */
int pci_unplug(const char *devname);
/* Every device leaves (the slot driver's exit). */
void pci_unplug_all(void);
/*
 * Take pdev out, if nobody has yet: what a self-removing store calls once
 * its node is gone.  The kernel's function of that name only takes the
 * lock and removes; the "if nobody has yet" is ours, because here several
 * remove writers, an unplug and the slot driver's exit race for one device.
 */
void pci_stop_and_remove_bus_device_locked(struct pci_dev *pdev);
/*
 * The "recover" file (pci.c): a store that removes its device with
 * SCSI's and s390's break-by-hand pattern.  Not in every device: pass it
 * to pci_plug() as driver_attr to give a device one.
 */
extern struct device_attribute dev_attr_recover;

#endif
