/* rcu.c - the grace period: one membarrier(2), then wait for each CPU's sections in progress to end. */
#include <linux/membarrier.h>
#include <sched.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "rcu.h"
#include "scheduler.h"

struct rcu_data rcu_data[NR_CPUS + 1];
atomic_ulong rcu_gp_ctr = 1;
atomic_bool rcu_reader_fences;
_Thread_local int rcu_depth;

static int membarrier(int cmd)
{
	return syscall(__NR_membarrier, cmd, 0, 0);
}

/* Before main(): readers must know from their first section whether they fence. */
static void __attribute__((constructor)) rcu_init(void)
{
	if (membarrier(MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED) != 0)
		atomic_store(&rcu_reader_fences, true);
}

/* Is a section that began in grace period c older than grace period gp? */
static bool rcu_older(unsigned long c, unsigned long gp)
{
	return c != 0 && (long)(c - gp) < 0;
}

/*
 * Why one barrier is enough: the new grace-period count is published
 * before the barrier.  After it, a section that began before it has its
 * start visible to us, carrying an older count, so we wait for it; a
 * section that begins after it reads the new count and sees everything we
 * did before the call (percpu_ref_kill()'s switch to atomic mode), so we
 * need not wait for it.  The value that ends our wait (0, or a newer
 * count) was stored with release after the old section's last access, so
 * those accesses are visible to us when we return.
 *
 * And the next grace period: a reader loads the count and stores it in
 * two steps, so it may store a count read before our increment after we
 * looked at its slot (the straggler that broke the first simulated SRCU,
 * srcu.h).  This grace period need not wait for it.  Every later one
 * does: a stamp only grows older, never current again as an SRCU index
 * does, so rcu_older() holds for it against every later count.
 */
void synchronize_rcu(void)
{
	unsigned long gp = atomic_fetch_add(&rcu_gp_ctr, 2) + 2;

	if (!atomic_load(&rcu_reader_fences) && membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED) != 0) {
		/* A forked child is not registered: register, then retry. */
		BUG_ON(membarrier(MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED) != 0 ||
		       membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED) != 0);
	}
	atomic_fetch_add(&rcu_gp_ctr, 0);	/* a full barrier (ThreadSanitizer refuses atomic_thread_fence) */
	for (int cpu = 0; cpu < NR_CPUS; cpu++)
		while (rcu_older(atomic_load_explicit(&rcu_data[cpu].ctr, memory_order_acquire), gp)) {
			sched_point();
			sched_yield();
		}
	/* The shared slot only counts its readers: wait for a moment with none. */
	while (atomic_load(&rcu_data[PERCPU_SHARED].ctr) != 0) {
		sched_point();
		sched_yield();
	}
}
