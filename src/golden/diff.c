/* Myers' diff in linear space with xdiff's cost heuristic (see diff.h). */
#include "golden/diff.h"
#include "util/xmalloc.h"

#include <stdlib.h>
#include <string.h>

#include "util/banned.h"

#define MAX_COST_MIN 256
#define LINE_MAX_POS INT64_MAX

struct dctx_ {
	const uint32_t *a, *b;     /* the reduced sequences */
	uint8_t *ca, *cb;          /* changes, indexed like a and b */
	int64_t *kvdf, *kvdb;      /* furthest points on each diagonal */
	int64_t mxcost;
	int exact;
};

struct split {
	int64_t i1, i2;
	int min_lo, min_hi;
};

/*
 * Finds where to split the box [off1, lim1) x [off2, lim2): the middle snake
 * of an optimal path, or, past mxcost, the furthest point reached.
 */
static void split_box(struct dctx_ *d, int64_t off1, int64_t lim1, int64_t off2, int64_t lim2,
		      int need_min, struct split *spl)
{
	const uint32_t *a = d->a, *b = d->b;
	int64_t *kvdf = d->kvdf, *kvdb = d->kvdb;
	int64_t dmin = off1 - lim2, dmax = lim1 - off2;
	int64_t fmid = off1 - off2, bmid = lim1 - lim2;
	int odd = (fmid - bmid) & 1;
	int64_t fmin = fmid, fmax = fmid, bmin = bmid, bmax = bmid;
	int64_t ec, k, i1, i2;

	kvdf[fmid] = off1;
	kvdb[bmid] = lim1;
	for (ec = 1;; ec++) {
		/* forward */
		if (fmin > dmin)
			kvdf[--fmin - 1] = -1;
		else
			++fmin;
		if (fmax < dmax)
			kvdf[++fmax + 1] = -1;
		else
			--fmax;
		for (k = fmax; k >= fmin; k -= 2) {
			if (kvdf[k - 1] >= kvdf[k + 1])
				i1 = kvdf[k - 1] + 1;
			else
				i1 = kvdf[k + 1];
			i2 = i1 - k;
			while (i1 < lim1 && i2 < lim2 && a[i1] == b[i2])
				i1++, i2++;
			kvdf[k] = i1;
			if (odd && bmin <= k && k <= bmax && kvdb[k] <= i1) {
				spl->i1 = i1;
				spl->i2 = i2;
				spl->min_lo = spl->min_hi = 1;
				return;
			}
		}
		/* backward */
		if (bmin > dmin)
			kvdb[--bmin - 1] = LINE_MAX_POS;
		else
			++bmin;
		if (bmax < dmax)
			kvdb[++bmax + 1] = LINE_MAX_POS;
		else
			--bmax;
		for (k = bmax; k >= bmin; k -= 2) {
			if (kvdb[k - 1] < kvdb[k + 1])
				i1 = kvdb[k - 1];
			else
				i1 = kvdb[k + 1] - 1;
			i2 = i1 - k;
			while (i1 > off1 && i2 > off2 && a[i1 - 1] == b[i2 - 1])
				i1--, i2--;
			kvdb[k] = i1;
			if (!odd && fmin <= k && k <= fmax && i1 <= kvdf[k]) {
				spl->i1 = i1;
				spl->i2 = i2;
				spl->min_lo = spl->min_hi = 1;
				return;
			}
		}
		if (need_min || ec < d->mxcost)
			continue;
		/* too expensive: take the furthest-reaching end */
		int64_t fbest = -1, fbest1 = -1, bbest = LINE_MAX_POS, bbest1 = LINE_MAX_POS;
		d->exact = 0;
		for (k = fmax; k >= fmin; k -= 2) {
			i1 = kvdf[k] < lim1 ? kvdf[k] : lim1;
			i2 = i1 - k;
			if (lim2 < i2)
				i1 = lim2 + k, i2 = lim2;
			if (fbest < i1 + i2) {
				fbest = i1 + i2;
				fbest1 = i1;
			}
		}
		for (k = bmax; k >= bmin; k -= 2) {
			i1 = kvdb[k] > off1 ? kvdb[k] : off1;
			i2 = i1 - k;
			if (i2 < off2)
				i1 = off2 + k, i2 = off2;
			if (i1 + i2 < bbest) {
				bbest = i1 + i2;
				bbest1 = i1;
			}
		}
		if ((lim1 + lim2) - bbest < fbest - (off1 + off2)) {
			spl->i1 = fbest1;
			spl->i2 = fbest - fbest1;
			spl->min_lo = 1;
			spl->min_hi = 0;
		} else {
			spl->i1 = bbest1;
			spl->i2 = bbest - bbest1;
			spl->min_lo = 0;
			spl->min_hi = 1;
		}
		return;
	}
}

static void compare_box(struct dctx_ *d, int64_t off1, int64_t lim1, int64_t off2, int64_t lim2,
			int need_min)
{
	for (;;) {
		while (off1 < lim1 && off2 < lim2 && d->a[off1] == d->b[off2])
			off1++, off2++;
		while (off1 < lim1 && off2 < lim2 && d->a[lim1 - 1] == d->b[lim2 - 1])
			lim1--, lim2--;
		if (off1 == lim1) {
			for (; off2 < lim2; off2++)
				d->cb[off2] = 1;
			return;
		}
		if (off2 == lim2) {
			for (; off1 < lim1; off1++)
				d->ca[off1] = 1;
			return;
		}
		struct split spl;
		split_box(d, off1, lim1, off2, lim2, need_min, &spl);
		compare_box(d, off1, spl.i1, off2, spl.i2, spl.min_lo);
		/* the second half iteratively: heuristic splits chain to the right */
		off1 = spl.i1;
		off2 = spl.i2;
		need_min = spl.min_hi;
	}
}

static int64_t bogosqrt(int64_t n)
{
	int64_t i;
	for (i = 1; n > 0; n >>= 2)
		i <<= 1;
	return i;
}

size_t gdiff(const uint32_t *a, size_t n, const uint32_t *b, size_t m, uint32_t nids,
	     uint8_t *chg_a, uint8_t *chg_b, int *exact)
{
	uint8_t *in_a = xcalloc(nids ? nids : 1, 1), *in_b = xcalloc(nids ? nids : 1, 1);
	uint32_t *ra = xmalloc((n + 1) * sizeof(*ra)), *rb = xmalloc((m + 1) * sizeof(*rb));
	size_t *ia = xmalloc((n + 1) * sizeof(*ia)), *ib = xmalloc((m + 1) * sizeof(*ib));
	size_t nn = 0, mm = 0, common = 0;
	struct dctx_ d;

	memset(chg_a, 0, n);
	memset(chg_b, 0, m);
	for (size_t i = 0; i < n; i++)
		in_a[a[i]] = 1;
	for (size_t j = 0; j < m; j++)
		in_b[b[j]] = 1;
	/* an element the other side never has is a change: no search needed */
	for (size_t i = 0; i < n; i++) {
		if (!in_b[a[i]]) {
			chg_a[i] = 1;
			continue;
		}
		ra[nn] = a[i];
		ia[nn++] = i;
	}
	for (size_t j = 0; j < m; j++) {
		if (!in_a[b[j]]) {
			chg_b[j] = 1;
			continue;
		}
		rb[mm] = b[j];
		ib[mm++] = j;
	}
	free(in_a);
	free(in_b);

	memset(&d, 0, sizeof(d));
	d.exact = 1;
	if (nn && mm) {
		int64_t ndiags = (int64_t)nn + (int64_t)mm + 3;
		int64_t *kvd = xmalloc((size_t)(2 * ndiags + 2) * sizeof(*kvd));
		uint8_t *ca = xcalloc(nn, 1), *cb = xcalloc(mm, 1);
		d.a = ra;
		d.b = rb;
		d.ca = ca;
		d.cb = cb;
		d.kvdf = kvd + mm + 1;
		d.kvdb = kvd + ndiags + mm + 1;
		d.mxcost = bogosqrt(ndiags);
		if (d.mxcost < MAX_COST_MIN)
			d.mxcost = MAX_COST_MIN;
		compare_box(&d, 0, (int64_t)nn, 0, (int64_t)mm, 0);
		for (size_t i = 0; i < nn; i++) {
			if (ca[i])
				chg_a[ia[i]] = 1;
			else
				common++;
		}
		for (size_t j = 0; j < mm; j++)
			if (cb[j])
				chg_b[ib[j]] = 1;
		free(kvd);
		free(ca);
		free(cb);
	} else {
		for (size_t i = 0; i < nn; i++)
			chg_a[ia[i]] = 1;
		for (size_t j = 0; j < mm; j++)
			chg_b[ib[j]] = 1;
	}
	free(ra);
	free(rb);
	free(ia);
	free(ib);
	if (exact)
		*exact = d.exact;
	return common;
}

size_t gdiff_hunks(const uint8_t *chg_a, size_t n, const uint8_t *chg_b, size_t m,
		   unsigned ctx, struct gdiff_hunk **out)
{
	struct gdiff_hunk *h = NULL;
	size_t nh = 0, ah = 0;
	size_t i = 0, j = 0;

	/* walk both in step: kept elements pair up in order */
	while (i < n || j < m) {
		if ((i < n && chg_a[i]) || (j < m && chg_b[j])) {
			/* a change starts at (i, j) */
			size_t ci = i, cj = j, ei, ej;
			size_t s_a = ci > ctx ? ci - ctx : 0, s_b = cj - (ci - s_a);
			/* extend while changes are within 2*ctx kept pairs */
			ei = ci;
			ej = cj;
			for (;;) {
				while (ei < n && chg_a[ei])
					ei++;
				while (ej < m && chg_b[ej])
					ej++;
				/* count kept pairs until the next change */
				size_t k = 0;
				while (ei + k < n && ej + k < m && !chg_a[ei + k] && !chg_b[ej + k] &&
				       k <= 2 * (size_t)ctx)
					k++;
				if (k <= 2 * (size_t)ctx && ((ei + k < n && chg_a[ei + k]) ||
							   (ej + k < m && chg_b[ej + k]))) {
					ei += k;
					ej += k;
					continue;
				}
				break;
			}
			/* trailing context */
			size_t t = 0;
			while (t < ctx && ei + t < n && ej + t < m)
				t++;
			if (nh && h[nh - 1].a0 + h[nh - 1].na > s_a) {
				/* overlaps the previous hunk (cannot, but be safe) */
				s_a = h[nh - 1].a0 + h[nh - 1].na;
				s_b = h[nh - 1].b0 + h[nh - 1].nb;
			}
			ALLOC_GROW(h, nh + 1, ah);
			h[nh].a0 = s_a;
			h[nh].b0 = s_b;
			h[nh].na = ei + t - s_a;
			h[nh].nb = ej + t - s_b;
			nh++;
			i = ei + t;
			j = ej + t;
			continue;
		}
		i++;
		j++;
	}
	*out = h;
	return nh;
}
