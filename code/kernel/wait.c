/* wait.c - wait queues: a mutex and a condition variable, as helgrind and drd understand them. */
#include "delay.h"
#include "scheduler.h"
#include "wait.h"

void init_waitqueue_head(struct wait_queue_head *wq)
{
	pthread_mutex_init(&wq->lock, NULL);
	pthread_cond_init(&wq->cond, NULL);
	wq->delay = NULL;
}

void waitqueue_delay_point(struct wait_queue_head *wq, const char *name)
{
	wq->delay = name;
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
	if (wq->delay)		/* before the lock: a task held here holds nothing of the queue */
		delay_point(wq->delay);
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
