/* active_tree.h - the tiny tree the active-reference tests of stages 3 and 4 work on. */
#ifndef KTEST_ACTIVE_TREE_H
#define KTEST_ACTIVE_TREE_H

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/wait.h>
#include "ktest.h"
#include "oops.h"
#include <sysfs_internal.h>
#include "vfs.h"
#include "task.h"

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

#endif
