/* demo_a.c - a module with nothing to do but be used, held and unloaded. */
#include <stdlib.h>
#include "module.h"

typedef int (*demo_fn_t)(int);

/* What a stale pointer will point at once demo_a is gone. */
static __noinline int demo_a_hello(int x)
{
	return x + 42;
}

/**
 * demo_a_get_fn - hand out a pointer into demo_a's text, which a caller
 * can keep past rmmod (the bug the workbook is about).
 */
demo_fn_t demo_a_get_fn(void)
{
	return demo_a_hello;
}

/* Set by a test (through dlsym) to look at the module while it goes away. */
void (*demo_a_exit_hook)(void);

static int demo_a_init(void)
{
	/* A test of the failed-init path sets this. */
	if (getenv("DEMO_A_INIT_FAIL"))
		return -EINVAL;
	return 0;
}

static void demo_a_exit(void)
{
	if (demo_a_exit_hook)
		demo_a_exit_hook();
}

MODULE_INFO("demo_a", demo_a_init, demo_a_exit);
