/* test_active.c - stage 4's active reference, called directly: the biased counter and remove_self. */
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/wait.h>
#include "delay.h"
#include "exercise.h"
#include "ktest.h"
#include "oops.h"
#include "slab.h"
#include <device.h>
#include <sysfs_internal.h>
#include <sysfs_self.h>
#include "task.h"
#include "task_wait.h"
#include "vfs.h"
#include "watchdog.h"

#include "active_tree.h"

/* Stage 4's tests wait in the drain: the watchdog names what they wait on. */
static void boot(void)
{
	boot_active_tree();
	watchdog_start(0);
}

static int count(struct sysfs_dirent *sd)
{
	return atomic_read(&sd->s_active);
}

/* Fail naming the exercise whose stub ran, if one did (at the caller's line). */
#define assert_no_todo() ck_assert_exercises_done("exercises/stage4/sysfs_active.c")

/* Deletion as __sysfs_remove() does it: the bias under sysfs_mutex, then the drain without it. */
static void deactivate(struct sysfs_dirent *sd)
{
	mutex_lock(&sysfs_mutex);
	sysfs_deactivate_start(sd);
	mutex_unlock(&sysfs_mutex);
	sysfs_deactivate(sd);
}

static void deactivate_attr(void)
{
	deactivate(attr);
}

/* ---- the counter ---- */

START_TEST(get_active_adds_one_and_put_active_takes_it_back)
{
	boot();
	ck_assert_ptr_eq(sysfs_get_active(attr), attr);
	assert_no_todo();
	ck_assert_msg(count(attr) == 1, "sysfs_get_active() on a live node must add one to s_active: it is %d, want 1",
		      count(attr));
	sysfs_put_active(attr);
	ck_assert_msg(count(attr) == 0, "sysfs_put_active() must take the one back: s_active is %d, want 0",
		      count(attr));
}
END_TEST

START_TEST(deactivate_adds_the_bias_and_later_gets_fail)
{
	boot();
	deactivate(attr);
	assert_no_todo();
	ck_assert_msg(count(attr) == SD_DEACTIVATED_BIAS,
		      "sysfs_deactivate_start() on an idle node must leave s_active at SD_DEACTIVATED_BIAS: it is %d",
		      count(attr));
	/* The drain is told to lockdep as a write lock: taken for the wait, given back after it. */
	ck_assert_msg(lockdep_depth() == 0, "after sysfs_deactivate() lockdep still counts %d lock(s) held by "
		      "the deleter: the drain's rwsem_acquire() needs its rwsem_release()", lockdep_depth());
	ck_assert_msg(sysfs_get_active(attr) == NULL, "sysfs_get_active() succeeded on a deleted node");
	ck_assert_msg(count(attr) == SD_DEACTIVATED_BIAS,
		      "a failed sysfs_get_active() changed s_active (%d): add one only when the count is not "
		      "negative (compare and swap), never add and check afterwards", count(attr));
}
END_TEST

static atomic_bool deactivated;

static void *deactivate_main(void *arg)
{
	deactivate(arg);
	atomic_store(&deactivated, true);
	return NULL;
}

START_TEST(deactivate_waits_for_the_operation_inside_and_put_wakes_it)
{
	struct task_struct *t;
	long end;

	boot();
	watchdog_set_limit(10000);	/* a deleter that is never woken: our message, not the watchdog's */
	atomic_store(&deactivated, false);
	ck_assert_ptr_eq(sysfs_get_active(attr), attr);
	t = kthread_run(deactivate_main, attr, "deleter");
	task_wait_asleep_or_done(t, &deactivated, 2000);
	assert_no_todo();
	ck_assert_msg(!atomic_load(&deactivated),
		      "sysfs_deactivate() returned while an operation still held its active reference: it must "
		      "sleep until s_active comes down to SD_DEACTIVATED_BIAS");
	ck_assert_msg(count(attr) == SD_DEACTIVATED_BIAS + 1,
		      "with one operation inside, a deleted node's s_active must be SD_DEACTIVATED_BIAS + 1, not %d",
		      count(attr));
	ck_assert_msg(sysfs_get_active(attr) == NULL, "a new operation got in while the node was being deleted");
	sysfs_put_active(attr);
	for (end = task_wait_now_ms() + 2000; !atomic_load(&deactivated) && task_wait_now_ms() < end;)
		msleep(1);
	ck_assert_msg(atomic_load(&deactivated),
		      "sysfs_deactivate() did not return after the last put: sysfs_put_active() must wake_up_all() "
		      "the deleters when its decrement reaches SD_DEACTIVATED_BIAS");
	kthread_join(t);
}
END_TEST

/*
 * kernfs's order (__kernfs_remove()): the bias first, then the drain, and
 * only then the unlink.  A node with an operation inside stays in the
 * tree, shut, until the operation is out, so a method that looks its own
 * node up while a removal waits for it (sysfs_remove_file_self()) finds
 * it.  Unlinking at the bias, before the drain (stage 4's first order),
 * fails here.
 */
static atomic_bool removed;

static void *remove_main(void *arg)
{
	mutex_lock(&sysfs_mutex);
	__sysfs_remove(arg);
	mutex_unlock(&sysfs_mutex);
	atomic_store(&removed, true);
	return NULL;
}

static struct sysfs_dirent *lookup_attr(void)
{
	struct sysfs_dirent *found;

	mutex_lock(&sysfs_mutex);
	found = sysfs_lookup("/sys/devices/dev0/attr");
	mutex_unlock(&sysfs_mutex);
	sysfs_put(found);	/* only its identity is compared */
	return found;
}

START_TEST(removal_drains_before_it_unlinks)
{
	struct task_struct *t;
	long end;

	boot();
	watchdog_set_limit(10000);
	atomic_store(&removed, false);
	ck_assert_ptr_eq(sysfs_get_active(attr), attr);
	t = kthread_run(remove_main, attr, "remover");
	task_wait_asleep_or_done(t, &removed, 2000);
	assert_no_todo();
	ck_assert_msg(!atomic_load(&removed), "the removal returned while an operation was inside the node: sysfs_deactivate() must wait "
		      "until the operation's sysfs_put_active()");
	ck_assert_msg(sysfs_get_active(attr) == NULL, "sysfs_get_active() let a new operation into a node being removed (sysfs_deactivate_start() "
		      "adds the bias first)");
	ck_assert_msg(lookup_attr() == attr,
		      "a node being removed left the tree before its drain: kernfs unlinks it only once the "
		      "operations inside are out (__kernfs_remove()), so a method inside still finds itself");
	sysfs_put_active(attr);
	for (end = task_wait_now_ms() + 2000; !atomic_load(&removed) && task_wait_now_ms() < end;)
		msleep(1);
	ck_assert_msg(atomic_load(&removed), "the removal did not end after the operation's sysfs_put_active(): the last put must wake "
		      "the drain waiting in sysfs_deactivate()");
	ck_assert_msg(lookup_attr() == NULL, "the node is still in the tree after its removal ended");
	kthread_join(t);
}
END_TEST

/*
 * A directory's removal shuts the whole subtree first, under the mutex,
 * and only then drains node by node (kernfs_deactivate() over the subtree,
 * then the drains, in __kernfs_remove()).  dev0 gets a second file, held
 * busy: the removal drains it first (the last child) and waits there.
 * Meanwhile no operation may get into dev0 or its other file, and a file
 * added to dev0 while the mutex is dropped is shut too and removed with
 * the rest, instead of holding up the removal for ever.
 */
START_TEST(removal_of_a_directory_shuts_all_of_it_before_it_drains)
{
	struct sysfs_dirent *busy, *late;
	struct task_struct *t;
	long end;

	boot();
	watchdog_set_limit(10000);
	atomic_store(&removed, false);
	busy = sysfs_new_dirent("busy", SYSFS_KOBJ_ATTR);
	mutex_lock(&sysfs_mutex);
	sysfs_link_child(dir, busy);
	mutex_unlock(&sysfs_mutex);
	ck_assert_ptr_eq(sysfs_get_active(busy), busy);
	t = kthread_run(remove_main, dir, "remover");
	task_wait_asleep_or_done(t, &removed, 2000);
	assert_no_todo();
	ck_assert_msg(!atomic_load(&removed), "the removal of dev0 returned while an operation was inside busy: sysfs_deactivate() must "
		      "wait for its sysfs_put_active()");
	ck_assert_msg(sysfs_get_active(attr) == NULL,
		      "sysfs_get_active() let an operation into dev0/attr while dev0's removal drained dev0/busy: "
		      "the removal must add the bias (sysfs_deactivate_start()) to every node under dev0 before it "
		      "drains the first");
	ck_assert_msg(sysfs_get_active(dir) == NULL,
		      "sysfs_get_active() let an operation into dev0 while its removal drained dev0/busy: the "
		      "removal must add the bias (sysfs_deactivate_start()) to dev0 too before it drains the first node");
	late = sysfs_new_dirent("late", SYSFS_KOBJ_ATTR);
	sysfs_get(late);	/* ours, to look at it after the removal */
	mutex_lock(&sysfs_mutex);
	sysfs_link_child(dir, late);
	mutex_unlock(&sysfs_mutex);
	sysfs_put_active(busy);
	for (end = task_wait_now_ms() + 2000; !atomic_load(&removed) && task_wait_now_ms() < end;)
		msleep(1);
	ck_assert_msg(atomic_load(&removed), "the removal of dev0 did not end after busy's sysfs_put_active(), the drain waiting in "
		      "sysfs_deactivate() (s_active of the file added during the drain: %d; the removal must shut it "
		      "with sysfs_deactivate_start() before it drains it)",
		      count(late));
	ck_assert_msg(late->s_removed && count(late) == SD_DEACTIVATED_BIAS,
		      "the file added during the drain was left in the tree or live");
	kthread_join(t);
	sysfs_put(late);
}
END_TEST

/*
 * The removal names every node it unlinks to stage_verify() (the RFD's
 * check): a node still held by an s_count once its device is gone, as by
 * a file left open, is reported, and no longer once the s_count goes.
 */
START_TEST(stage_verify_reports_a_removed_node_still_open)
{
	int with_open, after_close;

	boot();
	sysfs_get(attr);	/* an open file's */
	mutex_lock(&sysfs_mutex);
	__sysfs_remove(dir);
	mutex_unlock(&sysfs_mutex);
	with_open = stage_verify();
	sysfs_put(attr);	/* the close */
	after_close = stage_verify();
	ck_assert_msg(with_open == after_close + 1,
		      "stage_verify() reported %d object(s) still held while dev0/attr was open after its removal, "
		      "%d after its close: the removal must name each node it unlinks (verify_expect_gone())",
		      with_open, after_close);
}
END_TEST

/* dev0's child called name, if it is still linked (sysfs_lookup() would follow a link). */
static bool dev0_has_child(const char *name)
{
	struct sysfs_dirent *pos;

	mutex_lock(&sysfs_mutex);
	for (pos = dir->s_children; pos && strcmp(pos->s_name, name) != 0; pos = pos->s_sibling)
		;
	mutex_unlock(&sysfs_mutex);
	return pos != NULL;
}

/* sysfs_remove_link() takes the link out of its directory, drained and unlinked as a file is. */
START_TEST(remove_link_takes_the_link_out)
{
	struct kobject owner = { 0 };

	boot();
	owner.sd = dir;		/* only its directory: what the two calls read */
	ck_assert_int_eq(sysfs_create_link(&owner, &owner, "self"), 0);
	ck_assert_msg(dev0_has_child("self"), "sysfs_create_link() made no dev0/self");
	sysfs_remove_link(&owner, "self");
	ck_assert_msg(!dev0_has_child("self"), "dev0/self is still in the tree after sysfs_remove_link()");
}
END_TEST

/* ---- remove_self ---- */

START_TEST(remove_self_from_an_operation_removes_the_node_at_once)
{
	struct sysfs_dirent *found;

	boot();
	ck_assert_ptr_eq(sysfs_get_active(attr), attr);	/* the operation that removes itself */
	sysfs_get(attr);				/* as an open file would hold it */
	ck_assert_msg(sysfs_remove_self(attr), "sysfs_remove_self() of the only caller must return true");
	assert_no_todo();
	mutex_lock(&sysfs_mutex);
	found = sysfs_lookup("/sys/devices/dev0/attr");
	mutex_unlock(&sysfs_mutex);
	ck_assert_msg(found == NULL, "the node is still in the tree after sysfs_remove_self() returned");
	ck_assert_msg(count(attr) == SD_DEACTIVATED_BIAS + 1,
		      "after sysfs_remove_self() the caller's count must be back (unbreak): s_active is %d, "
		      "want SD_DEACTIVATED_BIAS + 1", count(attr));
	sysfs_put_active(attr);
	ck_assert_int_eq(count(attr), SD_DEACTIVATED_BIAS);
	sysfs_put(attr);
}
END_TEST

static ssize_t zero_show(struct device *dev, struct device_attribute *attr, char *buf)
{
	(void)dev;
	(void)attr;
	return sprintf(buf, "0\n");
}
static DEVICE_ATTR(gone, 0444, zero_show, NULL);

static void static_release(struct device *dev)
{
	(void)dev;
}

/*
 * device_remove_file_self() of a file that is not there must say "not
 * yours" and warn, as fs/sysfs/file.c's WARN_ON_ONCE() does: a true would
 * send its caller to remove the device a second time.  From inside the
 * file's own store it cannot happen (a removal drains before it unlinks),
 * so the warning marks a caller that is not inside its file.
 */
START_TEST(remove_file_self_of_a_file_already_removed_answers_false)
{
	static struct device dev;

	boot();
	dev.release = static_release;
	ck_assert_int_eq(device_register(&dev, "self0"), 0);
	ck_assert_int_eq(device_create_file(&dev, &dev_attr_gone), 0);
	get_device(&dev);
	device_del(&dev);	/* the unplug got there first */
	ck_assert_msg(!device_remove_file_self(&dev, &dev_attr_gone),
		      "device_remove_file_self() of a file an unplug had already removed returned true: its "
		      "caller would go on to remove the device a second time");
	ck_assert_msg(atomic_load(&kernel_tainted),
		      "device_remove_file_self() of a file that is not there did not warn, as the kernel's does");
	atomic_store(&kernel_tainted, false);	/* the WARN this test wants */
	put_device(&dev);
	put_device(&dev);
}
END_TEST

struct remover {
	atomic_bool ret, done;
	atomic_bool complete_when_done;	/* was the removal complete when this caller returned? */
};

/* Both removers are inside the node before either may remove it. */
static atomic_int ready;
static atomic_bool go;

static void *remover_main(void *arg)
{
	struct remover *r = arg;
	struct sysfs_dirent *got = sysfs_get_active(attr);

	atomic_fetch_add(&ready, 1);
	while (!atomic_load(&go))
		msleep(1);
	if (!got)
		return NULL;	/* done stays false: the test says so */
	atomic_store(&r->ret, sysfs_remove_self(attr));
	atomic_store(&r->complete_when_done, atomic_read(&attr->s_flags) & SYSFS_FLAG_SUICIDED);
	sysfs_put_active(attr);
	atomic_store(&r->done, true);
	return NULL;
}

START_TEST(remove_self_of_two_callers_exactly_one_removes)
{
	struct remover r[2];
	struct task_struct *t[2];

	boot();
	memset(r, 0, sizeof(r));
	sysfs_get(attr);
	/*
	 * A third operation, ours, stays inside the node: the removal cannot
	 * complete (its drain waits for us) until we put it, so neither
	 * caller may return before that.
	 */
	ck_assert_ptr_eq(sysfs_get_active(attr), attr);
	atomic_store(&ready, 0);
	atomic_store(&go, false);
	for (int i = 0; i < 2; i++)
		t[i] = kthread_run(remover_main, &r[i], "remover%d", i);
	while (atomic_load(&ready) < 2)
		msleep(1);
	atomic_store(&go, true);
	for (int i = 0; i < 2; i++)
		task_wait_asleep_or_done(t[i], &r[i].done, 2000);
	assert_no_todo();
	for (int i = 0; i < 2; i++)
		ck_assert_msg(!atomic_load(&r[i].done),
			      "a sysfs_remove_self() caller returned while the removal was still waiting for an "
			      "operation: the one that loses the claim must wait until the removal is complete");
	sysfs_put_active(attr);
	for (int i = 0; i < 2; i++)
		kthread_join(t[i]);
	ck_assert_msg(atomic_load(&r[0].done) && atomic_load(&r[1].done),
		      "a caller could not take an active reference on the live node");
	ck_assert_msg(atomic_load(&r[0].ret) + atomic_load(&r[1].ret) == 1,
		      "of two sysfs_remove_self() callers exactly one must return true; %d did",
		      atomic_load(&r[0].ret) + atomic_load(&r[1].ret));
	for (int i = 0; i < 2; i++)
		ck_assert_msg(atomic_load(&r[i].complete_when_done),
			      "a sysfs_remove_self() caller returned before the removal was complete");
	ck_assert_int_eq(count(attr), SD_DEACTIVATED_BIAS);
	sysfs_put(attr);
}
END_TEST

/*
 * A node can end without ever being published: sysfs_new_dirent(), then
 * a name already taken, then the last sysfs_put().  Its count never left
 * zero and it never took the bias; both ends are legal when the memory goes.
 */
START_TEST(a_node_never_published_is_freed_with_its_count_at_zero)
{
	struct sysfs_dirent *sd;
	long before;

	boot();
	before = slab_live_objects();
	sd = sysfs_new_dirent("never-linked", SYSFS_KOBJ_ATTR);
	ck_assert_int_eq(count(sd), 0);
	sysfs_put(sd);		/* the only s_count: frees the node here, without a BUG */
	ck_assert_msg(slab_live_objects() == before,
		      "the node was not freed by its last sysfs_put(): %ld object(s) more than before",
		      slab_live_objects() - before);
}
END_TEST

/*
 * The other end, broken on purpose: the last s_count of a node with an
 * operation inside.  sysfs_active_destroy() must BUG at the free, naming
 * the count.
 */
START_TEST(a_node_freed_with_an_operation_inside_is_a_bug)
{
	char msg[8192 + 256];
	const char *failure = busy_free_failure(boot, "(s_active 1) must end in sysfs_active_destroy()'s BUG_ON",
						msg, sizeof(msg));

	ck_assert_msg(!failure, "%s", failure);
}
END_TEST

/* ---- the lock contracts, asserted (lockdep_assert_held() and _not_held()) ---- */

/*
 * stderr_of_call - what fn() printed to stderr, into buf (the call's WARN
 * report, if any).
 */
static void stderr_of_call(void (*fn)(void), char *buf, size_t len)
{
	FILE *tmp = tmpfile();
	int saved = dup(STDERR_FILENO);
	size_t n;

	ck_assert_msg(tmp && saved >= 0, "cannot capture stderr");
	fflush(stderr);
	dup2(fileno(tmp), STDERR_FILENO);
	fn();
	fflush(stderr);
	dup2(saved, STDERR_FILENO);
	close(saved);
	rewind(tmp);
	n = fread(buf, 1, len - 1, tmp);
	buf[n] = '\0';
	fclose(tmp);
	fprintf(stderr, "%s", buf);	/* the report stays in the test's output */
}

static void deactivate_start_without_the_mutex(void)
{
	sysfs_deactivate_start(attr);
}

START_TEST(deactivate_start_without_sysfs_mutex_is_a_lockdep_warning)
{
	char err[8192];

	boot();
	ck_assert_msg(atomic_load(&debug_locks), "lockdep is off in this suite: nothing would be asserted");
	stderr_of_call(deactivate_start_without_the_mutex, err, sizeof(err));
	ck_assert_msg(strstr(err, "WARNING: CPU: 0 PID:") && strstr(err, "lockdep_is_held(&sysfs_mutex)"),
		      "sysfs_deactivate_start() called without sysfs_mutex printed no lockdep_assert_held() "
		      "warning:\n%s", err);
	ck_assert_msg(strstr(err, "deactivate_start_without_the_mutex+"),
		      "the warning's call trace does not name the caller that broke the contract:\n%s", err);
	ck_assert_msg(atomic_load(&kernel_tainted), "the warning did not taint the kernel (the run would end 0)");
	atomic_store(&kernel_tainted, false);	/* the warning this test wants */
}
END_TEST

static void deactivate_under_the_mutex(void)
{
	mutex_lock(&sysfs_mutex);
	sysfs_deactivate_start(attr);
	sysfs_deactivate(attr);		/* an idle node: the drain ends at once */
	mutex_unlock(&sysfs_mutex);
}

START_TEST(deactivate_under_sysfs_mutex_is_a_lockdep_warning)
{
	char err[8192];

	boot();
	ck_assert_msg(atomic_load(&debug_locks), "lockdep is off in this suite: nothing would be asserted");
	stderr_of_call(deactivate_under_the_mutex, err, sizeof(err));
	ck_assert_msg(strstr(err, "WARNING: CPU: 0 PID:") && strstr(err, "lockdep_is_held(&sysfs_mutex)"),
		      "sysfs_deactivate() called with sysfs_mutex held printed no lockdep_assert_not_held() "
		      "warning:\n%s", err);
	ck_assert_msg(atomic_load(&kernel_tainted), "the warning did not taint the kernel (the run would end 0)");
	atomic_store(&kernel_tainted, false);	/* the warning this test wants */
}
END_TEST

/* The same calls under their contracts: no warning. */
START_TEST(deactivation_under_its_contracts_is_silent)
{
	char err[8192];

	boot();
	stderr_of_call(deactivate_attr, err, sizeof(err));
	ck_assert_msg(!strstr(err, "WARNING"), "a warning for calls that keep their lock contracts:\n%s", err);
	ck_assert_msg(!atomic_load(&kernel_tainted), "the kernel is tainted after a clean deactivation");
}
END_TEST

/* ---- memory ordering: free threads, seen by ThreadSanitizer only ---- */

/*
 * Everything an operation did before its sysfs_put_active() must happen
 * before the deleter, having seen the count drained, frees what the
 * operation used.  What orders the two is the put's decrement (fully
 * ordered, as the kernel's atomic_dec_return()) read by the drain's test
 * of the count.  With a relaxed decrement nothing does, and yet every other
 * check passes: the controlled scheduler runs one task at a time, and x86
 * gives a relaxed and a fully ordered decrement the same instruction.  So
 * this test runs two free threads, and only a build with
 * -fsanitize=thread can fail it (make check-san-thread): ThreadSanitizer
 * then reports the operation's store and the deleter's "free" as a race.
 *
 * The deleter tests the count itself, as kernfs_drain()'s wait_event()
 * first does without a lock, before it calls sysfs_deactivate(): our
 * wait_event() tests its condition under the wait queue's lock, which the
 * put's wake_up_all() also takes, and that lock would order the two
 * whatever the decrement does.  Lockdep is off for the same reason: its
 * graph lock, taken by the put's rwsem_release() after the operation's
 * store and by the deleter's mutex_lock(), would order them too (a
 * production kernel runs without lockdep).
 */
static int driver_data;			/* what the operation works on, freed after the drain */
static atomic_bool operation_in;	/* the operation holds its active reference */
static atomic_bool freed;		/* the deleter has freed driver_data */

static void *operation_main(void *arg)
{
	struct sysfs_dirent *sd = sysfs_get_active(arg);

	atomic_store(&operation_in, true);
	if (sd) {
		driver_data = 42;	/* the operation's work */
		sysfs_put_active(sd);
	}
	/* Not ended before the free: a task's end takes locks the deleter's mutex_lock() takes too. */
	while (!atomic_load(&freed))
		sched_yield();
	return NULL;
}

/* One round: an operation on a fresh attr, its put racing the deleter's drained test; false if it timed out. */
static bool put_vs_drained_deleter(void)
{
	struct task_struct *t;
	long end;
	bool drained;

	atomic_store(&operation_in, false);
	atomic_store(&freed, false);
	t = kthread_run(operation_main, attr, "operation");
	while (!atomic_load(&operation_in))
		sched_yield();
	mutex_lock(&sysfs_mutex);
	sysfs_deactivate_start(attr);
	mutex_unlock(&sysfs_mutex);
	if (exercise_pending())
		atomic_store(&freed, true);	/* let the operation end: a stub's count never drains */
	assert_no_todo();
	/* The drain's first test of the count, spun on (with a deadline) so that it never sleeps. */
	for (end = task_wait_now_ms() + 5000;
	     atomic_read(&attr->s_active) != SD_DEACTIVATED_BIAS && task_wait_now_ms() < end;)
		sched_yield();
	drained = count(attr) == SD_DEACTIVATED_BIAS;
	/* What a release reads before it frees: the operation's work, whole. */
	ck_assert_msg(!drained || driver_data == 42,
		      "the drained deleter does not see what the operation wrote before its put");
	driver_data = 0;
	atomic_store(&freed, true);
	if (drained)
		sysfs_deactivate(attr);	/* returns at once: nothing is inside */
	kthread_join(t);
	return drained;
}

/*
 * Rounds, each on a fresh node: some other pair of lock operations (a
 * task's start, a worker's) can order a round by chance, never twenty.  No
 * hung-task watchdog either (boot_active_tree(), not boot()): its thread
 * takes every task's lock in turn, and would order them too.
 */
START_TEST(put_active_orders_the_operation_before_the_drained_deleter)
{
	boot_active_tree();
	lockdep_set_enabled(false);
	/* What a ThreadSanitizer report on driver_data below means, in the student's terms. */
	printf("put_vs_drained_deleter: a data race reported on driver_data means sysfs_put_active()'s "
	       "decrement does not order the operation's work before the drained deleter's free "
	       "(it must be a full or release decrement, not a _relaxed one)\n");
	fflush(stdout);
	for (int round = 0; round < 20; round++) {
		if (round)
			build_active_tree();
		ck_assert_msg(put_vs_drained_deleter(), "the operation's put did not bring s_active down to "
			      "SD_DEACTIVATED_BIAS in 5 s (it is %d)", count(attr));
	}
}
END_TEST

int main(void)
{
	Suite *s = suite_create("stage4-active");
	TCase *tc = ktest_case(s, "exercises", 10);

	tcase_add_checked_fixture(tc, NULL, fail_if_warned);

	tcase_add_test(tc, get_active_adds_one_and_put_active_takes_it_back);
	tcase_add_test(tc, deactivate_adds_the_bias_and_later_gets_fail);
	tcase_add_test(tc, deactivate_waits_for_the_operation_inside_and_put_wakes_it);
	tcase_add_test(tc, removal_drains_before_it_unlinks);
	tcase_add_test(tc, removal_of_a_directory_shuts_all_of_it_before_it_drains);
	tcase_add_test(tc, stage_verify_reports_a_removed_node_still_open);
	tcase_add_test(tc, remove_link_takes_the_link_out);
	tcase_add_test(tc, remove_self_from_an_operation_removes_the_node_at_once);
	tcase_add_test(tc, remove_self_of_two_callers_exactly_one_removes);
	tcase_add_test(tc, remove_file_self_of_a_file_already_removed_answers_false);
	tcase_add_test(tc, a_node_never_published_is_freed_with_its_count_at_zero);
	tcase_add_test(tc, a_node_freed_with_an_operation_inside_is_a_bug);
	tc = ktest_case(s, "contracts", 10);
	tcase_add_checked_fixture(tc, NULL, fail_if_warned);
	tcase_add_test(tc, deactivate_start_without_sysfs_mutex_is_a_lockdep_warning);
	tcase_add_test(tc, deactivate_under_sysfs_mutex_is_a_lockdep_warning);
	tcase_add_test(tc, deactivation_under_its_contracts_is_silent);
	tc = ktest_case(s, "ordering", 10);
	tcase_add_checked_fixture(tc, NULL, fail_if_warned);
	tcase_add_test(tc, put_active_orders_the_operation_before_the_drained_deleter);
	return ktest_main(s);
}
