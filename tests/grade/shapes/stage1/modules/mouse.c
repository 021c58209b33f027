/* mouse.c - the mouse driver done right: the memory goes in release(). */
#include <exercise.h>
#include <module.h>
#include <mouse.h>

/*
 * mouse_release - the last reference to the mouse's kobject is gone.
 * Only now may the memory that embeds it go: until this moment an open
 * sysfs file could still reach it.
 */
static __noinline void mouse_release(struct device *dev)
{
	struct mouse *m = container_of(dev, struct mouse, dev);

	@EXERCISE mouse_release
	TODO("mouse_release", "the mouse's memory may go only once the last reference to its device is gone, and this is that moment");
	(void)m;
	@END
}

static int mouse_plug(const char *devname)
{
	return mouse_add(devname, mouse_release);
}

/*
 * mouse_unplug - the hardware is gone.  Unregister, and drop the driver's
 * reference; do not free: whoever holds the last reference frees, through
 * mouse_release().
 */
static int mouse_unplug(const char *devname)
{
	struct mouse *m = mouse_take(devname);

	if (!m)
		return -ENODEV;
	device_remove_file(&m->dev, &dev_attr_clicks);
	@EXERCISE mouse_unplug
	TODO("mouse_unplug", "unplugging ends the driver's use of the device, not the device's life: an open sysfs file may still hold it");
	device_unregister(&m->dev);
	kfree(m);
	@END
	return 0;
}

static struct hotplug_bus mouse_bus = { .prefix = "mouse", .plug = mouse_plug, .unplug = mouse_unplug };

static int mouse_init(void)
{
	hotplug_register(&mouse_bus);
	return 0;
}

static void mouse_exit(void)
{
	hotplug_unregister(&mouse_bus);
	for (int n = 0; n < MOUSE_MAX; n++)
		if (mice[n])
			device_unregister(&mice[n]->dev);
}

MODULE_INFO("mouse", mouse_init, mouse_exit);
