/* revocable_consumer.c - an open file's side of revocable: a provider reference per file, a handle per call. */
#include <revocable_consumer.h>
#include <slab.h>

struct revocable_consumer {
	struct revocable_provider *rp;	/* with the consumer's own reference */
};

struct revocable_consumer *revocable_consumer_open(struct revocable_provider *rp)
{
	struct revocable_consumer *c = kzalloc(sizeof(*c), "revocable_consumer");

	c->rp = revocable_provider_get(rp);
	return c;
}

/*
 * The handle lives on this call's stack: the read index in it is this
 * task's, whatever other task calls through @c at the same time.
 */
int revocable_consumer_call(struct revocable_consumer *c, int (*op)(void *res, void *arg), void *arg)
{
	struct revocable rev;
	void *res;
	int ret;

	revocable_init(c->rp, &rev);
	res = revocable_try_access(&rev);
	ret = res ? op(res, arg) : -ENODEV;
	revocable_withdraw_access(&rev);
	revocable_deinit(&rev);
	return ret;
}

void revocable_consumer_release(struct revocable_consumer *c)
{
	revocable_provider_put(c->rp);
	kfree(c);
}
