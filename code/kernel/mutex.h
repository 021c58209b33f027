/* mutex.h - a sleeping lock with the kernel's names, known to the hung-task watchdog and the scheduler. */
#ifndef KSIM_MUTEX_H
#define KSIM_MUTEX_H

#include <pthread.h>
#include "kernel.h"

struct task_struct;

/*
 * struct mutex - one owner at a time; the owner must unlock it.
 *
 * A pthread mutex underneath, so helgrind, drd and ThreadSanitizer see an
 * ordinary lock.  A task that waits for it says so to the watchdog.  Under
 * the controlled scheduler (scheduler.h) taking and giving it back are
 * schedule points, and a task that finds it owned sleeps on it as the
 * scheduler's channel, so a deadlock on mutexes is reported at once.
 */
struct mutex {
	pthread_mutex_t lock;
	struct task_struct *owner;	/* changed only by the task that holds lock */
	const char *name;
};

#define DEFINE_MUTEX(m) struct mutex m = { PTHREAD_MUTEX_INITIALIZER, NULL, #m }

void mutex_init(struct mutex *m, const char *name);
void mutex_lock(struct mutex *m);
void mutex_unlock(struct mutex *m);
/* mutex_is_locked - someone owns it (a hint: it may change the next moment). */
bool mutex_is_locked(struct mutex *m);

#endif
