/* The timing part of a golden comparison (see timecmp.h). */
#include "golden/timecmp.h"
#include "golden/srcfind.h"
#include "sys/sysent.h"
#include "util/strbuf.h"
#include "util/xmalloc.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/banned.h"

/* Syscalls named as where a slowdown went. */
#define MAX_TIME_LISTED 5

/* What the checks below read and fill. */
struct cmp {
	const struct gmodel *g, *c;
	const struct golden_opts *o;
	struct gresult *r;
	bool same_work;         /* a CPU slowdown the callgrind counts ruled out */
};

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

static double fastest(const double *v, size_t n)
{
	double m = v[0];
	for (size_t i = 1; i < n; i++)
		if (v[i] < m)
			m = v[i];
	return m;
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

/* Total time of syscall name in model m, and the task where it is largest. */
static double sc_time(const struct gmodel *m, const char *name, const char **task,
		      double *task_us)
{
	uint32_t id = intern_find(&m->names, name, strlen(name));
	double total = 0;

	if (task)
		*task = NULL;
	if (task_us)
		*task_us = 0;
	if (id == UINT32_MAX)
		return 0;
	for (size_t i = 0; i < m->nprocs; i++) {
		const struct gproc *p = &m->procs[i];
		double t = 0;
		for (uint32_t j = 0; j < p->ncalls; j++)
			if (p->calls[j].sc == id)
				t += (double)gcall_dur(p, j);
		total += t;
		if (task && t > *task_us) {
			*task = p->label;
			*task_us = t;
		}
	}
	return total;
}

/* Time of syscall name in the first task of model m (the command's main thread). */
static double root_time(const struct gmodel *m, const char *name)
{
	uint32_t id = intern_find(&m->names, name, strlen(name));
	const struct gproc *p;
	double t = 0;

	if (id == UINT32_MAX || !m->nprocs)
		return 0;
	p = &m->procs[0];        /* "1" sorts first */
	for (uint32_t j = 0; j < p->ncalls; j++)
		if (p->calls[j].sc == id)
			t += (double)gcall_dur(p, j);
	return t;
}

/*
 * Waits that no load on the machine lengthens: sleeps, and syncs to disk.
 * (A wait for a child, a thread or a pipe lasts as long as the other side
 * was held up; that is what the runtime estimate takes out.)
 */
/* A wait of the program's own: a sleep, or waiting for durability
 * (SEM_SLEEP, SEM_SYNC of the semantics table). */
static bool own_wait(const char *name)
{
	long nr = sysent_lookup(name);
	return (sysent_sem(nr >= 0 ? sysent_get(nr) : NULL) & (SEM_SLEEP | SEM_SYNC)) != 0;
}

/*
 * How much longer the command's main thread spent in waits of its own
 * (own_wait) whose time grew beyond their noise, measured call by call, so
 * that a miscount of the waits for a CPU cannot hide a longer sleep or a
 * slower fsync.  The current time of a syscall is its least over the
 * current runs.
 */
static double root_growth(struct cmp *x, const struct gsamples *cs)
{
	const struct gmodel *g = x->g, *c = x->c;
	const struct golden_opts *o = x->o;
	double total = 0;

	for (size_t i = 0; i < x->r->nrows; i++) {
		const char *name = x->r->rows[i].name;
		const struct gtiming_sc *ts = gtiming_sc(&g->timing, name);
		if (!own_wait(name))
			continue;
		double sp = !ts ? 0 : g->timing.runs >= 3 ? ts->us.mad * 1.4826 : stat_spread(&ts->us);
		double gt = root_time(g, name), ct = root_time(c, name);
		/* the least the golden runs took, when that is known */
		if (ts && ts->us.min > 0 && ts->us.min < gt)
			gt = ts->us.min;
		if (cs && cs->models)
			for (size_t k = 0; k < cs->nmodels; k++) {
				double t = root_time(cs->models[k], name);
				if (t < ct)
					ct = t;
			}
		if (ct - gt > fmax(o->time_floor_ms * 1000, o->noise_k * sp))
			total += ct - gt;
	}
	return total;
}

static bool is_time_limit(const struct golden_opts *o, const char *name)
{
	for (size_t i = 0; i < o->ntime_limits; i++)
		if (!strcmp(o->time_limits[i], name))
			return true;
	return false;
}

/*
 * Where the time went: the syscalls whose total time grew beyond their
 * noise, largest growth first.  With slow (the run is over its limit) they
 * explain the regression; alone they are notes, unless the syscall is a
 * configured time limit.  The current time of a syscall is its least over
 * the current runs (noise only adds time).
 */
static void check_syscall_time(struct cmp *x, const struct gsamples *cs, bool slow,
			       double slow_by)
{
	struct gresult *r = x->r;
	const struct gmodel *g = x->g, *c = x->c;
	const struct golden_opts *o = x->o;
	struct grow {
		const char *name;
		double gm, cur, grow;
		const char *task;
	} *rows = xcalloc(r->nrows + 1, sizeof(*rows));
	size_t n = 0, listed = 0;

	for (size_t i = 0; i < r->nrows; i++) {
		const struct gcount_row *row = &r->rows[i];
		const struct gtiming_sc *ts = gtiming_sc(&g->timing, row->name);
		double gm = ts ? ts->us.median : row->g_time_us;
		double sp = !ts ? 0 : g->timing.runs >= 3 ? ts->us.mad * 1.4826 : stat_spread(&ts->us);
		double cur = row->c_time_us, task_us;
		/* how long a task took to die is not time in a syscall */
		if (!strcmp(row->name, "exit_group") || !strcmp(row->name, "exit"))
			continue;
		const char *task;
		double lim;

		if (cs && cs->models && cs->nmodels) {
			for (size_t k = 0; k < cs->nmodels; k++) {
				double t = sc_time(cs->models[k], row->name, NULL, NULL);
				if (k == 0 || t < cur)
					cur = t;
			}
		}
		lim = gm * (1 + o->time_tolerance) + fmax(o->time_floor_ms * 1000, o->noise_k * sp);
		/* when the run is slow, a syscall that took a quarter of the
		 * extra time explains it, whatever its own noise */
		if (cur <= gm || (cur <= lim && !(slow && cur - gm >= 0.25 * slow_by)))
			continue;
		sc_time(c, row->name, &task, &task_us);
		rows[n].name = row->name;
		rows[n].gm = gm;
		rows[n].cur = cur;
		rows[n].grow = cur - gm;
		rows[n].task = task;
		n++;
	}
	/* largest growth first */
	for (size_t i = 1; i < n; i++)
		for (size_t j = i; j > 0 && rows[j].grow > rows[j - 1].grow; j--) {
			struct grow t = rows[j];
			rows[j] = rows[j - 1];
			rows[j - 1] = t;
		}
	for (size_t i = 0; i < n; i++) {
		bool limit = is_time_limit(o, rows[i].name);
		struct gfinding *f;
		if (!limit && listed >= MAX_TIME_LISTED)
			continue;
		listed++;
		char ratio[32] = "none in the golden";  /* a call the golden never waited in */
		if (rows[i].gm > 0)
			snprintf(ratio, sizeof(ratio), "%.1fx", rows[i].cur / rows[i].gm);
		f = add_finding(r, GF_TIME, slow || limit, rows[i].task, rows[i].name,
				rows[i].gm / 1000, rows[i].cur / 1000,
				"time in %s: %.2fms -> %.2fms (+%.2fms, %s)%s", rows[i].name,
				rows[i].gm / 1000, rows[i].cur / 1000, rows[i].grow / 1000, ratio,
				limit && !slow ? "; a configured time limit" : "");
		f->noisy = true;
		{
			/* -s: the lines whose calls took the extra time */
			struct gsrc_sel gsel = { g, SIZE_MAX, rows[i].name, 0, NULL, false };
			struct gsrc_sel csel = { c, SIZE_MAX, rows[i].name, 0, NULL, false };
			gsrc_annotate(f, &gsel, &csel, GSRC_TIME);
		}
	}
	free(rows);
}

static void check_timing(struct cmp *x, const struct gsamples *cs)
{
	struct gresult *r = x->r;
	const struct gmodel *g = x->g, *c = x->c;
	const struct golden_opts *o = x->o;
	double g_base, spread = 0, cur, limit, g_cpu = -1, c_cpu = -1, g_net = -1, c_net = -1;
	double wall_cur, c_waits = 0;
	bool slow;
	struct gfinding *f;

	/* the fastest run on both sides: noise only ever adds time */
	if (g->timing.runs > 0) {
		g_base = g->timing.wall_us.min > 0 ? g->timing.wall_us.min : g->timing.wall_us.median;
		spread = stat_spread(&g->timing.wall_us);
		if (g->timing.has_cpu)
			g_cpu = g->timing.cpu_us.min;
		if (g->timing.has_net) {
			/* the median and its deviation: a run's waits can be over-
			 * or under-counted, and one such run must not widen the limit */
			g_net = g->timing.net_us.median;
			spread = g->timing.runs >= 3 ? g->timing.net_us.mad * 1.4826
						     : stat_spread(&g->timing.net_us);
		}
		r->g_runs = g->timing.runs;
	} else {
		g_base = (double)g->wall_ns / 1000.0;
		r->g_runs = 1;
	}
	if (cs && cs->n) {
		wall_cur = fastest(cs->wall_us, cs->n);
		if (cs->cpu_us)
			c_cpu = fastest(cs->cpu_us, cs->n);
		if (cs->net_us) {
			size_t best = 0;
			for (size_t i = 1; i < cs->n; i++)
				if (cs->net_us[i] < cs->net_us[best])
					best = i;
			c_net = cs->net_us[best];
			c_waits = cs->wall_us[best] - c_net;
		}
		r->c_runs = (int)cs->n;
	} else if (c->timing.runs > 0) {
		wall_cur = c->timing.wall_us.min > 0 ? c->timing.wall_us.min : c->timing.wall_us.median;
		if (c->timing.has_cpu)
			c_cpu = c->timing.cpu_us.min;
		if (c->timing.has_net) {
			c_net = c->timing.net_us.min;
			c_waits = c->timing.wall_us.median - c->timing.net_us.median;
		}
		r->c_runs = c->timing.runs;
	} else {
		wall_cur = (double)c->wall_ns / 1000.0;
		r->c_runs = 1;
	}
	/* the header shows medians, as capture printed (the limit works on
	 * the fastest runs: noise only ever adds time) */
	r->g_wall_ms = (g->timing.runs > 0 ? g->timing.wall_us.median : g_base) / 1000;
	r->c_wall_ms = (cs && cs->n ? mstat_median(cs->wall_us, cs->n) :
			c->timing.runs > 0 ? c->timing.wall_us.median : wall_cur) / 1000;
	r->g_cpu_ms = g_cpu >= 0 ? g_cpu / 1000 : -1;
	r->c_cpu_ms = c_cpu >= 0 ? c_cpu / 1000 : -1;
	r->g_net_ms = g_net >= 0 ? g_net / 1000 : -1;
	r->c_net_ms = c_net >= 0 ? c_net / 1000 : -1;
	/*
	 * With both sides measured, the time that renacer and the command spent
	 * waiting for a CPU (the machine's load, not the program) is taken out
	 * of the wall time before it is compared.
	 */
	if (g_net >= 0 && c_net >= 0) {
		g_base = g_net;
		cur = c_net;
	} else {
		cur = wall_cur;
	}
	r->spread_ms = spread / 1000;
	if (!o->check_timing || g_base <= 0) {
		check_syscall_time(x, cs, false, 0);
		return;
	}
	double slack = slack_for(o, spread, g->ncalls);
	double base_limit = g_base * (1 + o->time_tolerance) + slack;
	double cpu_limit = -1;
	/* the waits taken out are measured to a few percent */
	if (g_net >= 0 && c_net >= 0 && c_waits > 0)
		slack += GOLDEN_WAIT_ERROR * c_waits;
	limit = g_base * (1 + o->time_tolerance) + slack;
	if (g_cpu >= 0)
		cpu_limit = g_cpu * (1 + o->time_tolerance) +
			    fmax(o->time_floor_ms * 1000,
				 o->noise_k * (g->timing.runs >= 3 ? g->timing.cpu_us.mad * 1.4826
								   : stat_spread(&g->timing.cpu_us)));
	r->limit_ms = limit / 1000;
	r->timing_checked = true;
	/*
	 * Slower when the runtime passed its limit; or when it passed it but
	 * for the margin of the waits taken out and a measure that no load
	 * changes agrees: the CPU time grew past its own limit, or the main
	 * thread's sleeps and syncs alone took more extra time than allowed.
	 */
	slow = cur > limit;
	if (!slow && cur > base_limit && c_cpu >= 0 && cpu_limit >= 0 && c_cpu > cpu_limit) {
		slow = true;
		limit = base_limit;      /* what the CPU time confirms */
		slack = slack_for(o, spread, g->ncalls);
	}
	if (!slow && root_growth(x, cs) > base_limit - g_base) {
		slow = true;
		cur = fmax(cur, g_base + root_growth(x, cs));
		limit = base_limit;
		slack = slack_for(o, spread, g->ncalls);
	}
	if (slow) {
		struct strbuf m = STRBUF_INIT;
		r->limit_ms = limit / 1000;
		strbuf_addf(&m, "runtime %.2fms is %.1fx the golden's %.2fms (limit %.2fms: +%.0f%% "
			    "and %.2fms of noise)", cur / 1000, cur / g_base, g_base / 1000,
			    limit / 1000, o->time_tolerance * 100, slack / 1000);
		if (g_net >= 0 && c_net >= 0)
			strbuf_addf(&m, "; not counting waits for a CPU (wall %.2fms, golden %.2fms)",
				    wall_cur / 1000, g->timing.wall_us.min / 1000);
		f = add_finding(r, GF_TIMING, true, NULL, "runtime", g_base / 1000, cur / 1000,
				"%s", m.buf);
		f->noisy = true;
		strbuf_release(&m);
		if (g_cpu >= 0 && c_cpu >= 0) {
			double grow = cur - g_base, cgrow = c_cpu - g_cpu;
			if (cgrow > 0.5 * grow && cgrow > slack)
				f = add_finding(r, GF_TIMING, true, NULL, "cpu", g_cpu / 1000,
						c_cpu / 1000, "the slowdown is CPU-bound: CPU time "
						"%.2fms -> %.2fms (+%.2fms of the %.2fms)", g_cpu / 1000,
						c_cpu / 1000, cgrow / 1000, grow / 1000);
			else
				f = add_finding(r, GF_TIMING, true, NULL, "waiting", g_cpu / 1000,
						c_cpu / 1000, "the slowdown is time spent waiting, not "
						"computing: CPU time %.2fms -> %.2fms", g_cpu / 1000,
						c_cpu / 1000);
			f->noisy = true;
		}
	}
	check_syscall_time(x, cs, slow, cur - g_base);
}

/* --- untraced runs --- */

/*
 * cur[0..n) less the drift of the reference exec since the golden's runs
 * (its median in cref against gref), at most the golden's reference time
 * either way; into a malloc'ed array.  Without references on both sides,
 * a copy.
 */
static double *adjust(const double *cur, unsigned n, const double *gref, unsigned ng,
		      const double *cref)
{
	double *out = xmalloc((n + 1) * sizeof(*out)), d = 0;

	if (gref && cref) {
		double g = mstat_median(gref, ng);
		d = mstat_median(cref, n) - g;
		d = d > g ? g : d < -g ? -g : d;
	}
	for (unsigned i = 0; i < n; i++)
		out[i] = cur[i] - d > 1 ? cur[i] - d : 1;
	return out;
}

bool gtime_count_every(const struct gmeasured *g, const struct gmeasured *c)
{
	/* one task: no thread spins for another, and valgrind's serialized
	 * threads cannot change the work */
	return g->callgrind_ir > 0 && g->callgrind_auto && g->runs && g->tasks == 1 &&
	       c->tasks == 1 && mstat_median(g->wall_us, g->runs) < CALLGRIND_EVERY_US;
}

bool gtime_may_be_same_work(const struct gtime_verdict *tv)
{
	return tv->v == MV_SLOWER && tv->metric && !strcmp(tv->metric, "cpu") &&
	       tv->cpu.ratio < GTIME_SAME_WORK_MAX;
}

void gtime_judge(const struct gmeasured *g, const struct gmeasured *c,
		 const struct golden_opts *o, struct gtime_verdict *out)
{
	struct mtest_opts mo = { o->timing_alpha, 1 + o->min_slowdown, o->min_slowdown_us };
	double gnet = mstat_median(g->net_us, g->runs), gcpu = mstat_median(g->cpu_us, g->runs);
	double *cnet = adjust(c->net_us, c->runs, g->ref_net_us, g->runs, c->ref_net_us);
	double *ccpu = adjust(c->cpu_us, c->runs, g->ref_cpu_us, g->runs, c->ref_cpu_us);

	memset(out, 0, sizeof(*out));
	out->adjusted = g->ref_net_us && c->ref_net_us;
	if (out->adjusted) {
		out->g_ref_us = mstat_median(g->ref_net_us, g->runs);
		out->c_ref_us = mstat_median(c->ref_net_us, c->runs);
	}
	out->cpu_bound = gnet > 0 && gcpu >= GTIME_CPU_BOUND * gnet;
	mtest_run(g->net_us, g->runs, cnet, c->runs, &mo, &out->net);
	if ((g->net_low_us || c->net_low_us) && out->net.v == MV_SLOWER) {
		/* a tree: its waits overlap, the truth lies between the bounds */
		double *clow = adjust(c->net_low_us ? c->net_low_us : c->net_us, c->runs,
				      g->ref_net_us, g->runs, c->ref_net_us);
		mtest_run(g->net_low_us ? g->net_low_us : g->net_us, g->runs, clow, c->runs, &mo,
			  &out->net_low);
		if (out->net_low.v != MV_SLOWER) {
			out->net.v = MV_INCONCLUSIVE;
			out->tree_doubt = true;
		}
		free(clow);
	}
	/* a tree's waits (a golden that does not know its tasks: the
	 * current runs'; neither: a tree, to be safe) */
	if (out->net.v == MV_SLOWER && (c->tasks != 1 || g->tasks > 1)) {
		double gw = mstat_median(g->wait_us, g->runs), cw = mstat_median(c->wait_us, c->runs);
		out->wait_us = gw > cw ? gw : cw;
		if (out->net.c_median - out->net.g_median < GTIME_WAIT_DOUBT * out->wait_us) {
			out->net.v = MV_INCONCLUSIVE;
			out->wait_doubt = true;
		}
	}
	out->v = out->net.v;
	out->metric = "net";
	if (out->cpu_bound) {
		/* CPU time, which the machine's load disturbs least, decides;
		 * the net time still shows a slowdown of its own (a new wait) */
		mtest_run(g->cpu_us, g->runs, ccpu, c->runs, &mo, &out->cpu);
		if (out->cpu.v == MV_SLOWER ||
		    (out->net.v != MV_SLOWER && out->cpu.v == MV_INCONCLUSIVE) ||
		    (out->net.v == MV_SAME && out->cpu.v == MV_SAME)) {
			out->v = out->cpu.v;
			out->metric = "cpu";
		}
	}
	/* each batch made a pause later must show the slowdown on its own */
	for (unsigned b = 0; out->v == MV_SLOWER && b < 2 && c->later[b]; b++) {
		unsigned k = c->later[b], end = b + 1 < 2 && c->later[b + 1] ? c->later[b + 1] : c->runs;
		bool cpu = !strcmp(out->metric, "cpu");
		struct mtest_opts lo = mo;
		lo.alpha = GTIME_CONFIRM_ALPHA;
		mtest_run(cpu ? g->cpu_us : g->net_us, g->runs, (cpu ? ccpu : cnet) + k, end - k,
			  &lo, &out->later);
		if (!(out->later.p < lo.alpha && out->later.ratio >= mo.min_ratio &&
		      out->later.c_median - out->later.g_median >= mo.min_abs)) {
			out->v = MV_INCONCLUSIVE;
			out->unconfirmed = true;
		}
	}
	free(cnet);
	free(ccpu);
}

static const char *times_label(const char *metric)
{
	return !strcmp(metric, "cpu") ? "CPU time" : "net time";
}

/* "; starting a program took 1.10ms, 0.95ms at capture" */
static void add_reference(struct strbuf *sb, const struct gtime_verdict *tv)
{
	if (tv->adjusted && fabs(tv->c_ref_us - tv->g_ref_us) >= 1)
		strbuf_addf(sb, "; adjusted by %+.2fms: starting a program took %.2fms, %.2fms at "
			    "capture", (tv->g_ref_us - tv->c_ref_us) / 1000, tv->c_ref_us / 1000,
			    tv->g_ref_us / 1000);
}

/* "98% interval 0.97x-1.08x, p 0.31" */
static void add_interval(struct strbuf *sb, const struct mtest *t, double alpha)
{
	strbuf_addf(sb, "%.0f%% interval ", 100 * (1 - 2 * alpha));
	if (t->lo > 0 && isfinite(t->hi))
		strbuf_addf(sb, "%.2fx-%.2fx", t->lo, t->hi);
	else
		strbuf_addstr(sb, "unbounded");
	strbuf_addf(sb, ", p %.2g", t->p);
}

/*
 * The verdict on the untraced runs: a regression when slower, a note (or
 * with timing = "strict" a regression) when inconclusive, nothing when
 * the same.  Returns whether the run is slower.
 */
static bool check_untraced(struct cmp *x, bool judge)
{
	struct gresult *r = x->r;
	const struct gmeasured *gm = &x->g->timing.meas, *cm = &x->c->timing.meas;
	const struct golden_opts *o = x->o;
	struct gtime_verdict tv;
	const struct mtest *t;
	struct strbuf m = STRBUF_INIT;

	gtime_judge(gm, cm, o, &tv);
	t = !strcmp(tv.metric, "cpu") ? &tv.cpu : &tv.net;
	r->untraced = true;
	r->timing_checked = true;
	r->time_verdict = tv.v;
	r->time_metric = tv.metric;
	r->time_ratio = t->ratio;
	r->time_lo = t->lo;
	r->time_hi = t->hi;
	r->time_p = t->p;
	r->time_adjust_ms = tv.adjusted ? (tv.g_ref_us - tv.c_ref_us) / 1000 : 0;
	r->g_runs = (int)gm->runs;
	r->c_runs = (int)cm->runs;
	r->g_wall_ms = mstat_median(gm->wall_us, gm->runs) / 1000;
	r->c_wall_ms = mstat_median(cm->wall_us, cm->runs) / 1000;
	r->g_net_ms = tv.net.g_median / 1000;
	r->c_net_ms = mstat_median(cm->net_us, cm->runs) / 1000;   /* as measured */
	r->g_cpu_ms = mstat_median(gm->cpu_us, gm->runs) / 1000;
	r->c_cpu_ms = mstat_median(cm->cpu_us, cm->runs) / 1000;
	r->limit_ms = t->g_median * (1 + o->min_slowdown) / 1000;
	if (t->g_median + o->min_slowdown_us > t->g_median * (1 + o->min_slowdown))
		r->limit_ms = (t->g_median + o->min_slowdown_us) / 1000;
	r->spread_ms = 0;
	r->timing_checked = judge;
	/* slower CPU time over the same instructions: the machine, not the
	 * program (GTIME_SAME_WORK) */
	double gir = gm->callgrind_ir, cir = cm->callgrind_ir;
	if (judge && gtime_may_be_same_work(&tv) && gir > 0 && cir > 0 &&
	    fabs(cir - gir) <= GTIME_SAME_WORK * gir &&
	    /* a new wait of its own shows in the net time: not ruled out */
	    tv.net.c_median - tv.net.g_median <=
	    1.5 * (tv.cpu.c_median - tv.cpu.g_median) + o->min_slowdown_us) {
		tv.v = MV_INCONCLUSIVE;
		r->time_verdict = MV_INCONCLUSIVE;
		x->same_work = true;
	}
	if (!judge || tv.v == MV_SAME)
		return false;
	if (tv.v == MV_SLOWER) {
		strbuf_addf(&m, "%s %.2fms is %.2fx the golden's %.2fms (", times_label(tv.metric),
			    t->c_median / 1000, t->ratio, t->g_median / 1000);
		add_interval(&m, t, o->timing_alpha);
		strbuf_addf(&m, "; untraced, medians of %zu runs and the golden's %zu%s", t->nc,
			    t->ng, strcmp(tv.metric, "cpu") ? ", net of waits for a CPU" : "");
		add_reference(&m, &tv);
		strbuf_addch(&m, ')');
		add_finding(r, GF_TIMING, true, NULL, "runtime", t->g_median / 1000,
			    t->c_median / 1000, "%s", m.buf);
		strbuf_reset(&m);
		bool cpu = r->c_cpu_ms - r->g_cpu_ms > 0.5 * (r->c_net_ms - r->g_net_ms);
		if (cpu)
			strbuf_addf(&m, "the slowdown is CPU-bound: CPU time %.2fms -> %.2fms "
				    "(%.2fx)", r->g_cpu_ms, r->c_cpu_ms,
				    r->g_cpu_ms > 0 ? r->c_cpu_ms / r->g_cpu_ms : 0);
		else
			strbuf_addf(&m, "the slowdown is time spent waiting, not computing: CPU "
				    "time %.2fms -> %.2fms, net time %.2fms -> %.2fms", r->g_cpu_ms,
				    r->c_cpu_ms, r->g_net_ms, r->c_net_ms);
		add_finding(r, GF_TIMING, true, NULL, cpu ? "cpu" : "waiting", r->g_cpu_ms,
			    r->c_cpu_ms, "%s", m.buf);
		strbuf_release(&m);
		return true;
	}
	/* inconclusive */
	strbuf_addf(&m, "timing inconclusive: %s %.2fms against the golden's %.2fms, %.2fx (",
		    times_label(tv.metric), t->c_median / 1000, t->g_median / 1000, t->ratio);
	add_interval(&m, t, o->timing_alpha);
	strbuf_addch(&m, ')');
	add_reference(&m, &tv);
	if (x->same_work)
		strbuf_addf(&m, " over %zu runs and the golden's %zu: the instructions under callgrind "
			    "are the same, %.0f -> %.0f (%+.1f%%): the machine ran the same work "
			    "slower (a busy neighbour or hyperthread, a lower clock)", t->nc, t->ng,
			    gir, cir, 100 * (cir - gir) / gir);
	else if (tv.tree_doubt && !strcmp(tv.metric, "net"))
		strbuf_addf(&m, " over %zu runs and the golden's %zu: with the waits of every thread and "
			    "process added up it is %.2fx (p %.2g): their waits for a CPU, which "
			    "overlap, may explain it", t->nc, t->ng, tv.net_low.ratio, tv.net_low.p);
	else if (tv.wait_doubt && !strcmp(tv.metric, "net"))
		strbuf_addf(&m, " over %zu runs and the golden's %zu: the waits for a CPU taken out of "
			    "each run (%.2fms, the machine's load) are too large beside the difference "
			    "to tell it from their error", t->nc, t->ng, tv.wait_us / 1000);
	else if (tv.unconfirmed)
		strbuf_addf(&m, " over %zu runs and the golden's %zu: slower at first, but %zu runs "
			    "made a pause later were %.2fx (p %.2g): the machine's load changed", t->nc,
			    t->ng, tv.later.nc, tv.later.ratio, tv.later.p);
	else if (t->too_few)
		strbuf_addf(&m, " over %zu run%s and the golden's %zu: too few to decide", t->nc,
			    t->nc == 1 ? "" : "s", t->ng);
	else
		strbuf_addf(&m, " over %zu runs and the golden's %zu: the noise could hide a "
			    "slowdown of +%.0f%%", t->nc, t->ng, 200 * o->min_slowdown);
	if (o->timing_strict)
		strbuf_addstr(&m, " (timing = \"strict\": a regression)");
	add_finding(r, GF_TIMING, o->timing_strict, NULL, "inconclusive", t->g_median / 1000,
		    t->c_median / 1000, "%s", m.buf);
	strbuf_release(&m);
	return false;
}

/*
 * Instructions counted under callgrind, when both sides have them: exact
 * counts, compared with a small tolerance (o->callgrind_tolerance).  More
 * is a regression, whatever the time said; fewer beyond it is a note.
 * Counted automatically (golden.h), the count decides only whether an
 * inconclusive time is a CPU-bound slowdown, with the timing test's own
 * minimum effect (o->min_slowdown).
 */
static void check_callgrind(struct cmp *x)
{
	double g = x->g->timing.meas.callgrind_ir, c = x->c->timing.meas.callgrind_ir;
	double tol = x->o->callgrind_tolerance;

	if (g <= 0 || c <= 0)
		return;
	if (x->c->timing.meas.callgrind_auto || x->g->timing.meas.callgrind_auto) {
		if (x->same_work)
			return;      /* said in the timing's own finding */
		/* automatic, counted because the time was inconclusive: the
		 * count decides it with the timing test's own minimum effect */
		double min = x->o->min_slowdown;
		bool slower = c > g * (1 + min);
		int tv = x->r->time_verdict;
		if (!slower && tv != MV_INCONCLUSIVE)
			return;
		add_finding(x->r, slower ? GF_TIMING : GF_NOTE, slower, NULL,
			    slower ? "instructions" : "timing", g, c,
			    "instructions under callgrind: %.0f -> %.0f (%+.1f%%): %s (counted because "
			    "%s; a regression over +%.0f%%)", g, c,
			    100 * (c - g) / g, slower ? "the program computes more: a CPU-bound slowdown"
						      : "not a CPU-bound slowdown of that size",
			    tv == MV_INCONCLUSIVE ? "the time was inconclusive"
			    : tv == MV_SLOWER ? "the time was slower"
			    : gtime_count_every(&x->g->timing.meas, &x->c->timing.meas)
			    ? "a one-task command under 10ms is counted every time"
			    : "the time was slower by less than its minimum effect",
			    100 * min);
		return;
	}
	if (fabs(c - g) <= tol * g)
		return;
	add_finding(x->r, GF_TIMING, c > g, NULL, "instructions", g, c,
		    "instructions under callgrind: %.0f -> %.0f (%+.1f%%, tolerance \xc2\xb1%.1f%%)%s",
		    g, c, 100 * (c - g) / g, 100 * tol, c > g ? "" : ": fewer");
}

/* One run against one run: no noise information, no verdict (a note). */
static void one_against_one(struct cmp *x, double g_ms, double c_ms)
{
	struct strbuf m = STRBUF_INIT;

	x->r->time_verdict = MV_INCONCLUSIVE;
	x->r->time_metric = "wall";
	strbuf_addf(&m, "timing inconclusive: %.2fms against %.2fms is one run against one run, "
		    "which says nothing about the noise; capture and validate measure "
		    "several untraced runs", c_ms, g_ms);
	if (x->o->timing_strict)
		strbuf_addstr(&m, " (timing = \"strict\": a regression)");
	add_finding(x->r, GF_TIMING, x->o->timing_strict, NULL, "inconclusive", g_ms, c_ms, "%s", m.buf);
	strbuf_release(&m);
}

void gtiming_check(struct gresult *r, const struct gmodel *g, const struct gmodel *c,
		   const struct golden_opts *o, const struct gsamples *cs)
{
	struct cmp x = { g, c, o, r };
	bool g_meas = g->timing.meas.runs > 0, c_meas = c->timing.meas.runs > 0;

	r->time_verdict = MV_SAME;
	r->time_metric = "wall";
	if (g_meas && c_meas) {
		bool slow = check_untraced(&x, o->check_timing);
		if (o->check_timing)
			check_callgrind(&x);
		check_syscall_time(&x, cs, slow, slow ? (r->c_net_ms - r->g_net_ms) * 1000 : 0);
		return;
	}
	if (o->check_timing && g->timing.runs <= 1 && c->timing.runs <= 1 && !(cs && cs->n > 1)) {
		double gw = g->timing.runs ? g->timing.wall_us.median : (double)g->wall_ns / 1000;
		double cw = c->timing.runs ? c->timing.wall_us.median : (double)c->wall_ns / 1000;
		if (gw <= 0 || cw <= 0) {
			/* no time on a side (a trace made without one) */
			check_syscall_time(&x, cs, false, 0);
			return;
		}
		r->g_wall_ms = gw / 1000;
		r->c_wall_ms = cw / 1000;
		r->g_net_ms = r->c_net_ms = r->g_cpu_ms = r->c_cpu_ms = -1;
		r->g_runs = r->c_runs = 1;
		one_against_one(&x, gw / 1000, cw / 1000);
		check_syscall_time(&x, cs, false, 0);
		return;
	}
	check_timing(&x, cs);
	if (o->check_timing && g->timing.runs > 0 && !g_meas)
		add_finding(r, GF_NOTE, false, NULL, "timing", 0, 0,
				 "the golden has no untraced timing runs (an older renacer captured "
				 "it): its time is that of traced runs, which ptrace slows and whose "
				 "slowdowns it hides; capture it again to judge time untraced");
}
