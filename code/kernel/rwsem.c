/* rwsem.c - reader/writer semaphore: waiting writers shut out new readers. */
#include <stdio.h>
#include "rwsem.h"
#include "scheduler.h"
#include "watchdog.h"

/*
 * Built from a mutex and a condition variable rather than pthread_rwlock_t:
 * glibc's rwlock prefers readers by default, so a trylock would succeed
 * while a writer waits, and sysfs deletion relies on the opposite.  Helgrind
 * and drd understand the mutex, so they see every handoff.
 */
void __init_rwsem(struct rw_semaphore *sem, const char *name, const char *class_name,
		  struct lock_class_key *key)
{
	pthread_mutex_init(&sem->lock, NULL);
	pthread_cond_init(&sem->wait, NULL);
	sem->readers = 0;
	sem->writer = false;
	sem->writers_waiting = 0;
	snprintf(sem->name, sizeof(sem->name), "%s", name);
	lockdep_init_map(&sem->dep_map, class_name, key, 0);
}

void destroy_rwsem(struct rw_semaphore *sem)
{
	BUG_ON(sem->readers != 0);
	pthread_cond_destroy(&sem->wait);
	pthread_mutex_destroy(&sem->lock);
}

static void __down_read(struct rw_semaphore *sem)
{
	char what[128];

	sched_point();
	pthread_mutex_lock(&sem->lock);
	if (sem->writer || sem->writers_waiting) {
		snprintf(what, sizeof(what), "down_read %s", sem->name);
		sched_block(what);
		while (sem->writer || sem->writers_waiting)
			sched_cond_wait(&sem->wait, &sem->lock, what);
		sched_unblock();
	}
	sem->readers++;
	pthread_mutex_unlock(&sem->lock);
}

__noinline void down_read(struct rw_semaphore *sem)
{
	rwsem_acquire_read(&sem->dep_map, 0, 0, _RET_IP_);
	__down_read(sem);
}

__noinline void down_read_nested(struct rw_semaphore *sem, unsigned int subclass)
{
	rwsem_acquire_read(&sem->dep_map, subclass, 0, _RET_IP_);
	__down_read(sem);
}

/* A trylock that fails took nothing: lockdep hears only of one that succeeded. */
__noinline int down_read_trylock(struct rw_semaphore *sem)
{
	int ok;

	sched_point();
	pthread_mutex_lock(&sem->lock);
	ok = !sem->writer && !sem->writers_waiting;
	if (ok)
		sem->readers++;
	pthread_mutex_unlock(&sem->lock);
	if (ok)
		rwsem_acquire_read(&sem->dep_map, 0, 1, _RET_IP_);
	return ok;
}

__noinline void up_read(struct rw_semaphore *sem)
{
	rwsem_release(&sem->dep_map, _RET_IP_);
	sched_point();
	pthread_mutex_lock(&sem->lock);
	BUG_ON(sem->readers <= 0);
	if (--sem->readers == 0)
		sched_cond_broadcast(&sem->wait);
	pthread_mutex_unlock(&sem->lock);
}

static void __down_write(struct rw_semaphore *sem)
{
	char what[128];

	sched_point();
	pthread_mutex_lock(&sem->lock);
	if (sem->writer || sem->readers) {
		snprintf(what, sizeof(what), "down_write %s (%d reader%s inside)", sem->name,
			 sem->readers, sem->readers == 1 ? "" : "s");
		sem->writers_waiting++;
		sched_block(what);
		while (sem->writer || sem->readers)
			sched_cond_wait(&sem->wait, &sem->lock, what);
		sched_unblock();
		sem->writers_waiting--;
	}
	sem->writer = true;
	pthread_mutex_unlock(&sem->lock);
}

__noinline void down_write(struct rw_semaphore *sem)
{
	rwsem_acquire(&sem->dep_map, 0, 0, _RET_IP_);
	__down_write(sem);
}

__noinline void down_write_nested(struct rw_semaphore *sem, unsigned int subclass)
{
	rwsem_acquire(&sem->dep_map, subclass, 0, _RET_IP_);
	__down_write(sem);
}

__noinline void up_write(struct rw_semaphore *sem)
{
	rwsem_release(&sem->dep_map, _RET_IP_);
	sched_point();
	pthread_mutex_lock(&sem->lock);
	BUG_ON(!sem->writer);
	sem->writer = false;
	sched_cond_broadcast(&sem->wait);
	pthread_mutex_unlock(&sem->lock);
}
