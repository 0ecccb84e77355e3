/* The golden workflow's settings, its directory's files, and one run of a command (see grun.h). */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <jansson.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "assert/assert.h"
#include "core/inject.h"
#include "core/quals.h"
#include "core/setup.h"
#include "bpf/engine.h"
#include "core/tracer.h"
#include "replay/reader.h"
#include "golden/grun.h"
#include "golden/runio.h"
#include "dwarf/dwarf.h"
#include "dwarf/skip.h"
#include "sink/env.h"
#include "sink/sinks.h"
#include "util/atomicfile.h"
#include "util/error.h"
#include "util/intmap.h"
#include "util/quote.h"
#include "util/strbuf.h"
#include "util/xmalloc.h"
#include "util/banned.h"

/* --- configuration --- */

bool golden_in_ci(void)
{
	const char *v = getenv("CI");
	return v && *v && strcmp(v, "0") && strcasecmp(v, "false");
}

static char **copy_list(char *const *l, size_t n)
{
	char **r = xcalloc(n + 1, sizeof(*r));
	for (size_t i = 0; i < n; i++)
		r[i] = xstrdup(l[i]);
	return r;
}

/* The first message error() printed while inject_set_add() ran. */
static char inject_msg[512];

static void keep_inject_msg(const char *kind, const char *msg)
{
	if (!inject_msg[0] && !*kind)
		snprintf(inject_msg, sizeof(inject_msg), "%s", msg);
}

/*
 * The injections a run of ct gets: w->inject, then ct's inject = [...]
 * (as -e inject=).  Returns NULL when there are none, or with *bad set
 * after a spec that does not parse (its message in inject_msg).
 */
static struct inject_set *run_injects(const struct gwork *w, const struct config_trace *ct,
				      bool *bad)
{
	struct inject_set *s = NULL;
	int r = 0;

	*bad = false;
	inject_msg[0] = '\0';
	error_set_hook(keep_inject_msg);
	for (size_t i = 0; r == 0 && i < w->ninject; i++) {
		const char *spec = w->inject[i];
		bool fault = !strncmp(spec, "fault=", 6);
		if (!s)
			s = inject_set_new();
		r = inject_set_add(s, spec + (fault ? 6 : strncmp(spec, "inject=", 7) ? 0 : 7), fault);
	}
	for (size_t i = 0; r == 0 && ct && i < ct->ninject; i++) {
		if (!s)
			s = inject_set_new();
		r = inject_set_add(s, ct->inject[i], false);
	}
	error_set_hook(NULL);
	if (r < 0) {
		inject_set_free(s);
		*bad = true;
		return NULL;
	}
	return s;
}

/* The injections of the command line and of each declared trace parse. */
static int check_injects(struct gwork *w)
{
	const struct config_golden *cg = &w->cfg.golden;
	bool bad;

	inject_set_free(run_injects(w, NULL, &bad));
	if (bad)
		return error("%s", inject_msg);
	for (size_t i = 0; i < cg->ntraces; i++) {
		const struct config_trace *ct = &cg->traces[i];
		if (!ct->ninject)
			continue;
		inject_set_free(run_injects(w, ct, &bad));
		if (bad)
			return error("%s:%u:%u: golden trace '%s': %s", w->config_path ?
				     esc(w->config_path) : "renacer.toml", ct->line, ct->col,
				     esc(ct->name), inject_msg);
	}
	return 0;
}

int gwork_load_config(struct gwork *w)
{
	const struct config_golden *cg;
	const char *u;
	int r;

	config_init(&w->cfg);
	golden_opts_init(&w->o);
	w->ring_scale = 0;
	strbuf_init(&w->like_notes, 0);
	if (w->config_path)
		r = config_load(w->config_path, &w->cfg);
	else
		r = config_load_if_exists("renacer.toml", &w->cfg);
	if (r < 0)
		return -1;
	w->have_cfg = r == 0;
	cg = &w->cfg.golden;
	/* what renacer.toml names must lie beside it (config_check_path) */
	if (!w->dir && cg->dir && config_check_path(&w->cfg, "golden_traces.dir", cg->dir) < 0)
		return -1;
	if (!w->dir)
		w->dir = cg->dir ? cg->dir : "golden_traces";
	w->o.count_tolerance = cg->tolerance_pct / 100.0;
	for (size_t i = 0; i < cg->ntolerances; i++)
		golden_opts_set_tol(&w->o, cg->tolerances[i].syscall, cg->tolerances[i].pct / 100.0);
	w->o.min_confidence = w->cfg.semantic.enabled ? w->cfg.semantic.min_confidence : 0;
	w->o.check_timing = cg->check_runtime;
	w->o.time_tolerance = cg->runtime_tolerance_pct / 100.0;
	w->o.time_floor_ms = cg->runtime_floor_ms;
	w->o.noise_k = cg->noise_factor;
	w->o.timing_strict = cg->timing_strict;
	w->o.timing_runs = cg->timing_runs;
	w->o.timing_max_runs = cg->timing_max_runs;
	w->o.min_slowdown = cg->min_slowdown_pct / 100.0;
	w->o.min_slowdown_us = cg->min_slowdown_us;
	w->o.callgrind = cg->callgrind;
	w->o.callgrind_tolerance = cg->callgrind_tolerance_pct / 100.0;
	w->o.context_lines = cg->context_lines;
	w->o.max_diff_lines = cg->max_diff_lines;
	w->o.regex_cost = w->cfg.limits.regex_cost;
	w->o.string_bytes = w->cfg.limits.string_bytes;
	w->o.trace_records = w->cfg.limits.trace_records;
	w->o.sequence_calls = w->cfg.limits.sequence_calls;
	w->o.ignore_syscalls = copy_list(cg->ignore_syscalls, cg->nignore_syscalls);
	w->o.nignore_syscalls = cg->nignore_syscalls;
	w->o.ignore_paths = copy_list(cg->ignore_paths, cg->nignore_paths);
	w->o.nignore_paths = cg->nignore_paths;
	w->o.volatile_syscalls = copy_list(cg->volatile_syscalls, cg->nvolatile_syscalls);
	w->o.nvolatile = cg->nvolatile_syscalls;
	w->o.time_limits = copy_list(cg->time_limits, cg->ntime_limits);
	w->o.ntime_limits = cg->ntime_limits;
	w->o.bytes_tolerance = cg->bytes_tolerance_pct < 0 ? -1 : cg->bytes_tolerance_pct / 100.0;
	if (cg->memory_tolerance_pct >= 0)
		w->o.memory_tolerance = cg->memory_tolerance_pct / 100.0;
	w->env_vars = cg->env_vars;
	for (size_t i = 0; i < cg->nnormalize; i++)
		if (golden_opts_add_rule(&w->o, cg->normalize[i].pattern, cg->normalize[i].replace) < 0)
			return -1;
	w->compress = cg->compress;
	w->compress_above = cg->compress_above_bytes;
	w->compress_level = cg->compress_level ? cg->compress_level : 3;
	w->junit_path = w->cfg.ci.junit_path;
	if (w->junit_path && config_check_path(&w->cfg, "ci.junit_path", w->junit_path) < 0)
		return -1;
	w->ci = golden_in_ci();
	if (check_injects(w) < 0)
		return -1;
	u = getenv("RENACER_UPDATE_GOLDEN");
	if (u && *u && strcmp(u, "0") && strcasecmp(u, "false"))
		w->update = true;
	return 0;
}

static int rm_rf_flat(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	struct strbuf p = STRBUF_INIT;

	if (!d)
		return 0;
	while ((e = readdir(d))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		strbuf_reset(&p);
		strbuf_addf(&p, "%s/%s", dir, e->d_name);
		unlink(p.buf);
	}
	closedir(d);
	strbuf_release(&p);
	return rmdir(dir);
}

void gwork_release(struct gwork *w)
{
	if (w->tmpdir) {
		rm_rf_flat(w->tmpdir);
		free(w->tmpdir);
		w->tmpdir = NULL;
	}
	golden_opts_release(&w->o);
	config_release(&w->cfg);
	strbuf_release(&w->like_notes);
	gwork_set_trace(w, NULL);
	free(w->said);
	w->said = NULL;
	w->asaid = 0;
}

const char *gwork_tmpdir(struct gwork *w)
{
	const char *base = getenv("TMPDIR");
	struct strbuf sb = STRBUF_INIT;

	if (w->tmpdir)
		return w->tmpdir;
	strbuf_addf(&sb, "%s/renacer-golden.XXXXXX", base && *base ? base : "/tmp");
	if (!mkdtemp(sb.buf)) {
		error("cannot create a temporary directory '%s': %s", esc(sb.buf), strerror(errno));
		strbuf_release(&sb);
		return NULL;
	}
	w->tmpdir = strbuf_detach(&sb, NULL);
	return w->tmpdir;
}

unsigned gwork_runs_for(const struct gwork *w, const struct config_trace *ct)
{
	return w->runs ? w->runs : ct && ct->runs ? ct->runs : w->cfg.golden.runs;
}

char *golden_path(const char *dir, const char *name, bool *exists)
{
	struct strbuf sb = STRBUF_INIT;
	struct stat st;

	strbuf_addf(&sb, "%s/%s.json", dir, name);
	if (!stat(sb.buf, &st)) {
		*exists = true;
		return strbuf_detach(&sb, NULL);
	}
	strbuf_addstr(&sb, ".zst");
	if (!stat(sb.buf, &st)) {
		*exists = true;
		return strbuf_detach(&sb, NULL);
	}
	strbuf_setlen(&sb, sb.len - 4);
	*exists = false;
	return strbuf_detach(&sb, NULL);
}

static int str_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

size_t golden_list_names(const char *dir, char ***names)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	char **v = NULL;
	size_t n = 0, alloc = 0, k = 0;

	*names = NULL;
	if (!d)
		return 0;
	while ((de = readdir(d))) {
		const char *f = de->d_name;
		size_t l = strlen(f), cut = 0;
		if (l > 9 && !strcmp(f + l - 9, ".json.zst"))
			cut = 9;
		else if (l > 5 && !strcmp(f + l - 5, ".json"))
			cut = 5;
		if (!cut || f[0] == '.')
			continue;
		ALLOC_GROW(v, n + 1, alloc);
		v[n++] = xstrndup(f, l - cut);
	}
	closedir(d);
	QSORT(v, n, str_cmp);
	/* one name for NAME.json and NAME.json.zst; NAME_source.json goes with NAME */
	bool *drop = xcalloc(n + 1, sizeof(*drop));
	for (size_t i = 0; i < n; i++) {
		size_t l = strlen(v[i]);
		drop[i] = (i && !strcmp(v[i - 1], v[i])) || !golden_valid_name(v[i]);
		if (l > 7 && !strcmp(v[i] + l - 7, "_source")) {
			char *base = xstrndup(v[i], l - 7);
			if (bsearch(&base, v, n, sizeof(*v), str_cmp))
				drop[i] = true;
			free(base);
		}
	}
	for (size_t i = 0; i < n; i++) {
		if (drop[i])
			free(v[i]);
		else
			v[k++] = v[i];
	}
	free(drop);
	*names = v;
	return k;
}

bool golden_valid_name(const char *name)
{
	return *name && !strchr(name, '/') && strcmp(name, ".") && strcmp(name, "..");
}

int golden_mkdir_p(const char *dir)
{
	struct strbuf sb = STRBUF_INIT;
	int ret = 0;

	strbuf_addstr(&sb, dir);
	for (size_t i = 1; i <= sb.len; i++) {
		if (sb.buf[i] != '/' && sb.buf[i] != '\0')
			continue;
		char c = sb.buf[i];
		sb.buf[i] = '\0';
		if (mkdir(sb.buf, 0777) < 0 && errno != EEXIST) {
			ret = error("cannot create directory '%s': %s", esc(sb.buf), strerror(errno));
			break;
		}
		sb.buf[i] = c;
	}
	strbuf_release(&sb);
	return ret;
}

int golden_unlink(const char *path)
{
	if (unlink(path) < 0 && errno != ENOENT)
		return error("cannot remove '%s': %s", esc(path), strerror(errno));
	return 0;
}

bool gwork_want_zst(const struct gwork *w, uint64_t len)
{
	return w->compress && len > w->compress_above;
}

/* --- one traced run --- */

/*
 * Messages of the engine during a run: stderr is the command's output file
 * then, so they are held and repeated once it is back.
 */
struct held_msg {
	bool warn;
	char *msg;
};
static struct held_msg *held;
static size_t nheld, aheld;

static void hold_msg(const char *kind, const char *msg)
{
	ALLOC_GROW(held, nheld + 1, aheld);
	held[nheld].warn = *kind != '\0';
	held[nheld].msg = xstrdup(msg);
	nheld++;
}

/* The messages held during a run of w->cur_name, each once per trace and
 * naming it ("warning: backend_detection: ..."). */
static void replay_msgs(struct gwork *w)
{
	for (size_t i = 0; i < nheld; i++) {
		bool said = false;
		for (size_t k = 0; k < w->nsaid && !said; k++)
			said = !strcmp(w->said[k], held[i].msg);
		if (!said) {
			const char *pre = w->cur_name ? w->cur_name : "", *sep = w->cur_name ? ": " : "";
			if (held[i].warn)
				warning("%s%s%s", pre, sep, held[i].msg);
			else
				error("%s%s%s", pre, sep, held[i].msg);
			ALLOC_GROW(w->said, w->nsaid + 1, w->asaid);
			w->said[w->nsaid++] = held[i].msg;
		} else {
			free(held[i].msg);
		}
	}
	nheld = 0;
}

void gwork_set_trace(struct gwork *w, const char *name)
{
	for (size_t k = 0; k < w->nsaid; k++)
		free(w->said[k]);
	w->nsaid = 0;
	w->cur_name = name;
}

static double tv_us(const struct timeval *tv)
{
	return tv->tv_sec * 1e6 + tv->tv_usec;
}

/*
 * The waits for a CPU during a run, per traced task, read at its exit: its
 * own run-queue wait and renacer's while it stood stopped (event.h), with
 * its run time and its time inside syscalls.
 */
struct wtask {
	pid_t tid;
	pid_t pid;                   /* its process */
	uint64_t calls;
	uint64_t wait_ns, run_ns;
	uint64_t held_ns;            /* stopped while renacer waited for a CPU */
	uint64_t dur_ns;             /* time inside its syscalls */
};

struct wait_sink {
	struct sink base;
	struct intmap idx;           /* tid -> index in v */
	struct wtask *v;
	size_t n, alloc;
};

static struct wtask *wtask_get(struct wait_sink *ws, pid_t tid)
{
	bool added;
	uint64_t *i = intmap_put(&ws->idx, (uint64_t)(uint32_t)tid, &added);

	if (added) {
		ALLOC_GROW(ws->v, ws->n + 1, ws->alloc);
		memset(&ws->v[ws->n], 0, sizeof(ws->v[ws->n]));
		ws->v[ws->n].tid = tid;
		*i = ws->n++;
	}
	return &ws->v[*i];
}

static void wait_event(struct sink *s, const struct event *ev)
{
	struct wait_sink *ws = (struct wait_sink *)s;
	if (ev->type == EV_SYSCALL && ev->tid > 0) {
		struct wtask *t = wtask_get(ws, ev->tid);
		t->calls++;
		if (ev->end_ns > ev->ts_ns)
			t->dur_ns += ev->end_ns - ev->ts_ns;
	}
}

static void wait_exit(struct sink *s, const struct event *ev)
{
	struct wait_sink *ws = (struct wait_sink *)s;
	struct wtask *t;
	if (ev->tid <= 0)
		return;
	t = wtask_get(ws, ev->tid);
	t->pid = ev->pid;
	t->wait_ns += ev->rq_wait_ns;
	t->run_ns += ev->rq_run_ns;
	t->held_ns += ev->tracer_wait_ns;
}

static void wait_free(struct sink *s)
{
	(void)s;    /* lives on grun_do's stack, which frees its table */
}

static const struct sink_ops wait_ops = {
	.name = "run-queue waits", .no_args = 1, .event = wait_event, .proc_exit = wait_exit,
	.free = wait_free,
};

/*
 * The wall time of a run less the waits for a CPU.  A task was held up by
 * its own run-queue waits and by renacer's while it stood stopped (measured
 * at each stop).  The threads of a process run side by side, so the most
 * held-up one counts for it; processes mostly wait for each other (a shell
 * and its commands), so theirs add up.  The result never goes below what
 * one task must have taken: its time on a CPU, or its time inside syscalls
 * less its waits for a CPU.
 */
static double net_time(double wall_us, const struct wait_sink *ws, double *held_us)
{
	double held = 0, least = 0;

	for (size_t i = 0; i < ws->n; i++) {
		const struct wtask *t = &ws->v[i];
		double h = 0;
		bool first = true;
		/* once per process: the most held-up of its tasks */
		for (size_t j = 0; j < ws->n; j++) {
			const struct wtask *u = &ws->v[j];
			if (u->pid != t->pid)
				continue;
			if (j < i) {
				first = false;
				break;
			}
			if ((double)u->wait_ns + (double)u->held_ns > h)
				h = (double)u->wait_ns + (double)u->held_ns;
		}
		if (first)
			held += h;
		double own = (double)t->dur_ns - (double)t->held_ns - (double)t->wait_ns;
		if (own < (double)t->run_ns)
			own = (double)t->run_ns;
		if (own > least)
			least = own;
	}
	held /= 1000.0;
	least /= 1000.0;
	if (least > wall_us)
		least = wall_us;
	*held_us = held;
	return wall_us - held > least ? wall_us - held : least;
}

/* One untraced run through w->measure, in place of tracer_run(). */
static int gmeasure_one(struct gwork *w, char *const argv[], const struct run_setup *setup,
			struct grun *rr)
{
	int r = measure_run(w->measure, argv, setup, &rr->ms);

	rr->end.exit_code = rr->ms.exit_code;
	rr->end.term_signal = rr->ms.term_signal;
	rr->end.wall_ns = (uint64_t)(rr->ms.wall_us * 1000);
	if (r == -2) {
		rr->end.interrupted = 1;
		rr->end.interrupt_signal = w->stop ? *w->stop : SIGINT;
		return 0;
	}
	return r;
}

/* The skip patterns of -s: the defaults and renacer.toml's [source]. */
static struct srcskip *gwork_srcskip(const struct gwork *w)
{
	struct srcskip *s = srcskip_new();

	if (w->have_cfg && !w->cfg.source.default_skip)
		srcskip_add(s, "");
	/* config_load() checked that they compile */
	for (size_t i = 0; w->have_cfg && i < w->cfg.source.nskip; i++)
		srcskip_add(s, w->cfg.source.skip[i]);
	return s;
}

/* A value in a note: short ones quoted, long ones (a PATH) by their length. */
static void note_value(struct strbuf *sb, const char *v)
{
	if (!v)
		strbuf_addstr(sb, "unset");
	else if (strlen(v) <= 40)
		strbuf_addf(sb, "'%s'", v);
	else
		strbuf_addf(sb, "%zu characters", strlen(v));
}

/* "LANG set to 'C.UTF-8' as in the golden run (here it is 'C')" */
static void like_note(struct strbuf *sb, const char *name, const char *golden, const char *here)
{
	strbuf_addf(sb, "%s %s", name, golden ? "set to " : "unset");
	if (golden)
		note_value(sb, golden);
	strbuf_addstr(sb, " as in the golden run (here it is ");
	note_value(sb, here);
	strbuf_addstr(sb, ")\n");
}

_Static_assert(GRUN_PTRACE == ENGINE_PTRACE, "one value for a run under ptrace");

bool grun_recorder_forced(void)
{
	return ebpf_golden_forced();
}

int grun_do(struct gwork *w, char *const argv[], const struct config_trace *ct,
	    const char *json_path, const char *outfile, struct analysis *an,
	    const char *summary_path, struct grun *rr)
{
	struct tracer_opts to;
	struct trace_quals q;
	struct inject_set *inj;
	struct sink_list sl = SINK_LIST_INIT;
	struct sink *s;
	struct runio io;
	struct run_setup setup = RUN_SETUP_INIT;
	bool have_io = false;
	int r = -1;
	bool bad;
	struct rusage ru0, ru1;
	struct wait_sink ws;
	struct trace_env env = { { 0 }, NULL, NULL, 0 };
	struct gcontext ctx;
	double held_us;
	struct dwarf *dw = NULL;
	uint64_t unwind_ns = 0;

	memset(rr, 0, sizeof(*rr));
	strbuf_init(&rr->summary, 0);
	memset(&to, 0, sizeof(to));
	memset(&ws, 0, sizeof(ws));
	ws.base.ops = &wait_ops;
	sink_list_add(&sl, &ws.base);
	to.follow = ct ? ct->follow : true;
	to.dopts.string_limit = 32;
	/* every golden records what any assertion type measures (peak RSS);
	 * the waits for a CPU at every stop only when the traced runs judge
	 * the time (a golden of renacer 0.9, without untraced runs): reading
	 * them costs a /proc read per stop */
	to.collect_rss = true;
	to.collect_sched = w->traced_timing;
	/* -e inject= / inject = [...]: the failure path is what is traced */
	inj = run_injects(w, ct, &bad);
	if (bad) {
		sink_list_release(&sl);
		return error("%s", inject_msg);
	}
	memset(&q, 0, sizeof(q));
	q.inject = inj;
	if (inj) {
		to.quals = &q;
		/* a signal= goes with a syscall-entry stop (core/inject.h) */
		to.no_seccomp = inject_set_has_signals(inj);
	}
	if (json_path) {
		/* -s: the trace keeps each call's source; its stacks go beside */
		struct sink_opts so = { 0 };
		so.no_stack = true;
		if (!(s = json_sink_new(NULL, json_path, &so))) {
			sink_list_release(&sl);
			inject_set_free(inj);
			return -1;
		}
		sink_list_add(&sl, s);
		{
			/* the golden's NAME_summary.txt, made as the run goes */
			static const struct sink_opts sumo = { .timing = true };
			sink_list_add(&sl, summary_sink_new_buf(&rr->summary, &sumo));
		}
		if (w->source) {
			struct strbuf sp = STRBUF_INIT;
			strbuf_addf(&sp, "%s.stacks", json_path);
			s = json_sink_new(NULL, sp.buf, NULL);
			strbuf_release(&sp);
			if (!s) {
				sink_list_release(&sl);
				inject_set_free(inj);
				return -1;
			}
			sink_list_add(&sl, s);
		}
	}
	if (w->source && !w->measure) {
		/* -s: the unwinder, with every stack (NAME_source.json keeps them) */
		struct dwarf_opts dop = { 0 };
		dop.source = true;
		dop.stack_trace = json_path != NULL;
		dop.skip = gwork_srcskip(w);
		if (!(dw = dwarf_new(&dop))) {
			sink_list_release(&sl);
			inject_set_free(inj);
			return -1;
		}
		to.enrich = dwarf_enrich;
		to.enrich_data = dw;
	}
	if (summary_path) {
		if (!(s = summary_sink_new(NULL, summary_path, NULL))) {
			sink_list_release(&sl);
			inject_set_free(inj);
			return -1;
		}
		sink_list_add(&sl, s);
	}
	rr->m = gmodel_new(&w->o);
	sink_list_add(&sl, gmodel_sink(rr->m));
	if (an)
		sink_list_add(&sl, analysis_sink_new(an));
	if (dw)
		sink_list_add(&sl, dwarf_sink_new(dw));   /* last: forgets the dead */

	/* the standard streams: of the kinds the golden had when validating */
	if (runio_open(&io, w->like ? w->like->stdio : NULL, outfile, &w->like_notes) < 0)
		goto out;
	have_io = true;
	/* the command's set-up, applied in its child (core/setup.h): renacer's
	 * own directory, variables and streams stay the user's */
	for (int i = 0; i < 3; i++)
		run_setup_stdio_fd(&setup, i, io.fds[i] >= 0 ? io.fds[i] : RUN_STDIO_CLOSED);
	if (ct && ct->cwd)
		run_setup_chdir(&setup, ct->cwd);
	/* the recorded variables (locale, PATH, ...) as the golden had them,
	 * then the trace's own env of renacer.toml */
	for (size_t i = 0; w->like && i < w->like->nvars; i++) {
		const char *v = w->like->vars[i], *eq = strchr(v, '=');
		char *name = eq ? xstrndup(v, eq - v) : xstrdup(v);
		const char *here = getenv(name);
		if ((eq != NULL) != (here != NULL) || (eq && strcmp(eq + 1, here)))
			like_note(&w->like_notes, name, eq ? eq + 1 : NULL, here);
		run_setup_env(&setup, name, eq ? eq + 1 : NULL);
		free(name);
	}
	for (size_t i = 0; ct && i < ct->nenv; i++) {
		const char *eq = strchr(ct->env[i], '=');
		char *name;
		if (!eq)
			continue;
		name = xstrndup(ct->env[i], eq - ct->env[i]);
		run_setup_env(&setup, name, eq + 1);
		free(name);
	}
	if (run_setup_prepare(&setup, environ) < 0)
		goto out;
	to.setup = &setup;
	runio_start(&io);
	/* what the command gets, not what renacer has */
	trace_env_capture_run(&env, (const char *const *)w->env_vars, setup.envp,
			      setup.cwd_path, setup.stdio);
	to.env = &env;
	error_set_hook(hold_msg);
	getrusage(RUSAGE_CHILDREN, &ru0);
	/* recorded in the kernel when nothing needs a stop (bpf/engine.h) */
	r = w->measure ? gmeasure_one(w, argv, &setup, rr)
		       : engine_run(&to, argv, &sl, &rr->end, w->ring_scale);
	getrusage(RUSAGE_CHILDREN, &ru1);
	error_set_hook(NULL);
	rr->cpu_us = tv_us(&ru1.ru_utime) + tv_us(&ru1.ru_stime) -
		     tv_us(&ru0.ru_utime) - tv_us(&ru0.ru_stime);
	replay_msgs(w);
	rr->started = r != -1;
	if (r == -1)
		error("cannot run '%s'", esc(argv[0]));
	else
		r = 0;
out:
	if (have_io)
		runio_close(&io);
	run_setup_release(&setup);
	sink_list_release(&sl);
	if (dw) {
		struct dwarf_stats st;
		dwarf_get_stats(dw, &st);
		unwind_ns = st.unwind_cpu_ns;
	}
	dwarf_free(dw);
	inject_set_free(inj);
	trace_env_release(&env);
	gcontext_current(&ctx);
	gmodel_finalize(rr->m, &ctx);
	gcontext_release(&ctx);
	/* -s: the command waits while renacer unwinds its stacks (every stack
	 * for NAME_source.json, far more than the -s of a confirmation run):
	 * not the command's time, so goldens and runs with and without
	 * stacks compare.  renacer's CPU time for it: its waits for a CPU
	 * meanwhile are already in net_time's held time */
	rr->wall_us = (rr->end.wall_ns > unwind_ns ? rr->end.wall_ns - unwind_ns : 0) / 1000.0;
	rr->net_us = net_time(rr->wall_us, &ws, &held_us);
	if (w->measure && rr->started) {
		rr->wall_us = rr->ms.wall_us;
		rr->cpu_us = rr->ms.cpu_us;
		rr->net_us = rr->ms.net_us;
	}
	intmap_release(&ws.idx);
	free(ws.v);
	ws.v = NULL;
	rr->ncalls = rr->m->ncalls;
	return r;
}

void grun_release(struct grun *rr)
{
	gmodel_free(rr->m);
	rr->m = NULL;
	strbuf_release(&rr->summary);
}
