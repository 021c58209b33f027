/* verify.c - the objects deleted but not yet gone, for stage_verify(). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <trace.h>
#include <verify.h>

struct pending {
	struct pending *next;
	const void *obj;
	char name[TRACE_NAME_LEN];
	char what[64];
};

static pthread_mutex_t pending_lock = PTHREAD_MUTEX_INITIALIZER;
static struct pending *pending_head;

void verify_expect_gone(const void *obj, const char *name, const char *what)
{
	struct pending *p = calloc(1, sizeof(*p));

	if (!p)
		abort();
	p->obj = obj;
	snprintf(p->name, sizeof(p->name), "%s", name);
	snprintf(p->what, sizeof(p->what), "%s", what);
	pthread_mutex_lock(&pending_lock);
	p->next = pending_head;
	pending_head = p;
	pthread_mutex_unlock(&pending_lock);
}

void verify_forget(const void *obj)
{
	struct pending **pp, *p = NULL;

	pthread_mutex_lock(&pending_lock);
	for (pp = &pending_head; *pp; pp = &(*pp)->next) {
		if ((*pp)->obj == obj) {
			p = *pp;
			*pp = p->next;
			break;
		}
	}
	pthread_mutex_unlock(&pending_lock);
	free(p);
}

/* Oldest first: the order in which they were deleted. */
static int report_from(const struct pending *p)
{
	int n;

	if (!p)
		return 0;
	n = report_from(p->next);
	printk("stage_verify: %s was deleted but is still %s", p->name, p->what);
	return n + 1;
}

int verify_report(void)
{
	int n;

	pthread_mutex_lock(&pending_lock);
	n = report_from(pending_head);
	pthread_mutex_unlock(&pending_lock);
	return n;
}
