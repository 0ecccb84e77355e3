/*
 * Calls syscalls with junk in the register bits the kernel ignores: every
 * argument narrower than 64 bits in the generated syscall table
 * (build/gen/sysargs.h: int, unsigned int, pid_t, umode_t, ...) gets
 * 0xbadc0ffee5a5a5a5's bits above its width.  The kernel reads only the
 * low bits, and so must a tracer: tests/t/decode_junkargs.sh diffs
 * renacer against strace on this program.  A syscall added to the table is
 * called automatically.
 *
 *   junkargs ones        every syscall with a narrow argument, the narrow
 *                        arguments all ones in their width (-1, 0xffff),
 *                        64-bit ones 0 (NULL, size 0): all fail or do
 *                        nothing, but for the overrides in safe[]
 *   junkargs zeros       the same syscalls with the narrow arguments 0 (the
 *                        zero flag words, F_DUPFD, SIG_BLOCK, ...), but -1
 *                        for descriptors and ids (arguments named *fd*,
 *                        *pid, *id), and the overrides of zero_safe[]
 *   junkargs values      the calls of named[] with meaningful low bits
 *                        (F_SETLK, 022, O_CLOEXEC, ...)
 *   junkargs exit        exit(3 | junk)
 *   junkargs exit_group  exit_group(3 | junk)
 *   junkargs list        prints each syscall "ones" calls or skips, and why
 *
 * Each mode starts with sched_yield(), the marker after which the test
 * compares the traces without masking addresses.
 */
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "sys/sysent.h"

struct row {
	long nr;
	const char *name;
	unsigned nargs;
	struct { const char *name; int type; } a[6];
};

static const struct row rows[] = {
#define SYSARG_ROW(nr, nm, n, ...) { nr, #nm, n, { __VA_ARGS__ } },
#include "sysargs.h"
#undef SYSARG_ROW
};

#define JUNK 0xbadc0ffee5a5a5a5ull

/* The argument register: low bits x at the argument's width, junk above. */
static uint64_t reg(int type, uint64_t x)
{
	unsigned bits = arg_type_bits((uint8_t)type);
	uint64_t mask = bits == 64 ? ~0ull : (1ull << bits) - 1;

	return bits == 64 ? x : (JUNK & ~mask) | (x & mask);
}

/* Not called, and why. */
static const struct { const char *name, *why; } skip[] = {
	{ "exit", "ends the process: the 'exit' mode calls it last" },
	{ "exit_group", "ends the process: the 'exit_group' mode calls it last" },
	{ "reboot", "only its magic numbers stand between the test and a reboot" },
	{ "kexec_file_load", "loads a kernel for the next boot" },
	{ "kexec_load", "loads a kernel for the next boot" },
	{ "init_module", "loads kernel code" },
	{ "finit_module", "loads kernel code" },
	{ "delete_module", "unloads kernel code" },
	{ "vhangup", "hangs up the terminal" },
	{ "rt_sigreturn", "restores a signal frame that is not there: SIGSEGV" },
	{ "pause", "waits for a signal forever" },
};

#define D UINT64_MAX   /* the mode's default for this argument */

/* "ones" mode: arguments (low bits) where all ones would do harm or block. */
static const struct { const char *name; uint64_t a[6]; } safe[] = {
	/* flags all ones would have IPC_CREAT: a new queue on every run */
	{ "msgget", { D, 0, D, D, D, D } },
	/* signal 0 to our own process group: checks, sends nothing */
	{ "kill", { 0, 0, D, D, D, D } },
};

/* "zeros" mode: arguments (low bits) where 0 would do harm or block. */
static const struct { const char *name; uint64_t a[6]; } zero_safe[] = {
	/* op 0 is SECCOMP_SET_MODE_STRICT: the next syscall would kill us */
	{ "seccomp", { 0xffffffff, D, D, D, D, D } },
	/* length 0 would set the host and domain names to "" */
	{ "sethostname", { D, 0xffffffff, D, D, D, D } },
	{ "setdomainname", { D, 0xffffffff, D, D, D, D } },
	/* key 0 is IPC_PRIVATE: a new queue on every run */
	{ "msgget", { 0xffffffff, D, D, D, D, D } },
	/* no descriptors and no timeout: they would wait forever */
	{ "select", { 0xffffffff, D, D, D, D, D } },
	{ "pselect6", { 0xffffffff, D, D, D, D, D } },
	{ "ppoll", { D, 0xffffffff, D, D, D, D } },
};

/* Descriptors and ids get -1 in the "zeros" mode: 0 is a real one. */
static int fd_or_id(const char *name)
{
	size_t n = strlen(name);

	return strstr(name, "fd") || strstr(name, "fildes") || !strcmp(name, "mqdes") ||
	       (n >= 3 && !strcmp(name + n - 3, "pid")) || (n >= 2 && !strcmp(name + n - 2, "id"));
}

/* "values" mode: meaningful low bits (narrow args get junk above them). */
static const struct { const char *name; uint64_t a[6]; } named[] = {
	{ "fcntl", { -1, F_SETLK, 0 } },
	{ "fcntl", { -1, F_GETFL } },
	{ "fcntl", { -1, F_SETFD, FD_CLOEXEC } },
	{ "fcntl", { -1, F_DUPFD_CLOEXEC, 3 } },
	{ "umask", { 022 } },
	{ "pipe2", { 0, O_CLOEXEC | O_NONBLOCK } },
	{ "openat", { AT_FDCWD, 0, O_RDONLY | O_CLOEXEC, 0 } },
	{ "openat", { AT_FDCWD, 0, O_WRONLY | O_CREAT | O_TRUNC, 0644 } },
	{ "open", { 0, O_RDWR | O_APPEND, 0600 } },
	{ "lseek", { -1, 0, SEEK_END } },
	{ "kill", { 0, 0 } },
	{ "tkill", { -1, SIGUSR1 } },
	{ "rt_sigaction", { SIGUSR1, 0, 0, 8 } },
	{ "rt_sigprocmask", { SIG_BLOCK, 0, 0, 8 } },
	{ "access", { 0, R_OK | W_OK } },
	{ "chmod", { 0, 04755 } },
	{ "mkdir", { 0, 0700 } },
	{ "dup3", { -1, -1, O_CLOEXEC } },
	{ "flock", { -1, 6 /* LOCK_EX|LOCK_NB */ } },
	{ "socket", { 1 /* AF_UNIX */, 1 | 02000000 /* SOCK_STREAM|SOCK_CLOEXEC */, 0 } },
	{ "socket", { 2 /* AF_INET */, 2 /* SOCK_DGRAM */, 17 /* IPPROTO_UDP */ } },
	{ "socket", { 16 /* AF_NETLINK */, 3 /* SOCK_RAW */, 0 /* NETLINK_ROUTE */ } },
	{ "shutdown", { -1, 2 /* SHUT_RDWR */ } },
	{ "wait4", { -1, 0, 1 /* WNOHANG */, 0 } },
	{ "madvise", { 0, 0, 4 /* MADV_DONTNEED */ } },
	{ "epoll_create1", { 02000000 /* EPOLL_CLOEXEC */ } },
	{ "eventfd2", { 0, 02000000 /* EFD_CLOEXEC */ } },
	{ "timerfd_create", { 1 /* CLOCK_MONOTONIC */, 02000000 } },
	{ "getrandom", { 0, 0, 1 /* GRND_NONBLOCK */ } },
	{ "clock_gettime", { 1 /* CLOCK_MONOTONIC */, 0 } },
	{ "prctl", { 3 /* PR_GET_DUMPABLE */, 0, 0, 0, 0 } },
	{ "getpriority", { 0 /* PRIO_PROCESS */, 0 } },
	{ "ioctl", { -1, 0x5401 /* TCGETS */, 0 } },
	{ "mq_open", { 0, O_RDWR | O_CREAT, 0600, 0 } },
	{ "setns", { -1, 0x40000000 /* CLONE_NEWNET */ } },
	{ "personality", { 0xffffffff } },
	{ "sched_get_priority_max", { 1 /* SCHED_FIFO */ } },
	{ "getrlimit", { 7 /* RLIMIT_NOFILE */, 0 } },
	{ "statx", { AT_FDCWD, 0, 0x1000 /* AT_EMPTY_PATH */, 0x7ff /* STATX_BASIC_STATS */, 0 } },
	{ "setsockopt", { -1, 1 /* SOL_SOCKET */, 2 /* SO_REUSEADDR */, 0, 4 } },
	{ "sendto", { -1, 0, 0, 0x40 /* MSG_DONTWAIT */, 0, 16 } },
	{ "memfd_create", { 0, 1 /* MFD_CLOEXEC */ } },
	{ "fchmodat", { AT_FDCWD, 0, 0644 } },
	{ "unlinkat", { AT_FDCWD, 0, 0x200 /* AT_REMOVEDIR */ } },
	{ "utimensat", { -1, 0, 0, 0x100 /* AT_SYMLINK_NOFOLLOW */ } },
	{ "inotify_add_watch", { -1, 0, 0x100 /* IN_CREATE */ } },
	{ "futex", { 0, 1 /* FUTEX_WAKE */, 1, 0, 0, 0 } },
	{ "clock_nanosleep", { 1, 1 /* TIMER_ABSTIME */, 0, 0 } },
	{ "timer_create", { 1, 0, 0 } },
	{ "getitimer", { 0 /* ITIMER_REAL */, 0 } },
	{ "sched_setscheduler", { 0, 1 /* SCHED_FIFO */, 0 } },
	{ "mlockall", { 4 /* MCL_ONFAULT */ } },
	{ "epoll_ctl", { -1, 1 /* EPOLL_CTL_ADD */, -1, 0 } },
	{ "waitid", { 0 /* P_ALL */, 0, 0, 4 /* WEXITED */ | 1 /* WNOHANG */, 0 } },
	{ "mknodat", { AT_FDCWD, 0, 0020644 /* S_IFCHR|0644 */, 0x0103 } },
	{ "fchownat", { AT_FDCWD, 0, 0, 0, 0x100 /* AT_SYMLINK_NOFOLLOW */ } },
	{ "set_mempolicy", { 0 /* MPOL_DEFAULT */, 0, 0 } },
	{ "ioprio_get", { 1 /* IOPRIO_WHO_PROCESS */, 0 } },
};

static const struct row *row_by_name(const char *name)
{
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
		if (!strcmp(rows[i].name, name))
			return &rows[i];
	return NULL;
}

static const char *skip_reason(const char *name)
{
	for (size_t i = 0; i < sizeof(skip) / sizeof(skip[0]); i++)
		if (!strcmp(skip[i].name, name))
			return skip[i].why;
	return NULL;
}

static int narrow(const struct row *r)
{
	for (unsigned j = 0; j < r->nargs; j++)
		if (arg_type_bits((uint8_t)r->a[j].type) < 64)
			return 1;
	return 0;
}

static long call(const struct row *r, const uint64_t *x)
{
	uint64_t a[6] = { 0 };

	for (unsigned j = 0; j < r->nargs && j < 6; j++)
		a[j] = reg(r->a[j].type, x[j]);
	return syscall(r->nr, a[0], a[1], a[2], a[3], a[4], a[5]);
}

static void ones(int list, int zeros)
{
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		const struct row *r = &rows[i];
		const char *why = skip_reason(r->name);
		uint64_t x[6];

		if (!narrow(r))
			continue;
		if (list) {
			printf("%-24s %s\n", r->name, why ? why : "called");
			continue;
		}
		if (why)
			continue;
		for (unsigned j = 0; j < 6; j++) {
			int narrow_arg = j < r->nargs && arg_type_bits((uint8_t)r->a[j].type) < 64;

			if (!narrow_arg)
				x[j] = 0;
			else if (zeros)
				x[j] = fd_or_id(r->a[j].name) ? ~0ull : 0;
			else
				x[j] = ~0ull;
		}
		if (!zeros) {
			for (size_t k = 0; k < sizeof(safe) / sizeof(safe[0]); k++)
				if (!strcmp(safe[k].name, r->name))
					for (unsigned j = 0; j < 6; j++)
						if (safe[k].a[j] != D)
							x[j] = safe[k].a[j];
		} else {
			for (size_t k = 0; k < sizeof(zero_safe) / sizeof(zero_safe[0]); k++)
				if (!strcmp(zero_safe[k].name, r->name))
					for (unsigned j = 0; j < 6; j++)
						if (zero_safe[k].a[j] != D)
							x[j] = zero_safe[k].a[j];
		}
		call(r, x);
	}
}

static int values(void)
{
	for (size_t k = 0; k < sizeof(named) / sizeof(named[0]); k++) {
		const struct row *r = row_by_name(named[k].name);

		if (!r) {
			fprintf(stderr, "junkargs: no syscall '%s' in the table\n", named[k].name);
			return 1;
		}
		call(r, named[k].a);
	}
	return 0;
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "ones";

	/* the marker after which the test compares the traces unmasked */
	syscall(SYS_sched_yield);

	if (!strcmp(mode, "ones") || !strcmp(mode, "list") || !strcmp(mode, "zeros")) {
		ones(mode[0] == 'l', mode[0] == 'z');
		return 0;
	}
	if (!strcmp(mode, "values"))
		return values();
	if (!strcmp(mode, "exit") || !strcmp(mode, "exit_group")) {
		const struct row *r = row_by_name(mode);
		uint64_t x[6] = { 3 };

		if (r)
			call(r, x);
		return 1;
	}
	fprintf(stderr, "usage: junkargs ones|zeros|values|exit|exit_group|list\n");
	return 2;
}
