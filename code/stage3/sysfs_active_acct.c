/* sysfs_active_acct.c - the active reference's bookkeeping: the trace and the count stage_verify() reads. */
#include <sysfs_internal.h>
#include <task.h>

/*
 * sysfs_active_refs counts the active references held right now, over
 * all nodes, so that stage_verify() can tell an operation that forgot its
 * sysfs_put_active() from one that is still running.  However s_active is
 * made (stage 3's rwsem, stage 4's biased count), a get and a put record
 * themselves here.
 *
 * It is a per-CPU counter (percpu.h), each thread adding to a copy of its
 * own, and not one atomic_int: one shared count, written by every get and
 * put on every node, would make two tasks working on two unrelated nodes
 * fight over its cache line, and cost more than the active reference it
 * accounts for.  The kernel keeps no such count; we need it only after the
 * run, when stage_verify() sums it with nobody writing.
 */
DEFINE_PERCPU_COUNTER(sysfs_active_refs);

struct sysfs_dirent *sysfs_active_got(struct sysfs_dirent *sd, bool ok)
{
	if (!ok) {
		trace_event("active_fail", sd->trace_name, "by=%s", trace_by());
		return NULL;
	}
	percpu_counter_inc(&sysfs_active_refs);
	trace_event("active_get", sd->trace_name, "by=%s", trace_by());
	return sd;
}

void sysfs_active_putting(struct sysfs_dirent *sd)
{
	trace_event("active_put", sd->trace_name, "by=%s", trace_by());
	percpu_counter_dec(&sysfs_active_refs);
}
