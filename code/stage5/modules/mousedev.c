/* mousedev.c - /dev/mouseN done right: the driver's data behind a revocable provider that remove() revokes. */
#include <stdio.h>
#include <module.h>
#include <mousedev.h>

/* Not const: init sets .owner, so that an open file pins the module (this table). */
static struct file_operations mousedev_fops = {
	.open = mousedev_open,
	.read = mousedev_read,
	.unlocked_ioctl = mousedev_ioctl,
	.poll = mousedev_poll,
	.release = mousedev_release,
};

/*
 * struct mousedev_binding - what remove() needs besides the mouse: its
 * provider and its cdev.  The cdev is cdev_alloc()'s, freed by its last
 * put: an open file holds it past remove(), so it cannot sit in the
 * devm_ memory of the mouse.
 */
struct mousedev_binding {
	struct mousedev *m;
	struct revocable_provider *rp;
	struct cdev *cdev;
};

/* [mousedev-probe-remove] */
static int mousedev_probe(struct device *dev)
{
	const char *name = kobject_name(&dev->kobj);
	int minor = mousedev_minor(name);
	dev_t devt = MKDEV(MOUSEDEV_MAJOR, MOUSEDEV_MINOR_BASE + minor);
	struct mousedev_binding *b;
	int err;

	if (minor < 0)
		return -EINVAL;
	b = devm_kzalloc(dev, sizeof(*b), "mousedev_binding");
	b->m = devm_kzalloc(dev, sizeof(*b->m), "mousedev");
	b->m->minor = minor;
	init_waitqueue_head(&b->m->wait);
	/* The window a scenario opens before a reader's first look at the mouse: the queue's, not a helper's. */
	waitqueue_delay_point(&b->m->wait, "mousedev_wait");
	snprintf(b->m->name, sizeof(b->m->name), "%s", name);
	b->rp = revocable_provider_alloc(b->m);
	b->cdev = cdev_alloc();
	b->cdev->ops = &mousedev_fops;
	b->cdev->owner = mousedev_fops.owner;
	err = cdev_add(b->cdev, devt, 1);
	if (err)
		goto out_free;
	mutex_lock(&mousedev_lock);
	mousedev_providers[minor] = b->rp;
	mutex_unlock(&mousedev_lock);
	devtmpfs_create_node(b->m->name, devt);
	dev_set_drvdata(dev, b);
	return 0;

out_free:
	cdev_del(b->cdev);
	revocable_provider_revoke(b->rp);
	return err;
}

/*
 * remove(): no new open finds the mouse; hang up, which wakes the reads
 * asleep waiting for a click; then revoke: the reads and ioctls in flight
 * finish first, the later ones get -ENODEV.  Only then does the driver
 * core free the mouse (devres, after this returns).  The hang-up comes
 * before the revoke, never after: the revoke waits for the sleepers, and
 * only the hang-up wakes them.
 */
static void mousedev_remove(struct device *dev)
{
	struct mousedev_binding *b = dev_get_drvdata(dev);

	devtmpfs_delete_node(b->m->name);
	cdev_del(b->cdev);
	mutex_lock(&mousedev_lock);
	mousedev_providers[b->m->minor] = NULL;
	mutex_unlock(&mousedev_lock);
	mousedev_hangup(b->m);
	revocable_provider_revoke(b->rp);
}
/* [/mousedev-probe-remove] */

static struct device_driver mousedev_driver = {
	.name = "mousedev", .prefix = "mouse", .probe = mousedev_probe, .remove = mousedev_remove,
};

static int mousedev_init(void)
{
	mousedev_fops.owner = THIS_MODULE;
	mousedev_driver.owner = THIS_MODULE;
	return driver_register(&mousedev_driver);
}

static void mousedev_exit(void)
{
	driver_unregister(&mousedev_driver);
}

MODULE_INFO("mousedev", mousedev_init, mousedev_exit);
