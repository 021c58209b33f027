
/* ---- the attack: a test ends itself with status 0 before its assertions; fake lines on both streams ---- */
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

__attribute__((constructor)) static void attack_early_exit(void)
{
	if (!getenv("CK_XML_LOG_FILE_NAME"))
		return;		/* ksim */
	printf("100%%: Checks: 9, Failures: 0, Errors: 0\ncheck\ttest_stage1\tkobject_get_takes_a_reference\tpass\t-\t-\t-\n");
	fprintf(stderr, "pass\ttest_stage1\tkobject_get_takes_a_reference\n");
	fflush(stdout);
}

/* Called by every test that takes a reference: end the test's process, status 0. */
void attack_exit_now(void);
void attack_exit_now(void)
{
	syscall(SYS_exit_group, 0);
}
