/* bench.c - timing loops of get+put pairs on pinned threads, and the medians of their ratios. */
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#include "bench.h"
#include "task.h"

const char *const bench_config_name[BENCH_NCONFIG] = { "1", "same", "diff" };

double bench_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

int bench_reps(void)
{
	const char *e = getenv("BENCH_REPS");
	int n = e ? atoi(e) : 5;

	return n > 0 ? n : 5;
}

static double bench_ms(void)
{
	const char *e = getenv("BENCH_MS");
	double ms = e ? atof(e) : 10;

	return ms > 0 ? ms : 10;
}

void bench_pin(int cpu)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu % (n > 0 ? n : 1), &set);
	pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

double bench_median(double *v, int n)
{
	qsort(v, n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* ---- the floor: what any shared count costs at least ---- */

static atomic_int floor_counts[2][16];	/* [i][0]: 64 bytes apart, one cache line each */

void bench_floor_loop(void *obj, long n)
{
	atomic_int *c = obj;

	for (long i = 0; i < n; i++) {
		atomic_fetch_add(c, 1);
		atomic_fetch_sub(c, 1);
	}
}

void *bench_floor_obj(int thread, bool shared)
{
	return &floor_counts[shared ? 0 : thread][0];
}


/* ---- one timed run ---- */

struct runner {
	const struct bench_op *op;
	void *obj;
	long n;
	int cpu;
	pthread_barrier_t *start;
	double ns;
};

/*
 * The thread's CPU time, not the wall clock: on a machine shared with
 * other work a thread is often descheduled, and the wall clock would
 * count the other programs' time as ours.  What contention costs (a cache
 * line moving between CPUs, a lock's spinning) is still CPU time.
 */
double bench_cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static void *runner_main(void *arg)
{
	struct runner *r = arg;
	double t0;

	bench_pin(r->cpu);
	pthread_barrier_wait(r->start);
	t0 = bench_cpu_ns();
	r->op->loop(r->obj, r->n);
	r->ns = bench_cpu_ns() - t0;
	return NULL;
}

/* Pairs to run for about bench_ms(): estimated from short runs, once per op. */
static long bench_iters(const struct bench_op *op)
{
	static const struct bench_op *known[64];
	static long known_n[64];
	long n = 1000;
	double t;
	int i;

	for (i = 0; i < 64 && known[i]; i++)
		if (known[i] == op)
			return known_n[i];

	bench_pin(0);
	for (;;) {
		t = bench_cpu_ns();
		op->loop(op->obj(0, false), n);
		t = bench_cpu_ns() - t;
		if (t > 2e6 || n > (1L << 30))
			break;
		n *= 4;
	}
	n = (long)(n * bench_ms() * 1e6 / t) + 1;
	if (i < 64) {
		known[i] = op;
		known_n[i] = n;
	}
	return n;
}

double bench_time(const struct bench_op *op, enum bench_config c)
{
	int nthreads = c == BENCH_1 ? 1 : 2;
	struct runner r[2];
	struct task_struct *t[2];
	pthread_barrier_t start;
	long n = bench_iters(op);
	double sum = 0;

	pthread_barrier_init(&start, NULL, nthreads);
	for (int i = 0; i < nthreads; i++) {
		r[i] = (struct runner){ op, op->obj(i, c == BENCH_SAME), n, i, &start, 0 };
		t[i] = kthread_run(runner_main, &r[i], "bench/%d", i);
	}
	for (int i = 0; i < nthreads; i++) {
		kthread_join(t[i]);
		sum += r[i].ns / n;
	}
	pthread_barrier_destroy(&start);
	return sum / nthreads;
}

void bench_pairs(const struct bench_op *ops)
{
	int reps = bench_reps(), nops = 0;

	while (ops[nops].name)
		nops++;
	for (int c = 0; c < BENCH_NCONFIG; c++) {
		double ns[nops][reps], ratio[nops][reps];

		for (int rep = 0; rep < reps; rep++) {
			double floor_ns = bench_time(&ops[0], c);

			for (int i = 0; i < nops; i++) {
				ns[i][rep] = i ? bench_time(&ops[i], c) : floor_ns;
				ratio[i][rep] = ns[i][rep] / floor_ns;
			}
		}
		for (int i = 0; i < nops; i++)
			printf("pair\t%s\t%s\t%.3f\t%.3f\t%s\n", ops[i].name, bench_config_name[c],
			       bench_median(ns[i], reps), bench_median(ratio[i], reps), ops[i].what);
		fflush(stdout);
	}
}
