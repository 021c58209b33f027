/* uinput-mouse.c - make real-kernel's mouse: a uinput device that mousedev binds to, and a wait for its reader. */
#include <fcntl.h>
#include <linux/uinput.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

/*
 *	uinput-mouse			create the mouse; print the pid that holds it
 *	uinput-mouse --await-read PID	wait until task PID sleeps in mousedev_read()
 *
 * Created, the device has one button and two relative axes, what the
 * kernel's mousedev handler asks of a mouse, so /dev/input/mouseN exists
 * when this returns (input_register_device() binds the handlers, and
 * devtmpfs makes the node, before UI_DEV_CREATE returns).  A child keeps
 * /dev/uinput open until it is killed; the last close of that file
 * destroys the device, which is the unplug the scenario wants.
 *
 * The wait orders the scenario without guessing a time: it reads the
 * task's /proc/PID/wchan, the function it sleeps in, until that is
 * mousedev_read (10 s at most, then exit status 1).
 */
static int create(void)
{
	static const int rel[] = { REL_X, REL_Y };
	struct uinput_setup setup;
	int fd = open("/dev/uinput", O_WRONLY);
	pid_t pid;

	if (fd < 0) {
		perror("uinput-mouse: /dev/uinput");
		return 1;
	}
	if (ioctl(fd, UI_SET_EVBIT, EV_KEY) || ioctl(fd, UI_SET_KEYBIT, BTN_LEFT) || ioctl(fd, UI_SET_EVBIT, EV_REL))
		goto fail;
	for (size_t i = 0; i < sizeof(rel) / sizeof(rel[0]); i++)
		if (ioctl(fd, UI_SET_RELBIT, rel[i]))
			goto fail;
	memset(&setup, 0, sizeof(setup));
	setup.id.bustype = BUS_VIRTUAL;
	snprintf(setup.name, sizeof(setup.name), "uinput-mouse");
	if (ioctl(fd, UI_DEV_SETUP, &setup) || ioctl(fd, UI_DEV_CREATE))
		goto fail;
	pid = fork();
	if (pid < 0)
		goto fail;
	if (pid == 0) {
		for (;;)
			pause();	/* until killed: the exit closes fd and destroys the mouse */
	}
	printf("%d\n", (int)pid);
	return 0;
fail:
	perror("uinput-mouse: creating the mouse");
	return 1;
}

static int await_read(const char *pid)
{
	const struct timespec tick = { 0, 20 * 1000 * 1000 };
	char path[64], wchan[64];

	snprintf(path, sizeof(path), "/proc/%s/wchan", pid);
	for (int i = 0; i < 500; i++) {
		FILE *f = fopen(path, "r");
		size_t n = 0;

		if (f) {
			n = fread(wchan, 1, sizeof(wchan) - 1, f);
			fclose(f);
		}
		wchan[n] = '\0';
		if (strcmp(wchan, "mousedev_read") == 0)
			return 0;
		nanosleep(&tick, NULL);
	}
	fprintf(stderr, "uinput-mouse: task %s never slept in mousedev_read (wchan: %s)\n", pid, wchan);
	return 1;
}

int main(int argc, char **argv)
{
	if (argc == 1)
		return create();
	if (argc == 3 && strcmp(argv[1], "--await-read") == 0)
		return await_read(argv[2]);
	fprintf(stderr, "usage: uinput-mouse | uinput-mouse --await-read PID\n");
	return 2;
}
