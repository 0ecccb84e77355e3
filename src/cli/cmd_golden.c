/*
 * Golden traces: renacer capture, compare, validate and accept.  A golden
 * is a renacer-json-v1 trace with a "timing" object; compare and validate
 * normalize both traces into models (src/golden/model.h) and compare them
 * (src/golden/compare.h).  Exit statuses are in golden.h.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
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
#include "cli/cmds.h"
#include "cli/golden_cli.h"
#include "core/tracer.h"
#include "golden/compare.h"
#include "golden/output.h"
#include "golden/reader.h"
#include "sink/sinks.h"
#include "util/atomicfile.h"
#include "util/error.h"
#include "util/strbuf.h"
#include "util/xmalloc.h"
#include "util/banned.h"

/* --- usage --- */

#define EXIT_TEXT \
"Exit status:\n" \
"  0  equivalent (or captured / accepted)\n" \
"  1  regression: the trace differs from its golden\n" \
"  2  golden missing\n" \
"  3  golden unreadable or invalid (the message names the file and position)\n" \
"  4  the command failed to run\n" \
"  5  bad configuration or usage\n"

#define COMMON_TEXT \
"      --config FILE        renacer.toml to read (default: ./renacer.toml if present)\n" \
"      --dir DIR            golden directory (default: [golden_traces] dir or\n" \
"                           golden_traces)\n"

static const char capture_usage[] =
"usage: renacer capture [--dir DIR] [--runs N] [-s] NAME -- COMMAND [ARGS...]\n"
"       renacer capture [--dir DIR] [--runs N] [NAME...]\n"
"\n"
"Traces COMMAND (following children) and writes DIR/NAME.json (renacer-json-v1\n"
"with a \"timing\" object; NAME.json.zst above the [compression] threshold) and\n"
"DIR/NAME_summary.txt (the -c table).  Without a command, captures the traces\n"
"declared in renacer.toml ([[golden_traces.trace]]): all, or those named.\n"
"\n"
COMMON_TEXT
"      --runs N             run N times; store median and spread of the runtime\n"
"                           and of each syscall's time (default 1)\n"
"  -s, --source             also write NAME_source.json (needs source correlation)\n"
"  -q, --quiet              print only errors\n"
"  -h, --help               show this help\n"
"\n"
"With CI set in the environment capture refuses to write (exit 5).\n"
"\n"
EXIT_TEXT;

static const char compare_usage[] =
"usage: renacer compare [OPTIONS] GOLDEN CURRENT\n"
"\n"
"Compares two saved traces (.json, .jsonl, plain or .zst) after normalizing\n"
"them: call sequences per process (unified diff), syscall counts against the\n"
"tolerance, failures, files/programs/endpoints, exit statuses and runtime.\n"
"\n"
"      --config FILE        renacer.toml to read (default: ./renacer.toml if present)\n"
"      --format FMT         text (default), json, junit, markdown\n"
"      --color[=WHEN]       auto (default: on a terminal), always, never\n"
"      --no-color           same as --color=never\n"
"      --tolerance PCT      syscall count tolerance in percent (default 5)\n"
"      --min-confidence X   pass only at or above X (default 0.90)\n"
"      --no-timing          do not compare runtimes\n"
"  -h, --help               show this help\n"
"\n"
EXIT_TEXT
"(2 and 3 apply to either file.)\n";

static const char validate_usage[] =
"usage: renacer validate [OPTIONS] [NAME...]\n"
"       renacer validate [OPTIONS] --golden FILE -- COMMAND [ARGS...]\n"
"\n"
"Runs each declared trace of renacer.toml (all, or those named) or COMMAND,\n"
"and compares the run with its golden.  On a mismatch the new trace is written\n"
"beside the golden as NAME.json.new; accept it with 'renacer accept NAME'.\n"
"Assertions of renacer.toml are evaluated on the run too.\n"
"\n"
COMMON_TEXT
"      --golden FILE        the golden of COMMAND\n"
"      --runs N             run N times; compare the median runtime\n"
"      --update             rewrite the goldens that differ (also\n"
"                           RENACER_UPDATE_GOLDEN=1); never with CI set\n"
"      --new-dir DIR        write NAME.json.new files to DIR instead\n"
"      --format FMT         text (default), json, junit, markdown\n"
"      --junit FILE         also write a JUnit XML report to FILE\n"
"      --color[=WHEN]       auto (default: on a terminal), always, never\n"
"      --no-color           same as --color=never\n"
"      --tolerance PCT      syscall count tolerance in percent (default 5)\n"
"      --min-confidence X   pass only at or above X (default 0.90)\n"
"      --no-timing          do not compare runtimes\n"
"  -q, --quiet              text format: print only failing traces\n"
"  -h, --help               show this help\n"
"\n"
"With CI set in the environment nothing is written into the golden directory\n"
"and a missing golden fails.\n"
"\n"
EXIT_TEXT
"With several traces the status is the highest one.\n";

static const char accept_usage[] =
"usage: renacer accept [--dir DIR] [--all] [NAME...]\n"
"\n"
"Makes DIR/NAME.json.new (written by validate on a mismatch) the golden.\n"
"Lists the .new files still pending and removes stale ones (older than their\n"
"golden).  --all accepts every pending .new file.\n"
"\n"
COMMON_TEXT
"      --all                accept every pending .new file\n"
"  -h, --help               show this help\n"
"\n"
"Exit status: 0 accepted (or nothing to do), 2 no NAME.json.new for a NAME,\n"
"3 a .new file is unreadable, 5 bad usage or CI set.\n";

/* --- configuration --- */

bool gcli_in_ci(void)
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

int gcli_load_config(struct gcli *g)
{
	const struct config_golden *cg;
	int r;

	config_init(&g->cfg);
	golden_opts_init(&g->o);
	if (g->config_path)
		r = config_load(g->config_path, &g->cfg);
	else
		r = config_load_if_exists("renacer.toml", &g->cfg);
	if (r < 0)
		return -1;
	g->have_cfg = r == 0;
	cg = &g->cfg.golden;
	if (!g->dir)
		g->dir = cg->dir ? cg->dir : "golden_traces";
	g->o.count_tolerance = cg->tolerance_pct / 100.0;
	for (size_t i = 0; i < cg->ntolerances; i++)
		golden_opts_set_tol(&g->o, cg->tolerances[i].syscall, cg->tolerances[i].pct / 100.0);
	g->o.min_confidence = g->cfg.semantic.enabled ? g->cfg.semantic.min_confidence : 0;
	g->o.check_timing = cg->check_runtime;
	g->o.time_tolerance = cg->runtime_tolerance_pct / 100.0;
	g->o.time_floor_ms = cg->runtime_floor_ms;
	g->o.noise_k = cg->noise_factor;
	g->o.context_lines = cg->context_lines;
	g->o.max_diff_lines = cg->max_diff_lines;
	g->o.ignore_syscalls = copy_list(cg->ignore_syscalls, cg->nignore_syscalls);
	g->o.nignore_syscalls = cg->nignore_syscalls;
	g->o.ignore_paths = copy_list(cg->ignore_paths, cg->nignore_paths);
	g->o.nignore_paths = cg->nignore_paths;
	g->o.volatile_syscalls = copy_list(cg->volatile_syscalls, cg->nvolatile_syscalls);
	g->o.nvolatile = cg->nvolatile_syscalls;
	for (size_t i = 0; i < cg->nnormalize; i++)
		if (golden_opts_add_rule(&g->o, cg->normalize[i].pattern, cg->normalize[i].replace) < 0)
			return -1;
	g->compress = cg->compress;
	g->compress_above = cg->compress_above_bytes;
	g->compress_level = cg->compress_level ? cg->compress_level : 3;
	if (!g->junit_path && g->cfg.ci.junit_path)
		g->junit_path = g->cfg.ci.junit_path;
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

void gcli_release(struct gcli *g)
{
	if (g->tmpdir) {
		rm_rf_flat(g->tmpdir);
		free(g->tmpdir);
		g->tmpdir = NULL;
	}
	golden_opts_release(&g->o);
	config_release(&g->cfg);
}

const char *gcli_tmpdir(struct gcli *g)
{
	const char *base = getenv("TMPDIR");
	struct strbuf sb = STRBUF_INIT;

	if (g->tmpdir)
		return g->tmpdir;
	strbuf_addf(&sb, "%s/renacer-golden.XXXXXX", base && *base ? base : "/tmp");
	if (!mkdtemp(sb.buf)) {
		error("cannot create a temporary directory '%s': %s", sb.buf, strerror(errno));
		strbuf_release(&sb);
		return NULL;
	}
	g->tmpdir = strbuf_detach(&sb, NULL);
	return g->tmpdir;
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

int gcli_unlink(const char *path)
{
	if (unlink(path) < 0 && errno != ENOENT)
		return error("cannot remove '%s': %s", path, strerror(errno));
	return 0;
}

bool gcli_want_zst(const struct gcli *g, uint64_t len)
{
	return g->compress && len > g->compress_above;
}

/* --- running a command --- */

static struct strbuf run_msgs = STRBUF_INIT;

static void collect_msg(const char *kind, const char *msg)
{
	strbuf_addstr(&run_msgs, "renacer: ");
	if (*kind)
		strbuf_addf(&run_msgs, "%s: ", kind);
	strbuf_addstr(&run_msgs, msg);
	strbuf_addch(&run_msgs, '\n');
}

static double tv_us(const struct timeval *tv)
{
	return tv->tv_sec * 1e6 + tv->tv_usec;
}

struct env_save {
	char *name;
	char *old;        /* NULL when unset before */
};

int gcli_run(struct gcli *g, char *const argv[], const struct config_trace *ct,
	     const char *json_path, const char *outfile, struct analysis *an,
	     const char *summary_path, struct grun *rr)
{
	struct tracer_opts to;
	struct sink_list sl = SINK_LIST_INIT;
	struct sink *s;
	int saved[3] = { -1, -1, -1 }, in = -1, out = -1, cwd_fd = -1, r = -1;
	struct env_save *envs = NULL;
	size_t nenv = 0;
	struct rusage ru0, ru1;

	memset(rr, 0, sizeof(*rr));
	memset(&to, 0, sizeof(to));
	to.follow = ct ? ct->follow : true;
	to.dopts.string_limit = 32;
	if (json_path) {
		if (!(s = json_sink_new(NULL, json_path, NULL)))
			return -1;
		sink_list_add(&sl, s);
	}
	if (summary_path) {
		if (!(s = summary_sink_new(NULL, summary_path, NULL))) {
			sink_list_release(&sl);
			return -1;
		}
		sink_list_add(&sl, s);
	}
	rr->m = gmodel_new(&g->o);
	sink_list_add(&sl, gmodel_sink(rr->m));
	if (an)
		sink_list_add(&sl, analysis_sink_new(an));

	in = open("/dev/null", O_RDONLY | O_CLOEXEC);
	out = open(outfile, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (in < 0 || out < 0) {
		error("cannot open '%s': %s", in < 0 ? "/dev/null" : outfile, strerror(errno));
		goto out;
	}
	if (ct && ct->cwd) {
		cwd_fd = open(".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (cwd_fd < 0 || chdir(ct->cwd) < 0) {
			error("cannot change to directory '%s': %s", ct->cwd, strerror(errno));
			goto out;
		}
	}
	for (size_t i = 0; ct && i < ct->nenv; i++) {
		const char *eq = strchr(ct->env[i], '=');
		if (!eq)
			continue;
		envs = xreallocarray(envs, nenv + 1, sizeof(*envs));
		envs[nenv].name = xstrndup(ct->env[i], eq - ct->env[i]);
		envs[nenv].old = getenv(envs[nenv].name) ? xstrdup(getenv(envs[nenv].name)) : NULL;
		setenv(envs[nenv].name, eq + 1, 1);
		nenv++;
	}
	fflush(stdout);
	fflush(stderr);
	for (int i = 0; i < 3; i++)
		saved[i] = fcntl(i, F_DUPFD_CLOEXEC, 10);
	dup2(in, 0);
	dup2(out, 1);
	dup2(out, 2);
	strbuf_reset(&run_msgs);
	error_set_hook(collect_msg);
	getrusage(RUSAGE_CHILDREN, &ru0);
	r = tracer_run(&to, argv, &sl, &rr->end);
	getrusage(RUSAGE_CHILDREN, &ru1);
	error_set_hook(NULL);
	rr->cpu_us = tv_us(&ru1.ru_utime) + tv_us(&ru1.ru_stime) -
		     tv_us(&ru0.ru_utime) - tv_us(&ru0.ru_stime);
	for (int i = 0; i < 3; i++)
		if (saved[i] >= 0) {
			dup2(saved[i], i);
			close(saved[i]);
		}
	if (run_msgs.len)
		fputs(run_msgs.buf, stderr);
	rr->started = r != -1;
	if (r == -1)
		error("cannot run '%s'", argv[0]);
	else
		r = 0;
out:
	for (size_t i = nenv; i-- > 0;) {
		if (envs[i].old)
			setenv(envs[i].name, envs[i].old, 1);
		else
			unsetenv(envs[i].name);
		free(envs[i].name);
		free(envs[i].old);
	}
	free(envs);
	if (cwd_fd >= 0) {
		if (fchdir(cwd_fd) < 0)
			r = error("cannot return to the working directory: %s", strerror(errno));
		close(cwd_fd);
	}
	if (in >= 0)
		close(in);
	if (out >= 0)
		close(out);
	sink_list_release(&sl);
	gmodel_finalize(rr->m, NULL);
	rr->wall_us = rr->end.wall_ns / 1000.0;
	rr->ncalls = rr->m->ncalls;
	return r;
}

void grun_release(struct grun *rr)
{
	gmodel_free(rr->m);
	rr->m = NULL;
}

void gcli_show_output(const char *outfile, unsigned lines)
{
	struct strbuf sb = STRBUF_INIT;
	size_t start;
	unsigned n = 0;

	if (strbuf_read_file(&sb, outfile) < 0 || !sb.len) {
		strbuf_release(&sb);
		return;
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
	fprintf(stderr, "renacer: last lines of its output:\n");
	for (const char *p = sb.buf + start; *p;) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		fprintf(stderr, "  | %.*s\n", (int)len, p);
		p += len + (nl != NULL);
	}
	strbuf_release(&sb);
}

/* --- trace files --- */

int gcli_write_trace(const char *src, const char *dst, const struct gtiming *t, bool zst,
		     int level)
{
	struct strbuf sb = STRBUF_INIT;
	size_t end;
	char *tj;
	int ret = -1;

	if (strbuf_read_file(&sb, src) < 0) {
		error("cannot read '%s': %s", src, strerror(errno));
		goto out;
	}
	end = sb.len;
	while (end && isspace((unsigned char)sb.buf[end - 1]))
		end--;
	if (!end || sb.buf[end - 1] != '}') {
		error("cannot read trace '%s': not a JSON document", src);
		goto out;
	}
	end--;
	while (end && isspace((unsigned char)sb.buf[end - 1]))
		end--;
	strbuf_setlen(&sb, end);
	tj = gtiming_to_json(t);
	strbuf_addstr(&sb, ",\n  \"timing\": ");
	strbuf_addstr(&sb, tj);
	strbuf_addstr(&sb, "\n}\n");
	free(tj);
	if (zst) {
		size_t cap = ZSTD_compressBound(sb.len);
		void *z = xmalloc(cap);
		size_t n = ZSTD_compress(z, cap, sb.buf, sb.len, level);
		if (ZSTD_isError(n))
			error("cannot compress '%s': %s", dst, ZSTD_getErrorName(n));
		else
			ret = write_file_atomic(dst, z, n);
		free(z);
	} else {
		ret = write_file_atomic(dst, sb.buf, sb.len);
	}
out:
	strbuf_release(&sb);
	return ret;
}

/* --- the runs of one trace --- */

/* What N runs of a command gave: the trace of the median run, timing. */
struct runs {
	unsigned n;
	char **json;             /* per run */
	double *wall_us;
	double *cpu_us;
	struct grun *rr;
	unsigned median;         /* index of the median run */
	struct gtiming timing;
	char *outfile;
	bool failed;             /* could not run */
	unsigned serial;
	unsigned extra;          /* confirmation runs added */
};

/* Runs added to confirm a runtime regression before it counts. */
#define CONFIRM_RUNS 3

static const double *sort_walls;
static int idx_cmp(const void *a, const void *b)
{
	double x = sort_walls[*(const unsigned *)a], y = sort_walls[*(const unsigned *)b];
	return x < y ? -1 : x > y;
}

/* Fills r->timing from the runs. */
static void runs_timing(struct runs *r)
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
	intern_release(&names);
	free(s);
}

/*
 * Runs argv n times (traces into the scratch directory).  Returns 0, or
 * -1 after error() (r->failed when the command could not be run).
 */
static int runs_do(struct gcli *g, char *const argv[], const struct config_trace *ct,
		   unsigned n, struct analysis *an, struct runs *r)
{
	const char *tmp = gcli_tmpdir(g);
	static unsigned serial;
	unsigned *idx;

	memset(r, 0, sizeof(*r));
	if (!tmp)
		return -1;
	r->n = n;
	r->json = xcalloc(n + CONFIRM_RUNS, sizeof(*r->json));
	r->wall_us = xcalloc(n + CONFIRM_RUNS, sizeof(*r->wall_us));
	r->cpu_us = xcalloc(n + CONFIRM_RUNS, sizeof(*r->cpu_us));
	r->rr = xcalloc(n + CONFIRM_RUNS, sizeof(*r->rr));
	r->serial = serial + 1;
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
		if (gcli_run(g, argv, ct, r->json[i], r->outfile, i == 0 ? an : NULL, NULL,
			     &r->rr[i]) < 0) {
			r->failed = !r->rr[i].started;
			r->n = i + 1;
			return -1;
		}
		r->wall_us[i] = r->rr[i].wall_us;
		r->cpu_us[i] = r->rr[i].cpu_us;
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

/*
 * One more run (at most CONFIRM_RUNS), to confirm a runtime over the limit:
 * its trace is not kept, only its runtime.  Returns 0 or -1 after error().
 */
static int runs_add(struct gcli *g, char *const argv[], const struct config_trace *ct,
		    struct runs *r)
{
	unsigned i = r->n;

	if (r->extra >= CONFIRM_RUNS)
		return -1;
	if (gcli_run(g, argv, ct, NULL, r->outfile, NULL, NULL, &r->rr[i]) < 0) {
		grun_release(&r->rr[i]);
		return -1;
	}
	r->wall_us[i] = r->rr[i].wall_us;
	r->cpu_us[i] = r->rr[i].cpu_us;
	r->n++;
	r->extra++;
	return 0;
}

static void runs_release(struct runs *r)
{
	for (unsigned i = 0; i < r->n; i++) {
		if (r->json && r->json[i]) {
			unlink(r->json[i]);
			free(r->json[i]);
		}
		if (r->rr)
			grun_release(&r->rr[i]);
	}
	free(r->json);
	free(r->wall_us);
	free(r->cpu_us);
	free(r->rr);
	if (r->outfile) {
		unlink(r->outfile);
		free(r->outfile);
	}
	gtiming_release(&r->timing);
	memset(r, 0, sizeof(*r));
}

/* File size, or 0. */
static uint64_t file_size(const char *path)
{
	struct stat st;
	return stat(path, &st) ? 0 : (uint64_t)st.st_size;
}

/*
 * Writes the golden of name (and its summary) in dir from the median run.
 * *written gets the path.  Returns 0 or -1 after error().
 */
static int store_golden(struct gcli *g, const char *dir, const char *name, struct runs *r,
			const char *suffix, char **written)
{
	struct strbuf path = STRBUF_INIT, other = STRBUF_INIT, sum = STRBUF_INIT;
	const char *src = r->json[r->median];
	bool zst = gcli_want_zst(g, file_size(src));
	int ret = -1;

	strbuf_addf(&path, "%s/%s.json%s%s", dir, name, zst ? ".zst" : "", suffix);
	strbuf_addf(&other, "%s/%s.json%s%s", dir, name, zst ? "" : ".zst", suffix);
	if (gcli_write_trace(src, path.buf, &r->timing, zst, g->compress_level) < 0)
		goto out;
	if (gcli_unlink(other.buf) < 0)
		goto out;
	if (!*suffix) {
		/* the -c table of the golden run */
		struct sink_list sl = SINK_LIST_INIT;
		struct sink *s;
		strbuf_addf(&sum, "%s/%s_summary.txt", dir, name);
		if (!(s = summary_sink_new(NULL, sum.buf, NULL)))
			goto out;
		sink_list_add(&sl, s);
		if (trace_read(path.buf, &sl, NULL, NULL) < 0) {
			sink_list_release(&sl);
			goto out;
		}
		sink_list_release(&sl);
	}
	*written = strbuf_detach(&path, NULL);
	ret = 0;
out:
	strbuf_release(&path);
	strbuf_release(&other);
	strbuf_release(&sum);
	return ret;
}

static int mkdir_p(const char *dir)
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
			ret = error("cannot create directory '%s': %s", sb.buf, strerror(errno));
			break;
		}
		sb.buf[i] = c;
	}
	strbuf_release(&sb);
	return ret;
}

static bool valid_name(const char *name)
{
	return *name && !strchr(name, '/') && strcmp(name, ".") && strcmp(name, "..");
}

/* --- options --- */

enum {
	O_CONFIG = 1000, O_DIR, O_RUNS, O_FORMAT, O_COLOR, O_NO_COLOR, O_TOL, O_MINCONF,
	O_NO_TIMING, O_UPDATE, O_GOLDEN, O_NEWDIR, O_JUNIT, O_ALL,
};

static const struct option long_opts[] = {
	{ "config", required_argument, NULL, O_CONFIG },
	{ "dir", required_argument, NULL, O_DIR },
	{ "runs", required_argument, NULL, O_RUNS },
	{ "format", required_argument, NULL, O_FORMAT },
	{ "color", optional_argument, NULL, O_COLOR },
	{ "colour", optional_argument, NULL, O_COLOR },
	{ "no-color", no_argument, NULL, O_NO_COLOR },
	{ "tolerance", required_argument, NULL, O_TOL },
	{ "min-confidence", required_argument, NULL, O_MINCONF },
	{ "no-timing", no_argument, NULL, O_NO_TIMING },
	{ "update", no_argument, NULL, O_UPDATE },
	{ "golden", required_argument, NULL, O_GOLDEN },
	{ "new-dir", required_argument, NULL, O_NEWDIR },
	{ "junit", required_argument, NULL, O_JUNIT },
	{ "all", no_argument, NULL, O_ALL },
	{ "source", no_argument, NULL, 's' },
	{ "quiet", no_argument, NULL, 'q' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

struct overrides {
	double tol, minconf;     /* < 0: not given */
	bool no_timing, all;
};

static void usage_die(const char *cmd, const char *usage, const char *fmt, ...)
	__attribute__((noreturn, format(printf, 3, 4)));
static void usage_die(const char *cmd, const char *usage, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	fflush(stdout);
	(void)usage;
	fprintf(stderr, "renacer %s: %s (see 'renacer %s --help')\n", cmd, sb.buf, cmd);
	exit(GOLDEN_BAD_CONFIG);
}

static double parse_num(const char *cmd, const char *usage, const char *opt, const char *s,
			double lo, double hi)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || *end || v < lo || v > hi)
		usage_die(cmd, usage, "bad value '%s' for %s", s, opt);
	return v;
}

/* Parses the options; returns the index of the first operand. */
static int parse_opts(struct gcli *g, struct overrides *ov, int argc, char **argv,
		      const char *usage)
{
	int c;

	memset(ov, 0, sizeof(*ov));
	ov->tol = ov->minconf = -1;
	g->color = -1;
	optind = 1;
	opterr = 0;
	/* commands after NAME or "--" keep their options: stop at the first operand */
	bool permute = !strcmp(g->cmd, "compare") || !strcmp(g->cmd, "accept");
	while ((c = getopt_long(argc, argv, permute ? "sqh" : "+sqh", long_opts, NULL)) != -1) {
		switch (c) {
		case O_CONFIG: g->config_path = optarg; break;
		case O_DIR: g->dir = optarg; break;
		case O_RUNS:
			g->runs = (unsigned)parse_num(g->cmd, usage, "--runs", optarg, 1, 10000);
			break;
		case O_FORMAT:
			if ((g->fmt = gfmt_parse(optarg)) < 0)
				usage_die(g->cmd, usage, "unknown format '%s' (text, json, junit, markdown)",
					  optarg);
			break;
		case O_COLOR:
			if (!optarg || !strcmp(optarg, "always"))
				g->color = 1;
			else if (!strcmp(optarg, "never"))
				g->color = 0;
			else if (!strcmp(optarg, "auto"))
				g->color = -1;
			else
				usage_die(g->cmd, usage, "bad --color value '%s' (auto, always, never)",
					  optarg);
			break;
		case O_NO_COLOR: g->color = 0; break;
		case O_TOL:
			ov->tol = parse_num(g->cmd, usage, "--tolerance", optarg, 0, 1e9);
			break;
		case O_MINCONF:
			ov->minconf = parse_num(g->cmd, usage, "--min-confidence", optarg, 0, 1);
			break;
		case O_NO_TIMING: ov->no_timing = true; break;
		case O_UPDATE: g->update = true; break;
		case O_GOLDEN: g->golden_file = optarg; break;
		case O_NEWDIR: g->new_dir = optarg; break;
		case O_JUNIT: g->junit_path = optarg; break;
		case O_ALL: ov->all = true; break;
		case 's': g->source = true; break;
		case 'q': g->quiet = true; break;
		case 'h':
			fputs(usage, stdout);
			exit(0);
		default:
			usage_die(g->cmd, usage, "unknown or incomplete option '%s'", argv[optind - 1]);
		}
	}
	return optind;
}

static void load_config_or_die(struct gcli *g, const struct overrides *ov)
{
	if (gcli_load_config(g) < 0)
		exit(GOLDEN_BAD_CONFIG);
	if (ov->tol >= 0)
		g->o.count_tolerance = ov->tol / 100.0;
	if (ov->minconf >= 0)
		g->o.min_confidence = ov->minconf;
	if (ov->no_timing)
		g->o.check_timing = false;
	g->ci = gcli_in_ci();
	{
		const char *u = getenv("RENACER_UPDATE_GOLDEN");
		if (u && *u && strcmp(u, "0") && strcasecmp(u, "false"))
			g->update = true;
	}
	if (g->color < 0)
		g->color = g->fmt == GFMT_TEXT && isatty(1) && !getenv("NO_COLOR");
}

/* --- capture --- */

static int capture_one(struct gcli *g, const char *name, char *const argv[],
		       const struct config_trace *ct)
{
	struct runs r;
	unsigned n = g->runs ? g->runs : ct && ct->runs ? ct->runs : g->cfg.golden.runs;
	char *written = NULL;
	struct strbuf sb = STRBUF_INIT;
	int st = GOLDEN_OK;

	if (!n)
		n = 1;
	if (runs_do(g, argv, ct, n, NULL, &r) < 0) {
		st = r.failed ? GOLDEN_CMD_FAILED : GOLDEN_BAD_CONFIG;
		fprintf(stderr, "renacer: capture of '%s' failed\n", name);
		goto out;
	}
	if (store_golden(g, g->dir, name, &r, "", &written) < 0) {
		st = GOLDEN_BAD_CONFIG;
		goto out;
	}
	strbuf_addf(&sb, "%s/%s.json.new", g->dir, name);
	unlink(sb.buf);
	strbuf_reset(&sb);
	strbuf_addf(&sb, "%s/%s.json.zst.new", g->dir, name);
	unlink(sb.buf);
	if (!g->quiet)
		printf("\xe2\x9c\x85 Captured: %s (%.2fms, %llu syscalls)\n", written,
		       r.timing.wall_us.median / 1000.0,
		       (unsigned long long)r.rr[r.median].ncalls);
	{
		const struct trace_end *e = &r.rr[r.median].end;
		if (e->term_signal || e->exit_code) {
			if (e->term_signal)
				warning("'%s' was killed by %s; the golden records that",
					argv[0], signal_name(e->term_signal) ?
					signal_name(e->term_signal) : "a signal");
			else
				warning("'%s' exited with status %d; the golden records that",
					argv[0], e->exit_code);
			gcli_show_output(r.outfile, 10);
		}
	}
	if (g->source)
		warning("source correlation is not available in this build; "
			"%s/%s_source.json not written", g->dir, name);
out:
	free(written);
	strbuf_release(&sb);
	runs_release(&r);
	return st;
}

int cmd_capture(int argc, char **argv)
{
	struct gcli g;
	struct overrides ov;
	int first, st = GOLDEN_OK;

	memset(&g, 0, sizeof(g));
	g.cmd = "capture";
	first = parse_opts(&g, &ov, argc, argv, capture_usage);
	load_config_or_die(&g, &ov);
	if (g.ci)
		die_status(GOLDEN_BAD_CONFIG, "capture: refusing to write golden traces with CI set "
			   "in the environment (unset CI to capture)");
	/* NAME -- COMMAND: one command */
	for (int i = first; i < argc; i++) {
		if (strcmp(argv[i], "--"))
			continue;
		if (i != first + 1)
			usage_die("capture", capture_usage, "expected one NAME before '--'");
		if (i + 1 >= argc)
			usage_die("capture", capture_usage, "expected a command after '--'");
		if (!valid_name(argv[first]))
			usage_die("capture", capture_usage, "bad trace name '%s'", argv[first]);
		if (mkdir_p(g.dir) < 0)
			exit(GOLDEN_BAD_CONFIG);
		st = capture_one(&g, argv[first], argv + i + 1, config_trace(&g.cfg, argv[first]));
		gcli_release(&g);
		return st;
	}
	/* the declared traces */
	if (!g.cfg.golden.ntraces)
		usage_die("capture", capture_usage, "no command given and no traces declared in %s",
			  g.cfg.path ? g.cfg.path : "renacer.toml ([[golden_traces.trace]])");
	for (int i = first; i < argc; i++)
		if (!config_trace(&g.cfg, argv[i]))
			die_status(GOLDEN_BAD_CONFIG, "capture: no trace '%s' declared in %s", argv[i],
				   g.cfg.path ? g.cfg.path : "renacer.toml");
	if (mkdir_p(g.dir) < 0)
		exit(GOLDEN_BAD_CONFIG);
	for (size_t k = 0; k < g.cfg.golden.ntraces; k++) {
		const struct config_trace *ct = &g.cfg.golden.traces[k];
		bool wanted = first >= argc;
		for (int i = first; i < argc; i++)
			if (!strcmp(argv[i], ct->name))
				wanted = true;
		if (!wanted)
			continue;
		int s = capture_one(&g, ct->name, ct->argv, ct);
		if (s > st)
			st = s;
	}
	gcli_release(&g);
	return st;
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

static void emit_cases(struct gcli *g, struct gout_case *cases, size_t n)
{
	switch (g->fmt) {
	case GFMT_JSON: gout_json(stdout, cases, n, &g->o); break;
	case GFMT_JUNIT: gout_junit(stdout, cases, n, &g->o); break;
	case GFMT_MARKDOWN: gout_markdown(stdout, cases, n, &g->o); break;
	default: break;
	}
	if (g->junit_path) {
		char *buf = NULL;
		size_t len = 0;
		FILE *mf = open_memstream(&buf, &len);
		if (mf) {
			gout_junit(mf, cases, n, &g->o);
			fclose(mf);
			write_file_atomic(g->junit_path, buf, len);
			free(buf);
		}
	}
}

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int cmd_compare(int argc, char **argv)
{
	struct gcli g;
	struct overrides ov;
	struct load_job a, b;
	struct gresult r;
	struct gout_case k;
	int first, st;
	double t0 = now_s();

	memset(&g, 0, sizeof(g));
	g.cmd = "compare";
	first = parse_opts(&g, &ov, argc, argv, compare_usage);
	if (argc - first != 2)
		usage_die("compare", compare_usage, "expected GOLDEN and CURRENT");
	load_config_or_die(&g, &ov);
	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	a.path = argv[first];
	b.path = argv[first + 1];
	a.o = b.o = &g.o;
	load_two(&a, &b);
	memset(&k, 0, sizeof(k));
	k.name = a.path;
	k.golden_path = a.path;
	k.current_path = b.path;
	if (a.ret < 0 || b.ret < 0) {
		st = (a.ret < 0 && a.missing) || (b.ret < 0 && b.missing) ? GOLDEN_MISSING
									 : GOLDEN_INVALID;
		if (g.fmt != GFMT_TEXT) {
			k.status = st;
			k.error = a.ret < 0 ? (a.missing ? "golden missing" : "golden unreadable or invalid")
					    : (b.missing ? "current trace missing"
							 : "current trace unreadable or invalid");
			emit_cases(&g, &k, 1);
		}
		gmodel_free(a.m);
		gmodel_free(b.m);
		gcli_release(&g);
		return st;
	}
	golden_compare(a.m, b.m, &g.o, NULL, &r);
	st = r.pass ? GOLDEN_OK : GOLDEN_REGRESSION;
	k.status = st;
	k.r = &r;
	k.g = a.m;
	k.c = b.m;
	k.seconds = now_s() - t0;
	if (g.fmt == GFMT_TEXT)
		gout_text(stdout, &k, &g.o, g.color);
	emit_cases(&g, &k, 1);
	gresult_release(&r);
	gmodel_free(a.m);
	gmodel_free(b.m);
	gcli_release(&g);
	return st;
}

/* --- validate --- */

struct vcase {
	struct gout_case k;
	struct gresult r;
	bool have_r;
	struct gmodel *g, *c;
	char *golden, *current, *hint, *error;
	char *name;
};

/* Adds the failing assertions of the run as findings. */
static void add_assertions(struct gcli *g, struct analysis *an, struct gresult *r)
{
	struct assert_results res = ASSERT_RESULTS_INIT;

	if (!g->cfg.nassertions || assert_eval(&g->cfg, an, &res) < 0) {
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

static bool has_timing_regression(const struct gresult *r)
{
	for (size_t i = 0; i < r->nf; i++)
		if (r->f[i].kind == GF_TIMING && r->f[i].regression)
			return true;
	return false;
}

static int validate_one(struct gcli *g, const char *name, const char *gpath, bool gexists,
			char *const argv[], const struct config_trace *ct, struct vcase *v)
{
	struct runs runs;
	unsigned n = g->runs ? g->runs : ct && ct->runs ? ct->runs : g->cfg.golden.runs;
	struct strbuf sb = STRBUF_INIT;
	struct analysis *an = g->cfg.nassertions ? analysis_new() : NULL;
	char *cur = NULL;
	int missing = 0;
	bool cmp_ok;
	double t0 = now_s();

	memset(v, 0, sizeof(*v));
	memset(&runs, 0, sizeof(runs));
	v->name = xstrdup(name);
	v->golden = xstrdup(gpath);
	v->k.status = GOLDEN_OK;
	if (!n)
		n = 1;
	/* the golden first: a missing or broken one needs no run */
	if (gexists && gmodel_load(gpath, &g->o, &v->g, &missing) < 0) {
		v->k.status = missing ? GOLDEN_MISSING : GOLDEN_INVALID;
		v->error = xstrdup(missing ? "golden missing" : "golden unreadable or invalid");
		goto out;
	}
	if (!gexists && (g->ci || !g->update)) {
		v->k.status = GOLDEN_MISSING;
		strbuf_addf(&sb, "golden trace '%s' does not exist", gpath);
		v->error = strbuf_detach(&sb, NULL);
		if (!g->ci) {
			strbuf_addf(&sb, "capture it with: renacer capture %s%s", name,
				    ct ? "" : " -- COMMAND");
			v->hint = strbuf_detach(&sb, NULL);
		}
		if (!g->quiet || g->fmt != GFMT_TEXT)
			error("golden trace '%s' does not exist", gpath);
		goto out;
	}
	if (runs_do(g, argv, ct, n, an, &runs) < 0) {
		v->k.status = runs.failed ? GOLDEN_CMD_FAILED : GOLDEN_BAD_CONFIG;
		strbuf_addf(&sb, "cannot run '%s'", argv[0]);
		v->error = strbuf_detach(&sb, NULL);
		goto out;
	}
	if (!gexists) {
		/* --update with no golden yet: capture it */
		char *written = NULL;
		if (mkdir_p(g->dir) < 0 || store_golden(g, g->dir, name, &runs, "", &written) < 0) {
			v->k.status = GOLDEN_BAD_CONFIG;
			v->error = xstrdup("cannot write the golden");
			goto out;
		}
		strbuf_addf(&sb, "golden created: %s (%.2fms, %llu syscalls)", written,
			    runs.timing.wall_us.median / 1000.0,
			    (unsigned long long)runs.rr[runs.median].ncalls);
		v->hint = strbuf_detach(&sb, NULL);
		free(written);
		goto out;
	}
	/* the current trace, as a file with timing, read like the golden */
	strbuf_addf(&sb, "%s/current-%s.json", gcli_tmpdir(g), name);
	cur = strbuf_detach(&sb, NULL);
	if (gcli_write_trace(runs.json[runs.median], cur, &runs.timing, false, 0) < 0 ||
	    gmodel_load(cur, &g->o, &v->c, &missing) < 0) {
		v->k.status = GOLDEN_BAD_CONFIG;
		v->error = xstrdup("cannot read back the current trace");
		goto out;
	}
	struct gsamples gs = { runs.wall_us, runs.cpu_us, runs.n };
	golden_compare(v->g, v->c, &g->o, &gs, &v->r);
	v->have_r = true;
	/* noise only ever adds time: re-run before calling the run slow */
	while (has_timing_regression(&v->r) && runs_add(g, argv, ct, &runs) == 0) {
		gresult_release(&v->r);
		gs.n = runs.n;
		golden_compare(v->g, v->c, &g->o, &gs, &v->r);
	}
	cmp_ok = v->r.pass;
	if (an)
		add_assertions(g, an, &v->r);
	v->k.status = v->r.pass ? GOLDEN_OK : GOLDEN_REGRESSION;
	if (v->k.status == GOLDEN_OK)
		goto out;
	if (cmp_ok) {
		/* the trace matches its golden: a new golden would not help */
		v->hint = xstrdup("the run matches its golden; an assertion of renacer.toml failed");
		goto out;
	}
	if (g->update && !g->ci) {
		char *written = NULL;
		const char *dir = gpath;
		struct strbuf d = STRBUF_INIT;
		const char *slash = strrchr(dir, '/');
		if (slash)
			strbuf_add(&d, dir, slash - dir);
		else
			strbuf_addch(&d, '.');
		if (store_golden(g, d.buf, name, &runs, "", &written) == 0) {
			strbuf_addf(&sb, "golden updated: %s", written);
			v->hint = strbuf_detach(&sb, NULL);
			v->k.status = GOLDEN_OK;
		}
		free(written);
		strbuf_release(&d);
		goto out;
	}
	if (!g->ci || g->new_dir) {
		char *written = NULL;
		struct strbuf d = STRBUF_INIT;
		if (g->new_dir) {
			strbuf_addstr(&d, g->new_dir);
		} else {
			const char *slash = strrchr(gpath, '/');
			if (slash)
				strbuf_add(&d, gpath, slash - gpath);
			else
				strbuf_addch(&d, '.');
		}
		if (mkdir_p(d.buf) == 0 && store_golden(g, d.buf, name, &runs, ".new", &written) == 0) {
			strbuf_addf(&sb, "the new trace is %s", written);
			if (!g->new_dir) {
				strbuf_addstr(&sb, "; accept it with: renacer accept ");
				if (strcmp(d.buf, "golden_traces"))
					strbuf_addf(&sb, "--dir %s ", d.buf);
				strbuf_addstr(&sb, name);
			}
			v->hint = strbuf_detach(&sb, NULL);
		}
		free(written);
		strbuf_release(&d);
	}
out:
	if (v->k.status == GOLDEN_REGRESSION && runs.n && runs.rr &&
	    runs.rr[runs.median].started && g->fmt == GFMT_TEXT) {
		const struct trace_end *e = &runs.rr[runs.median].end;
		if ((e->exit_code || e->term_signal) && v->g &&
		    (e->exit_code != v->g->exit_code || e->term_signal != v->g->term_signal))
			gcli_show_output(runs.outfile, 10);
	}
	runs_release(&runs);
	if (an)
		analysis_free(an);
	v->current = cur;
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
	if (cur)
		unlink(cur);
	return v->k.status;
}

static void vcase_release(struct vcase *v)
{
	if (v->have_r)
		gresult_release(&v->r);
	gmodel_free(v->g);
	gmodel_free(v->c);
	free(v->golden);
	free(v->current);
	free(v->hint);
	free(v->error);
	free(v->name);
}

static void strip_ext(struct strbuf *sb, const char *path)
{
	const char *base = strrchr(path, '/');
	static const char *const exts[] = { ".json.zst", ".jsonl.zst", ".json", ".jsonl", ".zst" };

	strbuf_addstr(sb, base ? base + 1 : path);
	for (size_t i = 0; i < ARRAY_SIZE(exts); i++) {
		size_t l = strlen(exts[i]);
		if (sb->len > l && !strcmp(sb->buf + sb->len - l, exts[i])) {
			strbuf_setlen(sb, sb->len - l);
			break;
		}
	}
}

int cmd_validate(int argc, char **argv)
{
	struct gcli g;
	struct overrides ov;
	struct vcase *v = NULL;
	size_t nv = 0;
	int first, st = GOLDEN_OK, dashdash = -1;

	memset(&g, 0, sizeof(g));
	g.cmd = "validate";
	first = parse_opts(&g, &ov, argc, argv, validate_usage);
	if (first > 1 && !strcmp(argv[first - 1], "--"))
		dashdash = --first;     /* getopt stepped over it */
	for (int i = first; dashdash < 0 && i < argc; i++)
		if (!strcmp(argv[i], "--"))
			dashdash = i;
	if (dashdash >= 0 && !g.golden_file)
		usage_die("validate", validate_usage, "a command needs --golden FILE");
	if (g.golden_file && dashdash < 0)
		usage_die("validate", validate_usage, "--golden needs '-- COMMAND'");
	if (dashdash >= 0 && (dashdash != first || dashdash + 1 >= argc))
		usage_die("validate", validate_usage, "expected --golden FILE -- COMMAND [ARGS...]");
	load_config_or_die(&g, &ov);
	if (g.ci && g.update) {
		warning("CI is set: --update ignored, nothing is written into '%s'", g.dir);
		g.update = false;
	}

	if (g.golden_file) {
		struct strbuf name = STRBUF_INIT, dir = STRBUF_INIT;
		struct stat sbuf;
		const char *slash = strrchr(g.golden_file, '/');
		strip_ext(&name, g.golden_file);
		if (slash)
			strbuf_add(&dir, g.golden_file, slash - g.golden_file);
		else
			strbuf_addch(&dir, '.');
		g.dir = xstrdup(dir.buf);
		v = xcalloc(1, sizeof(*v));
		nv = 1;
		st = validate_one(&g, name.buf, g.golden_file, !stat(g.golden_file, &sbuf),
				  argv + dashdash + 1, config_trace(&g.cfg, name.buf), &v[0]);
		if (g.fmt == GFMT_TEXT && (!g.quiet || st))
			gout_text(stdout, &v[0].k, &g.o, g.color);
		strbuf_release(&name);
		strbuf_release(&dir);
		emit_cases(&g, &v[0].k, 1);
		vcase_release(&v[0]);
		free(v);
		free((char *)g.dir);
		g.dir = NULL;
		gcli_release(&g);
		return st;
	}

	if (!g.cfg.golden.ntraces)
		usage_die("validate", validate_usage, "no traces declared in %s; use --golden FILE -- "
			  "COMMAND", g.cfg.path ? g.cfg.path : "renacer.toml ([[golden_traces.trace]])");
	for (int i = first; i < argc; i++)
		if (!config_trace(&g.cfg, argv[i]))
			die_status(GOLDEN_BAD_CONFIG, "validate: no trace '%s' declared in %s", argv[i],
				   g.cfg.path ? g.cfg.path : "renacer.toml");
	v = xcalloc(g.cfg.golden.ntraces + 1, sizeof(*v));
	for (size_t t = 0; t < g.cfg.golden.ntraces; t++) {
		const struct config_trace *ct = &g.cfg.golden.traces[t];
		bool wanted = first >= argc, exists;
		char *gp;
		int s;

		for (int i = first; i < argc; i++)
			if (!strcmp(argv[i], ct->name))
				wanted = true;
		if (!wanted)
			continue;
		gp = golden_path(g.dir, ct->name, &exists);
		s = validate_one(&g, ct->name, gp, exists, ct->argv, ct, &v[nv]);
		free(gp);
		if (g.fmt == GFMT_TEXT && (!g.quiet || s))
			gout_text(stdout, &v[nv].k, &g.o, g.color);
		nv++;
		if (s > st)
			st = s;
		if (s && g.cfg.ci.fail_fast)
			break;
	}
	{
		struct gout_case *ks = xcalloc(nv + 1, sizeof(*ks));
		for (size_t i = 0; i < nv; i++)
			ks[i] = v[i].k;
		emit_cases(&g, ks, nv);
		free(ks);
	}
	if (g.fmt == GFMT_TEXT && nv > 1 && !g.quiet) {
		size_t pass = 0;
		for (size_t i = 0; i < nv; i++)
			pass += v[i].k.status == GOLDEN_OK;
		printf("%zu of %zu golden traces equivalent\n", pass, nv);
	}
	for (size_t i = 0; i < nv; i++)
		vcase_release(&v[i]);
	free(v);
	gcli_release(&g);
	return st;
}

/* --- accept --- */

/* A pending DIR/NAME.json[.zst].new file. */
struct pending {
	char *path, *name, *golden;   /* golden: the file it replaces */
	bool stale;
};

static void list_pending(const char *dir, struct pending **out, size_t *n)
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
		struct pending *p;

		if (l > 13 && !strcmp(nm + l - 13, ".json.zst.new"))
			suf = ".json.zst.new";
		else if (l > 9 && !strcmp(nm + l - 9, ".json.new"))
			suf = ".json.new";
		if (!suf)
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

static void pending_free(struct pending *p, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(p[i].path);
		free(p[i].name);
		free(p[i].golden);
	}
	free(p);
}

static int accept_one(struct gcli *g, const struct pending *p)
{
	struct sink_list sl = SINK_LIST_INIT;
	struct strbuf other = STRBUF_INIT, sum = STRBUF_INIT;
	struct sink *s;
	bool zst = strstr(p->golden, ".json.zst") != NULL;
	int ret = GOLDEN_OK;

	/* the .new must read back as a trace before it becomes the golden */
	strbuf_addf(&sum, "%s/%s_summary.txt", g->dir, p->name);
	if (!(s = summary_sink_new(NULL, sum.buf, NULL))) {
		ret = GOLDEN_BAD_CONFIG;
		goto out;
	}
	sink_list_add(&sl, s);
	if (trace_read(p->path, &sl, NULL, NULL) < 0) {
		ret = GOLDEN_INVALID;
		goto out;
	}
	if (rename(p->path, p->golden) < 0) {
		error("cannot rename '%s' to '%s': %s", p->path, p->golden, strerror(errno));
		ret = GOLDEN_BAD_CONFIG;
		goto out;
	}
	strbuf_addf(&other, "%s/%s.json%s", g->dir, p->name, zst ? "" : ".zst");
	gcli_unlink(other.buf);
	printf("\xe2\x9c\x85 Accepted: %s\n", p->golden);
out:
	sink_list_release(&sl);
	strbuf_release(&other);
	strbuf_release(&sum);
	return ret;
}

int cmd_accept(int argc, char **argv)
{
	struct gcli g;
	struct overrides ov;
	struct pending *p;
	size_t np;
	int first, st = GOLDEN_OK;

	memset(&g, 0, sizeof(g));
	g.cmd = "accept";
	first = parse_opts(&g, &ov, argc, argv, accept_usage);
	load_config_or_die(&g, &ov);
	if (g.ci)
		die_status(GOLDEN_BAD_CONFIG, "accept: refusing to write golden traces with CI set "
			   "in the environment");
	list_pending(g.dir, &p, &np);
	for (int i = first; i < argc; i++) {
		bool found = false;
		for (size_t j = 0; j < np; j++) {
			if (strcmp(p[j].name, argv[i]) || !p[j].path)
				continue;
			found = true;
			int s = accept_one(&g, &p[j]);
			if (s > st)
				st = s;
			free(p[j].path);
			p[j].path = NULL;
		}
		if (!found) {
			error("no new trace for '%s' in '%s' (%s/%s.json.new); run 'renacer validate %s' "
			      "first", argv[i], g.dir, g.dir, argv[i], argv[i]);
			if (st < GOLDEN_MISSING)
				st = GOLDEN_MISSING;
		}
	}
	for (size_t j = 0; j < np; j++) {
		if (!p[j].path)
			continue;
		if (p[j].stale) {
			if (unlink(p[j].path) == 0)
				printf("removed stale %s (its golden is newer)\n", p[j].path);
		} else if (ov.all) {
			int s = accept_one(&g, &p[j]);
			if (s > st)
				st = s;
		} else {
			printf("pending: %s (accept with: renacer accept %s)\n", p[j].path, p[j].name);
		}
	}
	if (first >= argc && !ov.all && !np)
		printf("no new traces pending in %s\n", g.dir);
	pending_free(p, np);
	gcli_release(&g);
	return st;
}
