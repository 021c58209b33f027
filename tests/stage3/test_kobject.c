/* test_kobject.c - stage 3's kobjects and their parents: the reference the core takes, and gives back. */
#include <string.h>
#include <kobject.h>
#include "ktest.h"
#include <sysfs_internal.h>
#include "active_tree.h"

/*
 * kobject_add() takes a reference on the parent for the child.  Stage 3's
 * kobject_del() gives it back at once (the chapter "Stage 3: two counters,
 * and deletion that means it" says why, and what the
 * kernel did later: the parent put went behind release() in 2020 for the
 * last put that deletes, while an explicit kobject_del() still drops it at
 * once); a release() that needs its parent holds a reference of its own,
 * as SCSI's do.  And an add that fails takes nothing.
 */
static struct kobject parent, child, twin;
static char order[8];

static void note_release(struct kobject *kobj)
{
	size_t n = strlen(order);

	order[n] = kobj == &parent ? 'P' : kobj == &child ? 'C' : 'T';
	order[n + 1] = '\0';
}

static const struct kobj_type noting_ktype = { .release = note_release };

static void add_family(void)
{
	boot_active_tree();
	order[0] = '\0';
	kobject_init(&parent, &noting_ktype);
	ck_assert_int_eq(kobject_add(&parent, NULL, "kparent0"), 0);
	kobject_init(&child, &noting_ktype);
	ck_assert_int_eq(kobject_add(&child, &parent, "kchild"), 0);
}

START_TEST(kobject_del_gives_the_parent_back_and_the_last_puts_release_each_once)
{
	add_family();
	ck_assert_int_eq(kref_read(&parent.kref), 2);	/* its own, and the child's */
	kobject_del(&child);
	ck_assert_msg(kref_read(&parent.kref) == 1, "kobject_del() of the child left the parent with %d "
		      "references, want 1: the core's reference for the child is dropped at the delete in stage 3",
		      kref_read(&parent.kref));
	kobject_put(&child);
	kobject_del(&parent);
	kobject_put(&parent);
	ck_assert_msg(strcmp(order, "CP") == 0, "releases ran \"%s\", want \"CP\": each once", order);
	ck_assert_msg(stage_verify() == 0, "references left after both were released");
}
END_TEST

START_TEST(a_child_that_cannot_be_added_gives_its_parent_back)
{
	int held;

	add_family();
	held = kref_read(&parent.kref);
	kobject_init(&twin, &noting_ktype);
	ck_assert_int_eq(kobject_add(&twin, &parent, "kchild"), -EEXIST);
	ck_assert_msg(kref_read(&parent.kref) == held, "a failed kobject_add() kept a reference on the parent "
		      "(%d, was %d)", kref_read(&parent.kref), held);
	kobject_put(&twin);
	kobject_del(&child);
	kobject_put(&child);
	kobject_del(&parent);
	kobject_put(&parent);
	ck_assert_msg(strcmp(order, "TCP") == 0, "releases ran in the order \"%s\", want \"TCP\"", order);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("stage3-kobject");
	TCase *tc = ktest_case(s, "parents", 10);

	tcase_add_test(tc, kobject_del_gives_the_parent_back_and_the_last_puts_release_each_once);
	tcase_add_test(tc, a_child_that_cannot_be_added_gives_its_parent_back);
	return ktest_main(s);
}
