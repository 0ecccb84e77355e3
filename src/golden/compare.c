/* Comparing a trace model with its golden (see compare.h). */
#include "golden/compare.h"
#include "util/strbuf.h"
#include "util/xmalloc.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "util/banned.h"

/* Distinct new or vanished calls listed per process before "and N more". */
#define MAX_CALLS_LISTED 8

const char *gfind_kind_name(enum gfind_kind k)
{
	static const char *const n[] = {
		"process", "exit", "count", "appeared", "vanished", "call", "failure",
		"resource", "timing", "confidence", "note", "assertion",
	};
	return (unsigned)k < GF_NKINDS ? n[k] : "?";
}

static void add_finding(struct gresult *r, enum gfind_kind k, bool reg, const char *proc,
			const char *subject, double g, double c, const char *fmt, ...)
	__attribute__((format(printf, 8, 9)));

static void add_finding(struct gresult *r, enum gfind_kind k, bool reg, const char *proc,
			const char *subject, double g, double c, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	struct gfinding *f;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	ALLOC_GROW(r->f, r->nf + 1, r->af);
	f = &r->f[r->nf++];
	f->kind = k;
	f->regression = reg;
	f->proc = proc ? xstrdup(proc) : NULL;
	f->subject = subject ? xstrdup(subject) : NULL;
	f->message = strbuf_detach(&sb, NULL);
	f->golden = g;
	f->current = c;
	if (reg)
		r->regression = true;
}

/*
 * The calls of p that are compared: not volatile, not ignored, and no
 * memory management when either side of the pair is multi-threaded.
 */
static uint32_t compared(const struct gproc *p, bool mem_volatile, uint32_t **keys,
			 uint32_t **idx)
{
	uint32_t n = 0;

	*keys = xmalloc((p->ncalls + 1) * sizeof(**keys));
	*idx = xmalloc((p->ncalls + 1) * sizeof(**idx));
	for (uint32_t i = 0; i < p->ncalls; i++) {
		const struct gcall *c = &p->calls[i];
		if (c->flags & (GC_VOLATILE | GC_IGNORED))
			continue;
		if (mem_volatile && (c->flags & GC_MEM))
			continue;
		(*keys)[n] = c->key;
		(*idx)[n++] = i;
	}
	return n;
}

/* "process 1.2 (/usr/bin/sort)" */
static void proc_desc(struct strbuf *sb, const struct gproc *p)
{
	strbuf_addstr(sb, p->is_thread ? "thread " : "process ");
	strbuf_addstr(sb, p->label);
	if (p->exe && !p->is_thread) {
		strbuf_addstr(sb, " (");
		strbuf_addstr(sb, p->exe);
		strbuf_addch(sb, ')');
	}
}

/* Scratch state for one comparison. */
struct cmp {
	const struct gmodel *g, *c;
	const struct golden_opts *o;
	struct gresult *r;
	uint32_t *cname;        /* current name id -> row */
	uint32_t nrows;
	uint64_t *gs, *cs, *ga, *ca;  /* per-row counts of one process */
	uint32_t *stamp_g, *stamp_c, *kcount_g, *kcount_c;
	uint32_t gen;
};

static const char *err_name(int e)
{
	const char *n = errno_name(e);
	return n ? n : "error";
}

static void count_proc(struct cmp *x, const struct gproc *p, bool golden, bool mem_volatile,
		       uint64_t *stable, uint64_t *all)
{
	for (uint32_t i = 0; i < p->ncalls; i++) {
		const struct gcall *c = &p->calls[i];
		uint32_t row = golden ? c->sc : x->cname[c->sc];
		if (c->flags & GC_IGNORED)
			continue;
		all[row]++;
		if (!(c->flags & GC_VOLATILE) && !(mem_volatile && (c->flags & GC_MEM)))
			stable[row]++;
	}
}

static void check_counts(struct cmp *x, const struct gproc_diff *d, bool *name_flagged)
{
	struct gresult *r = x->r;
	const char *label = d->label;

	memset(x->gs, 0, x->nrows * sizeof(*x->gs));
	memset(x->cs, 0, x->nrows * sizeof(*x->cs));
	memset(x->ga, 0, x->nrows * sizeof(*x->ga));
	memset(x->ca, 0, x->nrows * sizeof(*x->ca));
	bool mv = d->g->threaded || d->c->threaded;
	count_proc(x, d->g, true, mv, x->gs, x->ga);
	count_proc(x, d->c, false, mv, x->cs, x->ca);
	for (uint32_t row = 0; row < x->nrows; row++) {
		const char *name = r->rows[row].name;
		bool over;
		double tol = golden_opts_tol(x->o, name, &over);
		uint64_t g = over ? x->ga[row] : x->gs[row], c = over ? x->ca[row] : x->cs[row];

		if (g == c)
			continue;
		if (!g) {
			name_flagged[row] = true;
			add_finding(r, GF_APPEARED, true, label, name, 0, (double)c,
				    "%s appeared: %llu call%s (golden: none)", name,
				    (unsigned long long)c, c == 1 ? "" : "s");
		} else if (!c) {
			name_flagged[row] = true;
			add_finding(r, GF_VANISHED, true, label, name, (double)g, 0,
				    "%s vanished: golden made %llu call%s, now none", name,
				    (unsigned long long)g, g == 1 ? "" : "s");
		} else {
			double rel = ((double)c - (double)g) / (double)g;
			bool reg = fabs(rel) > tol + 1e-9;
			if (!reg)
				continue;
			name_flagged[row] = true;
			add_finding(r, GF_COUNT, true, label, name, (double)g, (double)c,
				    "%s: %llu -> %llu calls (%+.1f%%, tolerance \xc2\xb1%.1f%%)",
				    name, (unsigned long long)g, (unsigned long long)c,
				    rel * 100, tol * 100);
		}
	}
}

/* Base of a key: the call without " = result". */
static void key_base(struct strbuf *sb, const char *key)
{
	const char *eq = strstr(key, ") = ");
	strbuf_reset(sb);
	strbuf_add(sb, key, eq ? (size_t)(eq - key) + 1 : strlen(key));
}

static void check_calls(struct cmp *x, const struct gproc_diff *d, const uint32_t *cseq,
			const bool *name_flagged)
{
	const struct gproc *gp = d->g, *cp = d->c;
	const uint32_t ng = d->ng, nc = d->nc;
	const struct gmodel *g = x->g;
	struct gresult *r = x->r;
	uint32_t gen = ++x->gen;
	size_t listed_new = 0, listed_gone = 0, more_new = 0, more_gone = 0;
	struct strbuf base = STRBUF_INIT;

	for (uint32_t i = 0; i < ng; i++) {
		uint32_t k = d->gk[i];
		if (x->stamp_g[k] != gen) {
			x->stamp_g[k] = gen;
			x->kcount_g[k] = 0;
		}
		x->kcount_g[k]++;
	}
	for (uint32_t j = 0; j < nc; j++) {
		uint32_t k = cseq[j];
		if (x->stamp_c[k] != gen) {
			x->stamp_c[k] = gen;
			x->kcount_c[k] = 0;
		}
		x->kcount_c[k]++;
	}
	/* failures and new calls, in the current order */
	for (uint32_t j = 0; j < nc; j++) {
		uint32_t k = cseq[j];
		const struct gcall *c = &cp->calls[d->ci[j]];
		uint32_t gcnt = x->stamp_g[k] == gen ? x->kcount_g[k] : 0;
		uint32_t ccnt = x->kcount_c[k];
		const char *text = intern_str(&x->c->keys, d->ck[j]);

		if (x->kcount_c[k] == 0)
			continue;          /* already reported */
		if (c->flags & GC_FAILED) {
			if (ccnt > gcnt) {
				key_base(&base, text);
				add_finding(r, GF_FAILURE, true, d->label, text, gcnt, ccnt,
					    "%s now fails with %s (%u time%s, golden %u)",
					    base.buf, err_name(c->err), ccnt, ccnt == 1 ? "" : "s",
					    gcnt);
			}
		} else if (!gcnt && !name_flagged[x->cname[c->sc]]) {
			if (listed_new < MAX_CALLS_LISTED) {
				listed_new++;
				add_finding(r, GF_CALL, true, d->label, text, 0, ccnt,
					    "new call: %s (%u time%s)", text, ccnt,
					    ccnt == 1 ? "" : "s");
			} else {
				more_new++;
			}
		}
		x->kcount_c[k] = 0;
	}
	for (uint32_t i = 0; i < ng; i++) {
		uint32_t k = d->gk[i];
		const struct gcall *c = &gp->calls[d->gi[i]];
		uint32_t gcnt = x->kcount_g[k];
		bool in_c = x->stamp_c[k] == gen;
		const char *text = intern_str(&g->keys, k);

		if (!gcnt)
			continue;
		x->kcount_g[k] = 0;
		if (in_c || name_flagged[c->sc])
			continue;
		if (c->flags & GC_FAILED) {
			key_base(&base, text);
			add_finding(r, GF_FAILURE, false, d->label, text, gcnt, 0,
				    "%s no longer fails with %s", base.buf, err_name(c->err));
			continue;
		}
		if (listed_gone < MAX_CALLS_LISTED) {
			listed_gone++;
			add_finding(r, GF_CALL, true, d->label, text, gcnt, 0,
				    "call gone: %s (golden: %u time%s)", text, gcnt,
				    gcnt == 1 ? "" : "s");
		} else {
			more_gone++;
		}
	}
	if (more_new)
		add_finding(r, GF_CALL, true, d->label, NULL, 0, more_new,
			    "... and %zu more new call%s", more_new, more_new == 1 ? "" : "s");
	if (more_gone)
		add_finding(r, GF_CALL, true, d->label, NULL, more_gone, 0,
			    "... and %zu more calls gone", more_gone);
	strbuf_release(&base);
}

static void check_exit(struct cmp *x, const struct gproc_diff *d)
{
	const struct gproc *gp = d->g, *cp = d->c;
	struct strbuf a = STRBUF_INIT, b = STRBUF_INIT;

	if (gp->is_thread || cp->is_thread || !gp->exited || !cp->exited)
		return;
	if (gp->exit_code == cp->exit_code && gp->term_signal == cp->term_signal)
		return;
	if (gp->term_signal)
		strbuf_addf(&a, "killed by %s", signal_name(gp->term_signal) ?
			    signal_name(gp->term_signal) : "a signal");
	else
		strbuf_addf(&a, "exit %d", gp->exit_code);
	if (cp->term_signal)
		strbuf_addf(&b, "killed by %s", signal_name(cp->term_signal) ?
			    signal_name(cp->term_signal) : "a signal");
	else
		strbuf_addf(&b, "exit %d", cp->exit_code);
	add_finding(x->r, GF_EXIT, true, d->label, NULL, gp->exit_code, cp->exit_code,
		    "exit status changed: %s (golden: %s)", b.buf, a.buf);
	strbuf_release(&a);
	strbuf_release(&b);
}

static void diff_pair(struct cmp *x, struct gproc_diff *d, bool *name_flagged)
{
	bool mv = d->g->threaded || d->c->threaded;
	uint32_t *cseq;

	d->ng = compared(d->g, mv, &d->gk, &d->gi);
	d->nc = compared(d->c, mv, &d->ck, &d->ci);
	cseq = xmalloc((d->nc + 1) * sizeof(*cseq));
	for (uint32_t j = 0; j < d->nc; j++)
		cseq[j] = x->r->cmap[d->ck[j]];
	d->chg_g = xmalloc(d->ng + 1);
	d->chg_c = xmalloc(d->nc + 1);
	d->common = gdiff(d->gk, d->ng, cseq, d->nc, x->r->nids, d->chg_g, d->chg_c, &d->exact);
	d->removed = d->ng - d->common;
	d->added = d->nc - d->common;
	d->nhunks = gdiff_hunks(d->chg_g, d->ng, d->chg_c, d->nc, x->o->context_lines,
				&d->hunks);
	memset(name_flagged, 0, x->nrows * sizeof(*name_flagged));
	check_exit(x, d);
	check_counts(x, d, name_flagged);
	check_calls(x, d, cseq, name_flagged);
	free(cseq);
}

static void check_resources(struct cmp *x)
{
	const struct gmodel *g = x->g, *c = x->c;
	static const char *const added[] = {
		"new file opened", "new file created", "new file deleted", "new program executed",
		"new network endpoint",
	};
	static const char *const gone[] = {
		"file no longer opened", "file no longer created", "file no longer deleted",
		"program no longer executed", "network endpoint no longer used",
	};

	for (uint32_t i = 0; i < c->res.n; i++) {
		const char *s = intern_str(&c->res, i);
		if (intern_find(&g->res, s, intern_len(&c->res, i)) != UINT32_MAX)
			continue;
		enum gres_kind k = gmodel_res_kind(c, i);
		add_finding(x->r, GF_RESOURCE, true, NULL, s + 2, 0, 1, "%s: %s", added[k], s + 2);
	}
	for (uint32_t i = 0; i < g->res.n; i++) {
		const char *s = intern_str(&g->res, i);
		if (intern_find(&c->res, s, intern_len(&g->res, i)) != UINT32_MAX)
			continue;
		enum gres_kind k = gmodel_res_kind(g, i);
		add_finding(x->r, GF_RESOURCE, true, NULL, s + 2, 1, 0, "%s: %s", gone[k], s + 2);
	}
}

static double fastest(double *v, size_t n)
{
	struct gstat st;
	gstat_from(&st, v, n);
	return st.min;
}

static double slack_for(const struct golden_opts *o, double spread, uint64_t ncalls)
{
	double slack = o->noise_k * spread;
	if (slack < o->time_floor_ms * 1000)
		slack = o->time_floor_ms * 1000;
	/* a traced syscall costs tens of microseconds more when the scheduler
	 * puts tracer and tracee on different CPUs */
	if (slack < GOLDEN_PER_CALL_NOISE_US * (double)ncalls)
		slack = GOLDEN_PER_CALL_NOISE_US * (double)ncalls;
	return slack;
}

static double stat_spread(const struct gstat *st)
{
	double s = st->mad * 1.4826;
	if ((st->max - st->min) / 2 > s)
		s = (st->max - st->min) / 2;
	return s;
}

static void check_timing(struct cmp *x, const struct gsamples *cs)
{
	struct gresult *r = x->r;
	const struct gmodel *g = x->g, *c = x->c;
	const struct golden_opts *o = x->o;
	double g_med, spread = 0, cur, limit, g_cpu = -1, c_cpu = -1, cpu_limit = -1;
	bool slow;

	/* the fastest run on both sides: noise only ever adds time */
	if (g->timing.runs > 0) {
		g_med = g->timing.wall_us.min > 0 ? g->timing.wall_us.min : g->timing.wall_us.median;
		spread = stat_spread(&g->timing.wall_us);
		if (g->timing.has_cpu)
			g_cpu = g->timing.cpu_us.min;
		r->g_runs = g->timing.runs;
	} else {
		g_med = (double)g->wall_ns / 1000.0;
		r->g_runs = 1;
	}
	if (cs && cs->n) {
		double *tmp = xmalloc(cs->n * sizeof(*tmp));
		memcpy(tmp, cs->wall_us, cs->n * sizeof(*tmp));
		cur = fastest(tmp, cs->n);
		if (cs->cpu_us) {
			memcpy(tmp, cs->cpu_us, cs->n * sizeof(*tmp));
			c_cpu = fastest(tmp, cs->n);
		}
		free(tmp);
		r->c_runs = (int)cs->n;
	} else if (c->timing.runs > 0) {
		cur = c->timing.wall_us.min > 0 ? c->timing.wall_us.min : c->timing.wall_us.median;
		if (c->timing.has_cpu)
			c_cpu = c->timing.cpu_us.min;
		r->c_runs = c->timing.runs;
	} else {
		cur = (double)c->wall_ns / 1000.0;
		r->c_runs = 1;
	}
	r->g_wall_ms = g_med / 1000;
	r->c_wall_ms = cur / 1000;
	r->spread_ms = spread / 1000;
	r->g_cpu_ms = g_cpu >= 0 ? g_cpu / 1000 : -1;
	r->c_cpu_ms = c_cpu >= 0 ? c_cpu / 1000 : -1;
	r->cpu_limit_ms = -1;
	if (!o->check_timing || g_med <= 0)
		return;
	double slack = slack_for(o, spread, g->ncalls);
	limit = g_med * (1 + o->time_tolerance) + slack;
	r->limit_ms = limit / 1000;
	r->timing_checked = true;
	if (g_cpu >= 0 && c_cpu >= 0) {
		double wide = g_med * GOLDEN_WIDE_FACTOR + GOLDEN_WIDE_MS * 1000;
		double cpu_slack = slack_for(o, stat_spread(&g->timing.cpu_us), g->ncalls);
		if (cpu_slack < GOLDEN_CPU_FLOOR_MS * 1000)
			cpu_slack = GOLDEN_CPU_FLOOR_MS * 1000;
		cpu_limit = g_cpu * (1 + o->time_tolerance) + cpu_slack;
		r->cpu_limit_ms = cpu_limit / 1000;
		slow = (cur > limit && c_cpu > cpu_limit) || cur > wide;
	} else {
		slow = cur > limit;
	}
	if (!slow)
		return;
	if (c_cpu >= 0 && g_cpu >= 0)
		add_finding(r, GF_TIMING, true, NULL, "runtime", g_med / 1000, cur / 1000,
			    "runtime %.2fms (CPU %.2fms) is %.1fx the golden's %.2fms (CPU %.2fms); "
			    "limits %.2fms and %.2fms CPU (+%.0f%% and %.2fms of noise)",
			    cur / 1000, c_cpu / 1000, cur / g_med, g_med / 1000, g_cpu / 1000,
			    limit / 1000, cpu_limit / 1000, o->time_tolerance * 100, slack / 1000);
	else
		add_finding(r, GF_TIMING, true, NULL, "runtime", g_med / 1000, cur / 1000,
			    "runtime %.2fms is %.1fx the golden's %.2fms (limit %.2fms: +%.0f%% "
			    "and %.2fms of noise)", cur / 1000, cur / g_med, g_med / 1000,
			    limit / 1000, o->time_tolerance * 100, slack / 1000);

	/* per-syscall time: notes only (noisy by nature) */
	for (size_t i = 0; i < r->nrows; i++) {
		const struct gcount_row *row = &r->rows[i];
		const struct gtiming_sc *ts = gtiming_sc(&g->timing, row->name);
		double gm = ts ? ts->us.median : row->g_time_us;
		double sp = ts ? ts->us.mad * 1.4826 : 0;
		double lim = gm * (1 + o->time_tolerance) +
			     fmax(o->time_floor_ms * 1000, o->noise_k * sp);
		if (row->c_time_us > lim && gm > 0)
			add_finding(r, GF_NOTE, false, NULL, row->name, gm / 1000,
				    row->c_time_us / 1000,
				    "time in %s: %.2fms (golden %.2fms, %.1fx)", row->name,
				    row->c_time_us / 1000, gm / 1000, row->c_time_us / gm);
	}
}

static void check_signals(struct cmp *x)
{
	const struct gmodel *g = x->g, *c = x->c;
	for (uint32_t i = 0; i < c->sigs.n; i++) {
		const char *s = intern_str(&c->sigs, i);
		uint32_t gi = intern_find(&g->sigs, s, intern_len(&c->sigs, i));
		uint64_t gc = gi == UINT32_MAX ? 0 : g->sig_counts[gi];
		if (!strcmp(s, "SIGCHLD") || gc)
			continue;
		add_finding(x->r, GF_NOTE, false, NULL, s, 0, (double)c->sig_counts[i],
			    "new signal %s delivered %llu time%s", s,
			    (unsigned long long)c->sig_counts[i], c->sig_counts[i] == 1 ? "" : "s");
	}
}

static int row_cmp(const void *a, const void *b)
{
	return strcmp(((const struct gcount_row *)a)->name, ((const struct gcount_row *)b)->name);
}

void golden_compare(const struct gmodel *g, const struct gmodel *c,
		    const struct golden_opts *o, const struct gsamples *cur,
		    struct gresult *r)
{
	struct cmp x;
	uint32_t extra = 0;
	size_t gi = 0, ci = 0;
	uint64_t seq_total = 0, seq_common = 0;
	bool *name_flagged;
	struct strbuf sb = STRBUF_INIT;

	memset(r, 0, sizeof(*r));
	memset(&x, 0, sizeof(x));
	x.g = g;
	x.c = c;
	x.o = o;
	x.r = r;
	r->min_confidence = o->min_confidence;

	/* unified key ids */
	r->cmap = xmalloc((c->keys.n + 1) * sizeof(*r->cmap));
	for (uint32_t i = 0; i < c->keys.n; i++) {
		uint32_t id = intern_find(&g->keys, intern_str(&c->keys, i), intern_len(&c->keys, i));
		r->cmap[i] = id != UINT32_MAX ? id : g->keys.n + extra++;
	}
	r->nids = g->keys.n + extra;

	/* rows: golden names keep their ids, new names follow */
	r->rows = xcalloc(g->names.n + c->names.n + 1, sizeof(*r->rows));
	x.cname = xmalloc((c->names.n + 1) * sizeof(*x.cname));
	for (uint32_t i = 0; i < g->names.n; i++)
		r->rows[i].name = intern_str(&g->names, i);
	r->nrows = g->names.n;
	for (uint32_t i = 0; i < c->names.n; i++) {
		uint32_t id = intern_find(&g->names, intern_str(&c->names, i),
					  intern_len(&c->names, i));
		if (id == UINT32_MAX) {
			id = (uint32_t)r->nrows++;
			r->rows[id].name = intern_str(&c->names, i);
		}
		x.cname[i] = id;
	}
	x.nrows = (uint32_t)r->nrows;
	for (uint32_t i = 0; i < g->names.n; i++) {
		r->rows[i].g_stable = g->sc[i].stable;
		r->rows[i].g_all = g->sc[i].calls;
		r->rows[i].g_err = g->sc[i].errors;
		r->rows[i].g_time_us = (double)g->sc[i].time_us;
	}
	for (uint32_t i = 0; i < c->names.n; i++) {
		struct gcount_row *row = &r->rows[x.cname[i]];
		row->c_stable = c->sc[i].stable;
		row->c_all = c->sc[i].calls;
		row->c_err = c->sc[i].errors;
		row->c_time_us = (double)c->sc[i].time_us;
	}
	r->g_calls = g->ncalls;
	r->c_calls = c->ncalls;

	x.gs = xcalloc(x.nrows + 1, sizeof(*x.gs));
	x.cs = xcalloc(x.nrows + 1, sizeof(*x.cs));
	x.ga = xcalloc(x.nrows + 1, sizeof(*x.ga));
	x.ca = xcalloc(x.nrows + 1, sizeof(*x.ca));
	x.stamp_g = xcalloc(r->nids + 1, sizeof(*x.stamp_g));
	x.stamp_c = xcalloc(r->nids + 1, sizeof(*x.stamp_c));
	x.kcount_g = xcalloc(r->nids + 1, sizeof(*x.kcount_g));
	x.kcount_c = xcalloc(r->nids + 1, sizeof(*x.kcount_c));
	name_flagged = xcalloc(x.nrows + 1, sizeof(*name_flagged));

	/* processes, matched by label */
	r->pd = xcalloc(g->nprocs + c->nprocs + 1, sizeof(*r->pd));
	while (gi < g->nprocs || ci < c->nprocs) {
		struct gproc_diff *d = &r->pd[r->npd++];
		int cmp = gi >= g->nprocs ? 1 : ci >= c->nprocs ? -1 :
			  gproc_label_cmp(g->procs[gi].label, c->procs[ci].label);
		strbuf_reset(&sb);
		d->exact = 1;
		if (cmp == 0) {
			d->g = &g->procs[gi++];
			d->c = &c->procs[ci++];
			d->label = d->g->label;
			diff_pair(&x, d, name_flagged);
			seq_total += d->ng + d->nc;
			seq_common += 2 * d->common;
		} else if (cmp < 0) {
			d->g = &g->procs[gi++];
			d->label = d->g->label;
			d->ng = compared(d->g, d->g->threaded, &d->gk, &d->gi);
			d->removed = d->ng;
			seq_total += d->ng;
			proc_desc(&sb, d->g);
			add_finding(r, GF_PROCESS, true, d->label, d->g->exe, 1, 0,
				    "%s vanished (golden made %u calls)", sb.buf, d->g->ncalls);
		} else {
			d->c = &c->procs[ci++];
			d->label = d->c->label;
			d->nc = compared(d->c, d->c->threaded, &d->ck, &d->ci);
			d->added = d->nc;
			seq_total += d->nc;
			proc_desc(&sb, d->c);
			add_finding(r, GF_PROCESS, true, d->label, d->c->exe, 0, 1,
				    "new %s (%u calls)", sb.buf, d->c->ncalls);
		}
	}
	check_resources(&x);
	check_signals(&x);
	QSORT(r->rows, r->nrows, row_cmp);
	check_timing(&x, cur);

	/* confidence */
	r->s_seq = seq_total ? (double)seq_common / (double)seq_total : 1.0;
	{
		double num = 0, den = 0;
		for (size_t i = 0; i < r->nrows; i++) {
			double a = (double)r->rows[i].g_stable, b = (double)r->rows[i].c_stable;
			num += fabs(a - b);
			den += a + b;
		}
		r->s_cnt = den > 0 ? 1 - num / den : 1.0;
	}
	{
		uint32_t inter = 0;
		for (uint32_t i = 0; i < c->res.n; i++)
			if (intern_find(&g->res, intern_str(&c->res, i),
					intern_len(&c->res, i)) != UINT32_MAX)
				inter++;
		uint32_t uni = g->res.n + c->res.n - inter;
		r->s_res = uni ? (double)inter / uni : 1.0;
	}
	r->confidence = 0.5 * r->s_seq + 0.25 * r->s_cnt + 0.25 * r->s_res;
	if (r->confidence < o->min_confidence)
		add_finding(r, GF_CONFIDENCE, true, NULL, NULL, o->min_confidence, r->confidence,
			    "equivalence confidence %.3f is below min_confidence %.2f",
			    r->confidence, o->min_confidence);
	r->pass = !r->regression && r->confidence >= o->min_confidence;

	free(x.cname);
	free(x.gs);
	free(x.cs);
	free(x.ga);
	free(x.ca);
	free(x.stamp_g);
	free(x.stamp_c);
	free(x.kcount_g);
	free(x.kcount_c);
	free(name_flagged);
	strbuf_release(&sb);
}

void gresult_release(struct gresult *r)
{
	for (size_t i = 0; i < r->nf; i++) {
		free(r->f[i].proc);
		free(r->f[i].subject);
		free(r->f[i].message);
	}
	free(r->f);
	for (size_t i = 0; i < r->npd; i++) {
		free(r->pd[i].chg_g);
		free(r->pd[i].chg_c);
		free(r->pd[i].gk);
		free(r->pd[i].ck);
		free(r->pd[i].gi);
		free(r->pd[i].ci);
		free(r->pd[i].hunks);
	}
	free(r->pd);
	free(r->rows);
	free(r->cmap);
	memset(r, 0, sizeof(*r));
}
