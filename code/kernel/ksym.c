/* ksym.c - a small kallsyms: ELF64 function symbols of ksim and its modules. */
#include <elf.h>
#include <fcntl.h>
#include <link.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <valgrind/helgrind.h>
#include <sys/stat.h>
#include <unistd.h>
#include "ksym.h"
#include "oops.h"

struct ksym {
	uintptr_t start;
	uint32_t size;
	uint32_t name;		/* offset into obj->names */
	int global;		/* prefer the global name of an alias */
};

struct ksym_obj {
	uintptr_t lo, hi;
	struct ksym *syms;
	size_t nsyms;
	char *names;
	char modname[32];	/* "" for ksim itself */
	atomic_bool unloaded;
};

/*
 * Objects are only ever appended, and an entry is complete before nobjs
 * counts it, so the fault handler reads them without a lock.  A reloaded
 * module gets a new entry: the old one still describes the old range.
 */
#define KSYM_MAX_OBJS 256
static struct ksym_obj objs[KSYM_MAX_OBJS];
static atomic_int nobjs;
static pthread_mutex_t ksym_lock = PTHREAD_MUTEX_INITIALIZER;

/*
 * helgrind and drd take atomics for plain accesses: the count itself is
 * a race to them, and what it publishes is unordered.  Tell them both:
 * nobjs is an atomic, and its release store orders the entry it counts
 * before every acquire load that sees it (ksym_add(), ksym_lookup()).
 */
static void __attribute__((constructor)) ksym_annotate(void)
{
	ANNOTATE_BENIGN_RACE_SIZED(&nobjs, sizeof(nobjs), "atomic: release store, acquire loads");
}

static int ksym_cmp(const void *a, const void *b)
{
	const struct ksym *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return y->global - x->global;
}

/* Read the STT_FUNC symbols of an ELF64 file into obj (bias added). */
static int ksym_read_elf(struct ksym_obj *obj, const char *path, uintptr_t bias)
{
	const Elf64_Ehdr *eh;
	const Elf64_Shdr *sh, *symsec = NULL;
	const Elf64_Sym *sym;
	const char *strtab;
	size_t i, n, nsym, namelen = 0, pos = 0;
	struct stat st;
	void *map;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) < 0 || st.st_size < (off_t)sizeof(*eh)) {
		close(fd);
		return -ENOEXEC;
	}
	map = mmap(NULL, st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (map == MAP_FAILED)
		return -ENOMEM;
	eh = map;
	if (memcmp(eh->e_ident, ELFMAG, SELFMAG) || eh->e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh->e_shoff + (size_t)eh->e_shnum * sizeof(*sh) > (size_t)st.st_size)
		goto bad;
	sh = (const Elf64_Shdr *)((const char *)map + eh->e_shoff);
	/* .symtab has the static functions too; a stripped file has only .dynsym. */
	for (i = 0; i < eh->e_shnum; i++)
		if (sh[i].sh_type == SHT_SYMTAB)
			symsec = &sh[i];
	for (i = 0; !symsec && i < eh->e_shnum; i++)
		if (sh[i].sh_type == SHT_DYNSYM)
			symsec = &sh[i];
	if (!symsec || symsec->sh_link >= eh->e_shnum ||
	    symsec->sh_offset + symsec->sh_size > (size_t)st.st_size)
		goto bad;
	sym = (const Elf64_Sym *)((const char *)map + symsec->sh_offset);
	nsym = symsec->sh_size / sizeof(*sym);
	strtab = (const char *)map + sh[symsec->sh_link].sh_offset;

	for (i = 0, n = 0; i < nsym; i++) {
		if (ELF64_ST_TYPE(sym[i].st_info) == STT_FUNC && sym[i].st_shndx != SHN_UNDEF &&
		    sym[i].st_size) {
			n++;
			namelen += strlen(strtab + sym[i].st_name) + 1;
		}
	}
	obj->syms = calloc(n ? n : 1, sizeof(*obj->syms));
	obj->names = malloc(namelen ? namelen : 1);
	if (!obj->syms || !obj->names)
		abort();
	for (i = 0, n = 0; i < nsym; i++) {
		const char *name = strtab + sym[i].st_name;
		size_t len = strlen(name) + 1;

		if (ELF64_ST_TYPE(sym[i].st_info) != STT_FUNC || sym[i].st_shndx == SHN_UNDEF ||
		    !sym[i].st_size)
			continue;
		obj->syms[n].start = bias + sym[i].st_value;
		obj->syms[n].size = sym[i].st_size;
		obj->syms[n].name = pos;
		obj->syms[n].global = ELF64_ST_BIND(sym[i].st_info) != STB_LOCAL;
		memcpy(obj->names + pos, name, len);
		pos += len;
		n++;
	}
	qsort(obj->syms, n, sizeof(*obj->syms), ksym_cmp);
	/* Aliases share an address: keep one name for each. */
	for (i = 0, obj->nsyms = 0; i < n; i++)
		if (!obj->nsyms || obj->syms[obj->nsyms - 1].start != obj->syms[i].start)
			obj->syms[obj->nsyms++] = obj->syms[i];
	munmap(map, st.st_size);
	return 0;
bad:
	munmap(map, st.st_size);
	return -ENOEXEC;
}

static struct ksym_obj *ksym_add(const char *path, const char *modname,
				 uintptr_t bias, uintptr_t lo, uintptr_t hi)
{
	struct ksym_obj *obj = NULL;
	int n;

	pthread_mutex_lock(&ksym_lock);
	n = atomic_load(&nobjs);
	if (n < KSYM_MAX_OBJS) {
		obj = &objs[n];
		memset(obj, 0, sizeof(*obj));
		obj->lo = lo;
		obj->hi = hi;
		snprintf(obj->modname, sizeof(obj->modname), "%s", modname);
		/* Without symbols the object is still named: "0x7f.. [mod]". */
		ksym_read_elf(obj, path, bias);
		ANNOTATE_HAPPENS_BEFORE(&nobjs);
		atomic_store_explicit(&nobjs, n + 1, memory_order_release);
	}
	pthread_mutex_unlock(&ksym_lock);
	return obj;
}

/* The load bias and mapped range of the main executable: the first object. */
static int main_range(struct dl_phdr_info *info, size_t size, void *data)
{
	uintptr_t *r = data;
	int i;

	(void)size;
	r[0] = info->dlpi_addr;
	r[1] = UINTPTR_MAX;
	r[2] = 0;
	for (i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];

		if (ph->p_type != PT_LOAD)
			continue;
		if (info->dlpi_addr + ph->p_vaddr < r[1])
			r[1] = info->dlpi_addr + ph->p_vaddr;
		if (info->dlpi_addr + ph->p_vaddr + ph->p_memsz > r[2])
			r[2] = info->dlpi_addr + ph->p_vaddr + ph->p_memsz;
	}
	return 1;	/* the executable is always first: stop */
}

static void ksym_init_once(void)
{
	uintptr_t r[3];

	dl_iterate_phdr(main_range, r);
	ksym_add("/proc/self/exe", "", r[0], r[1], r[2]);
}

/**
 * ksym_init - read ksim's own function symbols from /proc/self/exe.
 *
 * ksim is a PIE: symbol values are relative to the load bias that
 * dl_iterate_phdr() reports for the first object.  Safe to call twice.
 */
void ksym_init(void)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;

	pthread_once(&once, ksym_init_once);
}

/**
 * ksym_add_module - remember the function symbols of a module just mapped.
 * @path: the file dlopen() loaded
 * @modname: the name to print in brackets
 * @bias: its load bias (link_map l_addr)
 * @lo, @hi: the page-aligned range its segments occupy
 *
 * Called by insmod before the module's init runs, so that a fault in init
 * is already symbolised.  Never freed: see ksym.h.
 */
struct ksym_obj *ksym_add_module(const char *path, const char *modname,
				 uintptr_t bias, uintptr_t lo, uintptr_t hi)
{
	ksym_init();
	return ksym_add(path, modname, bias, lo, hi);
}

/**
 * ksym_mark_unloaded - the module's code has been unmapped by rmmod.
 * @obj: from ksym_add_module(), or NULL
 */
void ksym_mark_unloaded(struct ksym_obj *obj)
{
	if (obj)
		atomic_store(&obj->unloaded, true);
}

/**
 * ksym_lookup - find the object and function that contain @addr.
 * @addr: a code address
 * @hit: filled in on success
 *
 * Newest object first, so a range reused after a failed reservation names
 * the module that is there now.  Lock-free and allocation-free.
 */
bool ksym_lookup(uintptr_t addr, struct ksym_hit *hit)
{
	int i = atomic_load_explicit(&nobjs, memory_order_acquire);

	ANNOTATE_HAPPENS_AFTER(&nobjs);
	while (i-- > 0) {
		const struct ksym_obj *obj = &objs[i];
		size_t lo = 0, hi = obj->nsyms;

		if (addr < obj->lo || addr >= obj->hi)
			continue;
		hit->name = NULL;
		hit->offset = addr - obj->lo;
		hit->size = 0;
		hit->module = obj->modname[0] ? obj->modname : NULL;
		hit->unloaded = atomic_load(&obj->unloaded);
		/* The last symbol starting at or below addr. */
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;

			if (obj->syms[mid].start <= addr)
				lo = mid + 1;
			else
				hi = mid;
		}
		if (lo && addr < obj->syms[lo - 1].start + obj->syms[lo - 1].size) {
			const struct ksym *s = &obj->syms[lo - 1];

			hit->name = obj->names + s->name;
			hit->offset = addr - s->start;
			hit->size = s->size;
		}
		return true;
	}
	return false;
}

/**
 * ksym_is_live_text - @addr lies in a known function of mapped code.
 *
 * What the unwinder accepts as a return address: anything else ends the
 * walk (libc's thread start) or is skipped over while scanning.
 */
bool ksym_is_live_text(uintptr_t addr)
{
	struct ksym_hit hit;

	return ksym_lookup(addr, &hit) && hit.name && !hit.unloaded;
}

/* "func+0xoff/0xlen [mod]"; back=1 looks up a return address (see below). */
static void ksym_format(char *buf, size_t len, uintptr_t addr, int back)
{
	struct ksym_hit hit;
	char mod[48] = "";

	if (!ksym_lookup(addr - back, &hit)) {
		snprintf(buf, len, "0x%lx", (unsigned long)addr);
		return;
	}
	if (hit.module)
		snprintf(mod, sizeof(mod), " [%s%s]", hit.module, hit.unloaded ? ", unloaded" : "");
	if (hit.name)
		snprintf(buf, len, "%s+0x%lx/0x%lx%s", hit.name, (unsigned long)hit.offset + back,
			 (unsigned long)hit.size, mod);
	else
		snprintf(buf, len, "0x%lx%s", (unsigned long)addr, mod);
}

/**
 * sprint_symbol - format a code address the way the kernel's %pS does.
 * @buf, @len: where to write
 * @addr: the address
 *
 * "func+0x1c/0x40" in ksim, "func+0x1c/0x40 [mod]" in a module,
 * "func+0x0/0x40 [mod, unloaded]" in a module that rmmod removed, and the
 * bare "0x7f3a1c2b4020" when no object is known.  Async-signal-safe.
 */
void sprint_symbol(char *buf, size_t len, uintptr_t addr)
{
	ksym_format(buf, len, addr, 0);
}

/**
 * sprint_backtrace - sprint_symbol() for a return address, like %pB.
 *
 * The function is looked up at addr - 1: a call to a __noreturn function
 * can be the last instruction of its caller, and the return address then
 * lies at the start of the next function.
 */
void sprint_backtrace(char *buf, size_t len, uintptr_t addr)
{
	ksym_format(buf, len, addr, 1);
}
