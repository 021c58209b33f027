/* module.h - loadable modules as real shared objects, with kernel semantics. */
#ifndef KSIM_MODULE_H
#define KSIM_MODULE_H

#include <stdatomic.h>
#include "kernel.h"

struct ksym_obj;

#define MODULE_NAME_LEN 32
#define MODULE_MAX_DEPS 4

/*
 * struct module - what the loader knows of one loaded NAME.so.
 *
 * refcnt counts try_module_get() references: while it is non-zero, or
 * while another loaded module depends on this one, rmmod refuses with
 * -EBUSY ("Module NAME is in use").  Once rmmod has started (state
 * MODULE_STATE_GOING) try_module_get() fails, as in the kernel.
 */
enum module_state { MODULE_STATE_LIVE, MODULE_STATE_GOING, MODULE_STATE_GONE };

struct module {
	char name[MODULE_NAME_LEN];
	atomic_int refcnt;
	_Atomic enum module_state state;
	void *handle;			/* from dlopen() */
	char *path;			/* the object insmod loaded */
	uintptr_t base, end;		/* the mapped range of the object */
	char trace_name[96];
	struct module *deps[MODULE_MAX_DEPS];
	struct module *next;		/* every module ever loaded, newest first */
	const struct module_info *info;
	struct ksym_obj *ksym;		/* its symbols, kept after rmmod */
};

/*
 * struct module_info - every module defines one, named __this_module_info,
 * with MODULE_INFO() below.  deps names the modules it uses; insmod refuses
 * to load it ("Unknown symbol") unless they are loaded, and they cannot be
 * removed while it is.
 */
struct module_info {
	const char *name;
	int (*init)(void);
	void (*exit)(void);
	const char *deps[MODULE_MAX_DEPS];
	struct module **this_module;	/* where the loader stores THIS_MODULE */
};

/*
 * Every module defines the same two names.  Modules are loaded RTLD_GLOBAL
 * (a later module resolves the functions of an earlier one), so a default
 * visibility __this_module in the second module would bind to the first
 * one's: THIS_MODULE would name the wrong module.  It is hidden, and the
 * loader finds it through __this_module_info.this_module instead.  For the
 * same reason initfn and exitfn should be static: insmod refuses a module
 * whose init resolved to another object's function of the same name.
 * __this_module_info sits in a section of its own, as the kernel's
 * .modinfo does; that also keeps AddressSanitizer from instrumenting it
 * and then reporting every module's copy as an ODR violation.
 */
#define MODULE_INFO(modname, initfn, exitfn, ...) \
	__attribute__((visibility("hidden"))) struct module *__this_module; \
	__attribute__((section(".ksim_modinfo"))) \
	const struct module_info __this_module_info = { \
		.name = modname, .init = initfn, .exit = exitfn, \
		.deps = { __VA_ARGS__ }, .this_module = &__this_module }

/*
 * THIS_MODULE - the struct module of the module being compiled.  The loader
 * sets __this_module before init runs.  Code built into ksim has no module:
 * there it is NULL, and try_module_get(NULL) always succeeds.
 */
#ifdef KSIM_MODULE
extern struct module *__this_module __attribute__((visibility("hidden")));
#define THIS_MODULE (__this_module)
#else
#define THIS_MODULE ((struct module *)0)
#endif

/* module_dir - where insmod looks for NAME.so (set by ksim from its own path). */
void module_set_dir(const char *dir);

/* insmod - load NAME.so, check its deps, run its init. 0 or -errno. */
int insmod(const char *name);
/* rmmod - refuse with -EBUSY while in use; else run exit and unmap the code. */
int rmmod(const char *name);
/* lsmod - print the table the way lsmod(8) does: Module, Size, Used by. */
void lsmod(void);

struct module *find_module(const char *name);
/* module_name_of - the loaded or unloaded module that contains addr, or NULL. */
const char *module_name_of(uintptr_t addr, bool *unloaded);
/* module_trace_name_of - that module's name in the trace ("module:NAME" or "module:NAME#N"), or NULL. */
const char *module_trace_name_of(uintptr_t addr);

/* print_modules - "Modules linked in: ..." and the unloaded ones, for an oops. */
void print_modules(void);

/*
 * try_module_get - pin a module so rmmod refuses; fails (returns false) if
 * the module is already going away.  module_put - drop the pin.
 * The by argument names the holder for the trace (NULL: the current task).
 */
bool try_module_get(struct module *mod);
void module_put(struct module *mod);
int module_refcount(struct module *mod);

/* Holder names for the trace: set around a get/put to say who holds it. */
bool try_module_get_by(struct module *mod, const char *by);
void module_put_by(struct module *mod, const char *by);

#endif
