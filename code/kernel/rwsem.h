/* rwsem.h - reader/writer semaphore with the kernel's semantics. */
#ifndef KSIM_RWSEM_H
#define KSIM_RWSEM_H

#include <pthread.h>
#include "kernel.h"
#include "lockdep.h"

/*
 * struct rw_semaphore - many readers or one writer.
 *
 * Kernel semantics that a plain pthread_rwlock_t does not give (glibc's
 * default prefers readers):
 *  - a writer that is waiting blocks new readers: down_read_trylock()
 *    fails as soon as any writer holds *or waits for* the semaphore;
 *  - there is no owner: up_read() may run on a task other than the one
 *    that did down_read() (the kernel allows that with the _non_owner
 *    variants; sysfs never needs it but we do not forbid it).
 *
 * Every sleep is registered with the hung-task watchdog under name, so a
 * deadlock ends the run with a report saying which semaphore it waits on.
 * lockdep sees each down before it waits, and a down_read_trylock() that
 * succeeded; the class is one per init_rwsem() call site, named after its
 * argument ("&sd->s_active"), whatever name the instance has.
 */
struct rw_semaphore {
	pthread_mutex_t lock;
	pthread_cond_t wait;
	int readers;		/* active readers */
	bool writer;		/* a writer holds it */
	int writers_waiting;
	char name[96];
	struct lockdep_map dep_map;
};

/* init_rwsem - name is the instance's, for the watchdog; the lock class is the call site's. */
#define init_rwsem(sem, name) do {						\
	static struct lock_class_key __key;					\
	__init_rwsem((sem), (name), #sem, &__key);				\
} while (0)
void __init_rwsem(struct rw_semaphore *sem, const char *name, const char *class_name,
		  struct lock_class_key *key);
/* destroy_rwsem - the semaphore must not be held by a reader (a writer may hold it). */
void destroy_rwsem(struct rw_semaphore *sem);
void down_read(struct rw_semaphore *sem);
/* down_read_trylock - 1 if taken, 0 if a writer holds or waits for it. */
int down_read_trylock(struct rw_semaphore *sem);
void up_read(struct rw_semaphore *sem);
void down_write(struct rw_semaphore *sem);
void up_write(struct rw_semaphore *sem);
/* The *_nested() forms: a semaphore nested in one of its own class (lockdep subclass). */
void down_read_nested(struct rw_semaphore *sem, unsigned int subclass);
void down_write_nested(struct rw_semaphore *sem, unsigned int subclass);

#endif
