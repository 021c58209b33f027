/* sysfs_remove.c - taking nodes out in kernfs's order: bias the whole subtree, then drain and unlink node by node. */
#include <string.h>
#include <sysfs.h>
#include <sysfs_internal.h>
#include <verify.h>

/*
 * sysfs_last_linked - the next node __sysfs_remove() takes out: a child of
 * sd still in the tree, or sd once it has none.  kernfs walks to the
 * leftmost descendant; we take the last child, the order in which stage 3
 * drops a directory's files, so that the two stages' traces compare.
 */
static struct sysfs_dirent *sysfs_last_linked(struct sysfs_dirent *sd)
{
	struct sysfs_dirent *pos, *last = sd;

	if (sd->s_type == SYSFS_DIR)
		for (pos = sd->s_children; pos; pos = pos->s_sibling)
			last = pos;
	return last;
}

/*
 * sysfs_drain - wait for the operations inside pos, without sysfs_mutex:
 * kernfs_drain() drops kernfs_rwsem for its wait the same way.  Ours drops
 * the mutex around sysfs_deactivate(), which keeps stage 3's contract
 * (never called with the mutex held).  Always inlined: lockdep's report
 * names the caller of sysfs_deactivate() by its return address, which must
 * be __sysfs_remove(), as the kernel's names __kernfs_remove() (gcc inlines
 * this anyway; clang did not).
 */
static __always_inline void sysfs_drain(struct sysfs_dirent *pos)
{
	mutex_unlock(&sysfs_mutex);
	sysfs_deactivate(pos);
	mutex_lock(&sysfs_mutex);
}

/**
 * __sysfs_remove - take @sd and everything under it out of the tree.
 * @sd: the node; the caller holds an s_count on it
 *
 * kernfs's order (__kernfs_remove(), fs/kernfs/dir.c): first the bias on
 * every node of the subtree, under the mutex, so that no operation gets
 * into any of them from then on; then node by node, children first, drain
 * it and only then unlink it.  A node therefore stays in the tree, shut,
 * for as long as an operation is inside it: a method that looks itself up
 * (sysfs_remove_file_self()) always finds its own node.  Several removers
 * may drain one node at once; the unlink happens once, and the one that
 * does it drops the tree's s_count.  A node already unlinked is left
 * alone: that is how remove_self() and a later removal of the same node
 * meet.
 *
 * Context: call with sysfs_mutex held; it is dropped and taken again
 * while each node drains.  May sleep.  Never inlined: lockdep names the
 * drain's caller by its return address, and the reports the book shows
 * say __sysfs_remove() (clang would inline it into both callers here).
 */
__noinline void __sysfs_remove(struct sysfs_dirent *sd)
{
	struct sysfs_dirent *pos;

	lockdep_assert_held(&sysfs_mutex);
	if (sd->s_removed)
		return;
	for (pos = sd->s_type == SYSFS_DIR ? sd->s_children : NULL; pos; pos = pos->s_sibling)
		sysfs_deactivate_start(pos);
	sysfs_deactivate_start(sd);
	do {
		pos = sysfs_last_linked(sd);
		/*
		 * kernfs_add_one() refuses a child under a deactivated parent;
		 * ours may add one while the mutex is dropped: shut it too.
		 */
		sysfs_deactivate_start(pos);
		sysfs_get(pos);		/* another remover may drop the tree's count while we drain */
		sysfs_drain(pos);
		if (!pos->s_removed) {
			sysfs_unlink_child(pos);
			trace_event("remove", pos->trace_name, NULL);	/* after its drain, as it leaves the tree */
			verify_expect_gone(pos, pos->trace_name, "held by an s_count (a file left open?)");
			sysfs_put(pos);	/* the tree's */
		}
		sysfs_put(pos);
	} while (pos != sd);
}

/* Remove one named entry of kobj's directory. */
static void sysfs_remove_name(struct kobject *kobj, const char *name)
{
	struct sysfs_dirent *sd;

	mutex_lock(&sysfs_mutex);
	for (sd = kobj->sd ? kobj->sd->s_children : NULL; sd; sd = sd->s_sibling)
		if (strcmp(sd->s_name, name) == 0)
			break;
	if (sd) {
		sysfs_get(sd);
		__sysfs_remove(sd);
		sysfs_put(sd);
	}
	mutex_unlock(&sysfs_mutex);
}

void sysfs_remove_file(struct kobject *kobj, struct attribute *attr)
{
	sysfs_remove_name(kobj, attr->name);
}

void sysfs_remove_link(struct kobject *kobj, const char *name)
{
	sysfs_remove_name(kobj, name);
}

/*
 * sysfs_remove_dir - take kobj's directory and everything in it out of the
 * tree.  kernfs's sysfs_remove_dir() clears kobj->sd before it removes;
 * ours clears it once the directory is unlinked, so that a method still
 * inside one of the files finds its node through kobj until it is drained.
 */
void sysfs_remove_dir(struct kobject *kobj)
{
	struct sysfs_dirent *dir = kobj->sd;

	if (!dir)
		return;
	mutex_lock(&sysfs_mutex);
	sysfs_get(dir);
	__sysfs_remove(dir);
	if (kobj->sd == dir)
		kobj->sd = NULL;
	sysfs_put(dir);
	mutex_unlock(&sysfs_mutex);
}
