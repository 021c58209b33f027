/* wait.c - wait queues: a mutex and a condition variable, as helgrind and drd understand them. */
#include "scheduler.h"
#include "wait.h"

void init_waitqueue_head(struct wait_queue_head *wq)
{
	pthread_mutex_init(&wq->lock, NULL);
	pthread_cond_init(&wq->cond, NULL);
}

/* wake_up_all - wake every sleeper; each tests its condition again. */
void wake_up_all(struct wait_queue_head *wq)
{
	sched_point();
	pthread_mutex_lock(&wq->lock);
	sched_cond_broadcast(&wq->cond);
	pthread_mutex_unlock(&wq->lock);
}

void wait_queue_lock(struct wait_queue_head *wq)
{
	sched_point();
	pthread_mutex_lock(&wq->lock);
	preempt_disable();
}

void wait_queue_unlock(struct wait_queue_head *wq)
{
	preempt_enable();
	pthread_mutex_unlock(&wq->lock);
}

__noinline void wait_queue_sleep(struct wait_queue_head *wq, const char *what)
{
	sched_cond_wait(&wq->cond, &wq->lock, what);
}
