/* explore_run.c - the explorer's runs: a harness under one schedule, in worker processes forked from a booted kernel. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>
#include "explore_int.h"
#include "oops.h"
#include "softlockup.h"
#include "task.h"
#include "trace.h"

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

/* One run, in this process: setup, the tasks under the scheduler, the end state.  Returns if it passed. */
void explore_run_here(const struct runner *rn, const struct sched_strategy *st)
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
		if (!explore_next_schedule(rn, &st))
			break;
		explore_run_here(rn, &st);
		if (sh->log.steps > sh->max_steps)
			sh->max_steps = sh->log.steps;
		if (rn->bound >= 0 && !explore_dfs_extend(sh)) {
			printk("explore: a run made more than %d decisions: too long for dfs", SCHED_LOG_MAX);
			_exit(2);
		}
		sh->run++;
	}
	_exit(0);
}

/* explore_fork - start a worker on rn's schedules from rn->sh->run up to runs; its pid, or -1. */
int explore_fork(const struct runner *rn, long runs)
{
	pid_t pid;

	fflush(NULL);
	pid = fork();
	if (pid == 0)
		worker(rn, runs);
	return pid;
}

/* explore_exit_status - a worker's exit status from waitpid()'s, 128 + signal if it was killed. */
int explore_exit_status(int wstatus)
{
	return WIFSIGNALED(wstatus) ? 128 + WTERMSIG(wstatus) : WEXITSTATUS(wstatus);
}

/* explore_spawn - fork fn's process and wait for it; its exit status, 128 + signal if killed. */
int explore_spawn(const struct runner *rn, long runs, const struct sched_strategy *one)
{
	int status;
	pid_t pid;

	if (!one)
		pid = explore_fork(rn, runs);
	else {
		fflush(NULL);
		pid = fork();
	}
	if (pid < 0)
		return -1;
	if (pid == 0) {
		dup2(rn->out, STDOUT_FILENO);
		dup2(rn->out, STDERR_FILENO);
		if (rn->trace && trace_open(rn->trace) != 0)
			printk("explore: cannot write the trace %s", rn->trace);
		if (explore_boot_hook)
			explore_boot_hook();
		softlockup_start(EXPLORE_SPIN_MS);
		explore_run_here(rn, one);
		trace_close();
		_exit(0);
	}
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	return explore_exit_status(status);
}

/* explore_run_one - one schedule in a fresh process: a replay, as a student's command would run it. */
int explore_run_one(const struct runner *rn, const struct sched_strategy *st)
{
	return explore_spawn(rn, 1, st);
}

/* What the run printed, its last len-1 bytes. */
void explore_run_output(const struct runner *rn, char *buf, size_t len)
{
	off_t end = lseek(rn->out, 0, SEEK_END);
	off_t from = end > (off_t)len - 1 ? end - (off_t)len + 1 : 0;
	ssize_t n = pread(rn->out, buf, len - 1, from);

	buf[n > 0 ? n : 0] = '\0';
}
