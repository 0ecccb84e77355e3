/* The commented starter renacer.toml that `renacer init` writes (see config.h). */
#include "config/config.h"

#include <string.h>

#include "util/xmalloc.h"

#include "util/banned.h"

static const char starter_head[] =
"# renacer.toml: performance budgets and golden-trace settings for renacer.\n"
"# Written by `renacer init` with the defaults of renacer's golden-trace\n"
"# integrations; every key is documented in docs/renacer-toml.md.\n"
"\n"
"# ---- Performance assertions ------------------------------------------------\n"
"# `renacer --assert renacer.toml -- COMMAND` traces COMMAND and checks every\n"
"# enabled assertion; `renacer assert TRACE` checks a saved trace.  A failed\n"
"# assertion with fail_on_violation = true makes the exit status 1 (Andon:\n"
"# stop the line); with false it only warns.\n"
"\n";

static const char starter_budgets[] =
"# Wall-clock time along the chain of processes the run waits for.\n"
"[[assertion]]\n"
"name = \"example_startup_latency\"\n"
"type = \"critical_path\"\n"
"max_duration_ms = 100\n"
"fail_on_violation = true\n"
"enabled = true\n"
"# trace_name_pattern = \"^myprog$\"   # only processes whose name matches (regex)\n"
"\n"
"# Number of syscalls in the run.\n"
"[[assertion]]\n"
"name = \"max_syscall_budget\"\n"
"type = \"span_count\"\n"
"max_spans = 500\n"
"fail_on_violation = true\n"
"enabled = true\n"
"# span_name_pattern = \"^(read|write)$\"   # count only these syscalls (regex)\n"
"\n"
"# Peak of memory mapped by the process tree (\"rss\": peak resident set).\n"
"[[assertion]]\n"
"name = \"memory_allocation_budget\"\n"
"type = \"memory_usage\"\n"
"max_bytes = 104857600  # 100MB\n"
"tracking_mode = \"allocations\"\n"
"fail_on_violation = true\n"
"enabled = true\n"
"\n";

static const char starter_rest[] =
"# One process does nearly all the syscalls while the others idle.\n"
"[[assertion]]\n"
"name = \"prevent_god_process\"\n"
"type = \"anti_pattern\"\n"
"pattern = \"GodProcess\"\n"
"threshold = 0.8  # confidence (0..1) at which it fires\n"
"fail_on_violation = false  # warning only\n"
"enabled = true\n"
"\n"
"# Transfers to GPU devices (/dev/nvidia*, /dev/dri/*, /dev/kfd) dominate the run.\n"
"[[assertion]]\n"
"name = \"detect_pcie_bottleneck\"\n"
"type = \"anti_pattern\"\n"
"pattern = \"PCIeBottleneck\"\n"
"threshold = 0.7\n"
"fail_on_violation = false  # warning only\n"
"enabled = true\n"
"\n"
"# Other detectors: TightLoop, UnbufferedIO, RedundantFileAccess.\n"
"\n"
"# A stricter budget, kept for reference but not checked.\n"
"[[assertion]]\n"
"name = \"ultra_strict_latency\"\n"
"type = \"critical_path\"\n"
"max_duration_ms = 50\n"
"fail_on_violation = true\n"
"enabled = false\n"
"\n"
"# ---- Golden traces ---------------------------------------------------------\n"
"# `renacer capture` records the traces declared below; `renacer validate`\n"
"# re-runs them and compares each against its golden.\n"
"\n"
"[semantic_equivalence]\n"
"enabled = true\n"
"min_confidence = 0.90  # a comparison passes at or above this confidence\n"
"\n"
"[golden_traces]\n"
"dir = \"golden_traces\"\n"
"# runs = 3                  # automatic: 3 runs (5 for a multi-threaded command)\n"
"tolerance_pct = 5           # syscall count tolerance: +-5%\n"
"runtime_tolerance_pct = 50  # runtime slack over the golden's\n"
"ignore_syscalls = []\n"
"# normalize = [ { pattern = \"/tmp/build-[0-9]+\", replace = \"/tmp/build-N\" } ]\n"
"\n"
"# [golden_traces.tolerances]\n"
"# futex = 50                 # per-syscall count tolerance, in percent\n"
"\n"
"# [[golden_traces.trace]]\n"
"# name = \"hello\"\n"
"# command = [\"./build/hello\", \"--quiet\"]\n"
"# env = { LANG = \"C\" }\n"
"# follow = true\n"
"\n"
"[compression]\n"
"enabled = true\n"
"algorithm = \"zstd\"\n"
"threshold_bytes = 102400  # store traces over 100KB as NAME.json.zst\n"
"level = 3\n"
"\n"
"# ---- Export and CI ---------------------------------------------------------\n"
"\n"
"[otlp]                    # OpenTelemetry export (docs/otlp.md); --otlp URL does the same\n"
"enabled = false\n"
"endpoint = \"http://localhost:4318\"\n"
"service_name = \"renacer\"\n"
"protocol = \"http/protobuf\"  # or \"grpc\" (port 4317), \"http/json\"\n"
"# min_duration_us = 100    # spans only for syscalls this slow (process spans count all)\n"
"\n"
"[ci]\n"
"fail_fast = false\n"
"export_format = \"text\"\n"
"# junit_path = \"renacer-junit.xml\"\n";

const char *config_starter_text(bool budgets)
{
	static char *text[2];
	int k = budgets ? 1 : 0;

	if (!text[k]) {
		size_t a = strlen(starter_head), b = budgets ? strlen(starter_budgets) : 0,
		       c = strlen(starter_rest);
		text[k] = xmalloc(a + b + c + 1);
		memcpy(text[k], starter_head, a);
		memcpy(text[k] + a, starter_budgets, b);
		memcpy(text[k] + a + b, starter_rest, c + 1);
	}
	return text[k];
}
