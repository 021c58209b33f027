/* sysfs_refs.h - a node's two counters as the rest of sysfs calls them, whatever s_active is made of. */
#ifndef KSIM_SYSFS_REFS_H
#define KSIM_SYSFS_REFS_H

struct sysfs_dirent;
struct attribute;

enum sysfs_type { SYSFS_DIR = 1, SYSFS_KOBJ_ATTR = 2, SYSFS_KOBJ_LINK = 4 };

/* sysfs_get/sysfs_put - s_count: the dirent's memory, nothing more. */
struct sysfs_dirent *sysfs_get(struct sysfs_dirent *sd);
void sysfs_put(struct sysfs_dirent *sd);

/*
 * The active reference (sysfs_active.c).  The caller must hold an s_count
 * (the dirent's memory must outlive the call).  Hold an active reference
 * for one operation, never across a return to user space.
 */
struct sysfs_dirent *sysfs_get_active(struct sysfs_dirent *sd);
void sysfs_put_active(struct sysfs_dirent *sd);
/* sysfs_deactivate - deletion: refuse new operations, wait for the ones in flight. */
void sysfs_deactivate(struct sysfs_dirent *sd);

/*
 * The active reference's birth, naming and death, with the dirent's
 * (sysfs_tree.c calls them): init when the dirent is allocated, name once
 * its path is known, destroy with its memory.
 */
void sysfs_active_init(struct sysfs_dirent *sd, const char *name);
void sysfs_active_name(struct sysfs_dirent *sd, const char *path);
void sysfs_active_destroy(struct sysfs_dirent *sd);

#endif
