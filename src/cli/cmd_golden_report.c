/*
 * renacer report [DIR]: writes DIR/ANALYSIS.md, a table of every golden
 * trace (runtime, syscalls, top syscalls with their share of time), a
 * summary per trace and the patterns that can be derived from it.
 */
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "cli/cmds.h"
#include "cli/golden_cli.h"
#include "golden/model.h"
#include "golden/store.h"
#include "report/html.h"
#include "report/runview.h"
#include "sys/sysent.h"
#include "util/atomicfile.h"
#include "util/error.h"
#include "util/quote.h"
#include "util/strbuf.h"
#include "util/xmalloc.h"
#include "util/banned.h"

static const char report_usage[] =
"usage: renacer report [--config FILE] [-o FILE] [--html FILE] [DIR]\n"
"\n"
"Reads every golden trace in DIR (default: [golden_traces] dir or\n"
"golden_traces) and writes DIR/ANALYSIS.md: a table of the traces (runtime,\n"
"syscall count, top syscalls with their share of time), a summary of each\n"
"trace, and the notable patterns (dominant syscall families, failed calls,\n"
"processes and threads spawned).\n"
"\n"
"      --config FILE        renacer.toml to read (default: ./renacer.toml if present)\n"
"  -o, --output FILE        write the report to FILE ('-' for stdout)\n"
"      --html FILE          write an HTML page instead (with -o: as well): per\n"
"                           golden its syscall bars, timeline and flame graph,\n"
"                           and for each pending NAME.json.new its comparison\n"
"                           with the golden (findings, call diff, differential\n"
"                           flame graph)\n"
"  -h, --help               show this help\n"
"\n"
"With CI set in the environment and no -o, the report goes to stdout (nothing\n"
"is written into the golden directory).\n"
"\n"
"Exit status: 0 written, 2 no traces in DIR, 3 a trace is unreadable or\n"
"invalid, 5 bad configuration or usage, 7 the report could not be written.\n";

struct rtrace {
	char *name, *path;
	struct gmodel *m;
	uint64_t size;
};

struct rrow {
	const char *name;
	uint64_t calls, errors, time_us;
};

static int rrow_time_cmp(const void *a, const void *b)
{
	const struct rrow *x = a, *y = b;
	if (x->time_us != y->time_us)
		return x->time_us > y->time_us ? -1 : 1;
	if (x->calls != y->calls)
		return x->calls > y->calls ? -1 : 1;
	return strcmp(x->name, y->name);
}

static int rtrace_cmp(const void *a, const void *b)
{
	return strcmp(((const struct rtrace *)a)->name, ((const struct rtrace *)b)->name);
}

/* Rows of m sorted by time (the caller frees). */
static struct rrow *rows_of(const struct gmodel *m, size_t *n, uint64_t *tot_time,
			    uint64_t *tot_calls, uint64_t *tot_err)
{
	struct rrow *r = xcalloc(m->names.n + 1, sizeof(*r));
	*n = 0;
	*tot_time = *tot_calls = *tot_err = 0;
	for (uint32_t i = 0; i < m->names.n; i++) {
		if (!m->sc[i].calls)
			continue;
		r[*n].name = intern_str(&m->names, i);
		r[*n].calls = m->sc[i].calls;
		r[*n].errors = m->sc[i].errors;
		r[*n].time_us = m->sc[i].time_us;
		*tot_time += m->sc[i].time_us;
		*tot_calls += m->sc[i].calls;
		*tot_err += m->sc[i].errors;
		(*n)++;
	}
	QSORT(r, *n, rrow_time_cmp);
	return r;
}

static double runtime_ms(const struct gmodel *m)
{
	return m->timing.runs > 0 ? m->timing.wall_us.median / 1000.0 : m->wall_ns / 1e6;
}

/* Families of syscalls, for the patterns. */
enum { F_IO, F_FILE, F_MEM, F_PROC, F_NET, F_SYNC, F_SIGNAL, F_TIME, F_OTHER, F_N };
static const char *const fam_names[F_N] = {
	"descriptor I/O", "file system", "memory management", "process management",
	"network", "synchronization", "signals", "time", "other",
};

static int family_of(const char *name)
{
	long nr = sysent_lookup(name);
	const struct sysent *se = nr >= 0 ? sysent_get(nr) : NULL;

	if (!se)
		return F_OTHER;
	if (se->sem & SEM_THREADSYNC)
		return F_SYNC;
	if (se->io_in >= 0 || se->io_out >= 0)
		return F_IO;
	if (se->flags & TRACE_MEMORY)
		return F_MEM;
	if (se->flags & TRACE_PROCESS)
		return F_PROC;
	if (se->flags & TRACE_NETWORK)
		return F_NET;
	if (se->flags & TRACE_SIGNAL)
		return F_SIGNAL;
	if (se->flags & TRACE_CLOCK)
		return F_TIME;
	if (se->flags & (TRACE_FILE | TRACE_STAT_LIKE | TRACE_STATFS_LIKE | TRACE_STAT |
			 TRACE_LSTAT))
		return F_FILE;
	if (se->flags & (TRACE_DESC | TRACE_FSTAT))
		return F_IO;
	return F_OTHER;
}

/*
 * Text from a trace or a file name in the Markdown: one line without
 * control characters (util/quote.h), no '|' that would end a table cell,
 * no '`' that would end code.
 */
static void md_text(struct strbuf *sb, const char *s)
{
	struct strbuf e = STRBUF_INIT;

	strbuf_add_cescaped(&e, s, strlen(s), 0, CESC_KEEP_BACKSLASH);
	for (const char *p = e.buf; *p; p++)
		strbuf_addch(sb, *p == '`' ? '\'' : *p == '|' ? '/' : *p);
	strbuf_release(&e);
}

static void md_code(struct strbuf *sb, const char *s)
{
	strbuf_addch(sb, '`');
	md_text(sb, s);
	strbuf_addch(sb, '`');
}

static double pct(uint64_t a, uint64_t b)
{
	return b ? 100.0 * (double)a / (double)b : 0;
}

static void top_list(struct strbuf *sb, const struct rrow *r, size_t n, uint64_t tot_time,
		     size_t k)
{
	for (size_t i = 0; i < n && i < k; i++) {
		strbuf_addstr(sb, i ? ", " : "");
		md_text(sb, r[i].name);
		strbuf_addf(sb, " %llu (%.1f%%)", (unsigned long long)r[i].calls,
			    pct(r[i].time_us, tot_time));
	}
	if (!n)
		strbuf_addstr(sb, "none");
}

struct keycount {
	uint32_t key;
	uint64_t n;
	uint8_t err;
};

static int keycount_cmp(const void *a, const void *b)
{
	const struct keycount *x = a, *y = b;
	if (x->n != y->n)
		return x->n > y->n ? -1 : 1;
	return x->key < y->key ? -1 : x->key > y->key;
}

static void trace_section(struct strbuf *sb, const struct rtrace *t)
{
	const struct gmodel *m = t->m;
	size_t n, nprocs = 0, nthreads = 0, nres[GR_NKINDS] = { 0 };
	uint64_t tt, tc, te, fam_calls[F_N] = { 0 }, fam_time[F_N] = { 0 };
	struct rrow *r = rows_of(m, &n, &tt, &tc, &te);

	for (size_t i = 0; i < m->nprocs; i++) {
		if (m->procs[i].is_thread)
			nthreads++;
		else
			nprocs++;
	}
	for (uint32_t i = 0; i < m->res.n; i++)
		nres[gmodel_res_kind(m, i)]++;

	strbuf_addstr(sb, "\n### ");
	md_text(sb, t->name);
	strbuf_addstr(sb, "\n\n");
	strbuf_addstr(sb, "- File: ");
	md_code(sb, t->path);
	strbuf_addf(sb, " (%.1f KB)", t->size / 1024.0);
	if (m->command) {
		strbuf_addstr(sb, ", command: ");
		md_code(sb, m->command);
	}
	strbuf_addf(sb, "\n- Runtime: %.2fms", runtime_ms(m));
	if (m->timing.runs > 1)
		strbuf_addf(sb, " (median of %d runs, %.2f-%.2fms)", m->timing.runs,
			    m->timing.wall_us.min / 1000, m->timing.wall_us.max / 1000);
	strbuf_addf(sb, "; %llu syscalls (%.2fms in syscalls), %llu failed\n",
		    (unsigned long long)tc, tt / 1000.0, (unsigned long long)te);
	if (m->exit_code || m->term_signal) {
		if (m->term_signal)
			strbuf_addf(sb, "- Ended: killed by %s\n", signal_name(m->term_signal) ?
				    signal_name(m->term_signal) : "a signal");
		else
			strbuf_addf(sb, "- Ended: exit status %d\n", m->exit_code);
	}
	strbuf_addf(sb, "- Processes: %zu, threads: %zu", nprocs, nthreads);
	strbuf_addstr(sb, "; programs executed: ");
	{
		size_t shown = 0;
		for (size_t i = 0; i < m->nprocs; i++) {
			if (!m->procs[i].exe || m->procs[i].is_thread)
				continue;
			bool dup = false;
			for (size_t j = 0; j < i; j++)
				if (m->procs[j].exe && !strcmp(m->procs[j].exe, m->procs[i].exe))
					dup = true;
			if (dup)
				continue;
			if (shown++)
				strbuf_addstr(sb, ", ");
			if (shown > 8) {
				strbuf_addstr(sb, "...");
				break;
			}
			md_code(sb, m->procs[i].exe);
		}
		if (!shown)
			strbuf_addstr(sb, "none");
	}
	strbuf_addf(sb, "\n- Files: %zu opened, %zu created, %zu deleted; network endpoints: %zu\n",
		    nres[GR_OPEN], nres[GR_CREATE], nres[GR_DELETE], nres[GR_ENDPOINT]);

	strbuf_addstr(sb, "\n| Syscall | Calls | Errors | Time (ms) | % time |\n");
	strbuf_addstr(sb, "|---|---:|---:|---:|---:|\n");
	for (size_t i = 0; i < n && i < 10; i++) {
		strbuf_addstr(sb, "| ");
		md_text(sb, r[i].name);
		strbuf_addf(sb, " | %llu | %llu | %.3f | %.1f%% |\n",
			    (unsigned long long)r[i].calls, (unsigned long long)r[i].errors,
			    r[i].time_us / 1000.0, pct(r[i].time_us, tt));
	}
	if (n > 10)
		strbuf_addf(sb, "| (%zu more) | | | | |\n", n - 10);

	/* patterns */
	for (size_t i = 0; i < n; i++) {
		int f = family_of(r[i].name);
		fam_calls[f] += r[i].calls;
		fam_time[f] += r[i].time_us;
	}
	strbuf_addstr(sb, "\nPatterns:\n\n");
	{
		int best = -1, second = -1;
		for (int f = 0; f < F_N; f++) {
			if (!fam_calls[f])
				continue;
			if (best < 0 || fam_calls[f] > fam_calls[best]) {
				second = best;
				best = f;
			} else if (second < 0 || fam_calls[f] > fam_calls[second]) {
				second = f;
			}
		}
		if (best >= 0)
			strbuf_addf(sb, "- Dominant syscall family: %s, %.1f%% of calls and %.1f%% of "
				    "syscall time\n", fam_names[best], pct(fam_calls[best], tc),
				    pct(fam_time[best], tt));
		if (second >= 0)
			strbuf_addf(sb, "- Next: %s, %.1f%% of calls and %.1f%% of syscall time\n",
				    fam_names[second], pct(fam_calls[second], tc),
				    pct(fam_time[second], tt));
		for (int f = 0; f < F_N; f++)
			if (f != best && tt && pct(fam_time[f], tt) >= 50)
				strbuf_addf(sb, "- Most syscall time goes to %s (%.1f%%)\n",
					    fam_names[f], pct(fam_time[f], tt));
	}
	if (te) {
		struct keycount *kc = NULL;
		size_t nk = 0, ak = 0;
		uint64_t *cnt = xcalloc(m->keys.n + 1, sizeof(*cnt));
		for (size_t i = 0; i < m->nprocs; i++)
			for (uint32_t j = 0; j < m->procs[i].ncalls; j++) {
				const struct gcall *c = &m->procs[i].calls[j];
				if (!(c->flags & GC_FAILED))
					continue;
				if (!cnt[c->key]) {
					ALLOC_GROW(kc, nk + 1, ak);
					kc[nk].key = c->key;
					kc[nk].err = c->err;
					nk++;
				}
				cnt[c->key] += gcall_n(&m->procs[i], j);
			}
		for (size_t i = 0; i < nk; i++)
			kc[i].n = cnt[kc[i].key];
		QSORT(kc, nk, keycount_cmp);
		strbuf_addf(sb, "- Failed calls: %llu (%.1f%% of calls)",
			    (unsigned long long)te, pct(te, tc));
		for (size_t i = 0; i < nk && i < 5; i++) {
			strbuf_addstr(sb, i ? ", " : ": ");
			md_code(sb, intern_str(&m->keys, kc[i].key));
			if (kc[i].n > 1)
				strbuf_addf(sb, " x%llu", (unsigned long long)kc[i].n);
		}
		if (nk > 5)
			strbuf_addf(sb, ", and %zu more distinct", nk - 5);
		strbuf_addch(sb, '\n');
		free(kc);
		free(cnt);
	} else {
		strbuf_addstr(sb, "- No failed calls\n");
	}
	if (nprocs > 1 || nthreads)
		strbuf_addf(sb, "- Spawned %zu process%s and %zu thread%s\n", nprocs - 1,
			    nprocs - 1 == 1 ? "" : "es", nthreads, nthreads == 1 ? "" : "s");
	else
		strbuf_addstr(sb, "- Single process, single thread\n");
	for (uint32_t i = 0; i < m->sigs.n; i++) {
		strbuf_addstr(sb, i ? ", " : "- Signals delivered: ");
		md_text(sb, intern_str(&m->sigs, i));
		strbuf_addf(sb, " x%llu", (unsigned long long)m->sig_counts[i]);
	}
	if (m->sigs.n)
		strbuf_addch(sb, '\n');
	free(r);
}

static bool is_trace_name(const char *nm, size_t *stem)
{
	size_t l = strlen(nm);
	/* hidden files: temporaries and pending summaries of renacer's own */
	if (nm[0] == '.')
		return false;
	if (l > 12 && !strcmp(nm + l - 12, "_source.json"))
		return false;
	if (l > 5 && !strcmp(nm + l - 5, ".json")) {
		*stem = l - 5;
		return true;
	}
	if (l > 9 && !strcmp(nm + l - 9, ".json.zst")) {
		*stem = l - 9;
		return true;
	}
	return false;
}

/*
 * --html FILE: each golden alone, then each pending NAME.json.new compared
 * with its golden.  0, or -1 after error() when the page cannot be written.
 */
static int write_html(struct gcli *g, const char *path, const struct rtrace *t, size_t nt)
{
	struct gout_case *k = xcalloc(2 * nt + 1, sizeof(*k));
	struct html_case *hc = xcalloc(2 * nt + 1, sizeof(*hc));
	struct gcomparison *cmp = xcalloc(nt + 1, sizeof(*cmp));
	char **paths = xcalloc(4 * nt + 1, sizeof(*paths));
	struct gpending *p = NULL;
	struct strbuf sb = STRBUF_INIT;
	struct runview_opts ro;
	struct html_opts ho;
	size_t n = 0, np = 0, ncmp = 0, npaths = 0;
	int ret;

	for (size_t i = 0; i < nt; i++) {
		if (!t[i].m || (i && !strcmp(t[i].name, t[i - 1].name)))
			continue;
		k[n].name = t[i].name;
		k[n].golden_path = t[i].path;
		k[n].status = GOLDEN_OK;
		k[n].g = t[i].m;
		hc[n].k = &k[n];
		hc[n].golden_trace = paths[npaths++] = runview_stacks_path(t[i].path);
		n++;
	}
	golden_list_pending(g->w.dir, &p, &np);
	for (size_t i = 0; i < np && ncmp < nt; i++) {
		struct gcomparison *c = &cmp[ncmp];
		int st;

		if (p[i].stale)
			continue;
		st = golden_compare_files(&g->w, p[i].golden, p[i].path, c);
		ncmp++;
		{
			const char *b = strrchr(p[i].path, '/');
			k[n].name = b ? b + 1 : p[i].path;
		}
		k[n].golden_path = p[i].golden;
		k[n].current_path = p[i].path;
		k[n].status = st;
		k[n].error = c->have_r ? NULL : c->error;
		k[n].hint = "pending: accept it with renacer accept";
		k[n].r = c->have_r ? &c->r : NULL;
		k[n].g = c->g;
		k[n].c = c->c;
		hc[n].k = &k[n];
		hc[n].golden_trace = paths[npaths++] = runview_stacks_path(p[i].golden);
		hc[n].current_trace = paths[npaths++] = runview_stacks_path(p[i].path);
		n++;
	}
	memset(&ro, 0, sizeof(ro));
	ro.string_bytes = g->w.o.string_bytes;
	ro.records = g->w.o.trace_records;
	memset(&ho, 0, sizeof(ho));
	ho.o = &g->w.o;
	ho.rv = &ro;
	ho.title = "renacer: golden traces";
	html_report(&sb, hc, n, &ho);
	ret = write_file_atomic(path, sb.buf, sb.len);
	for (size_t i = 0; i < ncmp; i++)
		gcomparison_release(&cmp[i]);
	for (size_t i = 0; i < npaths; i++)
		free(paths[i]);
	gpending_free(p, np);
	free(paths);
	free(cmp);
	free(hc);
	free(k);
	strbuf_release(&sb);
	return ret;
}

int cmd_report(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "config", required_argument, NULL, 'C' },
		{ "output", required_argument, NULL, 'o' },
		{ "html", required_argument, NULL, 'H' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct gcli g;
	const char *out = NULL, *html = NULL;
	struct rtrace *t = NULL;
	size_t nt = 0, at = 0;
	struct strbuf sb = STRBUF_INIT, path = STRBUF_INIT;
	DIR *d;
	struct dirent *e;
	int c, st = GOLDEN_OK;

	memset(&g, 0, sizeof(g));
	g.cmd = "report";
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+o:h", opts, NULL)) != -1) {
		switch (c) {
		case 'C': g.w.config_path = optarg; break;
		case 'o': out = optarg; break;
		case 'H': html = optarg; break;
		case 'h': fputs(report_usage, stdout); return 0;
		default:
			fprintf(stderr, "renacer report: unknown or incomplete option '%s'\n%s",
				argv[optind - 1], report_usage);
			return GOLDEN_BAD_CONFIG;
		}
	}
	if (argc - optind > 1) {
		fprintf(stderr, "renacer report: expected at most one DIR\n%s", report_usage);
		return GOLDEN_BAD_CONFIG;
	}
	if (optind < argc)
		g.w.dir = argv[optind];
	if (gwork_load_config(&g.w) < 0)
		return GOLDEN_BAD_CONFIG;
	if (!out && g.w.ci && !html) {
		out = "-";
		fprintf(stderr, "renacer: CI is set: the report goes to stdout, not into '%s'\n",
			g.w.dir);
	}
	if (!(d = opendir(g.w.dir))) {
		error("cannot open golden directory '%s': %s", esc(g.w.dir), strerror(errno));
		gwork_release(&g.w);
		return errno == ENOENT ? GOLDEN_MISSING : GOLDEN_INVALID;
	}
	while ((e = readdir(d))) {
		size_t stem;
		struct stat sbuf;
		if (!is_trace_name(e->d_name, &stem))
			continue;
		ALLOC_GROW(t, nt + 1, at);
		memset(&t[nt], 0, sizeof(t[nt]));
		t[nt].name = xstrndup(e->d_name, stem);
		strbuf_reset(&path);
		strbuf_addf(&path, "%s/%s", g.w.dir, e->d_name);
		t[nt].path = xstrdup(path.buf);
		t[nt].size = stat(path.buf, &sbuf) ? 0 : (uint64_t)sbuf.st_size;
		nt++;
	}
	closedir(d);
	QSORT(t, nt, rtrace_cmp);
	/* NAME.json and NAME.json.zst both: the plain one wins (as golden_path) */
	for (size_t i = 0; i + 1 < nt; i++)
		if (!strcmp(t[i].name, t[i + 1].name) && strstr(t[i].path, ".zst")) {
			struct rtrace x = t[i];
			t[i] = t[i + 1];
			t[i + 1] = x;
		}
	if (!nt) {
		error("no golden traces in '%s'", esc(g.w.dir));
		st = GOLDEN_MISSING;
		goto out;
	}
	for (size_t i = 0; i < nt; i++) {
		if (i && !strcmp(t[i].name, t[i - 1].name))
			continue;
		struct golden_lock lk = GOLDEN_LOCK_INIT;
		bool bad;

		/* read under the directory's lock (golden/store.h) */
		golden_pair_begin(g.w.dir, t[i].name, NULL, &lk);
		bad = gmodel_load(t[i].path, &g.w.o, &t[i].m, NULL) < 0 ||
		      golden_pair_check(t[i].path) < 0;
		golden_unlock(&lk);
		if (bad) {
			st = GOLDEN_INVALID;
			goto out;
		}
	}

	{
		time_t now = time(NULL);
		struct tm tm;
		char date[64];
		localtime_r(&now, &tm);
		strftime(date, sizeof(date), "%Y-%m-%d", &tm);
		strbuf_addstr(&sb, "# Golden Trace Analysis Report\n\n");
		strbuf_addf(&sb, "Generated by renacer %s on %s from the golden traces in ",
			    RENACER_VERSION, date);
		md_code(&sb, g.w.dir);
		strbuf_addstr(&sb, ".\n");
		strbuf_addstr(&sb, "Regenerate with `renacer report`; validate with `renacer validate`.\n");
	}
	strbuf_addstr(&sb, "\n## Traces\n\n");
	strbuf_addstr(&sb, "| Trace | Runtime | Syscalls | Errors | Processes | Threads | "
		      "Top syscalls (calls, % of syscall time) |\n");
	strbuf_addstr(&sb, "|---|---:|---:|---:|---:|---:|---|\n");
	for (size_t i = 0; i < nt; i++) {
		size_t n, np = 0, nth = 0;
		uint64_t tt, tc, te;
		struct rrow *r;
		if (!t[i].m)
			continue;
		r = rows_of(t[i].m, &n, &tt, &tc, &te);
		for (size_t j = 0; j < t[i].m->nprocs; j++) {
			if (t[i].m->procs[j].is_thread)
				nth++;
			else
				np++;
		}
		strbuf_addstr(&sb, "| ");
		md_code(&sb, t[i].name);
		strbuf_addf(&sb, " | %.2fms | %llu | %llu | %zu | %zu | ",
			    runtime_ms(t[i].m), (unsigned long long)tc, (unsigned long long)te, np, nth);
		top_list(&sb, r, n, tt, 3);
		strbuf_addstr(&sb, " |\n");
		free(r);
	}
	strbuf_addstr(&sb, "\n## Per-trace summaries\n");
	for (size_t i = 0; i < nt; i++)
		if (t[i].m)
			trace_section(&sb, &t[i]);

	if (html) {
		if (write_html(&g, html, t, nt) < 0) {
			st = GOLDEN_WRITE_FAILED;
			goto out;
		}
		printf("\xe2\x9c\x85 Report: %s (%zu trace%s)\n", html, nt, nt == 1 ? "" : "s");
		if (!out)
			goto out;
	}
	if (out && !strcmp(out, "-")) {
		/* a failed stdout is checked at exit (cli_outputs_failed) */
		fwrite(sb.buf, 1, sb.len, stdout);
	} else {
		strbuf_reset(&path);
		if (out)
			strbuf_addstr(&path, out);
		else
			strbuf_addf(&path, "%s/ANALYSIS.md", g.w.dir);
		if (write_file_atomic(path.buf, sb.buf, sb.len) < 0) {
			st = GOLDEN_WRITE_FAILED;
			goto out;
		}
		printf("\xe2\x9c\x85 Report: %s (%zu trace%s)\n", path.buf, nt, nt == 1 ? "" : "s");
	}
out:
	for (size_t i = 0; i < nt; i++) {
		gmodel_free(t[i].m);
		free(t[i].name);
		free(t[i].path);
	}
	free(t);
	strbuf_release(&sb);
	strbuf_release(&path);
	gwork_release(&g.w);
	return st;
}
