/*
 * Unit tests for the directional comparison of run times
 * (src/measure/mstat.c): exact p-values against a brute-force enumeration
 * of every arrangement, the normal approximation against the exact one,
 * the ratio estimate, and the three outcomes (same, slower, inconclusive)
 * on samples built to be each.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "measure/mstat.h"

#include "util/banned.h"

/* P(U >= u) by enumerating which of the n + m ranks the current samples take. */
static double brute_p(size_t ng, size_t nc, double u_obs)
{
	size_t n = ng + nc, count = 0, total = 0;
	for (unsigned long mask = 0; mask < (1UL << n); mask++) {
		size_t k = 0, golden_below = 0;
		double u = 0;
		for (size_t b = 0; b < n; b++)
			k += mask >> b & 1;
		if (k != nc)
			continue;
		total++;
		for (size_t b = 0; b < n; b++) {
			if (mask >> b & 1)
				u += (double)golden_below;   /* a current sample at rank b */
			else
				golden_below++;
		}
		if (u >= u_obs)
			count++;
	}
	return (double)count / (double)total;
}

/* Samples whose ranks interleave as pattern says ('g' golden, 'c' current). */
static void from_pattern(const char *pattern, double *g, size_t *ng, double *c, size_t *nc)
{
	*ng = *nc = 0;
	for (size_t i = 0; pattern[i]; i++) {
		double v = 1000 + 10 * (double)i;
		if (pattern[i] == 'g')
			g[(*ng)++] = v;
		else
			c[(*nc)++] = v;
	}
}

static void test_exact_p(void **state)
{
	static const char *const patterns[] = {
		"gggccc", "gggggccccc", "ggcgcgcc", "cgcgcgcg", "ccccgggg", "gggggggcgcccc",
		"gcgggcggccgc", "ggggggggggccccc",
	};
	struct mtest_opts o = MTEST_OPTS_INIT;
	(void)state;
	for (size_t k = 0; k < sizeof(patterns) / sizeof(patterns[0]); k++) {
		double g[32], c[32], u = 0;
		size_t ng, nc;
		struct mtest t;
		from_pattern(patterns[k], g, &ng, c, &nc);
		for (size_t i = 0; i < ng; i++)
			for (size_t j = 0; j < nc; j++)
				u += c[j] > g[i];
		mtest_run(g, ng, c, nc, &o, &t);
		assert_true(fabs(t.p - brute_p(ng, nc, u)) < 1e-12);
	}
}

static void test_known_values(void **state)
{
	struct mtest_opts o = MTEST_OPTS_INIT;
	double g[5] = { 1000, 1010, 990, 1005, 995 }, c[5] = { 2000, 2010, 1990, 2005, 1995 };
	struct mtest t;
	(void)state;
	/* complete separation: 1 / C(10, 5) */
	mtest_run(g, 5, c, 5, &o, &t);
	assert_true(fabs(t.p - 1.0 / 252) < 1e-12);
	assert_true(fabs(t.p_min - 1.0 / 252) < 1e-12);
	assert_true(fabs(t.ratio - 2.0) < 0.02);
	assert_true(t.lo > 1.9 && t.hi < 2.1);
	assert_int_equal(t.v, MV_SLOWER);
	/* three against three can never reach 0.01: 1 / 20 at best */
	mtest_run(g, 3, c, 3, &o, &t);
	assert_true(fabs(t.p - 0.05) < 1e-12);
	assert_true(t.too_few);
	assert_int_equal(t.v, MV_INCONCLUSIVE);
}

/* The normal approximation (ties force it) agrees with the exact test. */
static void test_normal_close(void **state)
{
	struct mtest_opts o = MTEST_OPTS_INIT;
	double g[20], c[20], g2[20], c2[20];
	struct mtest te, tn;
	(void)state;
	for (int i = 0; i < 20; i++) {
		g[i] = 1000 + 13 * i;
		c[i] = 1100 + 13 * i + 0.5;
		g2[i] = g[i];
		c2[i] = c[i];
	}
	c2[0] = g2[0];       /* one tie */
	mtest_run(g, 20, c, 20, &o, &te);
	mtest_run(g2, 20, c2, 20, &o, &tn);
	assert_true(fabs(te.p - tn.p) < 0.01);
}

static double noise(unsigned *seed)
{
	*seed = *seed * 1103515245u + 12345u;
	return ((*seed >> 8) & 0xffff) / 65536.0;
}

/* Same distribution: same; twice as long: slower; one run each: inconclusive. */
static void test_outcomes(void **state)
{
	struct mtest_opts o = MTEST_OPTS_INIT;
	double g[10], c[5], c2[5], wide[5], wg[10];
	unsigned seed = 7;
	struct mtest t;
	(void)state;
	for (int i = 0; i < 10; i++)
		g[i] = 1000 * (1 + 0.1 * noise(&seed));
	for (int i = 0; i < 5; i++) {
		c[i] = 1000 * (1 + 0.1 * noise(&seed));
		c2[i] = 2 * c[i];
	}
	mtest_run(g, 10, c, 5, &o, &t);
	assert_int_equal(t.v, MV_SAME);
	mtest_run(g, 10, c2, 5, &o, &t);
	assert_int_equal(t.v, MV_SLOWER);
	assert_true(t.p < 0.01 && t.ratio > 1.8);
	/* faster is never slower */
	mtest_run(c2, 5, g, 10, &o, &t);
	assert_int_not_equal(t.v, MV_SLOWER);
	mtest_run(g, 1, c2, 1, &o, &t);
	assert_int_equal(t.v, MV_INCONCLUSIVE);
	assert_true(t.too_few);
	/* noise of a factor of five: a slowdown of 50% cannot be ruled out */
	for (int i = 0; i < 10; i++)
		wg[i] = 1000 * (1 + 4 * noise(&seed));
	for (int i = 0; i < 5; i++)
		wide[i] = 1000 * (1 + 4 * noise(&seed));
	mtest_run(wg, 10, wide, 5, &o, &t);
	assert_int_equal(t.v, MV_INCONCLUSIVE);
	assert_true(t.hi >= 1.5);
	/* +10%: below the minimum effect, significant or not */
	for (int i = 0; i < 5; i++)
		c2[i] = 1.1 * c[i] + 60;
	mtest_run(g, 10, c2, 5, &o, &t);
	assert_int_not_equal(t.v, MV_SLOWER);
	/* twice as long but by less than the absolute minimum (50 us) */
	for (int i = 0; i < 10; i++)
		g[i] = 20 + noise(&seed);
	for (int i = 0; i < 5; i++)
		c2[i] = 40 + noise(&seed);
	mtest_run(g, 10, c2, 5, &o, &t);
	assert_int_not_equal(t.v, MV_SLOWER);
}

static void test_median(void **state)
{
	double v[4] = { 4, 1, 3, 2 };
	(void)state;
	assert_true(mstat_median(v, 4) == 2.5);
	assert_true(mstat_median(v, 3) == 3);
	assert_true(v[0] == 4);     /* not sorted in place */
	assert_true(mstat_median(v, 0) == 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_exact_p),
		cmocka_unit_test(test_known_values),
		cmocka_unit_test(test_normal_close),
		cmocka_unit_test(test_outcomes),
		cmocka_unit_test(test_median),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
