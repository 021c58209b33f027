/* revocable.c - a provider that can take its resource away: SRCU for the accesses, a kref for its memory. */
#include <stdio.h>
#include <valgrind/helgrind.h>
#include <exercise.h>
#include <revocable_provider.h>
#include <slab.h>

/*
 * The provider's life, in the order revocable_provider_revoke() keeps:
 *
 *	live		res set; accesses find it; references: the
 *			provider's, each consumer's, each handle's
 *	revoked		res NULL: an access that starts now finds NULL
 *	drained		synchronize_srcu() returned: no access that found
 *			res is still in progress, so the caller may free it
 *	released	the last reference gone: the provider's memory freed
 *
 * Two counts, because two things end at different times: the resource
 * ends at revoke (the driver's remove()), the provider's memory when the
 * last consumer lets go (the last close of an open file).  An access
 * outlives neither: it holds a read-side section, which revoke waits for,
 * inside a handle, which holds a reference.
 */

/* revocable_provider_release - the last reference is gone: free the provider. */
static void revocable_provider_release(struct kref *kref)
{
	struct revocable_provider *rp = container_of(kref, struct revocable_provider, kref);

	trace_event("release", rp->trace_name, NULL);
	cleanup_srcu_struct(&rp->srcu);
	trace_event("free", rp->trace_name, NULL);
	kfree(rp);
}

struct revocable_provider *revocable_provider_alloc(void *res)
{
	static atomic_int next_id;
	struct revocable_provider *rp = kzalloc(sizeof(*rp), "revocable_provider");

	WARN_ON(!res);
	init_srcu_struct(&rp->srcu);
	/*
	 * res is an _Atomic pointer (srcu_dereference(), rcu_assign_pointer()):
	 * helgrind and drd take an atomic load and store for plain ones, and
	 * would report every revoke that meets an access as a race.
	 */
	ANNOTATE_BENIGN_RACE_SIZED(&rp->res, sizeof(rp->res), "atomic: release store, acquire loads");
	atomic_store(&rp->res, res);
	kref_init(&rp->kref);
	snprintf(rp->trace_name, sizeof(rp->trace_name), "revocable:%d", atomic_fetch_add(&next_id, 1) + 1);
	trace_event("create", rp->trace_name, "count=1");
	return rp;
}

/**
 * revocable_provider_revoke - take the resource away from every consumer.
 * @rp: the provider; the caller gives up the reference the provider held
 *
 * Clears the pointer first, so that no access starting from now on finds
 * the resource; then waits for every access in progress, which may have
 * found it before the clear; then drops the provider's reference, which
 * frees the provider if no consumer or handle holds one.  In any other
 * order an access can still be using the resource when the caller frees
 * it, or a handle can be left pointing at freed memory.
 *
 * Context: sleeps; never inside an access of @rp.  Return: nothing.
 */
void revocable_provider_revoke(struct revocable_provider *rp)
{
	trace_event("deactivate", rp->trace_name, NULL);
	TODO("revocable_provider_revoke", "make new accesses find nothing, wait for the accesses already in progress, and only then give up the provider's own reference");
}

struct revocable_provider *revocable_provider_get(struct revocable_provider *rp)
{
	kref_get(&rp->kref);
	trace_event("get", rp->trace_name, "count=%d", kref_read(&rp->kref));
	return rp;
}

void revocable_provider_put(struct revocable_provider *rp)
{
	trace_event("put", rp->trace_name, "count=%d", kref_read(&rp->kref) - 1);
	kref_put(&rp->kref, revocable_provider_release);
}

void revocable_init(struct revocable_provider *rp, struct revocable *rev)
{
	rev->rp = revocable_provider_get(rp);
	rev->idx = -1;	/* no access yet */
}

void revocable_deinit(struct revocable *rev)
{
	revocable_provider_put(rev->rp);
	rev->rp = NULL;
}

/**
 * revocable_try_access - start an access: the resource, if not yet revoked.
 * @rev: the caller's handle, with no access in progress
 *
 * The section begins before the pointer is loaded: a revoke that clears
 * it after the load then waits for this access.  Loaded first, the
 * pointer could be cleared, drained and freed before the section begins.
 * The index goes into @rev, the caller's own storage, for the withdrawal.
 *
 * Context: any task.  Return: the resource, or NULL once revoked; the
 * access must be withdrawn either way.
 */
void *revocable_try_access(struct revocable *rev)
{
	struct revocable_provider *rp = rev->rp;
	void *res;

	TODO("revocable_try_access", "begin a read-side section of the provider, keep its index in the caller's handle, and only then look at the resource pointer");
	(void)rp; res = NULL;
	trace_event(res ? "active_get" : "active_fail", rp->trace_name, "idx=%d", srcu_traced_index(false));
	return res;
}

/**
 * revocable_withdraw_access - end the access that revocable_try_access() began.
 * @rev: the handle of that access
 *
 * Leaves the section with the index its srcu_read_lock() returned: the
 * counter it raised is the one revoke may be waiting on.
 *
 * Context: any task, in an access through @rev.  Return: nothing.
 */
void revocable_withdraw_access(struct revocable *rev)
{
	struct revocable_provider *rp = rev->rp;

	TODO("revocable_withdraw_access", "leave the read-side section that try_access began, with the index it kept, whether or not it found the resource");
	/* After the unlock, to show the index it was given: the handle keeps rp. */
	trace_event("active_put", rp->trace_name, "idx=%d", srcu_traced_index(true));
}
