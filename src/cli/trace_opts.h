/* Options of the trace command, shared with capture/validate. */
#ifndef RENACER_TRACE_OPTS_H
#define RENACER_TRACE_OPTS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "core/tracer.h"
#include "config/config.h"
#include "dwarf/dwarf.h"
#include "dwarf/skip.h"
#include "otlp/otlp.h"
#include "sink/sink.h"
#include "sink/text.h"
#include "sys/filter.h"
#include "sys/qualify.h"
#include "core/quals.h"
#include "core/setup.h"
#include "util/strbuf.h"

enum { FMT_TEXT = 0, FMT_JSON, FMT_JSONL, FMT_CSV };
enum { STACK_NONE = 0, STACK_SOURCE, STACK_SYMBOL };  /* -k, --stack-trace=symbol */

/* --backend: the engine that runs the trace (cli/backend.c). */
enum { BACKEND_AUTO = 0, BACKEND_PTRACE, BACKEND_EBPF };
/* Exit status when --backend ebpf was asked for and cannot run here. */
#define EXIT_NO_BACKEND 6

struct trace_opts {
	bool follow, decode_fds, verbose, show_duration, relative;
	bool summary, summary_only, wall, timing, no_seccomp;
	bool help, version, anti_patterns, format_given;
	int tstamp, quiet, format, sort;
	int backend;            /* BACKEND_* */
	bool no_pin;            /* --no-pin */
	bool seccomp_given;     /* --seccomp-bpf given (the filter asked for) */
	bool have_cpus;         /* --cpu LIST given */
	cpu_set_t cpus;         /* that LIST (core/cpus.h) */
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
	struct otlp_args otlp;  /* --otlp and friends (cli/otlp_cli.h) */
	char **argv;            /* the command (NULL-terminated) */
	int argc;

	/* strace's other options (src/cli/strace_opts.c) */
	struct text_opts text;  /* -a -i -n -r -t -T -x -X -e raw= -e signal= */
	unsigned quiet_mask;    /* QUIET_* after -q/-e quiet= and the defaults */
	bool output_separately; /* -ff / --output-separately: FILE.PID */
	bool append;            /* -A */
	uint64_t signal_set;    /* -e signal=: bit n-1 is signal n */
	uint8_t *raw_set;       /* -e raw=: NULL none */
	uint8_t *abbrev_set;    /* -e abbrev=: NULL all (the default) */
	uint8_t *verbose_set;   /* -e verbose=: NULL all (the default) */
	struct numset read_fds, write_fds;  /* -e read=, -e write= */
	unsigned fd_details;    /* -yy / -e decode-fds=: DECODE_FD_* */
	unsigned decode_pids;   /* -Y, --pidns-translation, --decode-pids=:
				   DECODE_PID_* */
	bool kvm_vcpu;          /* -e kvm=vcpu / --kvm=vcpu */
	const char **paths;     /* -P PATH... */
	size_t npaths, apaths;
	char **env_changes;     /* -E VAR=VAL / -E VAR, in order */
	size_t nenv, aenv;
	const char *user;       /* -u USERNAME */
	bool detach_on_execve;  /* -b execve */
	int daemonize;          /* -D count or --daemonize=: 0..3 */
	int interruptible;      /* -I: 1..4 after the defaults */
	uint64_t overhead_ns;   /* -O */
	bool overhead_given;
	const char *columns;    /* -U: summary columns, as given */
	struct inject_set *inject; /* -e inject= / -e fault= (core/inject.h) */
	int debug;              /* -d */
	/* made from the above by strace_opts_quals() */
	struct pathset *pathset;   /* -P */
	struct run_as run_as;      /* -u */
	struct run_setup setup;    /* -E: the command's environment */
	struct trace_quals quals;  /* what tracer_opts.quals points to */
	struct strbuf summary_text; /* -C: the table the text sink prints last */
};

/*
 * Parses strace-style options up to the command.  Returns 0 or -1 after
 * error().  t->argv points into argv.  Release with trace_opts_release().
 */
int trace_opts_parse(struct trace_opts *t, int argc, char **argv);
void trace_opts_release(struct trace_opts *t);
/* Fills tracer options from t (pointers into t stay owned by t). */
void trace_opts_to_tracer(const struct trace_opts *t, struct tracer_opts *o);
/*
 * Whether t needs stacks unwound (-s, -k, --function-time, flame graphs).
 * Inline here so that cli/backend.c, which trace_cmd.c calls, need not
 * call back into trace_cmd.c.
 */
static inline bool trace_opts_wants_stacks(const struct trace_opts *t)
{
	return t->source || t->stack_trace || t->function_time || t->flamegraph ||
	       t->flamegraph_svg || t->speedscope;
}
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
int trace_opts_add_sinks(struct trace_opts *t, struct sink_list *sinks);

struct renacer_config;

/*
 * Runs the trace of t with the engine --backend selects: ptrace, or the
 * eBPF back end (bpf/engine.h) when asked for, or under auto when nothing
 * requested needs a record of each call (see docs/architecture.md).  An
 * auto choice the machine cannot honour falls back to ptrace with one
 * warning; an explicit --backend ebpf that cannot serve the options
 * returns -1 with end->exit_code 1, one that cannot run here -1 with
 * EXIT_NO_BACKEND (after one error line; nothing ran, no sink began: the
 * caller releases them, which removes their temporary files).  cfg holds the --assert configuration (may be empty).  Returns as
 * tracer_run().
 */
int trace_run(const struct trace_opts *t, const struct tracer_opts *o,
	      const struct renacer_config *cfg, struct sink_list *sinks,
	      struct trace_end *end);

/*
 * What trace_run() would refuse of an explicit --backend ebpf whatever the
 * sinks (-p, -P, -e inject=, -u, -D, -b), said before anything is
 * started (-D splits the process first: a refusal after that would leave
 * the command waiting).  Returns 0, or -1 after error().
 */
int trace_backend_precheck(const struct trace_opts *t);

#endif
