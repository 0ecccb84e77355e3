/*
 * seccomp_floor CMD [ARGS...]: runs CMD under an allow-all seccomp filter
 * and no tracer.  make bench uses it to measure what the kernel charges for
 * any filter (the floor below which no seccomp-based tracer can go).
 */
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stdio.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	struct sock_filter insn[] = { BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW) };
	struct sock_fprog prog = { 1, insn };

	if (argc < 2) {
		fputs("usage: seccomp_floor CMD [ARGS...]\n", stderr);
		return 2;
	}
	/* as renacer loads its filter: no SSB mitigation, no_new_privs only
	 * when the kernel demands it */
	if (syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_SPEC_ALLOW, &prog) &&
	    (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) ||
	     syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_SPEC_ALLOW, &prog))) {
		perror("seccomp_floor: seccomp");
		return 1;
	}
	execvp(argv[1], argv + 1);
	perror("seccomp_floor: exec");
	return 127;
}
