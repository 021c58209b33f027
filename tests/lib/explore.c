/* explore.c - the schedule explorer: fork a run per schedule, pick the next schedule, shrink a failure. */
#include <errno.h>
#include <malloc.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "explore.h"
#include "ktest.h"
#include "oops.h"
#include "scheduler.h"
#include "softlockup.h"
#include "task.h"
#include "trace.h"
#include "watchdog.h"

#define EXPLORE_RUN_SECONDS 5	/* wall clock for one run: past it, a task spins without schedule points */
#define EXPLORE_BUDGET 200000UL	/* schedule points in one run before a soft lockup */
#define EXIT_INVARIANT 1
#define EXPLORE_SPIN_MS 2000	/* a task running this long without sleeping is a soft lockup */
#define EXPLORE_DFS_CAP 2000000L	/* dfs schedules before giving up on exhausting the bound */

const char *explore_argv0 = "the explorer";
void (*explore_boot_hook)(void);

void explore_fail(const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	printk("explore: invariant broken: %s", msg);
	if (current)
		printk("explore: seen by %s", current->tag);
	sched_run_failed(EXIT_INVARIANT);
	trace_close();
	_exit(EXIT_INVARIANT);
}

/* ---- runs ---- */

struct dfs_node {
	uint32_t runnable, tried;
	int8_t current, chosen;
	int pre_before;			/* preemptions in the decisions before this one */
};

/*
 * What the explorer's processes share.  A worker process runs schedule
 * after schedule in a loop (a fork per schedule costs more than the run
 * itself); if a run fails, the worker dies with it, and what it was doing
 * is all here: the run's number, its forced prefix, its log.
 */
struct explore_shared {
	struct sched_log log;		/* the run in progress, or the last one */
	long run;			/* runs completed */
	unsigned long max_steps;	/* PCT's k: the longest run seen */
	bool exhausted;			/* dfs: nothing left within the bound */
	int8_t forced[SCHED_LOG_MAX];	/* the run's forced prefix (dfs, replay) */
	unsigned long nforced;
	unsigned long depth;		/* dfs: the stack's height */
	struct dfs_node stack[SCHED_LOG_MAX];
};

struct runner {
	const struct explore_harness *h;
	const struct explore_opts *o;
	struct sched_strategy base;	/* the parsed strategy (dfs: nonpreemptive) */
	int bound;			/* dfs: the preemption bound, else -1 */
	struct explore_shared *sh;
	int out;			/* a memfd: what the runs printed */
	const char *trace;		/* write the run's trace here (a replay), or NULL */
};

/* One run, in this process: setup, the tasks under the scheduler, the end state.  Returns if it passed. */
static void run_here(const struct runner *rn, const struct sched_strategy *st)
{
	const struct explore_harness *h = rn->h;
	struct task_struct *t[EXPLORE_MAX_TASKS];
	int n = 0;

	if (ftruncate(rn->out, 0) != 0 || lseek(rn->out, 0, SEEK_SET) != 0)
		abort();
	alarm(EXPLORE_RUN_SECONDS);
	if (h->setup)
		h->setup();
	sched_start(st, &rn->sh->log);
	for (; n < EXPLORE_MAX_TASKS && h->tasks[n].fn; n++)
		t[n] = kthread_run(h->tasks[n].fn, h->tasks[n].arg, "%s", h->tasks[n].name);
	for (int i = 0; i < n; i++)
		kthread_join(t[i]);
	sched_stop();
	if (h->check)
		h->check();
	if (atomic_load(&kernel_tainted))
		explore_fail("a WARN fired during the run (see its report above)");
	alarm(0);
}

static uint64_t mix(uint64_t a, uint64_t b)
{
	uint64_t z = a * 0x9e3779b97f4a7c15ULL + b + 0x632be59bd9b4e019ULL;

	z = (z ^ (z >> 31)) * 0xbf58476d1ce4e5b9ULL;
	return z ^ (z >> 29);
}

static long dfs_next(struct explore_shared *sh, int bound);
static bool dfs_extend(struct explore_shared *sh);

/* next_schedule - the strategy of run sh->run into st; false when there is none (dfs exhausted). */
static bool next_schedule(const struct runner *rn, struct sched_strategy *st)
{
	struct explore_shared *sh = rn->sh;

	*st = rn->base;
	if (rn->bound >= 0) {
		long n = sh->run == 0 ? 0 : dfs_next(sh, rn->bound);

		if (n < 0) {
			sh->exhausted = true;
			return false;
		}
		sh->nforced = (unsigned long)n;
		st->kind = SCHED_REPLAY;
		st->forced = sh->forced;
		st->nforced = sh->nforced;
	} else if (rn->base.kind != SCHED_REPLAY) {
		st->seed = mix(rn->o->seed, (uint64_t)sh->run);
		st->expect_steps = sh->max_steps > 20 ? sh->max_steps : 20;
	}
	return true;
}

#define EXPLORE_BATCH 500	/* runs per worker process: bounds what runs leave behind */

/* A worker: run schedules until the strategy ends, the batch is done, or a run fails (and kills us). */
static __noreturn void worker(const struct runner *rn, long runs)
{
	struct explore_shared *sh = rn->sh;
	struct sched_strategy st;

	dup2(rn->out, STDOUT_FILENO);
	dup2(rn->out, STDERR_FILENO);
	if (explore_boot_hook)
		explore_boot_hook();
	/* A spin between schedule points holds the baton for ever: the wall-clock watchdog names it. */
	softlockup_start(EXPLORE_SPIN_MS);
	for (long k = 0; k < EXPLORE_BATCH && sh->run < runs; k++) {
		if (!next_schedule(rn, &st))
			break;
		run_here(rn, &st);
		if (sh->log.steps > sh->max_steps)
			sh->max_steps = sh->log.steps;
		if (rn->bound >= 0 && !dfs_extend(sh)) {
			printk("explore: a run made more than %d decisions: too long for dfs", SCHED_LOG_MAX);
			_exit(2);
		}
		sh->run++;
	}
	_exit(0);
}

/* spawn - fork fn's process and wait for it; its exit status, 128 + signal if killed. */
static int spawn(const struct runner *rn, long runs, const struct sched_strategy *one)
{
	int status;
	pid_t pid;

	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		if (!one)
			worker(rn, runs);
		dup2(rn->out, STDOUT_FILENO);
		dup2(rn->out, STDERR_FILENO);
		if (rn->trace && trace_open(rn->trace) != 0)
			printk("explore: cannot write the trace %s", rn->trace);
		if (explore_boot_hook)
			explore_boot_hook();
		softlockup_start(EXPLORE_SPIN_MS);
		run_here(rn, one);
		trace_close();
		_exit(0);
	}
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return WEXITSTATUS(status);
}

/* run_one - one schedule in a fresh process: a replay, as a student's command would run it. */
static int run_one(const struct runner *rn, const struct sched_strategy *st)
{
	return spawn(rn, 1, st);
}

/* What the run printed, its last len-1 bytes. */
static void run_output(const struct runner *rn, char *buf, size_t len)
{
	off_t end = lseek(rn->out, 0, SEEK_END);
	off_t from = end > (off_t)len - 1 ? end - (off_t)len + 1 : 0;
	ssize_t n = pread(rn->out, buf, len - 1, from);

	buf[n > 0 ? n : 0] = '\0';
}

/* ---- shrinking ---- */

static int preemptions(const struct sched_log *log, unsigned long n)
{
	int p = 0;

	for (unsigned long i = 0; i < n && i < SCHED_LOG_MAX; i++)
		p += log->d[i].current >= 0 && log->d[i].chosen != log->d[i].current;
	return p;
}

/* Replay forced[0..n) with the default after it: does it still fail? */
static bool still_fails(const struct runner *rn, const int8_t *forced, unsigned long n)
{
	struct sched_strategy st = { .kind = SCHED_REPLAY, .forced = forced, .nforced = n,
				     .budget = EXPLORE_BUDGET };

	return run_one(rn, &st) != 0;
}

/*
 * shrink - from a failing log, the shortest prefix of decisions that still
 * fails when the rest runs without preemption, then each remaining
 * preemption dropped if the run fails without it.  Returns the length of
 * the shrunk schedule in decisions (left in forced).
 */
static unsigned long shrink(const struct runner *rn, int8_t *forced)
{
	struct sched_log *log = &rn->sh->log;
	unsigned long n = log->ndecisions < SCHED_LOG_MAX ? log->ndecisions : SCHED_LOG_MAX;
	unsigned long best = n;
	bool *preempt = calloc(n + 1, sizeof(*preempt));

	if (!preempt)
		abort();
	/* Copies: every still_fails() below overwrites the log. */
	for (unsigned long i = 0; i < n; i++) {
		forced[i] = log->d[i].chosen;
		preempt[i] = log->d[i].current >= 0 && log->d[i].chosen != log->d[i].current;
	}
	/* The shortest prefix: none at all, then up to and with each preemption. */
	for (unsigned long m = 0; m <= n; m++) {
		if (m && !preempt[m - 1])
			continue;
		if (still_fails(rn, forced, m)) {
			best = m;
			break;
		}
	}
	free(preempt);
	/* Drop single switches inside the prefix, keeping the run failing. */
	for (unsigned long i = 1; i < best; i++) {
		int8_t was = forced[i];

		if (was == forced[i - 1])
			continue;
		forced[i] = forced[i - 1];	/* stay with whoever ran before */
		if (!still_fails(rn, forced, best))
			forced[i] = was;
	}
	return best;
}

/* ---- strategies ---- */

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* The next DFS schedule into sh->forced; its length, or -1 when the bounded space is exhausted. */
static long dfs_next(struct explore_shared *sh, int bound)
{
	while (sh->depth > 0) {
		struct dfs_node *nd = &sh->stack[sh->depth - 1];

		for (int a = 0; a < SCHED_MAX_TASKS; a++) {
			uint32_t bit = 1u << a;
			int cost = nd->current >= 0 && a != nd->current;

			if (!(nd->runnable & bit) || (nd->tried & bit) || nd->pre_before + cost > bound)
				continue;
			nd->tried |= bit;
			nd->chosen = (int8_t)a;
			for (unsigned long i = 0; i < sh->depth; i++)
				sh->forced[i] = sh->stack[i].chosen;
			return (long)sh->depth;
		}
		sh->depth--;
	}
	return -1;
}

/* Add the decisions the last run made past its forced prefix to the DFS stack. */
static bool dfs_extend(struct explore_shared *sh)
{
	const struct sched_log *log = &sh->log;
	unsigned long n = log->ndecisions;

	if (log->truncated || n > SCHED_LOG_MAX)
		return false;
	for (unsigned long i = sh->depth; i < n; i++) {
		const struct sched_decision *d = &log->d[i];
		const struct dfs_node *prev = i ? &sh->stack[i - 1] : NULL;
		int pre = prev ? prev->pre_before + (prev->current >= 0 && prev->chosen != prev->current) : 0;

		sh->stack[i] = (struct dfs_node){ d->runnable, 1u << d->chosen, d->current, d->chosen, pre };
	}
	sh->depth = n;
	return true;
}

static void progress(const struct explore_opts *o, const struct explore_harness *h, long runs, double t0)
{
	if (!o->quiet && isatty(STDERR_FILENO))
		fprintf(stderr, "\r  %s: %s: %ld schedules (%.1f s)", h->name, o->strategy, runs, now_s() - t0);
}

int explore(const struct explore_harness *h, const struct explore_opts *o, struct explore_result *r)
{
	struct runner rn = { .h = h, .o = o, .bound = -1 };
	char err[160];
	int8_t *forced;
	int status = 0;
	double t0 = now_s();

	memset(r, 0, sizeof(*r));
	if (strncmp(o->strategy, "dfs:", 4) == 0) {
		char *end;

		rn.bound = (int)strtol(o->strategy + 4, &end, 10);
		if (end == o->strategy + 4 || *end || rn.bound < 0 || rn.bound > 8) {
			fprintf(stderr, "explore: dfs:P wants a preemption bound P from 0 to 8\n");
			return -1;
		}
		sched_parse("nonpreemptive", 0, &rn.base, err, sizeof(err));
	} else if (sched_parse(o->strategy, o->seed, &rn.base, err, sizeof(err)) != 0) {
		fprintf(stderr, "explore: %s\n", err);
		return -1;
	}
	rn.base.budget = EXPLORE_BUDGET;
	rn.sh = mmap(NULL, sizeof(*rn.sh), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	rn.out = memfd_create("explore-output", 0);
	forced = malloc(SCHED_LOG_MAX);
	if (rn.sh == MAP_FAILED || rn.out < 0 || !forced)
		abort();
	/*
	 * Every worker is a fresh process: what it pays for is paid again.
	 * One malloc arena (not one per new thread); symbols are bound at
	 * start (-z now in the Makefile), not lazily in each worker.
	 */
	mallopt(M_ARENA_MAX, 1);

	if (rn.base.kind == SCHED_REPLAY) {
		status = run_one(&rn, &rn.base);
		r->runs = 1;
		r->repeats = true;
	} else {
		while (rn.sh->run < o->runs && !rn.sh->exhausted) {
			long before = rn.sh->run;

			status = spawn(&rn, o->runs, NULL);
			if (status != 0)
				break;
			if (rn.sh->run == before)
				break;	/* dfs ended inside the worker */
			progress(o, h, rn.sh->run, t0);
		}
		r->runs = rn.sh->run + (status != 0);
		r->exhausted = rn.sh->exhausted;
	}
	if (status != 0) {
		unsigned long n;

		r->failures = 1;
		r->status = status;
		run_output(&rn, r->output, sizeof(r->output));
		if (rn.base.kind == SCHED_REPLAY) {
			n = rn.base.nforced;
			memcpy(forced, rn.base.forced, n);
		} else if (status == 128 + SIGALRM || strstr(r->output, "soft lockup")) {
			/*
			 * A spin does not depend on the schedule, and each replay would
			 * cost seconds: it is reported with the schedule it ran, unshrunk.
			 */
			n = rn.sh->log.ndecisions < SCHED_LOG_MAX ? rn.sh->log.ndecisions : SCHED_LOG_MAX;
			r->repeats = true;
		} else {
			n = shrink(&rn, forced);
			/* Once more, to leave the shrunk run's log and output behind. */
			r->repeats = still_fails(&rn, forced, n);
			if (r->repeats)
				run_output(&rn, r->output, sizeof(r->output));
		}
		sched_format(&rn.sh->log, n, r->replay, sizeof(r->replay));
		r->preemptions = preemptions(&rn.sh->log, n);
		if (o->trace) {
			struct sched_strategy st = { .kind = SCHED_REPLAY, .forced = forced, .nforced = n,
						     .budget = EXPLORE_BUDGET };

			rn.trace = o->trace;
			run_one(&rn, &st);
		}
	}
	r->seconds = now_s() - t0;
	if (!o->quiet && isatty(STDERR_FILENO))
		fprintf(stderr, "\r\033[K");
	if (rn.base.kind == SCHED_REPLAY)
		sched_strategy_free(&rn.base);
	free(forced);
	close(rn.out);
	munmap(rn.sh, sizeof(*rn.sh));
	return r->failures ? 1 : 0;
}

static const char *status_words(int status)
{
	switch (status) {
	case EXIT_INVARIANT: return "an invariant was broken";
	case EXIT_OOPS: return "the kernel oopsed (BUG, use-after-free, soft lockup)";
	case EXIT_HUNG: return "a deadlock: no task could run";
	case 128 + SIGALRM: return "a task ran for seconds without a schedule point (a busy loop?)";
	default: return status > 128 ? "the run was killed by a signal" : "the run failed";
	}
}

void explore_describe(const struct explore_harness *h, const struct explore_result *r, char *buf, size_t len)
{
	if (r->repeats)
		snprintf(buf, len,
			 "harness %s (%s): %s, on schedule %ld.\n"
			 "--- what the failing run printed (shrunk to %d preemption%s):\n%s"
			 "--- replay it:\n  %s --explore --harness %s --sched %s\n",
			 h->name, h->claim, status_words(r->status), r->runs, r->preemptions,
			 r->preemptions == 1 ? "" : "s", r->output, explore_argv0, h->name, r->replay);
	else
		snprintf(buf, len,
			 "harness %s (%s): %s, on schedule %ld.\n"
			 "--- what the failing run printed:\n%s"
			 "--- replayed alone in a fresh process it passes: the failure depends on what an "
			 "earlier run of the same process left behind (a reference never dropped, a flag never "
			 "reset). Its schedule: %s\n",
			 h->name, h->claim, status_words(r->status), r->runs, r->output, r->replay);
}

/* ---- the command line ---- */

static void print_result(const struct explore_harness *h, const struct explore_opts *o,
			 const struct explore_result *r)
{
	bool dfs = strncmp(o->strategy, "dfs:", 4) == 0;

	printf("explore %s: %s: %ld schedule%s in %.1f s (%.0f/s)%s, %ld failure%s\n", h->name, o->strategy,
	       r->runs, r->runs == 1 ? "" : "s", r->seconds, r->seconds > 0 ? r->runs / r->seconds : 0.0,
	       !dfs || r->failures ? "" : r->exhausted ? ", every schedule within the bound" : ", NOT exhaustive (cap)",
	       r->failures, r->failures == 1 ? "" : "s");
}

int explore_main(int argc, char **argv, const struct explore_harness *const *hs, int n)
{
	const char *only = NULL, *scheds[8], *trace_dir = NULL;
	int nsched = 0, bad = 0, rc = 0;
	long runs = 100000;
	unsigned long seed = 1;

	for (int i = 2; i < argc; i += 2) {	/* every option takes a value */
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;

		if (!v) {
			fprintf(stderr, "explore: %s needs a value\n", a);
			return 2;
		}
		if (strcmp(a, "--harness") == 0)
			only = v;
		else if (strcmp(a, "--sched") == 0 && nsched < 8)
			scheds[nsched++] = v;
		else if (strcmp(a, "--runs") == 0)
			runs = atol(v);
		else if (strcmp(a, "--seed") == 0)
			seed = strtoul(v, NULL, 10);
		else if (strcmp(a, "--trace") == 0)
			trace_dir = v;
		else {
			fprintf(stderr, "explore: unknown option '%s' (--harness NAME, --sched S, --runs N, "
				"--seed N, --trace DIR)\n", a);
			return 2;
		}
	}
	if (!nsched) {
		scheds[nsched++] = "pct:2";
		scheds[nsched++] = "pct:3";
		scheds[nsched++] = "dfs:2";
	}
	for (int k = 0; k < n; k++) {
		const struct explore_harness *h = hs[k];
		bool found = false;

		if (only && strcmp(only, h->name) != 0)
			continue;
		for (int j = 0; j < nsched; j++) {
			/* dfs runs until the bounded space is exhausted: RUNS caps the random strategies only. */
			struct explore_opts o = { .strategy = scheds[j], .seed = seed,
						  .runs = strncmp(scheds[j], "dfs:", 4) ? runs : EXPLORE_DFS_CAP };
			struct explore_result r;
			char trace[512], desc[12000];
			int got;

			if (trace_dir) {
				snprintf(trace, sizeof(trace), "%s/%s.trace", trace_dir, h->name);
				o.trace = trace;
			}
			got = explore(h, &o, &r);
			if (got < 0)
				return 2;
			print_result(h, &o, &r);
			if (got == 0)
				continue;
			found = true;
			explore_describe(h, &r, desc, sizeof(desc));
			if (h->expected_bug && strstr(r.output, h->expected_bug)) {
				printf("  the bug this stage is known for, as expected (\"%s\"):\n%s", h->expected_bug, desc);
			} else {
				printf("  FAILED: %s", desc);
				rc = 1;
			}
			if (trace_dir)
				printf("  trace of the shrunk run: %s (draw it: trace2dot --lifelines %s)\n", trace, trace);
			break;
		}
		if (h->expected_bug && !found) {
			printf("explore %s: FAILED: no schedule showed the bug this stage is known for (\"%s\")\n",
			       h->name, h->expected_bug);
			rc = 1;
		}
	}
	if (only && !bad) {
		bool known = false;

		for (int k = 0; k < n; k++)
			known |= strcmp(only, hs[k]->name) == 0;
		if (!known) {
			fprintf(stderr, "explore: no harness '%s'; there are:", only);
			for (int k = 0; k < n; k++)
				fprintf(stderr, " %s", hs[k]->name);
			fprintf(stderr, "\n");
			return 2;
		}
	}
	return rc;
}

int explore_test_main(int argc, char **argv, void (*boot)(void), const struct explore_harness *const *hs,
		      int n, Suite *suite)
{
	explore_argv0 = argv[0];
	explore_boot_hook = boot;
	if (argc > 1 && strcmp(argv[1], "--explore") == 0)
		return explore_main(argc, argv, hs, n);	/* the suite is left unrun */
	return ktest_main(suite);
}

/*
 * Under a sanitizer each schedule costs ten times more, and what the run is
 * for is the sanitizer's report on the schedules it sees, not coverage:
 * the plain build grades coverage with the full plan.  Every schedule of at
 * most one preemption is still tried.
 */
#ifdef KSIM_SANITIZER
#define GRADE_PCT_RUNS 60
#else
#define GRADE_PCT_RUNS 250
#endif

void explore_grade(const struct explore_harness *h, void (*boot)(void))
{
	static const struct explore_opts plan[] = {
		{ .strategy = "dfs:1", .runs = 20000, .quiet = true },
		{ .strategy = "pct:2", .seed = 1, .runs = GRADE_PCT_RUNS, .quiet = true },
		{ .strategy = "pct:3", .seed = 2, .runs = GRADE_PCT_RUNS, .quiet = true },
	};
	struct explore_result r;
	char msg[12000];

	explore_boot_hook = boot;
	for (size_t i = 0; i < ARRAY_SIZE(plan); i++) {
		if (explore(h, &plan[i], &r) != 0) {
			/* A stub ran: name the exercise, not the race it caused. */
			ck_assert_msg(!strstr(r.output, "TODO("), "exercise not done yet: %s", first_todo(r.output));
			explore_describe(h, &r, msg, sizeof(msg));
			ck_abort_msg("%s", msg);
		}
	}
}

/*
 * explore_expect_bug - the grade of a harness that must fail (expected_bug):
 * every schedule with at most one preemption, then PCT; the first failure
 * must show the bug and fail again when replayed.  A test that would pass
 * if the bug it documents vanished is no test.
 */
void explore_expect_bug(const struct explore_harness *h, void (*boot)(void))
{
	static const struct explore_opts plan[] = {
		{ .strategy = "dfs:1", .runs = 20000, .quiet = true },
		{ .strategy = "pct:2", .seed = 1, .runs = 2000, .quiet = true },
	};
	struct explore_result r = { 0 };
	size_t i;

	explore_boot_hook = boot;
	for (i = 0; i < ARRAY_SIZE(plan); i++)
		if (explore(h, &plan[i], &r) != 0)
			break;
	/* A stub ran: name the exercise, not the hang it caused. */
	ck_assert_msg(!strstr(r.output, "TODO("), "exercise not done yet: %s", first_todo(r.output));
	ck_assert_msg(i < ARRAY_SIZE(plan), "no schedule of %s failed (%ld runs of the last plan): the bug it "
		      "shows (%s) is gone?", h->name, r.runs, h->expected_bug);
	ck_assert_msg(strstr(r.output, h->expected_bug), "%s failed, but without \"%s\":\n%s", h->name,
		      h->expected_bug, r.output);
	ck_assert_msg(r.repeats, "the failing schedule did not fail again when replayed: %s", r.replay);
}
