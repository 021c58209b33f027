/* percpu.c - the slots threads own as their "CPU", and the per-CPU memory in each. */
#include <pthread.h>
#include <string.h>
#include "percpu.h"

char percpu_base[NR_CPUS + 1][PERCPU_AREA] __attribute__((aligned(SMP_CACHE_BYTES)));
_Thread_local int percpu_this_cpu = -1;

/*
 * Who owns each slot.  Claimed and given back under a mutex: it happens
 * once per thread, and a mutex is what helgrind and drd understand, so
 * they see the old owner's writes to the slot ordered before the new
 * owner's (a compare-and-swap would be a plain access to them).
 */
static bool cpu_owned[NR_CPUS];
static pthread_mutex_t cpu_lock = PTHREAD_MUTEX_INITIALIZER;
/* Made under cpu_lock by the first claim: helgrind does not see pthread_once() order its readers. */
static pthread_key_t cpu_key;
static bool cpu_key_made;

/*
 * The slot goes back when its thread ends; its counts stay.  The next
 * owner carries on from them: a count is the sum over the slots, whoever
 * wrote each part.
 */
static void cpu_release(void *arg)
{
	int cpu = (int)(intptr_t)arg - 1;

	pthread_mutex_lock(&cpu_lock);
	cpu_owned[cpu] = false;
	pthread_mutex_unlock(&cpu_lock);
	percpu_this_cpu = -1;
}

int percpu_claim_cpu(void)
{
	int cpu;

	pthread_mutex_lock(&cpu_lock);
	if (!cpu_key_made) {
		BUG_ON(pthread_key_create(&cpu_key, cpu_release) != 0);
		cpu_key_made = true;
	}
	for (cpu = 0; cpu < NR_CPUS && cpu_owned[cpu]; cpu++)
		;
	if (cpu < NR_CPUS)
		cpu_owned[cpu] = true;
	pthread_mutex_unlock(&cpu_lock);
	if (cpu < NR_CPUS)
		pthread_setspecific(cpu_key, (void *)(intptr_t)(cpu + 1));
	return percpu_this_cpu = cpu;
}

/* The allocator: one byte per 8-byte unit of an area, 1 where a unit is in use.  Allocation is rare. */
#define PERCPU_UNITS (PERCPU_AREA / 8)
static unsigned char unit_used[PERCPU_UNITS];
static unsigned short unit_len[PERCPU_UNITS];	/* at an allocation's first unit: how many */
static pthread_mutex_t alloc_lock = PTHREAD_MUTEX_INITIALIZER;

long alloc_percpu_size(size_t size)
{
	size_t n = (size + 7) / 8, run = 0;
	long off = -ENOMEM;

	if (n == 0)
		n = 1;
	pthread_mutex_lock(&alloc_lock);
	/* Unit 0 is never handed out, so an offset of 0 means "not allocated". */
	for (size_t u = 1; u < PERCPU_UNITS; u++) {
		run = unit_used[u] ? 0 : run + 1;
		if (run == n) {
			size_t first = u + 1 - n;

			memset(unit_used + first, 1, n);
			unit_len[first] = n;
			off = first * 8;
			for (int cpu = 0; cpu <= NR_CPUS; cpu++)
				memset(per_cpu_ptr(off, cpu), 0, n * 8);
			break;
		}
	}
	pthread_mutex_unlock(&alloc_lock);
	return off;
}

void free_percpu(long off)
{
	size_t first = off / 8;

	BUG_ON(off <= 0 || off % 8 || !unit_len[first]);
	pthread_mutex_lock(&alloc_lock);
	memset(unit_used + first, 0, unit_len[first]);
	unit_len[first] = 0;
	pthread_mutex_unlock(&alloc_lock);
}

long percpu_sum(long off)
{
	long sum = 0;

	for (int cpu = 0; cpu <= NR_CPUS; cpu++)
		sum += atomic_load_explicit((atomic_long *)per_cpu_ptr(off, cpu), memory_order_relaxed);
	return sum;
}

int percpu_counter_init(struct percpu_counter *c)
{
	long off = alloc_percpu_size(sizeof(long));

	if (off < 0)
		return off;
	c->counters = off;
	return 0;
}

void percpu_counter_destroy(struct percpu_counter *c)
{
	free_percpu(c->counters);
	c->counters = 0;
}

/*
 * percpu_task_end - the task on this thread has returned: its slot goes
 * back now, as it would when its thread ended (the thread waits for the
 * next task, task.c, and that task claims a slot of its own).
 */
void percpu_task_end(void)
{
	int cpu = percpu_this_cpu;

	if (cpu < 0)
		return;
	if (cpu < NR_CPUS) {
		pthread_setspecific(cpu_key, NULL);
		cpu_release((void *)(intptr_t)(cpu + 1));
	}
	percpu_this_cpu = -1;
}
