/* test_explore.c - stage 2 under schedules nobody scripted: what 2.6.20's orphaning closes, and what it leaves. */
#include <string.h>
#include "ktest.h"
#include "naive_harness.h"

/*
 * Stage 1's use-after-free inside show() is closed here: removal waits for
 * a read in flight on an open file (its sem) and orphans the file, so a
 * later read fails with -ENODEV.  No schedule of these may fail.
 */
static const struct explore_harness read_vs_unplug = NAIVE_READ_VS_UNPLUG(NULL, NULL);
static const struct explore_harness reads_held = NAIVE_READS_HELD_ACROSS_UNPLUG(NULL, NULL);

/*
 * What orphaning leaves: the open file still holds a reference on the
 * kobject, and this driver frees the structure that embeds the kobject at
 * unplug, as mouse_naive does.  On the schedules where the close comes
 * after the free, the close's kobject_put() writes to freed memory.
 */
struct embedded {
	struct device dev;
	int clicks;
};
static struct embedded *emb;
static struct file *emb_file;

static ssize_t emb_clicks_show(struct device *dev, struct device_attribute *attr, char *buf)
{
	(void)attr;
	return sprintf(buf, "%d\n", container_of(dev, struct embedded, dev)->clicks);
}
static DEVICE_ATTR(emb_clicks, 0444, emb_clicks_show, NULL);

static void emb_release(struct device *dev)
{
	(void)dev;	/* the driver already freed it: the bug */
}

static void emb_setup(void)
{
	emb = kzalloc(sizeof(*emb), "embedded");
	emb->dev.release = emb_release;
	if (device_register(&emb->dev, "emb0") || device_create_file(&emb->dev, &dev_attr_emb_clicks) ||
	    vfs_open("/sys/devices/emb0/emb_clicks", VFS_READ, &emb_file))
		explore_fail("the harness could not set up /sys/devices/emb0/emb_clicks");
}

static void *emb_reader_main(void *arg)
{
	char buf[32];

	(void)arg;
	vfs_read(emb_file, buf, sizeof(buf));
	vfs_close(emb_file);
	return NULL;
}

static void *emb_unplug_main(void *arg)
{
	(void)arg;
	device_remove_file(&emb->dev, &dev_attr_emb_clicks);
	device_unregister(&emb->dev);
	kfree(emb);
	return NULL;
}

static const struct explore_harness close_after_free = {
	.name = "close-after-free",
	.claim = "an open file's close never puts a kobject its driver has freed",
	.setup = emb_setup,
	.tasks = {
		{ "cat", emb_reader_main, NULL },
		{ "unplug", emb_unplug_main, NULL },
	},
	.expected_bug = "use-after-free",
};

static const struct explore_harness *const harnesses[] = { &read_vs_unplug, &reads_held, &close_after_free };

START_TEST(read_vs_unplug_on_every_schedule)
{
	explore_grade(&read_vs_unplug, naive_boot);
}
END_TEST

START_TEST(reads_held_across_unplug_on_every_schedule)
{
	explore_grade(&reads_held, naive_boot);
}
END_TEST

/* What survives orphaning: a schedule must show the close's use-after-free, and replay it. */
START_TEST(close_after_free_shows_the_use_after_free)
{
	struct explore_opts o = { .strategy = "pct:2", .seed = 1, .runs = 2000, .quiet = true };
	struct explore_result r;

	explore_boot_hook = naive_boot;
	ck_assert_msg(explore(&close_after_free, &o, &r) == 1,
		      "no schedule of close-after-free failed in %ld runs: the open file's kobject "
		      "reference no longer reaches freed memory?", r.runs);
	ck_assert_msg(strstr(r.output, "use-after-free") && strstr(r.output, "vfs_close"),
		      "close-after-free failed, but not with a use-after-free in the close:\n%s", r.output);
	ck_assert_msg(r.repeats, "the failing schedule did not fail again when replayed: %s", r.replay);
}
END_TEST

int main(int argc, char **argv)
{
	Suite *s = suite_create("explore");
	TCase *tc = ktest_case(s, "schedules", 20);

	tcase_add_test(tc, read_vs_unplug_on_every_schedule);
	tcase_add_test(tc, reads_held_across_unplug_on_every_schedule);
	tcase_add_test(tc, close_after_free_shows_the_use_after_free);
	return explore_test_main(argc, argv, naive_boot, harnesses, ARRAY_SIZE(harnesses), s);
}
