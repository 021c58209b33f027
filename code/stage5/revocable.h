/* revocable.h - a resource its provider can take away while consumers still point at it. */
#ifndef KSIM_REVOCABLE_H
#define KSIM_REVOCABLE_H

/*
 * A driver's remove() frees what its open files still point at (devres.h,
 * cdev.h).  Revocable puts one object between them: the provider (the
 * driver) allocates a struct revocable_provider that points at the
 * resource, consumers (an open file) keep a pointer to the provider, and
 * at remove() the provider revokes it.  The two counters of sysfs come
 * back under other names:
 *
 *	the provider's kref	keeps the provider's memory, as s_count
 *				keeps a sysfs_dirent's: the provider holds
 *				one until it revokes, each consumer one
 *				(revocable_provider_get()), each handle one
 *	its srcu_struct		guards access to the resource, as s_active
 *				does: revocable_try_access() is a read-side
 *				section, revocable_provider_revoke() clears
 *				the resource pointer and waits for the
 *				sections in progress (synchronize_srcu())
 *
 * An access goes through a struct revocable, the consumer's handle: it
 * holds the read-side index that the withdrawal must hand back.  The index
 * belongs to one access by one task, so the handle is the caller's own
 * storage, on its stack, one per access:
 *
 *	struct revocable rev;
 *	struct foo *res;
 *
 *	revocable_init(rp, &rev);
 *	res = revocable_try_access(&rev);
 *	if (res)
 *		...use res...
 *	revocable_withdraw_access(&rev);	(NULL or not)
 *	revocable_deinit(&rev);
 *
 * A handle kept in an object that several tasks use (revocable as first
 * merged allocated one per consumer, with revocable_alloc()) lets one
 * task's try_access overwrite another's index, and synchronize_srcu() in
 * revoke then waits for ever.
 *
 * Three rules the calls below cannot check:
 *
 *	the last put sleeps	whoever drops the last reference (a put, a
 *				deinit, the revoke) frees the provider and
 *				its SRCU domain: the kernel's
 *				cleanup_srcu_struct() flushes the domain's
 *				work, so that caller must be allowed to
 *				sleep (no spinlock, no interrupt handler)
 *	a sleeping access	an access may sleep, and revoke waits for
 *	holds the revoke	it: one that waits for an event (a read
 *				waiting for input) keeps remove() in
 *				synchronize_srcu() until something wakes
 *				it, so a driver wakes its sleepers before
 *				it revokes
 *	no device_lock()	the kernel's remove() runs under the
 *	inside an access	device's device_lock()
 *				(device_release_driver_internal()); an
 *				access that takes that lock waits for the
 *				remove() that waits for the access
 *
 * What an access costs: the handle's reference is an atomic increment and
 * decrement of the provider's kref, one cache line that every task using
 * the provider writes, on top of the SRCU read-side section and of the
 * file's own reference.
 *
 * Differences from the kernel: revocable was merged into the driver
 * core's next tree for Linux 7.0 (commit 62eb557580eb), never into a
 * release, and reverted there.  The calls here keep its names and the shape its fix for
 * the shared index gave them (the handle in the caller's storage,
 * revocable_init() and revocable_deinit()), with the provider first, as
 * in its later versions; there is no devm_ form and no scoped-guard
 * macro; allocation never fails (slab.h).
 */

struct revocable_provider;	/* kref for its memory (like s_count), SRCU for access to res (like s_active) */

/*
 * struct revocable - one access's handle: the CALLER's storage, one per
 * access, never shared between tasks.
 * @rp: the provider, with a reference that revocable_init() took
 * @idx: the SRCU read index of the access in progress (-1 before the first)
 */
struct revocable {
	struct revocable_provider *rp;
	int idx;
};

/**
 * revocable_provider_alloc - a provider for @res, holding its own reference.
 * @res: the resource consumers reach through it (not NULL)
 *
 * Context: may sleep.  Return: the provider (never NULL, as kmalloc()).
 */
struct revocable_provider *revocable_provider_alloc(void *res);

/**
 * revocable_provider_revoke - take the resource away from every consumer.
 * @rp: the provider; the caller gives up the reference the provider held
 *
 * After it returns no access sees the resource (revocable_try_access()
 * gives NULL) and none that saw it is still in progress, so the caller
 * may free the resource.  The provider's memory lives on while consumers
 * or handles hold references to it.
 *
 * Context: sleeps (waits for accesses in progress, and frees the provider
 * if its reference was the last); never inside an access of @rp, which
 * would wait for itself.  Return: nothing.
 */
void revocable_provider_revoke(struct revocable_provider *rp);

/**
 * revocable_provider_get - a consumer's reference to the provider's memory.
 * @rp: a provider the caller already holds a reference to
 *
 * What a consumer that keeps the pointer (an open file's private_data)
 * takes when it copies it; a copy without one dangles once the provider
 * is revoked and the last reference goes.
 *
 * Context: any task, never sleeps.  Return: @rp.
 */
struct revocable_provider *revocable_provider_get(struct revocable_provider *rp);

/**
 * revocable_provider_put - drop a reference revocable_provider_get() took.
 * @rp: the provider; the last reference frees it
 *
 * Context: may sleep: the last put frees the provider's SRCU domain
 * (cleanup_srcu_struct()).  Return: nothing.
 */
void revocable_provider_put(struct revocable_provider *rp);

/**
 * revocable_init - set up the caller's handle @rev for accesses to @rp.
 * @rp: a provider the caller holds a reference to (revoked or not)
 * @rev: the caller's storage, used by this task only
 *
 * Takes a reference to @rp for the handle.
 *
 * Context: any task, never sleeps.  Return: nothing.
 */
void revocable_init(struct revocable_provider *rp, struct revocable *rev);

/**
 * revocable_deinit - the handle is done: drop its reference.
 * @rev: a handle with no access in progress
 *
 * The handle's reference may be the provider's last (the provider revoked,
 * the file closed meanwhile), and then this frees it.
 *
 * Context: may sleep, as revocable_provider_put().  Return: nothing.
 */
void revocable_deinit(struct revocable *rev);

/**
 * revocable_try_access - start an access: the resource, if not yet revoked.
 * @rev: the caller's handle, with no access in progress
 *
 * Enters a read-side section of the provider and keeps its index in @rev.
 * The access must be withdrawn (revocable_withdraw_access()) either way,
 * NULL or not: until then revoke waits for it.
 *
 * Context: any task; the access may sleep, but must not revoke its own
 * provider.  Return: the resource, or NULL once it has been revoked.
 */
void *revocable_try_access(struct revocable *rev);

/**
 * revocable_withdraw_access - end the access that revocable_try_access() began.
 * @rev: the handle of that access
 *
 * After it returns the caller must not touch the resource.
 *
 * Context: any task, in an access through @rev.  Return: nothing.
 */
void revocable_withdraw_access(struct revocable *rev);

#endif
