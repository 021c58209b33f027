/* active_tree.h - the tiny tree the active-reference tests of stages 3 and 4 work on, and a check both make. */
#ifndef KTEST_ACTIVE_TREE_H
#define KTEST_ACTIVE_TREE_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>
#include "ktest.h"
#include "oops.h"
#include <sysfs_internal.h>
#include "vfs.h"
#include "task.h"
#include "watchdog.h"

/*
 * Each test builds /sys/devices/dev0/attr straight from the sysfs
 * internals and calls the exercise functions on it.  The failure messages
 * name the exercise and the mistake, so that a student knows which
 * function to open.  Included by tests/stage3/test_active.c and
 * tests/stage4/test_active.c.
 */
static struct sysfs_dirent *dir, *attr;

/*
 * output_of_child - run fn() in a forked child, its stdout and stderr into
 * out (len bytes, NUL-terminated); returns its wait status.  For a test
 * whose expected outcome is a BUG, which ends the process it happens in.
 */
static __maybe_unused int output_of_child(void (*fn)(void), char *out, size_t len)
{
	char path[] = "/tmp/ktest-active-XXXXXX";
	int fd = mkstemp(path), st;
	ssize_t n;
	pid_t pid;

	ck_assert_int_ge(fd, 0);
	unlink(path);
	fflush(NULL);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		dup2(fd, STDOUT_FILENO);
		dup2(fd, STDERR_FILENO);
		fn();
		fflush(NULL);
		_exit(0);
	}
	ck_assert_int_eq(waitpid(pid, &st, 0), pid);
	n = pread(fd, out, len - 1, 0);
	out[n > 0 ? n : 0] = '\0';
	close(fd);
	return st;
}

static void boot_active_kernel(void)
{
	task_init_main("test");
	oops_init();
	stage_init();
}

/*
 * build_active_tree - a fresh dev0/attr.  The schedule explorer builds one
 * per run in the same process: the previous run's dev0, if still in the
 * tree, is unlinked first (and left to leak, with whatever it holds).  The
 * extra s_count on each dev0 keeps it readable for that test.
 */
static void build_active_tree(void)
{
	mutex_lock(&sysfs_mutex);
	if (dir && !dir->s_removed)
		sysfs_unlink_child(dir);
	mutex_unlock(&sysfs_mutex);
	dir = sysfs_new_dirent("dev0", SYSFS_DIR);
	attr = sysfs_new_dirent("attr", SYSFS_KOBJ_ATTR);
	mutex_lock(&sysfs_mutex);
	sysfs_link_child(sysfs_lookup("/sys/devices"), dir);
	sysfs_link_child(dir, attr);
	mutex_unlock(&sysfs_mutex);
	sysfs_put(dir->s_parent);	/* the lookup's s_count */
	sysfs_get(dir);			/* ours: see above */
}

/*
 * fail_if_warned - a checked fixture's teardown: a WARN during the test (a
 * lock contract broken: lockdep_assert_held()) fails it, as it fails a run
 * of ksim with exit status 3.  A test that wants the WARN clears
 * kernel_tainted.
 */
static __maybe_unused void fail_if_warned(void)
{
	ck_assert_msg(!atomic_load(&kernel_tainted),
		      "a WARN fired during the test: the kernel is tainted (its report is in the test's output)");
}

static __maybe_unused void boot_active_tree(void)
{
	boot_active_kernel();
	build_active_tree();
}

/*
 * A caller that drops a node's last s_count while its own operation is
 * still inside, on purpose: the memory would go while the operation uses
 * it.  sysfs_active_destroy() must stop that with a BUG at the free.  The
 * test runs it in a child, since a BUG ends the process; busy_free_boot is
 * the suite's boot(), for the child.
 */
static void (*busy_free_boot)(void);

static __maybe_unused void free_with_an_operation_inside(void)
{
	struct sysfs_dirent *sd;

	busy_free_boot();
	sd = sysfs_new_dirent("busy", SYSFS_KOBJ_ATTR);
	sysfs_get_active(sd);
	if (exercise_pending()) {
		printf("exercise not done yet: %s\n", exercise_pending());
		return;
	}
	sysfs_put(sd);		/* the only s_count, with the operation inside: a BUG here */
	printf("sysfs_put() freed a node with an operation inside, and nothing stopped it\n");
}

/*
 * busy_free_failure - the check of a_node_freed_with_an_operation_inside_is_a_bug,
 * stages 3 and 4: NULL if a BUG stopped the free, else what went wrong, in
 * msg (len bytes).  boot is the suite's boot(); want says, for that
 * message, what is inside the node and which BUG_ON must stop it.  The
 * suite asserts on the result, so that a failure names its own file.
 */
static __maybe_unused const char *busy_free_failure(void (*boot)(void), const char *want, char *msg, size_t len)
{
	char out[8192];
	int st;

	busy_free_boot = boot;
	st = output_of_child(free_with_an_operation_inside, out, sizeof(out));
	if (strstr(out, "exercise not done yet"))
		snprintf(msg, len, "%s", out);
	else if (!(WIFEXITED(st) && WEXITSTATUS(st) == EXIT_OOPS && strstr(out, "kernel BUG at") &&
		   strstr(out, "sysfs_active_destroy")))
		snprintf(msg, len, "the last sysfs_put() of a node with an operation inside %s (exit %d, want %d):\n%s",
			 want, WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st), EXIT_OOPS, out);
	else
		return NULL;
	return msg;
}

#endif
