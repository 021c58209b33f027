/* demo_b.c - a module that uses demo_a: insmod needs demo_a, rmmod of demo_a waits for it. */
#include "module.h"

typedef int (*demo_fn_t)(int);
demo_fn_t demo_a_get_fn(void);

static demo_fn_t hello;

/* demo_b_call - call into demo_a through the pointer demo_b keeps. */
int demo_b_call(int x)
{
	return hello(x);
}

static int demo_b_init(void)
{
	hello = demo_a_get_fn();	/* an unresolved symbol without demo_a */
	return 0;
}

static void demo_b_exit(void)
{
	hello = NULL;
}

MODULE_INFO("demo_b", demo_b_init, demo_b_exit, "demo_a");
