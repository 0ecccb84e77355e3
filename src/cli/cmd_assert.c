/*
 * `renacer assert`: evaluates renacer.toml's assertions on a saved trace;
 * `renacer analyze`: runs every anti-pattern detector on a saved trace.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "assert/assert.h"
#include "cli/cmds.h"
#include "config/config.h"
#include "replay/reader.h"
#include "util/error.h"
#include "util/quote.h"
#include "util/strbuf.h"
#include "util/banned.h"

/* Exit statuses shared with the golden commands (docs/assertions.md). */
enum {
	EXIT_OK = 0,
	EXIT_VIOLATED = 1,
	EXIT_USAGE = 1,
	EXIT_MISSING = 2,
	EXIT_UNREADABLE = 3,
	EXIT_BAD_CONFIG = 5,
};

static const char assert_usage[] =
"usage: renacer assert [--config FILE] [--assert-format text|json|junit] TRACE\n"
"\n"
"Evaluates the [[assertion]] entries of FILE (default renacer.toml) on the\n"
"saved trace TRACE (.json, .jsonl, plain or .zst).  Exit status: 0 all held,\n"
"1 an assertion with fail_on_violation = true failed, 2 TRACE missing,\n"
"3 TRACE unreadable, 5 bad configuration, 7 the report could not be written.\n";

static const char analyze_usage[] =
"usage: renacer analyze [--format text|json] TRACE\n"
"\n"
"Runs every anti-pattern detector (TightLoop, GodProcess, PCIeBottleneck,\n"
"UnbufferedIO, RedundantFileAccess) on the saved trace TRACE and prints\n"
"what each found.  Exit status: 0, or 2 TRACE missing, 3 TRACE unreadable,\n"
"7 the report could not be written.\n";

/*
 * Replays path into a new analysis within lim (NULL: the defaults); exits
 * 2/3 when it cannot be read.
 */
static struct analysis *analyze_file(const char *path, const struct trace_limits *lim)
{
	struct analysis *an = analysis_new();
	struct sink_list sinks = SINK_LIST_INIT;
	int missing = 0;

	sink_list_add(&sinks, analysis_sink_new(an));
	if (trace_read_limited(path, &sinks, NULL, &missing, lim) < 0) {
		sink_list_release(&sinks);
		analysis_free(an);
		exit(missing ? EXIT_MISSING : EXIT_UNREADABLE);
	}
	sink_list_release(&sinks);
	return an;
}

int cmd_assert(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "config", required_argument, NULL, 'c' },
		{ "assert-format", required_argument, NULL, 'F' },
		{ "format", required_argument, NULL, 'F' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *config = NULL;
	int fmt = OUT_TEXT, c;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+c:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'c':
			config = optarg;
			break;
		case 'F':
			fmt = output_format_parse(optarg);
			if (fmt < 0)
				die_status(EXIT_USAGE, "unknown assertion format '%s' "
					   "(expected text, json or junit)", esc(optarg));
			break;
		case 'h':
			fputs(assert_usage, stdout);
			return EXIT_OK;
		default:
			die_status(EXIT_USAGE, "assert: unknown or incomplete option '%s'\n%s",
				   esc(argv[optind - 1]), assert_usage);
		}
	}
	if (argc - optind != 1)
		die_status(EXIT_USAGE, "assert: expected one trace file\n%s", assert_usage);
	const char *trace = argv[optind];

	struct stat st;
	if (!config) {
		config = "renacer.toml";
		if (stat(config, &st) < 0)
			die_status(EXIT_BAD_CONFIG, "no configuration: 'renacer.toml' not found "
				   "(use --config FILE)");
	}
	struct renacer_config cfg;
	if (config_load(config, &cfg) < 0)
		exit(EXIT_BAD_CONFIG);

	struct trace_limits lim = { cfg.limits.string_bytes, cfg.limits.trace_records };
	struct analysis *an = analyze_file(trace, &lim);
	/* a golden's file says which trace it is (golden_traces/NAME.json) */
	struct strbuf name = STRBUF_INIT;
	const char *base = strrchr(trace, '/');
	strbuf_addstr(&name, base ? base + 1 : trace);
	for (const char *ext = ".zst"; ext; ext = strcmp(ext, ".zst") ? NULL : ".json")
		if (name.len > strlen(ext) && !strcmp(name.buf + name.len - strlen(ext), ext))
			strbuf_setlen(&name, name.len - strlen(ext));
	if (name.len > 6 && !strcmp(name.buf + name.len - 6, ".jsonl"))
		strbuf_setlen(&name, name.len - 6);
	int r = assert_report(&cfg, name.buf, an, (enum output_format)fmt, stdout, trace);
	strbuf_release(&name);
	analysis_free(an);
	config_release(&cfg);
	if (r == ASSERT_WRITE_FAILED) {
		cli_write_failed();
		exit(EXIT_WRITE_FAILED);
	}
	if (r < 0)
		exit(EXIT_BAD_CONFIG);
	return r ? EXIT_VIOLATED : EXIT_OK;
}

int cmd_analyze(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "format", required_argument, NULL, 'F' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int fmt = OUT_TEXT, c;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+h", longopts, NULL)) != -1) {
		switch (c) {
		case 'F':
			fmt = output_format_parse(optarg);
			if (fmt != OUT_TEXT && fmt != OUT_JSON)
				die_status(EXIT_USAGE, "unknown analyze format '%s' (expected text or json)",
					   esc(optarg));
			break;
		case 'h':
			fputs(analyze_usage, stdout);
			return EXIT_OK;
		default:
			die_status(EXIT_USAGE, "analyze: unknown or incomplete option '%s'\n%s",
				   esc(argv[optind - 1]), analyze_usage);
		}
	}
	if (argc - optind != 1)
		die_status(EXIT_USAGE, "analyze: expected one trace file\n%s", analyze_usage);
	struct analysis *an = analyze_file(argv[optind], NULL);
	int r = anti_patterns_report(an, (enum output_format)fmt, stdout);
	analysis_free(an);
	if (r < 0)
		cli_write_failed();
	return r < 0 ? EXIT_WRITE_FAILED : EXIT_OK;
}
