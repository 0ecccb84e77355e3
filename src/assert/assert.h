/*
 * Performance assertions (renacer.toml [[assertion]]) and anti-pattern
 * detectors, evaluated on one traced run: live (the analysis sink rides
 * along with the other sinks) or replayed from a saved trace.
 *
 * Integration contract (trace_cmd.c for --assert / --anti-patterns,
 * cmd_assert.c, and golden validate):
 *
 *   struct analysis *an = analysis_new();
 *   sink_list_add(&sinks, analysis_sink_new(an));   // sink does not own an
 *   opts.follow = true;                  // assertions measure the whole tree
 *   opts.collect_rss |= assert_needs_rss(cfg);       // rss tracking_mode
 *   tracer_run(&opts, argv, &sinks, &end);           // or trace_read(...)
 *   sink_list_release(&sinks);           // the sink may go; an stays valid
 *   int st = assert_report(cfg, an, fmt, stderr, NULL);   // --assert
 *   anti_patterns_report(an, fmt, stderr);                // --anti-patterns
 *   analysis_free(an);
 *
 * The analysis sink must see the whole run, so it must be added before
 * tracer_run/trace_read and it ignores EV_SYSCALL_ENTRY.  It holds no
 * pointer into events.  assert_report() returns the exit-status
 * contribution: 1 when an enabled assertion with fail_on_violation = true
 * failed, else 0 (-1 after error() when writing failed).  The caller
 * combines it: the traced command's own failure (non-zero exit status or
 * death by a signal) takes precedence, then 1 from assert_report, then 0.
 * Exit status 5 (bad configuration) comes from config_load() in the CLI,
 * before anything runs.
 */
#ifndef RENACER_ASSERT_H
#define RENACER_ASSERT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "sink/sink.h"
#include "util/strbuf.h"

struct analysis;
struct renacer_config;

/* ---- the analysis -------------------------------------------------------- */

/* A new empty analysis; free it with analysis_free(). */
struct analysis *analysis_new(void);
void analysis_free(struct analysis *a);
/* Empties a, as analysis_new() made it (a run recorded again). */
void analysis_reset(struct analysis *a);

/*
 * A sink that feeds a (not owned).  Freeing the sink leaves a intact; a
 * must outlive the sink.  It reads the tracker's tasks and objects
 * (sink_ops.needs_track), so events reach it through a sink list.  Memory
 * stays bounded on runs of millions of syscalls: counters, per-process
 * aggregates, small windows per thread, what live processes moved through
 * the objects they hold, their mappings, capped path counters.
 */
struct sink *analysis_sink_new(struct analysis *a);

/* Adds per-syscall totals (an engine without records; see sink_ops.totals). */
void analysis_totals(struct analysis *a, const struct trace_totals *tt);
/* Marks the end of the run (wall time from te when non-NULL). */
void analysis_end(struct analysis *a, const struct trace_end *te);

/* Numbers for tests and reports. */
uint64_t analysis_syscalls(const struct analysis *a);
/* Peak of committed memory of the tree (tracking_mode "allocations"), bytes. */
uint64_t analysis_mem_peak(const struct analysis *a);
/* Peak resident set of the tree (tracking_mode "rss"), bytes; 0 unknown. */
uint64_t analysis_rss_peak(const struct analysis *a);
/* Wall time along the critical path (ns); pattern NULL means all processes. */
uint64_t analysis_critical_path_ns(const struct analysis *a, const char *pattern);
/*
 * Gives a the times of n untraced runs of the same command (golden/timerun.h):
 * net of the waits for a CPU, and wall, in us (copied).  critical_path then
 * measures the median net time (the share of the traced path its processes
 * took, with trace_name_pattern) instead of the traced run's wall time,
 * which the tracer stretches and the machine's load inflates.  n 0 forgets.
 */
void analysis_set_runtime(struct analysis *a, const double *net_us, const double *wall_us,
			  size_t n);

/* ---- anti-pattern detectors -------------------------------------------- */

enum output_format {
	OUT_TEXT = 0,
	OUT_JSON,
	OUT_JUNIT,
};

/* Parses "text", "json", "junit"; -1 when unknown. */
int output_format_parse(const char *s);

/* What one detector found. */
struct ap_finding {
	const char *pattern;     /* detector name, e.g. "TightLoop" (static) */
	double confidence;       /* 0..1 */
	char *headline;          /* "PCIe Bottleneck detected (confidence: 85%)" */
	char **evidence;         /* lines: which calls, how many, how much time */
	size_t nevidence;
	char *recommendation;    /* NULL when nothing was found */
};

/* The detectors' names, NULL-terminated: TightLoop, GodProcess, ... */
extern const char *const anti_pattern_names[];

/* True when name is a detector (exact, case-sensitive). */
bool anti_pattern_known(const char *name);

/* Confidence at or above which `renacer analyze` reports a finding. */
#define AP_REPORT_THRESHOLD 0.5

/*
 * Runs detector pattern on a and fills f (release with ap_finding_release).
 * Returns 0, or -1 after error() for an unknown pattern.
 */
int anti_pattern_run(const struct analysis *a, const char *pattern, struct ap_finding *f);
void ap_finding_release(struct ap_finding *f);

/*
 * Runs every detector and writes what they found to out (text: one block
 * per detector; json: renacer-anti-patterns-v1).  Returns 0 or -1 after
 * error() on a write failure.  Findings never change the exit status.
 */
int anti_patterns_report(const struct analysis *a, enum output_format fmt, FILE *out);
void anti_patterns_format(const struct analysis *a, enum output_format fmt,
			  struct strbuf *out);

/* ---- assertions ----------------------------------------------------------- */

enum assert_status {
	AS_PASSED = 0,
	AS_FAILED,               /* violated, fail_on_violation = true */
	AS_WARNING,              /* violated, fail_on_violation = false */
	AS_SKIPPED,              /* enabled = false */
};

enum assert_unit {
	AU_MS = 0,               /* critical_path */
	AU_CALLS,                /* span_count */
	AU_BYTES,                /* memory_usage */
	AU_CONFIDENCE,           /* anti_pattern: 0..1 */
};

struct assert_result {
	const char *name;        /* borrowed from the config */
	const char *type;        /* "critical_path", ... (static) */
	enum assert_status status;
	bool fail_on_violation;
	bool measured;           /* false: the trace lacks the data (see evidence) */
	enum assert_unit unit;
	double actual, budget;   /* in unit */
	double regression_pct;   /* (actual - budget) / budget * 100 */
	char *summary;           /* e.g. "87 / 500 calls" */
	char **evidence;         /* detail lines */
	size_t nevidence;
	char *recommendation;    /* or NULL */
};

struct assert_results {
	struct assert_result *r;
	size_t n, alloc;
	unsigned passed, failed, warnings, skipped;
};
#define ASSERT_RESULTS_INIT { NULL, 0, 0, 0, 0, 0, 0 }

/*
 * Evaluates the assertions of cfg (in file order) that budget a run of the
 * golden trace trace (NULL: a run of no known trace; see
 * config_assertion_applies) on a; disabled ones are listed as skipped.  Returns 0 or -1 after error() (an assertion the
 * config layer let through but that cannot be evaluated).  Release res
 * with assert_results_release().
 */
int assert_eval(const struct renacer_config *cfg, const char *trace, const struct analysis *a,
		struct assert_results *res);
void assert_results_release(struct assert_results *res);

/* 1 when a fail_on_violation assertion failed, else 0. */
int assert_exit_status(const struct assert_results *res);

/*
 * Renders res: text as the seeds show it, json (renacer-assert-v1) or
 * junit (JUnit XML).  source names what was evaluated (a trace file or
 * the command), or NULL.
 */
void assert_format(const struct assert_results *res, enum output_format fmt,
		   const char *source, struct strbuf *out);

/*
 * assert_eval + assert_format to out.  Returns the exit-status
 * contribution (0 or 1), -1 after error() when evaluating failed, or
 * ASSERT_WRITE_FAILED after error() when out could not be written.
 */
#define ASSERT_WRITE_FAILED (-2)
int assert_report(const struct renacer_config *cfg, const char *trace, const struct analysis *a,
		  enum output_format fmt, FILE *out, const char *source);

/* True when some enabled assertion needs per-process peak RSS (collect_rss). */
bool assert_needs_rss(const struct renacer_config *cfg);

/*
 * True when every enabled assertion needs only per-syscall counts
 * (span_count), so the run can be counted in the kernel (the analysis
 * sink's totals callback, --backend ebpf) instead of recorded call by call.
 */
bool assert_counts_only(const struct renacer_config *cfg);

#endif
