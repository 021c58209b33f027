/* unwind.h - the stack unwinder: call chains of the current task, saved and printed. */
#ifndef KSIM_UNWIND_H
#define KSIM_UNWIND_H

#include "kernel.h"

#define UNWIND_MAX_FRAMES 32
/*
 * A return address found by scanning the stack rather than by following
 * the frame chain: probably right, possibly a stale word.  Printed with
 * "? " in front, as the kernel prints its unreliable entries.
 */
#define FRAME_GUESS (1UL << 63)
#define FRAME_ADDR(x) ((x) & ~FRAME_GUESS)	/* ignored by default: harmless if unhandled */

/*
 * unwind - up to max return addresses of the current task's call chain
 * from the registers rip, rsp, rbp (rip 0: rbp is a frame of ours), into
 * out, innermost first; returns how many.  Takes no lock and allocates
 * nothing: the fault handlers call it.
 */
int unwind(uintptr_t rip, uintptr_t rsp, uintptr_t rbp, uintptr_t *out, int max);
/* known_text - addr is a return address into a known function, loaded or not. */
bool known_text(uintptr_t addr);
/* unwind_task_init - record this thread's stack bounds if it is not a task. */
void unwind_task_init(void);

/* stack_trace_save - the caller's call chain (return addresses, innermost first); returns how many. */
int stack_trace_save(uintptr_t *store, int size);
/*
 * stack_trace_save_from/stack_trace_print - a call trace kept for later
 * (lockdep keeps one per dependency it records) and printed then.
 */
unsigned int stack_trace_save_from(void *fp, uintptr_t *store, unsigned int size);
void stack_trace_print(const uintptr_t *frames, unsigned int n, int spaces);

#endif
