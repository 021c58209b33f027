/* revocable_provider.h - the provider's insides: what revocable.c and the tests that look into it share. */
#ifndef KSIM_REVOCABLE_PROVIDER_H
#define KSIM_REVOCABLE_PROVIDER_H

#include <kref.h>
#include <srcu.h>
#include <trace.h>
#include <revocable.h>

/*
 * struct revocable_provider - opaque to consumers and providers
 * (revocable.h); its fields are here for revocable.c and for the tests.
 * @srcu: accesses to @res are its read-side sections
 * @res: the resource, NULL once revoked; loaded with srcu_dereference()
 * @kref: the provider's memory: one reference held by the provider until
 *	it revokes, one per consumer and one per handle
 * @trace_name: what traces and reports call it ("revocable:1")
 */
struct revocable_provider {
	struct srcu_struct srcu;
	_Atomic(void *) res;
	struct kref kref;
	char trace_name[TRACE_NAME_LEN];
};

/* revocable_provider_readers - accesses in progress, summed over both indexes (tests and reports). */
static inline int revocable_provider_readers(struct revocable_provider *rp)
{
	return atomic_load(&rp->srcu.srcu_lock_nesting[0].counter) +
	       atomic_load(&rp->srcu.srcu_lock_nesting[1].counter);
}

#endif
