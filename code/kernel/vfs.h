/* vfs.h - the file interface a stage's sysfs offers to the scenario runner. */
#ifndef KSIM_VFS_H
#define KSIM_VFS_H

#include "kernel.h"

/*
 * Each stage implements these over its own sysfs.  The runner plays the
 * userspace side: it opens, reads, writes and closes on behalf of the
 * scenario's tasks, always from the thread of the task that does it.
 * Errors are negative errnos (-ENOENT, -ENODEV, -EBUSY...).
 */
struct file;

#define VFS_READ  1
#define VFS_WRITE 2

int vfs_open(const char *path, int mode, struct file **filp);
ssize_t vfs_read(struct file *file, char *buf, size_t len);
ssize_t vfs_write(struct file *file, const char *buf, size_t len);
/* vfs_close - the last close of the file: sysfs_release() runs here. */
void vfs_close(struct file *file);
/* vfs_readdir - call emit for each entry of a directory, sorted by name. */
int vfs_readdir(const char *path, void (*emit)(const char *name, bool dir, void *ctx), void *ctx);

/* The stage's start-up and the check it runs after every scenario. */
void stage_init(void);
/* stage_verify - after the scenario: report references still held (RFD section 3). 0 if clean. */
int stage_verify(void);
extern const char *const stage_name;

#endif
