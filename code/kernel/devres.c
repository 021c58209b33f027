/* devres.c - managed resources, one list for every device, released newest first. */
#include "devres.h"
#include "mutex.h"
#include "slab.h"

/*
 * struct devres - one resource: an action to run at release, and for
 * devm_kzalloc() the memory itself, which follows the header in the same
 * allocation (so that freeing the node frees it, and a stale pointer into
 * it lands in a freed, named object).
 */
struct devres {
	struct devres *next;		/* the next older one */
	const struct device *dev;
	void (*action)(void *data);	/* NULL for memory */
	void *data;
	long long mem[];		/* devm_kzalloc()'s memory, suitably aligned */
};

/* devres_list - every device's resources, newest first; devres_lock guards it. */
static struct devres *devres_list;
static DEFINE_MUTEX(devres_lock);

/* devres_add - put dr at the head: the newest, released first. */
static void devres_add(struct devres *dr)
{
	mutex_lock(&devres_lock);
	dr->next = devres_list;
	devres_list = dr;
	mutex_unlock(&devres_lock);
}

void *devm_kzalloc(struct device *dev, size_t size, const char *name)
{
	struct devres *dr = kzalloc(sizeof(*dr) + size, name);

	dr->dev = dev;
	devres_add(dr);
	return dr->mem;
}

int devm_add_action(struct device *dev, void (*action)(void *), void *data)
{
	struct devres *dr = kzalloc(sizeof(*dr), "devres");

	dr->dev = dev;
	dr->action = action;
	dr->data = data;
	devres_add(dr);
	return 0;
}

/*
 * The device's nodes leave the list under the lock, in order, and are
 * released after it is dropped: an action may sleep, or add and release
 * resources of another device.
 */
int devres_release_all(struct device *dev)
{
	struct devres *mine = NULL, **tail = &mine, **pp, *dr;
	int n = 0;

	mutex_lock(&devres_lock);
	for (pp = &devres_list; (dr = *pp);) {
		if (dr->dev != dev) {
			pp = &dr->next;
			continue;
		}
		*pp = dr->next;
		dr->next = NULL;
		*tail = dr;
		tail = &dr->next;
	}
	mutex_unlock(&devres_lock);
	while ((dr = mine)) {
		mine = dr->next;
		if (dr->action)
			dr->action(dr->data);
		kfree(dr);
		n++;
	}
	return n;
}

int devres_count(const struct device *dev)
{
	int n = 0;

	mutex_lock(&devres_lock);
	for (struct devres *dr = devres_list; dr; dr = dr->next)
		n += dr->dev == dev;
	mutex_unlock(&devres_lock);
	return n;
}
