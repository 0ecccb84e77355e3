/*
 * Timing statistics of a golden trace (capture --runs N): median and
 * spread of the whole run and of each syscall's total time, stored under
 * the "timing" key of the golden JSON together with the capture context
 * (cwd, home, tmpdir) that path normalization needs.
 */
#ifndef RENACER_GOLDEN_TIMING_H
#define RENACER_GOLDEN_TIMING_H

#include <stddef.h>
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
