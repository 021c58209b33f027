/* oops.c - kernel-shaped reports for faults, BUG(), WARN() and hung tasks. */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>
#include <valgrind/helgrind.h>
#include <valgrind/valgrind.h>
#include "ksym.h"
#include "module.h"
#include "oops.h"
#include "scheduler.h"
#include "slab.h"
#include "task.h"
#include "trace.h"
#include "watchdog.h"

#define OOPS_MAX_FRAMES 32
#define OOPS_SCAN_WORDS 1024	/* how far to look for a return address */
#define ALTSTACK_SIZE (64 * 1024)
#define DUMP_SIGNAL SIGURG
/*
 * A return address found by scanning the stack rather than by following
 * the frame chain: probably right, possibly a stale word.  Printed with
 * "? " in front, as the kernel prints its unreliable entries.
 */
#define FRAME_GUESS (1UL << 63)
#define FRAME_ADDR(x) ((x) & ~FRAME_GUESS)	/* ignored by default: harmless if unhandled */

/* The unwinder reads raw stack words, redzones included: not for ASan's eyes. */
#define __no_sanitize __attribute__((no_sanitize("address", "thread", "undefined")))

atomic_bool kernel_tainted;

/* The task printing an oops (its tid), 0 if none: only one report at a time. */
static atomic_int oops_owner;
/* What oops_end() writes to the trace: "oops OBJECT msg=TEXT". */
static char oops_msg[160] = "oops";
static char oops_obj[TRACE_NAME_LEN] = "kernel:ksim";
static bool oops_skip_trace;

/* Stack bounds of threads that are not tasks (no current): set at task init. */
static _Thread_local uintptr_t tls_stack_lo, tls_stack_hi;
static pthread_key_t altstack_key;

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
 * A return address worth printing: inside a known function, loaded or not.
 * addr - 1, since the call may be the last instruction of its function (a
 * call to a __noreturn function such as __bug).
 */
static bool known_text(uintptr_t addr)
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

	while (n < OOPS_MAX_FRAMES && on_stack(s, fp) && fp > prev && known_text(((uintptr_t *)fp)[1])) {
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

	for (fp = from, i = 0; i < OOPS_SCAN_WORDS && on_stack(s, fp); fp += 8, i++) {
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

/*
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
static __no_sanitize int unwind(uintptr_t rip, uintptr_t rsp, uintptr_t rbp,
				uintptr_t *out, int max)
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

/*
 * unwind_here - the call chain of our caller (__bug, __warn, dump_stack):
 * out[0] is the return address into the function that called it.  Our own
 * frame's saved rbp is the caller's frame.
 */
static __noinline __no_sanitize int unwind_here(uintptr_t *out, int max)
{
	uintptr_t *fp = __builtin_frame_address(0);

	return unwind(0, (uintptr_t)fp, fp[0], out, max);
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

static void print_trace(const uintptr_t *frames, int n)
{
	printk("Call Trace:");
	stack_trace_print(frames, n, 1);
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

static void print_cpu(void)
{
	printk("CPU: 0 PID: %d Comm: %s %s ksim", current ? current->pid : 0,
	       current ? current->comm : "(none)",
	       atomic_load(&kernel_tainted) ? "Tainted: G        W" : "Not tainted");
}

/* Did the report start inside the trace writer?  Then its lock may be held. */
static bool in_function(const uintptr_t *frames, int n, const char *name)
{
	struct ksym_hit hit;
	int i;

	for (i = 0; i < n; i++)
		if (ksym_lookup(FRAME_ADDR(frames[i]) - 1, &hit) && hit.name && !strcmp(hit.name, name))
			return true;
	return false;
}

/*
 * oops_enter - become the one task that reports.  A second task that
 * faults meanwhile waits here for good: the first ends the process.  A
 * fault inside the report itself gives up at once.
 */
static void oops_enter(void)
{
	int me = gettid(), none = 0;
	static const char msg[] = "BUG: recursive fault while printing an oops\n";

	if (atomic_compare_exchange_strong(&oops_owner, &none, me))
		return;
	if (none == me) {
		if (write(STDERR_FILENO, msg, sizeof(msg) - 1) < 0)
			_exit(EXIT_OOPS);
		_exit(EXIT_OOPS);
	}
	for (;;)
		pause();
}

/**
 * oops_end - write the "oops" trace event, close the trace and exit.
 * @status: EXIT_OOPS, or EXIT_HUNG for the watchdog
 *
 * _exit(), not exit(): other tasks are still running and atexit handlers
 * or stdio flushing could block on locks they hold.
 */
void oops_end(int status)
{
	sched_run_failed(status);	/* a controlled run says how to replay it */
	if (!oops_skip_trace)
		trace_event("oops", oops_obj, "msg=%s",
			    status == EXIT_HUNG && !strcmp(oops_msg, "oops") ? "hung task" : oops_msg);
	trace_close();
	_exit(status);
}

/*
 * oops_set - what the "oops" trace event will say: the message, and as its
 * object the module whose code faulted (else kernel:ksim).  A symbol in the
 * message loses its "+0xoff/0xlen", which changes with the compiler: a
 * trace must compare equal across builds.
 */
static void oops_set(uintptr_t rip, const char *fmt, const char *arg)
{
	const char *mod = module_trace_name_of(rip);
	char *plus, *bracket;

	snprintf(oops_msg, sizeof(oops_msg), fmt, arg);
	plus = strstr(oops_msg, "+0x");
	if (plus) {
		bracket = strchr(plus, ' ');
		memmove(plus, bracket ? bracket : plus + strlen(plus),
			strlen(bracket ? bracket : plus + strlen(plus)) + 1);
	}
	if (mod)
		snprintf(oops_obj, sizeof(oops_obj), "%s", mod);
}

static void report_uaf(uintptr_t addr, long err, const char *ripsym, const char *name,
		       size_t size, uintptr_t start, const char *freed_by)
{
	const char *rw = err < 0 ? "Read or write" : (err & 2) ? "Write" : "Read";

	printk("==================================================================");
	printk("BUG: KASAN-like use-after-free in %s", ripsym);
	printk("%s of freed object %s (size %zu) at offset %ld, freed by task %s",
	       rw, name, size, (long)(addr - start), freed_by);
	printk("%s at addr %016lx by task %s", rw, (unsigned long)addr,
	       current ? current->tag : "?[0]");
}

static void report_page_fault(uintptr_t addr, uintptr_t rip, long err)
{
	bool unloaded = false;
	const char *mod = module_name_of(addr, &unloaded);
	const char *what = err < 0 ? "read or write access" : (err & 0x10) ? "instruction fetch" :
			   (err & 2) ? "write access" : "read access";

	printk("BUG: unable to handle page fault for address: %016lx", (unsigned long)addr);
	if (mod && unloaded)
		printk("#PF: supervisor %s %s unloaded module %s", what,
		       (err & 0x10) ? "from" : "to", mod);
	else
		printk("#PF: supervisor %s in kernel mode", what);
	if (err >= 0)
		printk("#PF: error_code(0x%04lx) - %s", err,
		       (err & 1) ? "permissions violation" : "not-present page");
	(void)rip;
}

/*
 * oops_fault - the SIGSEGV/SIGBUS/SIGILL/SIGFPE handler.
 *
 * Runs on the task's alternate stack (a stack overflow must be reportable
 * too) and reads the interrupted registers from the signal context.
 */
static void oops_fault(int sig, siginfo_t *si, void *ctx)
{
	ucontext_t *uc = ctx;
	greg_t *r = uc->uc_mcontext.gregs;
	uintptr_t rip = r[REG_RIP], addr = (uintptr_t)si->si_addr, start = 0;
	uintptr_t frames[OOPS_MAX_FRAMES];
	/*
	 * The page fault error code, without the user-mode bit (4) that
	 * would only say that ksim runs in user space; -1 if there is none
	 * (Valgrind's synthesised contexts have no trap number).
	 */
	long err = r[REG_TRAPNO] == 14 ? (long)(r[REG_ERR] & ~4L) : -1;
	const char *name, *freed_by;
	char ripsym[160];
	size_t size;
	int n;

	oops_enter();
	/* Without an error code, deduce the instruction fetch. */
	if (sig == SIGSEGV && addr == rip)
		err = err < 0 ? 0x10 : err | 0x10;
	n = unwind(rip, r[REG_RSP], r[REG_RBP], frames, OOPS_MAX_FRAMES);
	oops_skip_trace = in_function(frames, n, "__trace_event");
	sprint_symbol(ripsym, sizeof(ripsym), rip);
	if (sig == SIGSEGV && slab_lookup_freed(addr, &name, &size, &start, &freed_by)) {
		char who[160];

		/* Inside libc (memcpy...): name the kernel function that called it. */
		if (!known_text(rip + 1) && n)
			sprint_backtrace(who, sizeof(who), FRAME_ADDR(frames[0]));
		else
			snprintf(who, sizeof(who), "%s", ripsym);
		report_uaf(addr, err, who, name, size, start, freed_by);
		oops_set(rip, "use-after-free of %s", name);
	} else if (sig == SIGSEGV) {
		report_page_fault(addr, rip, err);
		printk("Oops: %04lx [#1] SMP", err < 0 ? 0 : err);
		oops_set(rip, "unable to handle page fault in %s", ripsym);
	} else {
		printk("%s: 0000 [#1] SMP", sig == SIGILL ? "invalid opcode" :
		       sig == SIGFPE ? "divide error" : "bus error");
		oops_set(rip, "%s", sig == SIGILL ? "invalid opcode" :
			 sig == SIGFPE ? "divide error" : "bus error");
	}
	print_cpu();
	printk("RIP: %s", ripsym);
	print_trace(frames, n);
	print_modules();
	printk("---[ end trace 0000000000000000 ]---");
	oops_end(EXIT_OOPS);
}

/**
 * __bug - BUG()/BUG_ON(): print "kernel BUG at FILE:LINE!" and the call
 * trace of the current task, then end the run with exit status 3.
 */
void __bug(const char *file, int line, const char *cond)
{
	uintptr_t frames[OOPS_MAX_FRAMES];
	char sym[160];
	int n;

	oops_enter();
	n = unwind_here(frames, OOPS_MAX_FRAMES);
	oops_skip_trace = in_function(frames, n, "__trace_event");
	printk("------------[ cut here ]------------");
	printk("kernel BUG at %s:%d!", file, line);
	if (cond)
		printk("BUG_ON(%s)", cond);
	printk("invalid opcode: 0000 [#1] SMP");
	print_cpu();
	sprint_backtrace(sym, sizeof(sym), n ? frames[0] : 0);
	printk("RIP: %s", sym);
	print_trace(frames + !!n, n - !!n);
	print_modules();
	printk("---[ end trace 0000000000000000 ]---");
	snprintf(oops_msg, sizeof(oops_msg), "kernel BUG at %s:%d", file, line);
	oops_set(n ? frames[0] : 0, "%s", oops_msg);
	oops_end(EXIT_OOPS);
}

/**
 * oops_double_free - kfree() of an object that is already free: say so,
 * as KASAN does, with both call traces - this free, and the one before
 * (saved by the slab at that time) - then end the run with exit status 3.
 */
void oops_double_free(uintptr_t addr, const char *name, size_t size, const char *freed_by,
		      const uintptr_t *first, int nfirst)
{
	uintptr_t frames[OOPS_MAX_FRAMES];
	char sym[160];
	int n;

	oops_enter();
	n = unwind_here(frames, OOPS_MAX_FRAMES);
	oops_skip_trace = in_function(frames, n, "trace_event");
	/* frames[0] is in kfree(): name its caller, the code that freed twice. */
	sprint_backtrace(sym, sizeof(sym), n > 1 ? frames[1] : n ? frames[0] : 0);
	printk("==================================================================");
	printk("BUG: KASAN-like double-free in %s", sym);
	printk("double free of %s (size %zu) at addr %016lx by task %s", name, size, (unsigned long)addr,
	       current ? current->tag : "?[0]");
	print_cpu();
	/* Both traces start at kfree()'s caller: the code that freed. */
	print_trace(frames + (n > 1), n - (n > 1));
	printk("%s", "");
	printk("Freed before by task %s:", freed_by);
	stack_trace_print(first, nfirst, 1);
	printk("%s", "");
	print_modules();
	printk("---[ end trace 0000000000000000 ]---");
	snprintf(oops_msg, sizeof(oops_msg), "double free of %s", name);
	oops_set(n > 1 ? frames[1] : 0, "%s", oops_msg);
	oops_end(EXIT_OOPS);
}

/**
 * __warn - WARN_ON(): print a warning with the call trace, taint the
 * kernel (the run will end with status 3) and carry on.
 */
void __warn(const char *file, int line, const char *cond)
{
	static pthread_mutex_t warn_lock = PTHREAD_MUTEX_INITIALIZER;
	uintptr_t frames[OOPS_MAX_FRAMES];
	char sym[160];
	int n = unwind_here(frames, OOPS_MAX_FRAMES);

	sprint_backtrace(sym, sizeof(sym), n ? frames[0] : 0);
	pthread_mutex_lock(&warn_lock);
	printk("------------[ cut here ]------------");
	printk("WARNING: CPU: 0 PID: %d at %s:%d %s", current ? current->pid : 0, file, line, sym);
	if (cond)
		printk("WARN_ON(%s)", cond);
	print_modules();
	print_cpu();
	printk("RIP: %s", sym);
	print_trace(frames + !!n, n - !!n);
	printk("---[ end trace 0000000000000000 ]---");
	atomic_store(&kernel_tainted, true);
	pthread_mutex_unlock(&warn_lock);
}

/**
 * dump_stack - print the current task's call trace, starting at the
 * function that called dump_stack().
 */
void dump_stack(void)
{
	uintptr_t frames[OOPS_MAX_FRAMES];
	int n = unwind_here(frames, OOPS_MAX_FRAMES);

	print_cpu();
	print_trace(frames, n);
}

/* One oops_dump_task() at a time: the request the signalled task answers. */
static struct {
	pthread_mutex_t lock;
	_Atomic(struct task_struct *) target;
	atomic_int state;	/* 0 idle, 1 asked, 2 answered */
	uintptr_t frames[OOPS_MAX_FRAMES];
	int n;
	uintptr_t rip;		/* where the task was interrupted */
} dump = { .lock = PTHREAD_MUTEX_INITIALIZER };

/* DUMP_SIGNAL handler: unwind this task from where the signal interrupted it. */
static void oops_dump_self(int sig, siginfo_t *si, void *ctx)
{
	greg_t *r = ((ucontext_t *)ctx)->uc_mcontext.gregs;
	int asked = 1, saved_errno = errno;

	(void)sig;
	(void)si;
	if (!current || current != atomic_load(&dump.target) || atomic_load(&dump.state) != 1)
		return;
	/* Pairs with the HAPPENS_BEFORE before pthread_kill() in oops_dump_task(). */
	ANNOTATE_HAPPENS_AFTER(&dump.target);
	dump.n = unwind(r[REG_RIP], r[REG_RSP], r[REG_RBP], dump.frames, OOPS_MAX_FRAMES);
	dump.rip = r[REG_RIP];
	ANNOTATE_HAPPENS_BEFORE(&dump.state);
	atomic_compare_exchange_strong(&dump.state, &asked, 2);
	errno = saved_errno;
}

/**
 * oops_dump_task - print the call trace of task @t (another task).
 *
 * Used by the hung-task watchdog: the blocked task is interrupted with
 * SIGURG, walks its own stack (only it can read its registers) and the
 * caller prints the result.  The oops trace event then names the task.
 */
static void dump_task(struct task_struct *t, bool running)
{
	struct timespec tick = { 0, 1000000 };
	int i, answered = 2;

	if (atomic_load(&t->exited))
		return;		/* its thread may be running another task now (task.c) */
	pthread_mutex_lock(&dump.lock);
	atomic_store(&dump.target, t);
	dump.n = 0;
	atomic_store(&dump.state, 1);
	/* helgrind and drd do not see a signal as an order between the two tasks. */
	ANNOTATE_HAPPENS_BEFORE(&dump.target);
	if (pthread_kill(t->thread, DUMP_SIGNAL) == 0)
		for (i = 0; i < 1000 && atomic_load(&dump.state) != 2; i++)
			nanosleep(&tick, NULL);
	if (atomic_compare_exchange_strong(&dump.state, &answered, 0)) {
		char sym[160];

		ANNOTATE_HAPPENS_AFTER(&dump.state);
		/* D: asleep on something (the hung-task watchdog); R: running (a soft lockup). */
		printk("task:%-15s state:%c pid:%d", t->comm, running ? 'R' : 'D', t->pid);
		/* A running task (a soft lockup) is somewhere in our code: say where, as show_regs() would. */
		if (running && known_text(dump.rip + 1)) {
			sprint_symbol(sym, sizeof(sym), dump.rip);
			printk("RIP: %s", sym);
		}
		print_trace(dump.frames, dump.n);
	} else {
		atomic_store(&dump.state, 0);
		printk("task:%-15s pid:%d did not answer: no call trace", t->comm, t->pid);
	}
	snprintf(oops_msg, sizeof(oops_msg), "hung task %s", t->tag);
	snprintf(oops_obj, sizeof(oops_obj), "task:%s", t->tag);
	pthread_mutex_unlock(&dump.lock);
}

void oops_dump_task(struct task_struct *t)
{
	dump_task(t, false);
}

/* oops_dump_running_task - the same for a task that is running (a soft lockup): state R and its RIP. */
void oops_dump_running_task(struct task_struct *t)
{
	dump_task(t, true);
}

/* oops_blame_task - the "oops" trace event of this run names task t and says why ("soft lockup"). */
void oops_blame_task(struct task_struct *t, const char *why)
{
	pthread_mutex_lock(&dump.lock);
	snprintf(oops_msg, sizeof(oops_msg), "%s %s", why, t->tag);
	snprintf(oops_obj, sizeof(oops_obj), "task:%s", t->tag);
	pthread_mutex_unlock(&dump.lock);
}

static void altstack_free(void *p)
{
	stack_t ss = { .ss_flags = SS_DISABLE };

	sigaltstack(&ss, NULL);
	munmap(p, ALTSTACK_SIZE);
}

static void oops_init_once(void)
{
	struct sigaction sa;
	static const int sigs[] = { SIGSEGV, SIGBUS, SIGILL, SIGFPE };
	size_t i;

	ksym_init();
	pthread_key_create(&altstack_key, altstack_free);
	memset(&sa, 0, sizeof(sa));
	sigemptyset(&sa.sa_mask);
	sa.sa_sigaction = oops_fault;
	sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
	for (i = 0; i < ARRAY_SIZE(sigs); i++)
		sigaction(sigs[i], &sa, NULL);
	sa.sa_sigaction = oops_dump_self;
	sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_RESTART;
	sigaction(DUMP_SIGNAL, &sa, NULL);
}

/**
 * oops_init - install the fault handlers and read the symbol tables.
 * Idempotent; oops_task_init() calls it too.
 */
void oops_init(void)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;

	pthread_once(&once, oops_init_once);
}

/**
 * oops_task_init - per-thread set-up: an alternate signal stack (freed
 * when the thread exits), and the stack bounds for a thread that is not a
 * task.  Called at the start of every task.
 */
void oops_task_init(void)
{
	stack_t ss = { .ss_size = ALTSTACK_SIZE };
	pthread_attr_t attr;
	void *addr;
	size_t size;

	oops_init();
	if (!(current && current->stack_hi) && pthread_getattr_np(pthread_self(), &attr) == 0) {
		if (pthread_attr_getstack(&attr, &addr, &size) == 0) {
			tls_stack_lo = (uintptr_t)addr;
			tls_stack_hi = (uintptr_t)addr + size;
		}
		pthread_attr_destroy(&attr);
	}
	if (pthread_getspecific(altstack_key))
		return;
	ss.ss_sp = mmap(NULL, ALTSTACK_SIZE, PROT_READ | PROT_WRITE,
			MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
	if (ss.ss_sp == MAP_FAILED)
		return;
	if (sigaltstack(&ss, NULL) == 0)
		pthread_setspecific(altstack_key, ss.ss_sp);
	else
		munmap(ss.ss_sp, ALTSTACK_SIZE);
}
