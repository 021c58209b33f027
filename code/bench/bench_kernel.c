/* bench_kernel.c - part 1 of `make bench`: the floor, kref, module refs, percpu_ref, schedule points, tracing. */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include "atomic.h"
#include "bench.h"
#include "era_sizes.h"
#include "kref.h"
#include "lockdep.h"
#include "module.h"
#include "percpu_ref.h"
#include "task.h"
#include "trace.h"

/* Objects 64 bytes apart or more, so that "diff" shares no cache line between the two threads. */
#define ALIGNED __attribute__((aligned(64)))

static struct { atomic_t v ALIGNED; } atomics[2];
static struct { struct kref k ALIGNED; } krefs[2];
static struct module mods[2];
static struct { struct percpu_ref r ALIGNED; } prefs[2];

static void *atomic_obj(int i, bool shared) { return &atomics[shared ? 0 : i].v; }
static void *kref_obj(int i, bool shared) { return &krefs[shared ? 0 : i].k; }
static void *mod_obj(int i, bool shared) { return &mods[shared ? 0 : i]; }
static void *pref_obj(int i, bool shared) { return &prefs[shared ? 0 : i].r; }

static void atomic_t_loop(void *obj, long n)
{
	for (long i = 0; i < n; i++) {
		atomic_inc(obj);
		atomic_dec(obj);
	}
}

/* Two schedule points alone: what atomic.h adds to each pair in free mode. */
static void sched_point_loop(void *obj, long n)
{
	(void)obj;
	for (long i = 0; i < n; i++) {
		sched_point();
		sched_point();
	}
}

static void no_release(struct kref *k)
{
	(void)k;
	abort();	/* the count never reaches zero here */
}

static void kref_loop(void *obj, long n)
{
	for (long i = 0; i < n; i++) {
		kref_get(obj);
		kref_put(obj, no_release);
	}
}

static void module_loop(void *obj, long n)
{
	for (long i = 0; i < n; i++) {
		if (try_module_get(obj))
			module_put(obj);
	}
}

static void percpu_ref_loop(void *obj, long n)
{
	for (long i = 0; i < n; i++) {
		percpu_ref_get(obj);
		percpu_ref_put(obj);
	}
}

static void percpu_ref_live_loop(void *obj, long n)
{
	for (long i = 0; i < n; i++) {
		if (percpu_ref_tryget_live(obj))
			percpu_ref_put(obj);
	}
}

/* The floor with a trace event after the get and before the put, tracing off: what an untraced event costs. */
static void trace_off_loop(void *obj, long n)
{
	for (long i = 0; i < n; i++) {
		atomic_fetch_add((atomic_int *)obj, 1);
		trace_event("get", "kobject:bench", "count=%d by=%s", 1, trace_by());
		trace_event("put", "kobject:bench", "count=%d by=%s", 0, trace_by());
		atomic_fetch_sub((atomic_int *)obj, 1);
	}
}

static void unused_release(struct percpu_ref *r)
{
	(void)r;
}

/*
 * The cost of one trace event with tracing on: a line formatted into the
 * buffer under the lock, the buffer written out when full.  Into a real
 * file (unlinked at once), as ksim --trace writes it.
 */
static void trace_on_events(void)
{
	int reps = bench_reps();
	double ns[reps];
	char path[] = "/tmp/bench-trace-XXXXXX";
	int fd = mkstemp(path);
	const long n = 200000;

	if (fd < 0 || trace_open(path) != 0) {
		fprintf(stderr, "bench: cannot write a trace in /tmp\n");
		exit(1);
	}
	unlink(path);
	close(fd);
	for (int rep = 0; rep < reps; rep++) {
		double t = bench_cpu_ns();

		for (long i = 0; i < n; i++)
			trace_event("get", "kobject:bench", "count=%ld by=%s", i, trace_by());
		ns[rep] = (bench_cpu_ns() - t) / n;
	}
	trace_close();
	printf("event\ttrace_on\t1\t%.3f\tone trace event, tracing on (buffered)\n", bench_median(ns, reps));
}

/* ---- percpu_ref's drain: the kill's grace period, then the users' last puts ---- */

static atomic_int drain_started;
static double drain_released_at;

static void drain_release(struct percpu_ref *r)
{
	(void)r;
	drain_released_at = bench_now_ns();
}

static void *drain_user(void *arg)
{
	bool first = true;

	while (percpu_ref_tryget_live(arg)) {
		if (first)
			atomic_fetch_add(&drain_started, 1);
		first = false;
		percpu_ref_put(arg);
	}
	if (first)
		atomic_fetch_add(&drain_started, 1);
	return NULL;
}

/* From percpu_ref_kill() to release(), with k users taking and dropping references all along. */
static double percpu_drain_once(int k)
{
	struct task_struct *t[16];
	struct percpu_ref ref;
	double t0;

	if (percpu_ref_init(&ref, drain_release) != 0)
		exit(1);
	atomic_store(&drain_started, 0);
	for (int i = 0; i < k; i++)
		t[i] = kthread_run(drain_user, &ref, "user/%d", i);
	while (atomic_load(&drain_started) < k)
		usleep(100);
	t0 = bench_now_ns();
	percpu_ref_kill(&ref);
	for (int i = 0; i < k; i++)
		kthread_join(t[i]);
	percpu_ref_exit(&ref);
	return drain_released_at - t0;
}

static void percpu_drains(void)
{
	static const int ks[] = { 0, 1, 2, 4, 8 };
	int reps = bench_reps() * 2;
	double ns[reps];

	for (size_t i = 0; i < ARRAY_SIZE(ks); i++) {
		for (int rep = 0; rep < reps; rep++)
			ns[rep] = percpu_drain_once(ks[i]);
		printf("drain\tpercpu_ref\t%d\t%.0f\n", ks[i], bench_median(ns, reps));
	}
}

int main(void)
{
	static const struct bench_op ops[] = {
		BENCH_FLOOR,
		{ "sched_point", "two schedule points, free mode", sched_point_loop, atomic_obj },
		{ "atomic_t", "atomic_inc/atomic_dec (atomic.h)", atomic_t_loop, atomic_obj },
		{ "kref", "kref_get/kref_put", kref_loop, kref_obj },
		{ "module", "try_module_get/module_put", module_loop, mod_obj },
		{ "percpu_ref", "percpu_ref_get/percpu_ref_put", percpu_ref_loop, pref_obj },
		{ "percpu_ref_live", "percpu_ref_tryget_live/percpu_ref_put", percpu_ref_live_loop, pref_obj },
		{ "trace_off", "the floor plus two trace_event(), tracing off", trace_off_loop, atomic_obj },
		{ NULL, NULL, NULL, NULL },
	};

	task_init_main("bench");
	lockdep_set_enabled(false);	/* as in a production kernel (bench_stage.c) */
	for (int i = 0; i < 2; i++) {
		kref_init(&krefs[i].k);
		snprintf(mods[i].name, sizeof(mods[i].name), "bench%d", i);
		snprintf(mods[i].trace_name, sizeof(mods[i].trace_name), "module:bench%d", i);
		if (percpu_ref_init(&prefs[i].r, unused_release) != 0)
			return 1;
	}
	bench_pairs(ops);
	trace_on_events();
	percpu_drains();
	era_sizes_print();
	return 0;
}
