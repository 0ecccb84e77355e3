/* `renacer export`: sends a saved trace to an OTLP collector (docs/otlp.md). */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cmds.h"
#include "cli/otlp_cli.h"
#include "config/config.h"
#include "replay/reader.h"
#include "otlp/otlp.h"
#include "util/error.h"
#include "util/quote.h"
#include "util/banned.h"

enum { EXPORT_OK = 0, EXPORT_FAILED = 1, EXPORT_USAGE = 1, EXPORT_MISSING = 2, EXPORT_UNREADABLE = 3 };

static const char export_usage[] =
"usage: renacer export [--otlp URL] [--otlp-protocol P] [--otlp-file FILE] TRACE\n"
"\n"
"Sends the saved trace TRACE (renacer-json-v2 or -jsonl-v2, or -v1, plain or zstd)\n"
"to an OTLP collector as one trace, with the times it was recorded at: a\n"
"span per process, thread and syscall, as a live run with --otlp sends.\n"
"\n"
"      --otlp URL             the collector (also --otlp-endpoint); default:\n"
"                             OTEL_EXPORTER_OTLP_(TRACES_)ENDPOINT, renacer.toml's\n"
"                             [otlp] endpoint, http://localhost:4318\n"
"      --otlp-protocol P      grpc, http/protobuf or http/json (port 4317: grpc)\n"
"      --otlp-file FILE       write OTLP JSON lines to FILE (alone: send nothing)\n"
"      --otlp-min-duration US span only syscalls of at least US microseconds\n"
"      --otlp-batch-size N    at most N spans a request (default 512)\n"
"      --trace-parent TP      make the trace a child of the W3C traceparent TP\n"
"\n"
"Exit status: 0 every span was accepted, 1 some were not (a warning says\n"
"why) or bad usage, 2 TRACE is missing, 3 TRACE is unreadable.\n";

static const struct option export_opts[] = {
	OTLP_CLI_LONG_OPTS,
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

int cmd_export(int argc, char **argv)
{
	struct otlp_args a;
	struct renacer_config cfg;
	struct sink_list sinks = SINK_LIST_INIT;
	struct otlp_settings s;
	struct otlp_stats st;
	struct sink *sk;
	int c, missing = 0, r;

	memset(&a, 0, sizeof(a));
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+h", export_opts, NULL)) != -1) {
		if (c == 'h') {
			fputs(export_usage, stdout);
			return EXPORT_OK;
		}
		if (c >= OPT_OTLP && c <= OPT_NO_PROPAGATE) {
			if (otlp_cli_option(&a, c, optarg) < 0)
				return EXPORT_USAGE;
			continue;
		}
		if (c == ':' || (c == '?' && optopt))
			die_status(EXPORT_USAGE, "option '%s' needs an argument (see renacer export --help)",
				   esc(argv[optind - 1]));
		die_status(EXPORT_USAGE, "unknown option '%s' (see renacer export --help)", esc(argv[optind - 1]));
	}
	if (argc - optind != 1)
		die_status(EXPORT_USAGE, "expected one TRACE (see renacer export --help)");
	/* no --otlp: the configured collector, unless only a file was asked for */
	a.force_send = !a.file || a.endpoint;
	a.no_propagate = true;
	config_init(&cfg);
	a.implicit_cfg = otlp_cli_implicit_config(&cfg);
	if (otlp_settings_resolve(&s, &a, &cfg.otlp, NULL) < 0) {
		config_release(&cfg);
		return EXPORT_USAGE;
	}
	config_release(&cfg);
	sk = otlp_sink_new(&s);
	if (sk)
		otlp_cli_say_where(&s);
	otlp_settings_release(&s);
	if (!sk)
		return EXPORT_FAILED;
	sink_list_add(&sinks, sk);
	r = trace_read(argv[optind], &sinks, NULL, &missing);
	otlp_sink_stats(sk, &st);
	sink_list_release(&sinks);
	if (r < 0)
		return missing ? EXPORT_MISSING : EXPORT_UNREADABLE;
	return st.dropped || st.rejected ? EXPORT_FAILED : EXPORT_OK;
}
