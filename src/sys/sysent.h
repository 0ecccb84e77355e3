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

struct sysent {
	const char *name;              /* NULL for holes in the table */
	uint8_t nargs;                 /* argument count */
	uint32_t flags;                /* TRACE_* classes */
	const char *const *argnames;   /* nargs names from the prototype */
	sys_decode_fn decode;          /* NULL: print args as strace's default */
};

/* Number of rows in the table of the build architecture (max nr + 1). */
extern const unsigned sysent_count;
extern const struct sysent sysent_table[];

/*
 * Names that the other personalities of the architecture define and it
 * lacks (i386/x32 on x86_64: "stat64", ...), sorted, NULL-terminated.
 * strace accepts them in -e trace= (they select nothing).
 */
extern const char *const sysent_compat_names[];

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
