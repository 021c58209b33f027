/* slab.h - kmalloc and kfree, with freed memory poisoned and fenced off. */
#ifndef KSIM_SLAB_H
#define KSIM_SLAB_H

#include "kernel.h"

/*
 * kmalloc - allocate size bytes for an object of the simulated kernel.
 * name is what a use-after-free report calls the object ("mouse_priv").
 *
 * In a native build each object gets pages of its own.  kfree() fills it
 * with POISON_FREE and then makes its pages inaccessible, keeping the
 * address range reserved for a while (a quarantine, like KFENCE/KASAN), so
 * a later read or write through a stale pointer faults at once and the
 * fault handler reports "BUG: use-after-free" naming the object, the task
 * that freed it and the size (exit status 3) instead of reading garbage.
 *
 * Under Valgrind (detected at run time) and in sanitizer builds the
 * objects come from malloc()/free() instead, so memcheck, helgrind, drd and
 * the sanitizers see the allocation and the free and name the block.
 *
 * Never returns NULL: the model has no memory pressure to simulate, so
 * every call behaves as one with the kernel's __GFP_NOFAIL, and no caller
 * checks for NULL.  Should the host itself run out, the run ends with a
 * BUG (exit status 3) naming the object.
 *
 * Differences from the kernel: a kernel kmalloc() without __GFP_NOFAIL
 * may return NULL, and its callers must handle that.
 */
void *kmalloc(size_t size, const char *name);
void *kzalloc(size_t size, const char *name);
void kfree(const void *p);

#define POISON_FREE 0x6b

/*
 * slab_lookup_freed - if addr lies in a quarantined (freed) object, fill in
 * its name, size, start and the task that freed it and return true.  Called
 * from the fault handler: must not allocate or take locks that a faulting
 * task could hold.
 */
bool slab_lookup_freed(uintptr_t addr, const char **name, size_t *size,
		       uintptr_t *start, const char **freed_by);

/* slab_live_objects - objects allocated and not yet freed (leak checks in tests). */
long slab_live_objects(void);

#endif
