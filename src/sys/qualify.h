/*
 * strace 6.1's -e qualifiers other than trace= and status= (those are in
 * sys/filter.h): signal=, read=, write=, quiet=, decode-fds=, and the
 * syscall-set qualifiers abbrev=, verbose=, raw=.  Same syntax (a comma
 * list, leading '!' inverting, "all", "none"), same acceptance and the
 * same error wording ("invalid signal 'FOO'").
 */
#ifndef RENACER_QUALIFY_H
#define RENACER_QUALIFY_H

#include <stdbool.h>
#include <stdint.h>

/* strace's -e quiet= messages. */
enum {
	QUIET_ATTACH = 1 << 0,        /* "Process N attached/detached" */
	QUIET_EXIT = 1 << 1,          /* "+++ exited with N +++" */
	QUIET_PATH_RESOLVE = 1 << 2,  /* "Requested path ... resolved into ..." */
	QUIET_PERSONALITY = 1 << 3,   /* "[ Process PID=N runs in 32 bit mode. ]" */
	QUIET_THREAD_EXECVE = 1 << 4, /* "+++ superseded by execve in pid N +++" */
	QUIET_ALL = 31,
};

/*
 * A set of non-negative numbers (descriptors for -e read=/write=): the
 * listed numbers, or all but them when invert.  numset_has() answers for
 * any number.  NUMSET_INIT is the empty set.
 */
struct numset {
	uint64_t *bits;          /* owned; bit n of word n / 64 */
	unsigned nwords;
	bool invert;
};
#define NUMSET_INIT { NULL, 0, false }

bool numset_has(const struct numset *s, uint64_t n);
/* True when no number at all is in s (the set is "none"). */
bool numset_empty(const struct numset *s);
void numset_release(struct numset *s);

/*
 * -e read=SET / -e write=SET: descriptors (decimal numbers).  Replaces *s.
 * Returns 0, or -1 after error("invalid descriptor 'x'").
 */
int qualify_fds(struct numset *s, const char *spec);

/*
 * -e signal=SET: names with or without "SIG" in any case (INT, sigint,
 * SIGRTMIN, RT_3) or numbers 1..64; bit n-1 of *mask is signal n.
 * Returns 0, or -1 after error("invalid signal 'x'").
 */
int qualify_signals(uint64_t *mask, const char *spec);

/* -e quiet=SET: QUIET_* bits from attach, exit(s),
 * path-resolution, personality, thread-execve (or superseded).
 * Returns 0, or -1 after error("invalid quiet 'x'"). */
int qualify_quiet(unsigned *mask, const char *spec);

/* -e decode-fds=SET (path, socket, dev, pidfd): DECODE_FD_* bits of
 * sys/decode.h.  Returns 0, or -1 after error("invalid decode-fds 'x'"). */
int qualify_decode_fds(unsigned *mask, const char *spec);
/* -e decode-pids= / --decode-pids=: pidns, comm, all, none -> DECODE_PID_*. */
int qualify_decode_pids(unsigned *mask, const char *spec);

/*
 * -e abbrev=, verbose=, raw=: a syscall set in the syntax of -e trace=,
 * as a bitmap over syscall numbers (*set is allocated, or replaced).
 * Returns 0, or -1 after error("invalid system call 'x'").
 */
int qualify_syscalls(uint8_t **set, const char *spec);

/*
 * Time values as strace reads -O, --syscall-times and inject delays: a
 * decimal number (fractions allowed) with an optional unit s, ms, us or
 * ns; default_ns is the unit when none is given (1000 for microseconds).
 * Returns 0 with *ns set, or -1 (no message).
 */
int parse_time_ns(const char *s, uint64_t default_ns, uint64_t *ns);

/* A precision name s, ms, us or ns as its number of fraction digits
 * (0, 3, 6, 9); -1 for anything else (no message). */
int parse_precision(const char *s);

#endif
