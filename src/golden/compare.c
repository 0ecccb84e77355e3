/* Comparing a trace model with its golden (see compare.h). */
#include "golden/compare.h"
#include "golden/srcfind.h"
#include "golden/timecmp.h"
#include "sink/env.h"
#include "sys/sysent.h"
#include "util/strbuf.h"
#include "util/xmalloc.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "util/banned.h"

/* Distinct new or vanished calls listed per process before "and N more". */
#define MAX_CALLS_LISTED 8

static struct gfinding *add_finding(struct gresult *r, enum gfind_kind k, bool reg,
				    const char *proc, const char *subject, double g, double c,
				    const char *fmt, ...)
	__attribute__((format(printf, 8, 9)));

static struct gfinding *add_finding(struct gresult *r, enum gfind_kind k, bool reg,
				    const char *proc, const char *subject, double g, double c,
				    const char *fmt, ...)
{
	struct gfinding *f;
	va_list ap;

	va_start(ap, fmt);
	f = gresult_vadd(r, k, reg, proc, subject, g, c, fmt, ap);
	va_end(ap);
	return f;
}

/* Scratch state for one comparison. */
struct cmp {
	const struct gmodel *g, *c;
	const struct golden_opts *o;
	struct gresult *r;
	uint32_t *cname;        /* current name id -> row */
	uint32_t nrows;
	uint32_t *stamp_g, *stamp_c, *kcount_g, *kcount_c;
	uint32_t gen;
	unsigned stdmask;       /* standard streams whose kind differs */
	uint32_t *gorder, *gfirst;  /* golden tasks by process: gorder[gfirst[p]..gfirst[p+1]) */
	uint32_t *corder, *cfirst;  /* the same for the current side */
	const struct gvar *gvar;   /* the golden's measured variation, or NULL */
	int32_t *gmatch;        /* golden process -> current process, -1 none */
	int32_t *cmatch;        /* current process -> golden process, -1 none */
};

/* Whether call c is left out of sequences, counts and distinct calls. */
static bool excluded(const struct cmp *x, const struct gcall *c, bool mem_volatile)
{
	int sfd;

	if (c->flags & (GC_VOLATILE | GC_IGNORED))
		return true;
	if (mem_volatile && (c->flags & GC_MEM))
		return true;
	sfd = GCALL_STD(c);
	return sfd >= 0 && (x->stdmask >> sfd & 1);
}

/*
 * The calls of p that are compared in sequence: not volatile, not ignored,
 * not on a standard stream whose kind differs, and no memory management
 * when either side of the pair is multi-threaded (its order varies).
 */
static uint32_t compared(const struct cmp *x, const struct gproc *p, bool mem_volatile,
			 uint32_t **keys, uint32_t **idx)
{
	uint32_t n = 0;

	/* only the calls kept one by one have an order (model.h) */
	*keys = xmalloc((p->nkept + 1) * sizeof(**keys));
	*idx = xmalloc((p->nkept + 1) * sizeof(**idx));
	for (uint32_t i = 0; i < p->nkept; i++) {
		const struct gcall *c = &p->calls[i];
		if (excluded(x, c, mem_volatile))
			continue;
		(*keys)[n] = c->key;
		(*idx)[n++] = i;
	}
	return n;
}

static const char *err_name(int e)
{
	const char *n = errno_name(e);
	return n ? n : "error";
}

/* Whether task p made a successful execve (its program is its own). */
static bool did_exec(const struct gmodel *m, const struct gproc *p)
{
	for (uint32_t i = 0; i < p->ncalls; i++) {
		const char *n = gmodel_name(m, p->calls[i].sc);
		if (!(p->calls[i].flags & GC_FAILED) &&
		    (!strcmp(n, "execve") || !strcmp(n, "execveat")))
			return true;
	}
	return false;
}

/* The label of the process that made the process of label ("1.2" -> "1"). */
static void parent_label(struct strbuf *sb, const char *label)
{
	const char *dot = strrchr(label, '.');

	strbuf_reset(sb);
	if (dot)
		strbuf_add(sb, label, dot - label);
}

/* "process 1.2: sort -r (/usr/bin/sort)" or "process 1.1, a fork of 1 (./prog x)". */
static void proc_desc(struct strbuf *sb, const struct gmodel *m, const struct gproc *p)
{
	const struct ggroup *gr = &m->groups[p->group];

	if (p->is_thread) {
		strbuf_addf(sb, "thread %s", p->label);
		return;
	}
	strbuf_addf(sb, "process %s", p->label);
	if (did_exec(m, p) || !strchr(p->label, '.')) {
		if (gr->cmdline)
			strbuf_addf(sb, ": %s", gr->cmdline);
		if (gr->exe)
			strbuf_addf(sb, gr->cmdline ? " (%s)" : " (%s)", gr->exe);
	} else {
		struct strbuf par = STRBUF_INIT;
		const struct ggroup *pg;
		parent_label(&par, p->label);
		pg = gmodel_group(m, par.buf);
		if (pg && pg->cmdline)
			gr = pg;     /* its parent's command line, as long as it is known */
		strbuf_addf(sb, ", a fork of %s", par.buf);
		if (gr->cmdline)
			strbuf_addf(sb, " (%s)", gr->cmdline);
		else if (gr->exe)
			strbuf_addf(sb, " (%s)", gr->exe);
		strbuf_release(&par);
	}
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

static bool pair_threaded(const struct cmp *x, const struct gproc_diff *d)
{
	return (d->g && x->g->groups[d->g->group].threaded) ||
	       (d->c && x->c->groups[d->c->group].threaded);
}

/* Aligns the sequences of a matched task pair; hunks for the report. */
static void diff_pair(struct cmp *x, struct gproc_diff *d)
{
	bool mv = pair_threaded(x, d);
	uint32_t *cseq;

	d->ng = compared(x, d->g, mv, &d->gk, &d->gi);
	d->nc = compared(x, d->c, mv, &d->ck, &d->ci);
	/* a side cut by limits.sequence_calls: the orders are compared over
	 * the calls both kept (the counts cover the rest) */
	if (d->g->nkept < d->g->ncalls || d->c->nkept < d->c->ncalls) {
		if (d->ng > d->nc)
			d->ng = d->nc;
		else
			d->nc = d->ng;
	}
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
	check_exit(x, d);
	free(cseq);
}

/* --- per process (thread group) --- */

/* One side of a matched process: its tasks' calls, counted and listed. */
struct side {
	const struct gmodel *m;
	const struct ggroup *gr;
	size_t gi;                   /* gr's index in m->groups */
	uint64_t *stable, *all;      /* per row */
	uint32_t *keys;              /* compared calls: unified key ids */
	const struct gcall **calls;
	uint32_t *w;                 /* how many calls each stands for (model.h's
					aggregates) */
	uint32_t n;
};

/*
 * Fills s from process gi of m: counts per row (memory calls left out with
 * mem_uncounted) and the calls compared one by one (memory calls left out
 * with mem_unlisted).
 */
static void side_fill(struct cmp *x, struct side *s, const struct gmodel *m, size_t gi,
		      bool golden, bool mem_unlisted, bool mem_uncounted)
{
	const uint32_t *order = golden ? x->gorder : x->corder;
	const uint32_t *first = golden ? x->gfirst : x->cfirst;
	uint32_t alloc = 0;

	memset(s, 0, sizeof(*s));
	s->m = m;
	s->gr = &m->groups[gi];
	s->gi = gi;
	s->stable = xcalloc(x->nrows + 1, sizeof(*s->stable));
	s->all = xcalloc(x->nrows + 1, sizeof(*s->all));
	for (uint32_t k = first[gi]; k < first[gi + 1]; k++)
		alloc += m->procs[order[k]].ncalls;
	s->keys = xmalloc((alloc + 1) * sizeof(*s->keys));
	s->calls = xmalloc((alloc + 1) * sizeof(*s->calls));
	s->w = xmalloc((alloc + 1) * sizeof(*s->w));
	for (uint32_t k = first[gi]; k < first[gi + 1]; k++) {
		const struct gproc *p = &m->procs[order[k]];
		for (uint32_t i = 0; i < p->ncalls; i++) {
			const struct gcall *c = &p->calls[i];
			uint32_t row = golden ? c->sc : x->cname[c->sc];
			uint64_t w = gcall_n(p, i);
			int sfd = GCALL_STD(c);
			if (c->flags & GC_IGNORED)
				continue;
			if (sfd >= 0 && (x->stdmask >> sfd & 1))
				continue;
			s->all[row] += w;
			if (excluded(x, c, mem_uncounted))
				continue;
			s->stable[row] += w;
			if (mem_unlisted && (c->flags & GC_MEM))
				continue;
			s->keys[s->n] = golden ? c->key : x->r->cmap[c->key];
			s->w[s->n] = w > UINT32_MAX ? UINT32_MAX : (uint32_t)w;
			s->calls[s->n++] = c;
		}
	}
}

static void side_release(struct side *s)
{
	free(s->stable);
	free(s->all);
	free(s->keys);
	free(s->calls);
	free(s->w);
}

/* Base of a key: the call without " = result". */
static void key_base_of(struct strbuf *sb, const char *key)
{
	const char *eq = strstr(key, ") = ");
	strbuf_reset(sb);
	strbuf_add(sb, key, eq ? (size_t)(eq - key) + 1 : strlen(key));
}

/* "20", or "19-21" for a range. */
static void add_range(struct strbuf *sb, uint64_t lo, uint64_t hi)
{
	if (lo == hi)
		strbuf_addf(sb, "%llu", (unsigned long long)lo);
	else
		strbuf_addf(sb, "%llu-%llu", (unsigned long long)lo, (unsigned long long)hi);
}

/*
 * Whether value c is outside what golden range [lo, hi] allows: what
 * varied between the golden's runs is tolerated, with the spread again on
 * either side, and the relative tolerance (and floor) on top.  alo and ahi
 * get the allowed range.
 */
static bool out_of_range(uint64_t lo, uint64_t hi, uint64_t c, double tol, double floor,
			 double *alo, double *ahi)
{
	double spread = (double)(hi - lo);
	double margin = fmax(fmax(tol * (double)hi, spread), floor);

	*alo = fmax(0, (double)lo - margin);
	*ahi = (double)hi + margin;
	return (double)c > *ahi + 1e-9 || (double)c < *alo - 1e-9;
}

/* Whether calls of name change the address space (mmap, munmap, brk, ...). */
static bool mem_call_name(const char *name)
{
	long nr = sysent_lookup(name);
	const struct sysent *se = nr >= 0 ? sysent_get(nr) : NULL;
	return se && (sysent_sem(se) & SEM_MEM);
}

static void check_group_counts(struct cmp *x, const char *label, const struct side *gs,
			       const struct side *cs, const struct gvar_proc *vp, bool noisy,
			       bool *name_flagged)
{
	struct gresult *r = x->r;
	int runs = x->gvar ? x->gvar->runs : 0;

	for (uint32_t row = 0; row < x->nrows; row++) {
		const char *name = r->rows[row].name;
		bool over, varied;
		double tol = golden_opts_tol(x->o, name, &over), alo, ahi;
		uint64_t lo, hi, c = over ? cs->all[row] : cs->stable[row];
		struct strbuf why = STRBUF_INIT;
		struct gfinding *f;

		lo = hi = over ? gs->all[row] : gs->stable[row];
		if (vp && !over) {
			struct grange gr = gvar_calls(vp, name);
			lo = gr.lo < 0 && (uint64_t)-gr.lo > lo ? 0 : lo + gr.lo;
			hi += gr.hi;
		}
		if (!hi && !c)
			continue;
		varied = lo != hi;
		/* how many memory calls a threaded process makes follows its
		 * threads' timing (which arena a free lands in, when one is
		 * trimmed): a count noise of about its square root */
		double noise = noisy && !over && mem_call_name(name) ? ceil(sqrt((double)hi)) : 0;
		if (noise < 2 && noisy && !over && mem_call_name(name))
			noise = 2;
		if (!out_of_range(lo, hi, c, tol, noise, &alo, &ahi))
			continue;
		name_flagged[row] = true;
		if (vp && varied)
			strbuf_addf(&why, "golden %llu-%llu over %d runs, allowed %.0f-%.0f",
				    (unsigned long long)lo, (unsigned long long)hi, runs, ceil(alo),
				    floor(ahi));
		else if (vp && runs > 1)
			strbuf_addf(&why, "tolerance \xc2\xb1%.1f%%, the same in all %d golden runs",
				    tol * 100, runs);
		else
			strbuf_addf(&why, "tolerance \xc2\xb1%.1f%%", tol * 100);
		if (noise > 0)
			strbuf_addf(&why, "; \xc2\xb1%.0f calls for a threaded process's memory calls",
				    noise);
		if (!hi) {
			f = add_finding(r, GF_APPEARED, true, label, name, 0, (double)c,
					"%s appeared: %llu call%s (golden: none)", name,
					(unsigned long long)c, c == 1 ? "" : "s");
		} else if (!c) {
			f = add_finding(r, GF_VANISHED, true, label, name, (double)hi, 0,
					"%s vanished: golden made %llu call%s, now none", name,
					(unsigned long long)hi, hi == 1 ? "" : "s");
		} else {
			struct strbuf gtxt = STRBUF_INIT;
			double rel = c > hi ? ((double)c - (double)hi) / (double)hi
					    : ((double)c - (double)lo) / (double)(lo ? lo : 1);
			add_range(&gtxt, lo, hi);
			f = add_finding(r, GF_COUNT, true, label, name, (double)hi, (double)c,
					"%s: %s -> %llu calls (%+.1f%%, %s)", name, gtxt.buf,
					(unsigned long long)c, rel * 100, why.buf);
			strbuf_release(&gtxt);
		}
		f->noisy = noisy || varied;
		strbuf_release(&why);
		{
			/* -s: which lines made the calls that came or went */
			struct gsrc_sel gsel = { gs->m, gs->gi, name, 0, NULL, false };
			struct gsrc_sel csel = { cs->m, cs->gi, name, 0, NULL, false };
			gsrc_annotate(f, &gsel, &csel, GSRC_DELTA);
		}
	}
}

static void check_group_calls(struct cmp *x, const char *label, const struct side *gs,
			      const struct side *cs, bool noisy, const bool *name_flagged)
{
	const struct gmodel *g = x->g, *c = x->c;
	struct gresult *r = x->r;
	uint32_t gen = ++x->gen;
	size_t listed_new = 0, listed_gone = 0, more_new = 0, more_gone = 0;
	struct strbuf base = STRBUF_INIT;
	struct gfinding *f;

	for (uint32_t i = 0; i < gs->n; i++) {
		uint32_t k = gs->keys[i];
		if (x->stamp_g[k] != gen) {
			x->stamp_g[k] = gen;
			x->kcount_g[k] = 0;
		}
		x->kcount_g[k] += gs->w[i];
	}
	for (uint32_t j = 0; j < cs->n; j++) {
		uint32_t k = cs->keys[j];
		if (x->stamp_c[k] != gen) {
			x->stamp_c[k] = gen;
			x->kcount_c[k] = 0;
		}
		x->kcount_c[k] += cs->w[j];
	}
	/* failures and new calls, in the current order */
	for (uint32_t j = 0; j < cs->n; j++) {
		uint32_t k = cs->keys[j];
		const struct gcall *cc = cs->calls[j];
		uint32_t gcnt = x->stamp_g[k] == gen ? x->kcount_g[k] : 0;
		uint32_t ccnt = x->kcount_c[k];
		const char *text = intern_str(&c->keys, cc->key);

		if (x->kcount_c[k] == 0)
			continue;          /* already reported */
		if (cc->flags & GC_FAILED) {
			if (ccnt > gcnt) {
				key_base_of(&base, text);
				f = add_finding(r, GF_FAILURE, true, label, text, gcnt, ccnt,
						"%s now fails with %s (%u time%s, golden %u)",
						base.buf, err_name(cc->err), ccnt,
						ccnt == 1 ? "" : "s", gcnt);
				f->noisy = noisy;
				{
					struct gsrc_sel csel = { c, cs->gi, NULL, cc->key, NULL, true };
					gsrc_annotate(f, NULL, &csel, GSRC_CURRENT);
				}
			}
		} else if (!gcnt && !name_flagged[x->cname[cc->sc]]) {
			if (listed_new < MAX_CALLS_LISTED) {
				listed_new++;
				f = add_finding(r, GF_CALL, true, label, text, 0, ccnt,
						"new call: %s (%u time%s)", text, ccnt,
						ccnt == 1 ? "" : "s");
				f->noisy = noisy;
				{
					struct gsrc_sel csel = { c, cs->gi, NULL, cc->key, NULL, false };
					gsrc_annotate(f, NULL, &csel, GSRC_CURRENT);
				}
			} else {
				more_new++;
			}
		}
		x->kcount_c[k] = 0;
	}
	for (uint32_t i = 0; i < gs->n; i++) {
		uint32_t k = gs->keys[i];
		const struct gcall *gc = gs->calls[i];
		uint32_t gcnt = x->kcount_g[k];
		bool in_c = x->stamp_c[k] == gen;
		const char *text = intern_str(&g->keys, k);

		if (!gcnt)
			continue;
		x->kcount_g[k] = 0;
		if (in_c || name_flagged[gc->sc])
			continue;
		if (gc->flags & GC_FAILED) {
			key_base_of(&base, text);
			add_finding(r, GF_FAILURE, false, label, text, gcnt, 0,
				    "%s no longer fails with %s", base.buf, err_name(gc->err));
			continue;
		}
		if (listed_gone < MAX_CALLS_LISTED) {
			listed_gone++;
			f = add_finding(r, GF_CALL, true, label, text, gcnt, 0,
					"call gone: %s (golden: %u time%s)", text, gcnt,
					gcnt == 1 ? "" : "s");
			f->noisy = noisy;
			{
				struct gsrc_sel gsel = { g, gs->gi, NULL, gc->key, NULL, false };
				gsrc_annotate(f, &gsel, NULL, GSRC_GOLDEN);
			}
		} else {
			more_gone++;
		}
	}
	if (more_new) {
		f = add_finding(r, GF_CALL, true, label, NULL, 0, more_new,
				"... and %zu more new call%s", more_new, more_new == 1 ? "" : "s");
		f->noisy = noisy;
	}
	if (more_gone) {
		f = add_finding(r, GF_CALL, true, label, NULL, more_gone, 0,
				"... and %zu more calls gone", more_gone);
		f->noisy = noisy;
	}
	strbuf_release(&base);
}

/* "512 B", "4.0 KiB", "32.0 MiB". */
static void add_bytes(struct strbuf *sb, double b)
{
	if (b < 1024)
		strbuf_addf(sb, "%.0f B", b);
	else if (b < 1024 * 1024)
		strbuf_addf(sb, "%.1f KiB", b / 1024);
	else if (b < 1024.0 * 1024 * 1024)
		strbuf_addf(sb, "%.1f MiB", b / (1024 * 1024));
	else
		strbuf_addf(sb, "%.2f GiB", b / (1024.0 * 1024 * 1024));
}

/* The I/O bucket fd k of a side counts in (its stream's kind). */

static void check_group_io(struct cmp *x, const char *label, const struct ggroup *gg,
			   const struct ggroup *cg, const struct gvar_proc *vp, bool noisy)
{
	uint64_t gv[GIO_NBUCKETS], cv[GIO_NBUCKETS], lo[GIO_NBUCKETS], hi[GIO_NBUCKETS];
	int runs = x->gvar ? x->gvar->runs : 0;
	double btol = x->o->bytes_tolerance >= 0 ? x->o->bytes_tolerance : x->o->count_tolerance;

	for (int b = 0; b < GIO_NBUCKETS; b++) {
		gv[b] = gg->io[b];
		cv[b] = cg->io[b];
		lo[b] = hi[b] = gv[b];
		if (vp) {
			lo[b] = vp->io[b].lo < 0 && (uint64_t)-vp->io[b].lo > lo[b] ? 0
										: lo[b] + vp->io[b].lo;
			hi[b] += vp->io[b].hi;
		}
	}
		for (int b = 0; b < GIO_NBUCKETS; b++) {
		struct strbuf m = STRBUF_INIT;
		double alo, ahi;
		bool varied = lo[b] != hi[b];
		struct gfinding *f;

		bool msg = b / 2 == GK_STDIO;
		double tol = msg && btol < GOLDEN_MSG_TOLERANCE ? GOLDEN_MSG_TOLERANCE : btol;

		if (!hi[b] && !cv[b])
			continue;
		/* a standard stream whose kind differs is not compared */
		if (msg && (x->stdmask & (b % 2 ? 6u : 1u)))
			continue;
		if (!out_of_range(lo[b], hi[b], cv[b], tol,
				  msg ? GOLDEN_MSG_FLOOR_BYTES : GOLDEN_IO_FLOOR_BYTES, &alo, &ahi))
			continue;
		strbuf_addf(&m, "%s: ", gio_bucket_phrase(b));
		add_bytes(&m, (double)(varied ? lo[b] : gv[b]));
		if (varied) {
			strbuf_addstr(&m, "-");
			add_bytes(&m, (double)hi[b]);
		}
		strbuf_addstr(&m, " -> ");
		add_bytes(&m, (double)cv[b]);
		if (hi[b] && cv[b])
			strbuf_addf(&m, " (%.1fx", (double)cv[b] / (double)(cv[b] > hi[b] ? hi[b]
											     : lo[b] ? lo[b] : 1));
		else
			strbuf_addstr(&m, " (");
		if (varied)
			strbuf_addf(&m, "%sgolden varied over %d runs", hi[b] && cv[b] ? ", " : "", runs);
		else
			strbuf_addf(&m, "%stolerance \xc2\xb1%.1f%%", hi[b] && cv[b] ? ", " : "",
				    tol * 100);
		strbuf_addch(&m, ')');
		f = add_finding(x->r, GF_IO, true, label, gio_bucket_name(b), (double)gv[b],
				(double)cv[b], "%s", m.buf);
		f->noisy = noisy || varied;
		strbuf_release(&m);
	}
}

/*
 * Peak memory of a process against the golden's (and what varied at
 * capture): committed memory (writable mappings and heap, so an allocation
 * counts even when it is never touched) and resident memory (what it
 * touched).  Growth beyond the tolerance is a regression; shrinking a note.
 */
static void check_group_memory(struct cmp *x, const char *label, const struct ggroup *gg,
			       const struct ggroup *cg, const struct gvar_proc *vp, bool noisy)
{
	static const char *const what[2] = { "peak committed memory", "peak resident memory" };
	static const char *const subj[2] = { "committed", "rss" };

	for (int k = 0; k < 2; k++) {
		uint64_t g = k ? gg->rss_kb * 1024 : gg->mem_peak;
		uint64_t c = k ? cg->rss_kb * 1024 : cg->mem_peak;
		uint64_t lo = g, hi = g;
		const struct grange *vr = vp ? (k ? &vp->rss : &vp->mem) : NULL;
		double alo, ahi, floor = k ? GOLDEN_RSS_FLOOR_KB * 1024.0 : GOLDEN_MEM_FLOOR_BYTES;
		int64_t unit = k ? 1024 : 1;
		bool varied;
		struct strbuf m = STRBUF_INIT;
		struct gfinding *f;

		if (!g || !c)
			continue;      /* not measured on one side */
		if (vr) {
			lo = vr->lo < 0 && (uint64_t)(-vr->lo * unit) > lo ? 0 : lo + vr->lo * unit;
			hi += (uint64_t)(vr->hi * unit);
		}
		varied = lo != hi;
		if (!out_of_range(lo, hi, c, x->o->memory_tolerance, floor, &alo, &ahi))
			continue;
		strbuf_addf(&m, "%s: ", what[k]);
		add_bytes(&m, (double)(varied ? lo : g));
		if (varied) {
			strbuf_addstr(&m, "-");
			add_bytes(&m, (double)hi);
		}
		strbuf_addstr(&m, " -> ");
		add_bytes(&m, (double)c);
		strbuf_addf(&m, " (%+.1f MiB, %.2fx", ((double)c - (double)(c > hi ? hi : lo)) /
			    (1024.0 * 1024), (double)c / (double)(c > hi ? hi : lo ? lo : 1));
		if (varied)
			strbuf_addf(&m, ", golden varied over %d runs)", x->gvar ? x->gvar->runs : 0);
		else
			strbuf_addf(&m, ", tolerance \xc2\xb1%.1f%%)", x->o->memory_tolerance * 100);
		f = add_finding(x->r, GF_MEMORY, c > hi, label, subj[k], (double)g, (double)c, "%s",
				m.buf);
		f->noisy = noisy || varied;
		strbuf_release(&m);
	}
}

static void check_group_threads(struct cmp *x, const char *label, const struct ggroup *gg,
				const struct ggroup *cg, const struct gvar_proc *vp)
{
	uint64_t lo = gg->nthreads, hi = gg->nthreads;
	double alo, ahi;
	struct gfinding *f;

	if (vp) {
		lo = vp->threads.lo < 0 && (uint64_t)-vp->threads.lo > lo ? 0 : lo + vp->threads.lo;
		hi += vp->threads.hi;
	}
	if (!out_of_range(lo, hi, cg->nthreads, 0, 0, &alo, &ahi))
		return;
	struct strbuf g = STRBUF_INIT;
	add_range(&g, lo, hi);
	f = add_finding(x->r, GF_THREADS, true, label, "threads", (double)gg->nthreads,
			(double)cg->nthreads, "process %s runs %u thread%s besides its main one "
			"(golden: %s)", label, cg->nthreads, cg->nthreads == 1 ? "" : "s", g.buf);
	f->noisy = true;
	strbuf_release(&g);
}

/* --- matching processes --- */

/*
 * What identifies a process among its siblings: its program, command line
 * and first compared calls (a fork that does something else differs).
 */
static void group_sig(struct strbuf *sb, const struct cmp *x, const struct gmodel *m, size_t gi)
{
	const struct ggroup *gr = &m->groups[gi];
	const struct gproc *p = &m->procs[gr->leader];
	unsigned n = 0;

	strbuf_reset(sb);
	strbuf_addstr(sb, gr->exe ? gr->exe : "");
	strbuf_addch(sb, '\n');
	strbuf_addstr(sb, gr->cmdline ? gr->cmdline : "");
	for (uint32_t i = 0; i < p->ncalls && n < 2; i++) {
		const struct gcall *c = &p->calls[i];
		if (excluded(x, c, true))
			continue;
		strbuf_addch(sb, '\n');
		strbuf_addstr(sb, intern_str(&m->keys, c->key));
		n++;
	}
}

/* Whether process label is a child of process parent ("1.2.3" of "1.2"). */
static bool is_child_of(const char *label, const char *parent)
{
	size_t n = strlen(parent);
	return !strncmp(label, parent, n) && label[n] == '.' && !strchr(label + n + 1, '.');
}

/* Children of process label in m, in creation order (groups are sorted by label). */
static size_t children_of(const struct gmodel *m, size_t gi, size_t *out)
{
	const char *label = m->groups[gi].label;
	size_t n = 0, len = strlen(label);

	/* sorted by label, the descendants of a process follow it */
	for (size_t i = gi + 1; i < m->ngroups; i++) {
		const char *l = m->groups[i].label;
		if (strncmp(l, label, len) || l[len] != '.')
			break;
		if (is_child_of(l, label))
			out[n++] = i;
	}
	return n;
}

/*
 * Pairs the children of matched processes gi and ci: the longest common
 * subsequence of their signatures, so that a process added or removed
 * among its siblings does not shift the others; then recurses.
 */
static void match_children(struct cmp *x, size_t gi, size_t ci)
{
	const struct gmodel *g = x->g, *c = x->c;
	size_t *gk = xmalloc((g->ngroups + 1) * sizeof(*gk));
	size_t *ck = xmalloc((c->ngroups + 1) * sizeof(*ck));
	size_t ng = children_of(g, gi, gk);
	size_t nc = children_of(c, ci, ck);
	char **gs = xcalloc(ng + 1, sizeof(*gs)), **cs = xcalloc(nc + 1, sizeof(*cs));
	struct strbuf sb = STRBUF_INIT;

	x->gmatch[gi] = (int32_t)ci;
	x->cmatch[ci] = (int32_t)gi;
	for (size_t i = 0; i < ng; i++) {
		group_sig(&sb, x, g, gk[i]);
		gs[i] = xstrdup(sb.buf);
	}
	for (size_t j = 0; j < nc; j++) {
		group_sig(&sb, x, c, ck[j]);
		cs[j] = xstrdup(sb.buf);
	}
	if (ng && nc && ng * nc <= 4000000) {
		/* LCS table, then walk it; unmatched ones stay -1 */
		uint32_t *L = xcalloc((ng + 1) * (nc + 1), sizeof(*L));
#define LCS(i, j) L[(i) * (nc + 1) + (j)]
		for (size_t i = ng; i-- > 0;)
			for (size_t j = nc; j-- > 0;)
				LCS(i, j) = !strcmp(gs[i], cs[j]) ? LCS(i + 1, j + 1) + 1
					  : LCS(i + 1, j) > LCS(i, j + 1) ? LCS(i + 1, j) : LCS(i, j + 1);
		size_t i = 0, j = 0;
		while (i < ng && j < nc) {
			if (!strcmp(gs[i], cs[j])) {
				match_children(x, gk[i++], ck[j++]);
			} else if (LCS(i + 1, j) >= LCS(i, j + 1)) {
				i++;
			} else {
				j++;
			}
		}
#undef LCS
		free(L);
		/* what is left unpaired between pairs: by position, when both
		 * sides have the same number there (a changed child) */
		size_t a = 0, b = 0;
		while (a < ng && b < nc) {
			size_t a2 = a, b2 = b;
			while (a2 < ng && x->gmatch[gk[a2]] < 0)
				a2++;
			while (b2 < nc && x->cmatch[ck[b2]] < 0)
				b2++;
			if (a2 - a == b2 - b)
				for (size_t k = 0; k < a2 - a; k++)
					match_children(x, gk[a + k], ck[b + k]);
			a = a2 + 1;
			b = b2 + 1;
		}
	} else if (ng * nc > 4000000) {
		for (size_t i = 0; i < ng && i < nc; i++)
			match_children(x, gk[i], ck[i]);
	}
	for (size_t i = 0; i < ng; i++)
		free(gs[i]);
	for (size_t j = 0; j < nc; j++)
		free(cs[j]);
	free(gs);
	free(cs);
	free(gk);
	free(ck);
	strbuf_release(&sb);
}

static void match_processes(struct cmp *x)
{
	const struct gmodel *g = x->g, *c = x->c;

	x->gmatch = xmalloc((g->ngroups + 1) * sizeof(*x->gmatch));
	x->cmatch = xmalloc((c->ngroups + 1) * sizeof(*x->cmatch));
	for (size_t i = 0; i < g->ngroups; i++)
		x->gmatch[i] = -1;
	for (size_t i = 0; i < c->ngroups; i++)
		x->cmatch[i] = -1;
	/* roots ("1", orphans "?N") by label */
	for (size_t i = 0; i < g->ngroups; i++) {
		const char *l = g->groups[i].label;
		const struct ggroup *cg;
		if (strchr(l, '.') || !(cg = gmodel_group(c, l)))
			continue;
		match_children(x, i, (size_t)(cg - c->groups));
	}
}

/* The label task p of the current side goes by on the golden side, or NULL. */
static char *golden_label_of(const struct cmp *x, const struct gproc *p)
{
	const struct ggroup *cg = &x->c->groups[p->group];
	int32_t gi = x->cmatch[p->group];
	struct strbuf sb = STRBUF_INIT;

	if (gi < 0)
		return NULL;
	strbuf_addstr(&sb, x->g->groups[gi].label);
	strbuf_addstr(&sb, p->label + strlen(cg->label));
	return strbuf_detach(&sb, NULL);
}

/* The tasks of m in order of their process: order[first[p]..first[p+1]). */
static void tasks_by_group(const struct gmodel *m, uint32_t **order, uint32_t **first)
{
	uint32_t *f = xcalloc(m->ngroups + 2, sizeof(*f)), *o, *pos;

	for (size_t t = 0; t < m->nprocs; t++)
		f[m->procs[t].group + 1]++;
	for (size_t g = 0; g < m->ngroups; g++)
		f[g + 1] += f[g];
	o = xmalloc((m->nprocs + 1) * sizeof(*o));
	pos = xmalloc((m->ngroups + 1) * sizeof(*pos));
	memcpy(pos, f, m->ngroups * sizeof(*pos));
	for (size_t t = 0; t < m->nprocs; t++)
		o[pos[m->procs[t].group]++] = (uint32_t)t;
	free(pos);
	*order = o;
	*first = f;
}

/* Compares the processes (thread groups) of both sides, as matched. */
static void check_groups(struct cmp *x)
{
	const struct gmodel *g = x->g, *c = x->c;
	bool *name_flagged = xcalloc(x->nrows + 1, sizeof(*name_flagged));
	bool noted_mem = false;

	/* a new or vanished process is reported with its tasks */
	for (size_t gi = 0; gi < g->ngroups; gi++) {
		if (x->gmatch[gi] < 0)
			continue;
		size_t ci = (size_t)x->gmatch[gi];
		const struct ggroup *gg = &g->groups[gi], *cg = &c->groups[ci];
		const struct gvar_proc *vp = gvar_proc(x->gvar, gg->label);
		bool threaded = gg->threaded || cg->threaded;
		/* with no measured variation, memory calls of threaded processes
		 * are left out (as their order); say so once */
		bool mem_excl = threaded && !vp;
		struct side gs, cs;

		if (mem_excl && !noted_mem) {
			noted_mem = true;
			add_finding(x->r, GF_NOTE, false, gg->label, NULL, 0, 0,
				    "memory calls (mmap, munmap, ...) of threaded processes are not "
				    "counted: the golden has no measured variation (capture it with "
				    "--runs N)");
		}
		/* memory calls of a threaded process are counted (their order,
		 * not their number, depends on scheduling), not listed */
		side_fill(x, &gs, g, gi, true, threaded, mem_excl);
		side_fill(x, &cs, c, ci, false, threaded, mem_excl);
		memset(name_flagged, 0, x->nrows * sizeof(*name_flagged));
		check_group_counts(x, cg->label, &gs, &cs, vp, threaded, name_flagged);
		check_group_calls(x, cg->label, &gs, &cs, threaded, name_flagged);
		check_group_io(x, cg->label, gg, cg, vp, threaded);
		check_group_memory(x, cg->label, gg, cg, vp, threaded);
		check_group_threads(x, cg->label, gg, cg, vp);
		side_release(&gs);
		side_release(&cs);
	}
	free(name_flagged);
}

/* -s: the lines whose calls named a resource (its quoted path, when it has one). */
static void resource_sources(struct gfinding *f, const struct gmodel *m, const char *value,
			     bool golden)
{
	struct strbuf needle = STRBUF_INIT;
	struct gsrc_sel sel = { m, SIZE_MAX, NULL, 0, NULL, false };
	const char *p = value;

	if (*p == '"') {
		for (p++; *p && *p != '"'; p++)
			if (*p == '\\' && p[1])
				p++;
		strbuf_add(&needle, value, (size_t)(p - value) + (*p == '"'));
	} else {
		strbuf_addstr(&needle, value);
	}
	sel.contains = needle.buf;
	gsrc_annotate(f, golden ? &sel : NULL, golden ? NULL : &sel,
		      golden ? GSRC_GOLDEN : GSRC_CURRENT);
	strbuf_release(&needle);
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
	bool threaded = false;
	struct gfinding *f;

	for (size_t i = 0; i < g->ngroups; i++)
		threaded |= g->groups[i].threaded;
	for (size_t i = 0; i < c->ngroups; i++)
		threaded |= c->groups[i].threaded;
	for (uint32_t i = 0; i < c->res.n; i++) {
		const char *s = intern_str(&c->res, i);
		if (intern_find(&g->res, s, intern_len(&c->res, i)) != UINT32_MAX)
			continue;
		enum gres_kind k = gmodel_res_kind(c, i);
		f = add_finding(x->r, GF_RESOURCE, true, NULL, s + 2, 0, 1, "%s: %s", added[k], s + 2);
		f->noisy = threaded;
		resource_sources(f, c, s + 2, false);
	}
	for (uint32_t i = 0; i < g->res.n; i++) {
		const char *s = intern_str(&g->res, i);
		if (intern_find(&c->res, s, intern_len(&g->res, i)) != UINT32_MAX)
			continue;
		enum gres_kind k = gmodel_res_kind(g, i);
		f = add_finding(x->r, GF_RESOURCE, true, NULL, s + 2, 1, 0, "%s: %s", gone[k], s + 2);
		f->noisy = threaded;
		resource_sources(f, g, s + 2, true);
	}
}

/* --- the run environment --- */

static void check_env(struct cmp *x)
{
	const struct gmodel *g = x->g, *c = x->c;
	static const char *const names[3] = { "stdin", "stdout", "stderr" };
	struct strbuf sb = STRBUF_INIT;

	if (!g->has_env || !c->has_env)
		return;
	for (int k = 0; k < 3; k++) {
		int a = g->env.stdio[k], b = c->env.stdio[k];
		if (a == b || a == SK_UNKNOWN || b == SK_UNKNOWN)
			continue;
		x->stdmask |= 1u << k;
		add_finding(x->r, GF_ENV, false, NULL, names[k], a, b,
			    "%s was %s in the golden run and is %s now: its calls and bytes are "
			    "not compared", names[k], stdio_kind_phrase(a), stdio_kind_phrase(b));
	}
	x->r->std_differs = x->stdmask;
	/* variables recorded on both sides */
	for (size_t i = 0; i < g->env.nvars; i++) {
		const char *v = g->env.vars[i], *eq = strchr(v, '=');
		size_t n = eq ? (size_t)(eq - v) : strlen(v);
		bool gset = eq != NULL, cset;
		const char *cv;
		strbuf_reset(&sb);
		strbuf_add(&sb, v, n);
		cv = trace_env_var(&c->env, sb.buf, &cset);
		if (!cv || (gset == cset && (!gset || !strcmp(eq + 1, cv))))
			continue;
		add_finding(x->r, GF_ENV, false, NULL, sb.buf, 0, 0,
			    "%s was %s%s%s in the golden run and is %s%s%s now: the run may "
			    "differ because of it", sb.buf, gset ? "'" : "", gset ? eq + 1 : "unset",
			    gset ? "'" : "", cset ? "'" : "", cset ? cv : "unset", cset ? "'" : "");
	}
	if (g->env.cwd && c->env.cwd && strcmp(g->env.cwd, c->env.cwd))
		add_finding(x->r, GF_ENV, false, NULL, "cwd", 0, 0,
			    "the golden ran in '%s' and this run in '%s' (paths under each are "
			    "compared as $CWD)", g->env.cwd, c->env.cwd);
	strbuf_release(&sb);
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

/* A task new or gone: a process is a regression, a thread a note (its
 * process's thread count decides). */
static void task_unmatched(struct cmp *x, struct gproc_diff *d, bool golden)
{
	const struct gmodel *m = golden ? x->g : x->c;
	const struct gproc *p = golden ? d->g : d->c;
	const struct ggroup *gr = &m->groups[p->group];
	bool group_elsewhere = (golden ? x->gmatch : x->cmatch)[p->group] >= 0;
	struct strbuf sb = STRBUF_INIT;
	struct gfinding *f;

	if (golden) {
		d->ng = compared(x, p, gr->threaded, &d->gk, &d->gi);
		d->removed = d->ng;
	} else {
		d->nc = compared(x, p, gr->threaded, &d->ck, &d->ci);
		d->added = d->nc;
	}
	if (p->is_thread && !group_elsewhere)
		return;          /* its process is reported */
	proc_desc(&sb, m, p);
	if (p->is_thread) {
		f = add_finding(x->r, GF_PROCESS, false, d->label, NULL, golden, !golden,
				golden ? "%s vanished (golden made %u calls)" : "new %s (%u calls)",
				sb.buf, p->ncalls);
	} else if (golden) {
		f = add_finding(x->r, GF_PROCESS, true, d->label, gr->exe, 1, 0,
				"%s vanished (golden made %u calls)", sb.buf, p->ncalls);
	} else {
		f = add_finding(x->r, GF_PROCESS, true, d->label, gr->exe, 0, 1,
				"new %s (%u calls)", sb.buf, p->ncalls);
	}
	f->noisy = gr->threaded || (strchr(p->label, '.') &&
				    (golden ? x->g : x->c)->groups[p->group].threaded);
	strbuf_release(&sb);
}

/* A current task and the label its process has on the golden side. */
struct cur_task {
	char *label;            /* NULL: its process is new */
	size_t idx;
};

static int cur_cmp(const void *a, const void *b)
{
	const struct cur_task *x = a, *y = b;
	if (!x->label || !y->label)
		return (x->label == NULL) - (y->label == NULL);
	return gproc_label_cmp(x->label, y->label);
}

void golden_compare(const struct gmodel *g, const struct gmodel *c,
		    const struct golden_opts *o, const struct gsamples *samples,
		    struct gresult *r)
{
	struct cur_task *cur;
	struct cmp x;
	uint32_t extra = 0;
	size_t gi = 0, ci = 0;
	uint64_t seq_total = 0, seq_common = 0;
	struct strbuf sb = STRBUF_INIT;

	memset(r, 0, sizeof(*r));
	memset(&x, 0, sizeof(x));
	x.g = g;
	x.c = c;
	x.o = o;
	x.r = r;
	x.gvar = g->timing.var.runs ? &g->timing.var : NULL;
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

	x.stamp_g = xcalloc(r->nids + 1, sizeof(*x.stamp_g));
	x.stamp_c = xcalloc(r->nids + 1, sizeof(*x.stamp_c));
	x.kcount_g = xcalloc(r->nids + 1, sizeof(*x.kcount_g));
	x.kcount_c = xcalloc(r->nids + 1, sizeof(*x.kcount_c));

	check_env(&x);
	tasks_by_group(g, &x.gorder, &x.gfirst);
	tasks_by_group(c, &x.corder, &x.cfirst);

	/* processes matched among their siblings; tasks by the label their
	 * process has on the golden side: sequences, exits, new and gone ones */
	match_processes(&x);
	cur = xmalloc((c->nprocs + 1) * sizeof(*cur));
	for (size_t i = 0; i < c->nprocs; i++) {
		cur[i].label = golden_label_of(&x, &c->procs[i]);
		cur[i].idx = i;
	}
	QSORT(cur, c->nprocs, cur_cmp);
	r->pd = xcalloc(g->nprocs + c->nprocs + 1, sizeof(*r->pd));
	while (gi < g->nprocs || ci < c->nprocs) {
		struct gproc_diff *d;
		int cmp;
		if (ci < c->nprocs && !cur[ci].label) {
			ci++;       /* a task of a new process: below */
			continue;
		}
		d = &r->pd[r->npd++];
		cmp = gi >= g->nprocs ? 1 : ci >= c->nprocs ? -1 :
		      gproc_label_cmp(g->procs[gi].label, cur[ci].label);
		strbuf_reset(&sb);
		d->exact = 1;
		if (cmp == 0) {
			d->g = &g->procs[gi++];
			d->c = &c->procs[cur[ci++].idx];
			d->label = d->c->label;
			diff_pair(&x, d);
			seq_total += d->ng + d->nc;
			seq_common += 2 * d->common;
		} else if (cmp < 0) {
			d->g = &g->procs[gi++];
			d->label = d->g->label;
			task_unmatched(&x, d, true);
			seq_total += d->ng;
		} else {
			d->c = &c->procs[cur[ci++].idx];
			d->label = d->c->label;
			task_unmatched(&x, d, false);
			seq_total += d->nc;
		}
	}
	for (size_t i = 0; i < c->nprocs; i++) {
		struct gproc_diff *d;
		if (cur[i].label) {
			free(cur[i].label);
			continue;
		}
		d = &r->pd[r->npd++];
		d->exact = 1;
		d->c = &c->procs[cur[i].idx];
		d->label = d->c->label;
		task_unmatched(&x, d, false);
		seq_total += d->nc;
	}
	free(cur);
	check_groups(&x);
	check_resources(&x);
	check_signals(&x);
	if (g->cut_calls || c->cut_calls)
		add_finding(r, GF_NOTE, false, NULL, NULL, (double)g->cut_calls,
			    (double)c->cut_calls,
			    "the order of calls is compared over the first %llu calls of each "
			    "trace (limits.sequence_calls); the %llu later calls of the golden "
			    "and %llu of this run are compared by count, errors and time",
			    (unsigned long long)(o->sequence_calls ? o->sequence_calls
								   : GOLDEN_SEQUENCE_CALLS),
			    (unsigned long long)g->cut_calls, (unsigned long long)c->cut_calls);
	QSORT(r->rows, r->nrows, row_cmp);
	gtiming_check(r, g, c, o, samples);

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
	if (r->confidence < o->min_confidence) {
		struct gfinding *f = add_finding(r, GF_CONFIDENCE, true, NULL, NULL,
						 o->min_confidence, r->confidence,
						 "equivalence confidence %.3f is below min_confidence %.2f",
						 r->confidence, o->min_confidence);
		f->noisy = gresult_has_noisy(r);
	}
	r->pass = !r->regression && r->confidence >= o->min_confidence;

	free(x.cname);
	free(x.gmatch);
	free(x.cmatch);
	free(x.gorder);
	free(x.gfirst);
	free(x.corder);
	free(x.cfirst);
	free(x.stamp_g);
	free(x.stamp_c);
	free(x.kcount_g);
	free(x.kcount_c);
	strbuf_release(&sb);
}
