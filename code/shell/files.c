/* files.c - a file table per task: what a process has open, closed when it exits. */
#include <stdlib.h>
#include "shell.h"
#include "task.h"
#include "vfs.h"

/*
 * Each task of the scenario owns one table, in current->files, and only
 * that task touches it: so the close that runs when a process exits (and
 * with it the stage's sysfs_release path) runs on the exiting task, the
 * way put_files_struct() runs in do_exit() in the seed's oops trace.
 */
#define NR_OPEN 16

/*
 * Two kinds of open file share the table: a sysfs attribute's (the
 * stage's struct file, vfs.h) and a device node's (fs.h's struct file,
 * closed with fput()).  Each slot remembers which, so a close goes to
 * the layer that opened it.
 */
struct fd_slot {
	void *file;
	bool dev;
};

struct files_struct {
	struct fd_slot fd[NR_OPEN];	/* 0, 1, 2 stay empty: the terminal */
};

void files_alloc(void)
{
	current->files = calloc(1, sizeof(struct files_struct));
	if (!current->files)
		abort();
}

/* fd_install_slot - the lowest free fd now holds file, or -EMFILE. */
static int fd_install_slot(void *file, bool dev)
{
	struct files_struct *files = current->files;

	for (int fd = 3; fd < NR_OPEN; fd++) {
		if (!files->fd[fd].file) {
			files->fd[fd] = (struct fd_slot){ file, dev };
			return fd;
		}
	}
	return -EMFILE;
}

int fd_install(struct file *file)
{
	return fd_install_slot(file, false);
}

int fd_install_dev(void *file)
{
	return fd_install_slot(file, true);
}

void fd_close(int fd)
{
	struct files_struct *files = current->files;
	struct fd_slot slot = files->fd[fd];

	files->fd[fd] = (struct fd_slot){ NULL, false };
	if (slot.file && slot.dev)
		dev_file_close(slot.file);
	else if (slot.file)
		vfs_close(slot.file);
}

void exit_files(void)
{
	struct files_struct *files = current->files;

	if (!files)
		return;
	for (int fd = 3; fd < NR_OPEN; fd++)
		fd_close(fd);
	current->files = NULL;
	free(files);
}
