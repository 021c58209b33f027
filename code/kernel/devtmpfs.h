/* devtmpfs.h - the names under /dev: which device number /dev/NAME opens. */
#ifndef KSIM_DEVTMPFS_H
#define KSIM_DEVTMPFS_H

#include <string.h>
#include "fs.h"

/*
 * A path under /dev/ names a device number, not an object: opening it
 * looks the number up in the cdev table (chrdev_open()), so a node that
 * outlives its cdev opens nothing (-ENXIO), and a file opened before the
 * node went keeps the driver's operations (cdev.h).
 *
 * Differences from the kernel: the kernel's device_create() makes the node
 * (devtmpfs_create_node()) from the device's name and devt; here a driver
 * names its node itself, since the stages' struct device carries no devt.
 * There are no directories and no permissions under /dev.
 */

#define DEVTMPFS_NAME_LEN 32

/**
 * devtmpfs_create_node - make /dev/@name open device number @devt.
 * @name: the node's name, without "/dev/"
 * @devt: the number
 *
 * Context: may sleep.  Return: 0, -EEXIST if the name is taken, or
 * -EINVAL if it is empty, too long or has a '/'.
 */
int devtmpfs_create_node(const char *name, dev_t devt);

/**
 * devtmpfs_delete_node - remove /dev/@name; files open through it stay open.
 * @name: the node's name
 *
 * Context: may sleep.  Return: nothing.
 */
void devtmpfs_delete_node(const char *name);

/**
 * devtmpfs_open - open("/dev/NAME"): the node's number through chrdev_open().
 * @path: the whole path, "/dev/NAME"
 * @mode: VFS_READ and/or VFS_WRITE
 * @filp: set to the new file on success
 *
 * Context: may sleep (the driver's open may).  Return: 0, -ENOENT if there
 * is no such node, or what chrdev_open() returned.
 */
int devtmpfs_open(const char *path, int mode, struct file **filp);

/* devtmpfs_is_dev_path - is @path under /dev/, where devtmpfs_open() opens it? */
static inline bool devtmpfs_is_dev_path(const char *path)
{
	return strncmp(path, "/dev/", 5) == 0;
}

#endif
