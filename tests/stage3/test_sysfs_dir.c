/* test_sysfs_dir.c - the directory operations a driver calls: what stage 3's sysfs promises them. */
#include <stdio.h>
#include <string.h>
#include <device.h>
#include "ktest.h"
#include "slab.h"
#include <sysfs_internal.h>
#include "vfs.h"
#include "active_tree.h"

/*
 * These are given code, not exercises; each test pins a behaviour a
 * driver relies on and that an edit of sysfs_dir.c or sysfs_file.c could
 * lose without any scenario noticing (found by mutating those files).
 */

static ssize_t value_show(struct device *dev, struct device_attribute *attr, char *buf)
{
	(void)dev;
	return sprintf(buf, "%s\n", attr->attr.name);
}

static DEVICE_ATTR(alpha, 0444, value_show, NULL);
static DEVICE_ATTR(beta, 0444, value_show, NULL);

static void static_release(struct device *dev)
{
	(void)dev;	/* the devices below are static */
}

static void register_dev(struct device *dev, const char *name)
{
	boot_active_tree();
	memset(dev, 0, sizeof(*dev));
	dev->release = static_release;
	ck_assert_int_eq(device_register(dev, "%s", name), 0);
	ck_assert_int_eq(device_create_file(dev, &dev_attr_alpha), 0);
	ck_assert_int_eq(device_create_file(dev, &dev_attr_beta), 0);
}

/* Open, read and close PATH; the bytes read (NUL-terminated in buf), or the open's error. */
static ssize_t read_file(const char *path, char *buf, size_t len)
{
	struct file *f;
	ssize_t n;
	int err = vfs_open(path, VFS_READ, &f);

	if (err)
		return err;
	n = vfs_read(f, buf, len - 1);
	vfs_close(f);
	buf[n > 0 ? n : 0] = '\0';
	return n;
}

START_TEST(device_remove_file_removes_that_file_and_no_other)
{
	static struct device dev;
	char buf[64];

	register_dev(&dev, "dirtest0");
	device_remove_file(&dev, &dev_attr_alpha);
	ck_assert_msg(read_file("/sys/devices/dirtest0/alpha", buf, sizeof(buf)) == -ENOENT,
		      "alpha is still there after device_remove_file(alpha)");
	ck_assert_msg(read_file("/sys/devices/dirtest0/beta", buf, sizeof(buf)) > 0 && strcmp(buf, "beta\n") == 0,
		      "beta went with alpha, or reads wrong (\"%s\"): device_remove_file() removed the wrong node",
		      buf);
	device_unregister(&dev);
}
END_TEST

START_TEST(a_second_file_of_the_same_name_is_refused_and_the_first_stays)
{
	static struct device dev;
	char buf[64];

	long live;

	register_dev(&dev, "dirtest1");
	live = slab_live_objects();
	ck_assert_int_eq(device_create_file(&dev, &dev_attr_alpha), -EEXIST);
	ck_assert_msg(slab_live_objects() == live, "a refused device_create_file() left %ld object(s) "
		      "allocated (the new node, not freed on the error path?)", slab_live_objects() - live);
	ck_assert_msg(read_file("/sys/devices/dirtest1/alpha", buf, sizeof(buf)) > 0 && strcmp(buf, "alpha\n") == 0,
		      "the first alpha does not read after a refused second one (\"%s\")", buf);
	device_unregister(&dev);
	ck_assert_msg(stage_verify() == 0, "a refused file left a reference behind");
}
END_TEST

START_TEST(a_deleted_device_has_no_directory_to_add_files_to)
{
	static struct device dev;

	register_dev(&dev, "dirtest2");
	get_device(&dev);
	device_del(&dev);
	ck_assert_msg(dev.kobj.sd == NULL, "kobj->sd still points at the removed directory after device_del()");
	ck_assert_int_eq(device_create_file(&dev, &dev_attr_alpha), -ENOENT);
	put_device(&dev);
	put_device(&dev);
	ck_assert_msg(stage_verify() == 0, "the deleted device left a reference behind");
}
END_TEST

static char listing[256];

static void list_entry(const char *name, bool dir, void *ctx)
{
	(void)ctx;
	snprintf(listing + strlen(listing), sizeof(listing) - strlen(listing), "%s%s ", name, dir ? "/" : "");
}

START_TEST(readdir_tells_directories_from_files)
{
	static struct device parent, child;

	register_dev(&parent, "dirtest3");
	memset(&child, 0, sizeof(child));
	child.release = static_release;
	child.parent = &parent;
	ck_assert_int_eq(device_register(&child, "sub"), 0);
	listing[0] = '\0';
	ck_assert_int_eq(vfs_readdir("/sys/devices/dirtest3", list_entry, NULL), 0);
	ck_assert_msg(strcmp(listing, "alpha beta sub/ ") == 0,
		      "readdir of dirtest3 gave \"%s\", want \"alpha beta sub/ \" (files, then the child "
		      "directory marked as one)", listing);
	device_unregister(&child);
	device_unregister(&parent);
}
END_TEST

START_TEST(a_link_needs_both_directories)
{
	static struct device dev;
	struct kobject nodir;

	register_dev(&dev, "dirtest4");
	memset(&nodir, 0, sizeof(nodir));	/* never added: no directory */
	ck_assert_int_eq(sysfs_create_link(&dev.kobj, &nodir, "to_nowhere"), -ENOENT);
	ck_assert_int_eq(sysfs_create_link(&nodir, &dev.kobj, "from_nowhere"), -ENOENT);
	ck_assert_int_eq(sysfs_create_link(&dev.kobj, &dev.kobj, "self"), 0);
	device_unregister(&dev);
	ck_assert_msg(stage_verify() == 0, "a link left a reference behind");
}
END_TEST

int main(void)
{
	Suite *s = suite_create("stage3-sysfs-dir");
	TCase *tc = ktest_case(s, "directories", 10);

	tcase_add_test(tc, device_remove_file_removes_that_file_and_no_other);
	tcase_add_test(tc, a_second_file_of_the_same_name_is_refused_and_the_first_stays);
	tcase_add_test(tc, a_deleted_device_has_no_directory_to_add_files_to);
	tcase_add_test(tc, readdir_tells_directories_from_files);
	tcase_add_test(tc, a_link_needs_both_directories);
	return ktest_main(s);
}
