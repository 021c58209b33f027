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

struct files_struct {
	struct file *fd[NR_OPEN];	/* 0, 1, 2 stay empty: the terminal */
};

void files_alloc(void)
{
	current->files = calloc(1, sizeof(struct files_struct));
	if (!current->files)
		abort();
}

int fd_install(struct file *file)
{
	struct files_struct *files = current->files;

	for (int fd = 3; fd < NR_OPEN; fd++) {
		if (!files->fd[fd]) {
			files->fd[fd] = file;
			return fd;
		}
	}
	return -EMFILE;
}

void fd_close(int fd)
{
	struct files_struct *files = current->files;
	struct file *file = files->fd[fd];

	files->fd[fd] = NULL;
	if (file)
		vfs_close(file);
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
