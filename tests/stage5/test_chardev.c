/* test_chardev.c - the fixed mouse driver's open, read, release and hang-up against its remove(), on every schedule the explorer tries. */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ktest.h"
#include "explore.h"
#include "oops.h"
#include "task.h"
#include <mousedev.h>
#include <revocable_provider.h>
#include <slab.h>

/*
 * Each run builds what mousedev_probe() leaves behind for minor 0: the
 * mouse (7 clicks), its provider, published in mousedev_providers[].  The
 * remover task is mousedev_remove() without the cdev: take the provider
 * out of the table, revoke it, then do what devres does after remove()
 * returns.  Instead of kfree(), it marks the mouse dead, so a read that
 * still uses it returns a count that names the mistake, not a fault
 * somewhere under the student's function.  The files are struct files of
 * their own, opened and closed by calling the driver's operations as
 * chrdev_open() and fput() do.
 */
#define MOUSE_CLICKS 7
#define MOUSE_DEAD 0x6b6b6b6b	/* the slab's poison, as a count */

static struct mousedev *mouse;
static struct revocable_provider *provider;
static struct file files[2];
static atomic_bool revoke_returned;
static long live_before;

static void boot_once(void)
{
	static bool booted;

	if (!booted) {
		task_init_main("test");
		oops_init();
	}
	booted = true;
}

static void file_read(struct file *file);
static void sanity_cycle(void);

static void fresh_mouse(void)
{
	sanity_cycle();
	live_before = slab_live_objects();
	mouse = kzalloc(sizeof(*mouse), "mousedev");
	mouse->clicks = MOUSE_CLICKS;
	provider = revocable_provider_alloc(mouse);
	mutex_lock(&mousedev_lock);
	mousedev_providers[0] = provider;
	mutex_unlock(&mousedev_lock);
	memset(files, 0, sizeof(files));
	for (int i = 0; i < 2; i++)
		files[i].f_inode.i_rdev = MKDEV(MOUSEDEV_MAJOR, MOUSEDEV_MINOR_BASE);
	atomic_store(&revoke_returned, false);
}

/* file_open - chrdev_open()'s call of the driver, with the claim on what open leaves in the file. */
static int file_open(struct file *file)
{
	int err = mousedev_open(&file->f_inode, file);

	explore_assert(err == 0 || err == -ENODEV, "mousedev_open() returned %d (0 or -ENODEV)", err);
	explore_assert(err || file->private_data == provider,
		       "mousedev_open() returned 0 but left %p in private_data, not the mouse's provider %p",
		       file->private_data, (void *)provider);
	return err;
}

/* file_read - one read(2): the count, or -ENODEV once the mouse is gone. */
static void file_read(struct file *file)
{
	bool late = atomic_load(&revoke_returned);
	char buf[32] = "";
	loff_t pos = 0;
	ssize_t n = mousedev_read(file, buf, sizeof(buf) - 1, &pos);

	explore_assert(n != MOUSE_DEAD && strtol(buf, NULL, 10) != MOUSE_DEAD,
		       "mousedev_read() read the mouse after remove() had revoked its provider and devres had "
		       "freed it: the read must happen inside revocable_try_access() ... "
		       "revocable_withdraw_access()");
	explore_assert(n == -ENODEV || (n == 2 && strcmp(buf, "7\n") == 0 && pos == 2),
		       "mousedev_read() returned %zd with \"%s\" at position %lld: the count \"7\\n\" (2 bytes, "
		       "the position advanced by 2) or -ENODEV", n, buf, (long long)pos);
	explore_assert(!late || n == -ENODEV,
		       "mousedev_read() began after the revoke had returned and still got %zd, not -ENODEV: "
		       "revocable_try_access() gives NULL then, and the read must fail", n);
}

/* file_release - fput()'s call of the driver's release. */
static void file_release(struct file *file)
{
	explore_assert(mousedev_release(&file->f_inode, file) == 0, "mousedev_release() did not return 0");
}

/*
 * sanity_cycle - before every run, one file's life on a mouse of its own
 * (minor 1), with nobody else about: open, read, remove(), read, close.
 * What a wrong solution gets wrong without any race is named here, where
 * it happens, instead of by what it breaks later on some schedule (a
 * revoke that hangs, a provider freed under another task).
 */
static void sanity_cycle(void)
{
	long before = slab_live_objects();
	struct mousedev *m = kzalloc(sizeof(*m), "mousedev");
	struct revocable_provider *rp;
	struct file file = { .f_inode.i_rdev = MKDEV(MOUSEDEV_MAJOR, MOUSEDEV_MINOR_BASE + 1) };
	char buf[32] = "";
	loff_t pos = 0;
	ssize_t n;

	m->clicks = MOUSE_CLICKS;
	rp = revocable_provider_alloc(m);
	mousedev_providers[1] = rp;
	explore_assert(mousedev_open(&file.f_inode, &file) == 0 && file.private_data == rp,
		       "mousedev_open() of a plugged mouse did not return 0 with its provider in private_data");
	explore_assert(kref_read(&rp->kref) == 2,
		       "mousedev_open() left the provider with %d reference(s), not 2 (its own and the file's): "
		       "the file must take one with revocable_provider_get()", kref_read(&rp->kref));
	n = mousedev_read(&file, buf, sizeof(buf) - 1, &pos);
	explore_assert(n == 2 && strcmp(buf, "7\n") == 0, "mousedev_read() of a plugged mouse returned %zd (\"%s\"), "
		       "not the count \"7\\n\"", n, buf);
	explore_assert(kref_read(&rp->kref) == 2 && revocable_provider_readers(rp) == 0,
		       "after a read the provider has %d reference(s) and %d access(es) in progress, not 2 and 0: "
		       "mousedev_read() must withdraw its access and revocable_deinit() its handle",
		       kref_read(&rp->kref), revocable_provider_readers(rp));
	mousedev_providers[1] = NULL;
	revocable_provider_revoke(rp);
	pos = 0;
	n = mousedev_read(&file, buf, sizeof(buf) - 1, &pos);
	explore_assert(n == -ENODEV, "mousedev_read() after the revoke returned %zd, not -ENODEV", n);
	explore_assert(revocable_provider_readers(rp) == 0 && kref_read(&rp->kref) == 1,
		       "mousedev_read() returned -ENODEV but left %d access(es) in progress and %d reference(s) "
		       "(1: the file's): the access that found NULL must be withdrawn too, and the handle deinited",
		       revocable_provider_readers(rp), kref_read(&rp->kref));
	explore_assert(mousedev_release(&file.f_inode, &file) == 0, "mousedev_release() did not return 0");
	kfree(m);
	explore_assert(slab_live_objects() == before,
		       "after mousedev_release() of the last file of a revoked provider, %ld object(s) are left: "
		       "the release must drop the file's reference (revocable_provider_put())",
		       slab_live_objects() - before);
}

/* The driver's remove(), then devres. */
static void *remover_main(void *arg)
{
	(void)arg;
	mutex_lock(&mousedev_lock);
	mousedev_providers[0] = NULL;
	mutex_unlock(&mousedev_lock);
	revocable_provider_revoke(provider);
	atomic_store(&revoke_returned, true);
	mouse->clicks = MOUSE_DEAD;	/* kfree(mouse), as devres_release_all() would */
	return NULL;
}

/* Every file closed: nothing of the run is left but the mouse, which the test frees. */
static void assert_all_freed(void)
{
	long left = slab_live_objects() - live_before - 1;

	explore_assert(left == 0,
		       "%ld object(s) of the run still allocated after remove() and every file's close: each "
		       "reference mousedev_open() takes (revocable_provider_get()) is mousedev_release()'s to "
		       "drop, and each revocable_init() of mousedev_read() needs its revocable_deinit()", left);
}

/*
 * ---- open against remove() ----
 *
 * A process opens /dev/mouse0 while the mouse is unplugged, reads, and
 * closes.  The open either finds the provider and takes a reference to it
 * before remove() can drop the table's, or finds the table empty
 * (-ENODEV); an open that looks under mousedev_lock and takes its
 * reference after letting go of it can get a provider that remove() has
 * revoked and freed meanwhile.
 */
static void *opener_main(void *arg)
{
	(void)arg;
	if (file_open(&files[0]) == 0) {
		file_read(&files[0]);
		file_release(&files[0]);
	}
	return NULL;
}

static const struct explore_harness open_vs_remove = {
	.name = "open-vs-remove",
	.claim = "an open, a read and the close against the driver's remove(): the open gets a provider "
		 "reference or -ENODEV, the read the count or -ENODEV, and nothing is left after the close",
	.setup = fresh_mouse,
	.tasks = {
		{ "cat", opener_main, NULL },
		{ "remove", remover_main, NULL },
	},
	.check = assert_all_freed,
};

/*
 * ---- two readers of one open file against remove() ----
 *
 * One file, opened before the unplug, read by two threads at once (one of
 * them twice) while remove() revokes.  Each read is one access on a handle
 * of its own: a handle kept in the file, as revocable was first merged,
 * lets one thread's try_access overwrite the other's SRCU index and the
 * revoke waits for ever.  After every task, no access is still counted,
 * and the close frees the provider.
 */
static void shared_file_setup(void)
{
	fresh_mouse();
	explore_assert(file_open(&files[0]) == 0, "mousedev_open() of a plugged mouse failed");
}

static void *reader_twice_main(void *arg)
{
	(void)arg;
	file_read(&files[0]);
	file_read(&files[0]);
	return NULL;
}

static void *reader_once_main(void *arg)
{
	(void)arg;
	file_read(&files[0]);
	return NULL;
}

static void shared_file_check(void)
{
	int left = revocable_provider_readers(provider);

	explore_assert(left == 0,
		       "%d access(es) still counted in the provider's SRCU after every read returned: "
		       "mousedev_read() must withdraw every access it began, -ENODEV included", left);
	file_release(&files[0]);
	assert_all_freed();
}

static const struct explore_harness read_vs_unplug = {
	.name = "read-vs-unplug",
	.claim = "two threads reading one open file while the mouse is unplugged: no read sees the mouse "
		 "after the revoke, none hangs it, every access is withdrawn",
	.setup = shared_file_setup,
	.tasks = {
		{ "reader", reader_twice_main, NULL },
		{ "reader", reader_once_main, NULL },
		{ "remove", remover_main, NULL },
	},
	.check = shared_file_check,
};

/*
 * ---- the last close against remove() ----
 *
 * Two files open before the unplug; each reads once and closes while
 * remove() revokes.  Whichever lets go last frees the provider: the
 * revoke if both files were closed first, a close otherwise.
 */
static void two_files_setup(void)
{
	fresh_mouse();
	for (int i = 0; i < 2; i++)
		explore_assert(file_open(&files[i]) == 0, "mousedev_open() of a plugged mouse failed");
}

static void *read_close_main(void *arg)
{
	struct file *file = arg;

	file_read(file);
	file_release(file);
	return NULL;
}

static const struct explore_harness release_after_revoke = {
	.name = "release-after-revoke",
	.claim = "two files read and closed while the mouse is unplugged: the provider lives until the "
		 "last of the revoke and the closes, and is freed then",
	.setup = two_files_setup,
	.tasks = {
		{ "cat", read_close_main, &files[0] },
		{ "cat", read_close_main, &files[1] },
		{ "remove", remover_main, NULL },
	},
	.check = assert_all_freed,
};

/*
 * ---- a read asleep inside its access against remove() ----
 *
 * The mouse was never clicked: the read waits for a click in
 * mousedev_wait_show(), asleep inside its access, while remove() revokes.
 * The revoke waits for that access, so only remove()'s hang-up, before
 * the revoke, can end the read: mousedev_hangup() marks the mouse dead and
 * wakes the sleeper, which returns -ENODEV and withdraws.  A hang-up that
 * marks without waking is enough on the schedules where the read looks
 * after the mark; on the others, the reader and remove() wait for each
 * other for ever.
 */
static void hangup_setup(void)
{
	fresh_mouse();
	init_waitqueue_head(&mouse->wait);
	mouse->clicks = 0;
	snprintf(mouse->name, sizeof(mouse->name), "mouse0");
	explore_assert(file_open(&files[0]) == 0, "mousedev_open() of a plugged mouse failed");
}

static void *sleeper_main(void *arg)
{
	char buf[32] = "";
	loff_t pos = 0;
	ssize_t n;

	(void)arg;
	n = mousedev_read(&files[0], buf, sizeof(buf) - 1, &pos);
	explore_assert(n == -ENODEV,
		       "mousedev_read() of a mouse never clicked returned %zd (\"%s\") when the mouse was "
		       "unplugged, not -ENODEV: the read waits for a click with mousedev_wait_show() inside its "
		       "access, and mousedev_hangup() makes that wait end in -ENODEV", n, buf);
	file_release(&files[0]);
	return NULL;
}

/* The driver's remove(), hang-up included, then devres. */
static void *hangup_remover_main(void *arg)
{
	(void)arg;
	mutex_lock(&mousedev_lock);
	mousedev_providers[0] = NULL;
	mutex_unlock(&mousedev_lock);
	mousedev_hangup(mouse);
	explore_assert(mouse->dead, "mousedev_hangup() returned and the mouse is not marked dead: a read that "
		       "looks for a click after the hang-up would sleep for ever");
	revocable_provider_revoke(provider);
	atomic_store(&revoke_returned, true);
	mouse->clicks = MOUSE_DEAD;	/* kfree(mouse), as devres_release_all() would */
	return NULL;
}

static const struct explore_harness read_vs_hangup = {
	.name = "read-vs-hangup",
	.claim = "a read asleep inside its access, waiting for a click, while the mouse is unplugged: "
		 "mousedev_hangup() marks the mouse dead and wakes the read, which returns -ENODEV, "
		 "and the revoke finishes",
	.setup = hangup_setup,
	.tasks = {
		{ "cat", sleeper_main, NULL },
		{ "remove", hangup_remover_main, NULL },
	},
	.check = assert_all_freed,
};

static const struct explore_harness *const harnesses[] = {
	&open_vs_remove, &read_vs_unplug, &release_after_revoke, &read_vs_hangup,
};

START_TEST(open_vs_remove_on_every_schedule)
{
	explore_grade(&open_vs_remove, boot_once);
}
END_TEST

START_TEST(read_vs_unplug_on_every_schedule)
{
	explore_grade(&read_vs_unplug, boot_once);
}
END_TEST

START_TEST(release_after_revoke_on_every_schedule)
{
	explore_grade(&release_after_revoke, boot_once);
}
END_TEST

START_TEST(read_vs_hangup_on_every_schedule)
{
	explore_grade(&read_vs_hangup, boot_once);
}
END_TEST

int main(int argc, char **argv)
{
	Suite *s = suite_create("chardev");
	TCase *tc = ktest_case(s, "schedules", 20);

	tcase_add_test(tc, open_vs_remove_on_every_schedule);
	tcase_add_test(tc, read_vs_unplug_on_every_schedule);
	tcase_add_test(tc, release_after_revoke_on_every_schedule);
	tcase_add_test(tc, read_vs_hangup_on_every_schedule);
	return explore_test_main(argc, argv, boot_once, harnesses, ARRAY_SIZE(harnesses), s);
}
