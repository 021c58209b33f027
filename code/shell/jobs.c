/* jobs.c - background jobs: "cat > FILE &", "kill %N", "wait", as bash shows them. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "delay.h"
#include "scheduler.h"
#include "shell.h"
#include "task.h"
#include "watchdog.h"

/*
 * A job is a task of its own (a process, to the scenario) with its own file
 * table.  Only the shell adds jobs to the table, removes them and joins
 * them; a job task only changes its own state and reads its own killed
 * flag, both under jobs_lock, so that helgrind and drd see every hand-over.
 *
 * A kill is delivered the way the kernel delivers a signal: the job notices
 * it where a process returns to userspace (between two system calls, or in
 * an interruptible sleep), never in the middle of a kernel operation.  Then
 * it exits, and its open files are closed on its own thread.
 *
 * What a job does runs concurrently with the rest of the scenario, except
 * its start: the shell waits until the job has opened its file (or failed
 * to), so "cat > FILE &" holds FILE open before the next line runs, every
 * time.  Anything later in a job is ordered by a delay point that holds
 * it and the shell's "await" of that point (await.c), as the seed's
 * msleep() and sleep did, but without guessing a time.
 */
enum job_state {
	JOB_RUNNING,
	JOB_HOLDING,	/* "cat > FILE &" with the file open: only a kill ends it */
	JOB_DONE,
};

struct job {
	int id;				/* the N of %N */
	const struct command *cmd;
	struct task_struct *task;
	int pid;
	/* Under jobs_lock: */
	enum job_state state;
	bool settled;			/* past its open: the shell may go on */
	bool killed;
	bool terminated;		/* it ended because of the kill */
	int status;			/* what the program returned: 0 or -errno */
	struct strbuf out;		/* what it printed: the job's task's alone until DONE */
	struct job *next;		/* in the order they started: the last is %+ */
};

static pthread_mutex_t jobs_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t jobs_cond = PTHREAD_COND_INITIALIZER;
static struct job *jobs;			/* the shell's alone */
/* current_job - in a job's task, its job (NULL in any other task). */
static struct job *current_job(void)
{
	return current ? current->job : NULL;
}

static void *job_main(void *arg)
{
	struct job *j = arg;
	int status;

	current->job = j;
	out_capture_set(&j->out);	/* for "wait; expect output" */
	files_alloc();
	status = run_program(j->cmd);
	/* do_exit(): the files go first, on this task, as in the seed's oops trace. */
	exit_files();
	pthread_mutex_lock(&jobs_lock);
	j->terminated = j->killed;
	j->status = status;
	j->state = JOB_DONE;
	j->settled = true;
	sched_cond_broadcast(&jobs_cond);
	pthread_mutex_unlock(&jobs_lock);
	return NULL;
}

/* bash numbers a new job one above the highest number still in the table. */
static int next_job_id(void)
{
	int id = 0;

	for (struct job *j = jobs; j; j = j->next)
		if (j->id > id)
			id = j->id;
	return id + 1;
}

static const char *program_comm(const struct command *c)
{
	/* echo is a builtin: in the background it is a forked shell. */
	return c->kind == CMD_ECHO ? "sh" : c->argv[0];
}

int jobs_start(const struct command *c)
{
	struct job *j = calloc(1, sizeof(*j)), **pp;

	if (!j)
		abort();
	j->id = next_job_id();
	j->cmd = c;
	j->state = JOB_RUNNING;
	for (pp = &jobs; *pp; pp = &(*pp)->next)
		;
	*pp = j;
	j->task = kthread_run(job_main, j, "%s", program_comm(c));
	j->pid = j->task->pid;
	out_printf("[%d] %d\n", j->id, j->pid);
	pthread_mutex_lock(&jobs_lock);
	while (!j->settled)
		sched_cond_wait(&jobs_cond, &jobs_lock, "a background job");
	pthread_mutex_unlock(&jobs_lock);
	return 0;
}

/* '+' for the current job (the newest), '-' for the one before, else ' '. */
static char job_mark(struct job *j)
{
	struct job *last = NULL, *prev = NULL;

	for (struct job *k = jobs; k; k = k->next) {
		prev = last;
		last = k;
	}
	return j == last ? '+' : j == prev ? '-' : ' ';
}

static struct job *job_find(long spec)
{
	struct job *last = NULL, *prev = NULL;

	for (struct job *j = jobs; j; j = j->next) {
		if (j->id == spec)
			return j;
		prev = last;
		last = j;
	}
	return spec == JOB_CURRENT ? last : spec == JOB_PREVIOUS ? prev : NULL;
}

/* The status column of bash's job lines. */
static void job_status(struct job *j, char *buf, size_t len)
{
	if (j->state != JOB_DONE)
		snprintf(buf, len, "Running");
	else if (j->terminated)
		snprintf(buf, len, "Terminated");
	else if (j->status)
		snprintf(buf, len, "Exit 1");
	else
		snprintf(buf, len, "Done");
}

/* Join a finished job, print bash's notice for it, drop it from the table. */
static void job_reap(struct job *j, bool notify)
{
	struct job **pp;
	char st[32];

	kthread_join(j->task);
	if (notify) {
		job_status(j, st, sizeof(st));
		out_printf("[%d]%c  %-24s%s\n", j->id, job_mark(j), st, j->cmd->text);
	}
	for (pp = &jobs; *pp != j; pp = &(*pp)->next)
		;
	*pp = j->next;
	free(j->out.s);
	free(j);
}

int jobs_kill(long spec)
{
	struct job *j = job_find(spec);
	bool done;

	if (!j) {
		if (spec > 0)
			err_printf("sh: kill: %%%ld: no such job", spec);
		else
			err_printf("sh: kill: %s: no such job", spec == JOB_CURRENT ? "%%" : "%-");
		return -ESRCH;
	}
	pthread_mutex_lock(&jobs_lock);
	done = j->state == JOB_DONE;
	if (!done) {
		j->killed = true;
		sched_cond_broadcast(&jobs_cond);
	}
	pthread_mutex_unlock(&jobs_lock);
	if (done) {
		err_printf("sh: kill: (%d) - No such process", j->pid);
		return -ESRCH;
	}
	/*
	 * Unlike bash, wait until the job is gone: its release path (and any
	 * oops in it) happens before the next line of the scenario, every run.
	 */
	job_reap(j, true);
	return 0;
}

int jobs_wait(long spec, struct strbuf *out)
{
	struct job *target = NULL, *newest = NULL;
	bool blocked = false;
	int status = 0;

	if (spec) {
		target = job_find(spec);
		if (!target) {
			if (spec > 0)
				err_printf("sh: wait: %%%ld: no such job", spec);
			else
				err_printf("sh: wait: %s: no such job", spec == JOB_CURRENT ? "%%" : "%-");
			return -ESRCH;
		}
	}
	pthread_mutex_lock(&jobs_lock);
	for (;;) {
		bool running = false, holding = false;

		for (struct job *j = jobs; j; j = j->next) {
			if (target && j != target)
				continue;
			running |= j->state != JOB_DONE;
			holding |= j->state == JOB_HOLDING;
		}
		if (!running)
			break;
		/*
		 * A job that holds a file open ends only when killed, and nothing
		 * will kill it while the shell waits: this wait is a hang, and the
		 * hung-task watchdog is what reports it.  A job that is merely slow
		 * (sleeping, or blocked in the kernel, where it is reported itself)
		 * is waited for without complaint.
		 */
		if (holding && !blocked)
			sched_block("wait: a background job holds a file open until it is killed (kill %N first)");
		else if (!holding && blocked)
			sched_unblock();
		blocked = holding;
		sched_cond_wait(&jobs_cond, &jobs_lock, "a background job");
	}
	pthread_mutex_unlock(&jobs_lock);
	if (blocked)
		sched_unblock();
	/*
	 * The job's outcome is the wait's, as $? is in sh: its status (0 or
	 * -errno) and what it printed, then the shell's notices.  Its task set
	 * both before DONE, under jobs_lock, which this task took since.
	 */
	for (struct job *j = jobs; j; j = j->next)
		newest = j;
	if (target || newest) {
		struct job *j = target ? target : newest;

		status = j->status;
		if (out && j->out.len)
			strbuf_add(out, j->out.s, j->out.len);
	}
	if (target)
		job_reap(target, true);
	else
		while (jobs)
			job_reap(jobs, true);
	return status;
}

int jobs_list(void)
{
	struct job *j, *next;
	char st[32];

	for (j = jobs; j; j = j->next) {
		pthread_mutex_lock(&jobs_lock);
		job_status(j, st, sizeof(st));
		pthread_mutex_unlock(&jobs_lock);
		out_printf("[%d]%c  %-24s%s%s\n", j->id, job_mark(j), st, j->cmd->text,
			   strcmp(st, "Running") == 0 ? " &" : "");
	}
	/* Like bash, a finished job is listed once and then forgotten. */
	for (j = jobs; j; j = next) {
		bool done;

		next = j->next;
		pthread_mutex_lock(&jobs_lock);
		done = j->state == JOB_DONE;
		pthread_mutex_unlock(&jobs_lock);
		if (done)
			job_reap(j, false);
	}
	return 0;
}

void jobs_end(void)
{
	while (jobs) {
		pthread_mutex_lock(&jobs_lock);
		jobs->killed = true;
		sched_cond_broadcast(&jobs_cond);
		pthread_mutex_unlock(&jobs_lock);
		job_reap(jobs, false);
	}
}

bool signal_pending(void)
{
	struct job *j = current_job();
	bool killed;

	if (!j)
		return false;
	pthread_mutex_lock(&jobs_lock);
	killed = j->killed;
	pthread_mutex_unlock(&jobs_lock);
	return killed;
}

void job_settle(void)
{
	struct job *j = current_job();

	if (!j)
		return;
	pthread_mutex_lock(&jobs_lock);
	j->settled = true;
	sched_cond_broadcast(&jobs_cond);
	pthread_mutex_unlock(&jobs_lock);
}

void job_hold(void)
{
	struct job *j = current_job();

	if (!j)
		return;
	pthread_mutex_lock(&jobs_lock);
	j->state = JOB_HOLDING;
	j->settled = true;
	sched_cond_broadcast(&jobs_cond);
	while (!j->killed)
		sched_cond_wait(&jobs_cond, &jobs_lock, "job_hold: a background job holds its file open until killed");
	j->state = JOB_RUNNING;
	pthread_mutex_unlock(&jobs_lock);
}

void job_sleep(long ms)
{
	/* An interruptible sleep: short naps, so a kill ends it within 10 ms. */
	while (ms > 0 && !signal_pending()) {
		msleep(ms < 10 ? ms : 10);
		ms -= 10;
	}
}
