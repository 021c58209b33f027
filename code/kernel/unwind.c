/* unwind.c - the frame-pointer stack unwinder behind every call trace ksim prints. */
#include <pthread.h>
#include <string.h>
#include <valgrind/valgrind.h>
#include "ksym.h"
#include "task.h"
#include "unwind.h"

#define UNWIND_SCAN_WORDS 1024	/* how far to look for a return address */

/* The unwinder reads raw stack words, redzones included: not for ASan's eyes. */
#define __no_sanitize __attribute__((no_sanitize("address", "thread", "undefined")))

/* Stack bounds of threads that are not tasks (no current): set at task init. */
static _Thread_local uintptr_t tls_stack_lo, tls_stack_hi;

struct stack {
	uintptr_t lo, hi;
};

static bool stack_bounds(struct stack *s)
{
	if (current && current->stack_hi) {
		s->lo = current->stack_lo;
		s->hi = current->stack_hi;
	} else {
		s->lo = tls_stack_lo;
		s->hi = tls_stack_hi;
	}
	return s->hi != 0;
}

/* A frame record (saved rbp, return address) at p lies wholly on the stack. */
static bool on_stack(const struct stack *s, uintptr_t p)
{
	/* Not p + 16 <= hi: a stale word near the top of the address space wraps. */
	return p >= s->lo && p < s->hi && s->hi - p >= 16 && !(p & 7);
}

/*
 * known_text - a return address worth printing: inside a known function,
 * loaded or not.  addr - 1, since the call may be the last instruction of
 * its function (a call to a __noreturn function such as __bug).
 */
bool known_text(uintptr_t addr)
{
	struct ksym_hit hit;

	return ksym_lookup(addr - 1, &hit) && hit.name;
}

/*
 * call_into_libc - ret is the return address of a call from our code into
 * code that is not ours (libc, through its PLT stub): the five bytes
 * before it are "call rel32" (e8) to an address outside every symbol we
 * know, or the six before it "call *rel32(%rip)" (ff 15, through the GOT).
 * A word on the stack that only looks like text - a function pointer left
 * in a local, which points at a function's first byte - is not preceded
 * by such a call, so it is not taken for the return address.
 */
static __no_sanitize bool call_into_libc(uintptr_t ret)
{
	const unsigned char *p = (const unsigned char *)ret;
	int32_t rel;

	if (!known_text(ret))
		return false;
	if (p[-5] == 0xe8) {
		memcpy(&rel, p - 4, sizeof(rel));
		return !known_text(ret + rel + 1);
	}
	return p[-6] == 0xff && p[-5] == 0x15;
}

/*
 * frame_record - fp looks like a frame of ours, at or above from: it holds
 * a return address into known code and a saved rbp further up.  rbp
 * interrupted inside libc may hold anything, so it is checked first.
 */
static __no_sanitize bool frame_record(const struct stack *s, uintptr_t fp, uintptr_t from)
{
	return on_stack(s, fp) && fp >= from && known_text(((uintptr_t *)fp)[1]) &&
	       ((uintptr_t *)fp)[0] > fp;
}

/* How many frame records a walk from fp follows before it leaves our code. */
static __no_sanitize int chain_length(const struct stack *s, uintptr_t fp)
{
	uintptr_t prev = 0;
	int n = 0;

	while (n < UNWIND_MAX_FRAMES && on_stack(s, fp) && fp > prev && known_text(((uintptr_t *)fp)[1])) {
		n++;
		prev = fp;
		fp = ((uintptr_t *)fp)[0];
	}
	return n;
}

/*
 * The frame record at or above from with the longest chain behind it (the
 * innermost of those), or 0.  Inside libc, which has no frame pointers, a
 * saved register followed by the return address into our code can look
 * like a record, but the chain behind it ends at once; the real innermost
 * frame's chain goes on through every caller.
 */
static __no_sanitize uintptr_t next_frame_record(const struct stack *s, uintptr_t from)
{
	uintptr_t fp, best = 0;
	int i, len, best_len = 0;

	for (fp = from, i = 0; i < UNWIND_SCAN_WORDS && on_stack(s, fp); fp += 8, i++) {
		if (!frame_record(s, fp, from))
			continue;
		len = chain_length(s, fp);
		if (len > best_len) {
			best = fp;
			best_len = len;
		}
	}
	return best;
}

/*
 * return_slot - where the return address of the interrupted function is,
 * when the rbp chain does not have it yet; 0 when the chain does.
 *
 * A function with a frame has it from "push %rbp; mov %rsp,%rbp" on: a
 * fault before that (on its first instruction) leaves the caller's return
 * address at [rsp], or at [rsp+8] after the push.  A leaf function has no
 * frame at all (gcc omits it even with -fno-omit-frame-pointer), nor does
 * libc or a stale call into unloaded text: then the stack must be scanned
 * for it (UINTPTR_MAX).
 */
static __no_sanitize uintptr_t return_slot(uintptr_t rip, uintptr_t rsp)
{
	struct ksym_hit hit;
	const unsigned char *p;

	if (!ksym_lookup(rip, &hit) || !hit.name || hit.unloaded)
		return UINTPTR_MAX;
	p = (const unsigned char *)(rip - hit.offset);
	if (hit.size >= 4 && !memcmp(p, "\xf3\x0f\x1e\xfa", 4))	/* endbr64 */
		p += 4;
	if (*p != 0x55)						/* push %rbp */
		return UINTPTR_MAX;
	if (rip <= (uintptr_t)p)
		return rsp;
	if (rip == (uintptr_t)p + 1)
		return rsp + 8;
	return 0;
}

/**
 * unwind - the return addresses of a task's call chain.
 * @rip, @rsp, @rbp: the registers at the point of interest
 * @out: receives up to max return addresses, innermost first
 *
 * Everything is built with frame pointers, so the chain is rbp -> [saved
 * rbp, return address].  Every frame must lie on the task's own stack and
 * above the previous one; the walk ends at the first address that is not
 * in a known function (libc's thread start) or after max frames.
 *
 * When rip is not in a function with a frame - a call through a stale
 * pointer into an unloaded module, a leaf function, libc - the first
 * return address is not in the chain: a stale call pushed it at [rsp] and
 * faulted before the callee could push rbp, so pop it from there; for
 * libc, which has no frame pointers, find the innermost frame record and
 * take the nearest word below it that is the return address of a call
 * into libc (call_into_libc(); still marked as a guess, "? ", as the
 * kernel marks a return address found by scanning the stack).
 */
__no_sanitize int unwind(uintptr_t rip, uintptr_t rsp, uintptr_t rbp, uintptr_t *out, int max)
{
	struct stack s;
	/* prev: below rsp, since a function that has just set up its frame has rbp == rsp. */
	uintptr_t fp = rbp, prev = rsp - 1, slot, p, ret, guess = 0;
	int n = 0;

	if (!stack_bounds(&s) || rsp < s.lo || rsp >= s.hi)
		return 0;
	VALGRIND_DISABLE_ERROR_REPORTING;	/* the scan reads undefined words */
	slot = rip ? return_slot(rip, rsp) : 0;
	if (slot == UINTPTR_MAX) {
		slot = 0;
		if (known_text(*(uintptr_t *)rsp)) {
			slot = rsp;		/* a stale call, or a leaf */
		} else {
			/*
			 * Inside libc: find the innermost frame record, then
			 * the return address nearest below it - the call
			 * from that frame's function into libc.
			 */
			if (!frame_record(&s, fp, rsp))
				fp = next_frame_record(&s, rsp);
			for (p = rsp; fp && p < fp; p += 8)
				if (call_into_libc(*(uintptr_t *)p))
					slot = guess = p;
		}
	}
	if (slot) {
		out[n++] = *(uintptr_t *)slot | (slot == guess ? FRAME_GUESS : 0);
		prev = slot;
		if (!frame_record(&s, fp, slot + 8))
			fp = next_frame_record(&s, slot + 8);
	}
	while (n < max && on_stack(&s, fp) && fp > prev) {
		ret = ((uintptr_t *)fp)[1];
		if (!known_text(ret))
			break;
		if (!n || out[n - 1] != ret)
			out[n++] = ret;
		prev = fp;
		fp = ((uintptr_t *)fp)[0];
	}
	VALGRIND_ENABLE_ERROR_REPORTING;
	return n;
}

/**
 * stack_trace_save - the call chain of the caller, for a report later.
 * @store: receives up to @size return addresses; store[0] is the return
 * address into the caller.  Returns how many.
 */
__noinline __no_sanitize int stack_trace_save(uintptr_t *store, int size)
{
	uintptr_t *fp = __builtin_frame_address(0);

	return unwind(0, (uintptr_t)fp, fp[0], store, size);
}

/* stack_trace_print - one line per frame, indented by spaces (lockdep's saved traces). */
void stack_trace_print(const uintptr_t *frames, unsigned int n, int spaces)
{
	char sym[160];
	unsigned int i;

	for (i = 0; i < n; i++) {
		sprint_backtrace(sym, sizeof(sym), FRAME_ADDR(frames[i]));
		printk("%*s%s%s", spaces, "", frames[i] & FRAME_GUESS ? "? " : "", sym);
	}
}

/**
 * stack_trace_save_from - the return addresses of the current task's calls,
 * starting with the one stored in frame fp (the frame of a function still
 * running on this task: out[0] is the return address into its caller).
 * Returns how many were stored.
 */
__no_sanitize unsigned int stack_trace_save_from(void *fp, uintptr_t *store, unsigned int size)
{
	return unwind(0, (uintptr_t)fp, (uintptr_t)fp, store, size);
}

/**
 * unwind_task_init - record the stack bounds of a thread that is not a
 * task (a task's own are in its task_struct), so the unwinder stays inside
 * its stack.
 *
 * Context: the thread itself, at its start.
 */
void unwind_task_init(void)
{
	pthread_attr_t attr;
	void *addr;
	size_t size;

	if (!(current && current->stack_hi) && pthread_getattr_np(pthread_self(), &attr) == 0) {
		if (pthread_attr_getstack(&attr, &addr, &size) == 0) {
			tls_stack_lo = (uintptr_t)addr;
			tls_stack_hi = (uintptr_t)addr + size;
		}
		pthread_attr_destroy(&attr);
	}
}
