/*
 * The OpenTelemetry options of the trace command (and of capture/validate
 * through it): their getopt table entries, their parsing, and the sink
 * they add.  Kept apart from trace_cmd.c so that its option table only
 * gains one line.
 */
#ifndef RENACER_OTLP_CLI_H
#define RENACER_OTLP_CLI_H

#include <stdbool.h>

#include "otlp/otlp.h"
#include "sink/sink.h"

struct renacer_config;

/* getopt_long values of the options (clear of the other option enums). */
enum {
	OPT_OTLP = 2000, OPT_OTLP_PROTOCOL, OPT_OTLP_FILE, OPT_OTLP_MIN_DURATION,
	OPT_OTLP_BATCH_SIZE, OPT_TRACE_PARENT, OPT_NO_PROPAGATE,
};

/* The entries of struct option long_opts[]. */
#define OTLP_CLI_LONG_OPTS \
	{ "otlp", required_argument, NULL, OPT_OTLP }, \
	{ "otlp-endpoint", required_argument, NULL, OPT_OTLP }, \
	{ "otlp-protocol", required_argument, NULL, OPT_OTLP_PROTOCOL }, \
	{ "otlp-file", required_argument, NULL, OPT_OTLP_FILE }, \
	{ "otlp-min-duration", required_argument, NULL, OPT_OTLP_MIN_DURATION }, \
	{ "otlp-batch-size", required_argument, NULL, OPT_OTLP_BATCH_SIZE }, \
	{ "trace-parent", required_argument, NULL, OPT_TRACE_PARENT }, \
	{ "no-propagate", no_argument, NULL, OPT_NO_PROPAGATE }

/* The --help lines. */
#define OTLP_CLI_USAGE \
"OpenTelemetry (docs/otlp.md):\n" \
"      --otlp URL             send spans to an OTLP collector (also\n" \
"                             --otlp-endpoint); port 4317 means gRPC\n" \
"      --otlp-protocol P      grpc, http/protobuf or http/json\n" \
"      --otlp-file FILE       write the spans as OTLP JSON lines to FILE\n" \
"      --otlp-min-duration US span only syscalls of at least US microseconds\n" \
"                             (process spans still count every call)\n" \
"      --otlp-batch-size N    at most N spans a request (default 512)\n" \
"      --trace-parent TP      make the run a child of the W3C traceparent TP\n" \
"                             (default: $TRACEPARENT)\n" \
"      --no-propagate         do not set TRACEPARENT for the command\n"

/*
 * Handles option opt (one of the OPT_OTLP* values) with argument arg.
 * Returns 1 when handled, 0 when opt is not one of them, -1 after error()
 * for a bad value.
 */
int otlp_cli_option(struct otlp_args *a, int opt, const char *arg);

/*
 * Adds the OTLP sink when the options, the environment or cfg's [otlp]
 * (cfg may be NULL) ask for export; with set_env, puts TRACEPARENT (the
 * command's process span) into renacer's environment for the command to
 * inherit.  Returns 0 (nothing to add is 0 too) or -1 after error().
 */
int otlp_cli_add_sink(const struct otlp_args *a, const struct renacer_config *cfg,
		      bool set_env, struct sink_list *sinks);

/*
 * Says where the spans go, in one line on stderr, when s sends them over
 * the network: "renacer: OTLP export to 'URL' (PROTOCOL, endpoint from
 * WHO)".  Every export does, so that none is silent.
 */
void otlp_cli_say_where(const struct otlp_settings *s);

/*
 * Reads ./renacer.toml (when it exists) into cfg for its [otlp] table,
 * quietly: the trace command never asked for the file, so a broken one is
 * one warning and the defaults.  Returns true when cfg was filled: set
 * otlp_args.implicit_cfg then, for the file is not trusted to turn export
 * on (docs/ci.md).
 */
bool otlp_cli_implicit_config(struct renacer_config *cfg);

struct golden_opts;
/*
 * renacer compare of two span exports (Jaeger, OTLP JSON): tolerances from
 * go, gfmt a GFMT_* of golden/output.h.  Returns compare's exit status.
 */
int otlp_cli_compare(const struct golden_opts *go, int gfmt, const char *before,
		     const char *after);

#endif
