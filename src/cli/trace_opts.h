/* Options of the trace command, shared with capture/validate. */
#ifndef RENACER_TRACE_OPTS_H
#define RENACER_TRACE_OPTS_H

#include <stdbool.h>
#include <sys/types.h>

#include "core/tracer.h"
#include "otlp/otlp.h"
#include "sink/sink.h"
#include "sys/filter.h"

enum { FMT_TEXT = 0, FMT_JSON, FMT_JSONL, FMT_CSV };

struct trace_opts {
	bool follow, decode_fds, verbose, show_duration, relative;
	bool summary, summary_only, wall, timing, no_seccomp;
	bool help, version, anti_patterns, format_given;
	int tstamp, quiet, format, sort;
	unsigned string_limit;
	const char *output;
	const char *assert_file, *assert_format;
	pid_t *pids;
	size_t npids, apids;
	struct trace_filter filter;
	struct otlp_args otlp;  /* --otlp and friends (cli/otlp_cli.h) */
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
