/* stage_name.c - what `ksim --version` calls this stage. */
#include <vfs.h>

const char *const stage_name = "stage4 (kernfs: a biased active count, remove_self)";
