/* test_stage2.c - stage 2's claims: an open file pins its attribute's owner, and that is not enough. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <device.h>
#include "exercise.h"
#include <kobject_owners.h>
#include "ktest.h"
#include "slab.h"
#include "module.h"
#include "mutex.h"
#include <sysfs.h>
#include "task.h"
#include "vfs.h"
#include "workqueue.h"

#define SCEN "code/scenarios/"
#define DELETE "/sys/block/sda/device/delete"
#define CLICKS "/sys/devices/mouse0/clicks"

/* Fail naming the exercise whose stub ran, if one did (at the caller's line). */
#define assert_no_todo() ck_assert_exercises_done("exercises/stage2/")

/*
 * A module of our own, never loaded: try_module_get() and module_put()
 * only look at its counter and state, which is all these tests need.
 */
static struct module fake = { .name = "fake", .trace_name = "module:fake" };

static void fake_going(void)
{
	/* What rmmod does first: stop the count, so that try_module_get() fails. */
	atomic_store(&fake.refcnt, -1);
	atomic_store(&fake.state, MODULE_STATE_GOING);
}

static void noop_release(struct kobject *kobj)
{
	(void)kobj;
}
static ssize_t fake_show(struct kobject *kobj, struct attribute *attr, char *buf)
{
	(void)kobj; (void)attr;
	return snprintf(buf, 8, "1\n");
}
static const struct sysfs_ops fake_ops = { .show = fake_show };
static const struct kobj_type fake_ktype = { .release = noop_release, .sysfs_ops = &fake_ops };

/* /sys/devices/fake0/attr, whose attribute is owned by the module fake. */
static struct kobject fake_kobj;
static struct attribute fake_attr = { .name = "attr", .mode = 0444 };

static void boot_tree(void)
{
	task_init_main("test");
	stage_init();
	kobject_init(&fake_kobj, &fake_ktype);
	ck_assert_int_eq(kobject_add(&fake_kobj, NULL, "fake0"), 0);
	/* What sysfs_create_file() would do if it were called from inside fake. */
	ck_assert_int_eq(__sysfs_create_file(&fake_kobj, &fake_attr, &fake), 0);
}

/*
 * ck_assert_no_other_todo - like ck_assert_no_todo(), but a stub of the
 * exercise named may have run: with --trace, every open calls
 * kobject_owners() for the trace, and a test that does not read needs=
 * should not fail for it.
 */
static const char *other_todo(const char *err, const char *except)
{
	static char line[256];
	char mine[64];

	snprintf(mine, sizeof(mine), "TODO(%s)", except);
	for (const char *t = strstr(err, "TODO("); t; t = strstr(t + 1, "TODO(")) {
		if (strncmp(t, mine, strlen(mine)) == 0)
			continue;
		snprintf(line, sizeof(line), "%.*s", (int)strcspn(t, "\n"), t);
		return line;
	}
	return NULL;
}
#define ck_assert_no_other_todo(r, except) \
	ck_assert_msg(!other_todo((r)->err, (except)), "ksim ran an unfinished exercise: %s", \
		      other_todo((r)->err, (except)))

/* ---- open and close: the owner is pinned while the file is open ---- */

START_TEST(open_pins_the_owner_until_close)
{
	struct file *f;

	boot_tree();
	ck_assert_int_eq(vfs_open("/sys/devices/fake0/attr", VFS_READ, &f), 0);
	ck_assert_msg(module_refcount(&fake) == 1, "an open file must hold one reference on its attribute's owner; "
		      "the owner has %d (sysfs_file.c, vfs_open)", module_refcount(&fake));
	ck_assert_int_eq(kref_read(&fake_kobj.kref), 2);
	vfs_close(f);
	ck_assert_msg(module_refcount(&fake) == 0, "close must drop the owner's reference; it has %d",
		      module_refcount(&fake));
	ck_assert_int_eq(kref_read(&fake_kobj.kref), 1);
}
END_TEST

START_TEST(opening_a_file_of_a_going_module_fails_with_enodev)
{
	struct file *f = NULL;

	long live;

	boot_tree();
	fake_going();
	live = slab_live_objects();
	ck_assert_int_eq(vfs_open("/sys/devices/fake0/attr", VFS_READ, &f), -ENODEV);
	ck_assert_msg(kref_read(&fake_kobj.kref) == 1, "a refused open must not keep a kobject reference");
	ck_assert_msg(!mutex_is_locked(&sysfs_mutex), "a refused open returned with sysfs_mutex still held");
	ck_assert_msg(slab_live_objects() == live, "a refused open left %ld object(s) allocated (its struct file?)",
		      slab_live_objects() - live);
}
END_TEST

/* ---- exercise 2 (the chapter's second): the callback pins the module of its function ---- */

static atomic_int cb_ran, cb_saw_refs;

static void callback(void *data)
{
	(void)data;
	atomic_store(&cb_saw_refs, module_refcount(&fake));
	atomic_fetch_add(&cb_ran, 1);
}

START_TEST(callback_pins_its_module_until_it_has_run)
{
	struct kobject kobj;
	long live;
	int err;

	task_init_main("test");
	workqueue_init();
	kobject_init(&kobj, &fake_ktype);
	live = slab_live_objects();
	err = sysfs_schedule_callback_owner(&kobj, callback, NULL, &fake);
	flush_scheduled_work();
	assert_no_todo();
	ck_assert_msg(slab_live_objects() == live, "after the callback ran, %ld object(s) were still allocated: the "
		      "work item frees its sysfs_schedule_callback_struct when done", slab_live_objects() - live);
	ck_assert_int_eq(err, 0);
	ck_assert_int_eq(atomic_load(&cb_ran), 1);
	ck_assert_msg(atomic_load(&cb_saw_refs) == 1,
		      "while the callback ran, its module had %d references, want 1: "
		      "sysfs_schedule_callback_owner() must take one for the work item", atomic_load(&cb_saw_refs));
	ck_assert_msg(module_refcount(&fake) == 0,
		      "after the callback the module still has %d references: "
		      "sysfs_schedule_callback_work() must drop the one taken at scheduling", module_refcount(&fake));
	ck_assert_int_eq(kref_read(&kobj.kref), 1);
}
END_TEST

START_TEST(callback_of_a_going_module_is_refused_with_enodev)
{
	struct kobject kobj;
	long live;
	int err;

	task_init_main("test");
	workqueue_init();
	kobject_init(&kobj, &fake_ktype);
	fake_going();
	live = slab_live_objects();
	err = sysfs_schedule_callback_owner(&kobj, callback, NULL, &fake);
	flush_scheduled_work();
	assert_no_todo();
	ck_assert_msg(slab_live_objects() == live, "sysfs_schedule_callback_owner() refused the callback but left "
		      "%ld object(s) allocated: free what you allocated before returning -ENODEV", slab_live_objects() - live);
	ck_assert_msg(err == -ENODEV, "scheduling a callback in a module that is going away returned %d, want "
		      "-ENODEV (%d): its code may be unmapped before the work runs", err, -ENODEV);
	ck_assert_msg(atomic_load(&cb_ran) == 0, "the refused callback ran anyway");
	ck_assert_msg(kref_read(&kobj.kref) == 1, "the refused callback kept a reference on the kobject");
}
END_TEST

/* ---- exercise 1 (the chapter's first): find the owners ---- */

START_TEST(kobject_owners_lists_no_module_for_builtin_code)
{
	const char *mods[4];
	struct kobject kobj;

	task_init_main("test");
	kobject_init(&kobj, &fake_ktype);
	ck_assert_int_eq(kobject_owners(&kobj, mods, 4), 0);
	assert_no_todo();
}
END_TEST

/*
 * A kobject that does not say which release its last put runs (owner_code
 * 0) runs its type's: the module that holds ktype->release is an owner.
 * Here it is the parent's, so the walk up the parents must look at it.  A
 * solution that reads only owner_code (most drivers of the scenarios set
 * it) passes every other test and misses this one.
 */
/*
 * slowdev.so calls the device core (device.o), which nothing else of this
 * suite uses: without a reference the linker leaves it out of the suite,
 * and insmod finds an unknown symbol.
 */
static int (*const keep_device_core)(struct device *, const char *, ...) __attribute__((used)) = device_register;

/* slowdev loaded, the module whose code the two tests below name as an owner. */
static struct module *load_slowdev(void)
{
	const char *dir = getenv("KSIM_DIR");
	struct module *mod;

	ck_assert_msg(dir != NULL, "KSIM_DIR is not set: run the suite through make");
	task_init_main("test");
	module_set_dir(dir);
	ck_assert_int_eq(insmod("slowdev"), 0);
	mod = find_module("slowdev");
	ck_assert_ptr_nonnull(mod);
	return mod;
}

START_TEST(kobject_owners_falls_back_to_the_type_release)
{
	const char *mods[4];
	struct kobj_type module_ktype = { .sysfs_ops = &fake_ops };
	struct kobject parent, kobj;
	struct module *mod;
	int n;

	mod = load_slowdev();
	/* Code of slowdev's, standing for a release it would define (never called here). */
	module_ktype.release = (void (*)(struct kobject *))(uintptr_t)mod->info->exit;
	kobject_init(&parent, &module_ktype);
	kobject_init(&kobj, &fake_ktype);
	kobj.parent = &parent;
	ck_assert(parent.owner_code == 0 && kobj.owner_code == 0);
	n = kobject_owners(&kobj, mods, 4);
	assert_no_todo();
	ck_assert_msg(n == 1 && strcmp(mods[0], "slowdev") == 0,
		      "the parent's owner_code is 0 and its ktype->release is slowdev's code: kobject_owners() "
		      "must fall back to ktype->release and list slowdev (it listed %d module%s%s%s)",
		      n, n == 1 ? "" : "s", n ? ", the first " : "", n ? mods[0] : "");
}
END_TEST

/*
 * The caller's array has room for max names and no more: sysfs_open_file()
 * passes one of a fixed size.  With max 0 nothing may be written, however
 * many owners the chain has.
 */
START_TEST(kobject_owners_writes_at_most_max_names)
{
	const char *mods[2] = { "untouched", "untouched" };
	struct kobject kobj;
	struct module *mod;
	int n;

	mod = load_slowdev();
	kobject_init(&kobj, &fake_ktype);
	kobj.owner_code = (uintptr_t)mod->info->exit;
	n = kobject_owners(&kobj, mods, 0);
	assert_no_todo();
	ck_assert_msg(n == 0 && strcmp(mods[0], "untouched") == 0,
		      "kobject_owners(kobj, mods, 0) must list nothing (room for 0 names), but returned %d and "
		      "mods[0] is \"%s\"", n, mods[0]);
	n = kobject_owners(&kobj, mods, 1);
	ck_assert_msg(n == 1 && strcmp(mods[0], "slowdev") == 0 && strcmp(mods[1], "untouched") == 0,
		      "with room for one name, kobject_owners() must list slowdev alone (it returned %d)", n);
}
END_TEST

/*
 * needs= of the first "open" event on file:PATH as kobject_owners() listed
 * it (nearest first), into list; NULL if there is no such open.
 */
static char *needs_in_order(const char *trace, const char *path, char *list, size_t len)
{
	char key[160];
	const char *line, *p;

	snprintf(key, sizeof(key), " open file:%s ", path);
	line = trace ? strstr(trace, key) : NULL;
	list[0] = '\0';
	if (!line)
		return NULL;
	p = strstr(line, " needs=");
	if (p && p < strchrnul(line + 1, '\n'))
		snprintf(list, len, "%.*s", (int)strcspn(p + 7, " \n"), p + 7);
	return list;
}

/*
 * needs= of the first "open" event on file:PATH, its module names sorted
 * and comma separated: the tests of which modules are listed (the order
 * has a test of its own, kobject_owners_lists_the_nearest_owner_first).
 */
static char *needs_of(const char *trace, const char *path)
{
	static char out[256];
	char list[256], *names[8], *p;
	int n = 0;

	out[0] = '\0';
	if (!needs_in_order(trace, path, list, sizeof(list)))
		return NULL;
	for (p = strtok(list, ","); p && n < 8; p = strtok(NULL, ","))
		names[n++] = p;
	for (int i = 1; i < n; i++)	/* insertion sort: a handful of names */
		for (int j = i; j > 0 && strcmp(names[j - 1], names[j]) > 0; j--) {
			char *t = names[j];

			names[j] = names[j - 1];
			names[j - 1] = t;
		}
	for (int i = 0; i < n; i++)
		snprintf(out + strlen(out), sizeof(out) - strlen(out), "%s%s", i ? "," : "", names[i]);
	return out;
}

/* SEQ of the first trace line that contains text, or 0. */
static long seq_of(const char *trace, const char *text)
{
	const char *hit = trace ? strstr(trace, text) : NULL;
	const char *line = hit;

	if (!hit)
		return 0;
	while (line > trace && line[-1] != '\n')
		line--;
	return strtol(line, NULL, 10);
}

/* Is there a mod_get line of module:MOD by=file:PATH? */
static bool pinned_by(const char *trace, const char *mod, const char *path)
{
	char key[256];

	snprintf(key, sizeof(key), " mod_get module:%s count=", mod);
	for (const char *l = strstr(trace, key); l; l = strstr(l + 1, key)) {
		const char *by = strstr(l, " by=file:");
		const char *end = strchrnul(l + 1, '\n');

		if (by && by < end && strncmp(by + 9, path, strlen(path)) == 0 &&
		    (by[9 + strlen(path)] == '\n' || by[9 + strlen(path)] == ' ' || by[9 + strlen(path)] == '\0'))
			return true;
	}
	return false;
}

/*
 * kobject_owners() lists the nearest owner first: the module whose release
 * the last put runs first (the disk's, scsi_mod), then its parents' up to
 * the root.  A walk that lists the root first names the same modules, so
 * only the order tells them apart.
 */
START_TEST(kobject_owners_lists_the_nearest_owner_first)
{
	struct ksim_run r;
	char list[256];

	ksim_run(&r, SCEN "find-the-owner.ksh", true, NULL, 20);
	ck_assert_no_todo(&r);
	ck_assert_status(&r, 0);
	ck_assert_msg(needs_in_order(r.trace, DELETE, list, sizeof(list)), "no open of %s in the trace", DELETE);
	ck_assert_msg(strcmp(list, "module:scsi_mod,module:libata,module:ahci") == 0,
		      "kobject_owners() must list the nearest owner first: scsi_mod (the disk's release), then "
		      "libata (the host's template), then ahci (the controller's release), walking from the "
		      "kobject up its parents; it said \"%s\"", list);
	ksim_run_free(&r);
}
END_TEST

START_TEST(find_the_owner_delete_pins_one_module_its_close_needs_three)
{
	struct ksim_run r;
	const char *needs;

	ksim_run(&r, SCEN "find-the-owner.ksh", true, NULL, 20);
	ck_assert_no_todo(&r);
	ck_assert_status(&r, 0);
	needs = needs_of(r.trace, DELETE);
	ck_assert_msg(needs, "no open of %s in the trace", DELETE);
	ck_assert_msg(strcmp(needs, "module:ahci,module:libata,module:scsi_mod") == 0,
		      "the last close of delete may reach scsi_mod (the disk's and target's release), libata "
		      "(the host's template) and ahci (the controller's release); kobject_owners() said \"%s\"", needs);
	/* What the open pinned: the attribute's owner, and that is all. */
	ck_assert_msg(pinned_by(r.trace, "scsi_mod", DELETE), "the open of delete did not pin scsi_mod");
	ck_assert_msg(!pinned_by(r.trace, "libata", DELETE) && !pinned_by(r.trace, "ahci", DELETE),
		      "the open of delete pinned libata or ahci: only the attribute's owner should be pinned");
	ck_assert_msg(strstr(r.trace, " mod_put module:scsi_mod count=2 by=file:" DELETE "\n"),
		      "closing delete must give scsi_mod back its count of 2");
	ksim_run_free(&r);
}
END_TEST

START_TEST(find_the_owner_clicks_pins_the_module_its_close_needs)
{
	struct ksim_run r;
	const char *needs;

	ksim_run(&r, SCEN "find-the-owner.ksh", true, NULL, 20);
	ck_assert_no_todo(&r);
	ck_assert_status(&r, 0);
	needs = needs_of(r.trace, CLICKS);
	ck_assert_msg(needs && strcmp(needs, "module:mouse") == 0,
		      "the last close of clicks may reach only the mouse module (mouse_release); "
		      "kobject_owners() said \"%s\"", needs ? needs : "(no open event)");
	ck_assert_msg(pinned_by(r.trace, "mouse", CLICKS), "the open of clicks did not pin mouse");
	ck_assert_msg(strstr(r.trace, " mod_put module:mouse count=0 by=file:" CLICKS "\n"),
		      "closing clicks must give mouse back its count of 0");
	ksim_run_free(&r);
}
END_TEST

/* ---- the scenarios, through ksim ---- */

START_TEST(seed_example1_rmmod_scsi_mod_is_refused_while_the_callback_is_pending)
{
	struct ksim_run r;
	long pinned, run, sd_gone, put;

	ksim_run(&r, SCEN "seed-example1.ksh", true, NULL, 20);
	ck_assert_no_other_todo(&r, "kobject_owners");
	ck_assert_said(&r, "rmmod: ERROR: Module scsi_mod is in use");
	ck_assert_msg(trace_count(r.trace, "mod_unload", "module:scsi_mod") == 0, "scsi_mod was unloaded");
	/* Whose name the pin carries depends on the get the student calls (_by or not): not graded. */
	pinned = seq_of(r.trace, " mod_get module:scsi_mod count=4 by=");
	run = trace_seq(r.trace, "work_run", "work:sysfs_schedule_callback_work", 1);
	ck_assert_msg(pinned, "sysfs_schedule_callback() must pin scsi_mod, the module of the callback's "
		      "function, when it schedules the work item (no mod_get of module:scsi_mod to a count of 4)");
	ck_assert_msg(run > pinned, "the work item ran (event %ld) before it was pinned (event %ld)", run, pinned);
	/* Its function came back after the last rmmod, and the kworker went on to the kobject_put(). */
	sd_gone = trace_seq(r.trace, "mod_unload", "module:sd_mod", 1);
	put = seq_of(r.trace, " put kobject:0:0:0:0 count=0 by=work:sysfs_schedule_callback_work");
	ck_assert_msg(sd_gone && put > sd_gone, "the callback should return after the rmmods (mod_unload of sd_mod "
		      "%ld) and drop the disk's last reference (put %ld)", sd_gone, put);
	ksim_run_free(&r);
}
END_TEST

START_TEST(seed_example1_still_oopses_in_the_host_release_from_the_kworker)
{
	struct ksim_run r;

	ksim_run(&r, SCEN "seed-example1.ksh", false, NULL, 20);
	ck_assert_no_todo(&r);
	ck_assert_status(&r, 3);
#ifdef __SANITIZE_THREAD__
	/*
	 * ThreadSanitizer counts rmmod's re-mapping of libata's range as a
	 * write, and reports the kworker's read of it as a race first when
	 * the tasks run at once; under the controlled scheduler its hand-offs
	 * order them, and the simulated oops comes first.
	 */
	if (strstr(r.err, "ThreadSanitizer: data race")) {
		ck_assert_said(&r, "scsi_host_dev_release");
		ck_assert_said(&r, "sysfs_schedule_callback_work");
		ck_assert_said(&r, "module_unmap");
	} else
#endif
	{
		ck_assert_said(&r, "Comm: kworker/0:1");
		ck_assert_said(&r, "supervisor read access to unloaded module libata");
		ck_assert_said(&r, "RIP: scsi_host_dev_release+");
		ck_assert_said(&r, "sysfs_schedule_callback_work+");
		ck_assert_said(&r, "process_one_work+");
	}
	ck_assert_msg(!strstr(r.err, "scsi_device_delete_cb"),
		      "the callback function itself must not fault any more (scsi_mod is pinned):\n%s", r.err);
	ck_assert_msg(!strstr(r.err, "[scsi_mod, unloaded]"), "scsi_mod must not be unloaded:\n%s", r.err);
	ksim_run_free(&r);
}
END_TEST

START_TEST(seed_example2_pins_scsi_mod_but_libata_goes_and_the_close_oopses)
{
	struct ksim_run r;

	ksim_run(&r, SCEN "seed-example2.ksh", true, NULL, 20);
	ck_assert_no_other_todo(&r, "kobject_owners");
	ck_assert_status(&r, 3);
	ck_assert_said(&r, "Comm: cat");
	ck_assert_said(&r, "supervisor read access to unloaded module libata");
	ck_assert_said(&r, "RIP: scsi_host_dev_release+");
	ck_assert_said(&r, "vfs_close+");
	ck_assert_said(&r, "Unloaded modules: ahci libata");
	ck_assert_msg(pinned_by(r.trace, "scsi_mod", DELETE), "the open of delete must pin scsi_mod, its owner");
	ck_assert_int_eq(trace_count(r.trace, "mod_unload", "module:ahci"), 1);
	ck_assert_int_eq(trace_count(r.trace, "mod_unload", "module:libata"), 1);
	/* Unregistered by rmmod ahci, released only by the last close: the chain the file held. */
	ck_assert_msg(trace_seq(r.trace, "release", "kobject:0:0:0:0", 1) > trace_seq(r.trace, "close", "file:" DELETE, 1) &&
		      trace_seq(r.trace, "release", "kobject:host0", 1) > trace_seq(r.trace, "mod_unload", "module:libata", 1),
		      "the disk must be released by the close, and the host after libata is gone");
	ksim_run_free(&r);
}
END_TEST

START_TEST(owner_pin_refuses_rmmod_scsi_mod_and_the_crash_moves_to_libata)
{
	struct ksim_run r;

	ksim_run(&r, SCEN "owner-pins-scsi_mod.ksh", false, NULL, 20);
	ck_assert_no_todo(&r);
	ck_assert_status(&r, 3);
	ck_assert_said(&r, "rmmod: ERROR: Module scsi_mod is in use");
	ck_assert_said(&r, "RIP: scsi_host_dev_release+");
	ck_assert_said(&r, "unloaded module libata");
	ck_assert_msg(!strstr(r.err, "[scsi_mod, unloaded]"), "scsi_mod must stay loaded:\n%s", r.err);
	ksim_run_free(&r);
}
END_TEST

START_TEST(owner_pin_is_enough_when_the_owner_is_the_releaser)
{
	struct ksim_run r;
	long release, unpin;

	ksim_run(&r, SCEN "mouse-release-unloaded.ksh", true, NULL, 20);
	ck_assert_no_other_todo(&r, "kobject_owners");
	ck_assert_status(&r, 0);
	ck_assert_said(&r, "rmmod: ERROR: Module mouse is in use");
	release = trace_seq(r.trace, "release", "kobject:mouse0", 1);
	unpin = seq_of(r.trace, " mod_put module:mouse count=0 by=file:" CLICKS);
	ck_assert_msg(release && unpin > release,
		      "the file must drop its module reference after the kobject's release has run "
		      "(release %ld, mod_put %ld)", release, unpin);
	ksim_run_free(&r);
}
END_TEST

/*
 * The owner pins code, not data, and 2.6.20's orphaning keeps show() out
 * of the freed mouse: the late read fails with ENODEV.  What neither
 * covers is the reference the open file holds: the close puts a kobject
 * that lives in freed memory.
 */
/*
 * The close puts a kobject the unplug freed: the simulated KASAN-like
 * report, or under ThreadSanitizer a race, or under AddressSanitizer (the slab steps aside for it,
 * KSIM_SLAB_MALLOC) ASan's own report of the same access, which ends the
 * run first.
 */
static void assert_put_of_freed_kobject_at_close(const struct ksim_run *r)
{
#ifdef __SANITIZE_THREAD__
	/*
	 * ThreadSanitizer sees it as a race of the free against the reader
	 * when the tasks run at once; under the controlled scheduler the
	 * simulated report comes first.
	 */
	if (strstr(r->err, "ThreadSanitizer: data race")) {
		ck_assert_said(r, "mouse_naive_unplug");
		return;
	}
	/*
	 * The put's atomic runs inside ThreadSanitizer's runtime, whose frames
	 * the simulated unwinder cannot name: its report starts at the caller.
	 */
	ck_assert_said(r, "BUG: KASAN-like use-after-free in ");
	ck_assert_said(r, "vfs_close");
	return;
#endif
#ifdef KSIM_SLAB_MALLOC
	ck_assert_said(r, "AddressSanitizer: heap-use-after-free");
	ck_assert_said(r, " in kobject_put ");
	ck_assert_said(r, " in vfs_close ");
#else
	ck_assert_said(r, "use-after-free in kobject_put");
	ck_assert_said(r, "vfs_close");
#endif
}

START_TEST(owner_pins_code_not_data)
{
	struct ksim_run r;

	ksim_run(&r, SCEN "owner-pins-code-not-data.ksh", true, NULL, 20);
	ck_assert_no_other_todo(&r, "kobject_owners");
	ck_assert_status(&r, 3);
	ck_assert_said(&r, "rmmod: ERROR: Module mouse_naive is in use");
	ck_assert_said(&r, "cat: /sys/devices/mouse0/clicks: No such device");
	assert_put_of_freed_kobject_at_close(&r);
	ck_assert_msg(!strstr(r.err, "clicks_show"), "an orphaned file must not call show():\n%s", r.err);
	ck_assert_int_eq(trace_count(r.trace, "mod_unload", "module:mouse_naive"), 0);
	ksim_run_free(&r);
}
END_TEST

/*
 * Removal waits for the store() in flight on an open file (orphaning,
 * 2.6.20): slowdev's store writes to the device after 300 ms, and the
 * unplug that frees the device must come after it.  The close, later,
 * still puts the freed kobject: that part orphaning does not cover.
 */
START_TEST(removal_waits_for_the_store_in_flight_but_the_close_still_puts_freed_memory)
{
	struct ksim_run r;

	ksim_run(&r, SCEN "orphan-waits-for-store.ksh", true, NULL, 20);
	ck_assert_no_other_todo(&r, "kobject_owners");
	ck_assert_status(&r, 3);
	ck_assert_msg(!strstr(r.err, "busy_ms_store"),
		      "the unplug freed slow0 while store() was still inside it: removal must wait "
		      "for the operation in flight (sysfs_orphan_files)\n%s", r.err);
	assert_put_of_freed_kobject_at_close(&r);
	ksim_run_free(&r);
}
END_TEST

START_TEST(callback_drops_its_module_reference_after_running)
{
	struct ksim_run r;
	long run, done, unpin, put;

	ksim_run(&r, SCEN "callback-pins-scsi_mod.ksh", true, NULL, 20);
	ck_assert_no_other_todo(&r, "kobject_owners");
	ck_assert_status(&r, 0);
	run = trace_seq(r.trace, "work_run", "work:sysfs_schedule_callback_work", 1);
	done = trace_seq(r.trace, "work_done", "work:sysfs_schedule_callback_work", 1);
	unpin = seq_of(r.trace, " mod_put module:scsi_mod count=2 by=work:sysfs_schedule_callback_work");
	ck_assert_msg(unpin, "the work item must drop its reference on scsi_mod (mod_put ... by=work:...)");
	ck_assert_msg(unpin > run && unpin < done, "scsi_mod must be unpinned inside the work item, after its "
		      "function ran (work_run %ld, mod_put %ld, work_done %ld)", run, unpin, done);
	put = seq_of(r.trace, " put kobject:0:0:0:0 count=0 by=work:sysfs_schedule_callback_work");
	ck_assert_msg(put && unpin > put, "scsi_mod must be unpinned after the work item's kobject_put() "
		      "(put %ld, mod_put %ld): the release that put may run is scsi_mod's code", put, unpin);
	ck_assert_int_eq(trace_count(r.trace, "mod_unload", "module:scsi_mod"), 1);
	ksim_run_free(&r);
}
END_TEST

START_TEST(same_scenario_twice_gives_the_same_trace)
{
	static const char *const scripts[] = {
		SCEN "seed-example1.ksh", SCEN "seed-example2.ksh", SCEN "find-the-owner.ksh",
	};

	for (size_t i = 0; i < ARRAY_SIZE(scripts); i++)
		ksim_assert_same_trace_twice(scripts[i], NULL, false);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("stage2");
	TCase *tc;

	tc = ktest_case(s, "owner", 10);
	tcase_add_test(tc, open_pins_the_owner_until_close);
	tcase_add_test(tc, opening_a_file_of_a_going_module_fails_with_enodev);
	tc = ktest_case(s, "exercises", 10);
	tcase_add_test(tc, callback_pins_its_module_until_it_has_run);
	tcase_add_test(tc, callback_of_a_going_module_is_refused_with_enodev);
	tcase_add_test(tc, kobject_owners_lists_no_module_for_builtin_code);
	tcase_add_test(tc, kobject_owners_falls_back_to_the_type_release);
	tcase_add_test(tc, kobject_owners_writes_at_most_max_names);
	tcase_add_test(tc, kobject_owners_lists_the_nearest_owner_first);
	tcase_add_test(tc, find_the_owner_delete_pins_one_module_its_close_needs_three);
	tcase_add_test(tc, find_the_owner_clicks_pins_the_module_its_close_needs);
	tc = ktest_case(s, "scenarios", 30);
	tcase_add_test(tc, seed_example1_rmmod_scsi_mod_is_refused_while_the_callback_is_pending);
	tcase_add_test(tc, seed_example1_still_oopses_in_the_host_release_from_the_kworker);
	tcase_add_test(tc, seed_example2_pins_scsi_mod_but_libata_goes_and_the_close_oopses);
	tcase_add_test(tc, owner_pin_refuses_rmmod_scsi_mod_and_the_crash_moves_to_libata);
	tcase_add_test(tc, owner_pin_is_enough_when_the_owner_is_the_releaser);
	tcase_add_test(tc, owner_pins_code_not_data);
	tcase_add_test(tc, removal_waits_for_the_store_in_flight_but_the_close_still_puts_freed_memory);
	tcase_add_test(tc, callback_drops_its_module_reference_after_running);
	tcase_add_test(tc, same_scenario_twice_gives_the_same_trace);
	return ktest_main(s);
}
