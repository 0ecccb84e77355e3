/* The default output: strace's text format, line for line. */
#ifndef RENACER_TEXT_H
#define RENACER_TEXT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "sink/sink.h"

/* Timestamp styles (strace's -t, -tt, -ttt); kept for callers that count
 * -t options: text_opts_tstamp() turns them into ts_format/ts_digits. */
enum { TS_NONE = 0, TS_TIME, TS_TIME_US, TS_EPOCH_US };

/* Formats of the absolute timestamp (--absolute-timestamps=format:...). */
enum { TSF_NONE = 0, TSF_TIME, TSF_UNIX };

struct text_opts {
	int ts_format;         /* TSF_*: absolute time before each line */
	int ts_digits;         /* its fraction: 0 (s), 3 (ms), 6 (us), 9 (ns) */
	bool relative;         /* -r: time since the previous line */
	int rel_digits;        /* -r precision (6 by default) */
	bool show_duration;    /* -T: <secs> after the result */
	int dur_digits;        /* -T precision (6 by default) */
	bool pid_prefix;       /* "PID " before every line (-f with -o) */
	bool no_pid;           /* never a pid prefix, not even "[pid N] " (-ff) */
	unsigned quiet;        /* QUIET_* bits of sys/qualify.h (QUIET_EXIT:
				  no "+++ exited" lines) */
	bool decode_fds;       /* -y: paths beside fds in results */
	unsigned acolumn;      /* -a: column of "= result" (strace's 40) */
	bool show_nr;          /* -n: "[ 257] " syscall number */
	bool show_ip;          /* -i: "[00007f...] " instruction pointer */
	int xstyle;            /* enum render_xstyle (-x, -xx) */
	int xlat;              /* enum render_xlat (-X) */
	const uint8_t *raw_set;  /* -e raw=: syscalls shown undecoded (bitmap
				    over numbers, NULL none); not copied */
	uint64_t signal_set;   /* -e signal=: bit n-1 shows signal n in
				    "+++ killed by" lines (~0: all) */
	const struct strbuf *trailer; /* printed after the last line at end()
				    (-C: the summary table, in the same
				    output as strace writes it); may be NULL */
	bool stack_symbol_only;   /* --stack-trace=symbol: -k lines without
				     file:line (strace 6.1's form) */
};

/* Fills o with strace's defaults (column 40, precision us, all signals). */
void text_opts_init(struct text_opts *o);

/* Sets the absolute timestamp as -t, -tt, -ttt (count 1..3) would. */
void text_opts_tstamp(struct text_opts *o, int count);

/*
 * A sink printing every event as strace does: calls (with <unfinished ...>
 * and <... resumed> when tracees interleave), "--- SIGX {...} ---" and
 * "+++ exited with N +++" lines, hex dumps of -e read=/write= and the
 * (INJECTED) marks; a call with event.source ends in " [file:line in
 * function]" and one with event.stack_trace is followed by its stack in
 * strace -k's format (srcloc.h).  Writes to path atomically when path is
 * non-NULL, else to out.  With append, an existing file at path is kept and
 * the trace added after it (still written through a temporary file).
 * Returns NULL after error() if path can't be made.  It relies on the
 * engine's promise that an EV_SYSCALL_ENTRY event stays valid until the
 * EV_SYSCALL of the same thread (see sink.h).
 */
struct sink *text_sink_new(FILE *out, const char *path, const struct text_opts *o);
struct sink *text_sink_new_append(const char *path, const struct text_opts *o);

/*
 * -ff / --output-separately: one text file per traced task, "PATH.TID",
 * each without pid prefixes, each complete or absent (committed when its
 * task exits or at the end of the trace).  append keeps what the files
 * held (-A).  Returns NULL after error() only for a bad path.
 */
struct sink *text_sink_new_split(const char *path, bool append, const struct text_opts *o);

/*
 * -o '|command' or -o '!command': the trace is piped to command run by
 * /bin/sh (its exit is waited for at the end).  Returns NULL after error()
 * when the command cannot be started.
 */
struct sink *text_sink_new_pipe(const char *command, const struct text_opts *o);

#endif
