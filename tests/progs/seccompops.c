/* seccomp(2) and prctl(PR_*_SECCOMP) in every form strace decodes: the
 * operations, filter flags, action probes, notification sizes, failures,
 * and one real (allow-all) filter. */
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

int main(void)
{
	struct sock_filter insn[] = { BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW) };
	struct sock_fprog prog = { 1, insn };
	unsigned act;
	struct seccomp_notif_sizes sizes;

	prctl(PR_GET_SECCOMP, 0, 0, 0, 0);
	syscall(SYS_seccomp, SECCOMP_SET_MODE_STRICT, 1, NULL);
	syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_TSYNC, NULL);
	syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_LOG | 0x100, NULL);
	syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0x200, NULL);
	act = SECCOMP_RET_LOG;
	syscall(SYS_seccomp, SECCOMP_GET_ACTION_AVAIL, 0, &act);
	act = SECCOMP_RET_KILL_PROCESS;
	syscall(SYS_seccomp, SECCOMP_GET_ACTION_AVAIL, 0, &act);
	act = 0x12345;
	syscall(SYS_seccomp, SECCOMP_GET_ACTION_AVAIL, 0, &act);
	syscall(SYS_seccomp, SECCOMP_GET_ACTION_AVAIL, 0, (void *)8);
	syscall(SYS_seccomp, SECCOMP_GET_NOTIF_SIZES, 0, &sizes);
	syscall(SYS_seccomp, SECCOMP_GET_NOTIF_SIZES, 0, (void *)8);
	syscall(SYS_seccomp, 9, 3, (void *)16);
	prctl(PR_SET_SECCOMP, 7, 0, 0, 0);
	prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, NULL, 0, 0);
	prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
	syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_SPEC_ALLOW, &prog);
	prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog, 0, 0);
	prctl(PR_GET_SECCOMP, 0, 0, 0, 0);
	return 0;
}
