/*
 * Unit tests for src/config/config.c: every key of renacer.toml, its
 * default, every kind of error with its exact message, and the warnings.
 */
#include <regex.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "config/config.h"
#include "util/error.h"
#include "util/strbuf.h"

#include "util/banned.h"

static struct strbuf msgs = STRBUF_INIT;

static void hook(const char *kind, const char *msg)
{
	if (*kind)
		strbuf_addf(&msgs, "%s: ", kind);
	strbuf_addf(&msgs, "%s\n", msg);
}

static int parse(const char *text, struct renacer_config *cfg)
{
	strbuf_reset(&msgs);
	return config_parse("renacer.toml", text, strlen(text), cfg);
}

/* text must fail with exactly the message want (one line, no newline). */
static void expect_error_at(const char *text, const char *want, const char *file, int line)
{
	struct renacer_config cfg;
	int r = parse(text, &cfg);
	struct strbuf w = STRBUF_INIT;

	strbuf_addf(&w, "%s\n", want);
	if (r != -1 || strcmp(msgs.buf, w.buf))
		fail_msg("%s:%d: for\n%s\nwant -1 and: %sgot %d and: %s", file, line, text, w.buf, r,
			 msgs.buf);
	/* a failed load leaves the defaults */
	assert_int_equal(cfg.nassertions, 0);
	assert_null(cfg.path);
	config_release(&cfg);
	strbuf_release(&w);
}
#define expect_error(text, want) expect_error_at(text, want, __FILE__, __LINE__)

/* text must load, with exactly the warnings want ("" for none). */
static void expect_ok_at(const char *text, const char *want, struct renacer_config *cfg,
			 const char *file, int line)
{
	int r = parse(text, cfg);

	if (r != 0 || strcmp(msgs.buf, want))
		fail_msg("%s:%d: for\n%s\nwant 0 and: '%s'\ngot %d and: '%s'", file, line, text, want,
			 r, msgs.buf);
}
#define expect_ok(text, want, cfg) expect_ok_at(text, want, cfg, __FILE__, __LINE__)

/* want with "%s" replaced by libc's message for the bad regex pattern. */
static const char *with_regerror(const char *want, const char *pattern)
{
	static char buf[512];
	char msg[256];
	regex_t re;
	int rc = regcomp(&re, pattern, REG_EXTENDED | REG_NOSUB);

	assert_int_not_equal(rc, 0);
	regerror(rc, &re, msg, sizeof(msg));
	snprintf(buf, sizeof(buf), want, msg);
	return buf;
}

static void test_defaults(void **state)
{
	struct renacer_config cfg;

	config_init(&cfg);
	assert_null(cfg.path);
	assert_int_equal(cfg.nassertions, 0);
	assert_true(cfg.semantic.enabled);
	assert_true(cfg.semantic.min_confidence == 0.90);
	assert_true(cfg.semantic.lamport_clock);
	assert_string_equal(cfg.golden.dir, "golden_traces");
	assert_int_equal(cfg.golden.runs, 0);      /* automatic */
	assert_true(cfg.golden.tolerance_pct == 5);
	assert_int_equal(cfg.golden.ntolerances, 0);
	assert_true(cfg.golden.check_runtime);
	assert_true(cfg.golden.runtime_tolerance_pct == 50);
	assert_true(cfg.golden.runtime_floor_ms == 20);
	assert_true(cfg.golden.noise_factor == 3);
	assert_int_equal(cfg.golden.nignore_syscalls, 0);
	assert_int_equal(cfg.golden.nignore_paths, 0);
	assert_int_equal(cfg.golden.nvolatile_syscalls, 0);
	assert_int_equal(cfg.golden.nnormalize, 0);
	assert_int_equal(cfg.golden.context_lines, 3);
	assert_int_equal(cfg.golden.max_diff_lines, 200);
	assert_false(cfg.golden.compress);
	assert_int_equal(cfg.golden.compress_level, 3);
	assert_int_equal(cfg.golden.ntraces, 0);
	assert_false(cfg.compression.enabled);
	assert_string_equal(cfg.compression.algorithm, "zstd");
	assert_int_equal(cfg.compression.threshold_bytes, 102400);
	assert_int_equal(cfg.compression.level, 3);
	assert_false(cfg.otlp.enabled);
	assert_string_equal(cfg.otlp.endpoint, "http://localhost:4318");
	assert_string_equal(cfg.otlp.service_name, "renacer");
	assert_int_equal(cfg.otlp.protocol, OTLP_HTTP_PROTOBUF);
	assert_int_equal(cfg.otlp.nheaders, 0);
	assert_int_equal(cfg.otlp.timeout_ms, 10000);
	assert_false(cfg.otlp.endpoint_given);
	assert_false(cfg.otlp.protocol_given);
	assert_int_equal(cfg.otlp.batch_size, 0);
	assert_false(cfg.otlp.min_duration_us_given);
	assert_false(cfg.ci.fail_fast);
	assert_int_equal(cfg.ci.export_format, CI_FORMAT_TEXT);
	assert_null(cfg.ci.junit_path);
	config_release(&cfg);

	/* an empty file is the defaults */
	expect_ok("", "", &cfg);
	assert_string_equal(cfg.path, "renacer.toml");
	assert_int_equal(cfg.nassertions, 0);
	assert_string_equal(cfg.golden.dir, "golden_traces");
	config_release(&cfg);
}

/* The seeds' own renacer.toml (tests/data/seeds-renacer.toml). */
static void test_seeds_file(void **state)
{
	struct renacer_config cfg;
	const struct config_assertion *a;
	const char *top = getenv("TOP");
	struct strbuf path = STRBUF_INIT;

	strbuf_addf(&path, "%s/tests/data/seeds-renacer.toml", top ? top : ".");
	strbuf_reset(&msgs);
	assert_int_equal(config_load(path.buf, &cfg), 0);
	/* the one warning: the seeds' "rle" */
	assert_non_null(strstr(msgs.buf, "compression: algorithm 'rle' is not supported; zstd is used instead"));
	assert_int_equal(cfg.nwarnings, 1);
	assert_int_equal(cfg.nassertions, 6);

	a = config_assertion(&cfg, "example_startup_latency");
	assert_non_null(a);
	assert_int_equal(a->type, ASSERTION_CRITICAL_PATH);
	assert_true(a->max_duration_ms == 100);
	assert_true(a->enabled && a->fail_on_violation);
	assert_null(a->trace_name_pattern);

	a = config_assertion(&cfg, "max_syscall_budget");
	assert_int_equal(a->type, ASSERTION_SPAN_COUNT);
	assert_int_equal(a->max_spans, 500);
	assert_null(a->span_name_pattern);

	a = config_assertion(&cfg, "memory_allocation_budget");
	assert_int_equal(a->type, ASSERTION_MEMORY_USAGE);
	assert_int_equal(a->max_bytes, 104857600);
	assert_int_equal(a->tracking_mode, TRACKING_ALLOCATIONS);

	a = config_assertion(&cfg, "prevent_god_process");
	assert_int_equal(a->type, ASSERTION_ANTI_PATTERN);
	assert_int_equal(a->pattern, ANTI_PATTERN_GOD_PROCESS);
	assert_string_equal(a->pattern_name, "GodProcess");
	assert_true(a->threshold == 0.8);
	assert_true(a->enabled);
	assert_false(a->fail_on_violation);

	a = config_assertion(&cfg, "detect_pcie_bottleneck");
	assert_int_equal(a->pattern, ANTI_PATTERN_PCIE_BOTTLENECK);
	assert_string_equal(a->pattern_name, "PCIeBottleneck");
	assert_true(a->threshold == 0.7);
	assert_false(a->fail_on_violation);

	a = config_assertion(&cfg, "ultra_strict_latency");
	assert_int_equal(a->type, ASSERTION_CRITICAL_PATH);
	assert_true(a->max_duration_ms == 50);
	assert_false(a->enabled);

	/* five enabled, one disabled; in file order */
	{
		size_t on = 0;
		for (size_t i = 0; i < cfg.nassertions; i++)
			on += cfg.assertions[i].enabled;
		assert_int_equal(on, 5);
		assert_string_equal(cfg.assertions[0].name, "example_startup_latency");
		assert_string_equal(cfg.assertions[5].name, "ultra_strict_latency");
	}
	assert_true(cfg.semantic.min_confidence == 0.90);
	assert_true(cfg.semantic.lamport_clock);
	assert_true(cfg.compression.enabled);
	assert_true(cfg.golden.compress);
	assert_int_equal(cfg.golden.compress_above_bytes, 102400);
	assert_false(cfg.otlp.enabled);
	assert_string_equal(cfg.otlp.service_name, "trueno");
	assert_true(cfg.ci.fail_fast);
	assert_null(config_assertion(&cfg, "nope"));
	config_release(&cfg);
	strbuf_release(&path);
}

/* The file `renacer init` writes loads without a warning. */
static void test_starter(void **state)
{
	struct renacer_config cfg;
	const char *text = config_starter_text(true);

	strbuf_reset(&msgs);
	assert_int_equal(config_parse("renacer.toml", text, strlen(text), &cfg), 0);
	assert_string_equal(msgs.buf, "");
	assert_int_equal(cfg.nwarnings, 0);
	assert_int_equal(cfg.nassertions, 6);
	assert_non_null(config_assertion(&cfg, "prevent_god_process"));
	assert_false(config_assertion(&cfg, "ultra_strict_latency")->enabled);
	assert_true(cfg.golden.compress);
	assert_int_equal(cfg.golden.compress_above_bytes, 102400);
	/* capture's runs are automatic (3, or 5 threaded), not pinned to 1 */
	assert_int_equal(cfg.golden.runs, 0);
	config_release(&cfg);
	/* without the budgets for every run: the anti-pattern warnings stay */
	text = config_starter_text(false);
	assert_int_equal(config_parse("renacer.toml", text, strlen(text), &cfg), 0);
	assert_int_equal(cfg.nwarnings, 0);
	assert_null(config_assertion(&cfg, "example_startup_latency"));
	assert_null(config_assertion(&cfg, "max_syscall_budget"));
	assert_null(config_assertion(&cfg, "memory_allocation_budget"));
	assert_non_null(config_assertion(&cfg, "prevent_god_process"));
	config_release(&cfg);
}

/* Every key, set away from its default. */
static void test_every_key(void **state)
{
	static const char text[] =
		"[[assertion]]\n"
		"name = \"cp\"\n"
		"type = \"critical_path\"\n"
		"max_duration_ms = 12.5\n"
		"trace_name_pattern = \"^(make|cc)$\"\n"
		"enabled = false\n"
		"fail_on_violation = false\n"
		"description = \"the build\"\n"
		"\n"
		"[[assertion]]\n"
		"name = \"sc\"\n"
		"type = \"span_count\"\n"
		"max_spans = 0\n"
		"span_name_pattern = \"^open\"\n"
		"\n"
		"[[assertion]]\n"
		"name = \"mu\"\n"
		"type = \"memory_usage\"\n"
		"max_bytes = 0x10_0000\n"
		"tracking_mode = \"rss\"\n"
		"\n"
		"[[assertion]]\n"
		"name = \"ap\"\n"
		"type = \"anti_pattern\"\n"
		"pattern = \"RedundantFileAccess\"\n"
		"threshold = 1\n"
		"\n"
		"[semantic_equivalence]\n"
		"enabled = false\n"
		"min_confidence = 0.5\n"
		"\n"
		"[lamport_clock]\n"
		"enabled = true\n"
		"\n"
		"[golden_traces]\n"
		"dir = \"gt\"\n"
		"runs = 3\n"
		"tolerance_pct = 2.5\n"
		"check_runtime = false\n"
		"runtime_tolerance_pct = 20\n"
		"runtime_floor_ms = 1.5\n"
		"noise_factor = 4\n"
		"ignore_syscalls = [\"getrandom\", \"futex\"]\n"
		"ignore_paths = [\"/proc/*\"]\n"
		"volatile_syscalls = [\"mmap\"]\n"
		"normalize = [ { pattern = \"tmp[0-9]+\", replace = \"tmpN\" }, { pattern = \"x\" } ]\n"
		"context_lines = 5\n"
		"max_diff_lines = 0\n"
		"compress_above_bytes = 4096\n"
		"\n"
		"[golden_traces.tolerances]\n"
		"write = 10\n"
		"read = 0.5\n"
		"\n"
		"[[golden_traces.trace]]\n"
		"name = \"ls\"\n"
		"command = [\"ls\", \"-l\", \"/\"]\n"
		"env = { LANG = \"C\", TZ = \"UTC\" }\n"
		"cwd = \"/tmp\"\n"
		"follow = false\n"
		"runs = 7\n"
		"\n"
		"[[golden_traces.trace]]\n"
		"name = \"sh-pipe\"\n"
		"command = \"sh -c 'ls | wc -l'\"\n"
		"\n"
		"[compression]\n"
		"enabled = true\n"
		"algorithm = \"zstd\"\n"
		"threshold_bytes = 1000\n"
		"level = 19\n"
		"\n"
		"[otlp]\n"
		"enabled = true\n"
		"endpoint = \"https://collector:4318\"\n"
		"service_name = \"svc\"\n"
		"protocol = \"http/json\"\n"
		"timeout_ms = 250\n"
		"batch_size = 100\n"
		"min_duration_us = 50\n"
		"headers = { Authorization = \"Bearer x\", \"X-Team\" = \"perf\" }\n"
		"\n"
		"[ci]\n"
		"fail_fast = true\n"
		"export_format = \"junit\"\n"
		"junit_path = \"out/junit.xml\"\n";
	struct renacer_config cfg;
	const struct config_assertion *a;
	const struct config_trace *t;
	const struct config_golden *g;

	expect_ok(text, "", &cfg);
	assert_int_equal(cfg.nassertions, 4);
	a = &cfg.assertions[0];
	assert_string_equal(a->name, "cp");
	assert_int_equal(a->type, ASSERTION_CRITICAL_PATH);
	assert_true(a->max_duration_ms == 12.5);
	assert_string_equal(a->trace_name_pattern, "^(make|cc)$");
	assert_false(a->enabled);
	assert_false(a->fail_on_violation);
	assert_string_equal(a->description, "the build");
	assert_int_equal(a->line, 1);
	assert_int_equal(a->col, 1);
	a = &cfg.assertions[1];
	assert_int_equal(a->max_spans, 0);
	assert_string_equal(a->span_name_pattern, "^open");
	assert_true(a->enabled && a->fail_on_violation);
	assert_null(a->description);
	assert_int_equal(a->line, 10);
	a = &cfg.assertions[2];
	assert_int_equal(a->max_bytes, 0x100000);
	assert_int_equal(a->tracking_mode, TRACKING_RSS);
	a = &cfg.assertions[3];
	assert_int_equal(a->pattern, ANTI_PATTERN_REDUNDANT_FILE_ACCESS);
	assert_true(a->threshold == 1.0);

	assert_false(cfg.semantic.enabled);
	assert_true(cfg.semantic.min_confidence == 0.5);
	assert_true(cfg.semantic.lamport_clock);

	g = &cfg.golden;
	assert_string_equal(g->dir, "gt");
	assert_int_equal(g->runs, 3);
	assert_true(g->tolerance_pct == 2.5);
	assert_false(g->check_runtime);
	assert_true(g->runtime_tolerance_pct == 20);
	assert_true(g->runtime_floor_ms == 1.5);
	assert_true(g->noise_factor == 4);
	assert_int_equal(g->nignore_syscalls, 2);
	assert_string_equal(g->ignore_syscalls[0], "getrandom");
	assert_string_equal(g->ignore_syscalls[1], "futex");
	assert_null(g->ignore_syscalls[2]);
	assert_int_equal(g->nignore_paths, 1);
	assert_string_equal(g->ignore_paths[0], "/proc/*");
	assert_int_equal(g->nvolatile_syscalls, 1);
	assert_string_equal(g->volatile_syscalls[0], "mmap");
	assert_int_equal(g->nnormalize, 2);
	assert_string_equal(g->normalize[0].pattern, "tmp[0-9]+");
	assert_string_equal(g->normalize[0].replace, "tmpN");
	assert_string_equal(g->normalize[1].pattern, "x");
	assert_string_equal(g->normalize[1].replace, "");
	assert_int_equal(g->context_lines, 5);
	assert_int_equal(g->max_diff_lines, 0);
	/* golden_traces.compress_above_bytes wins over [compression] */
	assert_true(g->compress);
	assert_int_equal(g->compress_above_bytes, 4096);
	assert_int_equal(g->compress_level, 19);
	assert_int_equal(g->ntolerances, 2);
	assert_string_equal(g->tolerances[0].syscall, "write");
	assert_true(g->tolerances[0].pct == 10);
	assert_string_equal(g->tolerances[1].syscall, "read");
	assert_true(g->tolerances[1].pct == 0.5);

	assert_int_equal(g->ntraces, 2);
	t = config_trace(&cfg, "ls");
	assert_non_null(t);
	assert_int_equal(t->argc, 3);
	assert_string_equal(t->argv[0], "ls");
	assert_string_equal(t->argv[2], "/");
	assert_null(t->argv[3]);
	assert_int_equal(t->nenv, 2);
	assert_string_equal(t->env[0], "LANG=C");
	assert_string_equal(t->env[1], "TZ=UTC");
	assert_null(t->env[2]);
	assert_string_equal(t->cwd, "/tmp");
	assert_false(t->follow);
	assert_int_equal(t->runs, 7);
	t = config_trace(&cfg, "sh-pipe");
	assert_int_equal(t->argc, 3);
	assert_string_equal(t->argv[0], "sh");
	assert_string_equal(t->argv[1], "-c");
	assert_string_equal(t->argv[2], "ls | wc -l");
	assert_true(t->follow);
	assert_int_equal(t->runs, 0);
	assert_null(t->cwd);
	assert_int_equal(t->nenv, 0);
	assert_null(config_trace(&cfg, "nope"));

	assert_true(cfg.compression.enabled);
	assert_string_equal(cfg.compression.algorithm, "zstd");
	assert_int_equal(cfg.compression.threshold_bytes, 1000);
	assert_int_equal(cfg.compression.level, 19);

	assert_true(cfg.otlp.enabled);
	assert_string_equal(cfg.otlp.endpoint, "https://collector:4318");
	assert_string_equal(cfg.otlp.service_name, "svc");
	assert_int_equal(cfg.otlp.protocol, OTLP_HTTP_JSON);
	assert_int_equal(cfg.otlp.timeout_ms, 250);
	assert_int_equal(cfg.otlp.nheaders, 2);
	assert_string_equal(cfg.otlp.headers[0].name, "Authorization");
	assert_string_equal(cfg.otlp.headers[0].value, "Bearer x");
	assert_string_equal(cfg.otlp.headers[1].name, "X-Team");
	assert_true(cfg.otlp.endpoint_given);
	assert_true(cfg.otlp.protocol_given);
	assert_int_equal(cfg.otlp.batch_size, 100);
	assert_true(cfg.otlp.min_duration_us_given);
	assert_int_equal(cfg.otlp.min_duration_us, 50);

	assert_true(cfg.ci.fail_fast);
	assert_int_equal(cfg.ci.export_format, CI_FORMAT_JUNIT);
	assert_string_equal(cfg.ci.junit_path, "out/junit.xml");
	config_release(&cfg);

	/* after release: the defaults again */
	assert_int_equal(cfg.nassertions, 0);
	assert_string_equal(cfg.golden.dir, "golden_traces");
	config_release(&cfg);
}

static void test_compression_sources(void **state)
{
	struct renacer_config cfg;

	/* [compression] enabled gives the golden threshold */
	expect_ok("[compression]\nenabled = true\nmin_size = 500\n", "", &cfg);
	assert_true(cfg.golden.compress);
	assert_int_equal(cfg.golden.compress_above_bytes, 500);
	assert_int_equal(cfg.compression.threshold_bytes, 500);
	config_release(&cfg);
	/* disabled: nothing is compressed */
	expect_ok("[compression]\nenabled = false\nthreshold_bytes = 500\n", "", &cfg);
	assert_false(cfg.golden.compress);
	config_release(&cfg);
	/* baseline_dir, as renacer 0.6 files name the golden directory */
	expect_ok("[semantic_equivalence]\nbaseline_dir = \"golden_traces/baseline\"\n", "", &cfg);
	assert_string_equal(cfg.golden.dir, "golden_traces/baseline");
	config_release(&cfg);
	expect_ok("[golden_traces]\ndir = \"a\"\n[semantic_equivalence]\nbaseline_dir = \"a\"\n", "", &cfg);
	assert_string_equal(cfg.golden.dir, "a");
	config_release(&cfg);
	/* assertions written as an array of inline tables */
	expect_ok("assertion = [ { name = \"x\", type = \"span_count\", max_spans = 3 } ]\n", "", &cfg);
	assert_int_equal(cfg.nassertions, 1);
	assert_int_equal(cfg.assertions[0].max_spans, 3);
	config_release(&cfg);
}

static void test_assertion_errors(void **state)
{
	/* the example of the issue: a misspelt key, with a suggestion */
	expect_error("# budgets\n\n[[assertion]]\nname = \"example_startup_latency\"\n"
		     "type = \"critical_path\"\nmax_duration_ms = 100\n\n"
		     "[[assertion]]\nname = \"max_syscall_budget\"\ntype = \"span_count\"\n"
		     "max_spans = 500\nmax_span = 400\n",
		     "renacer.toml:12:1: assertion 'max_syscall_budget': unknown key 'max_span' (did you mean 'max_spans'?)");
	/* unknown key, nothing close */
	expect_error("[[assertion]]\nname = \"a\"\ntype = \"span_count\"\nmax_spans = 1\ncolour = 3\n",
		     "renacer.toml:5:1: assertion 'a': unknown key 'colour'");
	/* a key of another type */
	expect_error("[[assertion]]\nname = \"a\"\ntype = \"critical_path\"\nmax_duration_ms = 1\nmax_spans = 3\n",
		     "renacer.toml:5:1: assertion 'a': key 'max_spans' does not apply to critical_path assertions (it is for span_count assertions)");
	expect_error("[[assertion]]\nname = \"a\"\ntype = \"span_count\"\nmax_spans = 1\nthreshold = 0.5\n",
		     "renacer.toml:5:1: assertion 'a': key 'threshold' does not apply to span_count assertions (it is for anti_pattern assertions)");
	/* missing required keys (reported at the [[assertion]] header) */
	expect_error("# x\n\n  [[assertion]]\ntype = \"span_count\"\n",
		     "renacer.toml:3:3: assertion #1: missing required key 'name'");
	expect_error("[[assertion]]\nname = \"a\"\n",
		     "renacer.toml:1:1: assertion 'a': missing required key 'type'");
	expect_error("[[assertion]]\nname = \"a\"\ntype = \"span_count\"\n",
		     "renacer.toml:1:1: assertion 'a': missing required key 'max_spans'");
	expect_error("[[assertion]]\nname = \"a\"\ntype = \"critical_path\"\n",
		     "renacer.toml:1:1: assertion 'a': missing required key 'max_duration_ms'");
	expect_error("[[assertion]]\nname = \"a\"\ntype = \"memory_usage\"\n",
		     "renacer.toml:1:1: assertion 'a': missing required key 'max_bytes'");
	expect_error("[[assertion]]\nname = \"a\"\ntype = \"anti_pattern\"\n",
		     "renacer.toml:1:1: assertion 'a': missing required key 'pattern'");
	/* wrong value types (reported at the value) */
	expect_error("[[assertion]]\nname = 7\n",
		     "renacer.toml:2:8: assertion #1: 'name' must be a string, not an integer");
	expect_error("[[assertion]]\nname = \"\"\n",
		     "renacer.toml:2:8: assertion #1: 'name' must not be empty");
	expect_error("[[assertion]]\nname = \"a\"\ntype = \"span_count\"\nmax_spans = \"500\"\n",
		     "renacer.toml:4:13: assertion 'a': 'max_spans' must be an integer, not a string");
	expect_error("[[assertion]]\nname = \"a\"\ntype = \"span_count\"\nmax_spans = 5.0\n",
		     "renacer.toml:4:13: assertion 'a': 'max_spans' must be an integer, not a float");
	expect_error("[[assertion]]\nname = \"a\"\ntype = \"critical_path\"\nmax_duration_ms = \"100ms\"\n",
		     "renacer.toml:4:19: assertion 'a': 'max_duration_ms' must be a number, not a string");
	expect_error("[[assertion]]\nname = \"a\"\ntype = \"span_count\"\nmax_spans = 1\nenabled = \"yes\"\n",
		     "renacer.toml:5:11: assertion 'a': 'enabled' must be a boolean (true or false), not a string");
	expect_error("[[assertion]]\nname = \"a\"\ntype = \"span_count\"\nmax_spans = 1\nfail_on_violation = 1\n",
		     "renacer.toml:5:21: assertion 'a': 'fail_on_violation' must be a boolean (true or false), not an integer");
	expect_error("[[assertion]]\nname = \"a\"\ntype = 3\n",
		     "renacer.toml:3:8: assertion 'a': 'type' must be a string, not an integer");
	expect_error("[[assertion]]\nname = \"a\"\ntype = \"span_count\"\nmax_spans = 1\ndescription = []\n",
		     "renacer.toml:5:15: assertion 'a': 'description' must be a string, not an array");
	/* negative or zero budgets */
	expect_error("[[assertion]]\nname = \"a\"\ntype = \"span_count\"\nmax_spans = -1\n",
		     "renacer.toml:4:13: assertion 'a': 'max_spans' must not be negative (got -1)");
	expect_error("[[assertion]]\nname = \"a\"\ntype = \"memory_usage\"\nmax_bytes = 0\n",
		     "renacer.toml:4:13: assertion 'a': 'max_bytes' must be greater than 0 (got 0)");
	expect_error("[[assertion]]\nname = \"a\"\ntype = \"memory_usage\"\nmax_bytes = -104857600\n",
		     "renacer.toml:4:13: assertion 'a': 'max_bytes' must be greater than 0 (got -104857600)");
	expect_error("[[assertion]]\nname = \"a\"\ntype = \"critical_path\"\nmax_duration_ms = -5\n",
		     "renacer.toml:4:19: assertion 'a': 'max_duration_ms' must be greater than 0 (got -5)");
	expect_error("[[assertion]]\nname = \"a\"\ntype = \"critical_path\"\nmax_duration_ms = 0.0\n",
		     "renacer.toml:4:19: assertion 'a': 'max_duration_ms' must be greater than 0 (got 0)");
	expect_error("[[assertion]]\nname = \"a\"\ntype = \"critical_path\"\nmax_duration_ms = nan\n",
		     "renacer.toml:4:19: assertion 'a': 'max_duration_ms' must be a number, not nan");
	expect_error("[[assertion]]\nname = \"a\"\ntype = \"critical_path\"\nmax_duration_ms = inf\n",
		     "renacer.toml:4:19: assertion 'a': 'max_duration_ms' must be finite");
	expect_error("[[assertion]]\nname = \"a\"\ntype = \"anti_pattern\"\npattern = \"TightLoop\"\nthreshold = 1.5\n",
		     "renacer.toml:5:13: assertion 'a': 'threshold' must be between 0 and 1 (got 1.5)");
	expect_error("[[assertion]]\nname = \"a\"\ntype = \"anti_pattern\"\npattern = \"TightLoop\"\nthreshold = -0.1\n",
		     "renacer.toml:5:13: assertion 'a': 'threshold' must be between 0 and 1 (got -0.1)");
	/* unknown names of types, modes and patterns */
	expect_error("[[assertion]]\nname = \"a\"\ntype = \"span_counts\"\n",
		     "renacer.toml:3:8: assertion 'a': unknown type 'span_counts' (did you mean 'span_count'?) (expected critical_path, span_count, memory_usage or anti_pattern)");
	expect_error("[[assertion]]\nname = \"a\"\ntype = \"latency\"\n",
		     "renacer.toml:3:8: assertion 'a': unknown type 'latency' (expected critical_path, span_count, memory_usage or anti_pattern)");
	expect_error("[[assertion]]\nname = \"a\"\ntype = \"anti_pattern\"\npattern = \"GodProces\"\n",
		     "renacer.toml:4:11: assertion 'a': unknown pattern 'GodProces' (did you mean 'GodProcess'?) (expected TightLoop, GodProcess, PCIeBottleneck, UnbufferedIO or RedundantFileAccess)");
	expect_error("[[assertion]]\nname = \"a\"\ntype = \"anti_pattern\"\npattern = \"pcie_bottleneck\"\n",
		     "renacer.toml:4:11: assertion 'a': unknown pattern 'pcie_bottleneck' (did you mean 'PCIeBottleneck'?) (expected TightLoop, GodProcess, PCIeBottleneck, UnbufferedIO or RedundantFileAccess)");
	expect_error("[[assertion]]\nname = \"a\"\ntype = \"memory_usage\"\nmax_bytes = 1\ntracking_mode = \"heap\"\n",
		     "renacer.toml:5:17: assertion 'a': unknown tracking_mode 'heap' (expected allocations or rss)");
	/* invalid regexes */
	expect_error("[[assertion]]\nname = \"a\"\ntype = \"span_count\"\nmax_spans = 1\nspan_name_pattern = \"(open\"\n",
		     with_regerror("renacer.toml:5:21: assertion 'a': invalid regex in 'span_name_pattern': %s", "(open"));
	expect_error("[[assertion]]\nname = \"a\"\ntype = \"critical_path\"\nmax_duration_ms = 1\ntrace_name_pattern = \"a[\"\n",
		     with_regerror("renacer.toml:5:22: assertion 'a': invalid regex in 'trace_name_pattern': %s", "a["));
	/* duplicate names */
	expect_error("[[assertion]]\nname = \"a\"\ntype = \"span_count\"\nmax_spans = 1\n"
		     "[[assertion]]\nname = \"a\"\ntype = \"span_count\"\nmax_spans = 2\n",
		     "renacer.toml:6:8: duplicate assertion name 'a' (first defined at 1:1)");
	/* the table written with single brackets */
	expect_error("[assertion]\nname = \"a\"\n",
		     "renacer.toml:1:1: 'assertion' must be an array of tables: write [[assertion]]");
	expect_error("assertion = 3\n",
		     "renacer.toml:1:1: 'assertion' must be an array of tables ([[assertion]]), not an integer");
	expect_error("assertion = [ 3 ]\n",
		     "renacer.toml:1:15: 'assertion' must be an array of tables ([[assertion]]), but item 1 is an integer");
	/* disabled assertions are checked all the same */
	expect_error("[[assertion]]\nname = \"a\"\ntype = \"span_count\"\nenabled = false\nmax_spans = -2\n",
		     "renacer.toml:5:13: assertion 'a': 'max_spans' must not be negative (got -2)");
}

static void test_syntax_errors(void **state)
{
	expect_error("[[assertion]]\nname = \"a\nb\"\n",
		     "renacer.toml:2:8: unterminated string (a single-line string cannot span lines)");
	expect_error("x = \n", "renacer.toml:1:5: missing value");
	expect_error("[ci]\nfail_fast = yes\n",
		     "renacer.toml:2:13: invalid value 'yes' (strings must be quoted)");
	expect_error("[ci]\n[ci]\n", "renacer.toml:2:2: table 'ci' is already defined at 1:1");
	expect_error("a = 1\na = 2\n", "renacer.toml:2:1: duplicate key 'a' (first defined at 1:1)");
	expect_error("\xff = 1\n", "renacer.toml:1:1: expected a key, found invalid UTF-8 byte 0xFF");
}

static void test_table_errors(void **state)
{
	/* known tables with the wrong kind of value */
	expect_error("otlp = true\n", "renacer.toml:1:1: 'otlp' must be a table, not a boolean");
	expect_error("golden_traces = \"x\"\n",
		     "renacer.toml:1:1: 'golden_traces' must be a table, not a string");
	/* [semantic_equivalence] */
	expect_error("[semantic_equivalence]\nmin_confidence = 1.2\n",
		     "renacer.toml:2:18: semantic_equivalence: 'min_confidence' must be between 0 and 1 (got 1.2)");
	expect_error("[semantic_equivalence]\nmin_confidence = \"90%\"\n",
		     "renacer.toml:2:18: semantic_equivalence: 'min_confidence' must be a number, not a string");
	expect_error("[semantic_equivalence]\nenabled = 1\n",
		     "renacer.toml:2:11: semantic_equivalence: 'enabled' must be a boolean (true or false), not an integer");
	expect_error("[golden_traces]\ndir = \"a\"\n[semantic_equivalence]\nbaseline_dir = \"b\"\n",
		     "renacer.toml:4:16: semantic_equivalence: 'baseline_dir' ('b') contradicts golden_traces.dir ('a')");
	expect_error("[lamport_clock]\nenabled = \"on\"\n",
		     "renacer.toml:2:11: lamport_clock: 'enabled' must be a boolean (true or false), not a string");
	/* [golden_traces] */
	expect_error("[golden_traces]\ndir = \"\"\n",
		     "renacer.toml:2:7: golden_traces: 'dir' must not be empty");
	expect_error("[golden_traces]\nruns = 0\n",
		     "renacer.toml:2:8: golden_traces: 'runs' must be between 1 and 1000 (got 0)");
	expect_error("[golden_traces]\ntolerance_pct = -1\n",
		     "renacer.toml:2:17: golden_traces: 'tolerance_pct' must not be negative (got -1)");
	expect_error("[golden_traces]\nruntime_tolerance_pct = \"x\"\n",
		     "renacer.toml:2:25: golden_traces: 'runtime_tolerance_pct' must be a number, not a string");
	expect_error("[golden_traces]\ncheck_runtime = 0\n",
		     "renacer.toml:2:17: golden_traces: 'check_runtime' must be a boolean (true or false), not an integer");
	expect_error("[golden_traces]\nignore_syscalls = \"futex\"\n",
		     "renacer.toml:2:19: golden_traces: 'ignore_syscalls' must be an array of strings, not a string");
	expect_error("[golden_traces]\nignore_paths = [\"/tmp\", 3]\n",
		     "renacer.toml:2:25: golden_traces: 'ignore_paths' must be an array of strings, but item 2 is an integer");
	expect_error("[golden_traces]\nvolatile_syscalls = [\"\"]\n",
		     "renacer.toml:2:22: golden_traces: 'volatile_syscalls': item 1 must be a non-empty string");
	expect_error("[golden_traces]\ncontext_lines = -1\n",
		     "renacer.toml:2:17: golden_traces: 'context_lines' must not be negative (got -1)");
	expect_error("[golden_traces]\nmax_diff_lines = 1.5\n",
		     "renacer.toml:2:18: golden_traces: 'max_diff_lines' must be an integer, not a float");
	expect_error("[golden_traces]\ncompress_above_bytes = -1\n",
		     "renacer.toml:2:24: golden_traces: 'compress_above_bytes' must not be negative (got -1)");
	expect_error("[golden_traces.tolerances]\nwrite = \"10%\"\n",
		     "renacer.toml:2:9: golden_traces.tolerances: 'write' must be a number, not a string");
	expect_error("[golden_traces.tolerances]\nwrite = -3\n",
		     "renacer.toml:2:9: golden_traces.tolerances: 'write' must not be negative (got -3)");
	expect_error("[golden_traces]\ntolerances = 5\n",
		     "renacer.toml:2:14: golden_traces: 'tolerances' must be a table of syscall = percent, not an integer");
	expect_error("[golden_traces]\nnormalize = [ { pattern = \"(\" } ]\n",
		     with_regerror("renacer.toml:2:27: golden_traces.normalize #1: invalid regex in 'pattern': %s", "("));
	expect_error("[golden_traces]\nnormalize = [ { replace = \"x\" } ]\n",
		     "renacer.toml:2:15: golden_traces.normalize #1: missing required key 'pattern'");
	expect_error("[[golden_traces.normalize]]\npattern = \"a\"\nreplacement = \"b\"\n",
		     "renacer.toml:3:1: golden_traces.normalize #1: unknown key 'replacement' (did you mean 'replace'?)");
	expect_error("[golden_traces]\nnormalize = [ \"a\" ]\n",
		     "renacer.toml:2:15: golden_traces.normalize #1: must be a table { pattern = \"...\", replace = \"...\" }, not a string");
	expect_error("[golden_traces]\nnormalize = \"a\"\n",
		     "renacer.toml:2:13: golden_traces: 'normalize' must be an array of tables ({ pattern = \"...\", replace = \"...\" }), not a string");
	/* [[golden_traces.trace]] */
	expect_error("[[golden_traces.trace]]\ncommand = [\"ls\"]\n",
		     "renacer.toml:1:1: golden trace #1: missing required key 'name'");
	expect_error("[[golden_traces.trace]]\nname = \"ls\"\n",
		     "renacer.toml:1:1: golden trace 'ls': missing required key 'command'");
	expect_error("[[golden_traces.trace]]\nname = \"../x\"\ncommand = \"ls\"\n",
		     "renacer.toml:2:8: golden trace name '../x' must use only letters, digits and '_', '-', '.', '+', and not start with '.' or '-'");
	expect_error("[[golden_traces.trace]]\nname = \"a b\"\ncommand = \"ls\"\n",
		     "renacer.toml:2:8: golden trace name 'a b' must use only letters, digits and '_', '-', '.', '+', and not start with '.' or '-'");
	expect_error("[[golden_traces.trace]]\nname = \"ls\"\ncommand = []\n",
		     "renacer.toml:3:11: golden trace 'ls': 'command' must not be empty");
	expect_error("[[golden_traces.trace]]\nname = \"ls\"\ncommand = \"  \"\n",
		     "renacer.toml:3:11: golden trace 'ls': 'command' must not be empty");
	expect_error("[[golden_traces.trace]]\nname = \"ls\"\ncommand = \"sh -c 'ls\"\n",
		     "renacer.toml:3:11: golden trace 'ls': 'command': unterminated single quote");
	expect_error("[[golden_traces.trace]]\nname = \"ls\"\ncommand = [\"ls\", 1]\n",
		     "renacer.toml:3:18: golden trace 'ls': 'command' must be an array of strings, but item 2 is an integer");
	expect_error("[[golden_traces.trace]]\nname = \"ls\"\ncommand = 1\n",
		     "renacer.toml:3:11: golden trace 'ls': 'command' must be an array of strings or a string, not an integer");
	expect_error("[[golden_traces.trace]]\nname = \"ls\"\ncommand = \"ls\"\nenv = { LANG = 1 }\n",
		     "renacer.toml:4:16: golden trace 'ls': 'env.LANG' must be a string, not an integer");
	expect_error("[[golden_traces.trace]]\nname = \"ls\"\ncommand = \"ls\"\nenv = { \"A=B\" = \"1\" }\n",
		     "renacer.toml:4:9: golden trace 'ls': invalid environment variable name 'A=B'");
	expect_error("[[golden_traces.trace]]\nname = \"ls\"\ncommand = \"ls\"\nenv = \"LANG=C\"\n",
		     "renacer.toml:4:7: golden trace 'ls': 'env' must be a table of strings, not a string");
	expect_error("[[golden_traces.trace]]\nname = \"ls\"\ncommand = \"ls\"\nfolow = false\n",
		     "renacer.toml:4:1: golden trace 'ls': unknown key 'folow' (did you mean 'follow'?)");
	expect_error("[[golden_traces.trace]]\nname = \"ls\"\ncommand = \"ls\"\nruns = 0\n",
		     "renacer.toml:4:8: golden trace 'ls': 'runs' must be between 1 and 1000 (got 0)");
	expect_error("[[golden_traces.trace]]\nname = \"ls\"\ncommand = \"ls\"\ncwd = \"\"\n",
		     "renacer.toml:4:7: golden trace 'ls': 'cwd' must not be empty");
	expect_error("[[golden_traces.trace]]\nname = \"ls\"\ncommand = \"ls\"\n"
		     "[[golden_traces.trace]]\nname = \"ls\"\ncommand = \"ls -l\"\n",
		     "renacer.toml:5:8: duplicate golden trace name 'ls' (first defined at 1:1)");
	expect_error("[golden_traces.trace]\nname = \"ls\"\n",
		     "renacer.toml:1:1: 'golden_traces.trace' must be an array of tables: write [[golden_traces.trace]]");
	/* [compression] */
	expect_error("[compression]\nalgorithm = \"gzip\"\n",
		     "renacer.toml:2:13: compression: unknown algorithm 'gzip' (expected zstd)");
	expect_error("[compression]\nlevel = 25\n",
		     "renacer.toml:2:9: compression: 'level' must be between 1 and 19 (got 25)");
	expect_error("[compression]\nthreshold_bytes = 1\nmin_size = 2\n",
		     "renacer.toml:3:1: compression: 'min_size' and 'threshold_bytes' are the same setting; give only one");
	expect_error("[compression]\nthreshold_bytes = \"100KB\"\n",
		     "renacer.toml:2:19: compression: 'threshold_bytes' must be an integer, not a string");
	expect_error("[compression]\nenabled = \"true\"\n",
		     "renacer.toml:2:11: compression: 'enabled' must be a boolean (true or false), not a string");
	/* [otlp] */
	expect_error("[otlp]\nendpoint = \"localhost:4318\"\n",
		     "renacer.toml:2:12: otlp: 'endpoint' must be an http:// or https:// URL (got 'localhost:4318')");
	expect_error("[otlp]\nprotocol = \"http/proto\"\n",
		     "renacer.toml:2:12: otlp: unknown protocol 'http/proto' (did you mean 'http/protobuf'?) (expected http/protobuf, http/json or grpc)");
	{
		struct renacer_config g;
		expect_ok("[otlp]\nprotocol = \"grpc\"\n", "", &g);
		assert_int_equal(g.otlp.protocol, OTLP_GRPC);
		assert_true(g.otlp.protocol_given);
		config_release(&g);
	}
	expect_error("[otlp]\nbatch_size = 0\n",
		     "renacer.toml:2:14: otlp: 'batch_size' must be between 1 and 65536 (got 0)");
	expect_error("[otlp]\nmin_duration_us = -1\n",
		     "renacer.toml:2:19: otlp: 'min_duration_us' must not be negative (got -1)");
	expect_error("[otlp]\ntimeout_ms = 0\n",
		     "renacer.toml:2:14: otlp: 'timeout_ms' must be between 1 and 600000 (got 0)");
	expect_error("[otlp]\nservice_name = \"\"\n",
		     "renacer.toml:2:16: otlp: 'service_name' must not be empty");
	expect_error("[otlp.headers]\nAuthorization = 5\n",
		     "renacer.toml:2:17: otlp: 'headers.Authorization' must be a string, not an integer");
	expect_error("[otlp.headers]\n\"a b\" = \"x\"\n",
		     "renacer.toml:2:1: otlp: invalid header name 'a b'");
	expect_error("[otlp]\nheaders = [\"a\"]\n",
		     "renacer.toml:2:11: otlp: 'headers' must be a table of strings, not an array");
	/* [ci] */
	expect_error("[ci]\nexport_format = \"xml\"\n",
		     "renacer.toml:2:17: ci: unknown export_format 'xml' (expected text, json, junit or markdown)");
	expect_error("[ci]\nfail_fast = \"true\"\n",
		     "renacer.toml:2:13: ci: 'fail_fast' must be a boolean (true or false), not a string");
	expect_error("[ci]\njunit_path = true\n",
		     "renacer.toml:2:14: ci: 'junit_path' must be a string, not a boolean");
}

static void test_warnings(void **state)
{
	struct renacer_config cfg;

	expect_ok("[quality_gates]\nandon_enabled = true\n",
		  "warning: renacer.toml:1:1: unknown table 'quality_gates'\n", &cfg);
	assert_int_equal(cfg.nwarnings, 1);
	config_release(&cfg);
	expect_ok("version = 2\n[otlps]\n", "warning: renacer.toml:1:1: unknown key 'version'\n"
		  "warning: renacer.toml:2:1: unknown table 'otlps' (did you mean 'otlp'?)\n", &cfg);
	assert_int_equal(cfg.nwarnings, 2);
	config_release(&cfg);
	expect_ok("[[assertions]]\nname = \"a\"\n",
		  "warning: renacer.toml:1:1: unknown table 'assertions' (did you mean 'assertion'?)\n", &cfg);
	assert_int_equal(cfg.nassertions, 0);
	config_release(&cfg);
	expect_ok("[ci]\nfailfast = true\ncompare_with_baseline = true\n",
		  "warning: renacer.toml:2:1: unknown key 'ci.failfast' (did you mean 'ci.fail_fast'?)\n"
		  "warning: renacer.toml:3:1: unknown key 'ci.compare_with_baseline'\n", &cfg);
	config_release(&cfg);
	expect_ok("[golden_traces.extra]\n",
		  "warning: renacer.toml:1:1: unknown table 'golden_traces.extra'\n", &cfg);
	config_release(&cfg);
	expect_ok("[semantic_equivalence]\nmin_confidense = 0.5\n",
		  "warning: renacer.toml:2:1: unknown key 'semantic_equivalence.min_confidense' (did you mean 'semantic_equivalence.min_confidence'?)\n",
		  &cfg);
	assert_true(cfg.semantic.min_confidence == 0.90);
	config_release(&cfg);
	expect_ok("[lamport_clock]\nenabled = false\n",
		  "warning: renacer.toml:2:11: lamport_clock: Lamport clocks are always recorded; 'enabled = false' has no effect\n",
		  &cfg);
	config_release(&cfg);
	expect_ok("[compression]\nalgorithm = \"rle\"\n",
		  "warning: renacer.toml:2:13: compression: algorithm 'rle' is not supported; zstd is used instead\n",
		  &cfg);
	assert_string_equal(cfg.compression.algorithm, "zstd");
	config_release(&cfg);
	/* syscall names that never match anything */
	expect_ok("[golden_traces]\nignore_syscalls = [\"futex\", \"opnat\", \"syscall_0x1f3\", \"stat64\"]\n",
		  "warning: renacer.toml:2:29: golden_traces: unknown syscall 'opnat' (did you mean 'openat'?)\n",
		  &cfg);
	config_release(&cfg);
	expect_ok("[golden_traces.tolerances]\nwirte = 3\n",
		  "warning: renacer.toml:2:1: golden_traces.tolerances: unknown syscall 'wirte' (did you mean 'write'?)\n",
		  &cfg);
	config_release(&cfg);
	/* a warning does not stop an error later */
	expect_error("[foo]\n[ci]\nfail_fast = 1\n",
		     "warning: renacer.toml:1:1: unknown table 'foo'\n"
		     "renacer.toml:3:13: ci: 'fail_fast' must be a boolean (true or false), not an integer");
}

static void test_load_file(void **state)
{
	struct renacer_config cfg;
	char dir[] = "/tmp/renacer-config-XXXXXX";
	struct strbuf path = STRBUF_INIT, want = STRBUF_INIT;
	FILE *f;

	assert_non_null(mkdtemp(dir));
	strbuf_addf(&path, "%s/my.toml", dir);

	/* absent */
	strbuf_reset(&msgs);
	assert_int_equal(config_load(path.buf, &cfg), -1);
	strbuf_addf(&want, "cannot read '%s': No such file or directory\n", path.buf);
	assert_string_equal(msgs.buf, want.buf);
	config_release(&cfg);
	strbuf_reset(&msgs);
	assert_int_equal(config_load_if_exists(path.buf, &cfg), 1);
	assert_string_equal(msgs.buf, "");
	assert_string_equal(cfg.golden.dir, "golden_traces");
	config_release(&cfg);

	/* messages name the file as given */
	f = fopen(path.buf, "w");
	assert_non_null(f);
	fputs("[[assertion]]\nname = \"a\"\ntype = \"span_count\"\nmax_spans = -4\n", f);
	fclose(f);
	strbuf_reset(&msgs);
	assert_int_equal(config_load(path.buf, &cfg), -1);
	strbuf_reset(&want);
	strbuf_addf(&want, "%s:4:13: assertion 'a': 'max_spans' must not be negative (got -4)\n",
		    path.buf);
	assert_string_equal(msgs.buf, want.buf);
	config_release(&cfg);
	assert_int_equal(config_load_if_exists(path.buf, &cfg), -1);
	config_release(&cfg);

	f = fopen(path.buf, "w");
	fputs("[ci]\nfail_fast = true\n", f);
	fclose(f);
	assert_int_equal(config_load_if_exists(path.buf, &cfg), 0);
	assert_true(cfg.ci.fail_fast);
	assert_string_equal(cfg.path, path.buf);
	config_release(&cfg);

	unlink(path.buf);
	rmdir(dir);
	strbuf_release(&path);
	strbuf_release(&want);
}

static void check_split(const char *cmd, const char *const *want)
{
	size_t argc = 0, n = 0;
	char err[64];
	char **argv = config_split_command(cmd, &argc, err, sizeof(err));

	assert_non_null(argv);
	while (want[n])
		n++;
	assert_int_equal(argc, n);
	for (size_t i = 0; i < n; i++) {
		assert_string_equal(argv[i], want[i]);
		free(argv[i]);
	}
	assert_null(argv[n]);
	free(argv);
}

static void test_split_command(void **state)
{
	char err[64];
	size_t argc;

	check_split("ls -l /", (const char *const[]){ "ls", "-l", "/", NULL });
	check_split("  a\t b  ", (const char *const[]){ "a", "b", NULL });
	check_split("", (const char *const[]){ NULL });
	check_split("sh -c 'echo $HOME | wc'", (const char *const[]){ "sh", "-c", "echo $HOME | wc", NULL });
	check_split("echo \"a \\\"b\\\" \\$c \\n\"", (const char *const[]){ "echo", "a \"b\" $c \\n", NULL });
	check_split("a\\ b c''d \"\"", (const char *const[]){ "a b", "cd", "", NULL });
	check_split("x'y'\"z\"w", (const char *const[]){ "xyzw", NULL });
	assert_null(config_split_command("a 'b", &argc, err, sizeof(err)));
	assert_string_equal(err, "unterminated single quote");
	assert_null(config_split_command("a \"b", &argc, err, sizeof(err)));
	assert_string_equal(err, "unterminated double quote");
	assert_null(config_split_command("a \\", &argc, err, sizeof(err)));
	assert_string_equal(err, "backslash at the end of the command");
}

static void test_names(void **state)
{
	assert_string_equal(config_assertion_type_name(ASSERTION_CRITICAL_PATH), "critical_path");
	assert_string_equal(config_assertion_type_name(ASSERTION_ANTI_PATTERN), "anti_pattern");
	assert_string_equal(config_tracking_mode_name(TRACKING_RSS), "rss");
	assert_string_equal(config_anti_pattern_name(ANTI_PATTERN_UNBUFFERED_IO), "UnbufferedIO");
	assert_string_equal(config_anti_pattern_name(ANTI_PATTERN_TIGHT_LOOP), "TightLoop");
	assert_string_equal(config_ci_format_name(CI_FORMAT_MARKDOWN), "markdown");
	assert_string_equal(config_assertion_type_name((enum assertion_type)0), "?");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_seeds_file),
		cmocka_unit_test(test_starter),
		cmocka_unit_test(test_every_key),
		cmocka_unit_test(test_compression_sources),
		cmocka_unit_test(test_assertion_errors),
		cmocka_unit_test(test_syntax_errors),
		cmocka_unit_test(test_table_errors),
		cmocka_unit_test(test_warnings),
		cmocka_unit_test(test_load_file),
		cmocka_unit_test(test_split_command),
		cmocka_unit_test(test_names),
	};
	int rc;

	error_set_hook(hook);
	rc = cmocka_run_group_tests(tests, NULL, NULL);
	error_set_hook(NULL);
	strbuf_release(&msgs);
	return rc;
}
