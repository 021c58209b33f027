/* file_io_cases.h - what a sysfs file does with reads and writes, the same in every stage. */
#ifndef KTEST_FILE_IO_CASES_H
#define KTEST_FILE_IO_CASES_H

#include <stdio.h>
#include <string.h>
#include <kobject.h>
#include "slab.h"
#include "ktest.h"
#include <sysfs.h>
#include "task.h"
#include "vfs.h"

/*
 * Each stage has its own sysfs_file.c, and each must keep the file
 * semantics a reader knows from the kernel of every era: a value read in
 * small pieces comes whole and then ends (0); a write reaches store() as
 * one NUL-terminated string of at most a page less one byte, the rule of
 * 2.6's fill_write_buffer(), which kept the page's last byte for the
 * terminator.  (Today's kernfs_fop_write_iter() passes up to a whole page
 * and terminates it in a buffer one byte longer; every stage here keeps
 * 2007's file code.)  A stage's suite includes this header and calls
 * file_io_add_cases().
 */
#define FIO_PAGE 4096

static const char fio_value[] = "0123456789abcdef\n";
static size_t fio_count, fio_strlen;

static ssize_t fio_show(struct kobject *kobj, struct attribute *attr, char *buf)
{
	(void)kobj;
	(void)attr;
	return sprintf(buf, "%s", fio_value);
}

static ssize_t fio_store(struct kobject *kobj, struct attribute *attr, const char *buf, size_t count)
{
	(void)kobj;
	(void)attr;
	fio_count = count;
	fio_strlen = strlen(buf);	/* reads past the end if store() was given no terminator */
	return count;
}

static const struct sysfs_ops fio_ops = { .show = fio_show, .store = fio_store };

static void fio_release(struct kobject *kobj)
{
	(void)kobj;	/* static */
}

static const struct kobj_type fio_ktype = { .release = fio_release, .sysfs_ops = &fio_ops };
static struct kobject fio_kobj;
static struct attribute fio_attr = { .name = "io", .mode = 0644 };
static struct attribute fio_twin = { .name = "oi", .mode = 0644 };	/* never opened */

static struct file *fio_open(int mode)
{
	struct file *f;

	task_init_main("test");
	stage_init();
	kobject_init(&fio_kobj, &fio_ktype);
	ck_assert_int_eq(kobject_add(&fio_kobj, NULL, "fio0"), 0);
	ck_assert_int_eq(sysfs_create_file(&fio_kobj, &fio_attr), 0);
	ck_assert_int_eq(sysfs_create_file(&fio_kobj, &fio_twin), 0);
	ck_assert_int_eq(vfs_open("/sys/devices/fio0/io", mode, &f), 0);
	return f;
}

START_TEST(a_value_read_in_small_pieces_comes_whole_then_ends)
{
	struct file *f = fio_open(VFS_READ);
	char got[64] = "";
	size_t len = 0;
	ssize_t n;
	int reads = 0;

	while ((n = vfs_read(f, got + len, 3)) > 0 && ++reads < 20)
		len += (size_t)n;
	vfs_close(f);
	ck_assert_msg(n == 0, "reading 3 bytes at a time never came to the end (0) in 20 reads: the file's "
		      "position does not move?");
	ck_assert_msg(len == strlen(fio_value) && memcmp(got, fio_value, len) == 0,
		      "read in pieces of 3 gave \"%.*s\" (%zu bytes), want \"%s\"", (int)len, got, len, fio_value);
}
END_TEST

static void write_of(size_t len, size_t want)
{
	static char big[2 * FIO_PAGE];
	struct file *f = fio_open(VFS_WRITE);
	ssize_t n;

	memset(big, 'x', sizeof(big));
	n = vfs_write(f, big, len);
	vfs_close(f);
	ck_assert_msg(n == (ssize_t)want && fio_count == want && fio_strlen == want,
		      "a write of %zu bytes: store() got count %zu and a string of %zu, write returned %zd; "
		      "want %zu for all three (cut to a page less the terminator)", len, fio_count, fio_strlen,
		      n, want);
}

START_TEST(a_write_reaches_store_as_one_terminated_string_of_under_a_page)
{
	write_of(5, 5);
	write_of(FIO_PAGE - 1, FIO_PAGE - 1);
	write_of(FIO_PAGE, FIO_PAGE - 1);
	write_of(FIO_PAGE + 100, FIO_PAGE - 1);
}
END_TEST

/*
 * A close gives back everything the open took: the struct file, and the
 * node's reference, so that removing the file frees as much as removing
 * its twin that was never opened.
 */
START_TEST(an_open_and_its_close_leave_nothing_behind)
{
	struct file *f = fio_open(VFS_READ);
	long before, after_close, twin_freed, node_freed;

	vfs_close(f);
	before = slab_live_objects();
	sysfs_remove_file(&fio_kobj, &fio_twin);
	twin_freed = before - slab_live_objects();
	ck_assert_msg(twin_freed > 0, "removing a file nobody holds freed nothing: the removal keeps the tree's "
		      "reference on its node");
	ck_assert_int_eq(vfs_open("/sys/devices/fio0/io", VFS_READ, &f), 0);
	vfs_close(f);
	after_close = slab_live_objects();
	ck_assert_msg(after_close == before - twin_freed, "an open and its close left %ld object(s) allocated "
		      "(the struct file?)", after_close - (before - twin_freed));
	sysfs_remove_file(&fio_kobj, &fio_attr);
	node_freed = after_close - slab_live_objects();
	ck_assert_msg(node_freed == twin_freed, "removing a file that was opened and closed freed %ld object(s), "
		      "removing its never-opened twin %ld: the close kept a reference on the node", node_freed,
		      twin_freed);
}
END_TEST

static void no_emit(const char *name, bool dir, void *ctx)
{
	(void)name;
	(void)dir;
	(void)ctx;
}

START_TEST(readdir_of_a_file_is_enotdir_and_of_nothing_enoent)
{
	struct file *f = fio_open(VFS_READ);

	vfs_close(f);
	ck_assert_int_eq(vfs_readdir("/sys/devices/fio0/io", no_emit, NULL), -ENOTDIR);
	ck_assert_int_eq(vfs_readdir("/sys/devices/fio0/none", no_emit, NULL), -ENOENT);
	ck_assert_int_eq(vfs_readdir("/sys/devices/fio0", no_emit, NULL), 0);
}
END_TEST

static __maybe_unused void file_io_add_cases(Suite *s)
{
	TCase *tc = ktest_case(s, "file-io", 10);

	tcase_add_test(tc, a_value_read_in_small_pieces_comes_whole_then_ends);
	tcase_add_test(tc, a_write_reaches_store_as_one_terminated_string_of_under_a_page);
	tcase_add_test(tc, an_open_and_its_close_leave_nothing_behind);
	tcase_add_test(tc, readdir_of_a_file_is_enotdir_and_of_nothing_enoent);
}

#endif
