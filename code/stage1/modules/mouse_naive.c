/* mouse_naive.c - the mouse driver as it is often first written: free on unplug. */
#include <module.h>
#include <mouse.h>

/* Nothing to do: the memory was already freed when the mouse was unplugged. */
static __noinline void mouse_naive_release(struct device *dev)
{
	(void)dev;
}

static int mouse_naive_plug(const char *devname)
{
	return mouse_add(devname, mouse_naive_release);
}

/*
 * The bug: the device is unregistered, but an open sysfs file still holds
 * a reference to its kobject, which lives inside m.  Freeing m here leaves
 * that file pointing into freed memory; its next read is a use-after-free.
 */
static int mouse_naive_unplug(const char *devname)
{
	struct mouse *m = mouse_take(devname);

	if (!m)
		return -ENODEV;
	device_remove_file(&m->dev, &dev_attr_clicks);
	device_unregister(&m->dev);
	kfree(m);
	return 0;
}

static struct hotplug_bus mouse_naive_bus = {
	.prefix = "mouse", .plug = mouse_naive_plug, .unplug = mouse_naive_unplug,
};

static int mouse_naive_init(void)
{
	hotplug_register(&mouse_naive_bus);
	return 0;
}

static void mouse_naive_exit(void)
{
	hotplug_unregister(&mouse_naive_bus);
	for (int n = 0; n < MOUSE_MAX; n++)
		if (mice[n]) {
			device_unregister(&mice[n]->dev);
			kfree(mice[n]);
		}
}

MODULE_INFO("mouse_naive", mouse_naive_init, mouse_naive_exit);
