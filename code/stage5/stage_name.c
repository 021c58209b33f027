/* stage_name.c - what `ksim --version` calls this stage. */
#include <vfs.h>

const char *const stage_name = "stage5 (revocable: character devices, devres, a provider that remove() revokes)";
