/*
 * strace's options that the engine applies while tracing, beyond -e trace=
 * and -e status=: -P, -e signal=, -e abbrev=/verbose=, -e read=/write=,
 * -e inject=, -i, -b execve, and how the command is started (-E, -u, -D).
 * The CLI fills one struct trace_quals and points tracer_opts.quals at it;
 * the engine calls the functions below at fixed points (each says where).
 */
#ifndef RENACER_QUALS_H
#define RENACER_QUALS_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "event.h"
#include "sys/decode.h"

struct pathset;     /* core/pathtrace.h */
struct inject_set;  /* core/inject.h */
struct numset;      /* sys/qualify.h */

/* -u USERNAME: who the command runs as (core/startup.h). */
struct run_as {
	const char *name;
	uid_t uid;
	gid_t gid;
};

struct trace_quals {
	bool want_ip;                    /* -i: fill event.ip */
	bool signal_filter;              /* -e signal= was given */
	uint64_t signal_set;             /* ...: bit n-1 shows signal n */
	const uint8_t *abbrev_set;       /* -e abbrev=: NULL all (-v: none) */
	const uint8_t *verbose_set;      /* -e verbose=: NULL all */
	const uint8_t *compat_set[3];    /* -e trace=...@32 / @x32: [PERS_32],
					    [PERS_X32] (trace_filter.cset);
					    NULL traces all of them */
	const struct numset *read_fds;   /* -e read=: NULL none */
	const struct numset *write_fds;  /* -e write=: NULL none */
	const struct pathset *paths;     /* -P: NULL traces every path */
	const struct inject_set *inject; /* -e inject=/fault=: NULL none */
	bool detach_on_execve;           /* -b execve */
	const struct run_as *user;       /* -u: NULL runs as renacer */
	int daemonize;                   /* -D count (1..3), 0 none */
	pid_t daemon_tracee;             /* -D: the process that will exec the
					    command (core/startup.h); the
					    engine seizes it instead of
					    starting argv */
	int interruptible;               /* -I (1..4), 0 for renacer's default */
};

/*
 * At a traced syscall's entry, before it is marked as reported: false when
 * -P leaves it out.  args are the raw registers.
 */
bool quals_entry_wanted(const struct trace_quals *q, pid_t pid, pid_t tid,
			long nr, const uint64_t *args);

/*
 * At a syscall entry: false when nr is a call of another personality
 * (sys/compat.h) that -e trace=...@32/@x32 leaves out.
 */
bool quals_compat_traced(const struct trace_quals *q, long nr);

/*
 * The row of nr when it is a call of another personality (its name and
 * argument count), or NULL; *pers is its PERS_* (PERS_64 when NULL).
 */
struct compat_sysent;
const struct compat_sysent *quals_compat_call(long nr, int *pers);

/*
 * The decoding options for syscall nr: base, or a copy in *tmp with
 * verbose (no abbreviation) or no_deref set by -e abbrev= / -e verbose=.
 */
const struct decode_opts *quals_dopts(const struct trace_quals *q,
				      const struct decode_opts *base, long nr,
				      struct decode_opts *tmp);

/* Whether an EV_SIGNAL for sig is delivered to the sinks (-e signal=). */
bool quals_signal_shown(const struct trace_quals *q, int sig);

/*
 * At a reported syscall's exit, after its decoder: with -e read=/write=,
 * copies the data the call moved through a descriptor of the sets into
 * ev->dumps (memory from c->arena), as strace's dumpio.  What it keeps is
 * bounded whatever the call claims: a buffer is read 64 KiB at a time up
 * to its first unreadable chunk (where strace's dump stops too), and a
 * call keeps at most IODUMP_MAX_BYTES bytes in IODUMP_MAX_BUFS buffers
 * (event.h);
 * the entry where a limit was reached is marked capped.
 */
void quals_dumpio(const struct trace_quals *q, struct dctx *c, struct event *ev);

/* How call nr moves data, for quals_dumpio(): the buffer of a write-like
 * (arg1, arg2 bytes) or read-like call (arg1, the result), an iovec array
 * (arg1, arg2 of them), a struct msghdr (arg1), mmsghdr vectors. */
enum dump_kind {
	D_NONE = 0,
	D_WRITE_BUF,    /* write, pwrite64, sendto, mq_timedsend: arg1, arg2 bytes */
	D_WRITE_IOV,    /* writev, pwritev, pwritev2, vmsplice: iov arg1, count arg2 */
	D_WRITE_MSG,    /* sendmsg */
	D_WRITE_MMSG,   /* sendmmsg */
	D_READ_BUF,     /* read, pread64, recvfrom, mq_timedreceive: arg1, retval */
	D_READ_IOV,     /* readv, preadv, preadv2 */
	D_READ_MSG,     /* recvmsg */
	D_READ_MMSG,    /* recvmmsg */
};
enum dump_kind quals_dump_kind(long nr);

#endif
