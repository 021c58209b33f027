/* mutex.h - a sleeping lock with the kernel's names, known to the hung-task watchdog and the scheduler. */
#ifndef KSIM_MUTEX_H
#define KSIM_MUTEX_H

#include <pthread.h>
#include "kernel.h"
#include "lockdep.h"

struct task_struct;

/*
 * struct mutex - one owner at a time; the owner must unlock it.
 *
 * A pthread mutex underneath, so helgrind, drd and ThreadSanitizer see an
 * ordinary lock.  A task that waits for it says so to the watchdog.  Under
 * the controlled scheduler (scheduler.h) taking and giving it back are
 * schedule points, and a task that finds it owned sleeps on it as the
 * scheduler's channel, so a deadlock on mutexes is reported at once.
 * lockdep (lockdep.h) sees every mutex_lock() before it waits: a static
 * mutex is a class of its own, named after its variable ("sysfs_mutex");
 * mutex_init() makes one class of every mutex it initialises, named after
 * its argument ("&drv->lock"), as the kernel's does.
 */
struct mutex {
	pthread_mutex_t lock;
	struct task_struct *owner;	/* changed only by the task that holds lock */
	const char *name;
	struct lockdep_map dep_map;
};

#define DEFINE_MUTEX(m) struct mutex m = { PTHREAD_MUTEX_INITIALIZER, NULL, #m, { NULL, #m, NULL } }

/* mutex_init - one static key per call site: the lock class of every mutex initialised there. */
#define mutex_init(m) do {							\
	static struct lock_class_key __key;					\
	__mutex_init((m), #m, &__key);						\
} while (0)
void __mutex_init(struct mutex *m, const char *name, struct lock_class_key *key);
void mutex_lock(struct mutex *m);
/* mutex_lock_nested - mutex_lock() of a lock nested in one of its own class (lockdep subclass). */
void mutex_lock_nested(struct mutex *m, unsigned int subclass);
void mutex_unlock(struct mutex *m);
/* mutex_is_locked - someone owns it (a hint: it may change the next moment). */
bool mutex_is_locked(struct mutex *m);

#endif
