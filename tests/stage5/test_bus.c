/* test_bus.c - stage 5's driver core: a device's managed resources are released after its driver's remove(), and after a failed probe. */
#include <string.h>
#include "ktest.h"
#include "task.h"
#include <bus.h>
#include <devres.h>
#include <hotplug.h>
#include <slab.h>
#include <vfs.h>

/*
 * A driver that records what happens to it: probe allocates with
 * devm_kzalloc() and adds a devm action, remove() looks at the memory, and
 * the action (run by devres_release_all()) notes when it ran.
 */
static char events[64];
static int *probed_mem;
static bool fail_probe;

static void note(char c)
{
	size_t n = strlen(events);

	if (n + 1 < sizeof(events))
		events[n] = c;
}

static void devm_action(void *data)
{
	(void)data;
	note('d');
}

static int rec_probe(struct device *dev)
{
	note('p');
	probed_mem = devm_kzalloc(dev, sizeof(int), "rec_priv");
	*probed_mem = 42;
	devm_add_action(dev, devm_action, NULL);
	dev_set_drvdata(dev, probed_mem);
	return fail_probe ? -EIO : 0;
}

static void rec_remove(struct device *dev)
{
	int *mem = dev_get_drvdata(dev);

	/* The driver's memory must still be there during its remove(). */
	note(*mem == 42 ? 'r' : 'X');
	ck_assert_int_eq(devres_count(dev), 2);
}

static struct device_driver rec_driver = { .name = "rec", .prefix = "rec", .probe = rec_probe, .remove = rec_remove };

static void setup(void)
{
	task_init_main("test");
	stage_init();
	memset(events, 0, sizeof(events));
	fail_probe = false;
	driver_register(&rec_driver);
}

START_TEST(devm_resources_are_released_after_remove_not_before)
{
	long before;

	setup();
	before = slab_live_objects();
	ck_assert_int_eq(hotplug_plug("rec0"), 0);
	ck_assert_str_eq(events, "p");
	ck_assert_int_eq(hotplug_unplug("rec0"), 0);
	ck_assert_msg(strcmp(events, "prd") == 0,
		      "unplug gave the events \"%s\", not \"prd\": probe, the driver's remove() with its devm_ "
		      "memory still there, then devres_release_all() (device_release_driver())", events);
	ck_assert_msg(slab_live_objects() == before,
		      "%ld object(s) left after the unplug: the devm_ memory and the bus's device must be freed",
		      slab_live_objects() - before);
	driver_unregister(&rec_driver);
}
END_TEST

START_TEST(a_failed_probe_releases_its_devm_resources_and_the_device)
{
	long before;

	setup();
	before = slab_live_objects();
	fail_probe = true;
	ck_assert_int_eq(hotplug_plug("rec0"), -EIO);
	ck_assert_msg(strcmp(events, "pd") == 0,
		      "a failed probe gave the events \"%s\", not \"pd\": no remove(), its devm_ resources released", events);
	ck_assert_msg(slab_live_objects() == before, "%ld object(s) left after a failed probe",
		      slab_live_objects() - before);
	ck_assert_int_eq(hotplug_unplug("rec0"), -ENODEV);
	driver_unregister(&rec_driver);
}
END_TEST

START_TEST(driver_unregister_unbinds_every_device_it_drives)
{
	setup();
	ck_assert_int_eq(hotplug_plug("rec0"), 0);
	ck_assert_int_eq(hotplug_plug("rec1"), 0);
	ck_assert_int_eq(hotplug_plug("rec1"), -EEXIST);
	driver_unregister(&rec_driver);
	ck_assert_msg(strcmp(events, "pprdrd") == 0,
		      "probing two devices and unregistering the driver gave \"%s\", not \"pprdrd\"", events);
	ck_assert_int_eq(hotplug_plug("rec0"), -ENODEV);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("bus");
	TCase *tc = ktest_case(s, "driver_core", 10);

	tcase_add_test(tc, devm_resources_are_released_after_remove_not_before);
	tcase_add_test(tc, a_failed_probe_releases_its_devm_resources_and_the_device);
	tcase_add_test(tc, driver_unregister_unbinds_every_device_it_drives);
	return ktest_main(s);
}
