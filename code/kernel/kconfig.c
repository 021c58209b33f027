/* kconfig.c - the table of the simulated kernel's debug options. */
#include <string.h>
#include "kconfig.h"

bool config_debug_kobject_release;

static const struct {
	const char *name;
	bool *value;
} options[] = {
	{ "DEBUG_KOBJECT_RELEASE", &config_debug_kobject_release },
};

int kconfig_set(const char *name, bool on)
{
	for (size_t i = 0; i < ARRAY_SIZE(options); i++) {
		if (strcmp(options[i].name, name) == 0) {
			*options[i].value = on;
			return 0;
		}
	}
	return -ENOENT;
}

bool kconfig_known(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(options); i++)
		if (strcmp(options[i].name, name) == 0)
			return true;
	return false;
}

void kconfig_reset(void)
{
	for (size_t i = 0; i < ARRAY_SIZE(options); i++)
		*options[i].value = false;
}
