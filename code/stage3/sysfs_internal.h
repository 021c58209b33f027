/* sysfs_internal.h - what the sysfs files share among themselves. */
#ifndef KSIM_SYSFS_INTERNAL_H
#define KSIM_SYSFS_INTERNAL_H

#include <percpu.h>
#include <sysfs.h>

struct sysfs_dirent *sysfs_new_dirent(const char *name, enum sysfs_type type);
int sysfs_link_child(struct sysfs_dirent *parent, struct sysfs_dirent *sd);
void sysfs_unlink_child(struct sysfs_dirent *sd);
/* sysfs_trace_create - the dirent's "create" event, naming what it points at. */
void sysfs_trace_create(struct sysfs_dirent *sd);
/*
 * sysfs_drop_dirent - an unlinked dirent leaves sysfs: deactivate it
 * (waiting for the operations in flight), then drop the tree's s_count.
 */
void sysfs_drop_dirent(struct sysfs_dirent *sd);

/*
 * Active references held right now, all nodes together (sysfs_active_acct.c),
 * for stage_verify(): percpu_counter_sum() once the tasks have stopped.
 */
extern struct percpu_counter sysfs_active_refs;
/*
 * What every get and put of an active reference records, whatever s_active
 * is made of: sysfs_active_got() returns sd if ok (counted and traced as a
 * get), else NULL (traced as a refused one); sysfs_active_putting() comes
 * before the put itself.
 */
struct sysfs_dirent *sysfs_active_got(struct sysfs_dirent *sd, bool ok);
void sysfs_active_putting(struct sysfs_dirent *sd);
/* Files open right now (sysfs_file.c). */
extern atomic_int sysfs_open_files;

#endif
