/* Options of the trace command, shared with capture/validate. */
#ifndef RENACER_TRACE_OPTS_H
#define RENACER_TRACE_OPTS_H

#include <stdbool.h>
#include <stdio.h>
#include <sys/types.h>

#include "core/tracer.h"
#include "config/config.h"
#include "dwarf/dwarf.h"
#include "dwarf/skip.h"
#include "sink/sink.h"
#include "sys/filter.h"

enum { FMT_TEXT = 0, FMT_JSON, FMT_JSONL, FMT_CSV };
enum { STACK_NONE = 0, STACK_SOURCE, STACK_SYMBOL };  /* -k, --stack-trace=symbol */

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
	/* source correlation (docs/source.md) */
	bool source;            /* -s, --source */
	int stack_trace;        /* -k: STACK_* */
	bool function_time;     /* --function-time */
	bool flamegraph_count;  /* --flamegraph-weight count */
	const char *flamegraph, *flamegraph_svg, *speedscope;  /* or NULL */
	const char **skip;      /* --source-skip patterns, in order */
	size_t nskip, askip;
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
/* Whether t needs stacks unwound (-s, -k, --function-time, flame graphs). */
bool trace_opts_wants_stacks(const struct trace_opts *t);
/*
 * When t needs stacks, a new unwinder (free with dwarf_free()) plugged into
 * o as its enrich hook, with *d set; else *d = NULL.  Its frames of "own
 * code" are the built-in defaults unless cs (renacer.toml's [source], may
 * be NULL) says default_skip = false, then cs's patterns, then
 * --source-skip's.  Add dwarf_sink_new() of it last to the run's sinks.
 * Returns 0, or -1 after error() for a pattern that does not compile.
 */
int trace_opts_dwarf(const struct trace_opts *t, const struct config_source *cs,
		     struct tracer_opts *o, struct dwarf **d);
/* Adds the output sinks t asks for; 0 or -1 after error(). */
int trace_opts_add_sinks(const struct trace_opts *t, struct sink_list *sinks);

#endif
