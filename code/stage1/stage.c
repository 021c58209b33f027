/* stage.c - stage 1: naive reference counting.  What the runner needs of a stage. */
#include <stdio.h>
#include <slab.h>
#include <sysfs_internal.h>
#include <vfs.h>

const char *const stage_name = "stage1 (kref: an open file pins the kobject)";

/* The fixed top of the tree: /sys and the directories drivers hang things from. */
void stage_init(void)
{
	static const char *const top[] = { "block", "class", "devices", "module" };
	struct sysfs_dirent *sd;

	sysfs_root = sysfs_new_dirent("sys", SYSFS_DIR);
	for (size_t i = 0; i < ARRAY_SIZE(top); i++) {
		sd = sysfs_new_dirent(top[i], SYSFS_DIR);
		mutex_lock(&sysfs_mutex);
		sysfs_link_child(sysfs_root, sd);
		mutex_unlock(&sysfs_mutex);
	}
}

/* Nothing to verify in this stage: a held kobject is its design, not a leak. */
int stage_verify(void)
{
	return 0;
}
