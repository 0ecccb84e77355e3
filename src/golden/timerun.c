/* The untraced timing runs of the golden workflow (see timerun.h). */
#include "golden/timerun.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "assert/assert.h"
#include "golden/timecmp.h"
#include "measure/mstat.h"
#include "util/error.h"
#include "util/pathsearch.h"
#include "util/strbuf.h"
#include "util/xmalloc.h"

#include "util/banned.h"

/* A command whose untraced run takes longer than this (us) gets fewer runs. */
#define LONG_RUN_US 1e5

static const char *wait_label(enum mwait w)
{
	switch (w) {
	case MW_TREE: return "tree";
	case MW_LEADER: return "main";
	default: return "none";
	}
}

/*
 * The reference exec run before each timing run: what starting a small
 * dynamically linked program costs at that moment.  On a shared machine
 * that cost drifts by a third within minutes (other jobs' memory and
 * kernel work), and a millisecond program's own start-up drifts with it;
 * the comparison takes the reference's drift out (timecmp.c).
 */
static char *const reference_argv[] = { (char *)"/bin/true", NULL };

/* n runs through the probed measure m into out. */
static int measure_n(struct gwork *w, struct measure *m, char *const argv[],
		     const struct config_trace *ct, unsigned n, struct gmeasured *out,
		     int *interrupted)
{
	const char *tmp = gwork_tmpdir(w);
	struct strbuf outfile = STRBUF_INIT;
	int ret = 0;

	if (!tmp)
		return -1;
	strbuf_addf(&outfile, "%s/timing-output.txt", tmp);
	w->measure = m;
	for (unsigned i = 0; i < n; i++) {
		struct grun rr;
		struct msample ref;
		bool ref_ok;
		int r;
		if (w->stop && *w->stop) {
			*interrupted = *w->stop;
			ret = -2;
			break;
		}
		ref_ok = access(reference_argv[0], X_OK) == 0 &&
			 measure_run(m, reference_argv, NULL, &ref) == 0 && !ref.exit_code;
		r = grun_do(w, argv, ct, NULL, outfile.buf, NULL, NULL, &rr);
		if (r == 0 && rr.end.interrupted) {
			*interrupted = rr.end.interrupt_signal ? rr.end.interrupt_signal : SIGINT;
			ret = -2;
		} else if (r < 0) {
			ret = -1;
		} else {
			const struct msample *s = &rr.ms;
			struct gmrun one = {
				s->wall_us, s->cpu_us, s->user_us, s->sys_us, s->net_us,
				s->net_low_us, s->wait_us, (double)s->maxrss_kb,
				(double)s->instructions, (double)s->cycles,
				ref_ok ? ref.net_us : -1, ref_ok ? ref.cpu_us : -1,
				s->how == MW_TREE ? s->tasks : 0,   /* else not counted */
			};
			gmeasured_add(out, &one);
			/* the weakest way any run measured its waits */
			if (!out->waits || (s->how == MW_LEADER && !strcmp(out->waits, "tree")) ||
			    s->how == MW_NONE) {
				free(out->waits);
				out->waits = xstrdup(wait_label(s->how));
			}
		}
		grun_release(&rr);
		if (ret)
			break;
	}
	w->measure = NULL;
	if (!out->no_counters && !m->hw)
		out->no_counters = xstrdup(m->why_hw);
	unlink(outfile.buf);
	strbuf_release(&outfile);
	return ret;
}

int gtime_measure(struct gwork *w, char *const argv[], const struct config_trace *ct,
		  unsigned n, struct gmeasured *m, int *interrupted)
{
	struct measure ms;
	int r;

	measure_init(&ms, w->stop);
	r = measure_n(w, &ms, argv, ct, n, m, interrupted);
	measure_release(&ms);
	return r;
}

/* Whether the command counts its instructions under callgrind: 1, 0, or
 * -1 automatic (golden.h). */
static int wants_callgrind(const struct gwork *w, const struct config_trace *ct)
{
	return ct && ct->callgrind >= 0 ? ct->callgrind : w->o.callgrind;
}

/*
 * Automatic: a program whose untraced runs take under CALLGRIND_AUTO_US
 * (median wall) has its instructions counted at capture when valgrind is
 * installed, and again at validation only when its time came out
 * inconclusive, or slower for sure by less than the minimum effect: the
 * time of a program of a few milliseconds on a loaded machine cannot tell
 * a CPU-bound change under 2x from the noise, and the count can, in well
 * under a second.
 */
static bool auto_callgrind(const struct gmeasured *m)
{
	char *vg;

	if (!m->runs || mstat_median(m->wall_us, m->runs) >= CALLGRIND_AUTO_US)
		return false;
	if (!(vg = path_search("valgrind")))
		return false;
	free(vg);
	return true;
}

/* One run under callgrind: its instruction count into *ir.  As gtime_measure(). */
static int callgrind_run(struct gwork *w, char *const argv[], const struct config_trace *ct,
			 double *ir, int *interrupted)
{
	const char *tmp = gwork_tmpdir(w);
	struct strbuf dir = STRBUF_INIT;
	struct gmeasured scratch;
	char **av;
	uint64_t n;
	unsigned nprocs;
	int r = -1;

	memset(&scratch, 0, sizeof(scratch));
	if (!tmp)
		return -1;
	strbuf_addf(&dir, "%s/callgrind", tmp);
	if (golden_mkdir_p(dir.buf) < 0)
		goto out;
	if (!(av = measure_callgrind_argv(argv, dir.buf)))
		goto out;
	r = gtime_measure(w, av, ct, 1, &scratch, interrupted);
	free(av);
	if (r == 0 && (r = measure_callgrind_total(dir.buf, &n, &nprocs)) == 0)
		*ir = (double)n;
	rmdir(dir.buf);
out:
	gmeasured_release(&scratch);
	strbuf_release(&dir);
	return r;
}

int gtime_capture(struct gwork *w, char *const argv[], const struct config_trace *ct,
		  struct gtiming *t, int *interrupted)
{
	struct measure ms;
	unsigned n = w->o.timing_runs;
	int r;

	gmeasured_release(&t->meas);
	measure_init(&ms, w->stop);
	r = measure_n(w, &ms, argv, ct, 1, &t->meas, interrupted);
	if (r == 0) {
		/* a long command gets fewer runs, unless told */
		if (!n)
			n = t->meas.wall_us[0] > LONG_RUN_US ? GOLDEN_TIMING_BATCH : GOLDEN_TIMING_RUNS;
		if (n > 1)
			r = measure_n(w, &ms, argv, ct, n - 1, &t->meas, interrupted);
	}
	measure_release(&ms);
	if (r == 0 && wants_callgrind(w, ct) > 0) {
		r = callgrind_run(w, argv, ct, &t->meas.callgrind_ir, interrupted);
	} else if (r == 0 && wants_callgrind(w, ct) < 0 && auto_callgrind(&t->meas)) {
		/* not asked for: a failure only leaves the golden without it */
		if ((r = callgrind_run(w, argv, ct, &t->meas.callgrind_ir, interrupted)) != 0 &&
		    !*interrupted) {
			t->meas.callgrind_ir = 0;
			r = 0;
		}
		t->meas.callgrind_auto = true;
	}
	return r;
}

/* Sleeps ms milliseconds; -1 when w->stop was set meanwhile. */
static int pause_ms(struct gwork *w, unsigned ms)
{
	for (unsigned i = 0; i < ms / 10; i++) {
		struct timespec ts = { 0, 10 * 1000000L };
		if (w->stop && *w->stop)
			return -1;
		nanosleep(&ts, NULL);
	}
	return w->stop && *w->stop ? -1 : 0;
}

int gtime_validate(struct gwork *w, char *const argv[], const struct config_trace *ct,
		   const struct gtiming *g, struct gtiming *cur, int *interrupted)
{
	struct measure ms;
	struct gtime_verdict tv = { .v = MV_SAME };
	unsigned max = w->o.timing_max_runs > GOLDEN_TIMING_BATCH ? w->o.timing_max_runs
								   : GOLDEN_TIMING_BATCH;
	bool seen_slower = false;
	int r;

	gmeasured_release(&cur->meas);
	measure_init(&ms, w->stop);
	r = measure_n(w, &ms, argv, ct, GOLDEN_TIMING_BATCH, &cur->meas, interrupted);
	if (r == 0 && cur->meas.runs && mstat_median(cur->meas.wall_us, cur->meas.runs) >
	    LONG_RUN_US && max > 2 * GOLDEN_TIMING_BATCH)
		max = 2 * GOLDEN_TIMING_BATCH;
	while (r == 0 && g->meas.runs && w->o.check_timing) {
		gtime_judge(&g->meas, &cur->meas, &w->o, &tv);
		if (tv.v == MV_SAME)
			break;
		/*
		 * A slowdown counts once the added runs show it again, and
		 * then, for a command shorter than LONG_RUN_US, in each of two
		 * batches made a pause apart: the load of a shared machine
		 * comes and goes by the second.
		 */
		if (tv.v == MV_SLOWER && seen_slower) {
			/* a longer command outlasts the bursts of load */
			unsigned batches = mstat_median(g->meas.net_us, g->meas.runs) < LONG_RUN_US ? 2 : 0;
			for (unsigned b = 0; r == 0 && b < batches; b++) {
				if (pause_ms(w, GOLDEN_TIMING_PAUSE_MS) < 0) {
					*interrupted = *w->stop;
					r = -2;
					break;
				}
				cur->meas.later[b] = cur->meas.runs;
				r = measure_n(w, &ms, argv, ct, GOLDEN_TIMING_BATCH, &cur->meas,
					      interrupted);
				/* one batch that does not confirm it is enough */
				gtime_judge(&g->meas, &cur->meas, &w->o, &tv);
				if (tv.v != MV_SLOWER)
					break;
			}
			break;
		}
		if (cur->meas.runs >= max)
			break;
		seen_slower = tv.v == MV_SLOWER;
		r = measure_n(w, &ms, argv, ct, GOLDEN_TIMING_BATCH, &cur->meas, interrupted);
	}
	measure_release(&ms);
	int cg = wants_callgrind(w, ct);
	if (cg < 0) {
		/* automatic: only to settle a time that is inconclusive, or
		 * slower for sure but by less than the minimum effect (the
		 * computing of a short program doubled under its start-up) */
		const struct mtest *t = !tv.metric || strcmp(tv.metric, "cpu") ? &tv.net : &tv.cpu;
		bool doubt = tv.v == MV_INCONCLUSIVE || (tv.v == MV_SAME && t->lo > 1);
		/* or to tell a CPU-time slowdown of the program from a slower
		 * machine (GTIME_SAME_WORK) */
		if (gtime_may_be_same_work(&tv))
			doubt = true;
		/* or every time, for a one-task command of a few milliseconds:
		 * even a time that looks faster can hide a doubled computation
		 * when the golden's runs came at a slow moment (verdict_fast
		 * saw a golden at 4.06 ms and its 2x plant at 3.65 ms) */
		if (gtime_count_every(&g->meas, &cur->meas))
			doubt = true;
		if (!doubt || !w->o.check_timing || !auto_callgrind(&g->meas))
			cg = 0;
	}
	if (r == 0 && cg && g->meas.callgrind_ir > 0) {
		bool autom = cg < 0;
		double ir = 0, again = 0;
		double over = autom ? w->o.min_slowdown : w->o.callgrind_tolerance;
		r = callgrind_run(w, argv, ct, &ir, interrupted);
		/* a count over the limit is taken again, the lower kept */
		if (r == 0 && ir > g->meas.callgrind_ir * (1 + over) &&
		    (r = callgrind_run(w, argv, ct, &again, interrupted)) == 0 && again < ir)
			ir = again;
		if (r != 0 && autom && !*interrupted) {
			/* not asked for: a failure only leaves the count out */
			r = 0;
			ir = 0;
		}
		cur->meas.callgrind_ir = ir;
		cur->meas.callgrind_auto = autom;
	}
	return r;
}

/*
 * Whether an enabled critical_path assertion fails on an by less than
 * twice its budget: more runs could still bring its median under it.
 */
static bool budget_unsure(struct gwork *w, struct analysis *an)
{
	struct assert_results res = ASSERT_RESULTS_INIT;
	bool unsure = false;

	if (assert_eval(&w->cfg, w->cur_name, an, &res) == 0)
		for (size_t i = 0; i < res.n; i++)
			if (!strcmp(res.r[i].type, "critical_path") &&
			    (res.r[i].status == AS_FAILED || res.r[i].status == AS_WARNING) &&
			    res.r[i].actual <= 2 * res.r[i].budget)
				unsure = true;
	assert_results_release(&res);
	return unsure;
}

int gtime_budgets(struct gwork *w, char *const argv[], const struct config_trace *ct,
		  struct analysis *an, struct gtiming *cur, int *interrupted)
{
	struct gmeasured *m = &cur->meas;
	unsigned max = w->o.timing_max_runs;
	int r = 0;

	if (!an || !m->runs)
		return 0;
	analysis_set_runtime(an, m->net_us, m->wall_us, m->runs);
	while (m->runs < max && budget_unsure(w, an)) {
		r = gtime_measure(w, argv, ct, GOLDEN_TIMING_BATCH, m, interrupted);
		analysis_set_runtime(an, m->net_us, m->wall_us, m->runs);
		if (r)
			break;
	}
	return r;
}
