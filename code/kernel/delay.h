/* delay.h - msleep, and named delay points that make a race reproducible. */
#ifndef KSIM_DELAY_H
#define KSIM_DELAY_H

#include "kernel.h"

/* msleep - sleep ms milliseconds (not a hang: the watchdog ignores it). */
void msleep(unsigned int ms);

/*
 * delay_point - where the seed inserted msleep(100) to open a race window.
 * Does nothing unless a scenario said "delay NAME TIME"; then sleeps that
 * long each time the point is passed.  Names are declared with
 * DELAY_POINT(name) in the file that uses them so "delay" can refuse an
 * unknown name.
 */
void delay_point(const char *name);
/*
 * delay_armed - a scenario has turned the point on.  For given code that
 * must open a window around the sleep (and only when asked), so that the
 * window does not depend on where a student's code would have slept.
 */
bool delay_armed(const char *name);
/* delay_set - 0, or -ENOENT if no such point is known. */
int delay_set(const char *name, unsigned int ms);
/* delay_register - make NAME known; FILE is where DELAY_POINT(NAME) stands, for messages. */
void delay_register(const char *name, const char *file);
bool delay_known(const char *name);
/* delay_names - every known point, sorted and comma separated, into buf (for messages). */
void delay_names(char *buf, size_t len);
/**
 * delay_await - wait until a task passes the armed point @name.
 * @name: a known delay point, armed ("delay NAME TIME")
 * @timeout_ms: how long to wait at most, on msleep()'s clock (the virtual
 *	one under the controlled scheduler)
 *
 * A pass counts if it comes after the await begins, or if its task is
 * still held at the point and no earlier await (and no arming since) has
 * returned for it: two awaits of a point wait for two passes, as each
 * stands for another task that gets there, and a task that has passed and
 * gone before the await began does not answer it.  The passing task sleeps
 * at the point for its delay, so on return it is inside the window the
 * delay opens.  Woken by the pass itself: no polling; and no
 * happens-before edge for helgrind or drd (delay.c says why).
 *
 * Context: a task (the scenario's shell); sleeps.
 * Return: 0 once a task got there; -ENOENT if no such point is known;
 * -EINVAL if it is not armed; -ETIMEDOUT if no task got there in time.
 */
int delay_await(const char *name, long timeout_ms);
/* delay_point_file - the file where DELAY_POINT(name) stands, for messages; NULL if unknown. */
const char *delay_point_file(const char *name);
/* delay_reset - turn every point off (tests). */
void delay_reset(void);
/*
 * delay_report_unreached - for every point armed since it was last passed
 * (or disarmed), and never passed while armed, call report(name, file,
 * ms): a scenario that armed it opened no window, and says so.  Returns
 * how many there were.
 */
int delay_report_unreached(void (*report)(const char *name, const char *file, unsigned int ms));

#define DELAY_POINT(id) \
	static void __attribute__((constructor)) __delay_reg_##id(void) { delay_register(#id, __FILE__); }

#endif
