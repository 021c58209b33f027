/* module_points.c - the delay points that stage 1's modules pass, declared in ksim itself. */
#include <delay.h>

/*
 * A scenario's "delay" and "await" lines are checked when the script is
 * parsed, before any module is loaded, so a point that a module passes is
 * declared here.  slowdev's store passes busy_ms_store as it starts being
 * busy: a scenario that arms it can await a store inside store().
 */
DELAY_POINT(busy_ms_store)
