/* revocable_harness.h - a provider, its resource and its consumers, rebuilt for every run of an explorer harness. */
#ifndef KTEST_REVOCABLE_HARNESS_H
#define KTEST_REVOCABLE_HARNESS_H

#include <stdatomic.h>
#include "explore.h"
#include "oops.h"
#include "task.h"
#include <revocable_consumer.h>
#include <revocable_provider.h>
#include <slab.h>

/*
 * The resource is what a driver's remove() frees: instead of kfree(),
 * the remover marks it dead once revocable_provider_revoke() has
 * returned, so that an access that still uses it fails an assertion that
 * names the protocol's functions, not a fault somewhere in the consumer.
 * The harness's own flags are plain C11 atomics: they observe the
 * protocol and are no schedule points.
 */
#define RES_ALIVE 0x5a5a
#define RES_DEAD 0x6b6b

struct res {
	atomic_int magic;
};

static struct res *res;
static struct revocable_provider *rp;
static struct revocable_consumer *consumer;	/* one open file, shared by the consumer tasks */
static atomic_bool revoke_returned;
static atomic_int using;		/* accesses between finding the resource and withdrawing */
static atomic_int found, refused;	/* accesses that found the resource, and that got NULL */
static long live_before;		/* slab objects before the run's own */

static void boot_once(void)
{
	static bool booted;

	if (!booted) {
		task_init_main("test");
		oops_init();
	}
	booted = true;
}

/* Every run: a live resource, its provider, one consumer holding it open. */
static void fresh_provider(void)
{
	live_before = slab_live_objects();
	res = kzalloc(sizeof(*res), "revocable_res");
	atomic_store(&res->magic, RES_ALIVE);
	rp = revocable_provider_alloc(res);
	consumer = revocable_consumer_open(rp);
	atomic_store(&revoke_returned, false);
	atomic_store(&using, 0);
	atomic_store(&found, 0);
	atomic_store(&refused, 0);
}

/* use_res - a consumer's operation on the resource: the claims, checked at both ends of it. */
static int use_res(void *p, void *arg)
{
	struct res *r = p;

	(void)arg;
	explore_assert(r == res, "revocable_try_access() returned %p, not the provider's resource %p", p, (void *)res);
	explore_assert(!atomic_load(&revoke_returned),
		       "revocable_try_access() gave the resource to an access that began after "
		       "revocable_provider_revoke() had returned (the driver may have freed it)");
	atomic_fetch_add(&using, 1);
	explore_assert(atomic_load(&r->magic) == RES_ALIVE, "an access reads a resource already freed");
	sched_point();	/* the operation's work: a read, an ioctl */
	explore_assert(atomic_load(&r->magic) == RES_ALIVE,
		       "the resource was freed during an access, between revocable_try_access() and "
		       "revocable_withdraw_access()");
	atomic_fetch_sub(&using, 1);
	atomic_fetch_add(&found, 1);
	return 0;
}

/* consumer_call - one access through the shared consumer; -ENODEV once revoked. */
static void consumer_call(void)
{
	int ret = revocable_consumer_call(consumer, use_res, NULL);

	explore_assert(ret == 0 || ret == -ENODEV, "a call returned %d", ret);
	if (ret == -ENODEV)
		atomic_fetch_add(&refused, 1);
}

/* The driver's remove(): revoke, then free what the provider pointed at. */
static void *remover_main(void *arg)
{
	(void)arg;
	revocable_provider_revoke(rp);
	atomic_store(&revoke_returned, true);
	explore_assert(atomic_load(&using) == 0,
		       "revocable_provider_revoke() returned while %d access(es) that found the resource "
		       "were still in progress (between revocable_try_access() and revocable_withdraw_access())",
		       atomic_load(&using));
	atomic_store(&res->magic, RES_DEAD);	/* kfree(res), as devres would */
	return NULL;
}

/* Every access withdrawn, whether it found the resource or not, and the resource gone for good. */
static void assert_drained(void)
{
	int left = revocable_provider_readers(rp);

	explore_assert(left == 0,
		       "%d access(es) still counted in the provider's SRCU after every task ended: "
		       "revocable_withdraw_access() must leave the section revocable_try_access() "
		       "entered, with its index, on the NULL path too", left);
	explore_assert(atomic_load(&rp->res) == NULL,
		       "the provider still points at its resource after revocable_provider_revoke()");
}

/* After the consumer's last close: nothing of the run is left (the provider freed, not leaked). */
static void assert_all_freed(void)
{
	long left = slab_live_objects() - live_before - 1;	/* the resource itself is the remover's */

	explore_assert(left == 0,
		       "%ld object(s) of the run still allocated after revoke and the last close: "
		       "revocable_provider_revoke() must drop the provider's own reference (kref_put)", left);
}

#endif
