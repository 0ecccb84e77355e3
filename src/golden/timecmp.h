/*
 * The timing part of a golden comparison.  When both sides have untraced
 * runs (timing.untraced: capture and validate measure them), the verdict
 * is a directional test between the two samples (measure/mstat.h): net
 * time (wall less the waits for a CPU) always, CPU time too for a
 * CPU-bound program; slower, the same, or inconclusive.  The current times
 * are first moved by how much the reference exec run beside each (the cost
 * of starting a small program, timerun.c) drifted since the capture.  A
 * slowdown must show again in each of two batches made a pause apart
 * (validate makes them), or it is inconclusive: the load of a shared
 * machine comes and goes by the second.  A golden without
 * them (an older renacer) is judged on its traced runs' timing against a
 * noise-aware limit, and says so; one run against one run is inconclusive.
 * Then where the time went (time per syscall of the traced runs) and the
 * configured per-syscall time limits.  Called by golden_compare() once the
 * count rows of r are filled and sorted.
 */
#ifndef RENACER_GOLDEN_TIMECMP_H
#define RENACER_GOLDEN_TIMECMP_H

#include "golden/golden.h"
#include "golden/model.h"
#include "golden/result.h"
#include "measure/mstat.h"

/* A program is CPU-bound when its CPU time is at least this share of its net time. */
#define GTIME_CPU_BOUND 0.8
/* A process tree's net slowdown smaller than this share of the waits for
 * a CPU taken out of its runs (the larger median, golden's or current) is
 * inconclusive: on a loaded machine a tree's waits are measured to a
 * fraction of themselves (its tasks' waits overlap, and a child's wait
 * delays its parent only in part).  One task's waits are its schedstat
 * run delay, exact, and are not doubted. */
#define GTIME_WAIT_DOUBT 0.25
/* A CPU-time slowdown under GTIME_SAME_WORK_MAX times the golden's, of a
 * program whose instructions under callgrind are within GTIME_SAME_WORK
 * of the golden's (both counted), is inconclusive: the same user-space work
 * took longer because the machine was slower (a busy sibling hyperthread,
 * a lower clock, a colder cache); unchanged 1-50 ms programs beside a CPU
 * hog measured up to 1.5x.  A slowdown in memory access alone would not
 * show in the count: that is the price (docs/golden.md). */
#define GTIME_SAME_WORK 0.02
#define GTIME_SAME_WORK_MAX 2.0
/* A batch made a pause later confirms a slowdown at this level (its ratio
 * must reach the minimum effect as well). */
#define GTIME_CONFIRM_ALPHA 0.05

/* The verdict on two sets of untraced runs. */
struct gtime_verdict {
	enum mverdict v;             /* over the times tested: slower when one is,
					else inconclusive when one is */
	bool cpu_bound;              /* the golden's CPU time >= GTIME_CPU_BOUND of its net time */
	struct mtest net;            /* net time: wall less the waits for a CPU */
	struct mtest cpu;            /* CPU time (tested when cpu_bound) */
	struct mtest net_low;        /* net time less every task's waits (a tree) */
	bool tree_doubt;             /* the net time was slower, the lower one not:
					the tree's overlapping waits may explain it */
	const char *metric;          /* "net" or "cpu": the time that gave v */
	bool wait_doubt;             /* the net time was slower by less than
					GTIME_WAIT_DOUBT of the waits taken out */
	double wait_us;              /* those waits (median a run) */
	bool unconfirmed;            /* slower at first, but not in a batch made a
					pause later (meas.later): inconclusive */
	struct mtest later;          /* the test of that batch alone */
	bool adjusted;               /* the current times were adjusted by the
					drift of the reference exec: */
	double g_ref_us, c_ref_us;   /* its median net time, golden and current */
};

/* callgrind automatic: a single-task command whose golden's untraced runs
 * took less than this (median wall, microseconds) is counted in every
 * validation whose time does not rule out a quarter of the minimum effect
 * (the 98% interval's upper end under +10%): its time cannot tell a doubled
 * computation (+20%) from its start-up's noise, its count takes about 0.5 s. */
#define CALLGRIND_EVERY_US 10000

/* Whether validate counts current c's instructions in every validation
 * against golden g (its count automatic: CALLGRIND_EVERY_US). */
bool gtime_count_every(const struct gmeasured *g, const struct gmeasured *c);

/* Whether verdict tv is a CPU-time slowdown that the same instruction
 * count would show to be the machine's (GTIME_SAME_WORK). */
bool gtime_may_be_same_work(const struct gtime_verdict *tv);

/* Judges current runs c against golden runs g with o's thresholds. */
void gtime_judge(const struct gmeasured *g, const struct gmeasured *c,
		 const struct golden_opts *o, struct gtime_verdict *out);

/*
 * Compares the timing of current c (or of the current runs cs, may be NULL)
 * with golden g: fills r's timing fields and adds GF_TIMING and GF_TIME
 * findings to r.  Never fails.
 */
void gtiming_check(struct gresult *r, const struct gmodel *g, const struct gmodel *c,
		   const struct golden_opts *o, const struct gsamples *cs);

#endif
