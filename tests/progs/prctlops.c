/*
 * prctl(2) options for tests/t/decode_prctl.sh, each with its arguments
 * decoded by name: on x86_64 the arm64 and MIPS options (SVE, SME, pointer
 * authentication, tagged addresses, FP modes) fail with EINVAL, which still
 * shows how their arguments decode; bad pointers give EFAULT.  With "get"
 * only the options whose result is decoded are called (the test injects
 * results with -e inject=prctl:retval=N).
 */
#include <linux/prctl.h>
#include <linux/securebits.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef PR_SET_VMA
# define PR_SET_VMA 0x53564d41
# define PR_SET_VMA_ANON_NAME 0
#endif

static long pr(long opt, unsigned long a2, unsigned long a3, unsigned long a4,
	       unsigned long a5)
{
	return syscall(SYS_prctl, opt, a2, a3, a4, a5);
}

static void gets(void *bad)
{
	int x;
	uint64_t cookie;
	char name[16];

	pr(PR_GET_SECUREBITS, 0, 0, 0, 0);
	pr(PR_GET_FP_MODE, 0, 0, 0, 0);
	pr(PR_SVE_GET_VL, 0, 0, 0, 0);
	pr(PR_SVE_SET_VL, PR_SVE_VL_INHERIT | 0x10, 0, 0, 0);
	pr(PR_SME_GET_VL, 0, 0, 0, 0);
	pr(PR_GET_TAGGED_ADDR_CTRL, 0, 0, 0, 0);
	pr(PR_PAC_GET_ENABLED_KEYS, 0, 0, 0, 0);
	pr(PR_GET_SPECULATION_CTRL, PR_SPEC_STORE_BYPASS, 0, 0, 0);
	pr(PR_GET_SPECULATION_CTRL, PR_SPEC_INDIRECT_BRANCH, 0, 0, 0);
	pr(PR_GET_DUMPABLE, 0, 0, 0, 0);
	pr(PR_MCE_KILL_GET, 0, 0, 0, 0);
	pr(PR_GET_PDEATHSIG, (unsigned long)&x, 0, 0, 0);
	pr(PR_GET_TSC, (unsigned long)&x, 0, 0, 0);
	pr(PR_GET_UNALIGN, (unsigned long)bad, 0, 0, 0);
	pr(PR_GET_CHILD_SUBREAPER, (unsigned long)&x, 0, 0, 0);
	pr(PR_GET_NAME, (unsigned long)name, 0, 0, 0);
	pr(PR_SCHED_CORE, PR_SCHED_CORE_GET, 0, PR_SCHED_CORE_SCOPE_THREAD,
	   (unsigned long)&cookie);
}

int main(int argc, char **argv)
{
	char *page = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	char *bad, *end;
	int x = 0;
	uint64_t cookie = 0;
	char name[16];

	if (page == MAP_FAILED)
		return 1;
	munmap(page + 4096, 4096);
	bad = page + 4096;
	/* a 15-byte name ending at the unmapped page, and a 16-byte one */
	end = bad - 15;
	memcpy(end, "123456789abcdef", 15);
	memcpy(page, "0123456789abcdef", 17);
	if (argc > 1 && !strcmp(argv[1], "get")) {
		x = 0;
		gets(bad);
		return 0;
	}

	/* names, signals, enumerations and flags */
	pr(PR_SET_NAME, (unsigned long)"renacer-test", 0, 0, 0);
	pr(PR_SET_NAME, (unsigned long)end, 0, 0, 0);
	pr(PR_SET_NAME, (unsigned long)page, 0, 0, 0);
	pr(PR_SET_NAME, (unsigned long)bad, 0, 0, 0);
	pr(PR_GET_NAME, (unsigned long)name, 0, 0, 0);
	pr(PR_GET_NAME, (unsigned long)bad, 0, 0, 0);
	pr(PR_SET_PDEATHSIG, SIGUSR1, 0, 0, 0);
	pr(PR_SET_PDEATHSIG, 200, 0, 0, 0);
	pr(PR_GET_PDEATHSIG, (unsigned long)&x, 0, 0, 0);
	pr(PR_GET_PDEATHSIG, (unsigned long)bad, 0, 0, 0);
	pr(PR_SET_PDEATHSIG, 0, 0, 0, 0);
	pr(PR_GET_DUMPABLE, 0, 0, 0, 0);
	pr(PR_SET_DUMPABLE, 1, 0, 0, 0);
	pr(PR_SET_DUMPABLE, 7, 0, 0, 0);
	pr(PR_GET_KEEPCAPS, 0, 0, 0, 0);
	pr(PR_SET_KEEPCAPS, 0, 0, 0, 0);
	pr(PR_GET_TIMERSLACK, 0, 0, 0, 0);
	pr(PR_SET_TIMERSLACK, 50000, 0, 0, 0);
	pr(PR_GET_TSC, (unsigned long)&x, 0, 0, 0);
	pr(PR_SET_TSC, PR_TSC_ENABLE, 0, 0, 0);
	pr(PR_SET_TSC, 9, 0, 0, 0);
	pr(PR_GET_UNALIGN, (unsigned long)&x, 0, 0, 0);
	pr(PR_SET_UNALIGN, PR_UNALIGN_NOPRINT | PR_UNALIGN_SIGBUS | 8, 0, 0, 0);
	pr(PR_GET_SECUREBITS, 0, 0, 0, 0);
	pr(PR_SET_SECUREBITS, SECBIT_KEEP_CAPS | SECBIT_NOROOT_LOCKED | 0x1000, 0, 0, 0);
	pr(PR_CAPBSET_READ, 21, 0, 0, 0);
	pr(PR_CAPBSET_READ, 99, 0, 0, 0);
	pr(PR_CAP_AMBIENT, PR_CAP_AMBIENT_IS_SET, 12, 0, 0);
	pr(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL | 0x10, 1, 2, 3);
	pr(PR_MCE_KILL, PR_MCE_KILL_SET, PR_MCE_KILL_EARLY | 0x10, 0, 0);
	pr(PR_MCE_KILL, PR_MCE_KILL_CLEAR, 5, 0, 0);
	pr(PR_MCE_KILL_GET, 1, 2, 3, 4);
	pr(PR_SET_MM, 99, 1, 2, 3);
	pr(PR_SET_MM, PR_SET_MM_START_BRK, 1, 2, 3);
	pr(PR_SET_CHILD_SUBREAPER, 0, 0, 0, 0);
	pr(PR_GET_CHILD_SUBREAPER, (unsigned long)&x, 0, 0, 0);
	pr(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0);
	pr(PR_GET_THP_DISABLE, 0, 0, 0, 0);
	pr(PR_SET_THP_DISABLE, 0, 1, 0, 0);
	pr(PR_GET_TID_ADDRESS, (unsigned long)&cookie, 0, 0, 0);
	pr(PR_GET_IO_FLUSHER, 0, 0, 0, 0);
	pr(PR_TASK_PERF_EVENTS_ENABLE, 0, 0, 0, 0);
	pr(PR_GET_ENDIAN, (unsigned long)&x, 0, 0, 0);
	pr(PR_SET_ENDIAN, 1, 0, 0, 0);
	pr(PR_GET_FPEMU, (unsigned long)bad, 0, 0, 0);
	/* arm64/MIPS options: EINVAL here */
	pr(PR_SET_FP_MODE, PR_FP_MODE_FR | PR_FP_MODE_FRE | 4, 0, 0, 0);
	pr(PR_GET_FP_MODE, 0, 0, 0, 0);
	pr(PR_SVE_SET_VL, 0xff, 0, 0, 0);
	pr(PR_SVE_SET_VL, PR_SVE_SET_VL_ONEXEC | PR_SVE_VL_INHERIT | 0x20, 0, 0, 0);
	pr(PR_SVE_SET_VL, 0x800000 | PR_SVE_VL_INHERIT, 0, 0, 0);
	pr(PR_SVE_GET_VL, 0, 0, 0, 0);
	pr(PR_SME_SET_VL, PR_SME_SET_VL_ONEXEC | 0x40, 0, 0, 0);
	pr(PR_SME_GET_VL, 0, 0, 0, 0);
	pr(PR_SET_TAGGED_ADDR_CTRL, 0, 1, 2, 3);
	pr(PR_SET_TAGGED_ADDR_CTRL, PR_TAGGED_ADDR_ENABLE | PR_MTE_TCF_SYNC, 0, 0, 0);
	pr(PR_SET_TAGGED_ADDR_CTRL, 0x57ae57f4, 0, 0, 0);
	pr(PR_GET_TAGGED_ADDR_CTRL, 0, 0, 0, 0);
	pr(PR_PAC_RESET_KEYS, PR_PAC_APIAKEY | PR_PAC_APGAKEY | 0x100, 0, 0, 0);
	pr(PR_PAC_SET_ENABLED_KEYS, PR_PAC_APIBKEY | PR_PAC_APDBKEY, PR_PAC_APDAKEY, 0, 0);
	pr(PR_PAC_GET_ENABLED_KEYS, 0, 0, 0, 0);
	pr(PR_GET_SPECULATION_CTRL, PR_SPEC_STORE_BYPASS, 0, 0, 0);
	pr(PR_GET_SPECULATION_CTRL, 77, 0, 0, 0);
	pr(PR_SET_SPECULATION_CTRL, PR_SPEC_L1D_FLUSH, PR_SPEC_FORCE_DISABLE, 0, 0);
	pr(PR_SET_SPECULATION_CTRL, 77, 3, 0, 0);
	pr(PR_SET_SYSCALL_USER_DISPATCH, 7, 0x1000, 0x2000, (unsigned long)bad);
	pr(PR_SCHED_CORE, PR_SCHED_CORE_GET, 0, PR_SCHED_CORE_SCOPE_THREAD_GROUP,
	   (unsigned long)&cookie);
	pr(PR_SCHED_CORE, PR_SCHED_CORE_SHARE_TO, getpid(), 7, 0);
	pr(PR_SCHED_CORE, 9, -1, PR_SCHED_CORE_SCOPE_PROCESS_GROUP, (unsigned long)bad);
	pr(PR_SET_PTRACER, -1, 0, 0, 0);
	pr(PR_SET_PTRACER, 0x7fffffff, 0, 0, 0);
	pr(PR_SET_VMA, PR_SET_VMA_ANON_NAME, (unsigned long)page, 4096,
	   (unsigned long)"renacer vma");
	pr(PR_SET_VMA, 5, 1, 2, 3);
	pr(PR_SET_SECCOMP, 9, 1, 2, 3);
	pr(PR_SET_SECCOMP, 2, (unsigned long)bad, 0, 0);
	pr(0x12345678, 1, 2, 3, 4);
	pr(PR_SET_NO_NEW_PRIVS, 0, 0, 0, 0);
	return 0;
}
