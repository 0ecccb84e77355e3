/*
 * strace's -e qualifier language for the syscall set (trace=) and the
 * status filter (status=): parsed into a bitmap over syscall numbers that
 * the tracer and the seccomp filter use.
 */
#ifndef RENACER_FILTER_H
#define RENACER_FILTER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sys/sysent.h"

/*
 * -e status= bits: which finished syscalls are reported.  Parsed here, used
 * by the engines (tracer_opts.status_mask of core/tracer.h).
 */
enum {
	STATUS_SUCCESSFUL = 1 << 0,
	STATUS_FAILED = 1 << 1,
	STATUS_UNFINISHED = 1 << 2,
	STATUS_UNAVAILABLE = 1 << 3, /* return value could not be read */
	STATUS_DETACHED = 1 << 4,    /* tracee detached inside the call */
	STATUS_ALL = 31,             /* every bit above */
	STATUS_NONE = 1 << 5,        /* status=none: no bit above (0 means all) */
};

/*
 * The selection made by -e trace= and -e status=.  filter_init() traces
 * everything with every status; each parse replaces the previous set of the
 * same kind (as strace does: `-e trace=openat -e trace=close` traces close).
 *
 * set has a bit per number below sysent_count (bit nr & 7 of byte nr >> 3).
 * Numbers without a row (holes, and every number >= sysent_count) are always
 * traced, whatever the set, as strace traces them: their bits are set, and
 * trace_set_has() answers true beyond the table.
 */
struct trace_filter {
	uint8_t *set;            /* owned; filter_set_bytes() bytes */
	uint8_t *cset[3];        /* [PERS_32], [PERS_X32] of sys/compat.h: the
				    calls of those personalities (@32, @x32),
				    by their own numbers; owned; [0] unused */
	bool all;                /* every syscall is traced: no seccomp needed */
	unsigned status_mask;    /* STATUS_* above; never 0 */
};

/* Bytes of a trace set bitmap: ceil(sysent_count / 8). */
size_t filter_set_bytes(void);

/* Fills f: every syscall, every status (STATUS_ALL). */
void filter_init(struct trace_filter *f);
/* Frees f->set and leaves f empty. */
void filter_release(struct trace_filter *f);

/*
 * Parses the value of -e trace=SPEC (or --trace=SPEC) into f->set,
 * replacing the previous set.  SPEC is "all", "none", or a comma list of
 * syscall names, numbers below sysent_count, classes ("%file", "%net",
 * legacy "file", "all"), and /REGEX (POSIX extended, unanchored, matched
 * against names); any number of leading '!' invert the whole set; a '?'
 * before an element ignores it when it names nothing; an element ending in
 * @64, @32 or @x32 applies to that personality only (the others' calls
 * are in f->cset, see sys/compat.h).  Returns 0, or -1
 * after error() naming the element as typed: "invalid system call 'opnat'",
 * "invalid regular expression '/[': ...".  On error f->set is unspecified
 * (but valid).
 */
int filter_trace(struct trace_filter *f, const char *spec);

/*
 * Parses the value of -e status=SPEC (or --status=SPEC): "all", "none", or
 * a comma list of successful, failed, unfinished, unavailable, detached
 * (any case), with leading '!' inverting.  Replaces f->status_mask (an
 * empty selection is STATUS_NONE).  Returns 0, or -1 after error():
 * "invalid status 'foo'".
 */
int filter_status(struct trace_filter *f, const char *spec);

/*
 * Parses the argument of -e: "trace=SPEC", "t=SPEC", "status=SPEC", or a
 * bare SPEC (a trace set, as strace reads "-e openat" and "-e foo=bar").
 * Returns 0 when handled, -1 after error(), or 1 (f untouched) when expr
 * starts with another strace qualifier ("abbrev=", "a=", "verbose=", "v=",
 * "raw=", "x=", "signal=", "signals=", "s=", "read=", "reads=", "r=",
 * "write=", "writes=", "w=", "fault=", "inject=", "quiet=", "silent=",
 * "silence=", "q=", "decode-fds=", "decode-fd=", "decode-pids=",
 * "decode-pid=", "kvm=", "secontext=", "trace-fds=", "trace-fd=", "fd=",
 * "fds=") for the caller to handle.
 */
int filter_qualifier(struct trace_filter *f, const char *expr);

/* The bitmap for tracer_opts.trace_set: NULL when every syscall is traced. */
static inline const uint8_t *filter_trace_set(const struct trace_filter *f)
{
	return f->all ? NULL : f->set;
}

/*
 * Whether the i386 (PERS_32) or x32 (PERS_X32) call pers_nr is traced under
 * the personality's set cset (NULL: all); true beyond the table.
 */
bool compat_set_has(const uint8_t *cset, int pers, long pers_nr);

/* Whether nr is traced under set (NULL: all); true for numbers without a row. */
static inline bool trace_set_has(const uint8_t *set, long nr)
{
	if (!set || nr < 0 || (unsigned long)nr >= sysent_count)
		return true;
	return set[nr >> 3] & (1u << (nr & 7));
}

#endif
