/* The default output: strace's text format, line for line. */
#ifndef RENACER_TEXT_H
#define RENACER_TEXT_H

#include <stdbool.h>
#include <stdio.h>

#include "sink/sink.h"

/* Timestamp styles (strace's -t, -tt, -ttt). */
enum { TS_NONE = 0, TS_TIME, TS_TIME_US, TS_EPOCH_US };

struct text_opts {
	int tstamp;            /* TS_*: absolute time before each line */
	bool relative;         /* -r: time since the previous syscall entry */
	bool show_duration;    /* -T: <secs> after the result */
	bool pid_prefix;       /* "PID " before every line (-f with -o) */
	int quiet;             /* -q: 1 no attach messages; 2 also no "+++" lines */
	bool decode_fds;       /* -y: paths beside fds in results */
	bool stack_symbol_only;   /* --stack-trace=symbol: -k lines without
				     file:line (strace 6.1's form) */
};

/*
 * A sink printing every event as strace does: calls (with <unfinished ...>
 * and <... resumed> when tracees interleave), "--- SIGX {...} ---" and
 * "+++ exited with N +++" lines; a call with event.source ends in
 * " [file:line in function]" and one with event.stack_trace is followed by
 * its stack in strace -k's format (srcloc.h).  Writes to path atomically when path is
 * non-NULL, else to out.  Returns NULL after error() if path can't be made.
 * It relies on the engine's promise that an EV_SYSCALL_ENTRY event stays
 * valid until the EV_SYSCALL of the same thread (see sink.h).
 */
struct sink *text_sink_new(FILE *out, const char *path, const struct text_opts *o);

#endif
