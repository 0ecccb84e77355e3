/* Options of the trace command, shared with capture/validate. */
#ifndef RENACER_TRACE_OPTS_H
#define RENACER_TRACE_OPTS_H

#include <stdbool.h>
#include <stdio.h>
#include <sys/types.h>

#include "core/tracer.h"
#include "sink/sink.h"
#include "sys/filter.h"

enum { FMT_TEXT = 0, FMT_JSON, FMT_JSONL, FMT_CSV };

struct trace_opts {
	bool follow, decode_fds, verbose, show_duration, relative;
	bool summary, summary_only, wall, timing, no_seccomp;
	bool help, version, anti_patterns, format_given;
	int tstamp, quiet, format, sort;
	unsigned string_limit;
	const char *output;     /* -o FILE; NULL for stderr or stdout */
	bool out_stdout;        /* the trace goes to stdout: -o -, or a machine
				   format without -o */
	bool output_given;      /* -o was given (FILE or -) */
	bool summary_given;     /* -c or -C was given */
	FILE *out_fp;           /* stdout's stream for the trace (set by
				   cmd_trace when the command's stdout moves) */
	const char *assert_file, *assert_format;
	pid_t *pids;
	size_t npids, apids;
	struct trace_filter filter;
	char **argv;            /* the command (NULL-terminated) */
	int argc;
};

/*
 * Parses strace-style options up to the command.  Returns 0 or -1 after
 * error().  t->argv points into argv.  Release with trace_opts_release().
 */
int trace_opts_parse(struct trace_opts *t, int argc, char **argv);
void trace_opts_release(struct trace_opts *t);
/* Fills tracer options from t (pointers into t stay owned by t). */
void trace_opts_to_tracer(const struct trace_opts *t, struct tracer_opts *o);
/* Adds the output sinks t asks for; 0 or -1 after error(). */
int trace_opts_add_sinks(const struct trace_opts *t, struct sink_list *sinks);

#endif
