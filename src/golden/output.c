/* Text, JSON, JUnit and Markdown renderings of golden comparisons (see output.h). */
#include "golden/output.h"
#include "measure/mstat.h"
#include "util/quote.h"
#include "util/strbuf.h"
#include "util/xmalloc.h"

#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/banned.h"

#define C_RESET "\033[m"
#define C_BOLD "\033[1m"
#define C_RED "\033[31m"
#define C_GREEN "\033[32m"
#define C_YELLOW "\033[33m"
#define C_CYAN "\033[36m"

int gfmt_parse(const char *s)
{
	if (!strcmp(s, "text"))
		return GFMT_TEXT;
	if (!strcmp(s, "json"))
		return GFMT_JSON;
	if (!strcmp(s, "junit") || !strcmp(s, "xml"))
		return GFMT_JUNIT;
	if (!strcmp(s, "markdown") || !strcmp(s, "md"))
		return GFMT_MARKDOWN;
	if (!strcmp(s, "github"))
		return GFMT_GITHUB;
	if (!strcmp(s, "codequality") || !strcmp(s, "gitlab"))
		return GFMT_CODEQUALITY;
	return -1;
}

const char *golden_status_name(int status)
{
	switch (status) {
	case GOLDEN_OK: return "equivalent";
	case GOLDEN_REGRESSION: return "regression";
	case GOLDEN_MISSING: return "golden missing";
	case GOLDEN_INVALID: return "golden invalid";
	case GOLDEN_CMD_FAILED: return "command failed";
	case GOLDEN_BAD_CONFIG: return "bad configuration";
	case GOLDEN_WRITE_FAILED: return "write failed";
	}
	return "?";
}

/*
 * Appends text that came from a trace or a file (syscall lines, paths,
 * names, messages quoting them) to a text report: control characters and
 * bytes that are not UTF-8 are escaped, so that one item is one line and
 * nothing reaches the terminal as a control sequence.  Backslashes stay:
 * syscall text is in strace's escaped form already.
 */
static void add_in(struct strbuf *sb, const char *s)
{
	if (s)
		strbuf_add_cescaped(sb, s, strlen(s), 0, CESC_KEEP_BACKSLASH);
}

static const char *gkey(const struct gmodel *g, const struct gproc_diff *d, size_t i)
{
	return intern_str(&g->keys, d->gk[i]);
}

static const char *ckey(const struct gmodel *c, const struct gproc_diff *d, size_t j)
{
	return intern_str(&c->keys, d->ck[j]);
}

static void proc_title(struct strbuf *sb, const struct gproc *p)
{
	strbuf_addstr(sb, p->is_thread ? "thread " : "process ");
	add_in(sb, p->label);
	if (p->exe && !p->is_thread) {
		strbuf_addstr(sb, " ");
		add_in(sb, p->exe);
	}
}

static void hunk_range(struct strbuf *sb, size_t start, size_t n)
{
	strbuf_add_u64(sb, n ? start + 1 : start);
	if (n != 1) {
		strbuf_addch(sb, ',');
		strbuf_add_u64(sb, n);
	}
}

/*
 * The lines of a diff as they are printed: a run of the same line (the
 * same sign and call) is one line with its count ("+write(3) = ok  (x350)"),
 * so that the line budget goes to different lines.
 */
struct dlines {
	struct strbuf *sb;
	bool color;
	size_t *left;            /* lines the report may still print, or NULL */
	size_t skipped;          /* changed lines not printed */
	char sign;               /* of the pending run: '-', '+' or ' ' */
	const char *key;
	size_t n;                /* lines in the pending run, 0 none */
};

static void dlines_flush(struct dlines *L)
{
	if (!L->n)
		return;
	if (L->left && !*L->left) {
		if (L->sign != ' ')
			L->skipped += L->n;
	} else {
		if (L->color && L->sign != ' ')
			strbuf_addstr(L->sb, L->sign == '-' ? C_RED : C_GREEN);
		strbuf_addch(L->sb, L->sign);
		add_in(L->sb, L->key);
		if (L->n > 1)
			strbuf_addf(L->sb, "  (x%zu)", L->n);
		if (L->color && L->sign != ' ')
			strbuf_addstr(L->sb, C_RESET);
		strbuf_addch(L->sb, '\n');
		if (L->left)
			--*L->left;
	}
	L->n = 0;
}

static void dlines_add(struct dlines *L, char sign, const char *key)
{
	if (L->n && sign == L->sign && !strcmp(key, L->key)) {
		L->n++;
		return;
	}
	dlines_flush(L);
	L->sign = sign;
	L->key = key;
	L->n = 1;
}

void gout_unified(struct strbuf *sb, const struct gresult *r, const struct gproc_diff *d,
		  const struct gmodel *g, const struct gmodel *c, const char *gname,
		  const char *cname, size_t *left, bool color)
{
	const struct gproc *gp = d->g, *cp = d->c;
	struct dlines L = { sb, color, left, 0, ' ', NULL, 0 };

	(void)r;
	if (!d->added && !d->removed)
		return;
	if (color)
		strbuf_addstr(sb, C_BOLD);
	strbuf_addstr(sb, "--- ");
	add_in(sb, gname);
	strbuf_addch(sb, ' ');
	if (gp)
		proc_title(sb, gp);
	else
		strbuf_addstr(sb, "(no such process)");
	strbuf_addch(sb, '\n');
	strbuf_addstr(sb, "+++ ");
	add_in(sb, cname);
	strbuf_addch(sb, ' ');
	if (cp)
		proc_title(sb, cp);
	else
		strbuf_addstr(sb, "(no such process)");
	if (color)
		strbuf_addstr(sb, C_RESET);
	strbuf_addch(sb, '\n');
	if (!gp || !cp) {
		/* a whole process added or removed */
		uint32_t np = gp ? d->ng : d->nc;
		if (color)
			strbuf_addstr(sb, C_CYAN);
		strbuf_addf(sb, "@@ -%s%u +%s%u @@",
			    gp ? "1," : "0,", gp ? np : 0, cp ? "1," : "0,", cp ? np : 0);
		if (color)
			strbuf_addstr(sb, C_RESET);
		strbuf_addch(sb, '\n');
		for (uint32_t i = 0; i < np; i++)
			dlines_add(&L, gp ? '-' : '+', gp ? gkey(g, d, i) : ckey(c, d, i));
		dlines_flush(&L);
	} else {
		for (size_t h = 0; h < d->nhunks; h++) {
			const struct gdiff_hunk *hk = &d->hunks[h];
			size_t i = hk->a0, j = hk->b0, ie = hk->a0 + hk->na, je = hk->b0 + hk->nb;

			if (!left || *left) {
				if (color)
					strbuf_addstr(sb, C_CYAN);
				strbuf_addstr(sb, "@@ -");
				hunk_range(sb, hk->a0, hk->na);
				strbuf_addstr(sb, " +");
				hunk_range(sb, hk->b0, hk->nb);
				strbuf_addstr(sb, " @@");
				if (color)
					strbuf_addstr(sb, C_RESET);
				strbuf_addch(sb, '\n');
			}
			while (i < ie || j < je) {
				if (i < ie && d->chg_g[i]) {
					dlines_add(&L, '-', gkey(g, d, i));
					i++;
				} else if (j < je && d->chg_c[j]) {
					dlines_add(&L, '+', ckey(c, d, j));
					j++;
				} else {
					dlines_add(&L, ' ', gkey(g, d, i < ie ? i : ie - 1));
					i++;
					j++;
				}
			}
			dlines_flush(&L);
		}
	}
	if (L.skipped)
		strbuf_addf(sb, "... %zu more diff lines not shown (golden_traces.max_diff_lines)\n",
			    L.skipped);
}

/* --- text --- */

static void text_summary_line(struct strbuf *sb, const struct gout_case *k, bool color)
{
	const struct gresult *r = k->r;

	if (k->status == GOLDEN_OK) {
		strbuf_addstr(sb, "\xe2\x9c\x85 ");
		add_in(sb, k->name);
		strbuf_addstr(sb, ": equivalent");
	} else {
		if (color)
			strbuf_addstr(sb, C_RED C_BOLD);
		strbuf_addstr(sb, "\xe2\x9d\x8c ");
		add_in(sb, k->name);
		strbuf_addf(sb, ": %s", golden_status_name(k->status));
		if (color)
			strbuf_addstr(sb, C_RESET);
	}
	if (r) {
		/* the time capture printed: the untraced runs' median net time */
		strbuf_addf(sb, " (confidence %.3f, %llu syscalls, golden %llu; %.2fms, golden %.2fms)",
			    r->confidence, (unsigned long long)r->c_calls,
			    (unsigned long long)r->g_calls, r->untraced ? r->c_net_ms : r->c_wall_ms,
			    r->untraced ? r->g_net_ms : r->g_wall_ms);
	}
	strbuf_addch(sb, '\n');
}

/* The untraced runs' times and the verdict on them, one line. */
static void untraced_line(struct strbuf *sb, const struct gresult *r)
{
	strbuf_addf(sb, "   runtime, untraced (medians of %d run%s; golden %d): wall %.2fms (golden "
		    "%.2fms), net of waits for a CPU %.2fms (%.2fms), CPU %.2fms (%.2fms); %s time "
		    "%.2fx", r->c_runs, r->c_runs == 1 ? "" : "s", r->g_runs, r->c_wall_ms,
		    r->g_wall_ms, r->c_net_ms, r->g_net_ms, r->c_cpu_ms, r->g_cpu_ms,
		    !strcmp(r->time_metric, "cpu") ? "CPU" : "net", r->time_ratio);
	if (r->time_lo > 0 && isfinite(r->time_hi))
		strbuf_addf(sb, " (interval %.2fx-%.2fx)", r->time_lo, r->time_hi);
	strbuf_addf(sb, ", limit %.2fms: %s", r->limit_ms, mverdict_name(r->time_verdict));
	if (fabs(r->time_adjust_ms) >= 0.001)
		strbuf_addf(sb, " (current times %+.2fms for the machine's speed)", r->time_adjust_ms);
	strbuf_addch(sb, '\n');
}

/* Writes sb to fp and flushes; 0, or -1 with errno set. */
static int put(FILE *fp, const struct strbuf *sb)
{
	errno = 0;
	if ((sb->len && fwrite(sb->buf, 1, sb->len, fp) != sb->len) || fflush(fp) != 0 ||
	    ferror(fp)) {
		if (!errno)
			errno = EIO;
		return -1;
	}
	return 0;
}

int gout_text(FILE *fp, const struct gout_case *k, const struct golden_opts *o, bool color)
{
	struct strbuf sb = STRBUF_INIT;
	const struct gresult *r = k->r;
	size_t left = o->max_diff_lines;
	int ret;

	text_summary_line(&sb, k, color);
	if (k->error) {
		strbuf_addstr(&sb, "   ");
		add_in(&sb, k->error);
		strbuf_addch(&sb, '\n');
	}
	if (r) {
		size_t nreg = 0;
		for (size_t i = 0; i < r->nf; i++) {
			const struct gfinding *f = &r->f[i];
			if (f->regression)
				nreg++;
			if (color)
				strbuf_addstr(&sb, f->regression ? C_RED : C_YELLOW);
			strbuf_addf(&sb, "   %s %s: ", f->regression ? "\xe2\x9c\x97" : "note",
				    gfind_kind_name(f->kind));
			if (color)
				strbuf_addstr(&sb, C_RESET);
			if (f->proc) {
				strbuf_addch(&sb, '[');
				add_in(&sb, f->proc);
				strbuf_addstr(&sb, "] ");
			}
			add_in(&sb, f->message);
			strbuf_addch(&sb, '\n');
			for (const char *p = f->detail; p && *p;) {
				const char *nl = strchr(p, '\n');
				size_t len = nl ? (size_t)(nl - p) : strlen(p);
				strbuf_addstr(&sb, "       ");
				strbuf_add_cescaped(&sb, p, len, 0, CESC_KEEP_BACKSLASH);
				strbuf_addch(&sb, '\n');
				p += len + (nl != NULL);
			}
		}
		if (k->status != GOLDEN_OK) {
			strbuf_addf(&sb, "   confidence %.3f = 0.50 x sequence %.3f + 0.25 x counts %.3f"
				    " + 0.25 x resources %.3f (min %.2f)\n", r->confidence,
				    r->s_seq, r->s_cnt, r->s_res, r->min_confidence);
			if (r->untraced)
				untraced_line(&sb, r);
			else if (r->timing_checked && r->g_net_ms >= 0 && r->c_net_ms >= 0)
				strbuf_addf(&sb, "   runtime %.2fms (%.2fms less waits for a CPU); golden "
					    "%.2fms (%.2fms) over %d run%s (spread %.2fms), limit %.2fms\n",
					    r->c_wall_ms, r->c_net_ms, r->g_wall_ms, r->g_net_ms, r->g_runs,
					    r->g_runs == 1 ? "" : "s", r->spread_ms, r->limit_ms);
			else if (r->timing_checked)
				strbuf_addf(&sb, "   runtime %.2fms; golden %.2fms over %d run%s "
					    "(spread %.2fms), limit %.2fms\n", r->c_wall_ms,
					    r->g_wall_ms, r->g_runs, r->g_runs == 1 ? "" : "s",
					    r->spread_ms, r->limit_ms);
			for (size_t i = 0; i < r->npd; i++)
				gout_unified(&sb, r, &r->pd[i], k->g, k->c,
					     k->golden_path ? k->golden_path : "golden",
					     k->current_path ? k->current_path : "current",
					     o->max_diff_lines ? &left : NULL, color);
		}
	}
	if (k->hint) {
		strbuf_addstr(&sb, "   ");
		add_in(&sb, k->hint);
		strbuf_addch(&sb, '\n');
	}
	ret = put(fp, &sb);
	strbuf_release(&sb);
	return ret;
}

/* --- JSON --- */

/*
 * A JSON string of s (null for NULL).  jansson takes only UTF-8: other
 * bytes are written as escapes (as in text reports), never dropped.
 */
static json_t *jstr(const char *s)
{
	struct strbuf sb = STRBUF_INIT;
	json_t *j;

	if (!s)
		return json_null();
	if ((j = json_string(s)))
		return j;
	strbuf_add_cescaped(&sb, s, strlen(s), 0, CESC_KEEP_BACKSLASH | CESC_KEEP_NEWLINE);
	j = json_string(sb.buf);
	strbuf_release(&sb);
	return j ? j : json_string("?");
}

/* jansson refuses NaN and infinities (json_pack then fails whole): 0 instead. */
static double fin(double d)
{
	return isfinite(d) ? d : 0;
}

static json_t *case_json(const struct gout_case *k, const struct golden_opts *o)
{
	const struct gresult *r = k->r;
	json_t *c = json_object();
	size_t left = o->max_diff_lines;

	json_object_set_new(c, "name", jstr(k->name));
	json_object_set_new(c, "golden", jstr(k->golden_path));
	json_object_set_new(c, "current", jstr(k->current_path));
	json_object_set_new(c, "status", json_integer(k->status));
	json_object_set_new(c, "result", json_string(golden_status_name(k->status)));
	json_object_set_new(c, "pass", json_boolean(k->status == GOLDEN_OK));
	json_object_set_new(c, "error", jstr(k->error));
	json_object_set_new(c, "hint", jstr(k->hint));
	json_object_set_new(c, "seconds", json_real(fin(k->seconds)));
	if (k->nfiles) {
		/* the files an error is about (golden hygiene) */
		json_t *fa = json_array();
		for (size_t i = 0; i < k->nfiles; i++)
			json_array_append_new(fa, json_pack("{s:o,s:o}", "path", jstr(k->files[i]),
							    "why", jstr(k->files_why ? k->files_why[i]
									: k->error)));
		json_object_set_new(c, "files", fa);
	}
	if (!r)
		return c;
	json_object_set_new(c, "confidence", json_real(fin(r->confidence)));
	json_object_set_new(c, "min_confidence", json_real(fin(r->min_confidence)));
	json_object_set_new(c, "confidence_parts",
			    json_pack("{s:f,s:f,s:f}", "sequence", fin(r->s_seq), "counts", fin(r->s_cnt),
				      "resources", fin(r->s_res)));
	json_object_set_new(c, "regression", json_boolean(r->regression));
	json_object_set_new(c, "syscalls", json_pack("{s:I,s:I}", "golden",
						      (json_int_t)r->g_calls, "current",
						      (json_int_t)r->c_calls));
	json_t *rt = json_pack("{s:f,s:f,s:f,s:i,s:i,s:b}", "golden_ms", fin(r->g_wall_ms),
			       "current_ms", fin(r->c_wall_ms), "spread_ms", fin(r->spread_ms),
			       "golden_runs", r->g_runs, "current_runs", r->c_runs,
			       "checked", r->timing_checked);
	if (r->timing_checked)
		json_object_set_new(rt, "limit_ms", json_real(fin(r->limit_ms)));
	if (r->g_net_ms >= 0 && r->c_net_ms >= 0) {
		json_object_set_new(rt, "golden_net_ms", json_real(fin(r->g_net_ms)));
		json_object_set_new(rt, "current_net_ms", json_real(fin(r->c_net_ms)));
	}
	if (r->g_cpu_ms >= 0 && r->c_cpu_ms >= 0) {
		json_object_set_new(rt, "golden_cpu_ms", json_real(fin(r->g_cpu_ms)));
		json_object_set_new(rt, "current_cpu_ms", json_real(fin(r->c_cpu_ms)));
	}
	json_object_set_new(rt, "untraced", json_boolean(r->untraced));
	json_object_set_new(rt, "verdict", json_string(mverdict_name(r->time_verdict)));
	if (r->untraced) {
		json_object_set_new(rt, "metric", json_string(r->time_metric));
		json_object_set_new(rt, "ratio", json_real(fin(r->time_ratio)));
		json_object_set_new(rt, "ratio_low", r->time_lo > 0 ? json_real(fin(r->time_lo))
								    : json_null());
		json_object_set_new(rt, "ratio_high", isfinite(r->time_hi) ?
				    json_real(fin(r->time_hi)) : json_null());
		json_object_set_new(rt, "p", json_real(fin(r->time_p)));
		json_object_set_new(rt, "adjust_ms", json_real(fin(r->time_adjust_ms)));
	}
	json_object_set_new(c, "runtime", rt);
	json_t *fs = json_array();
	for (size_t i = 0; i < r->nf; i++) {
		const struct gfinding *f = &r->f[i];
		json_t *fo = json_pack("{s:s,s:b,s:b,s:o,s:o,s:o,s:o,s:f,s:f}",
				       "kind", gfind_kind_name(f->kind),
				       "regression", f->regression,
				       "noisy", f->noisy,
				       "process", jstr(f->proc),
				       "subject", jstr(f->subject),
				       "message", jstr(f->message),
				       "detail", jstr(f->detail),
				       "golden", fin(f->golden), "current", fin(f->current));
		if (f->nsources) {
			/* -s: the lines the calls came from (docs/source.md) */
			json_t *ss = json_array();
			for (size_t j = 0; j < f->nsources; j++)
				json_array_append_new(ss, json_pack("{s:o,s:f,s:f}",
								    "where", jstr(f->sources[j].where),
								    "golden", fin(f->sources[j].golden),
								    "current", fin(f->sources[j].current)));
			json_object_set_new(fo, "sources", ss);
		}
		json_array_append_new(fs, fo);
	}
	json_object_set_new(c, "findings", fs);
	json_t *ps = json_array();
	for (size_t i = 0; i < r->npd; i++) {
		const struct gproc_diff *d = &r->pd[i];
		struct strbuf sb = STRBUF_INIT;
		gout_unified(&sb, r, d, k->g, k->c, "golden", "current",
			     o->max_diff_lines ? &left : NULL, false);
		json_array_append_new(ps, json_pack("{s:o,s:I,s:I,s:I,s:I,s:b,s:o}",
						   "process", jstr(d->label),
						   "golden_calls", (json_int_t)d->ng,
						   "current_calls", (json_int_t)d->nc,
						   "added", (json_int_t)d->added,
						   "removed", (json_int_t)d->removed,
						   "exact", d->exact != 0, "diff", jstr(sb.buf)));
		strbuf_release(&sb);
	}
	json_object_set_new(c, "processes", ps);
	json_t *rows = json_array();
	for (size_t i = 0; i < r->nrows; i++) {
		const struct gcount_row *w = &r->rows[i];
		if (!w->g_all && !w->c_all)
			continue;
		json_array_append_new(rows, json_pack("{s:o,s:I,s:I,s:I,s:I,s:I,s:I}",
						     "syscall", jstr(w->name),
						     "golden", (json_int_t)w->g_all,
						     "current", (json_int_t)w->c_all,
						     "golden_stable", (json_int_t)w->g_stable,
						     "current_stable", (json_int_t)w->c_stable,
						     "golden_errors", (json_int_t)w->g_err,
						     "current_errors", (json_int_t)w->c_err));
	}
	json_object_set_new(c, "counts", rows);
	return c;
}

static int worst_status(const struct gout_case *k, size_t n)
{
	int st = GOLDEN_OK;
	for (size_t i = 0; i < n; i++)
		if (k[i].status > st)
			st = k[i].status;
	return st;
}

int gout_json(FILE *fp, const struct gout_case *k, size_t n, const struct golden_opts *o)
{
	json_t *root = json_object(), *arr = json_array();
	struct strbuf sb = STRBUF_INIT;
	size_t pass = 0;
	char *text;
	int ret;

	for (size_t i = 0; i < n; i++) {
		json_array_append_new(arr, case_json(&k[i], o));
		pass += k[i].status == GOLDEN_OK;
	}
	json_object_set_new(root, "format", json_string("renacer-golden-result-v1"));
	json_object_set_new(root, "traces", arr);
	json_object_set_new(root, "summary", json_pack("{s:I,s:I,s:I,s:i}", "total", (json_int_t)n,
						      "passed", (json_int_t)pass,
						      "failed", (json_int_t)(n - pass),
						      "status", worst_status(k, n)));
	text = json_dumps(root, JSON_INDENT(2) | JSON_REAL_PRECISION(6));
	json_decref(root);
	if (!text) {
		errno = ENOMEM;
		return -1;
	}
	strbuf_addstr(&sb, text);
	strbuf_addch(&sb, '\n');
	free(text);
	ret = put(fp, &sb);
	strbuf_release(&sb);
	return ret;
}

/* --- JUnit --- */

static void xml_esc(struct strbuf *sb, const char *s)
{
	if (s)
		strbuf_add_xml(sb, s, strlen(s));
}

int gout_junit(FILE *fp, const struct gout_case *k, size_t n, const struct golden_opts *o)
{
	struct strbuf sb = STRBUF_INIT, body = STRBUF_INIT;
	size_t fail = 0, err = 0;
	double total = 0;
	int ret;

	for (size_t i = 0; i < n; i++) {
		total += k[i].seconds;
		if (k[i].status == GOLDEN_REGRESSION)
			fail++;
		else if (k[i].status != GOLDEN_OK)
			err++;
	}
	strbuf_addstr(&sb, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
	strbuf_addf(&sb, "<testsuites name=\"renacer golden traces\" tests=\"%zu\" failures=\"%zu\" "
		    "errors=\"%zu\" time=\"%.3f\">\n", n, fail, err, total);
	strbuf_addf(&sb, "  <testsuite name=\"renacer.golden\" tests=\"%zu\" failures=\"%zu\" "
		    "errors=\"%zu\" skipped=\"0\" time=\"%.3f\">\n", n, fail, err, total);
	for (size_t i = 0; i < n; i++) {
		const struct gout_case *c = &k[i];
		strbuf_addstr(&sb, "    <testcase classname=\"renacer.golden\" name=\"");
		xml_esc(&sb, c->name);
		strbuf_addf(&sb, "\" time=\"%.3f\">\n", c->seconds);
		strbuf_reset(&body);
		{
			FILE *mf;
			char *buf = NULL;
			size_t len = 0;
			mf = open_memstream(&buf, &len);
			if (mf) {
				gout_text(mf, c, o, false);
				fclose(mf);
				strbuf_add(&body, buf, len);
				free(buf);
			}
		}
		if (c->status == GOLDEN_REGRESSION) {
			size_t nreg = 0;
			const char *first = NULL;
			for (size_t j = 0; c->r && j < c->r->nf; j++)
				if (c->r->f[j].regression) {
					if (!first)
						first = c->r->f[j].message;
					nreg++;
				}
			strbuf_addf(&sb, "      <failure type=\"regression\" message=\"%zu regression%s",
				    nreg, nreg == 1 ? "" : "s");
			if (first) {
				strbuf_addstr(&sb, ": ");
				xml_esc(&sb, first);
			}
			strbuf_addstr(&sb, "\">");
			xml_esc(&sb, body.buf);
			strbuf_addstr(&sb, "</failure>\n");
		} else if (c->status != GOLDEN_OK) {
			strbuf_addf(&sb, "      <error type=\"%s\" message=\"", golden_status_name(c->status));
			xml_esc(&sb, c->error ? c->error : golden_status_name(c->status));
			strbuf_addstr(&sb, "\">");
			xml_esc(&sb, body.buf);
			strbuf_addstr(&sb, "</error>\n");
		} else {
			strbuf_addstr(&sb, "      <system-out>");
			xml_esc(&sb, body.buf);
			strbuf_addstr(&sb, "</system-out>\n");
		}
		strbuf_addstr(&sb, "    </testcase>\n");
	}
	strbuf_addstr(&sb, "  </testsuite>\n</testsuites>\n");
	ret = put(fp, &sb);
	strbuf_release(&sb);
	strbuf_release(&body);
	return ret;
}

/* --- Markdown --- */

/* Text in a table cell or a list item: one line, no '|' that ends the cell. */
static void md_cell(struct strbuf *sb, const char *s)
{
	struct strbuf e = STRBUF_INIT;

	if (!s)
		return;
	strbuf_add_cescaped(&e, s, strlen(s), 0, CESC_KEEP_BACKSLASH);
	for (const char *p = e.buf; *p; p++) {
		if (*p == '|')
			strbuf_addstr(sb, "\\|");
		else
			strbuf_addch(sb, *p);
	}
	strbuf_release(&e);
}

/* Text in `code`: one line, backticks (which would end it) as quotes. */
static void md_code(struct strbuf *sb, const char *s)
{
	struct strbuf e = STRBUF_INIT;

	if (!s)
		return;
	strbuf_add_cescaped(&e, s, strlen(s), 0, CESC_KEEP_BACKSLASH);
	strbuf_addch(sb, '`');
	for (const char *p = e.buf; *p; p++)
		strbuf_addch(sb, *p == '`' ? '\'' : *p);
	strbuf_addch(sb, '`');
	strbuf_release(&e);
}

/* A fence longer than any run of backticks in s, so that s cannot end it. */
static size_t fence_len(const char *s)
{
	size_t run = 0, max = 0;

	for (; *s; s++) {
		run = *s == '`' ? run + 1 : 0;
		if (run > max)
			max = run;
	}
	return max < 3 ? 3 : max + 1;
}

/* Appends s cut to about max bytes (at a UTF-8 boundary, "..." added). */
static void md_cut(struct strbuf *sb, const char *s, size_t max)
{
	size_t len = strlen(s);
	char *cut;

	if (len <= max) {
		md_cell(sb, s);
		return;
	}
	while (max && ((unsigned char)s[max] & 0xc0) == 0x80)
		max--;
	cut = xstrndup(s, max);
	md_cell(sb, cut);
	strbuf_addstr(sb, "...");
	free(cut);
}

const struct gsource *gout_main_source(const struct gfinding *f)
{
	const struct gsource *best = NULL;

	/* a line of the current run's code that made more calls, else the
	 * largest change */
	for (size_t i = 0; i < f->nsources; i++) {
		const struct gsource *s = &f->sources[i];
		if (s->current > s->golden && (!best || s->current - s->golden > best->current - best->golden))
			best = s;
	}
	if (best)
		return best;
	for (size_t i = 0; i < f->nsources; i++)
		if (!best || fabs(f->sources[i].current - f->sources[i].golden) >
			     fabs(best->current - best->golden))
			best = &f->sources[i];
	return best;
}

/* The "What changed" cell: the first regression, where it comes from, how many more. */
static void md_changed(struct strbuf *sb, const struct gout_case *c)
{
	const struct gfinding *first = NULL;
	size_t nreg = 0;

	if (c->error) {
		md_cut(sb, c->error, 160);
		return;
	}
	for (size_t i = 0; c->r && i < c->r->nf; i++)
		if (c->r->f[i].regression && !nreg++)
			first = &c->r->f[i];
	if (!first) {
		strbuf_addstr(sb, c->status == GOLDEN_OK ? "" : "-");
		return;
	}
	strbuf_addf(sb, "**%s**: ", gfind_kind_name(first->kind));
	if (first->proc) {
		strbuf_addch(sb, '[');
		md_cell(sb, first->proc);
		strbuf_addstr(sb, "] ");
	}
	md_cut(sb, first->message, 140);
	{
		const struct gsource *src = gout_main_source(first);
		if (src && src->where && !strstr(first->message, src->where)) {
			strbuf_addstr(sb, " at ");
			md_code(sb, src->where);
		}
	}
	if (nreg > 1)
		strbuf_addf(sb, " (and %zu more)", nreg - 1);
}

static void md_delta(struct strbuf *sb, double g, double c, const char *unit, int prec)
{
	strbuf_addf(sb, "%.*f%s \xe2\x86\x92 %.*f%s", prec, g, unit, prec, c, unit);
	if (g > 0 && fabs(c - g) / g >= 0.005)
		strbuf_addf(sb, " (%+.0f%%)", 100.0 * (c - g) / g);
}

int gout_markdown(FILE *fp, const struct gout_case *k, size_t n, const struct golden_opts *o)
{
	return gout_markdown_ci(fp, k, n, o, NULL);
}

int gout_markdown_ci(FILE *fp, const struct gout_case *k, size_t n, const struct golden_opts *o,
		     const struct gout_ci *ci)
{
	struct strbuf sb = STRBUF_INIT;
	size_t pass = 0;
	int ret;

	for (size_t i = 0; i < n; i++)
		pass += k[i].status == GOLDEN_OK;
	strbuf_addf(&sb, "## renacer golden traces: %s %zu passed, %zu failed\n\n",
		    pass == n ? "\xe2\x9c\x85" : "\xe2\x9d\x8c", pass, n - pass);
	strbuf_addstr(&sb, "| Trace | Result | What changed | Syscalls (golden \xe2\x86\x92 current) "
		      "| Runtime (golden \xe2\x86\x92 current) |\n");
	strbuf_addstr(&sb, "|---|---|---|---:|---:|\n");
	for (size_t i = 0; i < n; i++) {
		const struct gout_case *c = &k[i];
		strbuf_addstr(&sb, "| ");
		md_cell(&sb, c->name);
		strbuf_addf(&sb, " | %s %s | ", c->status == GOLDEN_OK ? "\xe2\x9c\x85" : "\xe2\x9d\x8c",
			    golden_status_name(c->status));
		md_changed(&sb, c);
		if (c->r) {
			strbuf_addstr(&sb, " | ");
			md_delta(&sb, (double)c->r->g_calls, (double)c->r->c_calls, "", 0);
			strbuf_addstr(&sb, " | ");
			md_delta(&sb, c->r->untraced ? c->r->g_net_ms : c->r->g_wall_ms,
				 c->r->untraced ? c->r->c_net_ms : c->r->c_wall_ms, "ms", 2);
			strbuf_addstr(&sb, " |\n");
		} else {
			strbuf_addstr(&sb, " | - | - |\n");
		}
	}
	if (ci && ci->html) {
		const char *b = strrchr(ci->html, '/');
		strbuf_addstr(&sb, "\nThe whole report is ");
		md_code(&sb, b ? b + 1 : ci->html);
		if (ci->artifact_url) {
			strbuf_addstr(&sb, " in [this run's artifacts](");
			for (const char *p = ci->artifact_url; *p; p++)
				if ((unsigned char)*p > ' ' && *p != ')' && *p != '(')
					strbuf_addch(&sb, *p);
			strbuf_addstr(&sb, ")");
		} else {
			strbuf_addstr(&sb, " in this run's artifacts");
		}
		strbuf_addstr(&sb, ": the findings with their source lines, a timeline of both runs, "
			      "syscall bars, the call diff and a differential flame graph.\n");
	}
	for (size_t i = 0; i < n; i++) {
		const struct gout_case *c = &k[i];
		size_t left = o->max_diff_lines;

		if (c->status == GOLDEN_OK)
			continue;
		strbuf_addstr(&sb, "\n### \xe2\x9d\x8c ");
		md_cell(&sb, c->name);
		strbuf_addf(&sb, ": %s\n\n", golden_status_name(c->status));
		if (c->error) {
			strbuf_addstr(&sb, "- ");
			md_cell(&sb, c->error);
			strbuf_addch(&sb, '\n');
		}
		for (size_t j = 0; c->r && j < c->r->nf; j++) {
			const struct gfinding *f = &c->r->f[j];
			strbuf_addf(&sb, "- **%s** %s", gfind_kind_name(f->kind),
				    f->regression ? "" : "(note) ");
			if (f->proc) {
				md_code(&sb, f->proc);
				strbuf_addch(&sb, ' ');
			}
			md_code(&sb, f->message);
			strbuf_addch(&sb, '\n');
			for (const char *p = f->detail; p && *p;) {
				const char *nl = strchr(p, '\n');
				size_t len = nl ? (size_t)(nl - p) : strlen(p);
				char *line = xstrndup(p, len);

				strbuf_addstr(&sb, "  - ");
				md_code(&sb, line);
				strbuf_addch(&sb, '\n');
				free(line);
				p += len + (nl != NULL);
			}
		}
		for (size_t j = 0; c->r && j < c->r->npd; j++) {
			const struct gproc_diff *d = &c->r->pd[j];
			struct strbuf df = STRBUF_INIT;
			gout_unified(&df, c->r, d, c->g, c->c, "golden", "current",
				     o->max_diff_lines ? &left : NULL, false);
			if (df.len) {
				size_t fl = fence_len(df.buf);

				strbuf_addstr(&sb, "\n<details><summary>diff of process ");
				{
					/* inside HTML: no markup from the label */
					struct strbuf e = STRBUF_INIT;
					strbuf_add_cescaped(&e, d->label, strlen(d->label), 0,
							    CESC_KEEP_BACKSLASH);
					strbuf_add_xml(&sb, e.buf, e.len);
					strbuf_release(&e);
				}
				strbuf_addstr(&sb, "</summary>\n\n");
				strbuf_addchars(&sb, '`', fl);
				strbuf_addstr(&sb, "diff\n");
				strbuf_add(&sb, df.buf, df.len);
				strbuf_addchars(&sb, '`', fl);
				strbuf_addstr(&sb, "\n\n</details>\n");
			}
			strbuf_release(&df);
		}
		if (c->hint) {
			strbuf_addstr(&sb, "\n");
			md_cell(&sb, c->hint);
			strbuf_addch(&sb, '\n');
		}
	}
	ret = put(fp, &sb);
	strbuf_release(&sb);
	return ret;
}
