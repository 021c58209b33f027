/* stress_cases.h - many tasks open, read, write and close while devices come and go and modules load and unload. */
#ifndef KTEST_STRESS_CASES_H
#define KTEST_STRESS_CASES_H

#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <valgrind/valgrind.h>
#include "delay.h"
#include "device.h"
#include "exercise.h"
#include "hotplug.h"
#include "ktest.h"
#include "module.h"
#include "oops.h"
#include "sysfs.h"
#if KSIM_STAGE >= 4
#include "pci.h"
#endif
#include "task.h"
#include "vfs.h"
#include "watchdog.h"
#include "workqueue.h"

/* STRESS_EXERCISES(N) - "exercises/stageN/", the student files of the stage including this. */
#define STRESS_EXERCISES_(n) "exercises/stage" #n "/"
#define STRESS_EXERCISES(n) STRESS_EXERCISES_(n)

/*
 * A bounded stress test of the whole stage: NR_USERS tasks pick files at
 * random, open them, read or write them, sometimes keep them open for a
 * while and operate on them later, and close them; meanwhile one task
 * plays the hardware and the administrator, plugging and unplugging
 * devices and loading and unloading their modules, including the SCSI
 * stack whose delete attribute the users write (which schedules the
 * self-removal callback).  It runs for KSIM_STRESS_MS milliseconds
 * (default 1500), so it takes the same time natively and under a tool.
 *
 * Every operation must succeed or fail the way the design says: ENOENT
 * (not there), ENODEV (deleted under an open file, or while opening).
 * Anything else, a crash, a sanitizer report or a hang (the watchdog is
 * on) fails the test; at the end stage_verify() must find nothing left.
 * Run under helgrind, drd and memcheck by `make check-stage3-stress-tools`
 * (`make check-stage4-stress-tools` for stage 4).  Stages 3 and 4 include
 * this header from their test_stress.c and call stress_add_cases(); stage 4
 * adds its self-removing PCI devices (KSIM_STAGE >= 4, pcirecover's) and
 * writes their recover file: the break-by-hand store, which no schedule
 * hangs.  Never their remove file: remove_store() against the admin's
 * unplug or rmmod, which hold pci_rescan_remove_lock while they drain it,
 * is the PCI hang Linux has too (chapter 6), and a stress run meets it on
 * a rare schedule; the explorer shows it on purpose
 * (remove-vs-surprise-removal).  Nor pcidev's eject, the deliberate
 * mistake of remove-self-vs-rmmod.
 */
#define NR_USERS 6
#define HELD_MAX 2

struct user_stats {
	long opens, reads, writes, readdirs, closes;
	long enoent, enodev, late_ops;		/* late_ops: on a file kept open */
	long unexpected;
	char what[160];			/* the first unexpected outcome */
};

static atomic_bool stop;

/*
 * The stage comes as an archive, and the linker takes from it only what
 * this file calls; the modules call the rest.  One symbol of each object
 * file they need pulls in the whole file.
 */
__attribute__((used)) static void *const module_api[] = {
	device_register, kobject_init, sysfs_create_link, sysfs_schedule_callback_owner,
#if KSIM_STAGE >= 4
	pci_plug,	/* and pci.c calls device_remove_file_self() */
#endif
};

/* A file, the mode it can be opened in, and what to write to it. */
static const struct target {
	const char *path;
	int mode;
	const char *data;
} targets[] = {
	{ "/sys/devices/mouse0/clicks", VFS_READ, NULL },
	{ "/sys/devices/mouse1/clicks", VFS_READ, NULL },
	{ "/sys/devices/slow0/busy_ms", VFS_READ, NULL },
	{ "/sys/devices/slow0/busy_ms", VFS_WRITE, "1" },
	{ "/sys/devices/slow1/busy_ms", VFS_WRITE, "0" },
	{ "/sys/block/sda/dev", VFS_READ, NULL },
	{ "/sys/block/sda/device/model", VFS_READ, NULL },
	{ "/sys/block/sda/device/state", VFS_READ, NULL },
	{ "/sys/devices/0000:00:1f.2/host0/target0:0:0/0:0:0:0/model", VFS_READ, NULL },
	{ "/sys/block/sda/device/delete", VFS_WRITE, "1" },
#if KSIM_STAGE >= 4
	/* Stage 4 runs these cases too: devices that remove themselves. */
	{ "/sys/devices/pci0/recover", VFS_WRITE, "1" },
	{ "/sys/devices/pci1/recover", VFS_WRITE, "1" },
	{ "/sys/devices/pci1/vendor", VFS_READ, NULL },
#endif
};
static const char *const dirs[] = { "/sys/devices", "/sys/block/sda", "/sys/block/sda/device" };

struct held {
	struct file *file;
	const struct target *t;
};

static void note(struct user_stats *st, const char *fmt, const char *path, long err)
{
	if (st->unexpected++ == 0)
		snprintf(st->what, sizeof(st->what), fmt, path, err);
}

static void count_err(struct user_stats *st, long err, const char *op, const char *path)
{
	if (err == -ENOENT)
		st->enoent++;
	else if (err == -ENODEV)
		st->enodev++;
	else
		note(st, op[0] == 'o' ? "open %s: %ld" : "operation on %s: %ld", path, err);
}

/* One operation on an open file: the read or write its target calls for. */
static void operate(struct user_stats *st, struct file *file, const struct target *t)
{
	char buf[256];
	ssize_t n;

	if (t->mode == VFS_READ) {
		st->reads++;
		while ((n = vfs_read(file, buf, sizeof(buf))) > 0)
			;
	} else {
		st->writes++;
		n = vfs_write(file, t->data, strlen(t->data));
		if (n > 0 && n != (ssize_t)strlen(t->data))
			note(st, "write %s returned %ld", t->path, n);
	}
	if (n < 0)
		count_err(st, n, "op", t->path);
}

static void emit_nothing(const char *name, bool dir, void *ctx)
{
	(void)name; (void)dir; (void)ctx;
}

static void *user_main(void *arg)
{
	struct user_stats *st = arg;
	struct held held[HELD_MAX] = { { 0 } };
	unsigned int seed = (unsigned int)current->pid * 2654435761u;

	while (!atomic_load(&stop)) {
		unsigned int r = rand_r(&seed);
		const struct target *t = &targets[r % ARRAY_SIZE(targets)];
		struct held *h = &held[(r >> 8) % HELD_MAX];
		struct file *file;
		int err;

		/*
		 * Valgrind runs one thread at a time: without a pause the users
		 * would keep the hotplug task from ever finishing a cycle.
		 */
		if (RUNNING_ON_VALGRIND)
			usleep(200);

		if ((r >> 12) % 16 == 0) {
			err = vfs_readdir(dirs[(r >> 16) % ARRAY_SIZE(dirs)], emit_nothing, NULL);
			st->readdirs++;
			if (err && err != -ENOENT)
				note(st, "readdir: %s%ld", "", err);
			continue;
		}
		/* A file kept open from before: operate on it now, then let it go. */
		if (h->file && (r >> 20) % 2) {
			operate(st, h->file, h->t);
			st->late_ops++;
			vfs_close(h->file);
			st->closes++;
			h->file = NULL;
			continue;
		}
		st->opens++;
		err = vfs_open(t->path, t->mode, &file);
		if (err) {
			count_err(st, err, "open", t->path);
			/*
			 * Not there (yet): give the CPU to the hotplug task
			 * instead of spinning on lookups that cannot succeed;
			 * with more users than CPUs the spin starves it.
			 */
			if (err == -ENOENT)
				sched_yield();
			continue;
		}
		if (!h->file && (r >> 24) % 4 == 0) {
			h->file = file;		/* keep it: its operation comes later */
			h->t = t;
			continue;
		}
		operate(st, file, t);
		vfs_close(file);
		st->closes++;
	}
	for (int i = 0; i < HELD_MAX; i++) {
		if (held[i].file) {
			operate(st, held[i].file, held[i].t);
			vfs_close(held[i].file);
			st->closes++;
		}
	}
	return NULL;
}

static long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000L + ts.tv_nsec / 1000000L;
}

static void must(int err, const char *what)
{
	ck_assert_msg(err == 0, "%s failed: %d (see the kernel messages above)", what, err);
}

/*
 * rmmod of a module that a delete in flight may pin, which is right: on
 * stage 3 a pending callback pins scsi_mod, on stage 4 a delete store pins
 * libata (the host template's module).  Let them finish and try again,
 * until RMMOD_PINNED_MS have passed: how long the pin lasts is up to the
 * machine's load (100 tries a millisecond apart ran out once in 47 runs of
 * check-stage4 at load 22), and a pin that is never dropped still fails.
 */
#define RMMOD_PINNED_MS (10000 * KTEST_SLOWDOWN)
static void rmmod_pinned(const char *name)
{
	long end = now_ms() + RMMOD_PINNED_MS;
	int err, wait = 1;

	while ((err = rmmod(name)) == -EBUSY && now_ms() < end) {
		flush_scheduled_work();
		msleep(wait);
		wait = wait < 64 ? 2 * wait : 64;	/* each try prints a line: fewer as it lasts */
	}
	must(err, name);
}

static void *hardware_main(void *arg)
{
	long *cycles = arg;
	long deadline = now_ms() + atol(getenv("KSIM_STRESS_MS") ? getenv("KSIM_STRESS_MS") : "1500");

	while (now_ms() < deadline) {
		/* mouse_naive frees on unplug: safe only with active references. */
		const char *mouse = *cycles % 2 ? "mouse" : "mouse_naive";

		must(insmod(mouse), mouse);
		must(hotplug_plug("mouse0"), "plug mouse0");
		must(hotplug_plug("mouse1"), "plug mouse1");
		must(insmod("slowdev"), "insmod slowdev");
		must(hotplug_plug("slow0"), "plug slow0");
		must(hotplug_plug("slow1"), "plug slow1");
		must(insmod("scsi_mod"), "insmod scsi_mod");
		must(insmod("sd_mod"), "insmod sd_mod");
		must(insmod("libata"), "insmod libata");
		must(insmod("ahci"), "insmod ahci");
#if KSIM_STAGE >= 4
		must(insmod("pcirecover"), "insmod pcirecover");
		must(hotplug_plug("pci0"), "plug pci0");
		must(hotplug_plug("pci1"), "plug pci1");
#endif
		msleep(10);
		must(hotplug_unplug("mouse0"), "unplug mouse0");
		must(hotplug_unplug("slow1"), "unplug slow1");
		msleep(2);
		must(rmmod("ahci"), "rmmod ahci");
#if KSIM_STAGE == 3
		/*
		 * A delete callback still pending holds the disk, and through
		 * SCSI's own references its target and host: its last put would
		 * run the host's release after libata, whose template it reads,
		 * is gone.  That is seed example 1, the bug stage 3 keeps (the
		 * scenario table shows it); this test is about sysfs, so the
		 * callbacks run first.
		 */
		flush_scheduled_work();
#endif
		rmmod_pinned("libata");
		must(rmmod("sd_mod"), "rmmod sd_mod");
		/* mouse1 and slow0 are still plugged: module exit removes them. */
		must(rmmod(mouse), mouse);
		must(rmmod("slowdev"), "rmmod slowdev");
		rmmod_pinned("scsi_mod");
#if KSIM_STAGE >= 4
		/* A user may have removed pci0 already: -ENODEV is fine. */
		int err = hotplug_unplug("pci0");

		ck_assert_msg(err == 0 || err == -ENODEV, "unplug pci0 failed: %d", err);
		must(rmmod("pcirecover"), "rmmod pcirecover");	/* exit removes pci1 if it is still there */
#endif
		(*cycles)++;
	}
	return NULL;
}

START_TEST(stress_users_against_hotplug_and_module_unload)
{
	const char *dir = getenv("KSIM_DIR");
	struct user_stats st[NR_USERS];
	struct task_struct *users[NR_USERS], *hw;
	long cycles = 0, start, ms, ops = 0, enodev = 0, enoent = 0, late = 0;

	ck_assert_msg(dir != NULL, "KSIM_DIR is not set: run the suite through make");
	task_init_main("sh");
	oops_init();
	workqueue_init();
	watchdog_start(0);
	module_set_dir(dir);
	/* A real trace for trace2dot's benchmark (make bench-trace2dot); off in the suites. */
	ck_assert_int_eq(trace_open(getenv("KSIM_STRESS_TRACE")), 0);
	stage_init();
	memset(st, 0, sizeof(st));

	start = now_ms();
	hw = kthread_run(hardware_main, &cycles, "hotplug");
	for (int i = 0; i < NR_USERS; i++)
		users[i] = kthread_run(user_main, &st[i], "user%d", i);
	kthread_join(hw);
	atomic_store(&stop, true);
	for (int i = 0; i < NR_USERS; i++)
		kthread_join(users[i]);
	flush_scheduled_work();
	ms = now_ms() - start;

	ck_assert_exercises_done(STRESS_EXERCISES(KSIM_STAGE));
	for (int i = 0; i < NR_USERS; i++) {
		ck_assert_msg(st[i].unexpected == 0, "user%d: %ld unexpected outcomes, the first: %s",
			      i, st[i].unexpected, st[i].what);
		ops += st[i].opens + st[i].reads + st[i].writes + st[i].readdirs + st[i].closes;
		enodev += st[i].enodev;
		enoent += st[i].enoent;
		late += st[i].late_ops;
	}
	fprintf(stderr, "stress: %ld operations by %d users (%ld failed with ENOENT, %ld with ENODEV; %ld on files "
		"kept open) against %ld plug/unplug and load/unload cycles in %ld ms\n",
		ops, NR_USERS, enoent, enodev, late, cycles, ms);
	ck_assert_msg(cycles > 0, "the hardware task did not complete one cycle");
	ck_assert_msg(ops > 0, "the users did nothing");
	ck_assert_msg(stage_verify() == 0, "references were left after the stress (stage_verify printed them above)");
	trace_close();
}
END_TEST

static struct module *pinned;

static void *drop_pin_later(void *arg)
{
	(void)arg;
	msleep(1000);	/* how long the pin lasts: the test is that rmmod_pinned() outlasts it */
	module_put(pinned);
	return NULL;
}

/* A pin that lasts a second, far longer than 100 tries a millisecond apart: rmmod_pinned() waits it out. */
START_TEST(rmmod_of_a_pinned_module_waits_until_the_pin_is_dropped)
{
	const char *dir = getenv("KSIM_DIR");
	struct task_struct *t;
	long start;

	ck_assert_msg(dir != NULL, "KSIM_DIR is not set: run the suite through make");
	task_init_main("sh");
	oops_init();
	workqueue_init();
	module_set_dir(dir);
	must(insmod("scsi_mod"), "insmod scsi_mod");
	pinned = find_module("scsi_mod");
	ck_assert_msg(pinned && try_module_get(pinned), "scsi_mod could not be pinned");
	ck_assert_int_eq(rmmod("scsi_mod"), -EBUSY);
	start = now_ms();
	t = kthread_run(drop_pin_later, NULL, "pin");
	rmmod_pinned("scsi_mod");
	ck_assert_msg(now_ms() - start >= 900, "rmmod of scsi_mod succeeded after %ld ms, while it was pinned for "
		      "1000 ms", now_ms() - start);
	kthread_join(t);
}
END_TEST

/* stress_add_cases - the stress test, as a case of the stage's suite s. */
static void stress_add_cases(Suite *s)
{
	TCase *tc = ktest_case(s, "stress", 120);

	tcase_add_test(tc, rmmod_of_a_pinned_module_waits_until_the_pin_is_dropped);
	tcase_add_test(tc, stress_users_against_hotplug_and_module_unload);
}

#endif
