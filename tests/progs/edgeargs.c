/*
 * Syscalls of each family with edge values, for tests/t/decode_edgeargs.sh
 * to compare renacer with strace line for line: invalid flag bits, zero
 * flag words, NULL and unmapped pointers, structures and arrays that end
 * on an unmapped page, unterminated and long strings, huge sizes, times
 * with their comments, calls that fail with EFAULT or ENOSYS.
 *
 * All buffers live in three pages mapped at a fixed address (the third
 * unmapped), so every address in the trace is the same from run to run and
 * the traces are compared without masking.  Nothing here may change the
 * machine: paths that O_CREAT would create are under /nonexistent/, the
 * hostname, console log level and the like are only given values the
 * kernel rejects, and nothing returns a pid or a time that differs between
 * the two runs.  "edgeargs SECTION" runs one
 * section (file, desc, io, mem, proc, sig, time, net, poll, ipc, admin,
 * new); each starts with sched_yield(), the marker of the test.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/futex.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/sem.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>
#include <netinet/in.h>

#pragma GCC diagnostic ignored "-Wstringop-overread"
#pragma GCC diagnostic ignored "-Wstringop-overflow"
#pragma GCC diagnostic ignored "-Warray-bounds"

#define BASE 0x5e000000UL
#define PG 4096UL

static char *page;   /* BASE: two readable pages, then an unmapped one */
static char *end;    /* BASE + 2 * PG: the first unmapped byte */

/* An object of size n that ends exactly at the unmapped page: only its
 * first n - cut bytes can be read. */
static void *at_end(size_t n, size_t cut)
{
	return end - n + cut;
}

static long sc(long nr, long a, long b, long c, long d, long e, long f)
{
	return syscall(nr, a, b, c, d, e, f);
}
#define S0(nr) sc(nr, 0, 0, 0, 0, 0, 0)
#define S1(nr, a) sc(nr, (long)(a), 0, 0, 0, 0, 0)
#define S2(nr, a, b) sc(nr, (long)(a), (long)(b), 0, 0, 0, 0)
#define S3(nr, a, b, c) sc(nr, (long)(a), (long)(b), (long)(c), 0, 0, 0)
#define S4(nr, a, b, c, d) sc(nr, (long)(a), (long)(b), (long)(c), (long)(d), 0, 0)
#define S5(nr, a, b, c, d, e) sc(nr, (long)(a), (long)(b), (long)(c), (long)(d), (long)(e), 0)
#define S6(nr, a, b, c, d, e, f) sc(nr, (long)(a), (long)(b), (long)(c), (long)(d), (long)(e), (long)(f))

/* A string of n 'x' ending with its NUL just before the hole (or without
 * NUL when nul is 0: it runs into the hole). */
static char *str_at_end(size_t n, int nul)
{
	char *s = end - n - (nul ? 1 : 0);

	memset(s, 'x', n);
	if (nul)
		s[n] = '\0';
	return s;
}

static void file(void)
{
	char *longname = page + 100;

	memset(longname, 'a', 300);
	longname[300] = '\0';
	S4(SYS_openat, AT_FDCWD, "/nonexistent", O_RDONLY | 0x1000000, 0);
	S4(SYS_openat, AT_FDCWD, "/nonexistent", 0x10 | O_WRONLY, 0);
	S4(SYS_openat, AT_FDCWD, "/nonexistent/x", O_RDWR | O_CREAT | 0x80000000, 07777);
	S4(SYS_openat, AT_FDCWD, "/nonexistent", O_ACCMODE, 0);
	S4(SYS_openat, -5, "x", O_RDONLY, 0);
	S4(SYS_openat, AT_FDCWD, NULL, O_RDONLY, 0);
	S4(SYS_openat, AT_FDCWD, end, O_RDONLY, 0);
	S4(SYS_openat, AT_FDCWD, str_at_end(10, 0), O_RDONLY, 0);
	S4(SYS_openat, AT_FDCWD, str_at_end(10, 1), O_RDONLY, 0);
	S4(SYS_openat, AT_FDCWD, longname, O_RDONLY, 0);
	S3(SYS_open, "/nonexistent/x", O_RDONLY | O_CREAT | O_EXCL, 0100644);
	S2(SYS_creat, "/nonexistent/x", 0xffffffff);
	S4(SYS_openat2, AT_FDCWD, "/nonexistent", NULL, 24);
	S4(SYS_openat2, AT_FDCWD, "/nonexistent", at_end(24, 8), 24);
	S4(SYS_openat2, AT_FDCWD, "/nonexistent", at_end(24, 0), 0x1000);
	S2(SYS_access, "/", 0x10);
	S2(SYS_access, "/", 0);
	S4(SYS_faccessat2, AT_FDCWD, "/", R_OK, 0x80000000);
	S2(SYS_chmod, "/nonexistent", 0170000);
	S2(SYS_mkdir, "/nonexistent/x", 01000777);
	S3(SYS_mknod, "/nonexistent/x", 0060600, 0x12345678);
	S3(SYS_mknod, "/nonexistent/x", 0xf000, 0);
	S5(SYS_renameat2, AT_FDCWD, "/nonexistent", AT_FDCWD, "/nonexistent2", 0x10);
	S5(SYS_linkat, -100, "a", -1, "b", 0x1);
	S3(SYS_unlinkat, AT_FDCWD, "/nonexistent", 0x100);
	S2(SYS_stat, "/", NULL);
	S2(SYS_stat, "/", at_end(144, 16));
	S4(SYS_newfstatat, AT_FDCWD, "/", end, 0x1);
	S5(SYS_statx, AT_FDCWD, "/", 0x6000, 0xffffffff, end);
	S5(SYS_statx, AT_FDCWD, "/", 0, 0, end);
	S3(SYS_readlink, "/nonexistent", end, -1L);
	S2(SYS_getcwd, end, 0);
	S2(SYS_getcwd, NULL, 1);
	S5(SYS_fchownat, AT_FDCWD, "/nonexistent", -1, -2, 0x1400);
	S3(SYS_chown, "/nonexistent", 0xfffffffe, 0);
}

static void desc(void)
{
	int fd = (int)S4(SYS_openat, AT_FDCWD, "/dev/null", O_RDONLY, 0);

	S3(SYS_fcntl, fd, 0x12345, 0);
	S3(SYS_fcntl, fd, F_SETFL, 0x10 | O_NONBLOCK);
	S3(SYS_fcntl, fd, F_SETFL, 0);
	S3(SYS_fcntl, fd, F_SETFD, 0xff);
	S3(SYS_fcntl, fd, F_GETLK, NULL);
	S3(SYS_fcntl, fd, F_SETLK, at_end(32, 8));
	S3(SYS_fcntl, fd, F_SETLK, end);
	S3(SYS_fcntl, fd, F_SETOWN_EX, end - 4);
	S3(SYS_fcntl, fd, F_SETSIG, 99);
	S3(SYS_fcntl, fd, F_ADD_SEALS, 0x1ff);
	S3(SYS_fcntl, fd, F_NOTIFY, 0xffffffff);
	S3(SYS_dup3, fd, 200, 0x1);
	S3(SYS_dup3, fd, fd, O_CLOEXEC);
	S2(SYS_pipe2, end - 4, O_CLOEXEC);
	S2(SYS_pipe2, NULL, 0x1);
	S3(SYS_getdents64, fd, end, 100);
	S3(SYS_getdents64, -1, NULL, 0xffffffff);
	S3(SYS_ioctl, fd, 0x5401, NULL);
	S3(SYS_ioctl, fd, 0xdeadbeef, end);
	S3(SYS_ioctl, fd, 0, 0);
	S1(SYS_close, 0x7fffffff);
	S3(SYS_close_range, 100, 50, 0x10);
	S3(SYS_flock, fd, 0, 0);
	S1(SYS_close, fd);
}

static void io(void)
{
	int fd = (int)S4(SYS_openat, AT_FDCWD, "/dev/zero", O_RDWR, 0);
	struct iovec *iov = (struct iovec *)(page + 2000);

	memcpy(page, "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJ\n\t\"\\\1\177\377", 54);
	S3(SYS_write, fd, page, 54);
	S3(SYS_write, fd, page, 0);
	S3(SYS_write, fd, NULL, 10);
	S3(SYS_write, fd, end - 5, 10);
	S3(SYS_write, fd, page, (long)0x7fffffffffffffffL);
	S3(SYS_read, fd, end - 8, 8);
	S3(SYS_read, fd, end - 8, 16);
	S3(SYS_read, -1, NULL, -1L);
	S4(SYS_pread64, fd, page + 3000, 40, -1L);
	S4(SYS_pwrite64, fd, page, 40, (long)0x8000000000000000UL);
	iov[0].iov_base = page;
	iov[0].iov_len = 5;
	iov[1].iov_base = end - 3;
	iov[1].iov_len = 10;
	S3(SYS_writev, fd, iov, 2);
	S3(SYS_writev, fd, iov, 0);
	S3(SYS_writev, fd, end - sizeof(*iov), 2);
	S3(SYS_writev, fd, iov, -1L);
	S3(SYS_readv, fd, end - sizeof(*iov) - 8, 1);
	S3(SYS_lseek, fd, -1L, 5);
	S3(SYS_lseek, fd, 0, 0x80000001U);
	S4(SYS_sendfile, fd, fd, end, 10);
	S6(SYS_copy_file_range, fd, end, fd, NULL, 10, 0x8);
	S4(SYS_splice, fd, NULL, fd, 0x18);
	S3(SYS_getrandom, end - 4, 8, 0x8);
	S3(SYS_getrandom, page, 0, 0xff);
	S1(SYS_close, fd);
}

static void mem(void)
{
	S6(SYS_mmap, 0, 0, PROT_READ | 0x100, MAP_SHARED | 0x8000000, -1, 0);
	S6(SYS_mmap, 0, 4096, 0, 0, -1, 0);
	S6(SYS_mmap, 0, -1L, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_HUGETLB | (21 << 26), -1, 0);
	S6(SYS_mmap, 0, 4096, PROT_READ, MAP_SHARED_VALIDATE | 0x80000, 1234, 0x1000);
	S3(SYS_mprotect, BASE + 1, 0, PROT_READ | 0x1000000);
	S3(SYS_mprotect, end, PG, PROT_GROWSDOWN | PROT_READ);
	S3(SYS_madvise, end, PG, 12345);
	S3(SYS_madvise, end, PG, MADV_HWPOISON + 1000);
	S3(SYS_msync, BASE, PG, 0);
	S3(SYS_msync, BASE, PG, MS_SYNC | 0x20);
	S3(SYS_mincore, BASE, 2 * PG, end - 1);
	S3(SYS_mincore, BASE, 3 * PG, page);
	S2(SYS_mlock, end, 0);
	S3(SYS_mlock2, BASE, PG, 0x2);
	S1(SYS_mlockall, 0);
	S1(SYS_mlockall, 0x10);
	S5(SYS_mremap, end, PG, 2 * PG, 0x8, 0);
	S6(SYS_mbind, BASE, PG, 0x8000 | 1, end - 8, 130, 0);
	S3(SYS_set_mempolicy, 3, end - 8, 64);
	S3(SYS_set_mempolicy, 0xff, NULL, 0);
	S5(SYS_get_mempolicy, end, NULL, 0, 0, 0x10);
	S4(SYS_migrate_pages, 0, 0, NULL, NULL);
	S6(SYS_move_pages, 0, 3, end - 16, NULL, NULL, 0);
	S4(SYS_pkey_mprotect, BASE, PG, PROT_READ, -1);
	S2(SYS_pkey_alloc, 0x10, 0x7);
	S1(SYS_pkey_free, 0x7fffffff);
	S5(SYS_process_madvise, -1, end - 16, 2, MADV_COLD, 0);
	S1(SYS_memfd_secret, 0);
}

static void proc(void)
{
	S4(SYS_wait4, -1, end - 2, 0x80000000 | WNOHANG, end);
	S4(SYS_wait4, 0, NULL, 0x12345678, NULL);
	S5(SYS_waitid, 7, 0, end, WEXITED, NULL);
	S5(SYS_waitid, P_PID, 0x7fffffff, NULL, 0x1000000, end);
	S4(SYS_prlimit64, 0, RLIMIT_NOFILE, end - 8, NULL);
	S4(SYS_prlimit64, 0, 1000, NULL, end);
	S2(SYS_getrlimit, RLIM_NLIMITS + 5, end);
	S2(SYS_setrlimit, RLIMIT_CORE, at_end(16, 8));
	S2(SYS_getrusage, 5, NULL);
	S2(SYS_getrusage, RUSAGE_SELF, end - 8);
	S1(SYS_uname, end - 10);
	S1(SYS_sysinfo, NULL);
	S3(SYS_getpriority, 5, 0, 0);
	S3(SYS_setpriority, PRIO_PROCESS, 0x7ffffff0, -100);
	S5(SYS_prctl, 0x7f, 1, 2, 3, 4);
	S5(SYS_prctl, PR_SET_NAME, end - 3, 0, 0, 0);
	S5(SYS_prctl, PR_SET_PDEATHSIG, 100, 0, 0, 0);
	S5(SYS_prctl, PR_GET_PDEATHSIG, end, 0, 0, 0);
	S2(SYS_arch_prctl, 0x7777, 0);
	S2(SYS_arch_prctl, 0x1003 /* ARCH_GET_FS */, end);
	S2(SYS_capget, end - 4, NULL);
	S2(SYS_setns, -1, 0x1);
	S1(SYS_unshare, 0x80000000UL);
	S2(SYS_sched_getaffinity, 0, 0);
	S3(SYS_sched_setaffinity, 0, 128, end - 8);
	S3(SYS_sched_getattr, 0, end - 8, 56);
	S3(SYS_sched_setattr, 0, at_end(48, 8), 0);
	S2(SYS_sched_rr_get_interval, 0, end - 8);
	S2(SYS_sched_getparam, 0, end - 2);
	S3(SYS_sched_setscheduler, 0, 0x40000000 | SCHED_OTHER, end);
	S2(SYS_get_robust_list, 0x7fffffff, NULL);
	S2(SYS_set_robust_list, end, 0);
	S2(SYS_pidfd_open, 0x7fffffff, 0x1);
	S3(SYS_execve, "/nonexistent", end - 8, NULL);
	S3(SYS_execve, "/nonexistent", NULL, end);
	S5(SYS_execveat, -1, "", NULL, NULL, 0x1000 | 0x8);
	{
		char **argv = (char **)(end - 2 * sizeof(char *));
		char **envp = (char **)(page + 1536);

		argv[0] = page + 1600;
		argv[1] = page + 1610;
		strcpy(page + 1600, "prog");
		strcpy(page + 1610, "arg\n1");
		envp[0] = page + 1620;
		envp[1] = page + 1630;
		envp[2] = NULL;
		strcpy(page + 1620, "A=1");
		strcpy(page + 1630, "B=2");
		S3(SYS_execve, "/nonexistent", argv, envp);
		S3(SYS_execve, "/nonexistent", envp, end - 8);
		S3(SYS_execve, "/nonexistent", (char *)1, NULL);
	}
}

static void sig(void)
{
	struct sigaction *sa = (struct sigaction *)(page + 1024);

	memset(sa, 0, sizeof(*sa));
	sa->sa_handler = (void (*)(int))0x1234;
	sa->sa_flags = 0x7fffffff;
	memset(&sa->sa_mask, 0xff, sizeof(sa->sa_mask));
	S4(SYS_rt_sigaction, SIGUSR1, sa, NULL, 8);
	S4(SYS_rt_sigaction, SIGUSR1, at_end(32, 8), NULL, 8);
	S4(SYS_rt_sigaction, SIGUSR1, NULL, end, 8);
	S4(SYS_rt_sigaction, 0, NULL, NULL, 8);
	S4(SYS_rt_sigaction, 65, NULL, NULL, 8);
	S4(SYS_rt_sigaction, SIGUSR2, NULL, NULL, 7);
	S4(SYS_rt_sigprocmask, 5, NULL, NULL, 8);
	S4(SYS_rt_sigprocmask, SIG_BLOCK, end - 4, NULL, 8);
	S4(SYS_rt_sigprocmask, SIG_BLOCK, NULL, end, 8);
	S4(SYS_rt_sigprocmask, SIG_SETMASK, &sa->sa_mask, NULL, 16);
	S2(SYS_rt_sigpending, end, 8);
	S2(SYS_rt_sigsuspend, end - 4, 8);
	S4(SYS_rt_sigtimedwait, end - 4, NULL, NULL, 8);
	S2(SYS_sigaltstack, at_end(24, 8), end);
	S2(SYS_kill, 0, 0);
	S2(SYS_kill, 0, 100);
	S2(SYS_tkill, 0, SIGRTMIN + 3);
	S3(SYS_tgkill, -1, 0, -5);
	S3(SYS_rt_sigqueueinfo, 0, 0, end - 16);
	S4(SYS_rt_tgsigqueueinfo, 0, 0, 0, NULL);
	S3(SYS_signalfd4, -1, end - 4, 8);
	S4(SYS_signalfd4, -1, NULL, 8, 0x10);
	S4(SYS_pidfd_send_signal, -1, SIGKILL, end - 8, 1);
}

static void tim(void)
{
	struct timespec *ts = (struct timespec *)(page + 512);

	ts[0].tv_sec = 1700000000;
	ts[0].tv_nsec = 123;
	ts[1].tv_sec = -1;
	ts[1].tv_nsec = 999999999;
	ts[2].tv_sec = 0;
	ts[2].tv_nsec = 1000000000;
	S2(SYS_nanosleep, end - 8, NULL);
	S2(SYS_nanosleep, &ts[2], end);
	S2(SYS_nanosleep, NULL, NULL);
	S2(SYS_clock_gettime, 0x7fffffff, end);
	S2(SYS_clock_gettime, CLOCK_REALTIME, end - 8);
	S2(SYS_clock_getres, -10, NULL);
	S2(SYS_clock_settime, CLOCK_MONOTONIC, &ts[0]);
	S4(SYS_clock_nanosleep, CLOCK_REALTIME, 0x10, &ts[1], NULL);
	S4(SYS_clock_nanosleep, CLOCK_TAI, TIMER_ABSTIME, end, NULL);
	S2(SYS_gettimeofday, end - 8, end - 4);
	S2(SYS_settimeofday, NULL, at_end(8, 4));
	S3(SYS_setitimer, 5, NULL, NULL);
	S3(SYS_setitimer, ITIMER_REAL, at_end(32, 8), NULL);
	S2(SYS_getitimer, ITIMER_PROF, end - 16);
	S1(SYS_time, end - 4);
	S3(SYS_timer_create, CLOCK_REALTIME, end - 8, page);
	S3(SYS_timer_create, 0x7f, NULL, NULL);
	S4(SYS_timer_settime, 0x7fffffff, 0x2, at_end(32, 8), end);
	S2(SYS_timer_gettime, 0x7fffffff, end);
	S2(SYS_timerfd_create, CLOCK_BOOTTIME_ALARM + 100, 0x1);
	S4(SYS_timerfd_settime, -1, 0x8, &ts[0], end);
	S2(SYS_timerfd_gettime, -1, end);
	S1(SYS_alarm, 0);
	S4(SYS_utimensat, AT_FDCWD, "/nonexistent", at_end(32, 8), 0);
	S4(SYS_utimensat, AT_FDCWD, "/nonexistent", &ts[0], 0x1);
	S2(SYS_clock_adjtime, CLOCK_REALTIME, end - 8);
	S1(SYS_adjtimex, end - 8);
}

static void net(void)
{
	struct sockaddr_in *sin = (struct sockaddr_in *)(end - sizeof(struct sockaddr_in));
	struct sockaddr_un *sun = (struct sockaddr_un *)(page + 256);
	int *len = (int *)(page + 2048);

	sin->sin_family = AF_INET;
	sin->sin_port = htons(80);
	sin->sin_addr.s_addr = htonl(0x7f000001);
	sun->sun_family = AF_UNIX;
	memset(sun->sun_path, 'u', sizeof(sun->sun_path));
	*len = 1000;
	S3(SYS_socket, 0x7777, SOCK_STREAM, 0);
	S3(SYS_socket, AF_INET, 0xf | SOCK_CLOEXEC, 0);
	S3(SYS_socket, AF_INET, SOCK_RAW, 0xfff);
	S3(SYS_connect, -1, sin, sizeof(*sin));
	S3(SYS_connect, -1, sin, sizeof(*sin) + 8);
	S3(SYS_connect, -1, sin, 1);
	S3(SYS_connect, -1, sin, -1);
	S3(SYS_connect, -1, sun, sizeof(*sun));
	S3(SYS_connect, -1, sun, 2 + 5);
	S3(SYS_connect, -1, NULL, 16);
	S3(SYS_bind, -1, end, 16);
	S3(SYS_accept, -1, end, len);
	S4(SYS_accept4, -1, page, end - 2, 0x7);
	S6(SYS_sendto, -1, page, 5, 0x80000000 | MSG_DONTWAIT, sin, sizeof(*sin));
	S6(SYS_sendto, -1, end - 3, 5, 0, NULL, 0);
	S6(SYS_recvfrom, -1, end, 5, MSG_PEEK, page, len);
	S5(SYS_setsockopt, -1, SOL_SOCKET, SO_RCVBUF, end - 2, 4);
	S5(SYS_setsockopt, -1, 0x7777, 0x8888, page, 0xffffffff);
	S5(SYS_setsockopt, -1, SOL_SOCKET, 0x7777, NULL, 0);
	S5(SYS_getsockopt, -1, SOL_SOCKET, SO_TYPE, page, end);
	S3(SYS_sendmsg, -1, at_end(56, 8), 0);
	S3(SYS_recvmsg, -1, NULL, MSG_CMSG_CLOEXEC);
	S4(SYS_sendmmsg, -1, end - 8, 2, 0);
	S5(SYS_recvmmsg, -1, NULL, 1, 0, end - 8);
	S2(SYS_shutdown, -1, 7);
	S2(SYS_listen, -1, -1);
	S4(SYS_socketpair, AF_UNIX, SOCK_STREAM, 0, end - 4);
	S3(SYS_getsockname, -1, page, end);
}

static void pol(void)
{
	struct pollfd *pfd = (struct pollfd *)(end - 2 * sizeof(struct pollfd));
	struct epoll_event *ee = (struct epoll_event *)(page + 128);

	pfd[0].fd = 0;
	pfd[0].events = POLLIN | 0x4000;
	pfd[1].fd = -1;
	pfd[1].events = 0;
	S3(SYS_poll, pfd, 2, 0);
	S3(SYS_poll, pfd, 3, 0);
	S3(SYS_poll, NULL, 0, 0);
	S3(SYS_poll, end, 1, 0);
	S5(SYS_ppoll, pfd, 2, end - 8, NULL, 8);
	S5(SYS_select, 1, end - 4, NULL, NULL, page);
	S5(SYS_select, -1, NULL, NULL, NULL, NULL);
	S5(SYS_select, 2000, NULL, NULL, NULL, end - 8);
	S6(SYS_pselect6, 0, NULL, NULL, NULL, end - 8, NULL);
	ee->events = EPOLLIN | 0x100000;
	ee->data.u64 = 0x1122334455667788ULL;
	S4(SYS_epoll_ctl, -1, EPOLL_CTL_ADD, 0, ee);
	S4(SYS_epoll_ctl, -1, 100, 0, end - 4);
	S4(SYS_epoll_wait, -1, end, 0x7fffffff, -1000);
	S6(SYS_epoll_pwait, -1, NULL, 1, 0, end - 4, 8);
	S6(SYS_epoll_pwait2, -1, NULL, 1, end - 8, NULL, 8);
	S1(SYS_epoll_create, 0);
	S1(SYS_epoll_create1, 0x1);
}

static void ipc(void)
{
	struct sembuf *sb = (struct sembuf *)(end - sizeof(struct sembuf));

	sb->sem_num = 1;
	sb->sem_op = -1;
	sb->sem_flg = 0x7fff;
	S3(SYS_semop, -1, sb, 2);
	S3(SYS_semop, -1, sb, 1);
	S4(SYS_semtimedop, -1, NULL, 0, end - 8);
	S3(SYS_semget, 0x12345, 0, 0x7777);
	S4(SYS_semctl, -1, 0, 0x7777, 0);
	S2(SYS_msgget, 0x12345, 0x12000);
	S3(SYS_msgctl, -1, 0x7777, end);
	S4(SYS_msgsnd, -1, end - 8, 100, 0x7000);
	S5(SYS_msgrcv, -1, NULL, 0, -1L, 0x7000);
	S3(SYS_shmget, 0x12345, 0, 0x7777);
	S3(SYS_shmat, -1, end, 0x7000);
	S3(SYS_shmctl, -1, 0x7777, NULL);
	S1(SYS_shmdt, end);
	S4(SYS_mq_open, end - 3, O_RDWR | O_CREAT, 0600, end - 8);
	S1(SYS_mq_unlink, NULL);
	S5(SYS_mq_timedsend, -1, end - 3, 10, 0x7fff, end - 8);
	S2(SYS_mq_notify, -1, end - 8);
	S3(SYS_mq_getsetattr, -1, end - 16, NULL);
	S6(SYS_futex, end - 2, FUTEX_WAIT, 0, end - 8, NULL, 0);
	S6(SYS_futex, NULL, 0x7f, 1, 2, NULL, 3);
	S6(SYS_futex, NULL, FUTEX_WAKE_OP, 1, 2, NULL, 0xffffffff);
}

static void admin(void)
{
	char *s = str_at_end(4, 0);

	S3(SYS_syslog, 2, NULL, 10);
	S3(SYS_syslog, 8, page, 100);
	S3(SYS_syslog, 10, page, 1000);
	S2(SYS_sethostname, s, 8);
	S2(SYS_setdomainname, page, 65);
	S2(SYS_swapon, "/nonexistent", 0x8000 | 5);
	S2(SYS_swapon, "/nonexistent", 0);
	S1(SYS_swapoff, "/nonexistent");
	S1(SYS_acct, end);
	S4(SYS_reboot, 0, 0, 0, NULL);
	S4(SYS_reboot, 0xfee1dead, 0x12345678, 0xA1B2C3D4, s);
	S2(SYS_ustat, 0x801, end - 4);
	S1(SYS_iopl, 5);
	S3(SYS_ioperm, 0x1000000, 8, 1);
	S3(SYS_modify_ldt, 0, NULL, 0);
	S3(SYS_modify_ldt, 1, at_end(16, 4), 16);
	S3(SYS_modify_ldt, 0x11, end, 16);
	S1(SYS_get_thread_area, end);
	S1(SYS_set_thread_area, at_end(16, 4));
	S5(SYS_kcmp, 0, 0, 0, 1, 2);
	S5(SYS_kcmp, 0, 0, 7, 1, end - 4);
	S5(SYS_kcmp, 0, 0, 1, 1, 2);
	S5(SYS_kcmp, 0, 0, 100, 1, 2);
	S1(SYS_userfaultfd, 0x2);
	S2(SYS_process_mrelease, -1, 0);
	S3(SYS_landlock_create_ruleset, at_end(8, 4), 8, 0);
	S3(SYS_landlock_create_ruleset, page, 4, 0);
	S4(SYS_landlock_add_rule, -1, 1, at_end(12, 4), 0);
	S4(SYS_landlock_add_rule, -1, 2, page, 0);
	S2(SYS_landlock_restrict_self, -1, 0);
	S3(SYS_getdents, -1, end, 10);
	S2(SYS_utimes, "/nonexistent", end - 8);
	S2(SYS_utime, "/nonexistent", end - 8);
	S3(SYS_futimesat, AT_FDCWD, "/nonexistent", NULL);
}

static void newer(void)
{
	int fd;

	S3(SYS_open_tree, AT_FDCWD, "/nonexistent", 0x1 | 0x80000);
	S5(SYS_move_mount, -1, "", AT_FDCWD, "/nonexistent", 0x4);
	S2(SYS_fsopen, "nonexistentfs", 0);
	S2(SYS_fsopen, end - 2, 0x1);
	S5(SYS_fsconfig, -1, 1, "key", "value", 0);
	S5(SYS_fsconfig, -1, 2, "key", page, 4);
	S5(SYS_fsconfig, -1, 3, "key", "/", AT_FDCWD);
	S5(SYS_fsconfig, -1, 5, "key", NULL, 7);
	S5(SYS_fsconfig, -1, 6, NULL, NULL, 0);
	S3(SYS_fsmount, -1, 0, 0x30);
	S3(SYS_fspick, AT_FDCWD, "/nonexistent", 0x8);
	S5(SYS_mount_setattr, AT_FDCWD, "/nonexistent", 0x8000, at_end(32, 8), 32);
	S5(SYS_mount_setattr, -1, "", 0, page, 8);
	S2(SYS_fanotify_init, 0x4 | 0x1, O_RDONLY | O_LARGEFILE);
	S2(SYS_fanotify_init, 0, 0);
	S5(SYS_fanotify_mark, -1, 0x1, ~0ULL, AT_FDCWD, "/nonexistent");
	S5(SYS_fanotify_mark, -1, 0, 0x10, -1, NULL);
	S5(SYS_name_to_handle_at, AT_FDCWD, "/nonexistent", end - 4, page, 0);
	S3(SYS_open_by_handle_at, -1, at_end(8, 4), O_RDONLY);
	S6(SYS_process_vm_readv, 0x7fffffff, end - 16, 1, NULL, 0, 0);
	S6(SYS_process_vm_writev, 0x7fffffff, NULL, 0, end - 16, 1, 0);
	S5(SYS_futex_waitv, NULL, 0, 0, end - 8, CLOCK_MONOTONIC);
	S0(500);
	S1(SYS_tuxcall, 1);
	S2(SYS_io_setup, 0, end);
	S1(SYS_io_destroy, 0);
	S3(SYS_io_submit, 0, 1, end - 4);
	S5(SYS_io_getevents, 0, 1, 2, end, end - 8);
	S3(SYS_io_cancel, 0, end, NULL);
	S2(SYS_pivot_root, "/nonexistent", end);
	S1(SYS_uselib, "/nonexistent");
	S1(SYS__sysctl, end);
	S3(SYS_lookup_dcookie, 0x1234, end, 10);
	S5(SYS_remap_file_pages, BASE, PG, 0x10, 3, 0x7);
	S3(SYS_init_module, end - 4, 100, "x=1");
	S3(SYS_finit_module, -1, "x=1", 0x7);
	S2(SYS_delete_module, "nonexistent_mod", 0x800 | 0x200);
	S2(SYS_create_module, page, 10);
	S4(SYS_rseq, end - 8, 32, 0x2, 0x53053053);
	S4(SYS_set_mempolicy_home_node, BASE, PG, 0, 0);
	S4(SYS_quotactl, 0x80000200, "/nonexistent", 2, "/nonexistent");
	S4(SYS_quotactl, 0x80000701, "/nonexistent", -1, end);
	S4(SYS_quotactl, 0x800002, "/nonexistent", 0, end);
	S4(SYS_quotactl_fd, -1, 0x800007, 5, page);
	S2(SYS_io_uring_setup, 1, end - 8);
	S6(SYS_io_uring_enter, -1, 1, 1, 0x1, NULL, 8);
	S4(SYS_io_uring_register, -1, 0, end, 1);
	S5(SYS_add_key, "user", "desc", page, 4, 0x7fffffff);
	S5(SYS_add_key, "user", NULL, end - 2, 4, -4);
	S4(SYS_request_key, "user", "nonexistent-desc", NULL, 0);
	S5(SYS_keyctl, 0, -1, 0, 0, 0);
	S5(SYS_keyctl, 6, 123, 0, 0, 0);
	S5(SYS_keyctl, 6, -4, page, 10, 0);
	S5(SYS_keyctl, 5, -4, 0x3f010000, 0, 0);
	S5(SYS_keyctl, 14, -1, 0, 0, 0);
	S5(SYS_keyctl, 14, 100, 0, 0, 0);
	S5(SYS_keyctl, 10, -4, "user", "nonexistent-desc", 0);
	S5(SYS_keyctl, 0x7777, 1, 2, 3, 4);
	S5(SYS_perf_event_open, end - 16, 0, -1, -1, 0x8);
	{
		uint32_t *pa = (uint32_t *)(page + 3072);   /* perf_event_attr */

		memset(pa, 0, 64);
		pa[0] = 1;          /* PERF_TYPE_SOFTWARE */
		pa[1] = 64;         /* PERF_ATTR_SIZE_VER0 */
		pa[2] = 0;          /* PERF_COUNT_SW_CPU_CLOCK */
		fd = (int)S5(SYS_perf_event_open, pa, 0, -1, -1, 0x8);
		if (fd >= 0)
			S1(SYS_close, fd);
		pa[0] = 3;          /* PERF_TYPE_HW_CACHE */
		pa[2] = 0x7010102;  /* LL|WRITE<<8|MISS<<16|7<<24 */
		S5(SYS_perf_event_open, pa, -1, -1, -1, 0x10);
		pa[0] = 0x77;
		pa[1] = 60;
		S5(SYS_perf_event_open, pa, -1, -1, -1, 0);
		memset(page + 3072, 0, 64);
		fd = (int)S2(SYS_io_uring_setup, 4, page + 3072);
		if (fd >= 0) {
			int *fds = (int *)(page + 3200);

			fds[0] = 0;
			fds[1] = 1;
			S6(SYS_io_uring_enter, fd, 0, 0, 0, NULL, 8);
			S4(SYS_io_uring_register, fd, 2 /* IORING_REGISTER_FILES */, fds, 2);
			S1(SYS_close, fd);
		}
	}
	S3(SYS_bpf, 0, end - 8, 72);
	S3(SYS_bpf, 0x7777, NULL, 0);
	S4(SYS_ptrace, 0x4206, 0, 0, 0x7f);
	S4(SYS_ptrace, 0x7777, 0, end, 0);
	S4(SYS_ptrace, 3 /* PEEKUSER */, 0, 8 * 16, page);
	S4(SYS_ptrace, 3, 0, 848 + 8, page);
	S4(SYS_ptrace, 6 /* POKEUSER */, 0, 168, 0);
	S4(SYS_ptrace, 3, 0, 912, page);
	S4(SYS_ptrace, 3, 0, 1000, page);
	S4(SYS_ptrace, 2 /* PEEKDATA */, 0, page, page);
	S4(SYS_ptrace, 7 /* CONT */, 0, 0, SIGUSR1);
	S4(SYS_ptrace, 17 /* DETACH */, 0, 0, 0);
	S4(SYS_ptrace, 0x4204 /* GETREGSET */, 0, 1, end - 8);
	S4(SYS_ptrace, 0x4202 /* GETSIGINFO */, 0, 0, end);
	S4(SYS_ptrace, 0x420a /* GETSIGMASK */, 0, 8, page);
	S4(SYS_ptrace, 0x420b /* SETSIGMASK */, 0, 8, page);
	S4(SYS_ptrace, 0x4209 /* PEEKSIGINFO */, 0, page, page);
	S4(SYS_ptrace, 0x4201 /* GETEVENTMSG */, 0, 0, page);
	S4(SYS_ptrace, 16 /* ATTACH */, 0, 0, 0);
	S4(SYS_ptrace, 0x420e /* GET_SYSCALL_INFO */, 0, 88, page);
}

int main(int argc, char **argv)
{
	static const struct { const char *name; void (*fn)(void); } sections[] = {
		{ "file", file }, { "desc", desc }, { "io", io }, { "mem", mem },
		{ "proc", proc }, { "sig", sig }, { "time", tim }, { "net", net },
		{ "poll", pol }, { "ipc", ipc }, { "admin", admin }, { "new", newer },
	};
	void *m;

	m = mmap((void *)BASE, 3 * PG, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
	if (m != (void *)BASE) {
		fprintf(stderr, "edgeargs: cannot map %#lx\n", BASE);
		return 2;
	}
	page = m;
	end = page + 2 * PG;
	munmap(end, PG);
	syscall(SYS_sched_yield);
	for (size_t i = 0; i < sizeof(sections) / sizeof(sections[0]); i++)
		if (argc > 1 && !strcmp(argv[1], sections[i].name)) {
			sections[i].fn();
			return 0;
		}
	fprintf(stderr, "usage: edgeargs SECTION\n");
	return 2;
}
