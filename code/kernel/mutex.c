/* mutex.c - struct mutex: a pthread mutex that the watchdog and the controlled scheduler know about. */
#include <stdio.h>
#include "mutex.h"
#include "scheduler.h"
#include "task.h"
#include "watchdog.h"

void __mutex_init(struct mutex *m, const char *name, struct lock_class_key *key)
{
	pthread_mutex_init(&m->lock, NULL);
	m->owner = NULL;
	m->name = name;
	lockdep_init_map(&m->dep_map, name, key, 0);
}

/*
 * Controlled mode: only one task runs, so the owner field alone decides;
 * the pthread mutex is then always free when we take it.  A task that
 * finds the mutex owned sleeps on it until mutex_unlock() wakes it, and
 * tries again (another task may have been chosen first).
 */
static void mutex_lock_controlled(struct mutex *m)
{
	char what[96];

	sched_point();
	while (__atomic_load_n(&m->owner, __ATOMIC_RELAXED)) {
		snprintf(what, sizeof(what), "mutex %s", m->name);
		sched_wait(m, what, false);
	}
	pthread_mutex_lock(&m->lock);
	__atomic_store_n(&m->owner, current, __ATOMIC_RELAXED);
}

static void __mutex_lock(struct mutex *m)
{
	char what[96];

	if (sched_controlled() && current && current->sched_ctl) {
		mutex_lock_controlled(m);
		return;
	}
	if (pthread_mutex_trylock(&m->lock) != 0) {
		snprintf(what, sizeof(what), "mutex %s", m->name);
		sched_block(what);
		pthread_mutex_lock(&m->lock);
		sched_unblock();
	}
	__atomic_store_n(&m->owner, current, __ATOMIC_RELAXED);
}

/* lockdep hears of the lock before the wait: an order that can deadlock is reported, not entered. */
__noinline void mutex_lock(struct mutex *m)
{
	mutex_acquire(&m->dep_map, 0, 0, _RET_IP_);
	__mutex_lock(m);
}

__noinline void mutex_lock_nested(struct mutex *m, unsigned int subclass)
{
	mutex_acquire(&m->dep_map, subclass, 0, _RET_IP_);
	__mutex_lock(m);
}

__noinline void mutex_unlock(struct mutex *m)
{
	mutex_release(&m->dep_map, _RET_IP_);
	BUG_ON(__atomic_load_n(&m->owner, __ATOMIC_RELAXED) != current);
	__atomic_store_n(&m->owner, NULL, __ATOMIC_RELAXED);
	pthread_mutex_unlock(&m->lock);
	if (sched_controlled()) {
		sched_wake(m);
		sched_point();
	}
}

bool mutex_is_locked(struct mutex *m)
{
	return __atomic_load_n(&m->owner, __ATOMIC_RELAXED) != NULL;
}
