/* explore_par.c - a pct or random search by several worker processes at once, with the result one worker gives. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/sendfile.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "explore_int.h"

/*
 * The runs are numbered, and run n's schedule depends on n alone (its seed
 * is mixed from the search's seed and n) and on PCT's estimate of a run's
 * length, k.  They are cut into chunks of `batch` runs, chunk c being runs
 * c*batch up to (c+1)*batch, each run by one worker process from a fresh
 * boot, as the sequential search runs its batches.  Chunk 0 runs first,
 * alone: the longest run it saw is every later chunk's starting k, and
 * each chunk raises its own from there.  So what a chunk does depends on
 * its number only, never on which worker runs it or when.
 *
 * The failure reported is the one of lowest run number: when chunk c
 * fails, chunks after c are stopped and chunks before c run to their end,
 * any of them failing in turn replacing c.  With one worker or eight the
 * search reports the same run, and then shrinks and describes it as the
 * sequential search does.
 */
struct slot {
	struct runner rn;		/* its own shared page and output */
	pid_t pid;			/* 0: idle */
	long chunk;			/* the chunk it runs, or -1 */
};

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* explore_progress - the progress line on a terminal: schedules so far, and how fast. */
void explore_progress(const struct runner *rn, long runs, double t0)
{
	double t = now_s() - t0;

	if (rn->o->quiet || !isatty(STDERR_FILENO))
		return;
	if (rn->bound >= 0)
		fprintf(stderr, "\r  %s: %s: %ld schedules (%.1f s)", rn->h->name, rn->o->strategy, runs, t);
	else
		fprintf(stderr, "\r  %s: %s: %ld of %ld schedules (%.1f s, %.0f/s, %d worker%s)", rn->h->name,
			rn->o->strategy, runs, rn->o->runs, t, t > 0 ? runs / t : 0.0, rn->o->jobs > 1 ? rn->o->jobs : 1,
			rn->o->jobs > 1 ? "s" : "");
}

static void slot_start(struct slot *s, long chunk, long batch, unsigned long k)
{
	long end = (chunk + 1) * batch;

	memset(s->rn.sh, 0, sizeof(*s->rn.sh));
	s->rn.sh->run = chunk * batch;
	s->rn.sh->max_steps = k;
	s->chunk = chunk;
	s->pid = explore_fork(&s->rn, end < s->rn.o->runs ? end : s->rn.o->runs);
	if (s->pid < 0)
		abort();
}

/* Copy the failing slot's page and output into rn's, where the shrinker and explore_describe() read them. */
static void take_failure(struct runner *rn, const struct slot *s)
{
	off_t off = 0, len = lseek(s->rn.out, 0, SEEK_END);

	memcpy(rn->sh, s->rn.sh, sizeof(*rn->sh));
	if (ftruncate(rn->out, 0) != 0 || lseek(rn->out, 0, SEEK_SET) != 0)
		abort();
	while (off < len && sendfile(rn->out, s->rn.out, &off, len - off) > 0)
		;
}

int explore_parallel(struct runner *rn, double t0)
{
	const struct explore_opts *o = rn->o;
	long batch = o->batch > 0 && o->batch <= EXPLORE_BATCH ? o->batch : EXPLORE_BATCH;
	long nchunks = (o->runs + batch - 1) / batch, next = 0, best = nchunks, done = 0;
	int jobs = o->jobs, running = 0, status = 0;
	bool first_done = false;
	unsigned long k = 0;
	struct slot *slots = calloc(jobs, sizeof(*slots)), *failed = NULL;

	if (!slots)
		abort();
	for (int i = 0; i < jobs; i++) {
		slots[i].rn = *rn;
		slots[i].rn.sh = mmap(NULL, sizeof(*rn->sh), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
		slots[i].rn.out = memfd_create("explore-output", 0);
		slots[i].chunk = -1;
		if (slots[i].rn.sh == MAP_FAILED || slots[i].rn.out < 0)
			abort();
	}
	for (;;) {
		int wstatus, st;
		pid_t pid;
		struct slot *s = NULL;

		/* Chunk 0 alone (it sets k); then every idle slot a chunk, below the failure found. */
		for (int i = 0; i < jobs && next < best && (next == 0 || first_done); i++) {
			if (slots[i].pid || &slots[i] == failed)
				continue;
			slot_start(&slots[i], next++, batch, k);
			running++;
			if (next == 1)
				break;
		}
		if (!running)
			break;
		while ((pid = waitpid(-1, &wstatus, 0)) < 0 && errno == EINTR)
			;
		for (int i = 0; i < jobs && pid > 0; i++)
			if (slots[i].pid == pid)
				s = &slots[i];
		if (!s)
			continue;	/* not one of ours */
		s->pid = 0;
		running--;
		st = explore_exit_status(wstatus);
		if (s->chunk == 0) {
			k = s->rn.sh->max_steps;
			first_done = true;
		}
		if (st == 0) {
			done += s->rn.sh->run - s->chunk * batch;
		} else if (s->chunk < best) {
			/* The lowest failing chunk so far: stop the ones after it. */
			best = s->chunk;
			failed = s;
			status = st;
			for (int i = 0; i < jobs; i++)
				if (slots[i].pid && slots[i].chunk > best)
					kill(slots[i].pid, SIGKILL);
		}
		explore_progress(rn, done, t0);
	}
	if (failed)
		take_failure(rn, failed);
	else
		rn->sh->run = o->runs;
	for (int i = 0; i < jobs; i++) {
		munmap(slots[i].rn.sh, sizeof(*rn->sh));
		close(slots[i].rn.out);
	}
	free(slots);
	return status;
}
