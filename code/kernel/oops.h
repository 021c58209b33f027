/* oops.h - kernel-shaped crash reports for faults inside the simulation. */
#ifndef KSIM_OOPS_H
#define KSIM_OOPS_H

#include <signal.h>
#include <stdatomic.h>
#include "kernel.h"
#include "unwind.h"

/*
 * oops_init - install the SIGSEGV/SIGBUS handler (on an alternate stack per
 * task) and prime the unwinder.  From then on a fault in any task prints
 *
 *	BUG: unable to handle page fault for address: 00007f...
 *	#PF: instruction fetch from unmapped module text (scsi_mod, unloaded)
 *	Oops: [#1]
 *	CPU: 0 PID: 3 Comm: kworker/0:1 ksim stage2
 *	RIP: scsi_device_delete_cb+0x0/0x40 [scsi_mod (unloaded)]
 *	Call Trace:
 *	 sysfs_schedule_callback_work+0x41/0x90
 *	 process_one_work+0x52/0x110
 *	 worker_thread+0x9a/0x140
 *	 kthread+0x3d/0x70
 *	Modules linked in: sd_mod
 *	Unloaded modules: scsi_mod libata ahci
 *
 * (or "BUG: use-after-free" for a quarantined slab object), writes an
 * "oops" trace event, and ends the run with exit status 3.
 */
void oops_init(void);
/* oops_task_init - per-thread part of oops_init: call at the start of every task. */
void oops_task_init(void);

/* dump_stack - print the current task's call trace (used by BUG/WARN/watchdog). */
void dump_stack(void);

/*
 * sprint_symbol - "func+0xoff/0xlen [module]" for a code address, from the
 * ELF symbol tables of ksim and of every module (including unloaded ones,
 * remembered at insmod time).
 */
void sprint_symbol(char *buf, size_t len, uintptr_t addr);

/* oops_end - flush the trace and exit with status; never returns. */
void oops_end(int status) __noreturn;

struct task_struct;
/*
 * oops_dump_task - print another task's call trace (the hung-task
 * watchdog's report).  The task is sent SIGURG; its handler unwinds its own
 * stack from the interrupted context and hands the frames back.  Gives up
 * after a second if the task does not answer.
 */
void oops_dump_task(struct task_struct *t);

/*
 * oops_double_free - report a kfree() of an object already freed: "double
 * free of NAME", this free's call trace and the earlier one's (first,
 * saved by stack_trace_save() then), and end the run with exit status 3.
 */
void oops_double_free(uintptr_t addr, const char *name, size_t size, const char *freed_by,
		      const uintptr_t *first, int nfirst) __noreturn;

/* oops_dump_running_task - like oops_dump_task(), for a task that is running: "state:R" and its RIP. */
void oops_dump_running_task(struct task_struct *t);

/* oops_blame_task - make the run's "oops" trace event name task t and why: "soft lockup cat[5]". */
void oops_blame_task(struct task_struct *t, const char *why);

/* Set when a WARN fired: the run goes on but ends with exit status 3. */
extern atomic_bool kernel_tainted;

#endif
