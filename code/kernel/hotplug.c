/* hotplug.c - route "plug DEV" / "unplug DEV" to the driver that claims DEV. */
#include <pthread.h>
#include <string.h>
#include "mutex.h"
#include "hotplug.h"

static DEFINE_MUTEX(hotplug_lock);
static struct hotplug_bus *buses;

void hotplug_register(struct hotplug_bus *bus)
{
	mutex_lock(&hotplug_lock);
	bus->next = buses;
	buses = bus;
	mutex_unlock(&hotplug_lock);
}

void hotplug_unregister(struct hotplug_bus *bus)
{
	struct hotplug_bus **pp;

	mutex_lock(&hotplug_lock);
	for (pp = &buses; *pp; pp = &(*pp)->next) {
		if (*pp == bus) {
			*pp = bus->next;
			break;
		}
	}
	mutex_unlock(&hotplug_lock);
}

static struct hotplug_bus *hotplug_find(const char *devname)
{
	struct hotplug_bus *bus;

	mutex_lock(&hotplug_lock);
	for (bus = buses; bus; bus = bus->next)
		if (strncmp(devname, bus->prefix, strlen(bus->prefix)) == 0)
			break;
	mutex_unlock(&hotplug_lock);
	return bus;
}

/*
 * The handlers run without hotplug_lock: a driver's unplug may sleep, and
 * the scenario shell is the only task that plugs, so the bus cannot be
 * unregistered under us.
 */
int hotplug_plug(const char *devname)
{
	struct hotplug_bus *bus = hotplug_find(devname);

	return bus ? bus->plug(devname) : -ENODEV;
}

int hotplug_unplug(const char *devname)
{
	struct hotplug_bus *bus = hotplug_find(devname);

	return bus ? bus->unplug(devname) : -ENODEV;
}
