/*
 * libFuzzer target for the renacer.toml validator (src/config/config.c)
 * beyond the TOML parser: the input bytes are read as choices that build a
 * syntactically valid renacer.toml out of renacer's own tables and keys
 * with fuzzed values (numbers at and past their bounds, strings with
 * control characters, regular expressions built from costly pieces), so
 * that the deep checks run instead of the first syntax error.  On failure
 * exactly one error is printed (one line, no control characters); on
 * success the config holds what the checks promise: budgets in range, every
 * regex within limits.regex_cost, names unique, counts within [limits].
 * (It starts from no seed inputs: its input is choices, not TOML.)
 */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/config.h"
#include "util/error.h"
#include "util/quote.h"
#include "util/relimit.h"
#include "util/strbuf.h"

#include "util/banned.h"

static int nerrors, nwarnings;

static void hook(const char *kind, const char *msg)
{
	/* every message is one line without control characters */
	if (!cescape_clean(msg, strlen(msg), CESC_KEEP_BACKSLASH))
		abort();
	if (*kind)
		nwarnings++;
	else
		nerrors++;
}

struct in {
	const uint8_t *p;
	size_t n;
};

static unsigned take(struct in *in, unsigned range)
{
	unsigned v;

	if (!in->n || !range)
		return 0;
	v = *in->p++ % range;
	in->n--;
	return v;
}

static const char *const tables[] = {
	"[[assertion]]", "[semantic_equivalence]", "[lamport_clock]", "[golden_traces]",
	"[golden_traces.tolerances]", "[[golden_traces.trace]]", "[[golden_traces.normalize]]",
	"[compression]", "[otlp]", "[otlp.headers]", "[ci]", "[limits]", "[source]",
	"[quality_gates]",
};

static const char *const keys[] = {
	"name", "type", "enabled", "fail_on_violation", "description", "max_duration_ms",
	"trace_name_pattern", "max_spans", "span_name_pattern", "max_bytes", "tracking_mode",
	"pattern", "threshold", "min_confidence", "baseline_dir", "dir", "runs",
	"tolerance_pct", "check_runtime", "runtime_tolerance_pct", "runtime_floor_ms",
	"noise_factor", "ignore_syscalls", "ignore_paths", "volatile_syscalls", "normalize",
	"context_lines", "max_diff_lines", "compress_above_bytes", "command", "env", "cwd",
	"follow", "replace", "algorithm", "threshold_bytes", "min_size", "level", "endpoint",
	"service_name", "protocol", "headers", "timeout_ms", "fail_fast", "export_format",
	"junit_path", "regex_cost", "assertions", "rules", "string_bytes", "trace_records",
	"skip", "default_skip", "openat", "futex", "X-Token", "mistyped_key",
};

static const char *const words[] = {
	"span_count", "critical_path", "memory_usage", "anti_pattern", "GodProcess",
	"TightLoop", "PCIeBottleneck", "UnbufferedIO", "RedundantFileAccess", "rss",
	"allocations", "zstd", "rle", "http/json", "http/protobuf", "grpc", "junit", "json",
	"markdown", "text", "http://localhost:4318", "ls -la /tmp", "golden_traces", "openat",
	"a", "b", "ls", "\\u001b[2J", "\\n", "'quoted'", "x\\\\y",
};

/* Pieces that regular expressions are made of, the costly ones included. */
static const char *const re_pieces[] = {
	"a", "b", ".", "^", "$", "(", ")", "|", "*", "+", "?", "{0,", "{2}", "{0,999}",
	"{0,32767}", "}", "[a-z]", "[^/]", "\\\\1", "(a|b)", "open", "[[:alpha:]]", "{",
};

static void add_string(struct in *in, struct strbuf *sb)
{
	unsigned kind = take(in, 4);

	strbuf_addch(sb, '"');
	if (kind == 0) {
		strbuf_addstr(sb, words[take(in, sizeof(words) / sizeof(words[0]))]);
	} else if (kind == 1) {
		/* a regular expression */
		unsigned n = take(in, 12);
		for (unsigned i = 0; i < n; i++)
			strbuf_addstr(sb, re_pieces[take(in, sizeof(re_pieces) / sizeof(re_pieces[0]))]);
	} else {
		/* raw bytes as TOML escapes */
		unsigned n = take(in, 16);
		for (unsigned i = 0; i < n; i++) {
			unsigned c = take(in, 256);
			if (c >= 0x20 && c < 0x7f && c != '"' && c != '\\')
				strbuf_addch(sb, (char)c);
			else
				strbuf_addf(sb, "\\u%04X", c < 0x80 ? c : 0x80 + (c & 0x3f) * 64);
		}
	}
	strbuf_addch(sb, '"');
}

static void add_value(struct in *in, struct strbuf *sb, int depth)
{
	static const char *const numbers[] = {
		"0", "1", "-1", "3", "200", "1000", "1000001", "9223372036854775807",
		"-9223372036854775808", "0.5", "1.5", "-0.0", "nan", "inf", "-inf", "1e308", "5",
		"64", "63", "65536", "20000000",
	};

	switch (take(in, depth > 2 ? 4 : 6)) {
	case 0:
		strbuf_addstr(sb, numbers[take(in, sizeof(numbers) / sizeof(numbers[0]))]);
		break;
	case 1:
		strbuf_addstr(sb, take(in, 2) ? "true" : "false");
		break;
	case 2:
	case 3:
		add_string(in, sb);
		break;
	case 4: {
		unsigned n = take(in, 5);
		strbuf_addch(sb, '[');
		for (unsigned i = 0; i < n; i++) {
			if (i)
				strbuf_addstr(sb, ", ");
			add_value(in, sb, depth + 1);
		}
		strbuf_addch(sb, ']');
		break;
	}
	default: {
		unsigned n = take(in, 3);
		strbuf_addch(sb, '{');
		for (unsigned i = 0; i < n; i++) {
			strbuf_addstr(sb, i ? ", " : " ");
			strbuf_addstr(sb, keys[take(in, sizeof(keys) / sizeof(keys[0]))]);
			strbuf_addstr(sb, " = ");
			add_value(in, sb, depth + 1);
		}
		strbuf_addstr(sb, " }");
		break;
	}
	}
}

/* Builds a renacer.toml from the choices in data. */
static void build(const uint8_t *data, size_t size, struct strbuf *sb)
{
	struct in in = { data, size };

	while (in.n) {
		strbuf_addstr(sb, tables[take(&in, sizeof(tables) / sizeof(tables[0]))]);
		strbuf_addch(sb, '\n');
		for (unsigned k = take(&in, 8); k; k--) {
			/* a table may not repeat a key: a new one per line */
			const char *key = keys[take(&in, sizeof(keys) / sizeof(keys[0]))];
			char marker[64];

			snprintf(marker, sizeof(marker), "\n%s = ", key);
			if (strstr(sb->buf + (strrchr(sb->buf, '[') ? strrchr(sb->buf, '[') - sb->buf : 0),
				   marker))
				continue;
			strbuf_addstr(sb, key);
			strbuf_addstr(sb, " = ");
			add_value(&in, sb, 0);
			strbuf_addch(sb, '\n');
		}
	}
}

static void check_regex(const struct renacer_config *cfg, const char *re)
{
	if (re && re_cost(re, NULL, NULL) > cfg->limits.regex_cost)
		abort();
}

/* What a config that loaded promises. */
static void check_config(const struct renacer_config *cfg)
{
	const struct config_golden *g = &cfg->golden;

	if (cfg->nassertions > cfg->limits.assertions || g->nnormalize > cfg->limits.rules ||
	    g->ntraces > cfg->limits.rules || g->ntolerances > cfg->limits.rules ||
	    g->nignore_paths > cfg->limits.rules || g->nignore_syscalls > cfg->limits.rules ||
	    g->nvolatile_syscalls > cfg->limits.rules)
		abort();
	for (size_t i = 0; i < cfg->nassertions; i++) {
		const struct config_assertion *a = &cfg->assertions[i];

		if (!a->name || !*a->name)
			abort();
		for (size_t j = 0; j < i; j++)
			if (!strcmp(a->name, cfg->assertions[j].name))
				abort();
		check_regex(cfg, a->trace_name_pattern);
		check_regex(cfg, a->span_name_pattern);
		if (a->type == ASSERTION_CRITICAL_PATH && !(a->max_duration_ms > 0))
			abort();
		if (a->type == ASSERTION_MEMORY_USAGE && a->max_bytes == 0)
			abort();
		if (a->type == ASSERTION_ANTI_PATTERN && !(a->threshold >= 0 && a->threshold <= 1))
			abort();
	}
	for (size_t i = 0; i < g->nnormalize; i++)
		check_regex(cfg, g->normalize[i].pattern);
	for (size_t i = 0; i < cfg->source.nskip; i++)
		check_regex(cfg, cfg->source.skip[i]);
	for (size_t i = 0; i < g->ntraces; i++) {
		if (!g->traces[i].argv || !g->traces[i].argv[0])
			abort();
		for (size_t j = 0; j < i; j++)
			if (!strcmp(g->traces[i].name, g->traces[j].name))
				abort();
	}
	if (!(cfg->semantic.min_confidence >= 0 && cfg->semantic.min_confidence <= 1) ||
	    g->runs > 1000 || !(g->tolerance_pct >= 0) || !isfinite(g->tolerance_pct) ||
	    cfg->limits.string_bytes < 64 || !cfg->limits.regex_cost)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct strbuf sb = STRBUF_INIT;
	struct renacer_config cfg;
	int r;

	error_set_hook(hook);
	build(data, size, &sb);
	nerrors = nwarnings = 0;
	r = config_parse("fuzz.toml", sb.buf, sb.len, &cfg);
	if ((r == 0 && nerrors) || (r < 0 && nerrors != 1) || (r != 0 && r != -1))
		abort();
	/* the first CONFIG_MAX_WARNINGS are printed, then one line counts the rest */
	if ((unsigned)nwarnings != (cfg.nwarnings > CONFIG_MAX_WARNINGS ?
				    CONFIG_MAX_WARNINGS + 1 : cfg.nwarnings))
		abort();
	if (r == 0)
		check_config(&cfg);
	config_release(&cfg);
	strbuf_release(&sb);
	return 0;
}
