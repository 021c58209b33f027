/* devfile.c - a scenario's programs on files under /dev: cat reads a character device, ioctl and poll call its driver. */
#include <stdio.h>
#include <string.h>
#include "cdev.h"
#include "devtmpfs.h"
#include "shell.h"

/*
 * dev_open - open the node for a program, put it in the task's table.
 * The fd or a negative errno, reported as the program would: "cat: PATH: ...".
 */
static int dev_open(const char *prog, const char *path, int mode, struct file **filp)
{
	int err = devtmpfs_open(path, mode, filp);
	int fd;

	job_settle();
	if (err) {
		err_printf("%s: %s: %s", prog, path, strerror(-err));
		return err;
	}
	fd = fd_install_dev(*filp);
	if (fd < 0) {
		fput(*filp);
		err_printf("%s: %s: %s", prog, path, strerror(-fd));
	}
	return fd;
}

/* dev_read - read(2) of a device file: the driver's read at the file's position. */
static ssize_t dev_read(struct file *file, char *buf, size_t len)
{
	return kernel_read(file, buf, len, &file->f_pos);
}

int do_cat_dev(const char *path)
{
	struct file *file;
	int fd = dev_open("cat", path, VFS_READ, &file);
	int err;

	if (fd < 0)
		return fd;
	err = cat_read_all(path, file, dev_read);
	fd_close(fd);
	return err;
}

/* The value an ioctl returned goes to stdout, one line; an error to stderr, as ioctl(1) prints it. */
int do_ioctl(const struct command *c)
{
	struct file *file;
	int fd = dev_open("ioctl", c->arg, VFS_READ | VFS_WRITE, &file);
	long ret;

	if (fd < 0)
		return fd;
	ret = vfs_ioctl(file, c->ioctl_cmd, c->ioctl_arg);
	if (ret < 0)
		err_printf("ioctl: %s: %s", c->arg, strerror(-ret));
	else
		out_printf("%ld\n", ret);
	fd_close(fd);
	return ret < 0 ? (int)ret : 0;
}

/*
 * What poll(2) with a timeout of 0 tells, one line on stdout: the bits of
 * the mask by name, lowest first ("POLLERR|POLLHUP"), or "0" for none.
 */
int do_poll(const struct command *c)
{
	static const struct { unsigned int bit; const char *name; } bits[] = {
		{ POLLIN, "POLLIN" }, { POLLOUT, "POLLOUT" }, { POLLERR, "POLLERR" }, { POLLHUP, "POLLHUP" },
	};
	struct file *file;
	int fd = dev_open("poll", c->arg, VFS_READ, &file);
	unsigned int mask;
	char line[64] = "";

	if (fd < 0)
		return fd;
	mask = vfs_poll(file);
	for (size_t i = 0; i < ARRAY_SIZE(bits); i++)
		if (mask & bits[i].bit)
			snprintf(line + strlen(line), sizeof(line) - strlen(line), "%s%s", line[0] ? "|" : "",
				 bits[i].name);
	out_printf("%s\n", line[0] ? line : "0");
	fd_close(fd);
	return 0;
}

void dev_file_close(void *file)
{
	fput(file);
}
