/* slab.c - kmalloc/kfree: poison on free, then fence the memory off (a quarantine). */
#include <malloc.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <valgrind/valgrind.h>
#include "oops.h"
#include "scheduler.h"
#include "slab.h"
#include "task.h"
#include "trace.h"

/*
 * Native builds give every object pages of its own:
 *
 *	[ header page | ...object pages, object flush against the end ]
 *
 * kfree() poisons the object, then makes its pages PROT_NONE and keeps
 * the range reserved in a quarantine ring.  A stale pointer therefore
 * faults on its first access, and the fault handler asks
 * slab_lookup_freed() what was there.  Only when the ring wraps is the
 * oldest range unmapped and its addresses can be reused.  The header page
 * stays readable and says which ring slot holds the object, so that
 * kfree() tells a double free at once instead of searching the whole ring
 * on every free (which cost the schedule explorer a tenth of its time).
 *
 * Valgrind and AddressSanitizer track malloc()/free() themselves and report
 * a use-after-free far better than a bare fault, so under them we get out
 * of their way and use malloc()/free() directly.  (ThreadSanitizer and
 * UBSan do not look for a use-after-free: there the fencing stays.)
 */
#define QUARANTINE 4096
#define FREE_STACK 16		/* frames of the free kept for a double-free report */

struct slab_header {
	unsigned long magic;
	size_t size;		/* what was asked for */
	size_t map_len;		/* header page + object pages */
	char name[32];
	unsigned int slot;	/* freed: its quarantine slot */
};
#define SLAB_MAGIC 0x5ab1ab1eUL
#define SLAB_FREED 0xf7eed0b7UL	/* the magic once kfree() has fenced the object */

struct freed_object {
	_Atomic uintptr_t start;	/* 0: slot empty; published last */
	uintptr_t map;
	size_t map_len, size;
	char name[32];
	char freed_by[TASK_COMM_LEN + 12];
	uintptr_t free_stack[FREE_STACK];	/* where it was freed */
	int free_n;
};

static struct freed_object quarantine[QUARANTINE];
static unsigned int quarantine_next;	/* under slab_lock */
static pthread_mutex_t slab_lock = PTHREAD_MUTEX_INITIALIZER;
static atomic_long live_objects;
static size_t page_size;

static bool slab_use_malloc(void)
{
#ifdef KSIM_SLAB_MALLOC
	return true;
#else
	return RUNNING_ON_VALGRIND;
#endif
}

static size_t round_up(size_t n, size_t to)
{
	return (n + to - 1) / to * to;
}

/* kmalloc_failed - the host is out of memory: the model cannot go on (slab.h). */
static __noreturn void kmalloc_failed(size_t size, const char *name)
{
	printk("kmalloc: no memory for %s (%zu bytes): the host is out of memory", name, size);
	BUG();
}

void *kmalloc(size_t size, const char *name)
{
	struct slab_header *h;
	size_t obj_len, map_len;
	char *map;

	atomic_fetch_add(&live_objects, 1);
	if (slab_use_malloc()) {
		map = malloc(size ? size : 1);
		if (!map)
			kmalloc_failed(size, name);
		return map;
	}
	if (!page_size)
		page_size = sysconf(_SC_PAGESIZE);
	obj_len = round_up(size ? size : 1, page_size);
	map_len = page_size + obj_len;
	map = mmap(NULL, map_len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (map == MAP_FAILED)
		kmalloc_failed(size, name);
	h = (struct slab_header *)map;
	h->magic = SLAB_MAGIC;
	h->size = size;
	h->map_len = map_len;
	snprintf(h->name, sizeof(h->name), "%s", name);
	/* Flush against the end (16-byte aligned): an overrun faults too. */
	return map + map_len - round_up(size ? size : 1, 16);
}

void *kzalloc(size_t size, const char *name)
{
	void *p = kmalloc(size, name);

	memset(p, 0, size);
	return p;
}

static struct freed_object *quarantine_find(uintptr_t addr)
{
	for (unsigned int i = 0; i < QUARANTINE; i++) {
		struct freed_object *f = &quarantine[i];
		uintptr_t start = atomic_load(&f->start);

		if (start && addr >= f->map && addr < f->map + f->map_len)
			return f;
	}
	return NULL;
}

void kfree(const void *p)
{
	struct slab_header *h;
	struct freed_object *f;
	uintptr_t obj = (uintptr_t)p;
	char *map;

	sched_point();	/* a free is where another task's stale pointer starts to hurt */
	if (!p)
		return;
	atomic_fetch_sub(&live_objects, 1);
	if (slab_use_malloc()) {
		/*
		 * No poison here: the tool reports the stale access itself, and a
		 * poisoning memset() inside libc would be the access helgrind
		 * reports first, then hides under its suppressions for libc.
		 */
		trace_free_range(p, malloc_usable_size((void *)p));
		free((void *)p);
		return;
	}
	pthread_mutex_lock(&slab_lock);
	/*
	 * The object starts in the page after the header (it is flush against
	 * the end of pages rounded up from its size).  kfree() of a fenced
	 * object would fault on the poisoning below: say what it is instead.
	 */
	map = (char *)((obj & ~(page_size - 1)) - page_size);
	h = (struct slab_header *)map;
	if (h->magic == SLAB_FREED) {
		f = &quarantine[h->slot];
		BUG_ON(atomic_load(&f->start) != obj);
		pthread_mutex_unlock(&slab_lock);
		oops_double_free(obj, f->name, f->size, f->freed_by, f->free_stack, f->free_n);
	}
	BUG_ON(h->magic != SLAB_MAGIC);		/* not from kmalloc() */
	trace_free_range(p, h->size);
	memset((void *)p, POISON_FREE, h->size);

	f = &quarantine[quarantine_next];
	h->slot = quarantine_next;
	quarantine_next = (quarantine_next + 1) % QUARANTINE;
	if (atomic_load(&f->start)) {
		/* The ring wrapped: the oldest freed range may now be reused. */
		atomic_store(&f->start, 0);
		munmap((void *)f->map, f->map_len);
	}
	f->map = (uintptr_t)map;
	f->map_len = h->map_len;
	f->size = h->size;
	memcpy(f->name, h->name, sizeof(f->name));
	snprintf(f->freed_by, sizeof(f->freed_by), "%s", current ? current->tag : "?");
	f->free_n = stack_trace_save(f->free_stack, FREE_STACK);
	h->magic = SLAB_FREED;
	mprotect(map + page_size, h->map_len - page_size, PROT_NONE);
	atomic_store(&f->start, obj);
	pthread_mutex_unlock(&slab_lock);
}

bool slab_lookup_freed(uintptr_t addr, const char **name, size_t *size,
		       uintptr_t *start, const char **freed_by)
{
	struct freed_object *f = quarantine_find(addr);

	if (!f)
		return false;
	*name = f->name;
	*size = f->size;
	*start = atomic_load(&f->start);
	*freed_by = f->freed_by;
	return true;
}

long slab_live_objects(void)
{
	return atomic_load(&live_objects);
}
