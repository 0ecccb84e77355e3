/*
 * The syscall table: one row per syscall number of an architecture,
 * generated at build time from the kernel headers (numbers from
 * asm/unistd_64.h, argument names and counts from include/linux/syscalls.h,
 * classes from src/sys/classes.in, decoders from SYS_FUNC() definitions).
 */
#ifndef RENACER_SYSENT_H
#define RENACER_SYSENT_H

#include <stdint.h>

struct dctx;
struct event;

/*
 * A decoder is called at the entry stop with exiting == 0 and fills the
 * arguments it can decode at entry; it returns RVAL_DONE when the event is
 * complete at entry (output then needs only the return value) or
 * RVAL_EXIT to be called again at the exit stop (exiting == 1) to decode
 * output arguments (and to set ev->rv_fmt / ev->ret_aux).
 */
typedef int (*sys_decode_fn)(struct dctx *ctx, struct event *ev, int exiting);
enum { RVAL_DONE = 0, RVAL_EXIT = 1 };

#define SYS_FUNC_NAME(name) sys_decode_##name
#define SYS_FUNC(name) int SYS_FUNC_NAME(name)(struct dctx *ctx, struct event *ev, int exiting)

/* Syscall classes (as strace's %file, %desc, ...). */
enum {
	TRACE_FILE = 1 << 0,     /* %file: takes a file name */
	TRACE_DESC = 1 << 1,     /* %desc: takes or returns a descriptor */
	TRACE_NETWORK = 1 << 2,  /* %network (%net) */
	TRACE_PROCESS = 1 << 3,  /* %process */
	TRACE_MEMORY = 1 << 4,   /* %memory */
	TRACE_SIGNAL = 1 << 5,   /* %signal */
	TRACE_IPC = 1 << 6,      /* %ipc */
	TRACE_CREDS = 1 << 7,    /* %creds */
	TRACE_CLOCK = 1 << 8,    /* %clock */
	TRACE_STAT = 1 << 9,     /* %stat */
	TRACE_LSTAT = 1 << 10,   /* %lstat */
	TRACE_FSTAT = 1 << 11,   /* %fstat */
	TRACE_STAT_LIKE = 1 << 12, /* %%stat */
	TRACE_STATFS = 1 << 13,  /* %statfs */
	TRACE_FSTATFS = 1 << 14, /* %fstatfs */
	TRACE_STATFS_LIKE = 1 << 15, /* %%statfs */
	TRACE_PURE = 1 << 16,    /* %pure: no args, never fails */
};

/*
 * How the kernel reads an argument register: the width of the argument's C
 * type in the kernel prototype and its signedness.  The kernel's syscall
 * wrappers cast each 64-bit register to that type, so junk in the upper
 * bits of an int never reaches the kernel; decoders see the argument the
 * same way (ev->karg, filled by sysent_kernel_args).  Generated from the
 * C types by scripts/gen_sysent.pl.
 */
enum arg_type {
	ARG_U64 = 0,  /* unsigned long, size_t, u64, aio_context_t */
	ARG_S64,      /* long, off_t, loff_t */
	ARG_PTR,      /* any pointer */
	ARG_S32,      /* int, pid_t, clockid_t, key_t, mqd_t, timer_t, rwf_t, ... */
	ARG_U32,      /* unsigned int, u32, uid_t, gid_t, qid_t, enums */
	ARG_U16,      /* umode_t */
};

/* Bits of an argument of type t the kernel reads: 64, 32 or 16. */
static inline unsigned arg_type_bits(uint8_t t)
{
	return t == ARG_U16 ? 16 : (t == ARG_S32 || t == ARG_U32) ? 32 : 64;
}

/* True for the signed C types (int, pid_t, long, off_t). */
static inline int arg_type_signed(uint8_t t)
{
	return t == ARG_S32 || t == ARG_S64;
}

/*
 * What a syscall does (src/sys/semantics.in), for the consumers after the
 * engine: the process/descriptor tracker, golden traces, assertions, Lamport
 * clocks, co-location.  Every one of them reads this table; none keeps a
 * list of syscall names of its own.
 */
enum {
	SEM_BLOCKING = 1 << 0,    /* waits for something outside the thread */
	SEM_SLEEP = 1 << 1,       /* sleeps on purpose (nanosleep...) */
	SEM_SYNC = 1 << 2,        /* waits for durability (fsync...) */
	SEM_VOLATILE = 1 << 3,    /* how often it is called is random by nature */
	SEM_MEM = 1 << 4,         /* memory management */
	SEM_MAP = 1 << 5,         /* commits or releases memory (mmap, brk...) */
	SEM_CLONE = 1 << 6,       /* creates a process or thread */
	SEM_EXEC = 1 << 7,        /* replaces the program */
	SEM_EXIT = 1 << 8,        /* ends the thread or process (never returns) */
	SEM_WAIT = 1 << 9,        /* reaps a child (wait4, waitid) */
	SEM_PIDRET = 1 << 10,     /* the result is a process or thread id */
	SEM_CHDIR = 1 << 11,      /* changes the working directory */
	SEM_FDRET = 1 << 12,      /* the result is a new descriptor */
	SEM_FDPAIR = 1 << 13,     /* two new descriptors in its ROLE_FDPAIR array */
	SEM_DUP = 1 << 14,        /* the new descriptor copies the first fd argument */
	SEM_DUP2 = 1 << 15,       /* the new descriptor is the newfd argument */
	SEM_CLOSE = 1 << 16,      /* closes its fd argument */
	SEM_CLOSE_RANGE = 1 << 17, /* closes a range of descriptors */
	SEM_FCNTL = 1 << 18,      /* fcntl: F_DUPFD returns a copy */
	SEM_OPEN = 1 << 19,       /* opens its first path argument */
	SEM_CREATE = 1 << 20,     /* creates its last path argument */
	SEM_MKDIR = 1 << 21,      /* ... a directory */
	SEM_DELETE = 1 << 22,     /* deletes its first path argument */
	SEM_RENAME = 1 << 23,     /* deletes the first path, creates the second */
	SEM_ENDPOINT = 1 << 24,   /* its socket address names an endpoint reached */
	SEM_VFORK = 1 << 25,      /* the child borrows the parent's memory */
	SEM_LOOKUP = 1 << 26,     /* looks its first path argument up (stat...) */
	SEM_DEVCTL = 1 << 27,     /* a request to the driver of its fd (ioctl) */
	SEM_PROGRESS = 1 << 28,   /* reads a stream forward (getdents): a result
				     > 0 is progress, as io_in/io_out calls' */
	SEM_THREADSYNC = 1 << 29, /* threads waiting on each other (futex...) */
};

/* How a call changes the address space (src/sys/semantics.in's "mem"). */
enum mem_op {
	MEMOP_NONE = 0,
	MEMOP_MAP,                /* the result is a new mapping of length, with
				     prot and flags (mmap) */
	MEMOP_UNMAP,              /* releases [addr, addr + len) */
	MEMOP_REMAP,              /* moves [addr, addr + old_len) to the result,
				     new_len long (mremap) */
	MEMOP_PROTECT,            /* sets the prot of [start, start + len) */
	MEMOP_BRK,                /* the result is the program break */
};

/* What an argument is (derived from the prototype, src/sys/semantics.in). */
enum arg_role {
	ROLE_NONE = 0,
	ROLE_FD,                  /* a descriptor */
	ROLE_DIRFD,               /* a directory descriptor a path is relative to */
	ROLE_PATH,                /* a file name */
	ROLE_PID,                 /* a process or thread id */
	ROLE_SOCKADDR,            /* a struct sockaddr */
	ROLE_MSGHDR,              /* a struct msghdr (its msg_name is a sockaddr) */
	ROLE_ARGV,                /* execve's argument vector */
	ROLE_ENVP,                /* execve's environment */
	ROLE_FDPAIR,              /* an int[2] the call fills with descriptors */
};

/* What a descriptor refers to. */
enum fd_kind {
	FDK_UNKNOWN = 0,
	FDK_FILE,                 /* a regular file (memfd too) */
	FDK_DIR,                  /* a directory */
	FDK_DEVICE,               /* a character or block device (/dev/null...) */
	FDK_TTY,                  /* a terminal */
	FDK_PIPE,                 /* a pipe or FIFO */
	FDK_SOCKET,
	FDK_EVENTFD,
	FDK_TIMERFD,
	FDK_SIGNALFD,
	FDK_EPOLL,
	FDK_INOTIFY,              /* inotify or fanotify */
	FDK_PIDFD,
	FDK_ANON,                 /* another anonymous inode (perf, io_uring, bpf...) */
	FDK_NKINDS,
};

/* Name of an fd kind ("file", "pipe", ...). */
const char *fd_kind_name(int kind);

struct sysent {
	const char *name;              /* NULL for holes in the table */
	uint8_t nargs;                 /* argument count */
	uint32_t flags;                /* TRACE_* classes */
	const char *const *argnames;   /* nargs names from the prototype */
	sys_decode_fn decode;          /* NULL: print args as strace's default */
	uint8_t argtype[6];            /* enum arg_type of each argument */
	uint32_t sem;                  /* SEM_* */
	uint8_t argrole[6];            /* enum arg_role of each argument */
	int8_t io_in, io_out;          /* the argument whose descriptor the call
					  reads from / writes to (the result
					  counts the bytes), -1 for none */
	uint8_t retkind;               /* enum fd_kind of a returned descriptor */
	uint8_t memop;                 /* enum mem_op */
};

/* The semantics of syscall nr (0 for unknown numbers). */
static inline uint32_t sysent_sem(const struct sysent *se)
{
	return se ? se->sem : 0;
}

/* Number of rows in the table of the build architecture (max nr + 1). */
extern const unsigned sysent_count;
extern const struct sysent sysent_table[];

/*
 * Names that the other personalities of the architecture define and it
 * lacks (i386/x32 on x86_64: "stat64", ...), sorted, NULL-terminated.
 * strace accepts them in -e trace= (they select nothing).
 */
extern const char *const sysent_compat_names[];

/*
 * The arguments as the kernel saw them: each raw register cut to the width
 * of its C type (se->argtype) and zero-extended, so (int)karg[i] is an int
 * argument, karg[i] an unsigned or a 64-bit one, and flags of an int show
 * the 32 bits the kernel reads.  se NULL (an unknown number): karg = raw.
 */
void sysent_kernel_args(const struct sysent *se, const uint64_t raw[6], uint64_t karg[6]);

/* Row for nr, or NULL when nr is out of range or a hole. */
const struct sysent *sysent_get(long nr);

/* Number of the syscall called name, or -1. */
long sysent_lookup(const char *name);

/*
 * Class bit for "%file" etc. (with the '%'), or 0 when unknown.  Accepts
 * what strace 6.1 accepts: the classes of enum TRACE_*, "%net" for
 * "%network", and the legacy names without '%' ("desc", "file", "memory",
 * "process", "signal", "ipc", "network").  "all" is not a class: 0.
 */
uint32_t sysent_class_by_name(const char *name);

/*
 * Name of syscall nr as strace prints it: the row's name, or
 * "syscall_0x1d3" (lowercase hex of nr as unsigned long) for numbers
 * without a row.  Returns either a static string or buf.
 */
const char *sysent_name(long nr, char buf[32]);

#endif
