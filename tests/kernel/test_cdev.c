/* test_cdev.c - a character device's files call its driver through private_data, and cdev_del() waits for none of them. */
#include <stdio.h>
#include <string.h>
#include "cdev.h"
#include "devtmpfs.h"
#include "slab.h"
#include "ktest.h"
#include "oops.h"
#include "task.h"

/* A driver of one device: its state, and the calls its files made. */
struct demo {
	struct cdev cdev;
	int value;
};
static struct demo demo;
static int opens, reads, ioctls, releases;
static void *released_with;

static int demo_open(struct inode *inode, struct file *file)
{
	/* The kernel's idiom: the driver's state from the inode's cdev. */
	file->private_data = container_of(inode->i_cdev, struct demo, cdev);
	opens++;
	return 0;
}

static ssize_t demo_read(struct file *file, char *buf, size_t len, loff_t *ppos)
{
	struct demo *d = file->private_data;
	int n = snprintf(buf, len, "%d\n", d->value);

	reads++;
	*ppos += n;
	return n;
}

static long demo_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	struct demo *d = file->private_data;

	ioctls++;
	if (cmd != 1)
		return -ENOTTY;
	d->value = (int)arg;
	return 0;
}

static int demo_release(struct inode *inode, struct file *file)
{
	(void)inode;
	released_with = file->private_data;
	releases++;
	return 0;
}

static const struct file_operations demo_fops = {
	.open = demo_open,
	.read = demo_read,
	.unlocked_ioctl = demo_ioctl,
	.release = demo_release,
};

static void setup(void)
{
	task_init_main("test");
	opens = reads = ioctls = releases = 0;
	released_with = NULL;
	demo.value = 7;
	cdev_init(&demo.cdev, &demo_fops);
	ck_assert_int_eq(cdev_add(&demo.cdev, MKDEV(240, 0), 2), 0);
}

START_TEST(an_open_file_calls_the_drivers_fops_with_its_private_data)
{
	struct file *file;
	char buf[32];
	loff_t pos = 0;

	setup();
	ck_assert_int_eq(chrdev_open(MKDEV(240, 1), VFS_READ, &file), 0);
	ck_assert_msg(opens == 1 && file->private_data == &demo, "open() did not run or did not set private_data");
	ck_assert_int_eq(vfs_ioctl(file, 1, 42), 0);
	ck_assert_int_eq(vfs_ioctl(file, 2, 0), -ENOTTY);
	ck_assert_int_eq(kernel_read(file, buf, sizeof(buf), &pos), 3);
	ck_assert_str_eq(buf, "42\n");
	ck_assert_int_eq(pos, 3);
	fput(file);
	ck_assert_msg(releases == 1 && released_with == &demo, "release() did not run with the file's private_data");
	cdev_del(&demo.cdev);
	ck_assert_int_eq(kref_read(&demo.cdev.kref), 0);
}
END_TEST

static unsigned int demo_poll(struct file *file)
{
	struct demo *d = file->private_data;

	return d->value ? POLLIN | POLLOUT : POLLHUP | POLLERR;
}

/* poll reaches the driver's poll with the file; a driver without one is always ready (DEFAULT_POLLMASK). */
START_TEST(poll_calls_the_drivers_poll_and_a_file_without_one_is_ready)
{
	static struct file_operations polled;
	struct file *file;

	setup();
	ck_assert_int_eq(chrdev_open(MKDEV(240, 0), VFS_READ, &file), 0);
	ck_assert_uint_eq(vfs_poll(file), POLLIN | POLLOUT);
	polled = demo_fops;
	polled.poll = demo_poll;
	file->f_op = &polled;
	ck_assert_uint_eq(vfs_poll(file), POLLIN | POLLOUT);
	demo.value = 0;
	ck_assert_uint_eq(vfs_poll(file), POLLHUP | POLLERR);
	fput(file);
	cdev_del(&demo.cdev);
}
END_TEST

START_TEST(numbers_outside_every_cdev_are_enxio_and_ranges_do_not_overlap)
{
	struct cdev other;
	struct file *file;

	setup();
	ck_assert_int_eq(chrdev_open(MKDEV(240, 2), VFS_READ, &file), -ENXIO);
	ck_assert_int_eq(chrdev_open(MKDEV(241, 0), VFS_READ, &file), -ENXIO);
	cdev_init(&other, &demo_fops);
	ck_assert_int_eq(cdev_add(&other, MKDEV(240, 1), 1), -EBUSY);
	ck_assert_int_eq(cdev_add(&other, MKDEV(240, 2), 1), 0);
	cdev_del(&other);
	cdev_del(&demo.cdev);
	ck_assert_int_eq(opens, 0);
}
END_TEST

/*
 * The kernel's fs/char_dev.c: cdev_del() unmaps the numbers and drops its
 * reference, and that is all.  One task does everything here: a cdev_del()
 * that waited for the open file would never return.
 */
START_TEST(cdev_del_waits_for_no_open_file_and_the_file_still_reaches_the_driver)
{
	struct file *file, *late;
	char buf[32];
	loff_t pos = 0;

	setup();
	ck_assert_int_eq(chrdev_open(MKDEV(240, 0), VFS_READ, &file), 0);
	cdev_del(&demo.cdev);
	ck_assert_int_eq(chrdev_open(MKDEV(240, 0), VFS_READ, &late), -ENXIO);
	ck_assert_msg(kref_read(&demo.cdev.kref) == 1, "the open file's reference on the cdev is gone (%d)",
		      kref_read(&demo.cdev.kref));
	ck_assert_int_eq(kernel_read(file, buf, sizeof(buf), &pos), 2);
	ck_assert_msg(reads == 1, "a read after cdev_del() did not reach the driver");
	ck_assert_int_eq(vfs_ioctl(file, 1, 5), 0);
	ck_assert_int_eq(demo.value, 5);
	ck_assert_int_eq(releases, 0);
	fput(file);
	ck_assert_int_eq(releases, 1);
	ck_assert_int_eq(kref_read(&demo.cdev.kref), 0);
}
END_TEST

START_TEST(a_cdev_alloc_cdev_is_freed_by_the_last_close_not_by_cdev_del)
{
	long before;
	struct cdev *p;
	struct file *file;

	task_init_main("test");
	before = slab_live_objects();
	p = cdev_alloc();
	p->ops = &demo_fops;
	ck_assert_int_eq(cdev_add(p, MKDEV(241, 0), 1), 0);
	ck_assert_int_eq(chrdev_open(MKDEV(241, 0), VFS_READ, &file), 0);
	cdev_del(p);
	ck_assert_msg(slab_live_objects() == before + 2, "cdev_del() freed the cdev an open file still holds");
	fput(file);
	ck_assert_msg(slab_live_objects() == before, "the last close did not free the cdev_alloc()'d cdev (%ld left)",
		      slab_live_objects() - before);
}
END_TEST

START_TEST(a_dev_node_opens_its_number_and_a_deleted_one_opens_nothing)
{
	struct file *file;

	setup();
	ck_assert_int_eq(devtmpfs_create_node("demo1", MKDEV(240, 1)), 0);
	ck_assert_int_eq(devtmpfs_create_node("demo1", MKDEV(240, 0)), -EEXIST);
	ck_assert_int_eq(devtmpfs_create_node("a/b", MKDEV(240, 0)), -EINVAL);
	ck_assert_int_eq(devtmpfs_open("/dev/demo2", VFS_READ, &file), -ENOENT);
	ck_assert_int_eq(devtmpfs_open("/dev/demo1", VFS_READ, &file), 0);
	ck_assert_msg(file->f_inode.i_rdev == MKDEV(240, 1) && file->private_data == &demo,
		      "/dev/demo1 did not open 240:1 through the driver's open");
	fput(file);
	/* The node names a number: with the cdev gone, it opens nothing. */
	cdev_del(&demo.cdev);
	ck_assert_int_eq(devtmpfs_open("/dev/demo1", VFS_READ, &file), -ENXIO);
	devtmpfs_delete_node("demo1");
	ck_assert_int_eq(devtmpfs_open("/dev/demo1", VFS_READ, &file), -ENOENT);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("kernel-cdev");
	TCase *tc = ktest_case(s, "cdev", 10);

	tcase_add_test(tc, an_open_file_calls_the_drivers_fops_with_its_private_data);
	tcase_add_test(tc, poll_calls_the_drivers_poll_and_a_file_without_one_is_ready);
	tcase_add_test(tc, numbers_outside_every_cdev_are_enxio_and_ranges_do_not_overlap);
	tcase_add_test(tc, cdev_del_waits_for_no_open_file_and_the_file_still_reaches_the_driver);
	tcase_add_test(tc, a_cdev_alloc_cdev_is_freed_by_the_last_close_not_by_cdev_del);
	tcase_add_test(tc, a_dev_node_opens_its_number_and_a_deleted_one_opens_nothing);
	return ktest_main(s);
}
