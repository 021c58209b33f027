/* netdeny.c - run a command that can open no socket: the grader's network ban where the
 * kernel gives it no network namespace (tests/grade/sandbox.sh).
 *
 * netdeny COMMAND [ARG...] sets no_new_privs (so no set-user-ID program undoes
 * it, and so an unprivileged caller may install a filter) and a seccomp
 * filter that every process COMMAND starts inherits, then execs COMMAND.
 * The filter refuses, with EACCES:
 *   - socket(), the one way to get a socket to connect with (socketpair()
 *     stays: it gives two connected ends and reaches nothing outside);
 *   - io_uring_setup(), since an io_uring can open sockets without socket();
 *   - on x86-64, every x32 system call (a second number for socket()).
 * A system call of another architecture (a 32-bit one from a 64-bit process)
 * kills the process: there socketcall() would reach socket() unseen.
 * Exit status: COMMAND's; 126 when the filter cannot be installed (the
 * caller must then not run COMMAND at all), 127 when COMMAND cannot run.
 */
#include <errno.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#if defined(__x86_64__)
#define NETDENY_ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define NETDENY_ARCH AUDIT_ARCH_AARCH64
#else
#error "netdeny: name this architecture's AUDIT_ARCH_ value"
#endif

#ifndef __NR_io_uring_setup
#define __NR_io_uring_setup 425
#endif

#define REFUSE (SECCOMP_RET_ERRNO | (EACCES & SECCOMP_RET_DATA))

static struct sock_filter filter[] = {
	/* Invariant: a system call of any other architecture never reaches the checks below. */
	BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
	BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, NETDENY_ARCH, 1, 0),
	BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS),
	BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
#if defined(__x86_64__)
	/* x32 numbers have bit 30 set: refuse them all. */
	BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, 0x40000000, 2, 0),
#else
	BPF_JUMP(BPF_JMP | BPF_JA, 0, 0, 0),
#endif
	BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_socket, 1, 0),
	BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_io_uring_setup, 0, 1),
	BPF_STMT(BPF_RET | BPF_K, REFUSE),
	BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
};

int main(int argc, char **argv)
{
	struct sock_fprog prog = {
		.len = sizeof(filter) / sizeof(filter[0]),
		.filter = filter,
	};

	if (argc < 2) {
		fprintf(stderr, "usage: netdeny COMMAND [ARG...]\n");
		return 2;
	}
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 ||
	    prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog) != 0) {
		fprintf(stderr, "netdeny: cannot install the filter: %s\n", strerror(errno));
		return 126;
	}
	execvp(argv[1], argv + 1);
	fprintf(stderr, "netdeny: %s: %s\n", argv[1], strerror(errno));
	return 127;
}
