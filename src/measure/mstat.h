/*
 * Is the current build slower?  A directional comparison of two samples of
 * run times (the golden's runs and the current ones): a one-sided rank test
 * (Mann-Whitney U: only slower counts), the size of the slowdown as a ratio
 * with its confidence interval (Hodges-Lehmann on the logarithms: the median
 * of all current/golden ratios), and one of three outcomes:
 *
 *   slower        the current runs are slower with p < alpha, by at least
 *                 the minimum effect (a ratio and an absolute amount);
 *   inconclusive  not shown slower, but the confidence interval still
 *                 reaches twice the minimum effect: the noise could hide
 *                 such a slowdown (or there are too few runs for the test
 *                 to ever reach alpha);
 *   same          neither.
 *
 * Rank statistics: one run slowed by the machine moves the result by one
 * rank, whatever its time.  Pure arithmetic; no allocation survives a call.
 */
#ifndef RENACER_MSTAT_H
#define RENACER_MSTAT_H

#include <stdbool.h>
#include <stddef.h>

enum mverdict {
	MV_SAME = 0,
	MV_SLOWER,
	MV_INCONCLUSIVE,
};

/* "same", "slower", "inconclusive". */
const char *mverdict_name(enum mverdict v);

struct mtest_opts {
	double alpha;            /* one-sided significance level (0.01) */
	double min_ratio;        /* minimum effect as a ratio (1.25: +25%) */
	double min_abs;          /* minimum effect in the samples' unit (50 us) */
};
#define MTEST_OPTS_INIT { 0.01, 1.25, 50.0 }

struct mtest {
	enum mverdict v;
	size_t ng, nc;           /* sample sizes */
	double g_median, c_median;
	double ratio;            /* estimated current / golden (1: the same) */
	double lo, hi;           /* its 1 - 2 alpha interval (0 / INFINITY when
				    the samples are too small to bound it) */
	double p;                /* one-sided p-value of "current is slower" */
	double p_min;            /* the smallest p these sample sizes can give */
	bool too_few;            /* p_min > alpha: no decision is possible */
};

/*
 * Compares current samples c[0..nc) with golden samples g[0..ng) (times,
 * > 0; values below 1 count as 1) and fills t.  Never fails; with fewer
 * than two samples on a side the outcome is inconclusive (too_few).
 */
void mtest_run(const double *g, size_t ng, const double *c, size_t nc,
	       const struct mtest_opts *o, struct mtest *t);

/* Median of v[0..n) (not changed); 0 when n == 0. */
double mstat_median(const double *v, size_t n);

#endif
