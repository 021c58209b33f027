/* module_points.c - the delay points that stage 4's modules pass, declared in ksim itself (stage 1's too). */
#include <delay.h>

/*
 * A scenario's "delay" lines are checked when the script is parsed, before
 * any module is loaded, so a point that a module passes is declared here.
 * scsi_mod's delete store waits at it between dropping its disk and
 * dropping its pin on the low-level driver's module (scsi_device_put()).
 */
DELAY_POINT(scsi_device_put)
/* This file takes the place of stage 1's: slowdev's point, declared there, again. */
DELAY_POINT(busy_ms_store)
