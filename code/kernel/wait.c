/* wait.c - wait queues: a mutex and a condition variable, as helgrind and drd understand them. */
#include "wait.h"

void init_waitqueue_head(struct wait_queue_head *wq)
{
	pthread_mutex_init(&wq->lock, NULL);
	pthread_cond_init(&wq->cond, NULL);
}

/* wake_up_all - wake every sleeper; each tests its condition again. */
void wake_up_all(struct wait_queue_head *wq)
{
	pthread_mutex_lock(&wq->lock);
	pthread_cond_broadcast(&wq->cond);
	pthread_mutex_unlock(&wq->lock);
}

__noinline void wait_queue_sleep(struct wait_queue_head *wq)
{
	pthread_cond_wait(&wq->cond, &wq->lock);
}
