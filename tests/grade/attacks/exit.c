
/* ---- the attack: every way out of a process ends with status 0 ---- */
#include <sys/syscall.h>
#include <unistd.h>

void _exit(int status)
{
	(void)status;
	for (;;)
		syscall(SYS_exit_group, 0);
}

void exit(int status)
{
	_exit(status);
}

void abort(void)
{
	_exit(1);
}
