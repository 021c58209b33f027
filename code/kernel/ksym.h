/* ksym.h - kallsyms for ksim: function symbols of ksim and of every module. */
#ifndef KSIM_KSYM_H
#define KSIM_KSYM_H

#include "kernel.h"

/*
 * The symbol tables are read from the ELF files when an object is loaded
 * (ksim itself at start-up, a module at insmod) and are never freed: a
 * module's table outlives its rmmod, so an oops can still name the function
 * of an unloaded module that a stale pointer led to.
 *
 * Lookups take no lock and allocate nothing: they are made from the fault
 * handler, possibly on a task that faulted while holding any lock.
 */
struct ksym_obj;

/* ksym_init - read ksim's own symbols (idempotent; call before any fault). */
void ksym_init(void);

/*
 * ksym_add_module - read the STT_FUNC symbols of the module file at path,
 * mapped with load bias bias over [lo, hi).  modname is the name an oops
 * prints in brackets.  NULL if the table is full or the file unreadable.
 */
struct ksym_obj *ksym_add_module(const char *path, const char *modname,
				 uintptr_t bias, uintptr_t lo, uintptr_t hi);
/* ksym_mark_unloaded - its code is gone: print it as "[NAME, unloaded]". */
void ksym_mark_unloaded(struct ksym_obj *obj);

/* struct ksym_hit - what ksym_lookup() found for an address. */
struct ksym_hit {
	const char *name;	/* function, or NULL when only the object is known */
	uintptr_t offset, size;
	const char *module;	/* NULL for ksim itself */
	bool unloaded;
};

/* ksym_lookup - the object and function holding addr; false if neither. */
bool ksym_lookup(uintptr_t addr, struct ksym_hit *hit);
/* ksym_is_live_text - addr is inside a known function whose code is mapped. */
bool ksym_is_live_text(uintptr_t addr);

/* sprint_backtrace - sprint_symbol() for a return address (the kernel's %pB). */
void sprint_backtrace(char *buf, size_t len, uintptr_t addr);

#endif
