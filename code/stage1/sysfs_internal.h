/* sysfs_internal.h - what the sysfs files share among themselves. */
#ifndef KSIM_SYSFS_INTERNAL_H
#define KSIM_SYSFS_INTERNAL_H

#include <sysfs.h>

struct sysfs_dirent *sysfs_new_dirent(const char *name, enum sysfs_type type);
int sysfs_link_child(struct sysfs_dirent *parent, struct sysfs_dirent *sd);
void sysfs_unlink_child(struct sysfs_dirent *sd);
/* sysfs_trace_create - the dirent's "create" event, naming what it points at. */
void sysfs_trace_create(struct sysfs_dirent *sd);
/*
 * sysfs_drop_dirent - an unlinked dirent leaves sysfs: do what removal
 * means in this stage, then drop the tree's s_count.
 */
void sysfs_drop_dirent(struct sysfs_dirent *sd);

#endif
