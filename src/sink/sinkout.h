/*
 * Plumbing shared by the sinks of sinks.h: where a sink writes (a stream,
 * or a file made complete-or-absent), per-syscall counts in flat memory, and
 * the JSON records that json.c and jsonl.c both write.
 */
#ifndef RENACER_SINKOUT_H
#define RENACER_SINKOUT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "event.h"
#include "sink/sink.h"
#include "util/atomicfile.h"
#include "util/strbuf.h"

/* An output: a caller's stream, or a path written through a temp file. */
struct sinkout {
	FILE *fp;                /* where to write */
	struct atomicfile af;    /* in use when path was given */
	bool atomic;
	char *name;              /* for messages: the path or "<stdout>" */
	pid_t pipe_pid;          /* -o '|cmd': the command reading fp, or 0 */
};

/*
 * Sets up o on path or on out; -1 after error() when path fails.  A path
 * that is a regular file or does not exist is written atomically; one that
 * exists as something else (/dev/null, /dev/stderr, a FIFO) is opened as is.
 */
int sinkout_open(struct sinkout *o, FILE *out, const char *path);
/*
 * As sinkout_open on a path, but what the file already holds is copied
 * first, so that the trace is appended (strace -A) and the file is still
 * replaced whole at sinkout_close.  -1 after error().
 */
int sinkout_open_append(struct sinkout *o, const char *path);
/*
 * Starts "/bin/sh -c command" with a pipe on its standard input and writes
 * there (strace's -o '|command'); sinkout_close waits for it.  The write end
 * is close-on-exec, so tracees never hold it.  -1 after error().
 */
int sinkout_open_pipe(struct sinkout *o, const char *command);
/* Writes sb's bytes and empties sb. */
void sinkout_put(struct sinkout *o, struct strbuf *sb);
/* Flushes (and renames into place); -1 after error() on a write failure. */
int sinkout_close(struct sinkout *o);
/* Drops the output: a temp file is removed, a stream is left alone. */
void sinkout_abort(struct sinkout *o);

/* One row of per-syscall counts. */
struct sc_count {
	char *name;              /* NULL while calls == 0 */
	long nr;                 /* syscall number, or -1 */
	uint64_t calls;          /* completed calls (and unfinished, see below) */
	uint64_t errors;
	uint64_t unfinished;     /* of calls, how many never returned */
	uint64_t time_ns;        /* sum of durations */
	uint64_t min_ns, max_ns;
};

/*
 * Counts by syscall: a fixed table indexed by number (no allocation per
 * event; one name copy per distinct syscall), plus a short list for numbers
 * outside it (looked up by name).
 */
#define SC_COUNTS_NR 1024
struct sc_counts {
	struct sc_count *tab;    /* SC_COUNTS_NR rows */
	struct sc_count *extra;  /* nr < 0 or >= SC_COUNTS_NR */
	size_t nextra, aextra;
	uint64_t calls, errors, unfinished, time_ns;
};

void sc_counts_init(struct sc_counts *c);
void sc_counts_release(struct sc_counts *c);
/* Adds one call; unfinished calls count in calls and unfinished. */
void sc_counts_add(struct sc_counts *c, long nr, const char *name, bool failed,
		   bool unfinished, uint64_t ns);
/* Adds calls calls at once (totals from an engine that counts in the
 * kernel): errors and unfinished of them, ns in all, the shortest and the
 * longest; nothing when calls is 0. */
void sc_counts_add_many(struct sc_counts *c, long nr, const char *name, uint64_t calls,
			uint64_t errors, uint64_t unfinished, uint64_t ns, uint64_t min_ns,
			uint64_t max_ns);
/* Adds an engine's totals as the JSON summary counts records: unfinished
 * calls included in calls, wall-clock time (0 when not measured). */
void sc_counts_add_totals(struct sc_counts *c, const struct trace_totals *tt);
/* The rows with calls > 0 (caller frees the array, not the rows). */
struct sc_count **sc_counts_rows(const struct sc_counts *c, size_t *n);

/* True when the summary table (as strace -c) counts this syscall event. */
bool sc_counted_by_strace(const struct event *ev);

/* Appends ns as microseconds with three decimals ("1234.567"). */
void add_us(struct strbuf *sb, uint64_t ns);

/* Appends the rendered text of v (strace's format for one value). */
void add_val_text(struct strbuf *sb, const struct val *v);

/*
 * JSON records, appended to sb without a trailing newline.  Each is one
 * object; jsonl passes a "type" (written first) and json passes NULL.
 * tmp is scratch space (so that no record allocates once buffers are warm).
 */
void json_add_syscall(struct strbuf *sb, struct strbuf *tmp, const struct event *ev,
		      const char *type);
void json_add_signal(struct strbuf *sb, struct strbuf *tmp, const struct event *ev,
		     const char *type);
/* The "command" array (null when argv is NULL). */
void json_add_argv(struct strbuf *sb, char *const *argv);
/* The summary object ({"total_syscalls": ...}); "type" as above. */
void json_add_summary(struct strbuf *sb, const struct sc_counts *c,
		      const struct trace_end *te, const char *type);

#endif
