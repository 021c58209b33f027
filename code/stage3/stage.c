/* stage.c - stage 3: the two-counter sysfs_dirent.  What the runner needs of a stage. */
#include <stdio.h>
#include <slab.h>
#include <sysfs_internal.h>
#include <verify.h>
#include <vfs.h>

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

/* One count that must be back to zero: report it if it is not ("1 file", "2 files"). */
static int verify_zero(long n, const char *one, const char *many)
{
	if (n)
		printk("stage_verify: %ld %s", n, n == 1 ? one : many);
	return n != 0;
}

/*
 * stage_verify - the RFD mail's check (its section 3), run after the
 * scenario, once every process has exited and queued work has run.
 *
 * With the two counters, deleting a device must leave nothing behind
 * that still counts on it: every kobject that was deleted has been
 * released (a count left over is a reference a driver forgot to drop;
 * a pending callback's reference has been dropped by now, since queued
 * work has run), every dirent that was removed has been freed (its files
 * are closed by now), and no operation is still inside an active
 * reference.  Prints what is left; the runner turns a non-zero return
 * into exit status 1.
 */
int stage_verify(void)
{
	int left = verify_report();

	left += verify_zero(percpu_counter_sum(&sysfs_active_refs), "active reference still held (a get without a put?)",
			    "active references still held (a get without a put?)");
	left += verify_zero(atomic_load(&sysfs_open_files), "file still open", "files still open");
	if (left)
		printk("stage_verify: %d reference%s left after the scenario", left, left == 1 ? "" : "s");
	return left;
}
