/* mousedev_naive.c - /dev/mouseN as it is often first written: driver data from devm_kzalloc(), reached through private_data. */
#include <stdio.h>
#include <delay.h>
#include <module.h>
#include <mousedev.h>

/* [naive-fops] */
static int naive_open(struct inode *inode, struct file *file)
{
	/* The kernel's idiom: the driver's data from the inode's cdev. */
	file->private_data = container_of(inode->i_cdev, struct mousedev, cdev);
	return 0;
}

/*
 * The bug: nothing says whether m is still there.  After unplug the
 * driver core has freed it (devres, after remove()), and this file still
 * points at it.
 */
static __noinline ssize_t naive_read(struct file *file, char *buf, size_t len, loff_t *ppos)
{
	struct mousedev *m = file->private_data;
	char text[32];
	ssize_t n = mousedev_show(m, text, sizeof(text));

	return mousedev_copy_out(text, n, buf, len, ppos);
}
/* [/naive-fops] */

static __noinline long naive_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	struct mousedev *m = file->private_data;

	(void)arg;
	if (cmd != MOUSEDEV_IOC_CLICK)
		return -ENOTTY;
	delay_point("mousedev_ioctl");	/* the window between the open and the access */
	return ++m->clicks;
}

/* Not const: init sets .owner, so that an open file pins the module (its code and this table). */
static struct file_operations naive_fops = {
	.open = naive_open,
	.read = naive_read,
	.unlocked_ioctl = naive_ioctl,
};

/* [naive-probe-remove] */
static int naive_probe(struct device *dev)
{
	const char *name = kobject_name(&dev->kobj);
	int minor = mousedev_minor(name);
	struct mousedev *m;
	int err;

	if (minor < 0)
		return -EINVAL;
	m = devm_kzalloc(dev, sizeof(*m), "mousedev");	/* freed for us after remove() */
	m->minor = minor;
	snprintf(m->name, sizeof(m->name), "%s", name);
	cdev_init(&m->cdev, &naive_fops);
	err = cdev_add(&m->cdev, MKDEV(MOUSEDEV_MAJOR, MOUSEDEV_MINOR_BASE + minor), 1);
	if (err)
		return err;
	devtmpfs_create_node(m->name, MKDEV(MOUSEDEV_MAJOR, MOUSEDEV_MINOR_BASE + minor));
	dev_set_drvdata(dev, m);
	return 0;
}

/* No new open finds the mouse; the files already open are not told. */
static void naive_remove(struct device *dev)
{
	struct mousedev *m = dev_get_drvdata(dev);

	devtmpfs_delete_node(m->name);
	cdev_del(&m->cdev);
}
/* [/naive-probe-remove] */

static struct device_driver naive_driver = {
	.name = "mousedev_naive", .prefix = "mouse", .probe = naive_probe, .remove = naive_remove,
};

static int mousedev_naive_init(void)
{
	naive_fops.owner = THIS_MODULE;
	naive_driver.owner = THIS_MODULE;
	return driver_register(&naive_driver);
}

static void mousedev_naive_exit(void)
{
	driver_unregister(&naive_driver);
}

MODULE_INFO("mousedev_naive", mousedev_naive_init, mousedev_naive_exit);
