/*
 * Timing of a golden trace, stored under the "timing" key of the golden
 * JSON: the untraced runs that judge its time (every run's wall, CPU and
 * net time: "untraced"), statistics of the traced runs (median and spread
 * of the whole run and of each syscall's total time: where time goes), and
 * the capture context (cwd, home, tmpdir) that path normalization needs.
 */
#ifndef RENACER_GOLDEN_TIMING_H
#define RENACER_GOLDEN_TIMING_H

#include <stddef.h>
#include <stdbool.h>
#include <stdint.h>

#include "golden/variation.h"

/* Context for path normalization: prefixes replaced by $CWD, $HOME, $TMPDIR. */
struct gcontext {
	char *cwd, *home, *tmpdir;   /* each may be NULL */
};

/* Statistics of a set of samples. */
struct gstat {
	double median, min, max;
	double mad;                  /* median absolute deviation */
};

struct gtiming_sc {
	char *name;
	double calls;                /* median call count */
	struct gstat us;             /* total time in the syscall, us */
};

/*
 * The untraced runs of a capture or validation (measure/measure.h), each
 * run's numbers kept: the comparison is a test between two samples.
 */
struct gmeasured {
	unsigned runs;               /* 0: none (a golden of renacer 0.9 or older:
					its timing is its traced runs') */
	double *wall_us;             /* per run: wall time */
	double *cpu_us;              /* user + system CPU time of the tree */
	double *user_us, *sys_us;    /* the same split (the kernel's tick-sampled
					split of the exact sum), or NULL */
	double *net_us;              /* wall time less the waits for a CPU */
	double *net_low_us;          /* the same with every task's waits added up
					(measure.h), or NULL when it is net_us */
	double *wait_us;             /* those waits */
	double *maxrss_kb;           /* peak resident set of the largest process */
	double *instructions;        /* hardware counts per run, or NULL when the */
	double *cycles;              /*   machine had none */
	double *ref_net_us;          /* per run: the net and CPU time of the */
	double *ref_cpu_us;          /*   reference exec just before it (the
					machine's speed at that moment), or NULL */
	char *waits;                 /* how the waits were measured: "tree" (every
					task), "main" (the main thread), "none" */
	char *no_counters;           /* why there are no hardware counts, or NULL */
	double callgrind_ir;         /* instructions under callgrind; 0: not counted */
	bool callgrind_auto;         /* counted by callgrind's automatic mode
					(capture: a short program; validate: an
					inconclusive timing): compared with the
					timing's minimum effect, not the tolerance */
	unsigned tasks;              /* the most tasks (processes and threads) a
					run had; 0: not known (an older golden) */
	unsigned later[2];           /* batches measured a pause after the others,
					to confirm a slowdown: the first run of
					each (0: none) */
};

/* One untraced run's numbers; < 0: not known. */
struct gmrun {
	double wall, cpu, user, sys, net, net_low, wait, maxrss_kb;
	double instructions, cycles;
	double ref_net, ref_cpu;
	unsigned tasks;              /* 0: not known */
};

/* Appends one run (the arrays grow; an optional one is dropped once a run lacks it). */
void gmeasured_add(struct gmeasured *m, const struct gmrun *r);
void gmeasured_release(struct gmeasured *m);

struct gtiming {
	int runs;                    /* 0: no timing recorded */
	struct gstat wall_us;        /* wall time of the run */
	struct gstat cpu_us;         /* CPU time (user + system) of the traced processes */
	int has_cpu;
	struct gstat net_us;         /* wall time less the time renacer and the
					command waited for a CPU (run-queue waits) */
	int has_net;
	struct gtiming_sc *sc;
	size_t nsc;
	struct gcontext ctx;
	int has_ctx;
	struct gvar var;             /* measured volatility (var.runs 0: none) */
	struct gmeasured meas;       /* the untraced runs (meas.runs 0: none) */
};

/* Fills st from n samples (sorts them in place); all zero when n == 0. */
void gstat_from(struct gstat *st, double *samples, size_t n);

/* Fills ctx from the current process (getcwd, $HOME, $TMPDIR). */
void gcontext_current(struct gcontext *ctx);
void gcontext_release(struct gcontext *ctx);

/*
 * Renders t as the JSON text of the "timing" object (no key, no newline)
 * into *out (a malloc'ed string the caller frees).
 */
char *gtiming_to_json(const struct gtiming *t);

/*
 * Fills t from a parsed "timing" object (a json_t *, may be NULL: then
 * t->runs is 0).  Returns 0, or -1 after error() when the object has the
 * wrong shape (file names the trace in the message).
 */
int gtiming_from_json(struct gtiming *t, const void *json, const char *file);

/* Looks up the statistics of syscall name, or NULL. */
const struct gtiming_sc *gtiming_sc(const struct gtiming *t, const char *name);

void gtiming_release(struct gtiming *t);

#endif
