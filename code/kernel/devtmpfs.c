/* devtmpfs.c - the names under /dev, and opening one. */
#include <stdio.h>
#include <string.h>
#include "cdev.h"
#include "devtmpfs.h"
#include "mutex.h"
#include "slab.h"

struct dev_node {
	char name[DEVTMPFS_NAME_LEN];
	dev_t devt;
	struct dev_node *next;
};

/* dev_nodes - every node; devtmpfs_lock guards the list. */
static struct dev_node *dev_nodes;
static DEFINE_MUTEX(devtmpfs_lock);

/* dev_node_find - the node called name, or NULL.  With devtmpfs_lock. */
static struct dev_node **dev_node_find(const char *name)
{
	struct dev_node **pp;

	for (pp = &dev_nodes; *pp; pp = &(*pp)->next)
		if (strcmp((*pp)->name, name) == 0)
			break;
	return pp;
}

int devtmpfs_create_node(const char *name, dev_t devt)
{
	struct dev_node *node;
	int err = -EEXIST;

	if (!*name || strlen(name) >= DEVTMPFS_NAME_LEN || strchr(name, '/'))
		return -EINVAL;
	node = kzalloc(sizeof(*node), "dev_node");
	snprintf(node->name, sizeof(node->name), "%s", name);
	node->devt = devt;
	mutex_lock(&devtmpfs_lock);
	if (!*dev_node_find(name)) {
		node->next = dev_nodes;
		dev_nodes = node;
		node = NULL;
		err = 0;
	}
	mutex_unlock(&devtmpfs_lock);
	kfree(node);
	return err;
}

void devtmpfs_delete_node(const char *name)
{
	struct dev_node **pp, *node;

	mutex_lock(&devtmpfs_lock);
	pp = dev_node_find(name);
	node = *pp;
	if (node)
		*pp = node->next;
	mutex_unlock(&devtmpfs_lock);
	kfree(node);
}

int devtmpfs_open(const char *path, int mode, struct file **filp)
{
	struct dev_node *node;
	dev_t devt = 0;

	if (!devtmpfs_is_dev_path(path))
		return -ENOENT;
	mutex_lock(&devtmpfs_lock);
	node = *dev_node_find(path + 5);
	if (node)
		devt = node->devt;
	mutex_unlock(&devtmpfs_lock);
	if (!node)
		return -ENOENT;
	/* The number, not the node: what the open finds is decided by the cdev table now. */
	return chrdev_open(devt, mode, filp);
}
