/* test_stress.c - stage 4 under many users and its self-removing PCI devices while devices and modules come and go (tests/lib/stress_cases.h). */
#include "stress_cases.h"

int main(void)
{
	Suite *s = suite_create("stage4-stress");

	stress_add_cases(s);
	return ktest_main(s);
}
