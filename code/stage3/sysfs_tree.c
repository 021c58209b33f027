/* sysfs_tree.c - the dirent tree: allocation, s_count and s_active's birth and death, lookup. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <valgrind/helgrind.h>
#include <slab.h>
#include <sysfs.h>
#include <task.h>
#include <verify.h>

DEFINE_MUTEX(sysfs_mutex);
struct sysfs_dirent *sysfs_root;

void sysfs_path(const struct sysfs_dirent *sd, char *buf, size_t len)
{
	char tmp[256];

	if (!sd->s_parent) {
		snprintf(buf, len, "/%s", sd->s_name);
		return;
	}
	sysfs_path(sd->s_parent, tmp, sizeof(tmp));
	snprintf(buf, len, "%s/%s", tmp, sd->s_name);
}

/*
 * sysfs_new_dirent - a dirent with its first s_count, for the tree, not yet
 * linked.  Its s_active is born open: operations may start as soon as the
 * dirent can be found.
 */
struct sysfs_dirent *sysfs_new_dirent(const char *name, enum sysfs_type type)
{
	struct sysfs_dirent *sd = kzalloc(sizeof(*sd), "sysfs_dirent");

	atomic_set(&sd->s_count, 1);
	sysfs_active_init(sd, name);
	sd->s_name = strdup(name);
	sd->s_type = type;
	return sd;
}

static struct sysfs_dirent *sysfs_find_child(struct sysfs_dirent *dir, const char *name, size_t len)
{
	struct sysfs_dirent *sd;

	for (sd = dir->s_children; sd; sd = sd->s_sibling)
		if (strlen(sd->s_name) == len && strncmp(sd->s_name, name, len) == 0)
			return sd;
	return NULL;
}

/*
 * sysfs_link_child - put sd into parent's children, sorted; takes over the
 * caller's s_count as the tree's and pins the parent.  -EEXIST if the name
 * is taken.  Call with sysfs_mutex held.
 */
int sysfs_link_child(struct sysfs_dirent *parent, struct sysfs_dirent *sd)
{
	struct sysfs_dirent **pp;
	char path[256];

	lockdep_assert_held(&sysfs_mutex);
	if (sysfs_find_child(parent, sd->s_name, strlen(sd->s_name)))
		return -EEXIST;
	for (pp = &parent->s_children; *pp; pp = &(*pp)->s_sibling)
		if (strcmp((*pp)->s_name, sd->s_name) > 0)
			break;
	sd->s_sibling = *pp;
	*pp = sd;
	sd->s_parent = sysfs_get(parent);
	sysfs_path(sd, path, sizeof(path));
	trace_name(sd->trace_name, sizeof(sd->trace_name), "dirent", path);
	/* Nobody can reach s_active yet: the dirent becomes visible when we drop sysfs_mutex. */
	sysfs_active_name(sd, path);
	return 0;
}

/*
 * sysfs_unlink_child - take sd out of the tree; lookups no longer find it.
 * The caller then drops the tree's s_count.  Call with sysfs_mutex held.
 */
void sysfs_unlink_child(struct sysfs_dirent *sd)
{
	struct sysfs_dirent **pp;

	lockdep_assert_held(&sysfs_mutex);
	for (pp = &sd->s_parent->s_children; *pp; pp = &(*pp)->s_sibling) {
		if (*pp == sd) {
			*pp = sd->s_sibling;
			break;
		}
	}
	sd->s_sibling = NULL;
	sd->s_removed = true;
}

struct sysfs_dirent *sysfs_get(struct sysfs_dirent *sd)
{
	if (sd)
		atomic_inc(&sd->s_count);
	return sd;
}

/*
 * sysfs_free_dirent - the last s_count is gone.  Nobody can start an
 * operation on sd any more (that needs an s_count), so no operation holds
 * an active reference: s_active goes with the memory.
 */
static void sysfs_free_dirent(struct sysfs_dirent *sd)
{
	if (sd->s_type == SYSFS_KOBJ_LINK)
		sysfs_put(sd->s.target);
	verify_forget(sd);
	sysfs_active_destroy(sd);
	free(sd->s_name);
	kfree(sd);
}

/*
 * sysfs_put - drop an s_count; the last frees the dirent and lets go of
 * what it pinned (its parent, a link's target).  Never touches a kobject:
 * a dirent's memory and its kobject's are separate lifetimes.
 *
 * The annotations are kref_put()'s (kref.h): helgrind and drd do not see
 * the atomic decrement as an order between the holders, so without them
 * the free would look like a race with the previous holder's last access.
 */
void sysfs_put(struct sysfs_dirent *sd)
{
	struct sysfs_dirent *parent;

	while (sd) {
		if (!atomic_dec_and_test(&sd->s_count)) {
			ANNOTATE_HAPPENS_BEFORE(&sd->s_count);
			break;
		}
		ANNOTATE_HAPPENS_AFTER(&sd->s_count);
		ANNOTATE_HAPPENS_BEFORE_FORGET_ALL(&sd->s_count);
		parent = sd->s_parent;
		sysfs_free_dirent(sd);
		sd = parent;	/* iterate rather than recurse up the tree */
	}
}

/* sysfs_lookup - see sysfs.h.  Call with sysfs_mutex held. */
struct sysfs_dirent *sysfs_lookup(const char *path)
{
	struct sysfs_dirent *sd = sysfs_root;
	const char *p = path, *end;
	size_t rootlen = strlen(sysfs_root->s_name);

	lockdep_assert_held(&sysfs_mutex);
	/* Every path starts at "/sys". */
	if (p[0] != '/' || strncmp(p + 1, sysfs_root->s_name, rootlen) != 0 ||
	    (p[1 + rootlen] != '/' && p[1 + rootlen] != '\0'))
		return NULL;
	p += 1 + rootlen;
	while (sd && *p) {
		while (*p == '/')
			p++;
		if (!*p)
			break;
		end = strchrnul(p, '/');
		if (sd->s_type != SYSFS_DIR)
			return NULL;
		sd = sysfs_find_child(sd, p, end - p);
		while (sd && sd->s_type == SYSFS_KOBJ_LINK)
			sd = sd->s.target;
		p = end;
	}
	return sysfs_get(sd);
}
