/* bench_stage.c - the stage part of `make bench`: its node's size, its active reference, its drain. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "bench.h"
#include "lockdep.h"
#include "oops.h"
#include <sysfs_internal.h>
#include "task.h"
#include "trace.h"
#include "vfs.h"

/*
 * Built once per stage (the stages' sysfs functions have the same names),
 * and for stage 4 once more with trace_event() compiled out
 * (KSIM_TRACE_COMPILED_OUT), which is how "tracing compiled in but off"
 * is measured against "not compiled in at all".
 */
#ifdef KSIM_TRACE_COMPILED_OUT
#define PART "notrace"
#else
#define PART ""
#endif

#if KSIM_STAGE >= 3
static struct sysfs_dirent *dev[2], *attr[2];

/* /sys/devices/benchI/attr for I = 0, 1: "diff" puts the two threads on two devices, no node shared. */
static void build_tree(void)
{
	struct sysfs_dirent *devices = sysfs_lookup("/sys/devices");

	for (int i = 0; i < 2; i++) {
		char name[16];

		snprintf(name, sizeof(name), "bench%d", i);
		dev[i] = sysfs_new_dirent(name, SYSFS_DIR);
		attr[i] = sysfs_new_dirent("attr", SYSFS_KOBJ_ATTR);
		mutex_lock(&sysfs_mutex);
		sysfs_link_child(devices, dev[i]);
		sysfs_link_child(dev[i], attr[i]);
		mutex_unlock(&sysfs_mutex);
	}
	sysfs_put(devices);	/* the lookup's */
}

static void *attr_obj(int i, bool shared) { return attr[shared ? 0 : i]; }

static void active_loop(void *obj, long n)
{
	for (long i = 0; i < n; i++) {
		if (sysfs_get_active(obj))
			sysfs_put_active(obj);
	}
}

/* What one operation on an attribute holds: stage 3 the file's and its directory's (get_active_two), stage 4 the file's. */
static void op_loop(void *obj, long n)
{
	for (long i = 0; i < n; i++) {
		struct sysfs_dirent *sd = sysfs_get_active_op(obj);

		if (sd)
			sysfs_put_active_op(sd);
	}
}

#define S(x) #x
#define STR(x) S(x)

static void pairs(void)
{
	static const struct bench_op ops[] = {
		BENCH_FLOOR,
		{ "stage" STR(KSIM_STAGE) PART "_active", "sysfs_get_active/sysfs_put_active", active_loop, attr_obj },
		{ "stage" STR(KSIM_STAGE) PART "_op", KSIM_STAGE == 3 ? "sysfs_get_active_two/sysfs_put_active_two"
			: "one operation's active reference (kernfs: one node)", op_loop, attr_obj },
		{ NULL, NULL, NULL, NULL },
	};
	static const struct bench_op traced[] = {
		BENCH_FLOOR,
		{ "stage" STR(KSIM_STAGE) "_active_traced", "sysfs_get_active/sysfs_put_active, tracing on",
		  active_loop, attr_obj },
		{ NULL, NULL, NULL, NULL },
	};
	static const struct bench_op proved[] = {
		BENCH_FLOOR,
		{ "stage" STR(KSIM_STAGE) "_active_lockdep", "sysfs_get_active/sysfs_put_active, lockdep on",
		  active_loop, attr_obj },
		{ NULL, NULL, NULL, NULL },
	};
	char path[] = "/tmp/bench-trace-XXXXXX";
	int fd;

	bench_pairs(ops);
	if (strcmp(PART, ""))
		return;
	fd = mkstemp(path);
	if (fd < 0 || trace_open(path) != 0) {
		fprintf(stderr, "bench: cannot write a trace in /tmp\n");
		exit(1);
	}
	unlink(path);
	close(fd);
	bench_pairs(traced);
	trace_close();
	/*
	 * What a debug kernel (CONFIG_PROVE_LOCKING) adds: the active
	 * reference is described to lockdep as a read lock, and every acquire
	 * is checked against the dependency graph under the graph's one lock.
	 */
	lockdep_set_enabled(true);
	bench_pairs(proved);
	lockdep_set_enabled(false);
}

/* ---- the drain: how long a deletion waits while K tasks keep operating on the node ---- */

struct user {
	struct sysfs_dirent *sd;
	atomic_int *started;
};

/* An operation after another, as fast as it can, until the node refuses: it is deleted. */
static void *user_main(void *arg)
{
	struct user *u = arg;
	bool first = true;

	while (sysfs_get_active(u->sd)) {
		if (first)
			atomic_fetch_add(u->started, 1);
		first = false;
		sysfs_put_active(u->sd);
	}
	if (first)
		atomic_fetch_add(u->started, 1);
	return NULL;
}

static double drain_once(int k, int trial)
{
	struct task_struct *t[16];
	struct user u[16];
	atomic_int started = 0;
	struct sysfs_dirent *sd;
	char name[32];
	double t0, t1;

	snprintf(name, sizeof(name), "drain%d.%d", k, trial);
	sd = sysfs_new_dirent(name, SYSFS_KOBJ_ATTR);
	mutex_lock(&sysfs_mutex);
	sysfs_link_child(dev[0], sd);
	mutex_unlock(&sysfs_mutex);
	for (int i = 0; i < k; i++) {
		u[i] = (struct user){ sd, &started };
		t[i] = kthread_run(user_main, &u[i], "user/%d", i);
	}
	while (atomic_load(&started) < k)
		usleep(100);
	t0 = bench_now_ns();
	mutex_lock(&sysfs_mutex);
	sysfs_deactivate_start(sd);	/* stage 4: the bias; stage 3: nothing yet */
	mutex_unlock(&sysfs_mutex);
	sysfs_deactivate(sd);
	t1 = bench_now_ns();
	for (int i = 0; i < k; i++)
		kthread_join(t[i]);
	return t1 - t0;
}

static void drains(void)
{
	static const int ks[] = { 0, 1, 2, 4, 8 };
	int reps = bench_reps() * 2;
	double ns[reps];

	for (size_t i = 0; i < ARRAY_SIZE(ks); i++) {
		for (int rep = 0; rep < reps; rep++)
			ns[rep] = drain_once(ks[i], rep);
		printf("drain\tstage%d\t%d\t%.0f\n", KSIM_STAGE, ks[i], bench_median(ns, reps));
	}
}
#endif

int main(void)
{
	task_init_main("bench");
	oops_init();
	/*
	 * A production kernel has no lockdep (CONFIG_PROVE_LOCKING=n), and
	 * ksim's is on by default: every row is measured without it, but the
	 * one that says "lockdep on".
	 */
	lockdep_set_enabled(false);
	stage_init();
	if (!strcmp(PART, ""))
		printf("size\tstage%d\t%zu\tstruct sysfs_dirent (%zu without the trace name the kernel has not)\n",
		       KSIM_STAGE, sizeof(struct sysfs_dirent),
		       sizeof(struct sysfs_dirent) - sizeof(((struct sysfs_dirent *)0)->trace_name));
#if KSIM_STAGE >= 3
	build_tree();
	pairs();
	if (!strcmp(PART, ""))
		drains();
#endif
	fflush(stdout);
	_exit(0);	/* the tree stays as it is: no stage_verify() here */
}
