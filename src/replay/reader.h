/*
 * Reading saved traces back (renacer-json-v1 as .json or .jsonl, plain or
 * zstd-compressed .zst): each syscall, signal and process record becomes an
 * event record again and goes to sinks, so every consumer works the same
 * on a live run and on a saved trace.
 */
#ifndef RENACER_REPLAY_READER_H
#define RENACER_REPLAY_READER_H

#include "sink/sink.h"

/* Extra facts a saved trace carries beyond its events. */
struct trace_meta {
	char *version;         /* renacer version that wrote it */
	char *command;         /* the traced command line, or NULL */
	int exit_code;
	int term_signal;
	uint64_t wall_ns;
	void *timing;          /* golden timing statistics (json_t *), or NULL */
};

/*
 * Replays the trace in path into sinks (begin, every event, end).  Every
 * member the format documents is checked against its type in
 * docs/trace-format.md (an integer, a number, a string, null where allowed
 * ...); unknown members are ignored.
 * Returns 0, or -1 after error() naming the file and the position
 * ("cannot read trace 'x.json': line 3 column 7: ...") when the file is
 * missing (errno ENOENT kept in *missing when non-NULL), truncated,
 * corrupt or of another format.  meta may be NULL; else the caller frees
 * it with trace_meta_release().
 */
int trace_read(const char *path, struct sink_list *sinks, struct trace_meta *meta,
	       int *missing);

/*
 * Bounds on what reading one trace may hold in memory ([limits] of
 * renacer.toml); a field left 0 takes its default (config.h LIMIT_*).
 *
 * string_bytes: a JSON string longer than this (decoded bytes) is cut at
 * that length and "...<N bytes, cut to M>" appended, N being its true
 * length, before it is parsed: a 100 MB argument costs 64 KiB.
 * records: syscalls, processes, signals and other records of one trace;
 * one more is an error.
 *
 * Fixed bounds besides: a record (a syscall, a jsonl line) holds at most
 * TRACE_MAX_RECORD bytes once its strings are cut, a top-level member of a
 * renacer-json-v1 document (processes, signals) TRACE_MAX_MEMBER bytes.
 */
struct trace_limits {
	uint64_t string_bytes;
	uint64_t records;
};
#define TRACE_MAX_RECORD (4u << 20)
#define TRACE_MAX_MEMBER (64u << 20)

/* trace_read() within lim (NULL: the defaults). */
int trace_read_limited(const char *path, struct sink_list *sinks, struct trace_meta *meta,
		       int *missing, const struct trace_limits *lim);
void trace_meta_release(struct trace_meta *m);

#endif
