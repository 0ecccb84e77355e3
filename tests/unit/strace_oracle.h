/*
 * strace as the oracle for unit tests: the test binary re-runs itself under
 * strace in a "child" mode that makes known syscalls, and the test reads
 * strace's output back.  Syscalls are made harmless with a seccomp filter
 * that fails them (nothing runs) when their sixth argument is ORACLE_MAGIC;
 * strace still sees them at entry.  Header-only: include it from one test.
 */
#ifndef RENACER_TEST_STRACE_ORACLE_H
#define RENACER_TEST_STRACE_ORACLE_H

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sys/sysent.h"

#define ORACLE_MAGIC 0x5ecc0a11u
#define ORACLE_FLAG "--strace-oracle-child"

/*
 * Installs a filter: a syscall whose sixth argument is ORACLE_MAGIC twice
 * (high and low word) fails without running, with errno ENOSYS, or, when
 * errno_from_arg0, with the errno in its first argument (& 0xfff).
 */
static int oracle_block_magic(int errno_from_arg0)
{
	struct sock_filter f[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, args[5])),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, ORACLE_MAGIC, 1, 0),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, args[5]) + 4),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, ORACLE_MAGIC, 1, 0),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 0, 0, 1),   /* patched below */
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | ENOSYS),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, args[0])),
		BPF_STMT(BPF_ALU | BPF_AND | BPF_K, 0xfff),
		BPF_STMT(BPF_ALU | BPF_OR | BPF_K, SECCOMP_RET_ERRNO),
		BPF_STMT(BPF_RET | BPF_A, 0),
	};
	/* A still holds the high word of args[5] (== ORACLE_MAGIC) at [6]: equal
	 * selects ENOSYS, not equal the errno from args[0] */
	f[6].k = errno_from_arg0 ? ~ORACLE_MAGIC : ORACLE_MAGIC;
	struct sock_fprog prog = { sizeof(f) / sizeof(f[0]), f };
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
		return -1;
	return prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog);
}

static long oracle_call(long nr, long a0)
{
	unsigned long m = ((unsigned long)ORACLE_MAGIC << 32) | ORACLE_MAGIC;
	return syscall(nr, a0, 0L, 0L, 0L, 0L, m);
}

/* Syscalls that seccomp cannot stop (uprobes): never called. */
static int oracle_unsafe(const char *name)
{
	return !strcmp(name, "uretprobe") || !strcmp(name, "uprobe");
}

/*
 * The child side; call first thing in main():
 *   "all":     every syscall of our table, failed by seccomp;
 *   "errno":   getppid failing with each errno 1..ORACLE_MAX_ERRNO in turn;
 *   "signals": kill(INT_MAX, sig) for sig 1..64 (fails with ESRCH).
 * Returns -1 when argv is not a child invocation.
 */
#define ORACLE_MAX_ERRNO 600
static int oracle_child(int argc, char **argv)
{
	if (argc < 3 || strcmp(argv[1], ORACLE_FLAG))
		return -1;
	if (!strcmp(argv[2], "all")) {
		if (oracle_block_magic(0))
			return 2;
		for (unsigned nr = 0; nr < sysent_count; nr++)
			if (sysent_table[nr].name && !oracle_unsafe(sysent_table[nr].name))
				oracle_call(nr, 0);
	} else if (!strcmp(argv[2], "errno")) {
		if (oracle_block_magic(1))
			return 2;
		for (long e = 1; e <= ORACLE_MAX_ERRNO; e++)
			oracle_call(SYS_getppid, e);
	} else if (!strcmp(argv[2], "signals")) {
		for (int s = 1; s <= 64; s++)
			syscall(SYS_kill, INT_MAX, s);
	} else {
		return 2;
	}
	return 0;
}

/*
 * Runs `strace -qq -o OUT [-e EXPR] SELF ORACLE_FLAG MODE`; strace's stderr
 * goes to ERR (may be NULL).  Returns strace's exit status, or 127 when
 * strace cannot be run.
 */
static int oracle_run(const char *expr, const char *mode, const char *out, const char *err)
{
	char self[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	int status;
	pid_t pid;

	if (n < 0)
		return 127;
	self[n] = '\0';
	pid = fork();
	if (pid < 0)
		return 127;
	if (pid == 0) {
		char *args[12];
		int i = 0, fd = open(err ? err : "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (fd >= 0)
			dup2(fd, 2);
		/* LeakSanitizer cannot run in a traced process */
		const char *asan = getenv("ASAN_OPTIONS");
		char opts[1024];
		snprintf(opts, sizeof(opts), "%s%sdetect_leaks=0", asan ? asan : "",
			 asan && *asan ? ":" : "");
		setenv("ASAN_OPTIONS", opts, 1);
		args[i++] = "strace";
		args[i++] = "-qq";
		args[i++] = "-o";
		args[i++] = (char *)out;
		if (expr) {
			args[i++] = "-e";
			args[i++] = (char *)expr;
		}
		args[i++] = self;
		args[i++] = ORACLE_FLAG;
		args[i++] = (char *)mode;
		args[i] = NULL;
		execvp("strace", args);
		_exit(127);
	}
	if (waitpid(pid, &status, 0) < 0)
		return 127;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/* A temporary file name under $TMPDIR (or /tmp); the caller frees it. */
static char *oracle_tmpfile(const char *tag)
{
	const char *dir = getenv("TMPDIR");
	char *p;
	size_t len;

	if (!dir || !*dir)
		dir = "/tmp";
	len = strlen(dir) + strlen(tag) + 32;
	p = malloc(len);
	snprintf(p, len, "%s/oracle-%ld-%s", dir, (long)getpid(), tag);
	return p;
}

#endif
