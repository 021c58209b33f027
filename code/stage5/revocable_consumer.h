/* revocable_consumer.h - a consumer of a revocable resource, as an open file of a driver's device is one. */
#ifndef KSIM_REVOCABLE_CONSUMER_H
#define KSIM_REVOCABLE_CONSUMER_H

#include <revocable.h>

/*
 * struct revocable_consumer - what an open file keeps of its driver's
 * resource: the provider, with a reference of its own, taken at open and
 * dropped at release, so the pointer stays valid however long the file
 * stays open.  Each call is one access, with its own handle on the
 * caller's stack, so tasks that call through the same consumer at once
 * (two threads reading one open file) never share a read index.
 *
 * Opaque: its layout is revocable_consumer.c's, where the two designs the
 * kernel got wrong differ from this one (tests/stage5/mistakes).
 */
struct revocable_consumer;

/**
 * revocable_consumer_open - a consumer of @rp's resource (an open file).
 * @rp: a provider the caller holds a reference to, revoked or not
 *
 * Context: may sleep.  Return: the consumer (never NULL, as kmalloc()).
 */
struct revocable_consumer *revocable_consumer_open(struct revocable_provider *rp);

/**
 * revocable_consumer_call - run @op on the resource, if it is still there.
 * @c: the consumer
 * @op: what to do with the resource (a read, an ioctl); may sleep
 * @arg: passed to @op
 *
 * Context: any task, any number at once on one consumer.  Return: what
 * @op returned, or -ENODEV once the resource has been revoked.
 */
int revocable_consumer_call(struct revocable_consumer *c, int (*op)(void *res, void *arg), void *arg);

/**
 * revocable_consumer_release - the consumer is done (the last close).
 * @c: the consumer; no call through it in progress
 *
 * Context: any task.  Return: nothing.
 */
void revocable_consumer_release(struct revocable_consumer *c);

#endif
