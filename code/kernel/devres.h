/* devres.h - managed resources: what a driver allocates for a device, freed for it after remove(). */
#ifndef KSIM_DEVRES_H
#define KSIM_DEVRES_H

#include "kernel.h"

struct device;

/*
 * A driver that allocates with devm_kzalloc(dev, ...) in probe does not
 * free: the driver core frees every managed resource of dev, newest first,
 * once the driver's remove() has returned (devres_release_all()).  That
 * makes probe's error paths and remove() short, and it fixes the lifetime
 * of the memory to the binding of driver and device: freed at unbind, not
 * when the last user lets go.  An open file whose private_data points into
 * it (cdev.h) outlives it; its next read is a use-after-free, and with the
 * slab's fencing (slab.h) a deterministic one.
 *
 * Differences from the kernel: the kernel keeps a device's resources on a
 * list in struct device (devres_head, under devres_lock).  Here struct
 * device belongs to the stages, and the simulated kernel may not know its
 * layout, so the resources are kept beside it, in one list keyed by the
 * device's address: the same calls and the same order, without a field in
 * every stage's struct device.  Only what the stages use is here: no
 * groups, no devres_find()/devres_remove(), no devm_kfree().
 */

/**
 * devm_kzalloc - zeroed memory that lives until @dev's resources are released.
 * @dev: the device it belongs to
 * @size: how much
 * @name: what a use-after-free report calls it ("mydrv_priv"), as kmalloc's
 *
 * Context: may sleep.  Return: the memory (never NULL, as kmalloc()).
 */
void *devm_kzalloc(struct device *dev, size_t size, const char *name);

/**
 * devm_add_action - call @action(@data) when @dev's resources are released.
 * @dev: the device
 * @action: what undoes a step of probe
 * @data: its argument
 *
 * Context: may sleep.  Return: 0.
 */
int devm_add_action(struct device *dev, void (*action)(void *), void *data);

/**
 * devres_release_all - release every managed resource of @dev, newest first.
 * @dev: the device whose driver's remove() has just returned (or whose
 *	 probe failed)
 *
 * Context: may sleep; no lock a resource's action takes.
 * Return: how many resources were released.
 */
int devres_release_all(struct device *dev);

/* devres_count - how many managed resources @dev has now (tests). */
int devres_count(const struct device *dev);

#endif
