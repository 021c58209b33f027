/* demofs.c - the demo stage: vfs.h over a flat registry of files that modules add. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "delay.h"
#include "demo.h"
#include "module.h"
#include "scheduler.h"
#include "task.h"
#include "trace.h"
#include "vfs.h"
#include "watchdog.h"

/*
 * Declared here, in ksim itself, so a script can name them before any
 * insmod: demo_slow_store in the demo module's slow store, demo_read at the
 * start of every read (to hold a read back until after an unplug).
 */
DELAY_POINT(demo_slow_store)
DELAY_POINT(demo_read)

const char *const stage_name = "demo";

#define DEMO_PATH_MAX 128
#define DEMO_PAGE 4096

struct demo_entry {
	char path[DEMO_PATH_MAX];
	struct module *owner;
	demo_show_t show;
	demo_store_t store;
	void *data;
	/* Under demo_lock: */
	int active;		/* show/store calls in flight */
	int opens;		/* open files: they keep this memory */
	bool dead;		/* unregistered: no new operation starts */
	struct demo_entry *next;
};

struct file {
	struct demo_entry *entry;
	struct module *owner;	/* pinned at open, dropped at close */
	int mode;
	char *page;		/* what show produced, read in pieces */
	ssize_t page_len;
	size_t pos;
	char trace_name[TRACE_NAME_LEN];
};

/* One lock for the registry and every entry's counters: this is a fixture. */
static pthread_mutex_t demo_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t demo_drained = PTHREAD_COND_INITIALIZER;
static struct demo_entry *entries;	/* the live ones */
static int open_files;

static struct demo_entry *demo_find(const char *path)
{
	for (struct demo_entry *e = entries; e; e = e->next)
		if (strcmp(e->path, path) == 0)
			return e;
	return NULL;
}

/* Is path a directory: does some file's path run through it? */
static bool demo_is_dir(const char *path)
{
	size_t n = strlen(path);

	if (strcmp(path, "/") == 0)
		return true;
	for (struct demo_entry *e = entries; e; e = e->next)
		if (strncmp(e->path, path, n) == 0 && e->path[n] == '/')
			return true;
	return false;
}

int demo_file_register(const char *path, struct module *owner, demo_show_t show,
		       demo_store_t store, void *data)
{
	struct demo_entry *e;

	if (path[0] != '/' || strlen(path) >= DEMO_PATH_MAX)
		return -EINVAL;
	e = calloc(1, sizeof(*e));
	if (!e)
		return -ENOMEM;
	snprintf(e->path, sizeof(e->path), "%s", path);
	e->owner = owner;
	e->show = show;
	e->store = store;
	e->data = data;
	pthread_mutex_lock(&demo_lock);
	if (demo_find(path) || demo_is_dir(path)) {
		pthread_mutex_unlock(&demo_lock);
		free(e);
		return -EEXIST;
	}
	e->next = entries;
	entries = e;
	pthread_mutex_unlock(&demo_lock);
	return 0;
}

void demo_file_unregister(const char *path)
{
	struct demo_entry **pp, *e;
	/*
	 * A word on the stack that looks like code but is no return address,
	 * as a function pointer left in a local is: the hung-task report must
	 * not take it for the call into libc (test_shell checks).
	 */
	void (*volatile decoy)(const char *) = demo_file_unregister;

	pthread_mutex_lock(&demo_lock);
	for (pp = &entries; *pp && strcmp((*pp)->path, path) != 0; pp = &(*pp)->next)
		;
	e = *pp;
	if (!e) {
		pthread_mutex_unlock(&demo_lock);
		return;
	}
	*pp = e->next;
	e->dead = true;
	/* Drain: after this no code of the owner runs for this file. */
	if (e->active) {
		sched_block("demo_file_unregister: waiting for show/store in flight");
		while (e->active)
			sched_cond_wait(&demo_drained, &demo_lock, "demo_file_unregister: waiting for show/store in flight");
		sched_unblock();
		(void)decoy;
	}
	if (!e->opens)
		free(e);
	pthread_mutex_unlock(&demo_lock);
}

int vfs_open(const char *path, int mode, struct file **filp)
{
	struct demo_entry *e;
	struct file *f;

	pthread_mutex_lock(&demo_lock);
	e = demo_find(path);
	if (!e) {
		pthread_mutex_unlock(&demo_lock);
		return demo_is_dir(path) ? -EISDIR : -ENOENT;
	}
	if (((mode & VFS_READ) && !e->show) || ((mode & VFS_WRITE) && !e->store)) {
		pthread_mutex_unlock(&demo_lock);
		return -EACCES;
	}
	if (e->owner && !try_module_get(e->owner)) {
		pthread_mutex_unlock(&demo_lock);
		return -ENODEV;
	}
	e->opens++;
	open_files++;
	pthread_mutex_unlock(&demo_lock);

	f = calloc(1, sizeof(*f));
	if (!f)
		abort();
	f->entry = e;
	f->owner = e->owner;
	f->mode = mode;
	trace_name(f->trace_name, sizeof(f->trace_name), "file", current ? current->tag : "?");
	trace_event("open", f->trace_name, "ref=dirent:%s", path);
	*filp = f;
	return 0;
}

/* Start an operation on e: -ENODEV once it is unregistered. */
static int demo_active_get(struct demo_entry *e)
{
	int ret = 0;

	pthread_mutex_lock(&demo_lock);
	if (e->dead)
		ret = -ENODEV;
	else
		e->active++;
	pthread_mutex_unlock(&demo_lock);
	return ret;
}

static void demo_active_put(struct demo_entry *e)
{
	pthread_mutex_lock(&demo_lock);
	if (--e->active == 0 && e->dead)
		sched_cond_broadcast(&demo_drained);
	pthread_mutex_unlock(&demo_lock);
}

ssize_t vfs_read(struct file *f, char *buf, size_t len)
{
	size_t n;

	if (!(f->mode & VFS_READ))
		return -EBADF;
	delay_point("demo_read");
	/* Like sysfs: show() fills a page at the first read, later reads page through it. */
	if (!f->page) {
		int err = demo_active_get(f->entry);

		if (err)
			return err;
		f->page = calloc(1, DEMO_PAGE);
		if (!f->page)
			abort();
		f->page_len = f->entry->show(f->entry->data, f->page, DEMO_PAGE);
		demo_active_put(f->entry);
		if (f->page_len < 0) {
			ssize_t ret = f->page_len;

			free(f->page);
			f->page = NULL;
			return ret;
		}
	}
	if (f->pos >= (size_t)f->page_len)
		return 0;
	n = (size_t)f->page_len - f->pos;
	if (n > len)
		n = len;
	memcpy(buf, f->page + f->pos, n);
	f->pos += n;
	return n;
}

ssize_t vfs_write(struct file *f, const char *buf, size_t len)
{
	ssize_t ret;
	int err;

	if (!(f->mode & VFS_WRITE))
		return -EBADF;
	err = demo_active_get(f->entry);
	if (err)
		return err;
	ret = f->entry->store(f->entry->data, buf, len);
	demo_active_put(f->entry);
	return ret;
}

void vfs_close(struct file *f)
{
	struct demo_entry *e = f->entry;

	trace_event("close", f->trace_name, NULL);
	pthread_mutex_lock(&demo_lock);
	open_files--;
	/* The last close of an unregistered entry frees it. */
	if (--e->opens == 0 && e->dead)
		free(e);
	pthread_mutex_unlock(&demo_lock);
	if (f->owner)
		module_put(f->owner);
	free(f->page);
	free(f);
}

struct dirent_name {
	char *name;
	bool dir;
};

static int cmp_names(const void *a, const void *b)
{
	return strcmp(((const struct dirent_name *)a)->name, ((const struct dirent_name *)b)->name);
}

int vfs_readdir(const char *path, void (*emit)(const char *name, bool dir, void *ctx), void *ctx)
{
	struct dirent_name *names = NULL;
	char dir[DEMO_PATH_MAX];
	int n = 0, cap = 0;
	size_t dlen;

	snprintf(dir, sizeof(dir), "%s", path);
	dlen = strlen(dir);
	while (dlen > 1 && dir[dlen - 1] == '/')
		dir[--dlen] = '\0';
	pthread_mutex_lock(&demo_lock);
	if (demo_find(dir)) {
		pthread_mutex_unlock(&demo_lock);
		return -ENOTDIR;
	}
	if (!demo_is_dir(dir)) {
		pthread_mutex_unlock(&demo_lock);
		return -ENOENT;
	}
	if (strcmp(dir, "/") == 0)
		dlen = 0;		/* every path is "" + "/" + child... */
	for (struct demo_entry *e = entries; e; e = e->next) {
		const char *child, *slash;
		size_t clen;
		bool seen = false;

		if (strncmp(e->path, dir, dlen) != 0 || e->path[dlen] != '/')
			continue;
		child = e->path + dlen + 1;
		slash = strchr(child, '/');
		clen = slash ? (size_t)(slash - child) : strlen(child);
		for (int i = 0; i < n && !seen; i++)
			seen = strlen(names[i].name) == clen && strncmp(names[i].name, child, clen) == 0;
		if (seen)
			continue;
		if (n == cap) {
			cap = cap ? 2 * cap : 16;
			names = realloc(names, cap * sizeof(*names));
			if (!names)
				abort();
		}
		names[n].name = strndup(child, clen);
		names[n++].dir = slash != NULL;
	}
	pthread_mutex_unlock(&demo_lock);

	/* emit runs unlocked: it may print, and printing may be slow. */
	qsort(names, n, sizeof(*names), cmp_names);
	for (int i = 0; i < n; i++) {
		emit(names[i].name, names[i].dir, ctx);
		free(names[i].name);
	}
	free(names);
	return 0;
}

static ssize_t stage_show(void *data, char *buf, size_t len)
{
	(void)data;
	return snprintf(buf, len, "%s\n", stage_name);
}

void stage_init(void)
{
	demo_file_register("/sys/kernel/stage", NULL, stage_show, NULL, NULL);
}

/* After the run every file must be closed: the runner kills its jobs first. */
int stage_verify(void)
{
	int left;

	pthread_mutex_lock(&demo_lock);
	left = open_files;
	pthread_mutex_unlock(&demo_lock);
	if (left)
		printk("demo: %d file%s still open after the scenario", left, left == 1 ? "" : "s");
	return left != 0;
}
