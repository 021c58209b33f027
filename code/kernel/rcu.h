/* rcu.h - just enough RCU for percpu_ref: read-side sections and a grace period. */
#ifndef KSIM_RCU_H
#define KSIM_RCU_H

#include <stdatomic.h>
#include "percpu.h"

/*
 * A read-side section (rcu_read_lock() ... rcu_read_unlock()) may not
 * sleep; synchronize_rcu() returns only once every section that had
 * started when it was called has ended.  The kernel knows a CPU has left
 * its sections when it passes through the scheduler; threads give no such
 * sign, so each "CPU" (percpu.h's slot) marks its sections itself, in a
 * word only its owner writes.
 *
 * The reader pays a store and a compiler barrier, no fence: the fence the
 * ordering needs is issued on the reader's behalf by synchronize_rcu(),
 * with membarrier(2), which makes every running thread of the process
 * execute a full barrier (the trick of liburcu's "memb" flavour).  Readers
 * are cheap, the grace period is expensive: exactly percpu_ref's trade.
 * Where membarrier(2) is missing, the readers fence themselves.
 *
 * Under the controlled scheduler no task stops inside a section (no
 * schedule point may sit in one), so a grace period never waits for a
 * task that cannot run.
 */
struct rcu_data {
	/* 0 outside a section; inside, the grace-period count read at its start (odd, never 0) */
	atomic_ulong ctr;
} __attribute__((aligned(SMP_CACHE_BYTES)));

extern struct rcu_data rcu_data[NR_CPUS + 1];
extern atomic_ulong rcu_gp_ctr;
extern atomic_bool rcu_reader_fences;
extern _Thread_local int rcu_depth;	/* this thread's task's nesting; 0 when a task starts (task.c) */

/*
 * A section records which grace period it began in, not just that it is
 * inside: a grace period then waits only for sections older than itself,
 * and a thread that enters section after section cannot keep it waiting.
 * Threads beyond NR_CPUS share a slot and count themselves in it instead.
 */
static inline void rcu_read_lock(void)
{
	int cpu;

	if (rcu_depth++)
		return;		/* nested: the outer section already counts */
	cpu = smp_processor_id();
	if (__builtin_expect(cpu == PERCPU_SHARED, 0))
		atomic_fetch_add(&rcu_data[cpu].ctr, 1);
	else if (__builtin_expect(atomic_load_explicit(&rcu_reader_fences, memory_order_relaxed), 0))
		/* No membarrier(2): a locked exchange orders the store before our later loads. */
		atomic_exchange(&rcu_data[cpu].ctr, atomic_load_explicit(&rcu_gp_ctr, memory_order_relaxed));
	else
		atomic_store_explicit(&rcu_data[cpu].ctr,
				      atomic_load_explicit(&rcu_gp_ctr, memory_order_relaxed),
				      memory_order_release);
	atomic_signal_fence(memory_order_seq_cst);	/* the compiler keeps the section inside */
}

/* Release: what the section did is seen by a grace period that sees it ended. */
static inline void rcu_read_unlock(void)
{
	int cpu;

	if (--rcu_depth)
		return;
	cpu = smp_processor_id();
	if (__builtin_expect(cpu == PERCPU_SHARED, 0))
		atomic_fetch_sub(&rcu_data[cpu].ctr, 1);
	else
		atomic_store_explicit(&rcu_data[cpu].ctr, 0, memory_order_release);
}

/* synchronize_rcu - wait until every read-side section in progress has ended.  Sleeps. */
void synchronize_rcu(void);

#endif
