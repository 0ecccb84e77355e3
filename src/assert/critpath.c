/*
 * The measurements that need the whole run: the critical path through the
 * process tree (critical_path), measured on untraced runs where the golden
 * workflow made them, the tree's peak resident set (memory_usage rss), and
 * the number formats the reports share.
 */
#include <math.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "assert/internal.h"
#include "measure/mstat.h"
#include "util/relimit.h"
#include "util/xmalloc.h"
#include "util/banned.h"

/* A child its parent blocked on: reaped by a wait that began before it ended. */
static bool blocked_on(const struct proc *c)
{
	return c->waited && c->end_ns > c->wait_start && c->end_ns >= c->start_ns;
}

static const struct analysis *sort_an;
static int by_wait_end_desc(const void *x, const void *y)
{
	const struct proc *a = &sort_an->procs[*(const int *)x];
	const struct proc *b = &sort_an->procs[*(const int *)y];
	if (a->wait_end != b->wait_end)
		return a->wait_end > b->wait_end ? -1 : 1;
	return a->pid < b->pid ? -1 : a->pid > b->pid;
}

static void seg_add(struct cp_seg **segs, size_t *n, size_t *alloc, int proc, uint64_t ns)
{
	if (!ns)
		return;
	if (*n && (*segs)[*n - 1].proc == proc) {
		(*segs)[*n - 1].ns += ns;
		return;
	}
	ALLOC_GROW(*segs, *n + 1, *alloc);
	(*segs)[*n].proc = proc;
	(*segs)[*n].ns = ns;
	(*n)++;
}

struct cp_frame {
	int proc;
	uint64_t lo, t;          /* walking back from t down to lo */
	size_t next;             /* next child (in wait_end order) to consider */
};

/*
 * Walks back from the root's end: the root's own time until the latest
 * wait that blocked on a child, then that child (recursively) back to its
 * birth, then the root again before the fork, and so on.  Each piece of
 * the run's wall time is attributed to exactly one process.
 */
void critical_path(const struct analysis *a, struct cp_result *r)
{
	memset(r, 0, sizeof(*r));
	if (a->root < 0 || (size_t)a->root >= a->nprocs)
		return;
	size_t n = a->nprocs;
	size_t *first = xcalloc(n + 1, sizeof(*first));
	int *kids = xcalloc(n ? n : 1, sizeof(*kids));
	for (size_t i = 0; i < n; i++)
		if (a->procs[i].parent >= 0 && blocked_on(&a->procs[i]))
			first[a->procs[i].parent + 1]++;
	for (size_t i = 0; i < n; i++)
		first[i + 1] += first[i];
	size_t *fill = xmemdup(first, (n + 1) * sizeof(*first));
	for (size_t i = 0; i < n; i++)
		if (a->procs[i].parent >= 0 && blocked_on(&a->procs[i]))
			kids[fill[a->procs[i].parent]++] = (int)i;
	sort_an = a;
	for (size_t i = 0; i < n; i++)
		if (first[i + 1] > first[i] + 1)
			qsort(kids + first[i], first[i + 1] - first[i], sizeof(*kids),
			      by_wait_end_desc);

	struct cp_seg *back = NULL;      /* segments from the end backwards */
	size_t nback = 0, aback = 0;
	struct cp_frame *stack = NULL;
	size_t depth = 0, astack = 0;
	bool *on_stack = xcalloc(n, sizeof(*on_stack));
	const struct proc *root = &a->procs[a->root];

	ALLOC_GROW(stack, 1, astack);
	stack[0].proc = a->root;
	stack[0].lo = root->start_ns;
	stack[0].t = root->end_ns > root->start_ns ? root->end_ns : root->start_ns;
	stack[0].next = first[a->root];
	on_stack[a->root] = true;
	depth = 1;
	r->total_ns = stack[0].t - stack[0].lo;

	while (depth) {
		struct cp_frame *f = &stack[depth - 1];
		bool pushed = false;
		while (f->next < first[f->proc + 1]) {
			int ci = kids[f->next++];
			const struct proc *c = &a->procs[ci];
			if (on_stack[ci] || c->wait_end > f->t)
				continue;
			if (c->wait_end <= f->lo)
				break;
			uint64_t ce = c->end_ns < f->t ? c->end_ns : f->t;
			uint64_t cs = c->start_ns > f->lo ? c->start_ns : f->lo;
			if (ce <= cs)
				continue;
			seg_add(&back, &nback, &aback, f->proc, f->t - ce);
			f->t = cs;   /* the parent resumes before the fork */
			ALLOC_GROW(stack, depth + 1, astack);
			f = NULL;
			stack[depth].proc = ci;
			stack[depth].lo = cs;
			stack[depth].t = ce;
			stack[depth].next = first[ci];
			on_stack[ci] = true;
			depth++;
			pushed = true;
			break;
		}
		if (pushed)
			continue;
		f = &stack[depth - 1];
		seg_add(&back, &nback, &aback, f->proc, f->t - f->lo);
		on_stack[f->proc] = false;
		depth--;
	}

	/* forward order, merged per process in order of first appearance */
	for (size_t i = nback; i-- > 0;) {
		size_t k;
		for (k = 0; k < r->nsegs; k++)
			if (r->segs[k].proc == back[i].proc)
				break;
		if (k == r->nsegs) {
			size_t alloc = r->nsegs;
			ALLOC_GROW(r->segs, r->nsegs + 1, alloc);
			r->segs[r->nsegs].proc = back[i].proc;
			r->segs[r->nsegs].ns = 0;
			r->nsegs++;
		}
		r->segs[k].ns += back[i].ns;
	}
	free(back);
	free(stack);
	free(on_stack);
	free(first);
	free(fill);
	free(kids);
}

void cp_result_release(struct cp_result *r)
{
	free(r->segs);
	memset(r, 0, sizeof(*r));
}

uint64_t analysis_critical_path_ns(const struct analysis *a, const char *pattern)
{
	struct cp_result r;
	regex_t re;
	uint64_t sum = 0;
	char msg[256];

	if (pattern && re_compile_bounded(&re, pattern, REG_EXTENDED | REG_NOSUB, 0, msg,
					  sizeof(msg)))
		return 0;
	critical_path(a, &r);
	for (size_t i = 0; i < r.nsegs; i++) {
		const struct proc *p = &a->procs[r.segs[i].proc];
		if (!pattern || (p->name && !regexec(&re, p->name, 0, NULL, 0)))
			sum += r.segs[i].ns;
	}
	if (pattern)
		regfree(&re);
	cp_result_release(&r);
	return sum;
}

/* ---- untraced runs --------------------------------------------------------- */

void analysis_set_runtime(struct analysis *a, const double *net_us, const double *wall_us,
			  size_t n)
{
	free(a->rt_net_us);
	free(a->rt_wall_us);
	a->rt_net_us = a->rt_wall_us = NULL;
	a->nrt = n;
	if (!n)
		return;
	a->rt_net_us = xmemdup(net_us, n * sizeof(*net_us));
	a->rt_wall_us = xmemdup(wall_us, n * sizeof(*wall_us));
}

bool critpath_untraced(const struct analysis *a, uint64_t path_ns, uint64_t total_ns,
		       bool pattern, double *actual_ms, struct strbuf *sb)
{
	double net, wall, share = 1;

	if (!a->nrt)
		return false;
	net = mstat_median(a->rt_net_us, a->nrt);
	wall = mstat_median(a->rt_wall_us, a->nrt);
	if (pattern)
		share = total_ns ? (double)path_ns / (double)total_ns : 0;
	*actual_ms = net * share / 1000;
	strbuf_addf(sb, "measured untraced: median of %zu run%s, ", a->nrt, a->nrt == 1 ? "" : "s");
	fmt_ms(sb, (uint64_t)llround(net * 1000));
	strbuf_addstr(sb, " net of waits for a CPU (wall ");
	fmt_ms(sb, (uint64_t)llround(wall * 1000));
	strbuf_addch(sb, ')');
	if (pattern)
		strbuf_addf(sb, "; the matching processes took %.0f%% of the traced path", 100 * share);
	return true;
}

/* ---- rss --------------------------------------------------------------- */

struct rss_ev { uint64_t t; int64_t kb; };

static int by_time(const void *x, const void *y)
{
	const struct rss_ev *a = x, *b = y;
	if (a->t != b->t)
		return a->t < b->t ? -1 : 1;
	return a->kb < b->kb ? -1 : a->kb > b->kb;   /* ends (negative) first */
}

/*
 * Each process counts with its peak (VmHWM) over its whole lifetime; the
 * tree's peak is the largest sum over processes alive at one instant.
 */
uint64_t rss_tree_peak(const struct analysis *a, pid_t *top_pid, uint64_t *top_kb,
		       size_t *nprocs_with_rss)
{
	struct rss_ev *evs = xcalloc(2 * a->nprocs + 1, sizeof(*evs));
	size_t n = 0, with = 0;
	uint64_t best_kb = 0;
	pid_t best_pid = 0;
	for (size_t i = 0; i < a->nprocs; i++) {
		const struct proc *p = &a->procs[i];
		if (!p->max_rss_kb)
			continue;
		with++;
		if (p->max_rss_kb > best_kb) {
			best_kb = p->max_rss_kb;
			best_pid = p->pid;
		}
		evs[n].t = p->start_ns;
		evs[n++].kb = (int64_t)p->max_rss_kb;
		evs[n].t = p->end_ns > p->start_ns ? p->end_ns : p->start_ns;
		evs[n++].kb = -(int64_t)p->max_rss_kb;
	}
	QSORT(evs, n, by_time);
	int64_t now = 0, peak = 0;
	for (size_t i = 0; i < n; i++) {
		now += evs[i].kb;
		if (now > peak)
			peak = now;
	}
	/* a process that starts and ends at one instant still counts */
	if ((uint64_t)peak < best_kb)
		peak = (int64_t)best_kb;
	free(evs);
	if (top_pid)
		*top_pid = best_pid;
	if (top_kb)
		*top_kb = best_kb;
	if (nprocs_with_rss)
		*nprocs_with_rss = with;
	return (uint64_t)peak * 1024;
}

uint64_t analysis_rss_peak(const struct analysis *a)
{
	return rss_tree_peak(a, NULL, NULL, NULL);
}

/* ---- formats ------------------------------------------------------------- */

static void add_trimmed(struct strbuf *sb, const char *num, const char *unit)
{
	size_t len = strlen(num);
	if (memchr(num, '.', len)) {
		while (len && num[len - 1] == '0')
			len--;
		if (len && num[len - 1] == '.')
			len--;
	}
	strbuf_add(sb, num, len);
	strbuf_addstr(sb, unit);
}

void fmt_ms(struct strbuf *sb, uint64_t ns)
{
	char buf[64];
	double ms = (double)ns / 1e6;
	if (ms >= 100)
		snprintf(buf, sizeof(buf), "%.0f", ms);
	else if (ms >= 10)
		snprintf(buf, sizeof(buf), "%.1f", ms);
	else if (ms >= 0.01 || ns == 0)
		snprintf(buf, sizeof(buf), "%.2f", ms);
	else
		snprintf(buf, sizeof(buf), "%.4f", ms);
	add_trimmed(sb, buf, "ms");
}

void fmt_bytes(struct strbuf *sb, uint64_t b)
{
	char buf[64];
	if (b < 1024) {
		snprintf(buf, sizeof(buf), "%llu", (unsigned long long)b);
		add_trimmed(sb, buf, "B");
	} else if (b < 1024ULL * 1024) {
		snprintf(buf, sizeof(buf), "%.1f", (double)b / 1024);
		add_trimmed(sb, buf, "KB");
	} else if (b < 1024ULL * 1024 * 1024) {
		snprintf(buf, sizeof(buf), "%.1f", (double)b / (1024.0 * 1024));
		add_trimmed(sb, buf, "MB");
	} else {
		snprintf(buf, sizeof(buf), "%.2f", (double)b / (1024.0 * 1024 * 1024));
		add_trimmed(sb, buf, "GB");
	}
}
