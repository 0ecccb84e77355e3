/* Text, JSON, JUnit and Markdown renderings of golden comparisons (see output.h). */
#include "golden/output.h"
#include "util/quote.h"
#include "util/strbuf.h"
#include "util/xmalloc.h"

#include <jansson.h>
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
	}
	return "?";
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
	strbuf_addstr(sb, p->label);
	if (p->exe && !p->is_thread) {
		strbuf_addstr(sb, " ");
		strbuf_addstr(sb, p->exe);
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

void gout_unified(struct strbuf *sb, const struct gresult *r, const struct gproc_diff *d,
		  const struct gmodel *g, const struct gmodel *c, const char *gname,
		  const char *cname, unsigned max, bool color)
{
	const struct gproc *gp = d->g, *cp = d->c, *any = gp ? gp : cp;
	unsigned lines = 0;
	size_t skipped = 0;

	(void)r;
	if (!d->added && !d->removed)
		return;
	if (color)
		strbuf_addstr(sb, C_BOLD);
	strbuf_addf(sb, "--- %s ", gname);
	if (gp)
		proc_title(sb, gp);
	else
		strbuf_addstr(sb, "(no such process)");
	strbuf_addch(sb, '\n');
	strbuf_addf(sb, "+++ %s ", cname);
	if (cp)
		proc_title(sb, cp);
	else
		strbuf_addstr(sb, "(no such process)");
	if (color)
		strbuf_addstr(sb, C_RESET);
	strbuf_addch(sb, '\n');
	(void)any;
	if (!gp || !cp) {
		/* a whole process added or removed */
		uint32_t np = gp ? d->ng : d->nc;
		char sign = gp ? '-' : '+';
		if (color)
			strbuf_addstr(sb, C_CYAN);
		strbuf_addf(sb, "@@ -%s%u +%s%u @@",
			    gp ? "1," : "0,", gp ? np : 0, cp ? "1," : "0,", cp ? np : 0);
		if (color)
			strbuf_addstr(sb, C_RESET);
		strbuf_addch(sb, '\n');
		for (uint32_t i = 0; i < np; i++) {
			if (max && lines >= max) {
				skipped = np - i;
				break;
			}
			if (color)
				strbuf_addstr(sb, gp ? C_RED : C_GREEN);
			strbuf_addch(sb, sign);
			strbuf_addstr(sb, gp ? gkey(g, d, i) : ckey(c, d, i));
			if (color)
				strbuf_addstr(sb, C_RESET);
			strbuf_addch(sb, '\n');
			lines++;
		}
	} else {
		for (size_t h = 0; h < d->nhunks; h++) {
			const struct gdiff_hunk *hk = &d->hunks[h];
			size_t i = hk->a0, j = hk->b0, ie = hk->a0 + hk->na, je = hk->b0 + hk->nb;
			if (max && lines >= max) {
				for (size_t k = h; k < d->nhunks; k++)
					skipped += d->hunks[k].na + d->hunks[k].nb;
				break;
			}
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
			while (i < ie || j < je) {
				if (i < ie && d->chg_g[i]) {
					if (color)
						strbuf_addstr(sb, C_RED);
					strbuf_addch(sb, '-');
					strbuf_addstr(sb, gkey(g, d, i));
					if (color)
						strbuf_addstr(sb, C_RESET);
					i++;
				} else if (j < je && d->chg_c[j]) {
					if (color)
						strbuf_addstr(sb, C_GREEN);
					strbuf_addch(sb, '+');
					strbuf_addstr(sb, ckey(c, d, j));
					if (color)
						strbuf_addstr(sb, C_RESET);
					j++;
				} else {
					strbuf_addch(sb, ' ');
					strbuf_addstr(sb, gkey(g, d, i < ie ? i : ie - 1));
					i++;
					j++;
				}
				strbuf_addch(sb, '\n');
				lines++;
			}
		}
	}
	if (skipped)
		strbuf_addf(sb, "... %zu more diff lines not shown\n", skipped);
}

/* --- text --- */

static void text_summary_line(struct strbuf *sb, const struct gout_case *k, bool color)
{
	const struct gresult *r = k->r;

	if (k->status == GOLDEN_OK) {
		strbuf_addf(sb, "\xe2\x9c\x85 %s: equivalent", k->name);
	} else {
		if (color)
			strbuf_addstr(sb, C_RED C_BOLD);
		strbuf_addf(sb, "\xe2\x9d\x8c %s: %s", k->name, golden_status_name(k->status));
		if (color)
			strbuf_addstr(sb, C_RESET);
	}
	if (r) {
		strbuf_addf(sb, " (confidence %.3f, %llu syscalls, golden %llu; %.2fms, golden %.2fms)",
			    r->confidence, (unsigned long long)r->c_calls,
			    (unsigned long long)r->g_calls, r->c_wall_ms, r->g_wall_ms);
	}
	strbuf_addch(sb, '\n');
}

void gout_text(FILE *fp, const struct gout_case *k, const struct golden_opts *o, bool color)
{
	struct strbuf sb = STRBUF_INIT;
	const struct gresult *r = k->r;

	text_summary_line(&sb, k, color);
	if (k->error)
		strbuf_addf(&sb, "   %s\n", k->error);
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
			if (f->proc)
				strbuf_addf(&sb, "[%s] ", f->proc);
			strbuf_addstr(&sb, f->message);
			strbuf_addch(&sb, '\n');
			for (const char *p = f->detail; p && *p;) {
				const char *nl = strchr(p, '\n');
				size_t len = nl ? (size_t)(nl - p) : strlen(p);
				strbuf_addstr(&sb, "       ");
				strbuf_add(&sb, p, len);
				strbuf_addch(&sb, '\n');
				p += len + (nl != NULL);
			}
		}
		if (k->status != GOLDEN_OK) {
			strbuf_addf(&sb, "   confidence %.3f = 0.50 x sequence %.3f + 0.25 x counts %.3f"
				    " + 0.25 x resources %.3f (min %.2f)\n", r->confidence,
				    r->s_seq, r->s_cnt, r->s_res, r->min_confidence);
			if (r->timing_checked && r->g_net_ms >= 0 && r->c_net_ms >= 0)
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
					     o->max_diff_lines, color);
		}
	}
	if (k->hint)
		strbuf_addf(&sb, "   %s\n", k->hint);
	fwrite(sb.buf, 1, sb.len, fp);
	fflush(fp);
	strbuf_release(&sb);
}

/* --- JSON --- */

static json_t *jstr(const char *s)
{
	return s ? json_string(s) : json_null();
}

static json_t *case_json(const struct gout_case *k, const struct golden_opts *o)
{
	const struct gresult *r = k->r;
	json_t *c = json_object();

	json_object_set_new(c, "name", jstr(k->name));
	json_object_set_new(c, "golden", jstr(k->golden_path));
	json_object_set_new(c, "current", jstr(k->current_path));
	json_object_set_new(c, "status", json_integer(k->status));
	json_object_set_new(c, "result", json_string(golden_status_name(k->status)));
	json_object_set_new(c, "pass", json_boolean(k->status == GOLDEN_OK));
	json_object_set_new(c, "error", jstr(k->error));
	json_object_set_new(c, "hint", jstr(k->hint));
	json_object_set_new(c, "seconds", json_real(k->seconds));
	if (!r)
		return c;
	json_object_set_new(c, "confidence", json_real(r->confidence));
	json_object_set_new(c, "min_confidence", json_real(r->min_confidence));
	json_object_set_new(c, "confidence_parts",
			    json_pack("{s:f,s:f,s:f}", "sequence", r->s_seq, "counts", r->s_cnt,
				      "resources", r->s_res));
	json_object_set_new(c, "regression", json_boolean(r->regression));
	json_object_set_new(c, "syscalls", json_pack("{s:I,s:I}", "golden",
						      (json_int_t)r->g_calls, "current",
						      (json_int_t)r->c_calls));
	json_t *rt = json_pack("{s:f,s:f,s:f,s:i,s:i,s:b}", "golden_ms", r->g_wall_ms,
			       "current_ms", r->c_wall_ms, "spread_ms", r->spread_ms,
			       "golden_runs", r->g_runs, "current_runs", r->c_runs,
			       "checked", r->timing_checked);
	if (r->timing_checked)
		json_object_set_new(rt, "limit_ms", json_real(r->limit_ms));
	if (r->g_net_ms >= 0 && r->c_net_ms >= 0) {
		json_object_set_new(rt, "golden_net_ms", json_real(r->g_net_ms));
		json_object_set_new(rt, "current_net_ms", json_real(r->c_net_ms));
	}
	if (r->g_cpu_ms >= 0 && r->c_cpu_ms >= 0) {
		json_object_set_new(rt, "golden_cpu_ms", json_real(r->g_cpu_ms));
		json_object_set_new(rt, "current_cpu_ms", json_real(r->c_cpu_ms));
	}
	json_object_set_new(c, "runtime", rt);
	json_t *fs = json_array();
	for (size_t i = 0; i < r->nf; i++) {
		const struct gfinding *f = &r->f[i];
		json_t *fo = json_pack("{s:s,s:b,s:b,s:o,s:o,s:s,s:o,s:f,s:f}",
				       "kind", gfind_kind_name(f->kind),
				       "regression", f->regression,
				       "noisy", f->noisy,
				       "process", jstr(f->proc),
				       "subject", jstr(f->subject),
				       "message", f->message,
				       "detail", jstr(f->detail),
				       "golden", f->golden, "current", f->current);
		if (f->nsources) {
			/* -s: the lines the calls came from (docs/source.md) */
			json_t *ss = json_array();
			for (size_t j = 0; j < f->nsources; j++)
				json_array_append_new(ss, json_pack("{s:s,s:f,s:f}",
								    "where", f->sources[j].where,
								    "golden", f->sources[j].golden,
								    "current", f->sources[j].current));
			json_object_set_new(fo, "sources", ss);
		}
		json_array_append_new(fs, fo);
	}
	json_object_set_new(c, "findings", fs);
	json_t *ps = json_array();
	for (size_t i = 0; i < r->npd; i++) {
		const struct gproc_diff *d = &r->pd[i];
		struct strbuf sb = STRBUF_INIT;
		gout_unified(&sb, r, d, k->g, k->c, "golden", "current", o->max_diff_lines, false);
		json_array_append_new(ps, json_pack("{s:s,s:I,s:I,s:I,s:I,s:b,s:s}",
						   "process", d->label,
						   "golden_calls", (json_int_t)d->ng,
						   "current_calls", (json_int_t)d->nc,
						   "added", (json_int_t)d->added,
						   "removed", (json_int_t)d->removed,
						   "exact", d->exact != 0, "diff", sb.buf));
		strbuf_release(&sb);
	}
	json_object_set_new(c, "processes", ps);
	json_t *rows = json_array();
	for (size_t i = 0; i < r->nrows; i++) {
		const struct gcount_row *w = &r->rows[i];
		if (!w->g_all && !w->c_all)
			continue;
		json_array_append_new(rows, json_pack("{s:s,s:I,s:I,s:I,s:I,s:I,s:I}",
						     "syscall", w->name,
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

void gout_json(FILE *fp, const struct gout_case *k, size_t n, const struct golden_opts *o)
{
	json_t *root = json_object(), *arr = json_array();
	size_t pass = 0;

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
	json_dumpf(root, fp, JSON_INDENT(2) | JSON_REAL_PRECISION(6));
	fputc('\n', fp);
	fflush(fp);
	json_decref(root);
}

/* --- JUnit --- */

static void xml_esc(struct strbuf *sb, const char *s)
{
	if (s)
		strbuf_add_xml(sb, s, strlen(s));
}

void gout_junit(FILE *fp, const struct gout_case *k, size_t n, const struct golden_opts *o)
{
	struct strbuf sb = STRBUF_INIT, body = STRBUF_INIT;
	size_t fail = 0, err = 0;
	double total = 0;

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
	fwrite(sb.buf, 1, sb.len, fp);
	fflush(fp);
	strbuf_release(&sb);
	strbuf_release(&body);
}

/* --- Markdown --- */

static void md_cell(struct strbuf *sb, const char *s)
{
	for (; s && *s; s++) {
		if (*s == '|')
			strbuf_addstr(sb, "\\|");
		else if (*s == '\n')
			strbuf_addch(sb, ' ');
		else
			strbuf_addch(sb, *s);
	}
}

void gout_markdown(FILE *fp, const struct gout_case *k, size_t n, const struct golden_opts *o)
{
	struct strbuf sb = STRBUF_INIT;
	size_t pass = 0;

	for (size_t i = 0; i < n; i++)
		pass += k[i].status == GOLDEN_OK;
	strbuf_addf(&sb, "## renacer golden traces: %zu passed, %zu failed\n\n", pass, n - pass);
	strbuf_addstr(&sb, "| Trace | Result | Confidence | Syscalls (golden) | Runtime (golden) |\n");
	strbuf_addstr(&sb, "|---|---|---:|---:|---:|\n");
	for (size_t i = 0; i < n; i++) {
		const struct gout_case *c = &k[i];
		strbuf_addstr(&sb, "| ");
		md_cell(&sb, c->name);
		strbuf_addf(&sb, " | %s %s |", c->status == GOLDEN_OK ? "\xe2\x9c\x85" : "\xe2\x9d\x8c",
			    golden_status_name(c->status));
		if (c->r)
			strbuf_addf(&sb, " %.3f | %llu (%llu) | %.2fms (%.2fms) |\n", c->r->confidence,
				    (unsigned long long)c->r->c_calls,
				    (unsigned long long)c->r->g_calls, c->r->c_wall_ms,
				    c->r->g_wall_ms);
		else
			strbuf_addstr(&sb, " - | - | - |\n");
	}
	for (size_t i = 0; i < n; i++) {
		const struct gout_case *c = &k[i];
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
			if (f->proc)
				strbuf_addf(&sb, "`%s` ", f->proc);
			strbuf_addch(&sb, '`');
			for (const char *p = f->message; *p; p++)
				strbuf_addch(&sb, *p == '`' ? '\'' : *p);
			strbuf_addstr(&sb, "`\n");
			for (const char *p = f->detail; p && *p;) {
				const char *nl = strchr(p, '\n');
				size_t len = nl ? (size_t)(nl - p) : strlen(p);
				strbuf_addstr(&sb, "  - `");
				for (size_t q = 0; q < len; q++)
					strbuf_addch(&sb, p[q] == '`' ? '\'' : p[q]);
				strbuf_addstr(&sb, "`\n");
				p += len + (nl != NULL);
			}
		}
		for (size_t j = 0; c->r && j < c->r->npd; j++) {
			const struct gproc_diff *d = &c->r->pd[j];
			struct strbuf df = STRBUF_INIT;
			gout_unified(&df, c->r, d, c->g, c->c, "golden", "current",
				     o->max_diff_lines, false);
			if (df.len)
				strbuf_addf(&sb, "\n<details><summary>diff of process %s</summary>\n\n"
					    "```diff\n%s```\n\n</details>\n", d->label, df.buf);
			strbuf_release(&df);
		}
		if (c->hint) {
			strbuf_addstr(&sb, "\n");
			md_cell(&sb, c->hint);
			strbuf_addch(&sb, '\n');
		}
	}
	fwrite(sb.buf, 1, sb.len, fp);
	fflush(fp);
	strbuf_release(&sb);
}
