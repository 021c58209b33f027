/* exercise.c - record which exercise stubs ran, so tests can name them. */
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include "exercise.h"
#include "kernel.h"

static pthread_mutex_t todo_lock = PTHREAD_MUTEX_INITIALIZER;
static char pending[512];

void exercise_todo(const char *name, const char *hint)
{
	size_t n;

	pthread_mutex_lock(&todo_lock);
	n = strlen(pending);
	if (!strstr(pending, name)) {
		printk("TODO(%s): not done yet - %s", name, hint);
		snprintf(pending + n, sizeof(pending) - n, "%s%s", n ? "," : "", name);
	}
	pthread_mutex_unlock(&todo_lock);
}

const char *exercise_pending(void)
{
	return pending[0] ? pending : NULL;
}
