/* mousedev_nohangup.c - the fixed driver with one call less: remove() revokes without hanging up first. */
#include <stdio.h>
#include <module.h>
#include <mousedev.h>

/*
 * Everything is modules/mousedev.c's (the same file operations, the same
 * provider) except remove(), which does not call mousedev_hangup().  A
 * read asleep waiting for a click is inside an access; the revoke waits
 * for that access, and nothing will ever wake it: the unplug hangs, and
 * the hung-task watchdog reports it (code/scenarios/mousedev-nohangup.ksh).
 * SRCU lets a section sleep; it does not end the sleep.
 */
static struct file_operations nohangup_fops = {
	.open = mousedev_open,
	.read = mousedev_read,
	.unlocked_ioctl = mousedev_ioctl,
	.poll = mousedev_poll,
	.release = mousedev_release,
};

struct nohangup_binding {
	struct mousedev *m;
	struct revocable_provider *rp;
	struct cdev *cdev;
};

static int nohangup_probe(struct device *dev)
{
	const char *name = kobject_name(&dev->kobj);
	int minor = mousedev_minor(name);
	dev_t devt = MKDEV(MOUSEDEV_MAJOR, MOUSEDEV_MINOR_BASE + minor);
	struct nohangup_binding *b;
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
	b->cdev->ops = &nohangup_fops;
	b->cdev->owner = nohangup_fops.owner;
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

/* [nohangup-remove] */
static void nohangup_remove(struct device *dev)
{
	struct nohangup_binding *b = dev_get_drvdata(dev);

	devtmpfs_delete_node(b->m->name);
	cdev_del(b->cdev);
	mutex_lock(&mousedev_lock);
	mousedev_providers[b->m->minor] = NULL;
	mutex_unlock(&mousedev_lock);
	/* No mousedev_hangup(b->m): a reader asleep inside an access stays asleep, and this waits for it. */
	revocable_provider_revoke(b->rp);
}
/* [/nohangup-remove] */

static struct device_driver nohangup_driver = {
	.name = "mousedev_nohangup", .prefix = "mouse", .probe = nohangup_probe, .remove = nohangup_remove,
};

static int mousedev_nohangup_init(void)
{
	nohangup_fops.owner = THIS_MODULE;
	nohangup_driver.owner = THIS_MODULE;
	return driver_register(&nohangup_driver);
}

static void mousedev_nohangup_exit(void)
{
	driver_unregister(&nohangup_driver);
}

MODULE_INFO("mousedev_nohangup", mousedev_nohangup_init, mousedev_nohangup_exit);
