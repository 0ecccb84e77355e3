/* Bounded regular expressions (see relimit.h). */
#include "util/relimit.h"
#include "util/xmalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/banned.h"

#define MAX_DEPTH 256       /* parentheses; glibc's parser recurses too */
#define DUP_INF (-1.0)

/*
 * The estimate of one sub-expression: nodes after expansion; e, the size of
 * the epsilon closure on entering it; w, the largest closure of a node in
 * it (with what follows inside it); z, whether it matches the empty string.
 */
struct est {
	double nodes, e, w;
	int z;
};

struct rp {
	const char *s, *p;
	int depth;
	const char *why;        /* refused: the reason */
	size_t off;
};

static double dmax(double a, double b)
{
	return a > b ? a : b;
}

static struct est unit(int nullable)
{
	struct est r = { 1, 1, 1, nullable };
	return r;
}

static struct est parse_alt(struct rp *r);

/* [...]: the bracket expression at r->p (after '['); one node. */
static void skip_bracket(struct rp *r)
{
	const char *p = r->p;

	if (*p == '^')
		p++;
	if (*p == ']')
		p++;
	while (*p && *p != ']') {
		if (p[0] == '[' && (p[1] == ':' || p[1] == '=' || p[1] == '.')) {
			char close = p[1];
			const char *q = p + 2;

			while (*q && !(q[0] == close && q[1] == ']'))
				q++;
			if (*q) {
				p = q + 2;
				continue;
			}
		}
		p++;
	}
	r->p = *p ? p + 1 : p;
}

static struct est parse_atom(struct rp *r)
{
	char c = *r->p;

	if (c == '(') {
		struct est g;

		r->p++;
		if (++r->depth > MAX_DEPTH) {
			r->why = "parentheses nested too deeply";
			r->off = (size_t)(r->p - r->s - 1);
			return unit(1);
		}
		g = parse_alt(r);
		r->depth--;
		if (*r->p == ')')
			r->p++;
		g.nodes += 2;
		g.e += 1;
		g.w = dmax(g.w, g.e);
		return g;
	}
	if (c == '[') {
		r->p++;
		skip_bracket(r);
		return unit(0);
	}
	if (c == '\\') {
		if (r->p[1] >= '1' && r->p[1] <= '9' && !r->why) {
			r->why = "back-references (\\1 to \\9) are not supported";
			r->off = (size_t)(r->p - r->s);
		}
		r->p += r->p[1] ? 2 : 1;
		return unit(0);
	}
	r->p++;
	/* anchors match the empty string; treat them as skippable */
	return unit(c == '^' || c == '$');
}

/* Parses "{m}", "{m,}", "{,n}", "{m,n}" at r->p; 0 with r->p moved past it. */
static int parse_interval(struct rp *r, double *m, double *n)
{
	const char *p = r->p + 1;
	double a = 0, b;
	int have_a = 0;

	while (*p >= '0' && *p <= '9') {
		a = a * 10 + (*p++ - '0');
		have_a = 1;
		if (a > 1e9)
			return -1;
	}
	if (*p == '}') {
		if (!have_a)
			return -1;
		*m = *n = a;
		r->p = p + 1;
		return 0;
	}
	if (*p != ',')
		return -1;
	p++;
	if (*p == '}') {
		if (!have_a)
			return -1;
		*m = a;
		*n = DUP_INF;
		r->p = p + 1;
		return 0;
	}
	b = 0;
	if (*p < '0' || *p > '9')
		return -1;
	while (*p >= '0' && *p <= '9') {
		b = b * 10 + (*p++ - '0');
		if (b > 1e9)
			return -1;
	}
	if (*p != '}' || b < a)
		return -1;
	*m = a;
	*n = b;
	r->p = p + 1;
	return 0;
}

/*
 * A{m,n}: m copies of A, then n - m optional copies (glibc nests them), or
 * then A* when n is unbounded.  The optional copies are modelled as a
 * chain A? A? ... A?, whose closures add up the way glibc's nested ones do.
 */
static struct est repeat(struct est A, double m, double n)
{
	double a = A.e, aw = A.w;
	int star = n == DUP_INF;
	double k = star ? 0 : n - m;
	double tail_e = k * (a + 1) + (star ? a + 1 : 0);
	double chain_w = k > 0 ? aw + 1 + (k - 1) * (a + 1) : 0;
	double star_w = star ? aw + a + 1 : 0;
	struct est r;

	if (!star && n == 0)
		return unit(1);
	r.nodes = A.nodes * (m + k) + k + (star ? A.nodes + 1 : 0);
	if (A.z) {
		r.e = m * a + tail_e;
		r.w = aw + r.e + (star ? a + 1 : 0);
	} else if (m >= 1) {
		r.e = a;
		r.w = dmax(aw + tail_e, dmax(chain_w + (star ? a + 1 : 0), star_w));
	} else {
		r.e = tail_e;
		r.w = dmax(chain_w + (star ? a + 1 : 0), star_w);
	}
	r.w = dmax(r.w, r.e);
	r.z = A.z || m == 0;
	return r;
}

static struct est parse_repeat(struct rp *r)
{
	struct est a = parse_atom(r);

	for (;;) {
		double m, n;
		char c = *r->p;

		if (c == '*') {
			m = 0, n = DUP_INF;
			r->p++;
		} else if (c == '+') {
			m = 1, n = DUP_INF;
			r->p++;
		} else if (c == '?') {
			m = 0, n = 1;
			r->p++;
		} else if (c == '{') {
			if (parse_interval(r, &m, &n) < 0)
				break;   /* regcomp refuses it, or it is literal */
		} else {
			break;
		}
		a = repeat(a, m, n);
	}
	return a;
}

/* A branch: items one after another; a closure runs on through nullable ones. */
static struct est parse_concat(struct rp *r)
{
	struct est *items = NULL, res;
	size_t n = 0, alloc = 0;
	double suffix = 0;

	while (*r->p && *r->p != '|' && !(*r->p == ')' && r->depth > 0)) {
		ALLOC_GROW(items, n + 1, alloc);
		items[n++] = parse_repeat(r);
	}
	if (!n) {
		free(items);
		return unit(1);
	}
	res.nodes = 0;
	res.w = 0;
	res.z = 1;
	for (size_t i = n; i-- > 0;) {
		/* a closure inside item i may go on into what follows it */
		res.w = dmax(res.w, items[i].w + suffix);
		suffix = items[i].z ? items[i].e + suffix : items[i].e;
		res.nodes += items[i].nodes + (i ? 1 : 0);
		res.z = res.z && items[i].z;
	}
	res.e = suffix;
	res.w = dmax(res.w, res.e);
	free(items);
	return res;
}

static struct est parse_alt(struct rp *r)
{
	struct est res = parse_concat(r);
	size_t nb = 1;

	while (*r->p == '|') {
		struct est b;

		r->p++;
		b = parse_concat(r);
		res.nodes += b.nodes + 1;
		res.e += b.e + 1;
		res.w = dmax(res.w, b.w);
		res.z = res.z || b.z;
		nb++;
	}
	if (nb > 1)
		res.w = dmax(res.w, res.e);
	return res;
}

uint64_t re_cost(const char *pattern, const char **why, size_t *off)
{
	struct rp r = { pattern, pattern, 0, NULL, 0 };
	struct est e;
	double cost;

	e = parse_alt(&r);
	/* a ')' with nothing open is a literal in glibc's ERE: go on */
	while (*r.p && !r.why) {
		struct est more;

		r.p++;
		more = parse_alt(&r);
		e.nodes += more.nodes + 1;
		e.w = dmax(e.w, more.w + e.e);
	}
	if (r.why) {
		if (why)
			*why = r.why;
		if (off)
			*off = r.off;
		return UINT64_MAX;
	}
	cost = e.nodes * dmax(1, dmax(e.w, e.e));
	if (cost < e.nodes)
		cost = e.nodes;
	return cost >= 1.8e19 ? UINT64_MAX - 1 : (uint64_t)cost;
}

int re_compile_bounded(regex_t *re, const char *pattern, int cflags, uint64_t max_cost,
		       char *err, size_t errlen)
{
	const char *why = NULL;
	size_t off = 0;
	uint64_t cost = re_cost(pattern, &why, &off);
	int rc;

	if (!max_cost)
		max_cost = RE_DEFAULT_MAX_COST;
	if (why) {
		snprintf(err, errlen, "%s (at offset %zu)", why, off);
		return REG_ESIZE;
	}
	if (cost > max_cost) {
		snprintf(err, errlen,
			 "regular expression too large to compile (estimated cost %llu, "
			 "limit %llu; see limits.regex_cost)",
			 (unsigned long long)cost, (unsigned long long)max_cost);
		return REG_ESIZE;
	}
	rc = regcomp(re, pattern, cflags);
	if (rc)
		regerror(rc, re, err, errlen);
	return rc;
}
