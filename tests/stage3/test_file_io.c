/* test_file_io.c - stage 3's sysfs files read and write as the kernel's do (tests/lib/file_io_cases.h). */
#include "file_io_cases.h"

int main(void)
{
	Suite *s = suite_create("stage3-file-io");

	file_io_add_cases(s);
	return ktest_main(s);
}
