/* percpu.h - per-CPU variables, where a "CPU" is a slot that one thread owns while it lives. */
#ifndef KSIM_PERCPU_H
#define KSIM_PERCPU_H

#include <stdatomic.h>
#include "kernel.h"

/*
 * The kernel keeps a counter that every CPU updates often in per-CPU
 * memory: each CPU adds to its own copy, on a cache line no other CPU
 * writes, and whoever needs the total sums the copies.  Our tasks are
 * threads, not CPUs, so a "CPU" here is a slot: a thread takes a free one
 * the first time it touches per-CPU data (smp_processor_id()) and gives it
 * back when it ends, leaving the slot's counts where they are for the next
 * owner.  While it owns the slot no other thread writes it, which is what
 * lets this_cpu_add() be a plain load and store instead of a locked
 * instruction.  Past NR_CPUS live threads, the rest share one more slot,
 * PERCPU_SHARED, and update it with atomic instructions: slower, still
 * right.
 *
 * Memory: alloc_percpu(size) returns an offset valid in every slot's area
 * (the kernel's __percpu pointer); per_cpu_ptr(p, cpu) is slot cpu's copy.
 * The areas are PERCPU_AREA bytes apart, so two threads' copies of one
 * variable never share a cache line, and one thread's copies of different
 * variables sit together, as in the kernel.
 */
#define NR_CPUS 64
#define PERCPU_SHARED NR_CPUS		/* the slot of the threads that found none free */
#define PERCPU_AREA 16384		/* bytes of per-CPU memory per slot */
#define SMP_CACHE_BYTES 64

extern char percpu_base[NR_CPUS + 1][PERCPU_AREA];
extern _Thread_local int percpu_this_cpu;
int percpu_claim_cpu(void);
/* percpu_task_end - the calling thread's task has returned: its slot is free again (task.c). */
void percpu_task_end(void);

/* smp_processor_id - this thread's slot (taken on first use); PERCPU_SHARED if none was free. */
static inline int smp_processor_id(void)
{
	int cpu = percpu_this_cpu;

	if (__builtin_expect(cpu < 0, 0))
		cpu = percpu_claim_cpu();
	return cpu;
}

/*
 * alloc_percpu_size - size bytes (zeroed) in every slot's area, aligned to
 * 8; returns the offset, or -ENOMEM (an int, not a pointer: it is only
 * ever used through per_cpu_ptr()).  free_percpu - give it back.
 */
long alloc_percpu_size(size_t size);
void free_percpu(long off);
#define per_cpu_ptr(off, cpu) ((void *)&percpu_base[(cpu)][(off)])

/*
 * this_cpu_add - add v to this thread's copy of the long at off.  Only
 * the slot's owner writes it, so relaxed load and store suffice: a reader
 * summing the copies sees each one whole (they are atomic_long), if not
 * the very latest value.
 */
static inline void this_cpu_add(long off, long v)
{
	int cpu = smp_processor_id();
	atomic_long *p = per_cpu_ptr(off, cpu);

	if (__builtin_expect(cpu == PERCPU_SHARED, 0))
		atomic_fetch_add_explicit(p, v, memory_order_relaxed);
	else
		atomic_store_explicit(p, atomic_load_explicit(p, memory_order_relaxed) + v,
				      memory_order_relaxed);
}

/* percpu_sum - the sum of every slot's copy of the long at off. */
long percpu_sum(long off);

/*
 * struct percpu_counter - a count many threads change and few read
 * (the kernel's lib/percpu_counter.c, without its batching into a
 * central count: percpu_counter_sum() is the only way to read it, and is
 * exact only once the writers have stopped).
 */
struct percpu_counter {
	long counters;		/* the per-CPU longs: an alloc_percpu() offset */
};

int percpu_counter_init(struct percpu_counter *c);
/* DEFINE_PERCPU_COUNTER - a global counter, ready before main() runs. */
#define DEFINE_PERCPU_COUNTER(name)						\
	struct percpu_counter name;						\
	static void __attribute__((constructor)) name##_init(void)		\
	{									\
		BUG_ON(percpu_counter_init(&name) != 0);			\
	}
void percpu_counter_destroy(struct percpu_counter *c);
static inline void percpu_counter_add(struct percpu_counter *c, long v) { this_cpu_add(c->counters, v); }
static inline void percpu_counter_inc(struct percpu_counter *c) { percpu_counter_add(c, 1); }
static inline void percpu_counter_dec(struct percpu_counter *c) { percpu_counter_add(c, -1); }
static inline long percpu_counter_sum(struct percpu_counter *c) { return percpu_sum(c->counters); }

#endif
