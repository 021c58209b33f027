/* bench.h - what each part of `make bench` shares: timing a get+put loop on 1 or 2 threads, medians, rows. */
#ifndef KSIM_BENCH_H
#define KSIM_BENCH_H

#include <stdbool.h>
#include "kernel.h"

/*
 * A part is one program (the kernel's mechanisms, or one stage, whose
 * symbols would clash with another stage's) that prints rows for
 * code/bench/bench.sh to merge:
 *
 *	pair	CASE	CONFIG	NS	RATIO	WHAT
 *	drain	CASE	K	NS
 *	size	NAME	BYTES	WHAT
 *
 * CONFIG is 1 (one thread), same (two threads, one object) or diff (two
 * threads, one object each).  NS is the median over the repetitions of
 * the nanoseconds per get+put pair; RATIO the median of the ratio to the
 * bare atomic pair (the floor) measured in the same repetition, the same
 * configuration and the same process, just before: a ratio compares two
 * loops that ran on the same machine under the same load, which an
 * absolute time measured on a shared machine cannot promise.
 */

/* loop - n get+put pairs on obj.  obj - the object of thread i (shared: the same for every thread). */
struct bench_op {
	const char *name;
	const char *what;
	void (*loop)(void *obj, long n);
	void *(*obj)(int thread, bool shared);
};

enum bench_config { BENCH_1, BENCH_SAME, BENCH_DIFF, BENCH_NCONFIG };
extern const char *const bench_config_name[BENCH_NCONFIG];

/* bench_reps - repetitions (BENCH_REPS, default 5); bench_ms - milliseconds a timed loop aims at (BENCH_MS, 10). */
int bench_reps(void);

/* bench_time - one measurement: ns per pair of op in config (threads pinned to CPUs 0 and 1). */
double bench_time(const struct bench_op *op, enum bench_config c);

/*
 * bench_pairs - every op in every configuration, bench_reps() times, each
 * right after the floor (ops[0], which must be the bare atomic pair); one
 * "pair" row per op and configuration.  ops ends with a NULL name.
 */
void bench_pairs(const struct bench_op *ops);

double bench_now_ns(void);
/* bench_cpu_ns - the calling thread's CPU time: what a loop costs, without the time others ran instead. */
double bench_cpu_ns(void);
/* bench_median - of n values (sorts them). */
double bench_median(double *v, int n);
/* bench_pin - run the calling thread on CPU cpu modulo the CPUs there are. */
void bench_pin(int cpu);
/* BENCH_FLOOR - the bare atomic pair, for ops[0]: what any shared count costs at least. */
void bench_floor_loop(void *obj, long n);
void *bench_floor_obj(int thread, bool shared);
#define BENCH_FLOOR { "floor", "bare atomic_fetch_add/atomic_fetch_sub", bench_floor_loop, bench_floor_obj }

#endif
