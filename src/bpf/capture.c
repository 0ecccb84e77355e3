/*
 * What the recorder copies of each call's user memory (bpf/abi.h's capture
 * ops): what the decoders of src/sys/ read, by syscall, so that they can
 * run on the recording as they run on a stopped process.  A read the ops
 * do not cover prints as unreadable memory (the address), and is counted
 * (RENACER_EBPF_STATS=1 lists them by syscall).
 *
 * Sizes are the x86_64 kernel's.  Memory the call reads is copied at its
 * exit (the kernel has faulted it in by then: a string of a page never
 * touched before the call cannot be read at the entry) unless the call
 * changes or replaces it (execve's, select's sets, accept's length: copied
 * at the entry too).
 */
#include "bpf/capture.h"

#include <stdbool.h>
#include <string.h>

#include <linux/blkpg.h>
#include <linux/bpf.h>
#include <linux/btrfs.h>
#include <linux/kd.h>
#include <linux/kvm.h>
#include <linux/tee.h>
#include <linux/videodev2.h>
#include <scsi/sg.h>

#include "core/quals.h"
#include "sys/sysent.h"
#include "util/banned.h"

#define E RBW_ENTRY
#define X RBW_EXIT
#define XOK (RBW_EXIT | RBW_OK)
#define EX (RBW_ENTRY | RBW_EXIT)
/* input copied at the exit, and at the entry too when an entry record is
 * sent (a call that may block while other tasks run): what its entry half
 * reads when it shows before the call ends */
#define XB (RBW_EXIT | RBW_BLOCK)

/* a path (up to PATH_MAX), a string (up to the string limit) */
#define PATH(a) { RBO_STR, a, XB, RBZ_PATH, 0, 0, 0 }
#define PATH_E(a) { RBO_STR, a, E, RBZ_PATH, 0, 0, 0 }
#define PATH_ERR(a) { RBO_STR, a, RBW_EXIT | RBW_ERR, RBZ_PATH, 0, 0, 0 }
#define CSTR(a, w) { RBO_STR, a, w, RBZ_CONST, 0, 0, 0 }
/* n bytes */
#define FIX(a, w, n) { RBO_BYTES, a, w, RBZ_CONST, 0, 0, n }
/* as many bytes as argument s says (at most max when max) */
#define ARGSZ(a, w, s, max) { RBO_BYTES, a, w, RBZ_ARG, s, 0, max }
/* ... at most the string limit + 1 */
#define ARGSZL(a, w, s) { RBO_BYTES, a, w, RBZ_ARG, s, RBF_LIMIT, 0 }
/* argument s elements of n bytes */
#define ARGN(a, w, s, n) { RBO_BYTES, a, w, RBZ_ARGN, s, 0, n }
/* as many bytes as the result (at most the string limit + 1: RETSZL) */
#define RETSZ(a, w, max) { RBO_BYTES, a, w, RBZ_RET, 0, 0, max }
#define RETSZL(a, w) { RBO_BYTES, a, w, RBZ_RET, 0, RBF_LIMIT, 0 }
/* the result's count of n-byte elements */
#define RETN(a, w, n) { RBO_BYTES, a, w, RBZ_RETN, 0, 0, n }
/* as many bytes as the int at argument s says (at most max) */
#define DEREF4(a, w, s, max) { RBO_BYTES, a, w, RBZ_DEREF4, s, 0, max }
/* a NULL-ended array of pointers (n of them at most; 0: the string
 * limit + 1), and their strings with RBF_STRS */
#define PTRS(a, w, n, f) { RBO_PTRS, a, w, RBZ_CONST, 0, f, n }
/* argument s iovecs and their buffers (RBF_RET: as much as the result) */
#define IOV(a, w, s, f) { RBO_IOV, a, w, RBZ_CONST, s, f, 0 }
/* n bytes at the pointer at offset off of the structure at argument a */
#define DEREF(a, w, off, n) { RBO_DEREF, a, w, RBZ_CONST, off, 0, n }
/* ... the string limit + 1 bytes of it (a string, or bytes shown as one) */
#define DEREFL(a, w, off) { RBO_DEREF, a, w, RBZ_CONST, off, RBF_LIMIT, RB_REGION_MAX }
/* n bytes at the stack pointer of the entry */
#define SP(w, n) { RBO_SP, 0, w, RBZ_CONST, 0, 0, n }
/* what the descriptor argument a refers to (a socket's family and
 * protocol, a pipe's inode); FDM: only while other tasks run (the
 * Lamport clocks' pipe edges, core/lamport.c) */
#define SOCK(a) { RBO_FD, a, XB, RBZ_CONST, 0, 0, 0 }
#define FDM(a) { RBO_FD, a, XB, RBZ_CONST, 0, RBF_MULTI, 0 }
/* a string and a structure: whatever the decoder reads (default_ops) */
#define ANY(a) { RBO_ANY, a, XB, RBZ_CONST, 0, 0, 256 }
/* a struct msghdr and its parts (f: RBF_RET) */
#define MSG(a, w, f) { RBO_MSG, a, w, RBZ_CONST, 0, f, 1024 }
/* argument s struct mmsghdr and their parts (f: RBF_RET) */
#define MMSG(a, w, s, f) { RBO_MMSG, a, w, RBZ_CONST, s, f, 1024 }
/* a size computed from argument s: z is RBZ_PAGES, RBZ_BITS, RBZ_IOC */
#define SIZED(a, w, z, s, dflt) { RBO_BYTES, a, w, z, s, 0, dflt }

struct cap_row {
	const char *name;
	struct rb_op op[RB_OPS];
};

/* x86_64 sizes */
enum {
	SZ_STAT = 144, SZ_STATX = 256, SZ_STATFS = 120, SZ_TIMESPEC = 16,
	SZ_TIMEVAL = 16, SZ_ITIMERVAL = 32, SZ_ITIMERSPEC = 32, SZ_RLIMIT = 16,
	SZ_RUSAGE = 144, SZ_SYSINFO = 112, SZ_TMS = 32, SZ_UTSNAME = 390,
	SZ_KSIGACTION = 32, SZ_SIGINFO = 128, SZ_STACK = 24, SZ_SOCKADDR = 128,
	SZ_EPOLL_EVENT = 12, SZ_POLLFD = 8, SZ_TIMEX = 208, SZ_SCHED_ATTR = 56,
	SZ_OPEN_HOW = 24, SZ_CLONE_ARGS = 88, SZ_SIGEVENT = 64, SZ_MSGHDR = 56,
	SZ_CAP_HEADER = 8, SZ_CAP_DATA = 24, SZ_SIGFRAME = 304, SZ_FDSET = 128,
	SZ_MQ_ATTR = 64,
};

static const struct cap_row rows[] = {
	/* pointer arguments never read (the default would copy them) */
	{ "mmap", { } },
	{ "set_tid_address", { } },
	{ "set_robust_list", { } },
	{ "shmat", { } },
	{ "shmdt", { } },
	{ "rseq", { } },
	/* descriptors and files */
	{ "read", { FDM(0), RETSZL(1, X) } },
	{ "pread64", { FDM(0), RETSZL(1, X) } },
	{ "write", { FDM(0), ARGSZL(1, XB, 2) } },
	{ "pwrite64", { FDM(0), ARGSZL(1, XB, 2) } },
	{ "readv", { FDM(0), IOV(1, X, 2, RBF_RET) } },
	{ "preadv", { IOV(1, X, 2, RBF_RET) } },
	{ "preadv2", { IOV(1, X, 2, RBF_RET) } },
	{ "writev", { FDM(0), IOV(1, XB, 2, 0) } },
	{ "pwritev", { IOV(1, XB, 2, 0) } },
	{ "pwritev2", { IOV(1, XB, 2, 0) } },
	{ "vmsplice", { IOV(1, XB, 2, 0) } },
	{ "open", { PATH(0) } },
	{ "openat", { PATH(1) } },
	{ "openat2", { PATH(1), ARGSZ(2, XB, 3, 256) } },
	{ "creat", { PATH(0) } },
	{ "stat", { PATH(0), FIX(1, XOK, SZ_STAT) } },
	{ "lstat", { PATH(0), FIX(1, XOK, SZ_STAT) } },
	{ "fstat", { FIX(1, XOK, SZ_STAT) } },
	{ "newfstatat", { PATH(1), FIX(2, XOK, SZ_STAT) } },
	{ "statx", { PATH(1), FIX(4, XOK, SZ_STATX) } },
	{ "statfs", { PATH(0), FIX(1, XOK, SZ_STATFS) } },
	{ "fstatfs", { FIX(1, XOK, SZ_STATFS) } },
	{ "access", { PATH(0) } },
	{ "faccessat", { PATH(1) } },
	{ "faccessat2", { PATH(1) } },
	{ "readlink", { PATH(0), RETSZL(1, X) } },
	{ "readlinkat", { PATH(1), RETSZL(2, X) } },
	{ "getcwd", { RETSZ(0, X, 4096) } },
	{ "chdir", { PATH(0) } },
	{ "chroot", { PATH(0) } },
	{ "mkdir", { PATH(0) } },
	{ "mkdirat", { PATH(1) } },
	{ "rmdir", { PATH(0) } },
	{ "unlink", { PATH(0) } },
	{ "unlinkat", { PATH(1) } },
	{ "rename", { PATH(0), PATH(1) } },
	{ "renameat", { PATH(1), PATH(3) } },
	{ "renameat2", { PATH(1), PATH(3) } },
	{ "link", { PATH(0), PATH(1) } },
	{ "linkat", { PATH(1), PATH(3) } },
	{ "symlink", { PATH(0), PATH(1) } },
	{ "symlinkat", { PATH(0), PATH(2) } },
	{ "chmod", { PATH(0) } },
	{ "fchmodat", { PATH(1) } },
	{ "fchmodat2", { PATH(1) } },
	{ "chown", { PATH(0) } },
	{ "lchown", { PATH(0) } },
	{ "fchownat", { PATH(1) } },
	{ "truncate", { PATH(0) } },
	{ "mknod", { PATH(0) } },
	{ "mknodat", { PATH(1) } },
	{ "utime", { PATH(0), FIX(1, X, 16) } },
	{ "utimes", { PATH(0), FIX(1, X, 2 * SZ_TIMEVAL) } },
	{ "futimesat", { PATH(1), FIX(2, X, 2 * SZ_TIMEVAL) } },
	{ "utimensat", { PATH(1), FIX(2, X, 2 * SZ_TIMESPEC) } },
	{ "getdents64", { RETSZ(1, X, RB_REGION_MAX) } },
	{ "getdents", { RETSZ(1, X, RB_REGION_MAX) } },
	{ "pipe", { FIX(0, XOK, 8) } },
	{ "pipe2", { FIX(0, XOK, 8) } },
	{ "fcntl", { FIX(2, XB, 32) } },
	/* (in/out structures: read at the entry too, as their "A => B"
	 * fields need; 1 KiB at least: many numbers carry no size, or a
	 * smaller one than the structure their decoder reads (LOOP_SET_STATUS,
	 * UBI_IOCEBCH, PERF_EVENT_IOC_MODIFY_ATTRIBUTES, struct dm_ioctl's
	 * data); a page that cannot be read ends it; SIOCGIFCONF's ifc_buf:
	 * at offset 8) */
	{ "ioctl", { SIZED(2, EX, RBZ_IOC, 1, 1024), DEREF(2, XOK, 8, 1024),
		     { RBO_IOCPTR, 2, EX, RBZ_CONST, 1, 0, 0 } } },
	{ "getxattr", { PATH(0), PATH(1), RETSZL(2, X) } },
	{ "lgetxattr", { PATH(0), PATH(1), RETSZL(2, X) } },
	{ "fgetxattr", { PATH(1), RETSZL(2, X) } },
	{ "setxattr", { PATH(0), PATH(1), ARGSZL(2, X, 3) } },
	{ "lsetxattr", { PATH(0), PATH(1), ARGSZL(2, X, 3) } },
	{ "fsetxattr", { PATH(1), ARGSZL(2, X, 3) } },
	{ "listxattr", { PATH(0), RETSZL(1, X) } },
	{ "llistxattr", { PATH(0), RETSZL(1, X) } },
	{ "flistxattr", { RETSZL(1, X) } },
	{ "removexattr", { PATH(0), PATH(1) } },
	{ "lremovexattr", { PATH(0), PATH(1) } },
	{ "fremovexattr", { PATH(1) } },
	{ "sendfile", { FIX(2, EX, 8) } },
	{ "copy_file_range", { FIX(1, EX, 8), FIX(3, EX, 8) } },
	{ "splice", { FIX(1, EX, 8), FIX(3, EX, 8) } },
	{ "inotify_add_watch", { PATH(1) } },
	{ "fanotify_mark", { PATH(4) } },
	{ "memfd_create", { PATH(0) } },
	{ "mount", { PATH(0), PATH(1), PATH(2), PATH(4) } },
	{ "umount2", { PATH(0) } },
	{ "swapon", { PATH(0) } },
	{ "swapoff", { PATH(0) } },
	{ "acct", { PATH(0) } },
	{ "epoll_ctl", { FIX(3, X, SZ_EPOLL_EVENT) } },
	{ "epoll_wait", { RETN(1, X, SZ_EPOLL_EVENT) } },
	{ "epoll_pwait", { RETN(1, X, SZ_EPOLL_EVENT), FIX(4, XB, 8) } },
	{ "epoll_pwait2", { RETN(1, X, SZ_EPOLL_EVENT), FIX(3, XB, SZ_TIMESPEC), FIX(4, XB, 8) } },
	{ "poll", { ARGN(0, XB, 1, SZ_POLLFD) } },
	{ "ppoll", { ARGN(0, XB, 1, SZ_POLLFD), FIX(2, EX, SZ_TIMESPEC), FIX(3, XB, 8) } },
	{ "select", { FIX(1, EX, SZ_FDSET), FIX(2, EX, SZ_FDSET), FIX(3, EX, SZ_FDSET),
		      FIX(4, EX, SZ_TIMEVAL) } },
	{ "pselect6", { FIX(1, EX, SZ_FDSET), FIX(2, EX, SZ_FDSET), FIX(3, EX, SZ_FDSET),
			FIX(4, EX, SZ_TIMESPEC), FIX(5, XB, 16), DEREF(5, XB, 0, 8) } },
	/* processes */
	/* (a failed one read at the exit too: the kernel has faulted the path
	 * in; a successful one's strings come from the new image, see
	 * RB_EV_EXECARGS) */
	/* (a failed one's environment at its exit too: the kernel has read it,
	 * and an array on a page not there at the entry is readable only then;
	 * its arguments, constants mostly, are read later where they cannot
	 * be at the entry, see RBR_FAULT_RO: copied twice they would not fit
	 * one record) */
	{ "execve", { PATH_E(0), PTRS(1, E, 0, RBF_STRS), PTRS(2, E, 1024, 0), PATH_ERR(0),
		      PTRS(2, RBW_EXIT | RBW_ERR, 1024, 0) } },
	{ "execveat", { PATH_E(1), PTRS(2, E, 0, RBF_STRS), PTRS(3, E, 1024, 0), PATH_ERR(1),
			PTRS(3, RBW_EXIT | RBW_ERR, 1024, 0) } },
	{ "wait4", { FIX(1, XOK, 4), FIX(3, XOK, SZ_RUSAGE) } },
	{ "waitid", { FIX(2, XOK, SZ_SIGINFO), FIX(4, XOK, SZ_RUSAGE) } },
	{ "clone", { FIX(2, XOK, 4) } },
	/* (past struct clone_args, up to a page: the kernel checks those bytes
	 * are 0, the decoder shows them when not) */
	{ "clone3", { ARGSZ(0, XB, 1, 4096), DEREF(0, XOK, 8, 4), DEREF(0, XOK, 24, 4) } },
	{ "uname", { FIX(0, XOK, SZ_UTSNAME) } },
	{ "sysinfo", { FIX(0, XOK, SZ_SYSINFO) } },
	{ "times", { FIX(0, X, SZ_TMS) } },
	{ "getrusage", { FIX(1, XOK, SZ_RUSAGE) } },
	{ "getrlimit", { FIX(1, XOK, SZ_RLIMIT) } },
	{ "setrlimit", { FIX(1, X, SZ_RLIMIT) } },
	/* (new and old may be the same memory) */
	{ "prlimit64", { FIX(2, E, SZ_RLIMIT), FIX(3, XOK, SZ_RLIMIT) } },
	{ "getresuid", { FIX(0, XOK, 4), FIX(1, XOK, 4), FIX(2, XOK, 4) } },
	{ "getresgid", { FIX(0, XOK, 4), FIX(1, XOK, 4), FIX(2, XOK, 4) } },
	{ "getgroups", { RETN(1, X, 4) } },
	{ "setgroups", { ARGN(1, X, 0, 4) } },
	{ "capget", { FIX(0, EX, SZ_CAP_HEADER), FIX(1, XOK, SZ_CAP_DATA) } },
	{ "capset", { FIX(0, X, SZ_CAP_HEADER), FIX(1, X, SZ_CAP_DATA) } },
	/* (which arguments point where depends on the option or command) */
	/* (PR_SET_VMA_ANON_NAME: a string at the fifth) */
	{ "prctl", { FIX(1, XB, 16), FIX(2, XB, 16), DEREF(2, XB, 8, 4096), CSTR(4, XB) } },
	/* (KEYCTL_INSTANTIATE_IOV: 512 iovecs, -v shows them up to the
	 * first unreadable one; KEYCTL_DH_COMPUTE's struct
	 * keyctl_kdf_params: hashname, otherinfo) */
	{ "keyctl", { ANY(1), { RBO_ANY, 2, XB, RBZ_CONST, 0, 0, RB_REGION_MAX }, ANY(3), ANY(4),
		      DEREFL(4, XB, 0), DEREFL(4, XB, 8) } },
	{ "ptrace", { ANY(2), ANY(3) } },
	{ "fsconfig", { ANY(2), ANY(3) } },
	/* (read at the entry: on E2BIG the kernel writes its size back) */
	{ "perf_event_open", { FIX(0, EX, 256) } },
	/* (union bpf_attr, read at the entry too: some commands write into it;
	 * up to a page, as the kernel reads; pointer fields by ioc_ptrs, keyed
	 * on the command) */
	{ "bpf", { ARGSZ(1, EX, 2, 4096), { RBO_IOCPTR, 1, EX, RBZ_CONST, 0, 0, 0 } } },
	{ "arch_prctl", { FIX(1, XOK, 8) } },
	{ "sched_getaffinity", { RETSZ(2, X, 1024) } },
	{ "sched_setaffinity", { ARGSZ(2, X, 1, 1024) } },
	{ "sched_getparam", { FIX(1, XOK, 4) } },
	{ "sched_setparam", { FIX(1, X, 4) } },
	{ "sched_setscheduler", { FIX(2, X, 4) } },
	{ "sched_setattr", { FIX(1, X, SZ_SCHED_ATTR) } },
	{ "sched_getattr", { ARGSZ(1, XOK, 2, 256) } },
	{ "sched_rr_get_interval", { FIX(1, XOK, SZ_TIMESPEC) } },
	{ "getcpu", { FIX(0, XOK, 4), FIX(1, XOK, 4) } },
	{ "get_robust_list", { FIX(1, XOK, 8), FIX(2, XOK, 8) } },
	/* signals */
	{ "rt_sigaction", { FIX(1, X, SZ_KSIGACTION), FIX(2, XOK, SZ_KSIGACTION) } },
	{ "rt_sigprocmask", { ARGSZ(1, X, 3, 128), ARGSZ(2, XOK, 3, 128) } },
	{ "rt_sigpending", { ARGSZ(0, XOK, 1, 128) } },
	{ "rt_sigsuspend", { ARGSZ(0, XB, 1, 128) } },
	{ "rt_sigtimedwait", { ARGSZ(0, XB, 3, 128), FIX(1, XOK, SZ_SIGINFO),
			       FIX(2, XB, SZ_TIMESPEC) } },
	{ "rt_sigqueueinfo", { FIX(2, X, SZ_SIGINFO) } },
	{ "rt_tgsigqueueinfo", { FIX(3, X, SZ_SIGINFO) } },
	{ "pidfd_send_signal", { FIX(2, X, SZ_SIGINFO) } },
	{ "sigaltstack", { FIX(0, X, SZ_STACK), FIX(1, XOK, SZ_STACK) } },
	{ "rt_sigreturn", { SP(E, SZ_SIGFRAME) } },
	{ "signalfd", { ARGSZ(1, X, 2, 128) } },
	{ "signalfd4", { ARGSZ(1, X, 2, 128) } },
	/* time */
	{ "nanosleep", { FIX(0, XB, SZ_TIMESPEC), FIX(1, X, SZ_TIMESPEC) } },
	{ "clock_nanosleep", { FIX(2, XB, SZ_TIMESPEC), FIX(3, X, SZ_TIMESPEC) } },
	{ "clock_gettime", { FIX(1, XOK, SZ_TIMESPEC) } },
	{ "clock_getres", { FIX(1, XOK, SZ_TIMESPEC) } },
	{ "clock_settime", { FIX(1, X, SZ_TIMESPEC) } },
	{ "gettimeofday", { FIX(0, XOK, SZ_TIMEVAL), FIX(1, XOK, 8) } },
	{ "settimeofday", { FIX(0, X, SZ_TIMEVAL), FIX(1, X, 8) } },
	{ "time", { FIX(0, XOK, 8) } },
	{ "getitimer", { FIX(1, XOK, SZ_ITIMERVAL) } },
	{ "setitimer", { FIX(1, X, SZ_ITIMERVAL), FIX(2, XOK, SZ_ITIMERVAL) } },
	{ "timer_create", { FIX(1, X, SZ_SIGEVENT), FIX(2, XOK, 4) } },
	{ "timer_settime", { FIX(2, X, SZ_ITIMERSPEC), FIX(3, XOK, SZ_ITIMERSPEC) } },
	{ "timer_gettime", { FIX(1, XOK, SZ_ITIMERSPEC) } },
	{ "timerfd_settime", { FIX(2, X, SZ_ITIMERSPEC), FIX(3, XOK, SZ_ITIMERSPEC) } },
	{ "timerfd_gettime", { FIX(1, XOK, SZ_ITIMERSPEC) } },
	{ "adjtimex", { FIX(0, EX, SZ_TIMEX) } },
	{ "clock_adjtime", { FIX(1, EX, SZ_TIMEX) } },
	{ "futex", { FIX(3, XB, SZ_TIMESPEC) } },
	/* memory */
	{ "mincore", { SIZED(2, XOK, RBZ_PAGES, 1, 0) } },
	{ "get_mempolicy", { FIX(0, XOK, 4), SIZED(1, XOK, RBZ_BITS, 2, 0) } },
	{ "set_mempolicy", { SIZED(1, X, RBZ_BITS, 2, 0) } },
	{ "mbind", { SIZED(3, X, RBZ_BITS, 4, 0) } },
	{ "migrate_pages", { SIZED(2, X, RBZ_BITS, 1, 0), SIZED(3, X, RBZ_BITS, 1, 0) } },
	{ "getrandom", { RETSZL(0, X) } },
	{ "move_pages", { ARGN(2, XB, 1, 8), ARGN(3, XB, 1, 4), ARGN(4, X, 1, 4) } },
	{ "process_madvise", { IOV(1, XB, 2, 0) } },
	/* sock_fprog and its filter; an action (u32); notification sizes */
	{ "seccomp", { FIX(2, XB, 16), DEREF(2, XB, 8, 4096) } },
	/* network */
	{ "connect", { ARGSZ(1, XB, 2, SZ_SOCKADDR) } },
	{ "bind", { ARGSZ(1, X, 2, SZ_SOCKADDR) } },
	{ "accept", { FIX(2, EX, 4), DEREF4(1, XOK, 2, SZ_SOCKADDR) } },
	{ "accept4", { FIX(2, EX, 4), DEREF4(1, XOK, 2, SZ_SOCKADDR) } },
	{ "getsockname", { FIX(2, EX, 4), DEREF4(1, XOK, 2, SZ_SOCKADDR) } },
	{ "getpeername", { FIX(2, EX, 4), DEREF4(1, XOK, 2, SZ_SOCKADDR) } },
	{ "socketpair", { FIX(3, XOK, 8) } },
	{ "sendto", { SOCK(0), ARGSZL(1, XB, 2), ARGSZ(4, XB, 5, SZ_SOCKADDR) } },
	{ "recvfrom", { SOCK(0), RETSZL(1, X), FIX(5, EX, 4), DEREF4(4, XOK, 5, SZ_SOCKADDR) } },
	/* (SO_ATTACH_FILTER: a struct sock_fprog, its filter at offset 8;
	 * SO_GET_FILTER's length counts instructions of 8 bytes) */
	{ "setsockopt", { ARGSZ(3, X, 4, 256), DEREF(3, X, 8, 4096) } },
	{ "getsockopt", { FIX(4, EX, 4), DEREF4(3, XOK, 4, 256), FIX(3, XOK, 512) } },
	{ "sendmsg", { SOCK(0), MSG(1, XB, 0) } },
	{ "recvmsg", { SOCK(0), FIX(1, E, SZ_MSGHDR), MSG(1, X, RBF_RET) } },
	{ "sendmmsg", { SOCK(0), MMSG(1, XB, 2, 0) } },
	/* (the timeout is updated in place; msg_namelen too: its value at the
	 * entry shows as "A => B") */
	{ "recvmmsg", { SOCK(0), MMSG(1, X, 2, RBF_RET), FIX(4, EX, SZ_TIMESPEC), MMSG(1, E, 2, 0) } },
	/* messages and ipc */
	{ "mq_open", { PATH(0), FIX(3, X, SZ_MQ_ATTR) } },
	{ "mq_unlink", { PATH(0) } },
	{ "mq_getsetattr", { FIX(1, X, SZ_MQ_ATTR), FIX(2, XOK, SZ_MQ_ATTR) } },
	{ "mq_timedsend", { ARGSZL(1, XB, 2), FIX(4, XB, SZ_TIMESPEC) } },
	{ "mq_timedreceive", { RETSZL(1, X), FIX(3, XOK, 4), FIX(4, XB, SZ_TIMESPEC) } },
	{ "mq_notify", { FIX(1, X, SZ_SIGEVENT) } },
	{ "semop", { ARGN(1, XB, 2, 6) } },
	{ "semtimedop", { ARGN(1, XB, 2, 6), FIX(3, XB, SZ_TIMESPEC) } },
	{ "semctl", { FIX(3, X, 104) } },
	{ "shmctl", { FIX(2, X, 112) } },
	{ "msgctl", { FIX(2, X, 120) } },
	{ "msgsnd", { { RBO_BYTES, 1, XB, RBZ_ARG, 2, RBF_LIMIT | RBF_PLUS8, 0 } } },
	{ "msgrcv", { { RBO_BYTES, 1, X, RBZ_ARG, 2, RBF_LIMIT | RBF_PLUS8, 0 } } },
	{ "sethostname", { ARGSZ(0, X, 1, 256) } },
	{ "setdomainname", { ARGSZ(0, X, 1, 256) } },
};

/* ioctls whose argument ends in an array its first word counts */
static const struct rb_iocflex iocflex[] = {
#if defined __x86_64__ || defined __i386__
	/* struct kvm_cpuid2: nent, padding, struct kvm_cpuid_entry2[nent] */
	{ KVM_SET_CPUID2, 8, 40 },
	{ KVM_GET_SUPPORTED_CPUID, 8, 40 },
	{ KVM_GET_EMULATED_CPUID, 8, 40 },
#endif
	/* struct btrfs_ioctl_space_args: space_slots, total_spaces, then
	 * space_slots struct btrfs_ioctl_space_info */
	{ BTRFS_IOC_SPACE_INFO, 16, 24 },
};

/* pointer fields of ioctl arguments their decoders follow (x86_64
 * offsets): code, mask, pointer, count offset and bytes, per count, fixed */
static const struct rb_iocptr iocptrs[] = {
	/* struct blkpg_ioctl_arg: data, a struct blkpg_partition */
	{ BLKPG, ~0u, 16, 0, 0, 0, 0, 152 },
	/* struct tee_ioctl_buf_data: buf_ptr, buf_len bytes (the _IOR
	 * numbers of 16 bytes: OPEN_SESSION, INVOKE, SUPPL_RECV, SUPPL_SEND) */
	{ _IOR(0xa4, 0, struct tee_ioctl_buf_data), ~0xffu, 0, 8, 8, 0, 1, 0 },
	/* struct sg_io_hdr: dxferp (dxfer_len), cmdp (cmd_len), sbp (mx_sb_len);
	 * with iovec_count, dxferp's iovecs and their buffers */
	{ SG_IO, ~0u, 16, 12, 4, 0, 1, 0, 0, 0, 0 },
	{ SG_IO, ~0u, 24, 8, 1, 0, 1, 0, 0, 0, 0 },
	{ SG_IO, ~0u, 32, 9, 1, 0, 1, 0, 0, 0, 0 },
	{ SG_IO, ~0u, 16, 10, 2, 1, 16, 0, 0, 8, 0 },
	/* ...or a struct sg_io_v4 (guard 'Q'): request (request_len, as v3's
	 * dxferp above), response (max_response_len), dout_xferp
	 * (dout_xfer_len), din_xferp (din_xfer_len) */
	{ SG_IO, ~0u, 48, 44, 4, 0, 1, 0, 0, 0, 0 },
	{ SG_IO, ~0u, 72, 60, 4, 0, 1, 0, 0, 0, 0 },
	{ SG_IO, ~0u, 80, 68, 4, 0, 1, 0, 0, 0, 0 },
	/* struct unimapdesc: entries (entry_ct struct unipair) */
	{ PIO_UNIMAP & ~1u, ~1u, 8, 0, 2, 0, 4, 0 },
	/* struct consolefontdesc: chardata (charcount glyphs of 32 bytes) */
	{ PIO_FONTX, ~0u, 8, 0, 2, 0, 32, 0 },
	{ GIO_FONTX, ~0u, 8, 0, 2, 0, 32, 0 },
	/* struct console_font_op: data (charcount glyphs, up to 32x32) */
	{ KDFONTOP, ~0u, 24, 16, 4, 0, 128, 0 },
	/* struct v4l2_format's v4l2_window: clips (clipcount struct v4l2_clip) */
	{ VIDIOC_G_FMT & ~1u, ~1u, 32, 40, 4, 0, 24, 0 },
	{ VIDIOC_TRY_FMT, ~0u, 32, 40, 4, 0, 24, 0 },
	/* struct v4l2_ext_controls: controls (count struct v4l2_ext_control,
	 * packed), and what a control of a size points to (its string) */
	{ VIDIOC_G_EXT_CTRLS, ~0u, 24, 4, 4, 1, 20, 0, 12, 4, 0 },
	{ VIDIOC_S_EXT_CTRLS, ~0u, 24, 4, 4, 1, 20, 0, 12, 4, 0 },
	{ VIDIOC_TRY_EXT_CTRLS, ~0u, 24, 4, 4, 1, 20, 0, 12, 4, 0 },
	/* struct btrfs_ioctl_vol_args_v2: qgroup_inherit, a struct
	 * btrfs_qgroup_inherit (72 bytes) and its qgroups (the decoder counts
	 * them by num_qgroups, a field behind the pointer: up to 119 of them);
	 * SNAP_CREATE_V2 and SUBVOL_CREATE_V2 are numbers 23 and 24, one row
	 * for 16 to 31 (no other _IOW of 4096 bytes there) */
	{ BTRFS_IOC_SNAP_CREATE_V2 & ~0xfu, ~0xfu, 32, 0, 0, 0, 0, 1024 },
	/* struct btrfs_ioctl_send_args: clone_sources (clone_sources_count
	 * u64) */
	{ BTRFS_IOC_SEND, ~0u, 16, 8, 8, 0, 8, 0 },
	/* struct btrfs_ioctl_ino_path_args' fspath and struct
	 * btrfs_ioctl_logical_ino_args' inodes (size bytes, a struct
	 * btrfs_data_container the call fills): INO_PATHS and LOGICAL_INO are
	 * numbers 35 and 36, one row for 32 to 39 (no other _IOWR of 56 bytes
	 * there) */
	{ BTRFS_IOC_INO_PATHS & ~0x7u, ~0x7u, 48, 8, 8, 0, 1, 0 },
	/*
	 * bpf(2)'s union bpf_attr, by command (a small number no ioctl's
	 * matches): BPF_PROG_LOAD's insns (insn_cnt of 8 bytes), license,
	 * log_buf (log_size); BPF_OBJ_PIN's and BPF_OBJ_GET's pathname;
	 * BPF_OBJ_GET_INFO_BY_FD's info (info_len); BPF_PROG_QUERY's prog_ids
	 * (prog_cnt); BPF_RAW_TRACEPOINT_OPEN's name; BPF_BTF_LOAD's btf
	 * (btf_size); BPF_TASK_FD_QUERY's buf (buf_len); BPF_LINK_CREATE's
	 * iter_info (iter_info_len), kprobe_multi's syms, addrs, cookies (cnt)
	 */
	{ BPF_PROG_LOAD, ~0u, 8, 4, 4, 0, 8, 0 },
	{ BPF_PROG_LOAD, ~0u, 16, 0, 0, 0, 0, 128 },
	{ BPF_PROG_LOAD, ~0u, 32, 28, 4, 0, 1, 0 },
	{ BPF_OBJ_PIN, ~1u, 0, 0, 0, 0, 0, 4096 },
	{ BPF_OBJ_GET_INFO_BY_FD, ~0u, 8, 4, 4, 0, 1, 0 },
	{ BPF_PROG_QUERY, ~0u, 16, 24, 4, 0, 4, 0 },
	{ BPF_RAW_TRACEPOINT_OPEN, ~0u, 0, 0, 0, 0, 0, 256 },
	{ BPF_BTF_LOAD, ~0u, 0, 16, 4, 0, 1, 0 },
	{ BPF_TASK_FD_QUERY, ~0u, 16, 12, 4, 0, 1, 0 },
	{ BPF_LINK_CREATE, ~0u, 16, 24, 4, 0, 4, 0 },
	{ BPF_LINK_CREATE, ~0u, 24, 20, 4, 0, 8, 0 },
	{ BPF_LINK_CREATE, ~0u, 32, 20, 4, 0, 8, 0 },
	{ BPF_LINK_CREATE, ~0u, 40, 20, 4, 0, 8, 0 },
};

_Static_assert(sizeof(iocflex) / sizeof(iocflex[0]) <= RB_IOC_FLEX, "ioc_flex is full");
_Static_assert(sizeof(iocptrs) / sizeof(iocptrs[0]) <= RB_IOC_PTRS, "ioc_ptrs is full");

void capture_iocflex(struct rb_iocflex flex[RB_IOC_FLEX], struct rb_iocptr ptrs[RB_IOC_PTRS],
		     bool follow)
{
	memset(flex, 0, RB_IOC_FLEX * sizeof(*flex));
	for (size_t i = 0; i < sizeof(iocflex) / sizeof(iocflex[0]) && i < RB_IOC_FLEX; i++)
		flex[i] = iocflex[i];
	memset(ptrs, 0, RB_IOC_PTRS * sizeof(*ptrs));
	for (size_t i = 0; follow && i < sizeof(iocptrs) / sizeof(iocptrs[0]) && i < RB_IOC_PTRS; i++)
		ptrs[i] = iocptrs[i];
}

/* Calls that can wait for another task (a pipe, a child, a lock, time). */
static const char *const blocking[] = {
	"read", "readv", "pread64", "preadv", "preadv2", "write", "writev",
	"pwrite64", "pwritev", "pwritev2", "open", "openat", "openat2", "recvfrom",
	"recvmsg", "recvmmsg", "sendto", "sendmsg", "sendmmsg", "accept",
	"accept4", "connect", "futex", "poll", "ppoll", "select", "pselect6",
	"epoll_wait", "epoll_pwait", "epoll_pwait2", "nanosleep",
	"clock_nanosleep", "pause", "rt_sigsuspend", "rt_sigtimedwait", "wait4",
	"waitid", "msgrcv", "msgsnd", "semop", "semtimedop", "flock", "fcntl",
	"mq_timedreceive", "mq_timedsend", "io_getevents", "splice", "tee",
	"sendfile", "ioctl", "exit_group", "exit",
};
static const char *const forking[] = { "vfork", "clone", "clone3" };

static void set_bits(uint8_t *set, const char *const *names, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		long nr = sysent_lookup(names[i]);
		if (nr >= 0 && nr < RB_NR)
			set[nr / 8] |= (uint8_t)(1u << (nr & 7));
	}
}

void capture_sets(const struct rb_spec specs[RB_NR], uint8_t entry_set[RB_NR / 8],
		  uint8_t block_set[RB_NR / 8], uint8_t fork_set[RB_NR / 8])
{
	memset(entry_set, 0, RB_NR / 8);
	for (unsigned nr = 0; nr < RB_NR; nr++)
		for (int k = 0; k < RB_OPS && specs[nr].op[k].kind != RBO_END; k++)
			if (specs[nr].op[k].when & RBW_ENTRY)
				entry_set[nr / 8] |= (uint8_t)(1u << (nr & 7));
	memset(block_set, 0, RB_NR / 8);
	memset(fork_set, 0, RB_NR / 8);
	set_bits(block_set, blocking, sizeof(blocking) / sizeof(blocking[0]));
	set_bits(fork_set, forking, sizeof(forking) / sizeof(forking[0]));
}

/*
 * A call the table does not know, with a decoder: each pointer argument
 * (up to RB_OPS) is copied as a string and as a structure of up to 256
 * bytes at the exit, and at the entry when an entry record is sent.
 */
static void default_ops(struct rb_spec *spec, const struct sysent *se)
{
	unsigned k = 0;

	for (unsigned i = 0; i < se->nargs && i < 6 && k < RB_OPS; i++)
		if (se->argtype[i] == ARG_PTR)
			spec->op[k++] = (struct rb_op){ RBO_ANY, (uint8_t)i, XB, RBZ_CONST, 0, 0, 256 };
}

int capture_fill(struct rb_spec specs[RB_NR], bool verbose)
{
	bool listed[RB_NR] = { false };
	int unknown = 0;

	memset(specs, 0, RB_NR * sizeof(*specs));
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		long nr = sysent_lookup(rows[i].name);

		if (nr < 0 || nr >= RB_NR) {
			unknown++;
			continue;
		}
		memcpy(specs[nr].op, rows[i].op, sizeof(rows[i].op));
		listed[nr] = true;
		/* -v shows the environment's strings too */
		for (int k = 0; verbose && k < RB_OPS; k++)
			if (specs[nr].op[k].kind == RBO_PTRS)
				specs[nr].op[k].flags |= RBF_STRS;
	}
	for (unsigned nr = 0; nr < RB_NR; nr++) {
		const struct sysent *se = sysent_get(nr);

		if (!listed[nr] && se && se->name && se->decode)
			default_ops(&specs[nr], se);
	}
	return unknown;
}

uint32_t capture_fdpath_mask(long nr)
{
	const struct sysent *se = nr >= 0 && nr < RB_NR ? sysent_get(nr) : NULL;
	uint32_t m = 0;

	if (!se || !se->name)
		return 0;
	for (unsigned i = 0; i < se->nargs && i < 6; i++) {
		switch (se->argrole[i]) {
		case ROLE_FD:
		case ROLE_DIRFD:
			/* (gone, replaced or changed at the exit: shown as
			 * before; bind and connect, the endpoint calls that
			 * move no data, give the socket its name or peer) */
			if ((se->sem & (SEM_CLOSE | SEM_CLOSE_RANGE)) ||
			    ((se->sem & SEM_DUP2) && i == 1))
				m |= RBD_ENTRY(i);
			else if ((se->sem & SEM_ENDPOINT) && se->io_out < 0)
				/* (and after: what later calls find) */
				m |= RBD_ENTRY(i) | 1u << i;
			else
				m |= 1u << i;
			break;
		case ROLE_FDPAIR:
			m |= RBD_PAIR | (uint32_t)i << 16;
			break;
		default:
			break;
		}
	}
	if (se->sem & SEM_FDRET)
		m |= RBD_RET;
	/* (fsconfig's aux is a descriptor for some commands: FSCONFIG_SET_FD's,
	 * FSCONFIG_SET_PATH's directory; its decoder says which) */
	if (!strcmp(se->name, "fsconfig"))
		m |= 1u << 4;
	/* (and some commands return a new descriptor: ioctl's KVM_CREATE_VCPU,
	 * NS_GET_USERNS, fcntl's F_DUPFD; the decoder says which) */
	if (!strcmp(se->name, "ioctl") || !strcmp(se->name, "fcntl"))
		m |= RBD_RET;
	/* (descriptors received: SCM_RIGHTS) */
	if (!strcmp(se->name, "recvmsg"))
		m |= RBD_SCM;
	return m;
}

void capture_fdpaths(uint32_t set[RB_NR], uint8_t entry_set[RB_NR / 8])
{
	for (unsigned nr = 0; nr < RB_NR; nr++) {
		set[nr] = capture_fdpath_mask((long)nr);
		if (set[nr] & RBD_ENTRIES)
			entry_set[nr / 8] |= (uint8_t)(1u << (nr & 7));
	}
}

void capture_dumps(uint8_t kind[RB_NR])
{
	static const uint8_t of[] = {
		[D_WRITE_BUF] = RBDK_WRITE | RBDK_BUF, [D_WRITE_IOV] = RBDK_WRITE | RBDK_IOV,
		[D_WRITE_MSG] = RBDK_WRITE | RBDK_MSG, [D_READ_BUF] = RBDK_READ | RBDK_BUF,
		[D_READ_IOV] = RBDK_READ | RBDK_IOV, [D_READ_MSG] = RBDK_READ | RBDK_MSG,
	};

	for (unsigned nr = 0; nr < RB_NR; nr++) {
		enum dump_kind k = quals_dump_kind((long)nr);

		kind[nr] = (size_t)k < sizeof(of) ? of[k] : 0;
	}
}
