/* The golden workflow: runs, storing, validate, compare, accept (see workflow.h). */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <jansson.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <zstd.h>

#include "assert/assert.h"
#include "golden/timerun.h"
#include "golden/workflow.h"
#include "golden/machine.h"
#include "measure/mstat.h"
#include "util/atomicfile.h"
#include "util/error.h"
#include "util/quote.h"
#include "golden/store.h"
#include "util/strbuf.h"
#include "util/xmalloc.h"
#include "util/banned.h"

/* Directory part of path ("." when none) into sb. */
static void dir_of(struct strbuf *sb, const char *path)
{
	const char *slash = strrchr(path, '/');

	if (slash)
		strbuf_add(sb, path, slash - path);
	else
		strbuf_addch(sb, '.');
}

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

unsigned golden_output_tail(const char *outfile, unsigned lines, struct strbuf *out)
{
	struct strbuf sb = STRBUF_INIT;
	size_t start;
	unsigned n = 0, shown = 0;

	if (strbuf_read_file(&sb, outfile) < 0 || !sb.len) {
		strbuf_release(&sb);
		return 0;
	}
	start = sb.len;
	if (start && sb.buf[start - 1] == '\n')
		start--;
	while (start > 0 && n < lines) {
		start--;
		if (sb.buf[start] == '\n')
			n++;
	}
	if (sb.buf[start] == '\n')
		start++;
	for (const char *p = sb.buf + start; *p;) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		strbuf_add(out, p, len);
		strbuf_addch(out, '\n');
		shown++;
		p += len + (nl != NULL);
	}
	strbuf_release(&sb);
	return shown;
}

/* --- trace files --- */

int golden_write_trace(const char *src, const char *dst, const struct gtiming *t, bool zst,
		       int level)
{
	struct atomicfile af;
	int r;

	if (atomicfile_open(&af, dst) < 0)
		return -1;
	r = golden_trace_copy(src, t, NULL, zst, level, af.fp, NULL, dst);
	if (r < 0) {
		atomicfile_abort(&af);
		return -1;
	}
	return atomicfile_commit(&af);
}

/* --- the runs of one trace --- */

static const double *sort_walls;
static int idx_cmp(const void *a, const void *b)
{
	double x = sort_walls[*(const unsigned *)a], y = sort_walls[*(const unsigned *)b];
	return x < y ? -1 : x > y;
}

/* Fills r->timing from the runs. */
static void runs_timing(struct gruns *r)
{
	struct gtiming *t = &r->timing;
	double *s = xmalloc(r->n * sizeof(*s));
	struct intern names = INTERN_INIT;

	memset(t, 0, sizeof(*t));
	t->runs = (int)r->n;
	memcpy(s, r->wall_us, r->n * sizeof(*s));
	gstat_from(&t->wall_us, s, r->n);
	memcpy(s, r->cpu_us, r->n * sizeof(*s));
	gstat_from(&t->cpu_us, s, r->n);
	t->has_cpu = 1;
	memcpy(s, r->net_us, r->n * sizeof(*s));
	gstat_from(&t->net_us, s, r->n);
	t->has_net = 1;
	for (unsigned i = 0; i < r->n; i++) {
		const struct gmodel *m = r->rr[i].m;
		for (uint32_t k = 0; k < m->names.n; k++)
			intern_add(&names, intern_str(&m->names, k), intern_len(&m->names, k));
	}
	t->sc = xcalloc(names.n + 1, sizeof(*t->sc));
	for (uint32_t k = 0; k < names.n; k++) {
		double *calls = xmalloc(r->n * sizeof(*calls));
		struct gstat cs;
		for (unsigned i = 0; i < r->n; i++) {
			const struct gmodel *m = r->rr[i].m;
			uint32_t id = intern_find(&m->names, intern_str(&names, k), intern_len(&names, k));
			s[i] = id == UINT32_MAX ? 0 : (double)m->sc[id].time_us;
			calls[i] = id == UINT32_MAX ? 0 : (double)m->sc[id].calls;
		}
		t->sc[k].name = xstrdup(intern_str(&names, k));
		gstat_from(&t->sc[k].us, s, r->n);
		gstat_from(&cs, calls, r->n);
		t->sc[k].calls = cs.median;
		free(calls);
	}
	t->nsc = names.n;
	gcontext_current(&t->ctx);
	t->has_ctx = 1;
	{
		struct gmodel **ms = xcalloc(r->n + 1, sizeof(*ms));
		for (unsigned i = 0; i < r->n; i++)
			ms[i] = r->rr[i].m;
		gvar_from_models(&t->var, ms, r->n, r->median);
		free(ms);
	}
	intern_release(&names);
	free(s);
}

/* Whether the run's model has a process with threads. */
static bool run_threaded(const struct grun *rr)
{
	for (size_t i = 0; rr->m && i < rr->m->ngroups; i++)
		if (rr->m->groups[i].threaded)
			return true;
	return false;
}

/*
 * One traced run of the command, recorded again when the recording lost
 * calls (its ring buffer filled faster than renacer read it, which the
 * back-pressure of bpf/throttle.c makes rare): under ptrace, which stops
 * at each call and loses none, and so are the later runs of the batch
 * (w->ptrace_only); where RENACER_BACKEND=ebpf asked for the recorder,
 * with a ring buffer 4 and then 16 times larger, then it fails.  (A larger
 * ring by default would make renacer's memory grow with the storm.)  An
 * interrupted run is not run again, and an analysis (an) sees the run
 * that is kept only.  Returns 0; -1 when grun_do() failed (rr as it left
 * it); -2 after error() when the recorder asked for lost calls even with
 * its largest ring.
 */
static int grun_whole(struct gwork *w, char *const argv[], const struct config_trace *ct,
		      const char *json, const char *outfile, struct analysis *an, struct grun *rr)
{
	int ret = 0;

	for (w->ring_scale = w->ptrace_only ? GRUN_PTRACE : 0;;
	     w->ring_scale = grun_recorder_forced() ? w->ring_scale + 1 : GRUN_PTRACE) {
		if (grun_do(w, argv, ct, json, outfile, an, NULL, rr) < 0) {
			ret = -1;
			break;
		}
		if (!rr->end.lost || w->ring_scale == GRUN_PTRACE || rr->end.interrupted ||
		    (w->stop && *w->stop))
			break;
		if (w->ring_scale == 2) {
			error("the recording lost %llu calls even with a ring buffer 16 times "
			      "larger: the golden would miss them (RENACER_BACKEND=ptrace "
			      "stops at each call instead)", (unsigned long long)rr->end.lost);
			ret = -2;
			break;
		}
		if (!grun_recorder_forced()) {
			warning("the recording lost %llu calls (a storm of calls filled its "
				"ring buffer): the runs go under ptrace",
				(unsigned long long)rr->end.lost);
			w->ptrace_only = true;
		}
		grun_release(rr);
		if (an)
			analysis_reset(an);
	}
	w->ring_scale = 0;
	return ret;
}

int gruns_do(struct gwork *w, char *const argv[], const struct config_trace *ct,
	     unsigned n, struct analysis *an, struct gruns *r)
{
	const char *tmp = gwork_tmpdir(w);
	static unsigned serial;
	unsigned *idx, cap = n ? n : GOLDEN_THREADED_RUNS;
	bool automatic = n == 0;

	memset(r, 0, sizeof(*r));
	if (!tmp)
		return -1;
	w->ptrace_only = false;      /* another command, or another batch */
	if (automatic)
		n = GOLDEN_AUTO_RUNS;
	r->n = n;
	r->json = xcalloc(cap + GOLDEN_CONFIRM_RUNS, sizeof(*r->json));
	r->wall_us = xcalloc(cap + GOLDEN_CONFIRM_RUNS, sizeof(*r->wall_us));
	r->cpu_us = xcalloc(cap + GOLDEN_CONFIRM_RUNS, sizeof(*r->cpu_us));
	r->net_us = xcalloc(cap + GOLDEN_CONFIRM_RUNS, sizeof(*r->net_us));
	r->rr = xcalloc(cap + GOLDEN_CONFIRM_RUNS, sizeof(*r->rr));
	{
		struct strbuf sb = STRBUF_INIT;
		strbuf_addf(&sb, "%s/output-%u.txt", tmp, ++serial);
		r->outfile = strbuf_detach(&sb, NULL);
	}
	for (unsigned i = 0; i < n; i++) {
		struct strbuf sb = STRBUF_INIT;
		strbuf_addf(&sb, "%s/run-%u-%u.json", tmp, serial, i);
		r->json[i] = strbuf_detach(&sb, NULL);
		/* assertions look at the first run only */
		if (w->stop && *w->stop) {
			/* interrupted between two runs */
			r->interrupted = *w->stop;
			r->n = i;
			return -1;
		}
		switch (grun_whole(w, argv, ct, r->json[i], r->outfile, i == 0 ? an : NULL,
				   &r->rr[i])) {
		case -1:
			r->failed = !r->rr[i].started;
			r->n = i + 1;
			return -1;
		case -2:
			r->n = i + 1;
			return -1;
		}
		if (r->rr[i].end.interrupted || (w->stop && *w->stop)) {
			/* the tracer got SIGINT/SIGTERM/SIGHUP and ended the run */
			r->interrupted = w->stop && *w->stop ? *w->stop :
					 r->rr[i].end.interrupt_signal ? r->rr[i].end.interrupt_signal :
					 SIGINT;
			r->n = i + 1;
			return -1;
		}
		r->wall_us[i] = r->rr[i].wall_us;
		r->cpu_us[i] = r->rr[i].cpu_us;
		r->net_us[i] = r->rr[i].net_us;
		/* a multi-threaded command varies: measure how much */
		if (automatic && i == 0 && run_threaded(&r->rr[0]) && cap > n)
			r->n = n = cap;
	}
	idx = xmalloc(n * sizeof(*idx));
	for (unsigned i = 0; i < n; i++)
		idx[i] = i;
	sort_walls = r->wall_us;
	QSORT(idx, n, idx_cmp);
	r->median = idx[(n - 1) / 2];
	free(idx);
	runs_timing(r);
	return 0;
}

int gruns_confirm(struct gwork *w, char *const argv[], const struct config_trace *ct,
		  struct gruns *r)
{
	unsigned i = r->n;

	if (r->extra >= GOLDEN_CONFIRM_RUNS || (w->stop && *w->stop))
		return -1;
	/* (under ptrace too when the batch's recording lost calls) */
	if (grun_whole(w, argv, ct, NULL, r->outfile, NULL, &r->rr[i]) < 0) {
		grun_release(&r->rr[i]);
		return -1;
	}
	if (r->rr[i].end.interrupted) {
		r->interrupted = w->stop && *w->stop ? *w->stop :
				 r->rr[i].end.interrupt_signal ? r->rr[i].end.interrupt_signal :
				 SIGINT;
		grun_release(&r->rr[i]);
		return -1;
	}
	r->wall_us[i] = r->rr[i].wall_us;
	r->cpu_us[i] = r->rr[i].cpu_us;
	r->net_us[i] = r->rr[i].net_us;
	r->n++;
	r->extra++;
	return 0;
}

void gruns_release(struct gruns *r)
{
	for (unsigned i = 0; i < r->n; i++) {
		if (r->json && r->json[i]) {
			struct strbuf sp = STRBUF_INIT;
			strbuf_addf(&sp, "%s.stacks", r->json[i]);
			unlink(sp.buf);
			strbuf_release(&sp);
			unlink(r->json[i]);
			free(r->json[i]);
		}
		if (r->rr)
			grun_release(&r->rr[i]);
	}
	free(r->json);
	free(r->wall_us);
	free(r->cpu_us);
	free(r->net_us);
	free(r->rr);
	if (r->outfile) {
		unlink(r->outfile);
		free(r->outfile);
	}
	gtiming_release(&r->timing);
	memset(r, 0, sizeof(*r));
}

/* --- storing --- */

/* File size, or 0. */
static uint64_t file_size(const char *path)
{
	struct stat st;
	return stat(path, &st) ? 0 : (uint64_t)st.st_size;
}

/*
 * -s: the same run with every call's stack (docs/source.md) as
 * DIR/NAME_source.jsonSUFFIX; NAME_source.json.new waits with NAME.json.new
 * for accept.  0 or -1 after error().
 */
static int store_source(struct gwork *w, const char *dir, const char *name, struct gruns *r,
			const char *suffix)
{
	struct strbuf src = STRBUF_INIT, dst = STRBUF_INIT;
	int ret;

	strbuf_addf(&src, "%s.stacks", r->json[r->median]);
	strbuf_addf(&dst, "%s/%s_source.json%s", dir, name, suffix);
	ret = golden_write_trace(src.buf, dst.buf, &r->timing, false, 0);
	strbuf_release(&src);
	strbuf_release(&dst);
	return ret;
}

int golden_store(struct gwork *w, const char *dir, const char *name, struct gruns *r,
		 const char *suffix, char **written)
{
	struct strbuf path = STRBUF_INIT, other = STRBUF_INIT;
	const char *src = r->json[r->median];
	bool zst = gwork_want_zst(w, file_size(src));
	int ret = -1;

	if (!*suffix) {
		/* the golden and its -c table, as one unit; its stacks after */
		const struct grun *med = gruns_median(r);
		int pr = golden_pair_write(dir, name, src, med->summary.len ? med->summary.buf : NULL,
					   &r->timing, zst, w->compress_level,
					   w->stop, w->base, written);
		if (pr == 0 && w->source && store_source(w, dir, name, r, "") < 0)
			pr = -1;
		return pr < 0 ? -1 : pr;
	}
	if (w->stop && *w->stop)
		return 1;
	strbuf_addf(&path, "%s/%s.json%s%s", dir, name, zst ? ".zst" : "", suffix);
	strbuf_addf(&other, "%s/%s.json%s%s", dir, name, zst ? "" : ".zst", suffix);
	if (golden_write_trace(src, path.buf, &r->timing, zst, w->compress_level) < 0)
		goto out;
	if (golden_unlink(other.buf) < 0)
		goto out;
	if (w->source && store_source(w, dir, name, r, suffix) < 0)
		goto out;
	*written = strbuf_detach(&path, NULL);
	ret = 0;
out:
	strbuf_release(&path);
	strbuf_release(&other);
	return ret;
}

int golden_killed_from_outside(const struct trace_end *e)
{
	switch (e->term_signal) {
	case SIGINT: case SIGTERM: case SIGHUP: case SIGKILL: case SIGQUIT:
		return e->term_signal;
	}
	return 0;
}

/* Why a run cannot be stored as a golden (malloc'ed, one line), or NULL. */
static char *refusal(const char *name, const struct trace_end *e)
{
	struct strbuf sb = STRBUF_INIT;
	int sig = golden_killed_from_outside(e);

	if (!sig)
		return NULL;
	strbuf_addf(&sb, "the command of '%s' was killed by %s before its end: not a complete run, "
		    "nothing stored", esc(name), signal_name(sig) ? signal_name(sig) : "a signal");
	return strbuf_detach(&sb, NULL);
}

/* --- capture --- */

/*
 * The untraced timing runs of a capture into r->timing, the critical_path
 * budgets judged on them, and res's line about them.  Returns 0, or -1
 * with res->status set (interrupted, or the runs failed).
 */
static int gtime_capture_hook(struct gwork *w, char *const argv[], const struct config_trace *ct,
			      struct analysis *an, struct gruns *r, struct gcapture *res)
{
	const struct gmeasured *m = &r->timing.meas;
	struct strbuf sb = STRBUF_INIT;
	int sig = 0, tr;

	if (!w->o.check_timing)
		return 0;
	tr = gtime_capture(w, argv, ct, &r->timing, &sig);
	if (tr == 0)
		tr = gtime_budgets(w, argv, ct, an, &r->timing, &sig);
	if (tr < 0) {
		res->interrupted = sig;
		res->run_failed = !sig;
		res->status = GOLDEN_CMD_FAILED;
		return -1;
	}
	strbuf_addf(&sb, "timing: %u untraced runs, median %.2fms wall, %.2fms net of waits for a "
		    "CPU, %.2fms CPU", m->runs, mstat_median(m->wall_us, m->runs) / 1000,
		    mstat_median(m->net_us, m->runs) / 1000, mstat_median(m->cpu_us, m->runs) / 1000);
	if (m->callgrind_ir > 0)
		strbuf_addf(&sb, "; %.0f instructions under callgrind", m->callgrind_ir);
	res->timing = strbuf_detach(&sb, NULL);
	if (m->no_counters)
		res->no_counters = xstrdup(m->no_counters);
	return 0;
}

int golden_capture(struct gwork *w, const char *name, char *const argv[],
		   const struct config_trace *ct, struct gcapture *res)
{
	struct gruns r;
	struct strbuf sb = STRBUF_INIT;
	const struct grun *med;
	struct analysis *an = w->cfg.nassertions ? analysis_new() : NULL;

	memset(res, 0, sizeof(*res));
	strbuf_init(&res->output_tail, 0);
	res->status = GOLDEN_OK;
	gwork_set_trace(w, name);
	w->traced_timing = false;       /* untraced runs judge the golden's time */
	/* what a renacer killed while storing left behind; what it replaces */
	golden_pair_begin(w->dir, name, w->base, NULL);
	if (gruns_do(w, argv, ct, gwork_runs_for(w, ct), an, &r) < 0) {
		res->interrupted = r.interrupted;
		res->status = r.failed || r.interrupted ? GOLDEN_CMD_FAILED : GOLDEN_BAD_CONFIG;
		res->run_failed = !r.interrupted;
		goto out;
	}
	med = gruns_median(&r);
	for (unsigned i = 0; i < r.n && !res->refused; i++)
		res->refused = refusal(name, &r.rr[i].end);
	if (res->refused) {
		res->status = GOLDEN_CMD_FAILED;
		goto out;
	}
	if (gtime_capture_hook(w, argv, ct, an, &r, res) < 0)
		goto out;
	switch (golden_store(w, w->dir, name, &r, "", &res->written)) {
	case 0:
		break;
	case 1:
		res->interrupted = *w->stop;
		res->status = GOLDEN_CMD_FAILED;
		goto out;
	default:
		res->status = GOLDEN_WRITE_FAILED;
		goto out;
	}
	strbuf_addf(&sb, "%s/%s.json.new", w->dir, name);
	unlink(sb.buf);
	strbuf_reset(&sb);
	strbuf_addf(&sb, "%s/%s.json.zst.new", w->dir, name);
	unlink(sb.buf);
	/* what validate's header shows: the untraced runs' median net time */
	res->wall_ms = (r.timing.meas.runs ? mstat_median(r.timing.meas.net_us, r.timing.meas.runs)
					   : r.timing.wall_us.median) / 1000.0;
	res->ncalls = med->ncalls;
	res->end = med->end;
	if (med->end.term_signal || med->end.exit_code)
		golden_output_tail(r.outfile, 10, &res->output_tail);
	if (an) {
		res->asserts = xcalloc(1, sizeof(*res->asserts));
		if (assert_eval(&w->cfg, name, an, res->asserts) < 0) {
			assert_results_release(res->asserts);
			free(res->asserts);
			res->asserts = NULL;
		}
	}
out:
	if (an)
		analysis_free(an);
	strbuf_release(&sb);
	gruns_release(&r);
	return res->status;
}

void gcapture_release(struct gcapture *res)
{
	free(res->timing);
	free(res->no_counters);
	free(res->written);
	free(res->refused);
	strbuf_release(&res->output_tail);
	if (res->asserts) {
		assert_results_release(res->asserts);
		free(res->asserts);
	}
	memset(res, 0, sizeof(*res));
}

/* --- validate --- */

/* Adds the failing assertions of the run as findings. */
static void add_assertions(struct gwork *w, const char *name, struct analysis *an,
			   struct gresult *r)
{
	struct assert_results res = ASSERT_RESULTS_INIT;

	if (!w->cfg.nassertions || assert_eval(&w->cfg, name, an, &res) < 0) {
		assert_results_release(&res);
		return;
	}
	for (size_t i = 0; i < res.n; i++) {
		const struct assert_result *a = &res.r[i];
		struct gfinding *f;
		struct strbuf sb = STRBUF_INIT;

		if (a->status != AS_FAILED && a->status != AS_WARNING)
			continue;
		strbuf_addf(&sb, "assertion '%s' (%s) %s: %s", a->name, a->type,
			    a->status == AS_FAILED ? "failed" : "warns", a->summary ? a->summary : "");
		ALLOC_GROW(r->f, r->nf + 1, r->af);
		f = &r->f[r->nf++];
		memset(f, 0, sizeof(*f));
		f->kind = GF_ASSERTION;
		f->regression = a->status == AS_FAILED;
		f->subject = xstrdup(a->name);
		f->message = strbuf_detach(&sb, NULL);
		f->golden = a->budget;
		f->current = a->actual;
		if (f->regression) {
			r->regression = true;
			r->pass = false;
		}
	}
	assert_results_release(&res);
}

/* What could not be made like the golden's run, as notes (once each). */
static void add_like_notes(struct gwork *w, struct gresult *r)
{
	struct strbuf seen = STRBUF_INIT;

	for (const char *p = w->like_notes.buf; p && *p;) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		struct strbuf line = STRBUF_INIT;
		strbuf_add(&line, p, len);
		strbuf_addch(&line, '\n');
		if (!strstr(seen.buf, line.buf)) {
			struct gfinding *f;
			strbuf_add(&seen, line.buf, line.len);
			ALLOC_GROW(r->f, r->nf + 1, r->af);
			f = &r->f[r->nf++];
			memset(f, 0, sizeof(*f));
			f->kind = GF_ENV;
			f->message = xstrndup(p, len);
		}
		strbuf_release(&line);
		p += len + (nl != NULL);
	}
	strbuf_release(&seen);
}

/* dst (released first) as a copy of src: through its JSON form, the one
 * the golden keeps.  0 or -1 after error(). */
static int timing_copy(struct gtiming *dst, const struct gtiming *src)
{
	char *text = gtiming_to_json(src);
	json_error_t je;
	json_t *j = json_loads(text, 0, &je);
	int r;

	free(text);
	gtiming_release(dst);
	if (!j)
		return error("cannot copy the timing of the runs: %s", je.text);
	r = gtiming_from_json(dst, j, "the runs");
	json_decref(j);
	return r;
}

/*
 * Compares the golden with the current runs: the median run's trace (read
 * back like the golden) against the runtimes of every run; a noisy finding
 * stays a regression only when the comparison of every other run has it.
 */
static void compare_runs(struct gwork *w, struct gvalidation *v, struct gruns *runs)
{
	struct gmodel **ms = xcalloc(runs->n + 1, sizeof(*ms));
	struct gresult *others;
	size_t nothers = 0;
	struct gsamples gs;

	for (unsigned i = 0; i < runs->n; i++)
		ms[i] = i == runs->median ? v->c : runs->rr[i].m;
	gs.wall_us = runs->wall_us;
	gs.cpu_us = runs->cpu_us;
	gs.net_us = runs->net_us;
	gs.n = runs->n;
	gs.models = ms;
	gs.nmodels = runs->n;
	if (v->have_r)
		gresult_release(&v->r);
	golden_compare(v->g, v->c, &w->o, &gs, &v->r);
	v->have_r = true;
	if (runs->n > 1 && gresult_has_noisy(&v->r)) {
		others = xcalloc(runs->n, sizeof(*others));
		for (unsigned i = 0; i < runs->n; i++)
			if (i != runs->median && ms[i])
				golden_compare(v->g, ms[i], &w->o, NULL, &others[nothers++]);
		gresult_confirm(&v->r, others, nothers);
		for (size_t i = 0; i < nothers; i++)
			gresult_release(&others[i]);
		free(others);
	}
	free(ms);
}

/*
 * A trace about to become a golden (--update, or a .new that accept makes
 * one) carries the variation of its runs, as a capture's does: runs are
 * added up to capture's automatic number (their models only), and the
 * timing and variation are measured again over all of them.
 */
static void measure_for_golden(struct gwork *w, char *const argv[],
			       const struct config_trace *ct, struct gvalidation *v,
			       struct gruns *runs)
{
	unsigned before = runs->n;

	while (runs->n < GOLDEN_AUTO_RUNS && gruns_confirm(w, argv, ct, runs) == 0)
		;
	if (runs->n == before)
		return;
	/* the median run's model went to the comparison: lend it back */
	runs->rr[runs->median].m = v->c;
	{
		/* the untraced runs judge time: they stay as they were */
		struct gmeasured keep = runs->timing.meas;
		memset(&runs->timing.meas, 0, sizeof(keep));
		gtiming_release(&runs->timing);
		runs_timing(runs);
		runs->timing.meas = keep;
	}
	runs->rr[runs->median].m = NULL;
}

/* Writes the run as the golden (update) or as NAME.json.new; sets v->hint. */
static void store_after_mismatch(struct gwork *w, char *const argv[],
				 const struct config_trace *ct, struct gvalidation *v,
				 struct gruns *runs)
{
	struct strbuf sb = STRBUF_INIT, d = STRBUF_INIT;
	char *written = NULL, *why = NULL;
	int r;

	for (unsigned i = 0; i < runs->n && !why; i++)
		why = refusal(v->name, &runs->rr[i].end);
	if (why) {
		/* a run killed from outside is neither a golden nor a .new */
		v->hint = why;
		return;
	}
	if (!w->ci || w->new_dir)      /* something will be written */
		measure_for_golden(w, argv, ct, v, runs);
	if (w->update && !w->ci) {
		dir_of(&d, v->golden);
		r = golden_store(w, d.buf, v->name, runs, "", &written);
		if (r == 0) {
			strbuf_addf(&sb, "golden updated: %s", written);
			v->hint = strbuf_detach(&sb, NULL);
			v->k.status = GOLDEN_OK;
		} else if (r == 1) {
			v->interrupted = *w->stop;
		} else {
			v->k.status = GOLDEN_WRITE_FAILED;
		}
	} else if (!w->ci || w->new_dir) {
		if (w->new_dir)
			strbuf_addstr(&d, w->new_dir);
		else
			dir_of(&d, v->golden);
		r = golden_mkdir_p(d.buf) < 0 ? -1 :
		    golden_store(w, d.buf, v->name, runs, ".new", &written);
		if (r == 1) {
			v->interrupted = *w->stop;
		} else if (r < 0) {
			v->k.status = GOLDEN_WRITE_FAILED;
		} else {
			strbuf_addf(&sb, "the new trace is %s", written);
			if (!w->new_dir) {
				strbuf_addstr(&sb, "; accept it with: renacer accept ");
				if (strcmp(d.buf, "golden_traces"))
					strbuf_addf(&sb, "--dir %s ", d.buf);
				strbuf_addstr(&sb, v->name);
			}
			v->hint = strbuf_detach(&sb, NULL);
		}
	}
	free(written);
	strbuf_release(&d);
	strbuf_release(&sb);
}

int golden_validate(struct gwork *w, const char *name, const char *gpath, bool gexists,
		    char *const argv[], const struct config_trace *ct, struct gvalidation *v)
{
	struct gruns runs;
	struct strbuf sb = STRBUF_INIT;
	struct analysis *an = w->cfg.nassertions ? analysis_new() : NULL;
	struct golden_lock lk = GOLDEN_LOCK_INIT;
	int missing = 0, sig = 0;
	bool cmp_ok, bad;
	double t0 = now_s();

	memset(v, 0, sizeof(*v));
	memset(&runs, 0, sizeof(runs));
	strbuf_init(&v->output_tail, 0);
	gwork_set_trace(w, name);
	v->name = xstrdup(name);
	v->golden = xstrdup(gpath);
	v->k.status = GOLDEN_OK;
	/* what a renacer killed while storing left behind; the golden is read
	 * under the directory's lock (golden/store.h) */
	dir_of(&sb, gpath);
	golden_pair_begin(sb.buf, name, w->base, &lk);
	strbuf_reset(&sb);
	/* the golden first: a missing or broken one needs no run */
	bad = gexists && (gmodel_load(gpath, &w->o, &v->g, &missing) < 0 ||
			  golden_pair_check(gpath) < 0);
	golden_unlock(&lk);
	if (bad) {
		v->k.status = missing ? GOLDEN_MISSING : GOLDEN_INVALID;
		v->error = xstrdup(missing ? "golden missing" : "golden unreadable or invalid");
		goto out;
	}
	if (!gexists && (w->ci || !w->update)) {
		v->k.status = GOLDEN_MISSING;
		v->golden_missing = true;
		strbuf_addf(&sb, "golden trace '%s' does not exist", gpath);
		v->error = strbuf_detach(&sb, NULL);
		if (!w->ci) {
			strbuf_addf(&sb, "capture it with: renacer capture %s%s", name,
				    ct ? "" : " -- COMMAND");
			v->hint = strbuf_detach(&sb, NULL);
		}
		goto out;
	}
	/* a golden no renacer.toml declares: its own command */
	if (!argv && !(argv = v->g ? v->g->argv : NULL)) {
		v->k.status = GOLDEN_BAD_CONFIG;
		v->error = xstrdup(gexists ? "the golden records no command (attached with -p?): "
					     "give one with --golden FILE -- COMMAND"
					   : "no command: declare the trace in renacer.toml or give "
					     "--golden FILE -- COMMAND");
		goto out;
	}
	if (v->g) {
		/* made on another machine: said once (the CLI), or refused */
		struct gmachine here;
		gmachine_current(&here);
		if (gmachine_differs(&v->g->machine, &here, &sb)) {
			v->machine_note = strbuf_detach(&sb, NULL);
			if (w->same_machine) {
				v->k.status = GOLDEN_BAD_CONFIG;
				strbuf_addf(&sb, "golden made on another machine (%s): not validated "
					    "(--same-machine)", v->machine_note);
				v->error = strbuf_detach(&sb, NULL);
				goto out;
			}
		}
	}
	/* a golden without untraced runs (renacer 0.9) is judged on traced
	 * timing, which then needs the waits for a CPU of every stop */
	w->traced_timing = w->o.check_timing && v->g && !v->g->timing.meas.runs;
	/* a golden captured with -s: trace the same way, so that findings
	 * name the lines their calls come from */
	if (v->g && v->g->srcs.n)
		w->source = true;
	/* the command runs the way the golden's did: its stdio kinds and
	 * recorded variables (locale, PATH, ...) */
	w->like = v->g && v->g->has_env ? &v->g->env : NULL;
	strbuf_reset(&w->like_notes);
	/* one run unless told: a finding that may be noise brings more */
	if (gruns_do(w, argv, ct, gwork_runs_for(w, ct) ? gwork_runs_for(w, ct) : 1, an,
		     &runs) < 0) {
		if (runs.interrupted)
			goto interrupted;
		v->k.status = runs.failed ? GOLDEN_CMD_FAILED : GOLDEN_BAD_CONFIG;
		strbuf_addf(&sb, "cannot run '%s'", argv[0]);
		v->error = strbuf_detach(&sb, NULL);
		goto out;
	}
	if (!gexists) {
		/* --update with no golden yet: capture it */
		char *written = NULL;
		int r;

		for (unsigned i = 0; i < runs.n && !v->error; i++)
			v->error = refusal(name, &runs.rr[i].end);
		if (v->error) {
			v->k.status = GOLDEN_CMD_FAILED;
			goto out;
		}
		if (w->o.check_timing && gtime_capture(w, argv, ct, &runs.timing, &sig) < 0) {
			if (sig) {
				runs.interrupted = sig;
				goto interrupted;
			}
			v->k.status = GOLDEN_CMD_FAILED;
			v->error = xstrdup("cannot measure the untraced timing runs");
			goto out;
		}
		r = golden_mkdir_p(w->dir) < 0 ? -1 :
		    golden_store(w, w->dir, name, &runs, "", &written);
		if (r == 1)
			goto interrupted;
		if (r < 0) {
			v->k.status = GOLDEN_WRITE_FAILED;
			v->error = xstrdup("cannot write the golden");
			goto out;
		}
		strbuf_addf(&sb, "golden created: %s (%.2fms, %llu syscalls)", written,
			    (runs.timing.meas.runs ? mstat_median(runs.timing.meas.net_us,
								  runs.timing.meas.runs)
						   : runs.timing.wall_us.median) / 1000.0,
			    (unsigned long long)gruns_median(&runs)->ncalls);
		v->hint = strbuf_detach(&sb, NULL);
		free(written);
		goto out;
	}
	/* time, measured untraced until the comparison with the golden is
	 * decided; the budgets of critical_path on the same runs */
	if (w->o.check_timing &&
	    (gtime_validate(w, argv, ct, &v->g->timing, &runs.timing, &sig) < 0 ||
	     gtime_budgets(w, argv, ct, an, &runs.timing, &sig) < 0)) {
		if (sig) {
			runs.interrupted = sig;
			goto interrupted;
		}
		v->k.status = GOLDEN_CMD_FAILED;
		v->error = xstrdup("cannot measure the untraced timing runs");
		goto out;
	}
	/* the current model: the median run's, built as it ran, with the
	 * timing of all the runs */
	v->c = runs.rr[runs.median].m;
	runs.rr[runs.median].m = NULL;
	if (timing_copy(&v->c->timing, &runs.timing) < 0) {
		v->k.status = GOLDEN_BAD_CONFIG;
		v->error = xstrdup("cannot keep the timing of the runs");
		goto out;
	}
	compare_runs(w, v, &runs);
	/* noise only ever adds time, and a threaded program's counts vary:
	 * re-run before such a finding counts */
	while (gresult_has_noisy(&v->r) && gruns_confirm(w, argv, ct, &runs) == 0)
		compare_runs(w, v, &runs);
	if (runs.interrupted)
		goto interrupted;
	add_like_notes(w, &v->r);
	cmp_ok = v->r.pass;
	if (an)
		add_assertions(w, name, an, &v->r);
	v->k.status = v->r.pass ? GOLDEN_OK : GOLDEN_REGRESSION;
	if (v->k.status == GOLDEN_OK)
		goto out;
	if (cmp_ok) {
		/* the trace matches its golden: a new golden would not help */
		v->hint = xstrdup("the run matches its golden; an assertion of renacer.toml failed");
		goto out;
	}
	store_after_mismatch(w, argv, ct, v, &runs);
	if (v->interrupted)
		goto interrupted;
	goto out;
interrupted:
	/* SIGINT, SIGTERM or SIGHUP: a run that did not end on its own is
	 * neither a golden nor a .new */
	v->interrupted = runs.interrupted ? runs.interrupted : *w->stop;
	v->k.status = GOLDEN_CMD_FAILED;
	free(v->error);
	strbuf_reset(&sb);
	strbuf_addf(&sb, "interrupted by %s: nothing written", signal_name(v->interrupted) ?
		    signal_name(v->interrupted) : "a signal");
	v->error = strbuf_detach(&sb, NULL);
	if (v->have_r) {
		gresult_release(&v->r);
		v->have_r = false;
	}
out:
	if (v->k.status == GOLDEN_REGRESSION && runs.n && runs.rr &&
	    gruns_median(&runs)->started) {
		const struct trace_end *e = &gruns_median(&runs)->end;
		if ((e->exit_code || e->term_signal) && v->g &&
		    (e->exit_code != v->g->exit_code || e->term_signal != v->g->term_signal))
			golden_output_tail(runs.outfile, 10, &v->output_tail);
	}
	if (w->keep_current && runs.n && runs.json && runs.json[runs.median] && !v->interrupted) {
		/* the pictures of the run (report/html.h) read it after */
		v->current_trace = runs.json[runs.median];
		runs.json[runs.median] = NULL;
	}
	gruns_release(&runs);
	w->like = NULL;
	if (an)
		analysis_free(an);
	v->k.name = v->name;
	v->k.golden_path = v->golden;
	v->k.current_path = NULL;
	v->k.error = v->error;
	v->k.hint = v->hint;
	v->k.r = v->have_r ? &v->r : NULL;
	v->k.g = v->g;
	v->k.c = v->c;
	v->k.seconds = now_s() - t0;
	strbuf_release(&sb);
	return v->k.status;
}

void gvalidation_release(struct gvalidation *v)
{
	if (v->have_r)
		gresult_release(&v->r);
	gmodel_free(v->g);
	gmodel_free(v->c);
	free(v->golden);
	free(v->hint);
	free(v->error);
	free(v->name);
	free(v->machine_note);
	strbuf_release(&v->output_tail);
	if (v->current_trace) {
		struct strbuf sp = STRBUF_INIT;
		strbuf_addf(&sp, "%s.stacks", v->current_trace);
		unlink(sp.buf);
		unlink(v->current_trace);
		strbuf_release(&sp);
		free(v->current_trace);
	}
	memset(v, 0, sizeof(*v));
}

/* --- compare --- */

struct load_job {
	const char *path;
	const struct golden_opts *o;
	struct gmodel *m;
	int missing;
	int ret;
};

static void *load_thread(void *arg)
{
	struct load_job *j = arg;
	j->ret = gmodel_load(j->path, j->o, &j->m, &j->missing);
	return NULL;
}

/* Loads two traces at once (two threads: the scale target wants both cores). */
static void load_two(struct load_job *a, struct load_job *b)
{
	pthread_t t;
	bool threaded = pthread_create(&t, NULL, load_thread, b) == 0;

	load_thread(a);
	if (threaded)
		pthread_join(t, NULL);
	else
		load_thread(b);
}

int golden_compare_files(struct gwork *w, const char *gpath, const char *cpath,
			 struct gcomparison *res)
{
	struct load_job a, b;

	memset(res, 0, sizeof(*res));
	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	a.path = gpath;
	b.path = cpath;
	a.o = b.o = &w->o;
	load_two(&a, &b);
	res->g = a.m;
	res->c = b.m;
	if (a.ret < 0 || b.ret < 0) {
		res->status = (a.ret < 0 && a.missing) || (b.ret < 0 && b.missing) ? GOLDEN_MISSING
										   : GOLDEN_INVALID;
		res->error = a.ret < 0 ? (a.missing ? "golden missing" : "golden unreadable or invalid")
				       : (b.missing ? "current trace missing"
						    : "current trace unreadable or invalid");
		return res->status;
	}
	golden_compare(a.m, b.m, &w->o, NULL, &res->r);
	res->have_r = true;
	res->status = res->r.pass ? GOLDEN_OK : GOLDEN_REGRESSION;
	return res->status;
}

void gcomparison_release(struct gcomparison *res)
{
	if (res->have_r)
		gresult_release(&res->r);
	gmodel_free(res->g);
	gmodel_free(res->c);
	memset(res, 0, sizeof(*res));
}

/* --- accept --- */

void golden_list_pending(const char *dir, struct gpending **out, size_t *n)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	size_t alloc = 0;

	*out = NULL;
	*n = 0;
	if (!d)
		return;
	while ((e = readdir(d))) {
		const char *nm = e->d_name;
		size_t l = strlen(nm);
		const char *suf = NULL;
		struct stat sn, sg;
		struct gpending *p;

		if (nm[0] == '.')
			continue;   /* temporaries of renacer's own, and the like */
		if (l > 13 && !strcmp(nm + l - 13, ".json.zst.new"))
			suf = ".json.zst.new";
		else if (l > 9 && !strcmp(nm + l - 9, ".json.new"))
			suf = ".json.new";
		/* NAME_source.json.new goes with NAME.json.new (-s) */
		if (!suf || (l > 16 && !strcmp(nm + l - 16, "_source.json.new")))
			continue;
		ALLOC_GROW(*out, *n + 1, alloc);
		p = &(*out)[(*n)++];
		memset(p, 0, sizeof(*p));
		p->name = xstrndup(nm, l - strlen(suf));
		{
			struct strbuf sb = STRBUF_INIT;
			strbuf_addf(&sb, "%s/%s", dir, nm);
			p->path = strbuf_detach(&sb, NULL);
			strbuf_addf(&sb, "%s/%.*s", dir, (int)(l - 4), nm);
			p->golden = strbuf_detach(&sb, NULL);
		}
		/* stale: a golden written after the .new */
		if (!stat(p->path, &sn)) {
			bool ex;
			char *gp = golden_path(dir, p->name, &ex);
			if (ex && !stat(gp, &sg) &&
			    (sg.st_mtim.tv_sec > sn.st_mtim.tv_sec ||
			     (sg.st_mtim.tv_sec == sn.st_mtim.tv_sec &&
			      sg.st_mtim.tv_nsec > sn.st_mtim.tv_nsec)))
				p->stale = true;
			free(gp);
		}
	}
	closedir(d);
}

void gpending_free(struct gpending *p, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(p[i].path);
		free(p[i].name);
		free(p[i].golden);
	}
	free(p);
}

int golden_accept(struct gwork *w, const struct gpending *p)
{
	bool zst = strstr(p->golden, ".json.zst") != NULL;
	struct strbuf snew = STRBUF_INIT, sdst = STRBUF_INIT;
	char *written = NULL;
	int r;

	golden_pair_begin(w->dir, p->name, w->base, NULL);
	/* the .new must read back as a trace before it becomes the golden:
	 * the summary is made from it (golden_pair_write reads it) */
	r = golden_pair_write(w->dir, p->name, p->path, NULL, NULL, zst, w->compress_level, w->stop,
			      w->base, &written);
	free(written);
	if (r == 1)
		return GOLDEN_CMD_FAILED;
	if (r < 0)
		return r == -2 ? GOLDEN_INVALID : GOLDEN_WRITE_FAILED;
	if (unlink(p->path) < 0 && errno != ENOENT)
		warning("cannot remove '%s': %s", esc(p->path), strerror(errno));
	/* -s: its stacks, when validate wrote them beside it */
	strbuf_addf(&snew, "%s/%s_source.json.new", w->dir, p->name);
	strbuf_addf(&sdst, "%s/%s_source.json", w->dir, p->name);
	if (access(snew.buf, F_OK) == 0 && rename(snew.buf, sdst.buf) < 0) {
		error("cannot rename '%s' to '%s': %s", esc(snew.buf), esc(sdst.buf),
		      strerror(errno));
		r = -1;
	}
	strbuf_release(&snew);
	strbuf_release(&sdst);
	return r < 0 ? GOLDEN_WRITE_FAILED : GOLDEN_OK;
}

int golden_remove_stale(const struct gpending *p)
{
	return unlink(p->path);
}
