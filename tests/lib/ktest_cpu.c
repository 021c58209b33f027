/* ktest_cpu.c - the CPU time a test has had: its process, the children it waited for, and those still running. */
#include <ctype.h>
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "ktest.h"

struct proc {
	int pid, ppid;
	double own, waited;	/* its CPU, and its waited-for children's, in seconds */
};

/*
 * One process's line of /proc/PID/stat; false if it is gone.  Plain
 * read(2), not stdio: this runs in the timer's thread, and a FILE opened
 * there while the test's own thread exits would race with exit()'s walk
 * over every FILE (drd reports it).
 */
static bool read_stat(const char *pid, struct proc *p, double hz)
{
	char path[64], buf[1024], *s;
	unsigned long ut, st;
	long cut, cst;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%s/stat", pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return false;
	buf[n] = 0;
	/* The command may hold spaces and parentheses: the fields start after the last ')'. */
	s = strrchr(buf, ')');
	if (!s || sscanf(s + 2, "%*c %d %*d %*d %*d %*d %*u %*u %*u %*u %*u %lu %lu %ld %ld", &p->ppid, &ut, &st,
			 &cut, &cst) != 5)
		return false;
	p->pid = atoi(pid);
	p->own = (ut + st) / hz;
	p->waited = (cut + cst) / hz;
	return true;
}

static double self_cpu(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/*
 * ktest_tree_cpu - seconds of CPU used by this process, by its children it
 * waited for, and by its descendants still running (read from /proc).
 * Context: any thread; reads /proc once per process on the machine.
 * Return: the seconds, or -1 if /proc cannot be read.
 */
double ktest_tree_cpu(void)
{
	double hz = (double)sysconf(_SC_CLK_TCK), sum = 0;
	struct proc *ps = NULL;
	size_t n = 0, cap = 0;
	struct dirent *e;
	DIR *d = opendir("/proc");
	bool *in;

	if (!d)
		return -1;
	while ((e = readdir(d))) {
		if (!isdigit((unsigned char)e->d_name[0]))
			continue;
		if (n == cap) {
			struct proc *bigger = realloc(ps, (cap = cap ? 2 * cap : 512) * sizeof(*ps));

			if (!bigger)
				break;
			ps = bigger;
		}
		n += read_stat(e->d_name, &ps[n], hz);
	}
	closedir(d);
	in = calloc(n + 1, sizeof(*in));
	if (!in) {
		free(ps);
		return -1;
	}
	/* This process, then whoever has a parent already in, until nothing is added. */
	for (bool grew = true; grew;) {
		grew = false;
		for (size_t i = 0; i < n; i++) {
			if (in[i])
				continue;
			if (ps[i].pid == getpid())
				in[i] = grew = true;
			for (size_t j = 0; j < n && !in[i]; j++)
				if (in[j] && ps[j].pid == ps[i].ppid)
					in[i] = grew = true;
		}
	}
	/* This process's own to the nanosecond: /proc counts in clock ticks. */
	for (size_t i = 0; i < n; i++)
		if (in[i])
			sum += ps[i].waited + (ps[i].pid == getpid() ? self_cpu() : ps[i].own);
	free(in);
	free(ps);
	return sum;
}
