/* exec.c - run one command: userspace programs on tasks of their own, builtins in the shell. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "delay.h"
#include "kconfig.h"
#include "hotplug.h"
#include "module.h"
#include "shell.h"
#include "task.h"
#include "trace.h"
#include "vfs.h"
#include "watchdog.h"
#include "workqueue.h"

/*
 * Which task does what matters here, because the stage's code runs on the
 * task that calls into it and the oops report and the trace name that task:
 * insmod, rmmod, lsmod, ls and cat are programs, so each runs on a new task
 * with its own pid and file table; echo is a shell builtin and writes from
 * the shell's own task ("sh[1]"), as in the seed's "echo 1 > .../delete".
 */

/* A file's whole content is never more than this: a stage or driver bug must not loop forever. */
#define CAT_MAX (1 << 20)

/**
 * cat_read_all - cat's loop: read an open file to its end onto stdout.
 * @path: the file's name, for an error message
 * @file: the file, open for reading
 * @read_op: how to read it: vfs_read() for sysfs, a character device's
 *	kernel_read() for /dev (devfile.c)
 *
 * Stops early when the job is killed or after CAT_MAX bytes.
 *
 * Context: a program's task; may sleep.  Return: 0, or the failed read's
 * negative errno, reported as cat reports it ("cat: PATH: ...").
 */
__noinline int cat_read_all(const char *path, struct file *file,
			    ssize_t (*read_op)(struct file *file, char *buf, size_t len))
{
	char buf[4096];
	ssize_t n, total = 0;

	while (!signal_pending() && total < CAT_MAX) {
		n = read_op(file, buf, sizeof(buf));
		if (n < 0) {
			err_printf("cat: %s: %s", path, strerror(-n));
			return n;
		}
		if (n == 0)
			break;
		out_write(buf, n);
		total += n;
	}
	return 0;
}

static __noinline int do_cat_file(const char *path)
{
	struct file *file;
	int fd, err;

	/*
	 * A path under /dev/ names a device number, not a sysfs node: the
	 * open goes to the character-device layer (devfile.c), as the
	 * kernel's path walk hands a device node's open to chrdev_open().
	 */
	if (strncmp(path, "/dev/", 5) == 0)
		return do_cat_dev(path);
	err = vfs_open(path, VFS_READ, &file);
	job_settle();
	if (err) {
		err_printf("cat: %s: %s", path, strerror(-err));
		return err;
	}
	fd = fd_install(file);
	if (fd < 0) {
		vfs_close(file);
		err_printf("cat: %s: %s", path, strerror(-fd));
		return fd;
	}
	err = cat_read_all(path, file, vfs_read);
	fd_close(fd);
	return err;
}

/* cat > FILE &: the shell opens the redirect, cat then waits on the terminal. */
static __noinline int do_cat_hold(const char *path)
{
	struct file *file;
	int err, fd;

	err = vfs_open(path, VFS_WRITE, &file);
	if (err) {
		err_printf("sh: %s: %s", path, strerror(-err));
		return err;
	}
	fd = fd_install(file);
	if (fd < 0) {
		vfs_close(file);
		err_printf("sh: %s: %s", path, strerror(-fd));
		return fd;
	}
	/* The file stays open until the job is killed; exit_files() closes it. */
	job_hold();
	return 0;
}

static int do_cat(const struct command *c)
{
	int err = 0;

	if (c->redir)
		return do_cat_hold(c->redir);
	for (int i = 1; i < c->argc && !signal_pending(); i++) {
		int e = do_cat_file(c->argv[i]);

		if (e)
			err = e;
	}
	return err;
}

static __noinline int do_echo(const struct command *c)
{
	struct strbuf text = { 0 };
	struct file *file;
	ssize_t n;
	int err, fd;

	for (int i = c->first_arg; i < c->argc; i++) {
		if (i > c->first_arg)
			strbuf_add(&text, " ", 1);
		strbuf_add(&text, c->argv[i], strlen(c->argv[i]));
	}
	if (c->newline)
		strbuf_add(&text, "\n", 1);
	if (!c->redir) {
		if (text.len)
			out_write(text.s, text.len);
		free(text.s);
		return 0;
	}
	err = vfs_open(c->redir, VFS_WRITE, &file);
	job_settle();
	if (err) {
		err_printf("sh: %s: %s", c->redir, strerror(-err));
		goto out;
	}
	fd = fd_install(file);
	if (fd < 0) {
		vfs_close(file);
		err = fd;
		err_printf("sh: %s: %s", c->redir, strerror(-err));
		goto out;
	}
	n = vfs_write(file, text.s ? text.s : "", text.len);
	if (n < 0) {
		err = n;
		err_printf("sh: echo: write error: %s", strerror(-err));
	}
	fd_close(fd);
out:
	free(text.s);
	return err;
}

/* ls: the entries one a line, as ls(1) prints them to a pipe. */
struct ls_list {
	struct strbuf names;
};

static void ls_emit(const char *name, bool dir, void *ctx)
{
	struct ls_list *l = ctx;

	(void)dir;
	strbuf_add(&l->names, name, strlen(name));
	strbuf_add(&l->names, "\n", 1);
}

static __noinline int do_ls(const struct command *c)
{
	struct ls_list l = { { 0 } };
	int err = vfs_readdir(c->arg, ls_emit, &l);

	if (err == -ENOTDIR) {
		/* ls FILE prints the file's name. */
		out_printf("%s\n", c->arg);
		err = 0;
	} else if (err) {
		err_printf("ls: cannot access '%s': %s", c->arg, strerror(-err));
	} else if (l.names.len) {
		out_write(l.names.s, l.names.len);
	}
	free(l.names.s);
	return err;
}

int run_program(const struct command *c)
{
	/* Only cat, echo, ioctl and poll open files: the others are under way once started. */
	if (c->kind != CMD_CAT && c->kind != CMD_IOCTL && c->kind != CMD_POLL && !(c->kind == CMD_ECHO && c->redir))
		job_settle();
	switch (c->kind) {
	case CMD_INSMOD:
		/* The loader prints insmod(8)'s and rmmod(8)'s errors itself. */
		return insmod(c->argv[1]);
	case CMD_RMMOD:
		return rmmod(c->argv[1]);
	case CMD_LSMOD:
		out_capture_stdout(lsmod);
		return 0;
	case CMD_LS:
		return do_ls(c);
	case CMD_CAT:
		return do_cat(c);
	case CMD_ECHO:
		return do_echo(c);
	case CMD_SLEEP:
		job_sleep(c->ms);
		return 0;
	case CMD_IOCTL:
		return do_ioctl(c);
	case CMD_POLL:
		return do_poll(c);
	default:
		err_printf("sh: %s: not a program", c->argv[0]);
		return -EINVAL;
	}
}

/* A foreground program: a task of its own, and the shell waits for it. */
struct child {
	const struct command *cmd;
	struct strbuf *out;
	int status;
};

static void *child_main(void *arg)
{
	struct child *ch = arg;

	out_capture_set(ch->out);
	files_alloc();
	ch->status = run_program(ch->cmd);
	exit_files();
	return NULL;
}

static int run_child(const struct command *c, struct strbuf *out)
{
	struct child ch = { .cmd = c, .out = out };

	/*
	 * The shell does not tell the watchdog it is waiting: like wait4() in
	 * the kernel this is an interruptible sleep.  If the child hangs in the
	 * kernel, the child is the task the watchdog reports.
	 */
	kthread_join(kthread_run(child_main, &ch, "%s", c->argv[0]));
	return ch.status;
}

static int do_hotplug(const struct command *c)
{
	int err = c->kind == CMD_PLUG ? hotplug_plug(c->arg) : hotplug_unplug(c->arg);

	if (err)
		err_printf("%s: %s: %s", c->argv[0], c->arg, strerror(-err));
	return err;
}

static int do_builtin(const struct command *c)
{
	int err;

	switch (c->kind) {
	case CMD_ECHO:
		return run_program(c);
	case CMD_SLEEP:
		msleep(c->ms);
		return 0;
	case CMD_KILL:
		return jobs_kill(c->n);
	case CMD_WAIT:
		return jobs_wait(c->n, out_capture());
	case CMD_JOBS:
		return jobs_list();
	case CMD_PLUG:
	case CMD_UNPLUG:
		return do_hotplug(c);
	case CMD_DELAY:
		err = delay_set(c->arg, c->ms);
		if (err)
			err_printf("delay: %s: no such delay point", c->arg);
		return err;
	case CMD_AWAIT:
		return do_await(c);
	case CMD_SETTLE:
		/* What udevadm settle is to events, for the kernel's queued work: a pending callback, a delayed release. */
		flush_scheduled_work();
		return 0;
	case CMD_TRACE:
		if (c->op == TRACE_MARK) {
			char obj[TRACE_NAME_LEN];

			snprintf(obj, sizeof(obj), "label:%s", c->arg);
			trace_event("mark", obj, NULL);
		} else {
			trace_enable(c->op == TRACE_ON);
		}
		return 0;
	case CMD_HUNG_TIMEOUT:
		watchdog_set_limit(c->ms);
		return 0;
	case CMD_CONFIG:
		return kconfig_set(c->arg, c->n);
	default:
		return run_child(c, out_capture());
	}
}

void exec_command(const struct command *c, struct result *res)
{
	res->cmd = c;
	strbuf_reset(&res->out);
	out_capture_set(&res->out);
	if (c->background)
		res->status = jobs_start(c);
	else
		res->status = do_builtin(c);
	out_capture_set(NULL);
}
