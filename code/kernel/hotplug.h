/* hotplug.h - simulated hot-plug: "plug mouse0" / "unplug mouse0" in a scenario. */
#ifndef KSIM_HOTPLUG_H
#define KSIM_HOTPLUG_H

#include "kernel.h"

/*
 * A driver module registers a bus handler for device names that start with
 * prefix ("mouse" claims "mouse0", "mouse1"...).  plug() is the device
 * arriving (probe), unplug() the device going away (disconnect): after
 * unplug returns, the hardware is gone and the driver must not touch it.
 */
struct hotplug_bus {
	const char *prefix;
	int (*plug)(const char *devname);
	int (*unplug)(const char *devname);
	struct hotplug_bus *next;
};

void hotplug_register(struct hotplug_bus *bus);
void hotplug_unregister(struct hotplug_bus *bus);
/* 0, -ENODEV if no loaded driver claims the name, or the handler's error. */
int hotplug_plug(const char *devname);
int hotplug_unplug(const char *devname);

#endif
