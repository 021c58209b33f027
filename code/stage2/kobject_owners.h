/* kobject_owners.h - which modules the last put of a kobject depends on (stage 2's first exercise). */
#ifndef KSIM_KOBJECT_OWNERS_H
#define KSIM_KOBJECT_OWNERS_H

#include <kobject.h>

/**
 * kobject_owners - the modules whose code the last kobject_put() on @kobj
 * may run, or whose data it may read.
 * @kobj: a registered kobject (its parents are then registered too)
 * @mods: filled with module names, each once, nearest first
 * @max: room in @mods
 *
 * The last put runs @kobj's release, then drops @kobj's reference on its
 * parent, which may be the parent's last, and so on up to the root: so
 * every ancestor's release counts.  Code and data built into ksim belong
 * to no module and are not listed.  Returns how many names it wrote.
 */
int kobject_owners(const struct kobject *kobj, const char **mods, int max);

#endif
