/* expect.c - the scenario's assertions about the command before them. */
#include <stdio.h>
#include <string.h>
#include "module.h"
#include "shell.h"

/*
 * An expectation that does not hold is reported and the scenario goes on:
 * what happens next (an oops, a hang) is usually what the reader came to
 * see.  The run then ends with exit status 1, unless something worse
 * (an oops: 3, a hang: 4) ends it.
 */

static bool module_loaded(const char *name)
{
	struct module *mod = find_module(name);

	return mod && atomic_load(&mod->state) != MODULE_STATE_GONE;
}

/* What a command printed, on one line: newlines shown as \n, cut at 200 bytes. */
static void one_line(char *buf, size_t len, const char *s)
{
	size_t o = 0;

	for (; s && *s && o + 3 < len && o < 200; s++) {
		if (*s == '\n') {
			buf[o++] = '\\';
			buf[o++] = 'n';
		} else {
			buf[o++] = *s;
		}
	}
	buf[o] = '\0';
}

static void describe_status(char *buf, size_t len, int status)
{
	if (status)
		snprintf(buf, len, "failed with %s (%s)", errno_name(status), strerror(-status));
	else
		snprintf(buf, len, "succeeded");
}

bool expect_check(const struct script *s, const struct command *c, const struct result *last)
{
	const char *what = last->cmd ? last->cmd->text : "(nothing)";
	int status = last->cmd ? last->status : 0;
	char why[512], st[128];
	bool ok = false;

	describe_status(st, sizeof(st), status);
	switch ((enum expect_kind)c->op) {
	case EXPECT_OK:
		ok = status == 0;
		snprintf(why, sizeof(why), "'%s' %s, expected it to succeed", what, st);
		break;
	case EXPECT_FAIL:
		ok = status != 0 && (c->n == 0 || status == -c->n);
		if (c->n)
			snprintf(why, sizeof(why), "'%s' %s, expected it to fail with %s", what, st,
				 errno_name(c->n));
		else
			snprintf(why, sizeof(why), "'%s' succeeded, expected it to fail", what);
		break;
	case EXPECT_OUTPUT: {
		char got[256];

		ok = last->out.s && strstr(last->out.s, c->arg);
		one_line(got, sizeof(got), last->out.s);
		snprintf(why, sizeof(why), "'%s' did not print \"%s\"; it printed \"%s\"", what, c->arg, got);
		break;
	}
	case EXPECT_LOADED:
		ok = module_loaded(c->arg);
		snprintf(why, sizeof(why), "module %s is not loaded", c->arg);
		break;
	case EXPECT_UNLOADED:
		ok = !module_loaded(c->arg);
		snprintf(why, sizeof(why), "module %s is still loaded", c->arg);
		break;
	case EXPECT_MODREF: {
		struct module *mod = find_module(c->arg);

		if (!mod || !module_loaded(c->arg)) {
			snprintf(why, sizeof(why), "module %s is not loaded, expected refcount %ld",
				 c->arg, c->n);
			break;
		}
		ok = module_refcount(mod) == c->n;
		snprintf(why, sizeof(why), "module %s has refcount %d, expected %ld", c->arg,
			 module_refcount(mod), c->n);
		break;
	}
	}
	if (!ok) {
		fflush(stdout);
		fprintf(stderr, "%s:%d: expect failed: %s\n", s->file, c->line, why);
	}
	return ok;
}
