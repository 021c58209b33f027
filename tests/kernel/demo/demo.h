/* demo.h - the demo stage's tiny file system, for modules that test the scenario runner. */
#ifndef KSIM_DEMO_H
#define KSIM_DEMO_H

#include "kernel.h"

struct module;

/*
 * A flat registry of files: a module registers "/sys/demo/value" with a
 * show (read) and a store (write) method, and the directories /sys and
 * /sys/demo exist because a file path runs through them.
 *
 * The lifetime rules are those of the finished design (stage 3), kept as
 * small as they go, because here they are a fixture, not the lesson:
 *  - an open file pins its owner module (so rmmod says "in use"), and
 *    keeps the entry's memory until it is closed;
 *  - every show/store runs under an active count; unregistering waits for
 *    the operations in flight and makes later ones fail with -ENODEV;
 *  - so a store that unregisters its own file waits for itself forever,
 *    and the hung-task watchdog reports it.
 */
typedef ssize_t (*demo_show_t)(void *data, char *buf, size_t len);
typedef ssize_t (*demo_store_t)(void *data, const char *buf, size_t len);

/* demo_file_register - 0, -EEXIST, or -EINVAL for a path that is not absolute. */
int demo_file_register(const char *path, struct module *owner, demo_show_t show,
		       demo_store_t store, void *data);
/* demo_file_unregister - remove it; waits until no show/store of it is running. */
void demo_file_unregister(const char *path);

/* The delay point the demo module's slow store passes. */
#define DEMO_SLOW_POINT "demo_slow_store"

#endif
