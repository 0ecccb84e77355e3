/*
 * Reading saved traces back (renacer-json-v1 as .json or .jsonl, plain or
 * zstd-compressed .zst): each syscall, signal and process record becomes an
 * event record again and goes to sinks, so every consumer works the same
 * on a live run and on a saved trace.
 */
#ifndef RENACER_READER_H
#define RENACER_READER_H

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
 * Replays the trace in path into sinks (begin, every event, end).
 * Returns 0, or -1 after error() naming the file and the position
 * ("cannot read trace 'x.json': line 3 column 7: ...") when the file is
 * missing (errno ENOENT kept in *missing when non-NULL), truncated,
 * corrupt or of another format.  meta may be NULL; else the caller frees
 * it with trace_meta_release().
 */
int trace_read(const char *path, struct sink_list *sinks, struct trace_meta *meta,
	       int *missing);
void trace_meta_release(struct trace_meta *m);

#endif
