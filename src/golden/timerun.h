/*
 * The untraced timing runs of the golden workflow (docs/golden.md, "How time
 * is measured"): the command runs without the tracer, in the run
 * environment its traced runs had (standard streams, working directory,
 * recorded variables: grun_do()'s set-up), and each run's wall, CPU and
 * net time are kept in the trace's timing ("untraced").  Capture measures
 * a fixed number of runs; validate measures a batch, and more while the
 * comparison with the golden is not decided (timecmp.h), and judges the
 * critical_path budgets of renacer.toml on the same runs.
 */
#ifndef RENACER_GOLDEN_TIMERUN_H
#define RENACER_GOLDEN_TIMERUN_H

#include "golden/grun.h"

struct analysis;

/*
 * Runs argv untraced n times (ct: the declared trace, may be NULL) and
 * appends each run to m.  Returns 0, -1 after error() when a run could not
 * be made, or -2 when renacer was interrupted (*interrupted gets the
 * signal; nothing printed).
 */
int gtime_measure(struct gwork *w, char *const argv[], const struct config_trace *ct,
		  unsigned n, struct gmeasured *m, int *interrupted);

/* callgrind automatic (golden_opts.callgrind -1): for programs whose
 * untraced runs take less than this (median wall), microseconds */
#define CALLGRIND_AUTO_US 100000

/*
 * Capture: measures the command's untraced runs into t->meas (o.timing_runs
 * of them, or GOLDEN_TIMING_RUNS; fewer for a command that runs over a
 * second) and, with callgrind on (or automatic and the command short), its
 * instruction count.  Returns as
 * gtime_measure().
 */
int gtime_capture(struct gwork *w, char *const argv[], const struct config_trace *ct,
		  struct gtiming *t, int *interrupted);

/*
 * Validate: measures the current runs into cur->meas against golden g:
 * GOLDEN_TIMING_BATCH runs, then a batch more while the comparison is
 * slower for the first time or inconclusive, up to o.timing_max_runs (a
 * slowdown counts once it is seen again with the added runs); with
 * callgrind on and a golden count, the count (once more when it is over);
 * automatic, only when the timing came out inconclusive.
 * A golden without untraced runs gets one batch (its .new then has them).
 * Returns as gtime_measure().
 */
int gtime_validate(struct gwork *w, char *const argv[], const struct config_trace *ct,
		   const struct gtiming *g, struct gtiming *cur, int *interrupted);

/*
 * The critical_path budgets of renacer.toml judged on the untraced runs of
 * cur->meas: gives them to an (analysis_set_runtime()), and while an
 * enabled critical_path assertion fails on their median, measures a batch
 * more (up to o.timing_max_runs) before it counts.  Returns as
 * gtime_measure().
 */
int gtime_budgets(struct gwork *w, char *const argv[], const struct config_trace *ct,
		  struct analysis *an, struct gtiming *cur, int *interrupted);

#endif
