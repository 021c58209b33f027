/* kernel.h - the handful of kernel idioms every file of the simulated kernel uses. */
#ifndef KSIM_KERNEL_H
#define KSIM_KERNEL_H

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* container_of - from a pointer to a member back to the structure that holds it. */
#define container_of(ptr, type, member) \
	((type *)((char *)(ptr) - offsetof(type, member)))

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

#define __printf(a, b) __attribute__((format(printf, a, b)))
#define __noreturn __attribute__((noreturn))
/* Keep a function out of line, so it has a frame of its own in every oops trace. */
#define __noinline __attribute__((noinline))
/* Fold a helper into its caller with every compiler, so that a _RET_IP_ taken below it names the caller (glibc's <sys/cdefs.h> may have it already). */
#ifndef __always_inline
#define __always_inline inline __attribute__((always_inline))
#endif
/* __maybe_unused - a helper only the finished exercise calls (the skeleton must still compile). */
#define __maybe_unused __attribute__((unused))

/* Kernel-style error pointers: a negative errno folded into a pointer. */
#define MAX_ERRNO 4095
#define IS_ERR_VALUE(x) ((unsigned long)(x) >= (unsigned long)-MAX_ERRNO)
static inline void *ERR_PTR(long error) { return (void *)error; }
static inline long PTR_ERR(const void *ptr) { return (long)ptr; }
static inline bool IS_ERR(const void *ptr) { return IS_ERR_VALUE((unsigned long)ptr); }

/*
 * printk - every line the simulated kernel prints goes through here, to
 * standard error, one whole line at a time so that lines from different
 * tasks never interleave mid-line.
 */
void printk(const char *fmt, ...) __printf(1, 2);
#define pr_info(...) printk(__VA_ARGS__)

/*
 * BUG() - the kernel found itself in a state that must never happen.
 * Prints a kernel-shaped report with the call trace of the current task and
 * ends the run with exit status 3 (see oops.h).
 */
void __bug(const char *file, int line, const char *cond) __noreturn;
void __warn(const char *file, int line, const char *cond);

#define BUG() __bug(__FILE__, __LINE__, NULL)
#define BUG_ON(cond) do { if (cond) __bug(__FILE__, __LINE__, #cond); } while (0)
/* WARN_ON - report, with a call trace, and carry on; evaluates to cond. */
#define WARN_ON(cond) ({						\
	bool __c = !!(cond);						\
	if (__c)							\
		__warn(__FILE__, __LINE__, #cond);			\
	__c;								\
})

#endif
