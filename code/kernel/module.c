/* module.c - insmod, rmmod and module references, on top of dlopen(). */
#include <dlfcn.h>
#include <limits.h>
#include <link.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <valgrind/helgrind.h>
#include "mutex.h"
#include "ksym.h"
#include "module.h"
#include "task.h"
#include "trace.h"

/*
 * Every module ever loaded, newest first.  Entries are never unlinked nor
 * freed: an unloaded module stays as MODULE_STATE_GONE so that an oops can
 * still name it, and a stale struct module pointer stays safe to pass to
 * try_module_get() (which then fails).  So readers walk the list without a
 * lock - the fault handler among them, which may run on a task that holds
 * module_mutex (a fault in a module's init).  module_mutex only serialises
 * insmod and rmmod against each other.
 */
static struct module *_Atomic modules;
static DEFINE_MUTEX(module_mutex);
static char module_dir[PATH_MAX];
/* The most recently unloaded module, for "[last unloaded: NAME]". */
static struct module *_Atomic last_unloaded;

/*
 * refcnt is the number of references while the module is live, and -1
 * once rmmod has stopped it: try_module_get() only ever increments a
 * non-negative count, so "refcnt was 0, rmmod set -1" and "get made it 1"
 * cannot both happen (the kernel's try_stop_module() does the same with a
 * bias).
 */
#define MODULE_REF_STOPPED (-1)

/*
 * helgrind and drd take atomics for plain accesses, so the list head and
 * last_unloaded look like races to them; they are atomics (the ordering
 * of what they publish is annotated in module_publish()/modules_first()).
 */
static void __attribute__((constructor)) module_annotate(void)
{
	ANNOTATE_BENIGN_RACE_SIZED(&modules, sizeof(modules), "atomic list head");
	ANNOTATE_BENIGN_RACE_SIZED(&last_unloaded, sizeof(last_unloaded), "atomic");
}

static struct module *modules_first(void)
{
	struct module *mod = atomic_load_explicit(&modules, memory_order_acquire);

	/* Pairs with the HAPPENS_BEFORE in module_publish(), for helgrind/drd. */
	ANNOTATE_HAPPENS_AFTER(&modules);
	return mod;
}

static void module_publish(struct module *mod)
{
	mod->next = atomic_load(&modules);
	ANNOTATE_HAPPENS_BEFORE(&modules);
	atomic_store_explicit(&modules, mod, memory_order_release);
}

static bool module_gone(const struct module *mod)
{
	return atomic_load(&mod->state) == MODULE_STATE_GONE;
}

/**
 * module_set_dir - where insmod looks for NAME.so.
 * @dir: a directory; ksim passes its own, tests pass build/stage0
 */
void module_set_dir(const char *dir)
{
	mutex_lock(&module_mutex);
	snprintf(module_dir, sizeof(module_dir), "%s", dir);
	mutex_unlock(&module_mutex);
}

/**
 * find_module - the loaded module called @name, or NULL.
 *
 * Lock-free (see modules above); the result stays valid memory forever.
 */
struct module *find_module(const char *name)
{
	struct module *mod;

	for (mod = modules_first(); mod; mod = mod->next)
		if (!module_gone(mod) && strcmp(mod->name, name) == 0)
			return mod;
	return NULL;
}

/* module_at - the loaded or unloaded module whose mapped range holds addr. */
static struct module *module_at(uintptr_t addr)
{
	struct module *mod;

	for (mod = modules_first(); mod; mod = mod->next)
		if (addr >= mod->base && addr < mod->end)
			return mod;
	return NULL;
}

/**
 * module_name_of - the module whose mapped range holds @addr.
 * @addr: any address (code or static data of a module)
 * @unloaded: if not NULL, set to whether that module has been removed
 *
 * Returns its name, or NULL for ksim's own code and unknown addresses.
 * Lock-free and allocation-free: usable from the fault handler.
 */
const char *module_name_of(uintptr_t addr, bool *unloaded)
{
	struct module *mod = module_at(addr);

	if (unloaded)
		*unloaded = mod && module_gone(mod);
	return mod ? mod->name : NULL;
}

/*
 * module_trace_name_of - the trace's name for that same module.  A module
 * loaded twice is two objects in the trace ("module:pcidev" and
 * "module:pcidev#2"), and a reference or an oops must name the one whose
 * range holds @addr.  Lock-free, like module_name_of().
 */
const char *module_trace_name_of(uintptr_t addr)
{
	struct module *mod = module_at(addr);

	return mod ? mod->trace_name : NULL;
}

/*
 * holder_name - who holds a module reference, for the trace: @by, else
 * the holder the current task has set (trace_by()), else the task.  So a
 * plain try_module_get() inside a work item or a file's operation is
 * charged to the work item or the file, as the _by() variants are.
 */
static const char *holder_name(const char *by)
{
	return by ? by : trace_by();
}

/**
 * try_module_get_by - take a reference on @mod unless it is going away.
 * @mod: the module, or NULL for code built into ksim (always succeeds)
 * @by: who holds the reference, for the trace; NULL: the current task
 *
 * Fails once rmmod has begun, as in the kernel: the caller must then not
 * call into the module.
 */
bool try_module_get_by(struct module *mod, const char *by)
{
	int v;

	if (!mod)
		return true;
	v = atomic_load(&mod->refcnt);
	do {
		if (v < 0)
			return false;
	} while (!atomic_compare_exchange_weak(&mod->refcnt, &v, v + 1));
	trace_event("mod_get", mod->trace_name, "count=%d by=%s", v + 1, holder_name(by));
	return true;
}

/**
 * module_put_by - drop a reference taken with try_module_get_by().
 * @mod: the module, or NULL (nothing to do)
 * @by: the holder, as given to the get
 *
 * Dropping a reference nobody holds is a BUG: it would let rmmod unmap
 * code that the real holder is still running.
 */
void module_put_by(struct module *mod, const char *by)
{
	int v;

	if (!mod)
		return;
	/*
	 * Tell helgrind/drd that everything this task did with the module
	 * happens before an rmmod that sees the count reach zero.
	 */
	ANNOTATE_HAPPENS_BEFORE(&mod->refcnt);
	v = atomic_fetch_sub(&mod->refcnt, 1) - 1;
	BUG_ON(v < 0);
	trace_event("mod_put", mod->trace_name, "count=%d by=%s", v, holder_name(by));
}

/**
 * try_module_get - take a reference on @mod, held by the current task
 * (or by the holder it has set with trace_by_set(), in the trace).
 */
bool try_module_get(struct module *mod)
{
	return try_module_get_by(mod, NULL);
}

/**
 * module_put - drop a reference held by the current task (or its trace_by()).
 */
void module_put(struct module *mod)
{
	module_put_by(mod, NULL);
}

/**
 * module_refcount - the references held on @mod (0 once it is stopped).
 */
int module_refcount(struct module *mod)
{
	int v;

	if (!mod)
		return 0;
	v = atomic_load(&mod->refcnt);
	return v < 0 ? 0 : v;
}

/* "scsi_mod", "scsi_mod.ko", "dir/scsi_mod.so" all name module scsi_mod. */
static int module_basename(const char *arg, char *name)
{
	const char *base = strrchr(arg, '/');
	size_t len;

	base = base ? base + 1 : arg;
	len = strcspn(base, ".");
	if (!len || len >= MODULE_NAME_LEN)
		return -EINVAL;
	memcpy(name, base, len);
	name[len] = '\0';
	return 0;
}

struct range_query {
	uintptr_t bias;
	const char *path;
	uintptr_t lo, hi;
};

/* Find the loaded object by its bias and path; take the span of its PT_LOADs. */
static int range_of(struct dl_phdr_info *info, size_t size, void *data)
{
	struct range_query *q = data;
	uintptr_t page = sysconf(_SC_PAGESIZE);
	int i;

	(void)size;
	if (info->dlpi_addr != q->bias || !info->dlpi_name || strcmp(info->dlpi_name, q->path))
		return 0;
	q->lo = UINTPTR_MAX;
	q->hi = 0;
	for (i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		uintptr_t lo = info->dlpi_addr + ph->p_vaddr;

		if (ph->p_type != PT_LOAD)
			continue;
		if (lo < q->lo)
			q->lo = lo & ~(page - 1);
		if (lo + ph->p_memsz > q->hi)
			q->hi = (lo + ph->p_memsz + page - 1) & ~(page - 1);
	}
	return 1;
}

/* Is any page of [lo, hi) still mapped?  mincore() fails ENOMEM on a hole. */
static bool range_mapped(uintptr_t lo, uintptr_t hi)
{
	uintptr_t page = sysconf(_SC_PAGESIZE), a;
	unsigned char vec;

	for (a = lo; a < hi; a += page)
		if (mincore((void *)a, page, &vec) == 0)
			return true;
	return false;
}

/* Map [lo, hi) PROT_NONE if nothing is there; false if something was. */
static bool reserve(uintptr_t lo, uintptr_t hi)
{
	void *p = mmap((void *)lo, hi - lo, PROT_NONE,
		       MAP_FIXED_NOREPLACE | MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);

	if (p == (void *)lo)
		return true;
	if (p != MAP_FAILED)	/* a kernel or tool that took the flag as a hint */
		munmap(p, hi - lo);
	return false;
}

/*
 * module_unmap - dlclose the module and fence off its range.
 *
 * dlclose() really unmaps the code, but the next dlopen() would happily
 * map another module at the same address: a stale pointer into the old
 * module would then silently run the new module's code.  Reserving the
 * range PROT_NONE (for the rest of the run) makes every stale call or
 * access fault, and the oops can name the unloaded module.  The range is
 * checked to be really unmapped first: an object pinned in memory
 * (RTLD_NODELETE, -z nodelete) must not be covered up.
 */
/* dl_iterate_phdr() callback: is the object named data still loaded? */
static int loaded_as(struct dl_phdr_info *info, size_t size, void *data)
{
	(void)size;
	return info->dlpi_name && strcmp(info->dlpi_name, data) == 0;
}

static void module_unmap(struct module *mod)
{
	uintptr_t page = sysconf(_SC_PAGESIZE), a;

	if (dlclose(mod->handle) != 0)
		printk("rmmod: %s: dlclose: %s", mod->name, dlerror());
	mod->handle = NULL;
	/*
	 * Still loaded?  Ask the dynamic loader, not the address space: a
	 * thread stack or a malloc arena of another task may already have
	 * been mapped into part of the freed range.  Its list of objects, not
	 * dlopen(RTLD_NOLOAD): the loader's own string compares read past the
	 * end of short strings into the next heap block, and drd took such a
	 * read, in the stage 3 stress test, for a race with that block's free.
	 */
	if (dl_iterate_phdr(loaded_as, (void *)mod->path)) {
		printk("rmmod: %s: still loaded after dlclose (RTLD_NODELETE?): "
		       "stale calls will not fault", mod->name);
		return;
	}
	if (reserve(mod->base, mod->end))
		return;
	/* Some other mapping slipped in meanwhile: fence what is still free. */
	for (a = mod->base; a < mod->end; a += page)
		if (!range_mapped(a, a + page))
			reserve(a, a + page);
}

/*
 * Drop the references a module holds on the modules it uses.  deps[] is
 * left as it is: lock-free readers may be looking at it, and a GONE module
 * holds nobody anyway.
 */
static void module_put_deps(struct module *mod)
{
	int i;

	for (i = 0; i < MODULE_MAX_DEPS; i++)
		if (mod->deps[i])
			module_put_by(mod->deps[i], mod->trace_name);
}

/*
 * Take a reference on each module mod->info names in deps, as the kernel's
 * ref_module() does for each module whose symbols it uses: lsmod counts
 * them.  Called before mod is published.  0 or -ENOENT.
 */
static int module_get_deps(struct module *mod)
{
	int i;

	for (i = 0; i < MODULE_MAX_DEPS && mod->info->deps[i]; i++) {
		struct module *dep = find_module(mod->info->deps[i]);

		if (!dep || !try_module_get_by(dep, mod->trace_name)) {
			printk("%s: Unknown symbol in module %s (err %d): module not loaded",
			       mod->name, mod->info->deps[i], -ENOENT);
			module_put_deps(mod);
			memset(mod->deps, 0, sizeof(mod->deps));
			return -ENOENT;
		}
		mod->deps[i] = dep;
	}
	return 0;
}

/* Stop a module that will not run again and unmap it. */
static void module_remove(struct module *mod)
{
	module_put_deps(mod);
	module_unmap(mod);
	ksym_mark_unloaded(mod->ksym);
	atomic_store(&mod->state, MODULE_STATE_GONE);
}

static int insmod_error(const char *arg, int err)
{
	const char *why = err == -ENOENT ? "Unknown symbol in module" :
			  err == -ENOEXEC ? "Invalid module format" : strerror(-err);

	printk("insmod: ERROR: could not insert module %s: %s", arg, why);
	return err;
}

/* dlopen failed: say which symbol was missing, as the kernel log would. */
static int insmod_dlerror(const char *name, const char *arg)
{
	const char *err = dlerror();
	const char *sym = err ? strstr(err, "undefined symbol: ") : NULL;

	if (!sym) {
		printk("%s: %s", name, err ? err : "cannot load");
		return insmod_error(arg, -ENOEXEC);
	}
	printk("%s: Unknown symbol %s (err %d)", name, sym + strlen("undefined symbol: "), -ENOENT);
	return insmod_error(arg, -ENOENT);
}

/* Load the object, find its info and range; the module is not yet published. */
static int module_map(struct module *mod, const char *path, const char *arg)
{
	struct link_map *lm;
	struct range_query q = { 0 };

	mod->handle = dlopen(path, RTLD_NOW | RTLD_GLOBAL);
	if (!mod->handle)
		return insmod_dlerror(mod->name, arg);
	mod->info = dlsym(mod->handle, "__this_module_info");
	if (!mod->info || !mod->info->this_module ||
	    dlinfo(mod->handle, RTLD_DI_LINKMAP, &lm) != 0)
		goto bad;
	q.bias = lm->l_addr;
	q.path = lm->l_name;
	if (!dl_iterate_phdr(range_of, &q))
		goto bad;
	mod->base = q.lo;
	mod->end = q.hi;
	/* A non-static init or exit may have bound to an earlier module's. */
	if ((mod->info->init && ((uintptr_t)mod->info->init < mod->base ||
				 (uintptr_t)mod->info->init >= mod->end)) ||
	    (mod->info->exit && ((uintptr_t)mod->info->exit < mod->base ||
				 (uintptr_t)mod->info->exit >= mod->end))) {
		printk("%s: init/exit resolve to another module's function: make them static",
		       mod->name);
		goto bad;
	}
	mod->ksym = ksym_add_module(path, mod->name, q.bias, q.lo, q.hi);
	mod->path = strdup(path);	/* kept with the module, like its symbols */
	return 0;
bad:
	dlclose(mod->handle);
	mod->handle = NULL;
	return insmod_error(arg, -ENOEXEC);
}

/**
 * insmod - load module NAME from the module directory and run its init.
 * @arg: "NAME", "NAME.ko" or "NAME.so" (a directory part is ignored)
 *
 * Like the kernel: the module's symbols become visible to later modules
 * (RTLD_GLOBAL), each module it names in deps gets a reference held by it,
 * and an init that fails unloads it again.  Errors are printed the way
 * insmod(8) prints them.  Returns 0 or -errno.
 */
int insmod(const char *arg)
{
	char name[MODULE_NAME_LEN], path[PATH_MAX + MODULE_NAME_LEN + 8];
	struct module *mod;
	int ret;

	ksym_init();
	if (module_basename(arg, name))
		return insmod_error(arg, -EINVAL);
	mutex_lock(&module_mutex);
	if (!module_dir[0])
		snprintf(module_dir, sizeof(module_dir), "%s",
			 getenv("KSIM_MODULE_DIR") ? getenv("KSIM_MODULE_DIR") : ".");
	snprintf(path, sizeof(path), "%s/%s.so", module_dir, name);
	if (find_module(name)) {
		ret = insmod_error(arg, -EEXIST);
		goto out;
	}
	if (access(path, R_OK) != 0) {
		printk("insmod: ERROR: could not load module %s: No such file or directory", arg);
		ret = -ENOENT;
		goto out;
	}
	mod = calloc(1, sizeof(*mod));
	if (!mod)
		abort();
	snprintf(mod->name, sizeof(mod->name), "%s", name);
	ret = module_map(mod, path, arg);
	if (ret) {
		free(mod);
		goto out;
	}
	trace_name(mod->trace_name, sizeof(mod->trace_name), "module", name);
	*mod->info->this_module = mod;
	atomic_init(&mod->refcnt, 0);
	atomic_init(&mod->state, MODULE_STATE_LIVE);
	ret = module_get_deps(mod);
	if (ret) {
		/* Never published, never ran: nobody can hold a pointer into it. */
		module_unmap(mod);
		ksym_mark_unloaded(mod->ksym);
		free(mod);
		insmod_error(arg, ret);
		goto out;
	}
	/* Published before init runs: a fault in init names the module. */
	module_publish(mod);
	if (mod->info->init && (ret = mod->info->init()) != 0) {
		insmod_error(arg, ret);
		atomic_store(&mod->refcnt, MODULE_REF_STOPPED);
		atomic_store(&mod->state, MODULE_STATE_GOING);
		module_remove(mod);
		goto out;
	}
	trace_event("mod_load", mod->trace_name, NULL);
out:
	mutex_unlock(&module_mutex);
	return ret;
}

/* The live modules that use mod, comma separated ("" if none); count them. */
static int module_holders(struct module *mod, char *buf, size_t len)
{
	struct module *m;
	size_t pos = 0;
	int i, n = 0;

	buf[0] = '\0';
	for (m = modules_first(); m; m = m->next) {
		if (module_gone(m))
			continue;
		for (i = 0; i < MODULE_MAX_DEPS; i++) {
			if (m->deps[i] == mod && pos < len) {
				pos += snprintf(buf + pos, len - pos, "%s%s", n++ ? "," : "", m->name);
				break;
			}
		}
	}
	return n;
}

/**
 * rmmod - run a module's exit and unmap its code.
 * @arg: "NAME" (or "NAME.ko")
 *
 * Refuses with -EBUSY while another module uses it ("in use by: B") or
 * anyone holds a reference ("in use"); -ENOENT if it is not loaded.
 * From the moment rmmod commits, try_module_get() on it fails.  After
 * exit returns the object is dlclose()d and its range fenced off, so a
 * call through a pointer someone kept into it faults.
 */
int rmmod(const char *arg)
{
	char name[MODULE_NAME_LEN], holders[128];
	struct module *mod;
	int zero = 0, ret = 0;

	if (module_basename(arg, name)) {
		printk("rmmod: ERROR: Module %s is not currently loaded", arg);
		return -ENOENT;
	}
	mutex_lock(&module_mutex);
	mod = find_module(name);
	if (!mod) {
		printk("rmmod: ERROR: Module %s is not currently loaded", name);
		ret = -ENOENT;
		goto out;
	}
	if (module_holders(mod, holders, sizeof(holders))) {
		printk("rmmod: ERROR: Module %s is in use by: %s", name, holders);
		ret = -EBUSY;
		goto out;
	}
	if (!atomic_compare_exchange_strong(&mod->refcnt, &zero, MODULE_REF_STOPPED)) {
		printk("rmmod: ERROR: Module %s is in use", name);
		ret = -EBUSY;
		goto out;
	}
	/* Every module_put() before the count reached zero happened before us. */
	ANNOTATE_HAPPENS_AFTER(&mod->refcnt);
	atomic_store(&mod->state, MODULE_STATE_GOING);
	if (mod->info->exit)
		mod->info->exit();
	module_remove(mod);
	atomic_store(&last_unloaded, mod);
	trace_event("mod_unload", mod->trace_name, NULL);
out:
	mutex_unlock(&module_mutex);
	return ret;
}

/**
 * lsmod - print the loaded modules as lsmod(8) does, newest first.
 *
 * Size is the mapped range; "Used by" is the reference count, then the
 * modules that depend on this one.
 */
void lsmod(void)
{
	struct module *mod;
	char holders[128];

	printf("Module                  Size  Used by\n");
	for (mod = modules_first(); mod; mod = mod->next) {
		if (module_gone(mod))
			continue;
		module_holders(mod, holders, sizeof(holders));
		printf("%-19s %8lu  %d%s%s\n", mod->name, (unsigned long)(mod->end - mod->base),
		       module_refcount(mod), holders[0] ? " " : "", holders);
	}
	fflush(stdout);
}

/**
 * print_modules - the module lines of an oops report.
 *
 *	Modules linked in: sd_mod [last unloaded: scsi_mod]
 *	Unloaded modules: scsi_mod libata
 *
 * Lock-free, no allocation: called from the fault handler.
 */
void print_modules(void)
{
	struct module *mod, *m, *last = atomic_load(&last_unloaded);
	char buf[512];
	size_t pos;

	pos = snprintf(buf, sizeof(buf), "Modules linked in:");
	for (mod = modules_first(); mod; mod = mod->next)
		if (!module_gone(mod) && pos < sizeof(buf))
			pos += snprintf(buf + pos, sizeof(buf) - pos, " %s", mod->name);
	if (last && pos < sizeof(buf))
		snprintf(buf + pos, sizeof(buf) - pos, " [last unloaded: %s]", last->name);
	printk("%s", buf);
	if (!last)
		return;
	pos = snprintf(buf, sizeof(buf), "Unloaded modules:");
	for (mod = modules_first(); mod; mod = mod->next) {
		if (!module_gone(mod))
			continue;
		/* A module loaded and unloaded twice is listed once. */
		for (m = modules_first(); m != mod; m = m->next)
			if (module_gone(m) && strcmp(m->name, mod->name) == 0)
				break;
		if (m == mod && pos < sizeof(buf))
			pos += snprintf(buf + pos, sizeof(buf) - pos, " %s", mod->name);
	}
	printk("%s", buf);
}
