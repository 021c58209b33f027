/* explore_dfs.c - a bounded dfs by several worker processes at once, with the result the sequential search gives. */
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/sendfile.h>
#include <sys/wait.h>
#include <unistd.h>
#include "explore_int.h"
#include "softlockup.h"

/*
 * The sequential dfs (explore_search.c) runs its schedules in one order:
 * a run forced to a prefix F, then for each decision j of that run from
 * the last back to the first past F, each other task a it could have
 * chosen there (lowest first, within the preemption bound), the whole
 * subtree of schedules that start with the run's first j decisions and a.
 * The schedules starting with one prefix are consecutive in that order,
 * so the search is a list of subtrees, each named by its prefix, and a
 * subtree is itself its first run followed by its children's subtrees.
 *
 * Here the list starts as the whole search; the subtree that looks
 * largest (guess()) is replaced by its first run (run once, by a process
 * of its own, to learn its decisions) and its children, until the largest
 * looks a small part of the whole.  The workers then take the subtrees in
 * list order, each one searched as the sequential search would search it
 * (dfs_next() stops at the subtree's prefix, sh->floor).  The counts are added in list order;
 * the failure reported is the one in the first subtree that has one, the
 * subtrees before it being run to their end and those after it stopped.
 * So with one worker or eight the search runs the same schedules, counts
 * them the same, and reports the same failing run, which explore() then
 * shrinks and describes as it does any other.
 */
#define SPLIT_ITEMS 65536	/* the list's length at most */
#define SPLIT_RUNS 200		/* first runs made to split it, at most */
#define SPLIT_SHARE 16		/* split until the largest subtree looks smaller than 1/(jobs * this) */

struct item {
	int8_t *prefix;
	unsigned long len;
	double size;		/* a guess at the log of how many schedules the subtree holds */
	bool single;		/* the subtree's first run only (its children are items of their own) */
};

struct item_state {
	_Atomic long runs;	/* runs done, passed */
	_Atomic int done;	/* 1: every run of it passed; 2: its first run passed while splitting */
};

/* What the workers and the coordinator share (besides each worker's struct explore_shared). */
struct plan {
	_Atomic long next;	/* the next item to take */
	_Atomic long stop;	/* items after this one are not run (a failure, or the cap, is in it) */
	_Atomic long total;	/* runs done by every worker: for the progress line */
	struct item_state st[SPLIT_ITEMS];
};

struct dfs_slot {
	struct runner rn;	/* its own shared page and output */
	pid_t pid;		/* 0: not running */
	bool killed;		/* by us: its item is not needed */
};

static struct item *items;
static long nitems;

/*
 * The first runs that split the list are run by one process, booted once,
 * that runs each prefix written to its request pipe and answers on its
 * reply pipe; a run that fails ends it, and the end of its answers says so.
 */
struct splitter {
	pid_t pid;
	int req, rep;
};

static void splitter_start(struct splitter *sp, const struct runner *rn)
{
	int req[2], rep[2];
	unsigned long len;

	if (pipe(req) != 0 || pipe(rep) != 0)
		abort();
	fflush(NULL);
	sp->pid = fork();
	if (sp->pid < 0)
		abort();
	if (sp->pid == 0) {
		close(req[1]);
		close(rep[0]);
		dup2(rn->out, STDOUT_FILENO);
		dup2(rn->out, STDERR_FILENO);
		if (explore_boot_hook)
			explore_boot_hook();
		softlockup_start(EXPLORE_SPIN_MS);
		while (read(req[0], &len, sizeof(len)) == sizeof(len)) {
			struct sched_strategy st = { .kind = SCHED_REPLAY, .forced = rn->sh->forced, .nforced = len,
						     .budget = EXPLORE_BUDGET };
			char ok = 0;

			explore_run_here(rn, &st);
			if (write(rep[1], &ok, 1) != 1)
				_exit(2);
		}
		_exit(0);
	}
	close(req[0]);
	close(rep[1]);
	sp->req = req[1];
	sp->rep = rep[0];
}

/* One run forced to prefix, its log left in rn->sh->log; 0 if it passed, else its exit status. */
static int splitter_run(struct splitter *sp, const struct runner *rn, const int8_t *prefix, unsigned long len)
{
	int wstatus, status;
	char ok;

	memcpy(rn->sh->forced, prefix, len);
	if (write(sp->req, &len, sizeof(len)) == sizeof(len) && read(sp->rep, &ok, 1) == 1)
		return 0;
	while (waitpid(sp->pid, &wstatus, 0) < 0 && errno == EINTR)
		;
	sp->pid = 0;
	status = explore_exit_status(wstatus);
	return status ? status : 1;
}

static void splitter_stop(struct splitter *sp)
{
	int wstatus;

	close(sp->req);
	close(sp->rep);
	if (sp->pid)
		while (waitpid(sp->pid, &wstatus, 0) < 0 && errno == EINTR)
			;
}

/*
 * The guess, as a logarithm: the run's decisions after the choice, each
 * where no task was running (a free choice) multiplying the schedules by
 * its runnable tasks, each preemption left by the decisions where one
 * could be made.  Wrong in size but right in order: a subtree nearer the
 * start, or with more preemptions left, looks larger.
 */
static double guess(const struct dfs_node *stack, unsigned long from, unsigned long n, int left)
{
	double lfree = 0;
	long pre = 0;

	for (unsigned long i = from; i < n; i++) {
		int k = __builtin_popcount(stack[i].runnable);

		if (k < 2)
			continue;
		if (stack[i].current < 0)
			lfree += log(k);
		else
			pre += k - 1;
	}
	return lfree + left * log1p((double)pre);
}

static void add_item(long at, const int8_t *prefix, unsigned long len, double size, bool single)
{
	struct item *it = &items[at];

	memmove(it + 1, it, (nitems - at) * sizeof(*it));
	nitems++;
	it->prefix = malloc(len ? len : 1);
	if (!it->prefix)
		abort();
	memcpy(it->prefix, prefix, len);
	it->len = len;
	it->size = size;
	it->single = single;
}

/* Would the dfs try task a at node nd, other than the one the run chose? */
static bool child(const struct runner *rn, const struct dfs_node *nd, int a)
{
	int cost = nd->current >= 0 && a != nd->current;

	return (nd->runnable & (1u << a)) && a != nd->chosen && nd->pre_before + cost <= rn->bound;
}

/* How many children a run of n decisions, forced for its first f, has. */
static long children(const struct runner *rn, unsigned long f, unsigned long n)
{
	long c = 0;

	for (unsigned long j = f; j < n; j++)
		for (int a = 0; a < SCHED_MAX_TASKS; a++)
			c += child(rn, &rn->sh->stack[j], a);
	return c;
}

/*
 * Replace item i by its first run and its children, in the sequential
 * order.  scratch runs that first run; its status if it failed (the item
 * is then the first run alone, and the items after it are dropped: the
 * sequential search would stop there), 0 if it was split, -1 if it is
 * left whole (too many children, or a run too long for dfs).
 */
static int split(struct splitter *sp, struct runner *scratch, long i, struct plan *p)
{
	struct explore_shared *sh = scratch->sh;
	struct item *it = &items[i];
	unsigned long f = it->len, n;
	long at = i + 1;
	int status;

	sh->depth = 0;
	status = splitter_run(sp, scratch, it->prefix, it->len);
	if (status != 0) {
		it->single = true;
		while (nitems > i + 1)
			free(items[--nitems].prefix);
		return status;
	}
	if (!explore_dfs_extend(sh))
		return -1;	/* too long for dfs: the worker that runs it says so */
	n = sh->depth;
	if (nitems + children(scratch, f, n) > SPLIT_ITEMS)
		return -1;	/* left whole */
	it->single = true;
	atomic_store(&p->st[i].runs, 1);
	atomic_store(&p->st[i].done, 2);
	atomic_fetch_add(&p->total, 1);
	for (unsigned long j = n; j-- > f;) {
		const struct dfs_node *nd = &sh->stack[j];

		for (int a = 0; a < SCHED_MAX_TASKS; a++) {
			int cost = nd->current >= 0 && a != nd->current;

			if (!child(scratch, nd, a))
				continue;
			for (unsigned long k = 0; k < j; k++)
				sh->forced[k] = sh->stack[k].chosen;
			sh->forced[j] = (int8_t)a;
			/* The item states after i move with their items. */
			memmove(&p->st[at + 1], &p->st[at], (nitems - at) * sizeof(p->st[0]));
			memset(&p->st[at], 0, sizeof(p->st[0]));
			add_item(at++, sh->forced, j + 1, guess(sh->stack, j + 1, n, scratch->bound - nd->pre_before - cost),
				 false);
		}
	}
	return 0;
}

/* Split the whole search into items; the status of a first run that failed, else 0. */
static int make_plan(struct runner *rn, struct plan *p, int jobs)
{
	struct runner scratch = *rn;
	struct splitter sp;
	int status = 0;

	nitems = 0;
	items = calloc(SPLIT_ITEMS, sizeof(*items));
	if (!items)
		abort();
	add_item(0, NULL, 0, HUGE_VAL, false);
	scratch.sh->floor = 0;
	splitter_start(&sp, &scratch);
	for (int k = 0; k < SPLIT_RUNS; k++) {
		double most = -HUGE_VAL, sum = 0;
		long big = -1;

		for (long i = 0; i < nitems; i++)
			if (!items[i].single && items[i].size > most) {
				most = items[i].size;
				big = i;
			}
		for (long i = 0; i < nitems; i++)
			if (!items[i].single)
				sum += exp(items[i].size - most);
		/* sum is the whole over the largest: split while the largest is more than its share. */
		if (big < 0 || (k > 0 && sum > jobs * SPLIT_SHARE))
			break;
		status = split(&sp, &scratch, big, p);
		if (status != 0)
			break;
	}
	splitter_stop(&sp);
	return status > 0 ? status : 0;
}

/* Set sh up for item i's first run. */
static void start_item(struct explore_shared *sh, long i)
{
	sh->depth = 0;
	sh->run = 0;
	sh->exhausted = false;
	sh->item = i;
	sh->floor = items[i].len;
	memcpy(sh->forced, items[i].prefix, items[i].len);
}

/* A worker: take items in order and search each; a failing run kills the process, its item in sh->item. */
static __noreturn void worker(struct runner *rn, struct plan *p)
{
	struct explore_shared *sh = rn->sh;
	struct sched_strategy st;

	dup2(rn->out, STDOUT_FILENO);
	dup2(rn->out, STDERR_FILENO);
	if (explore_boot_hook)
		explore_boot_hook();
	softlockup_start(EXPLORE_SPIN_MS);
	for (long k = 0; k < EXPLORE_BATCH;) {
		long i = sh->item;

		if (i < 0) {
			i = atomic_fetch_add(&p->next, 1);
			if (i >= nitems || i > atomic_load(&p->stop))
				_exit(0);
			if (atomic_load(&p->st[i].done))
				continue;	/* run while splitting */
			start_item(sh, i);
		}
		if (sh->run >= rn->o->runs || (items[i].single && sh->run == 1) || !explore_next_schedule(rn, &st)) {
			atomic_store(&p->st[i].runs, sh->run);
			atomic_store(&p->st[i].done, 1);
			sh->item = -1;
			continue;
		}
		explore_run_here(rn, &st);
		if (!explore_dfs_extend(sh)) {
			printk("explore: a run made more than %d decisions: too long for dfs", SCHED_LOG_MAX);
			_exit(2);
		}
		sh->run++;
		atomic_fetch_add(&p->total, 1);
		k++;
	}
	_exit(0);
}

static void progress(const struct runner *rn, const struct plan *p, int jobs, double t0, double now)
{
	long done = 0;

	if (rn->o->quiet || !isatty(STDERR_FILENO))
		return;
	for (long i = 0; i < nitems; i++)
		done += atomic_load(&p->st[i].done) != 0;
	fprintf(stderr, "\r  %s: %s: %ld schedules, %ld of %ld subtrees (%.1f s, %d worker%s)", rn->h->name,
		rn->o->strategy, atomic_load(&p->total), done, nitems, now - t0, jobs, jobs > 1 ? "s" : "");
}

/* Copy the failing slot's page and output into rn's, where the shrinker and explore_describe() read them. */
static void take_failure(struct runner *rn, const struct dfs_slot *s)
{
	off_t off = 0, len = lseek(s->rn.out, 0, SEEK_END);

	memcpy(rn->sh, s->rn.sh, sizeof(*rn->sh));
	if (ftruncate(rn->out, 0) != 0 || lseek(rn->out, 0, SEEK_SET) != 0)
		abort();
	while (off < len && sendfile(rn->out, s->rn.out, &off, len - off) > 0)
		;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void slot_start(struct dfs_slot *s, struct plan *p)
{
	fflush(NULL);
	s->pid = fork();
	if (s->pid < 0)
		abort();
	if (s->pid == 0)
		worker(&s->rn, p);
}

/**
 * explore_dfs_parallel - rn's dfs by rn->o->jobs worker processes at once
 * @rn: the search (its bound, harness, options); its page and output get the failing run's
 * @t0: when the search began, for the progress line
 * @exhausted: set as the sequential search would leave it
 * @subtrees: set to how many parts the workers searched (besides the first runs that split it)
 *
 * Context: the explorer's process; forks and waits for its workers.
 * Return: the failing run's exit status (rn->sh->run its number in the
 * sequential order), else 0.
 */
int explore_dfs_parallel(struct runner *rn, double t0, bool *exhausted, long *subtrees)
{
	int jobs = rn->o->jobs, running = 0, status = 0;
	struct plan *p = mmap(NULL, sizeof(*p), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	struct dfs_slot *slots = calloc(jobs, sizeof(*slots)), *failed = NULL;
	long total = 0, fail_at = SPLIT_ITEMS, cap_at = SPLIT_ITEMS;

	if (p == MAP_FAILED || !slots)
		abort();
	atomic_store(&p->stop, SPLIT_ITEMS);
	make_plan(rn, p, jobs);	/* a failing first run is an item of its own: a worker runs it again */
	*subtrees = 0;
	for (long i = 0; i < nitems; i++)
		*subtrees += !items[i].single;
	for (int i = 0; i < jobs; i++) {
		slots[i].rn = *rn;
		slots[i].rn.sh = mmap(NULL, sizeof(*rn->sh), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
		slots[i].rn.out = memfd_create("explore-output", 0);
		if (slots[i].rn.sh == MAP_FAILED || slots[i].rn.out < 0)
			abort();
		slots[i].rn.sh->item = -1;
		slot_start(&slots[i], p);
		running++;
	}
	while (running) {
		struct dfs_slot *s = NULL;
		int wstatus, st;
		long i;
		pid_t pid;

		while ((pid = waitpid(-1, &wstatus, 0)) < 0 && errno == EINTR)
			;
		if (pid < 0)
			break;
		for (int j = 0; j < jobs; j++)
			if (slots[j].pid == pid)
				s = &slots[j];
		if (!s)
			continue;	/* not one of ours */
		if (explore_exit_status(wstatus) != 0 && s->rn.sh->item < 0 && !s->killed) {
			fprintf(stderr, "explore: a dfs worker died between runs (status %d)\n",
				explore_exit_status(wstatus));
			abort();
		}
		s->pid = 0;
		running--;
		st = explore_exit_status(wstatus);
		i = s->rn.sh->item;
		if (s->killed) {
			s->killed = false;
			continue;	/* its item is after the one that stops the search */
		}
		if (st != 0 && i >= 0 && i < fail_at && i <= atomic_load(&p->stop)) {
			/* The first failing item so far: the ones after it are not needed. */
			fail_at = i;
			failed = s;
			status = st;
		} else if (cap_at == SPLIT_ITEMS) {
			/* The cap (o->runs) reached by the items done in order: the ones after it are not needed. */
			long sum = 0;

			for (long k = 0; k < nitems && atomic_load(&p->st[k].done); k++)
				if ((sum += atomic_load(&p->st[k].runs)) >= rn->o->runs) {
					cap_at = k;
					break;
				}
		}
		atomic_store(&p->stop, fail_at < cap_at ? fail_at : cap_at);
		for (int j = 0; j < jobs; j++)
			if (slots[j].pid && slots[j].rn.sh->item > atomic_load(&p->stop) && !slots[j].killed) {
				kill(slots[j].pid, SIGKILL);
				slots[j].killed = true;
			}
		if (st == 0 && ((s->rn.sh->item >= 0 && s->rn.sh->item <= atomic_load(&p->stop)) ||
				(atomic_load(&p->next) < nitems && atomic_load(&p->next) <= atomic_load(&p->stop)))) {
			slot_start(s, p);	/* its batch of runs is done: a fresh process goes on */
			running++;
		}
		progress(rn, p, jobs, t0, now_s());
	}
	/* The counts in the sequential order, up to the failing item or the cap. */
	*exhausted = true;
	for (long i = 0; i < nitems; i++) {
		long n = atomic_load(&p->st[i].runs);

		if (i == fail_at) {
			n = failed->rn.sh->run;
			if (total + n < rn->o->runs) {
				take_failure(rn, failed);
				rn->sh->run = total + n;
				*exhausted = false;
				goto out;
			}
		} else if (!atomic_load(&p->st[i].done)) {
			fprintf(stderr, "explore: dfs subtree %ld of %ld was never run\n", i, nitems);
			abort();
		}
		if (total + n >= rn->o->runs) {
			total = rn->o->runs;
			*exhausted = false;
			break;
		}
		total += n;
	}
	status = 0;
	rn->sh->run = total;
out:
	for (int i = 0; i < jobs; i++) {
		munmap(slots[i].rn.sh, sizeof(*rn->sh));
		close(slots[i].rn.out);
	}
	for (long i = 0; i < nitems; i++)
		free(items[i].prefix);
	free(items);
	free(slots);
	munmap(p, sizeof(*p));
	return status;
}
