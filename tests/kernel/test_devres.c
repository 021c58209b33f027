/* test_devres.c - managed resources go newest first after remove(), and an open file that kept a pointer reads freed memory. */
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "cdev.h"
#include "devres.h"
#include "ktest.h"
#include "oops.h"
#include "task.h"
#include "watchdog.h"

/* The devres layer needs only the device's address: any object will do. */
struct device {
	int unused;
};
static struct device dev_a, dev_b;

static int order[8], norder;

static void record(void *data)
{
	order[norder++] = (int)(intptr_t)data;
}

START_TEST(resources_are_released_newest_first_and_only_the_devices_own)
{
	int *mem;

	task_init_main("test");
	devm_add_action(&dev_a, record, (void *)1);
	mem = devm_kzalloc(&dev_a, 16 * sizeof(int), "demo_priv");
	devm_add_action(&dev_b, record, (void *)9);
	devm_add_action(&dev_a, record, (void *)2);
	devm_add_action(&dev_a, record, (void *)3);
	for (int i = 0; i < 16; i++)
		ck_assert_msg(mem[i] == 0, "devm_kzalloc() memory is not zeroed at %d", i);
	ck_assert_int_eq(devres_count(&dev_a), 4);
	ck_assert_msg(norder == 0, "a resource was released before devres_release_all()");
	ck_assert_int_eq(devres_release_all(&dev_a), 4);
	ck_assert_msg(norder == 3 && order[0] == 3 && order[1] == 2 && order[2] == 1,
		      "released in the order %d %d %d (%d of them), not newest first 3 2 1",
		      order[0], order[1], order[2], norder);
	ck_assert_int_eq(devres_count(&dev_a), 0);
	ck_assert_int_eq(devres_count(&dev_b), 1);
	ck_assert_int_eq(devres_release_all(&dev_a), 0);
	ck_assert_int_eq(devres_release_all(&dev_b), 1);
	ck_assert_int_eq(order[3], 9);
}
END_TEST

/*
 * ---- the naive character-device driver: its state in devm_ memory ----
 *
 * probe allocates the state with devm_kzalloc() and adds a cdev; open
 * points private_data at the state.  The unplug runs remove() (cdev_del())
 * and then the driver core's devres_release_all().  The file still open
 * keeps calling read(), which follows private_data into freed memory.
 */
struct naive {
	int value;
};
static struct cdev naive_cdev;
static struct naive *naive_priv;

static int naive_open(struct inode *inode, struct file *file)
{
	(void)inode;
	file->private_data = naive_priv;
	return 0;
}

static __noinline ssize_t naive_read(struct file *file, char *buf, size_t len, loff_t *ppos)
{
	struct naive *n = file->private_data;

	(void)ppos;
	return snprintf(buf, len, "%d\n", n->value);
}

static const struct file_operations naive_fops = { .open = naive_open, .read = naive_read };

static void unplug_with_the_file_open(void)
{
	struct file *file;
	char buf[16];
	loff_t pos = 0;

	task_init_main("test");
	oops_init();
	naive_priv = devm_kzalloc(&dev_a, sizeof(*naive_priv), "naive_priv");	/* probe */
	naive_priv->value = 1;
	cdev_init(&naive_cdev, &naive_fops);
	cdev_add(&naive_cdev, MKDEV(240, 0), 1);
	if (chrdev_open(MKDEV(240, 0), VFS_READ, &file) != 0 || kernel_read(file, buf, sizeof(buf), &pos) != 2)
		_exit(10);
	cdev_del(&naive_cdev);		/* remove() */
	devres_release_all(&dev_a);	/* the driver core, after remove() */
	fprintf(stderr, "unplugged\n");
	kernel_read(file, buf, sizeof(buf), &pos);
	fprintf(stderr, "read freed memory and went on\n");
	_exit(0);
}

START_TEST(a_file_open_across_the_unplug_reads_freed_devm_memory_and_oopses)
{
	char err[16384];
	int pipefd[2], st, status;
	ssize_t n, got = 0;
	pid_t pid;

	ck_assert(pipe(pipefd) == 0);
	pid = fork();
	if (pid == 0) {
		dup2(pipefd[1], 2);
		close(pipefd[0]);
		unplug_with_the_file_open();
	}
	close(pipefd[1]);
	while (got < (ssize_t)sizeof(err) - 1 && (n = read(pipefd[0], err + got, sizeof(err) - 1 - got)) > 0)
		got += n;
	err[got] = '\0';
	close(pipefd[0]);
	waitpid(pid, &st, 0);
	status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
	ck_assert_msg(status == EXIT_OOPS, "exit %d, want %d (an oops):\n%s", status, EXIT_OOPS, err);
	ck_assert_msg(strstr(err, "unplugged") && !strstr(err, "went on"), "not the read after the unplug:\n%s", err);
	ck_assert_msg(strstr(err, "use-after-free"), "no use-after-free report:\n%s", err);
	ck_assert_msg(strstr(err, "naive_priv"), "the report does not name the devm_ object:\n%s", err);
	ck_assert_msg(strstr(err, "naive_read"), "the call trace does not show the driver's read():\n%s", err);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("kernel-devres");
	TCase *tc = ktest_case(s, "devres", 10);

	tcase_add_test(tc, resources_are_released_newest_first_and_only_the_devices_own);
	tcase_add_test(tc, a_file_open_across_the_unplug_reads_freed_devm_memory_and_oopses);
	return ktest_main(s);
}
