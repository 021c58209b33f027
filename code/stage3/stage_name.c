/* stage_name.c - what `ksim --version` calls this stage (a file of its own: the next stage changes only this). */
#include <vfs.h>

const char *const stage_name = "stage3 (active: s_count for the memory, s_active for the kobject)";
