/* A directional comparison of two samples of run times (see mstat.h). */
#include "measure/mstat.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/xmalloc.h"

#include "util/banned.h"

/* Exact null distributions up to this many pairs; a normal one above. */
#define EXACT_PAIRS 2500

const char *mverdict_name(enum mverdict v)
{
	switch (v) {
	case MV_SLOWER: return "slower";
	case MV_INCONCLUSIVE: return "inconclusive";
	default: return "same";
	}
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

double mstat_median(const double *v, size_t n)
{
	double *s, m;

	if (!n)
		return 0;
	s = xmalloc(n * sizeof(*s));
	memcpy(s, v, n * sizeof(*s));
	QSORT(s, n, cmp_double);
	m = n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
	free(s);
	return m;
}

static double norm_cdf(double z)
{
	return 0.5 * erfc(-z / M_SQRT2);
}

/* z with norm_cdf(z) = q (0 < q < 1), by bisection. */
static double norm_quantile(double q)
{
	double lo = -40, hi = 40;
	for (int i = 0; i < 200; i++) {
		double mid = (lo + hi) / 2;
		if (norm_cdf(mid) < q)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}

/*
 * The null distribution of U (pairs where a current sample exceeds a
 * golden one) for sizes ng, nc without ties: out[u] = P(U = u), u in
 * [0, ng * nc].  Arrangements counted by the last element: a current
 * sample after i golden ones adds i.
 */
static void u_dist(size_t ng, size_t nc, double *out)
{
	size_t N = ng * nc;
	double *prev = xcalloc((nc + 1) * (N + 1), sizeof(*prev));
	double *cur = xcalloc((nc + 1) * (N + 1), sizeof(*cur));
	double total = 0;

#define AT(a, j, u) (a)[(j) * (N + 1) + (u)]
	/* i = 0 golden samples: one arrangement, U = 0 */
	for (size_t j = 0; j <= nc; j++)
		AT(prev, j, 0) = 1;
	for (size_t i = 1; i <= ng; i++) {
		memset(cur, 0, (nc + 1) * (N + 1) * sizeof(*cur));
		AT(cur, 0, 0) = 1;
		for (size_t j = 1; j <= nc; j++)
			for (size_t u = 0; u <= i * j; u++) {
				double v = AT(prev, j, u);          /* last is golden */
				if (u >= i)
					v += AT(cur, j - 1, u - i); /* last is current */
				AT(cur, j, u) = v;
			}
		double *t = prev;
		prev = cur;
		cur = t;
	}
	for (size_t u = 0; u <= N; u++)
		total += AT(prev, nc, u);
	for (size_t u = 0; u <= N; u++)
		out[u] = AT(prev, nc, u) / total;
#undef AT
	free(prev);
	free(cur);
}

void mtest_run(const double *g, size_t ng, const double *c, size_t nc,
	       const struct mtest_opts *o, struct mtest *t)
{
	size_t N = ng * nc, K = 0;
	double *lg, *lc, *d, U = 0;
	bool ties = false;

	memset(t, 0, sizeof(*t));
	t->ng = ng;
	t->nc = nc;
	t->g_median = mstat_median(g, ng);
	t->c_median = mstat_median(c, nc);
	t->ratio = t->g_median > 0 ? t->c_median / t->g_median : 1;
	t->lo = 0;
	t->hi = INFINITY;
	t->p = 1;
	t->p_min = 1;
	if (ng < 2 || nc < 2) {
		t->too_few = true;
		t->v = MV_INCONCLUSIVE;
		return;
	}
	lg = xmalloc(ng * sizeof(*lg));
	lc = xmalloc(nc * sizeof(*lc));
	d = xmalloc(N * sizeof(*d));
	for (size_t i = 0; i < ng; i++)
		lg[i] = log(g[i] > 1 ? g[i] : 1);
	for (size_t j = 0; j < nc; j++)
		lc[j] = log(c[j] > 1 ? c[j] : 1);
	for (size_t i = 0; i < ng; i++)
		for (size_t j = 0; j < nc; j++) {
			double x = lc[j] - lg[i];
			d[i * nc + j] = x;
			if (x > 0)
				U += 1;
			else if (x == 0) {
				U += 0.5;
				ties = true;
			}
		}
	QSORT(d, N, cmp_double);
	/* the median of all current/golden ratios */
	t->ratio = exp(N % 2 ? d[N / 2] : (d[N / 2 - 1] + d[N / 2]) / 2);
	if (!ties && N <= EXACT_PAIRS) {
		double *f = xmalloc((N + 1) * sizeof(*f)), cdf = 0, tail = 0;
		u_dist(ng, nc, f);
		for (size_t u = N + 1; u-- > 0;) {
			if ((double)u >= U)
				tail += f[u];
		}
		t->p = tail;
		t->p_min = f[N];
		for (size_t u = 0; u <= N; u++) {
			cdf += f[u];
			if (cdf > o->alpha)
				break;
			K++;
		}
		free(f);
	} else {
		/* normal approximation with the correction for ties */
		double n1 = (double)ng, n2 = (double)nc, mean = n1 * n2 / 2, tc = 0, var, sd, z;
		double *pool = xmalloc((ng + nc) * sizeof(*pool));
		memcpy(pool, lg, ng * sizeof(*pool));
		memcpy(pool + ng, lc, nc * sizeof(*pool));
		QSORT(pool, ng + nc, cmp_double);
		for (size_t i = 0; i < ng + nc;) {
			size_t k = i;
			while (k < ng + nc && pool[k] == pool[i])
				k++;
			tc += pow((double)(k - i), 3) - (double)(k - i);
			i = k;
		}
		free(pool);
		var = n1 * n2 / 12 * ((n1 + n2 + 1) - tc / ((n1 + n2) * (n1 + n2 - 1)));
		sd = var > 0 ? sqrt(var) : 1e-9;
		t->p = 1 - norm_cdf((U - 0.5 - mean) / sd);
		t->p_min = 1 - norm_cdf(((double)N - 0.5 - mean) / sd);
		z = norm_quantile(1 - o->alpha);
		if (mean - z * sd >= 1)
			K = (size_t)floor(mean - z * sd);
	}
	if (K >= 1 && K <= N) {
		t->lo = exp(d[K - 1]);
		t->hi = exp(d[N - K]);
	}
	t->too_few = t->p_min > o->alpha;
	if (!t->too_few && t->p < o->alpha && t->ratio >= o->min_ratio &&
	    t->c_median - t->g_median >= o->min_abs)
		t->v = MV_SLOWER;
	else if (t->too_few ||
		 (t->hi >= 1 + 2 * (o->min_ratio - 1) && (t->hi - 1) * t->g_median >= o->min_abs))
		t->v = MV_INCONCLUSIVE;
	else
		t->v = MV_SAME;
	free(lg);
	free(lc);
	free(d);
}
