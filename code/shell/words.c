/* words.c - the words of a script that carry a meaning: errno names, times, module paths. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "script.h"

/*
 * The errno names a scenario may expect.  A name that is not here is a
 * mistake in the script (ENODEVICE, EBUZY), not an expectation that can
 * never hold, so the parser refuses it.
 */
#define ERRNOS(X) \
	X(EPERM) X(ENOENT) X(ESRCH) X(EINTR) X(EIO) X(ENXIO) X(E2BIG) X(ENOEXEC) \
	X(EBADF) X(ECHILD) X(EAGAIN) X(ENOMEM) X(EACCES) X(EFAULT) X(EBUSY) \
	X(EEXIST) X(EXDEV) X(ENODEV) X(ENOTDIR) X(EISDIR) X(EINVAL) X(ENFILE) \
	X(EMFILE) X(ENOTTY) X(EFBIG) X(ENOSPC) X(ESPIPE) X(EROFS) X(EMLINK) \
	X(EPIPE) X(ERANGE) X(EDEADLK) X(ENAMETOOLONG) X(ENOSYS) X(ENOTEMPTY) \
	X(ELOOP) X(ENOTSUP) X(ETIMEDOUT) X(ESHUTDOWN) X(EOVERFLOW) \
	X(ENOKEY) X(EOWNERDEAD) X(ECANCELED) X(ENOTCONN) X(ENOMEDIUM)

static const struct {
	const char *name;
	int err;
} errnos[] = {
#define ERRNO_ENTRY(e) { #e, e },
	ERRNOS(ERRNO_ENTRY)
#undef ERRNO_ENTRY
};

int errno_by_name(const char *name)
{
	for (size_t i = 0; i < sizeof(errnos) / sizeof(errnos[0]); i++)
		if (strcmp(errnos[i].name, name) == 0)
			return errnos[i].err;
	return 0;
}

const char *errno_name(int err)
{
	if (err < 0)
		err = -err;
	for (size_t i = 0; i < sizeof(errnos) / sizeof(errnos[0]); i++)
		if (errnos[i].err == err)
			return errnos[i].name;
	return "E?";
}

/* Longer than this is never what a scenario meant: the watchdog limit is seconds. */
#define MAX_TIME_MS (3600L * 1000)

const char *parse_time(const char *s, bool bare_ms, bool unit_required, long *ms)
{
	const char *p = s;
	double v, scale;
	char *end;

	if (!(*p >= '0' && *p <= '9'))
		return "a time starts with a number: 100ms, 1s, 0.5";
	while ((*p >= '0' && *p <= '9') || *p == '.')
		p++;
	v = strtod(s, &end);
	if (end != p)
		return "bad number in a time";
	if (*p == '\0') {
		if (unit_required && v != 0)
			return "give the unit: 100ms or 1s";
		scale = bare_ms ? 1 : 1000;
	} else if (strcmp(p, "ms") == 0) {
		scale = 1;
	} else if (strcmp(p, "s") == 0) {
		scale = 1000;
	} else if (strcmp(p, "m") == 0) {
		scale = 60 * 1000;
	} else {
		return "unknown time unit (use ms, s or m)";
	}
	v *= scale;
	if (v > MAX_TIME_MS)
		return "time too long (at most one hour)";
	*ms = (long)(v + 0.5);
	return NULL;
}

const char *module_name_of_path(const char *path, char *buf, size_t len)
{
	const char *base = strrchr(path, '/');
	size_t n;

	base = base ? base + 1 : path;
	n = strlen(base);
	if (n > 3 && (strcmp(base + n - 3, ".ko") == 0 || strcmp(base + n - 3, ".so") == 0))
		n -= 3;
	snprintf(buf, len, "%.*s", (int)n, base);
	return buf;
}
