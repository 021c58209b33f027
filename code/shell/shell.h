/* shell.h - the scenario runner's parts: output, file tables, jobs, commands, expectations. */
#ifndef KSIM_SHELL_H
#define KSIM_SHELL_H

#include "kernel.h"
#include "task.h"
#include "script.h"

struct file;

/* ---- output.c: what the scenario's programs print ---- */
struct strbuf {
	char *s;
	size_t len, cap;
};
void strbuf_add(struct strbuf *b, const char *s, size_t n);
void strbuf_reset(struct strbuf *b);

/*
 * out_capture - where this task's standard output is also collected, for
 * "expect output" (NULL: nowhere).  Each task sets its own (a field of its
 * task_struct), and the shell reads a foreground program's buffer only
 * after joining it.
 */
static inline struct strbuf *out_capture(void)
{
	return current ? current->out : NULL;
}
static inline void out_capture_set(struct strbuf *b)
{
	current->out = b;
}
void out_write(const char *s, size_t n);
void out_printf(const char *fmt, ...) __printf(1, 2);
/* err_printf - one whole line to stderr, as a program reports an error. */
void err_printf(const char *fmt, ...) __printf(1, 2);
/* out_capture_stdout - run fn with everything it printf()s collected too. */
void out_capture_stdout(void (*fn)(void));

/* ---- files.c: each task's file table ---- */
/* files_alloc - give the current task an empty table (fds 0-2 are the terminal). */
void files_alloc(void);
/* fd_install - put file in the current task's table: its fd, or -EMFILE. */
int fd_install(struct file *file);
/* fd_install_dev - the same for a device node's file (devfile.c). */
int fd_install_dev(void *file);
/* fd_close - close one fd: vfs_close() (or a device file's fput()) runs on the calling task. */
void fd_close(int fd);
/* exit_files - what do_exit() does: close every open file, in fd order. */
void exit_files(void);

/* ---- jobs.c: background tasks started with '&' ---- */
/* jobs_start - start c on a task of its own, print "[N] PID". */
int jobs_start(const struct command *c);
/* jobs_kill - kill %N: the job closes its files and exits, then "[N]+ Terminated". */
int jobs_kill(long spec);
/*
 * jobs_wait - wait for job spec to end (0: every job; one holding a file
 * never does: the watchdog says so).  Returns that job's status (0: the
 * newest job's; 0 if there was none) and adds what it printed to out.
 */
int jobs_wait(long spec, struct strbuf *out);
int jobs_list(void);
/* jobs_end - the end of the script: kill what is left, silently, each on its own task. */
void jobs_end(void);
/* In a job: has it been killed?  Checked where a process returns to userspace. */
bool signal_pending(void);
/* job_settle - in a job, after its open: the shell may run the next command. */
void job_settle(void);
/* job_hold - "cat > FILE &" after its open: wait until killed. */
void job_hold(void);
/* job_sleep - sleep that a kill interrupts. */
void job_sleep(long ms);

/* ---- devfile.c: files under /dev, a character device's ---- */
/* do_cat_dev - cat of a path under /dev: open, read to the end, close. */
int do_cat_dev(const char *path);
/* do_ioctl - ioctl FILE CMD ARG: open, the driver's unlocked_ioctl, close; prints what it returned. */
int do_ioctl(const struct command *c);
/* do_poll - poll /dev/NAME: open, the driver's poll, close; prints the mask ("POLLERR|POLLHUP"). */
int do_poll(const struct command *c);
/* dev_file_close - the last close of a device file (fput()). */
void dev_file_close(void *file);

/* ---- exec.c: running one command ---- */
struct result {
	const struct command *cmd;	/* the last command run (not an expect) */
	int status;			/* 0 or -errno */
	struct strbuf out;		/* what it printed on stdout */
};
/* run_program - the body of a userspace program, on the current task. */
int run_program(const struct command *c);
/* cat_read_all - cat's loop, to the end onto stdout: read_op is vfs_read() for sysfs, a device's read for /dev. */
int cat_read_all(const char *path, struct file *file,
		 ssize_t (*read_op)(struct file *file, char *buf, size_t len));
/* exec_command - run c (not an expect) from the shell; its outcome goes to res. */
void exec_command(const struct command *c, struct result *res);

/* ---- await.c ---- */
/*
 * do_await - "await POINT [TIMEOUT]": wait until a task is held at the
 * armed delay point.  If none gets there in time, say so (FILE:LINE:COL)
 * and end the run with EXIT_AWAIT.  Returns 0.
 */
int do_await(const struct command *c);

/* ---- expect.c ---- */
/* expect_check - does the expectation c hold for last?  If not, say why and return false. */
bool expect_check(const struct script *s, const struct command *c, const struct result *last);

#endif
