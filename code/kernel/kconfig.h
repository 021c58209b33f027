/* kconfig.h - debug options of the simulated kernel, switched on per run as a Kconfig option would be per build. */
#ifndef KSIM_KCONFIG_H
#define KSIM_KCONFIG_H

#include "kernel.h"

/*
 * CONFIG_DEBUG_KOBJECT_RELEASE - the last kobject_put() does not clean up
 * at once: it queues the cleanup (release() and the parent's put) to run
 * later on a kworker.  A driver that frees the memory embedding a kobject
 * without waiting for release() is then caught, because the late cleanup
 * reads that memory.  lib/kobject.c waits 1 to 4 seconds, at random; we
 * wait the shortest of those, always, so that two runs give the same trace.
 */
extern bool config_debug_kobject_release;
#define DEBUG_KOBJECT_RELEASE_DELAY_MS 1000

/* kconfig_set - turn option NAME (without "CONFIG_") on or off; -ENOENT if unknown. */
int kconfig_set(const char *name, bool on);
bool kconfig_known(const char *name);
/* kconfig_reset - every option off (tests). */
void kconfig_reset(void);

#endif
