/* test_stress.c - stage 3 under many users while devices and modules come and go (tests/lib/stress_cases.h). */
#include "stress_cases.h"

int main(void)
{
	Suite *s = suite_create("stage3-stress");

	stress_add_cases(s);
	return ktest_main(s);
}
