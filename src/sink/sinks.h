/*
 * Constructors of the structured-output sinks (JSON, JSON Lines, CSV) and
 * of the strace -c summary table.  The formats are documented in
 * docs/trace-format.md.
 */
#ifndef RENACER_SINKS_H
#define RENACER_SINKS_H

#include <stdbool.h>
#include <stdio.h>

#include "sink/sink.h"

/* -S keys of the summary table (strace's sortby names). */
enum summary_sort {
	SORT_TIME = 0,    /* "time" (default): total time, descending */
	SORT_CALLS,       /* "calls": descending */
	SORT_ERRORS,      /* "errors": descending */
	SORT_NAME,        /* "name": ascending */
	SORT_AVG_TIME,    /* "avg-time": time per call, descending */
	SORT_MIN_TIME,    /* "min-time": shortest call, descending */
	SORT_MAX_TIME,    /* "max-time": longest call, descending */
	SORT_NOTHING,     /* "nothing": by syscall number */
};

/* Columns of the summary table (strace's -U names). */
enum summary_column {
	COL_END = 0,      /* ends a list shorter than COL_MAX */
	COL_TIME_PERCENT, /* "% time" */
	COL_TOTAL_TIME,   /* "seconds" */
	COL_MIN_TIME,     /* "shortest" */
	COL_MAX_TIME,     /* "longest" */
	COL_AVG_TIME,     /* "usecs/call" */
	COL_CALLS,        /* "calls" */
	COL_ERRORS,       /* "errors" */
	COL_NAME,         /* "syscall" */
	COL_MAX,
};

/* Options shared by the sinks in this header; zeroed means defaults. */
struct sink_opts {
	enum summary_sort sort;  /* -S: row order of the summary table */
	bool cpu_time;           /* summary: time is event.cpu_ns (strace -c's
				    default, system time); else wall-clock (-w) */
	bool timing;             /* --timing: the summary adds per-syscall times in ms
				    and the wall time after the table */
	uint8_t columns[COL_MAX];  /* -U: the table's columns in order, COL_END
				      after the last; all COL_END: strace's
				      default (% time, seconds, usecs/call,
				      calls, errors, syscall) */
	uint64_t overhead_ns;    /* -O: subtracted from each call's time
				    (never below 0) */
	bool source;             /* -s: CSV adds a "source" column (file:line in function) */
	bool function_profile;   /* --function-time: JSON and JSON Lines add the
				    function_profile object (sink/profile.h) */
	bool no_stack;           /* JSON: leave out "stack" even where events carry
				    one (a golden keeps the sources only) */
};

/*
 * Parses -U COLUMNS as strace 6.1 does (time-percent, total-time, min-time,
 * max-time, avg-time, calls, errors, name and their aliases; the name
 * column is added last when missing) into cols (may be NULL to check only).
 * Returns 0, or -1 after error(): "unknown column name: 'x'", "call summary
 * column has been provided more than once: 'calls' (-U option residual:
 * 'calls')".
 */
int summary_columns_parse(const char *spec, uint8_t cols[COL_MAX]);

/*
 * Parses a -S key as strace does ("time", "calls", "name", "errors",
 * "avg-time", "min-time", "max-time", "nothing" and their aliases such as
 * "count", "syscall", "time_total").  Returns the SORT_* value, or -1 for an
 * unknown key (no message printed).
 */
int summary_sort_parse(const char *key);

/*
 * Each constructor returns a sink ready for sink_list_add().  The sink
 * writes to path when path is non-NULL (through a temporary file renamed at
 * end(), so the file is complete or absent; out is then ignored), else
 * streams to out (not closed; flushed at end()).  With path, a failure to
 * create the temporary file gives NULL after error().  end() returns -1
 * after error() when a write failed.  o may be NULL.
 */

/* --format json: one renacer-json-v2 document, syscalls streamed. */
struct sink *json_sink_new(FILE *out, const char *path, const struct sink_opts *o);

/* --format jsonl: renacer-jsonl-v2, one object per line, flat memory. */
struct sink *jsonl_sink_new(FILE *out, const char *path, const struct sink_opts *o);

/* --format csv: a header row and one row per syscall (RFC 4180). */
struct sink *csv_sink_new(FILE *out, const char *path, const struct sink_opts *o);

/*
 * -c / --summary: strace's -c table, printed at end() to out (or path).
 * Memory stays flat: counts live in a fixed table indexed by syscall number.
 */
struct sink *summary_sink_new(FILE *out, const char *path, const struct sink_opts *o);

/*
 * The same table appended to dst at end() instead (strace -C writes it
 * into the trace's own output: a text sink added after this one prints dst
 * last, see text_opts.trailer).  dst must outlive the sink.
 */
struct strbuf;
struct sink *summary_sink_new_buf(struct strbuf *dst, const struct sink_opts *o);

#endif
