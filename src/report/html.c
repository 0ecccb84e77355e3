/* The self-contained HTML report of golden comparisons (see html.h). */
#include "report/html.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "golden/compare.h"
#include "golden/model.h"
#include "report/flamediff.h"
#include "sink/flamesvg.h"
#include "util/quote.h"
#include "util/xmalloc.h"
#include "util/banned.h"

/* Bounds that keep a page light whatever the traces hold. */
#define MAX_TASK_ROWS 300        /* timeline rows */
#define MAX_BAR_ROWS 40          /* syscalls shown before "more" */
#define MAX_DIFF_ROWS 20000      /* call diff rows after collapsing, per trace */
#define MAX_FINDINGS_KIND 50     /* findings of one kind shown before "N more" */
#define FLAME_MIN_FRACTION (1.0 / 4000)   /* narrower frames are left out */

struct page {
	struct strbuf *sb;
	const struct html_opts *o;
	unsigned ncase;              /* for element ids */
};

/* --- escaping --- */

/* Text from traces and files as HTML: one line (controls escaped as esc() does). */
static void h(struct strbuf *sb, const char *s)
{
	struct strbuf e = STRBUF_INIT;

	if (!s)
		return;
	strbuf_add_cescaped(&e, s, strlen(s), 0, CESC_KEEP_BACKSLASH);
	strbuf_add_xml(sb, e.buf, e.len);
	strbuf_release(&e);
}

/* The same, keeping newlines (a <pre> body). */
static void hml(struct strbuf *sb, const char *s, size_t len)
{
	struct strbuf e = STRBUF_INIT;

	strbuf_add_cescaped(&e, s, len, 0, CESC_KEEP_BACKSLASH | CESC_KEEP_NEWLINE);
	strbuf_add_xml(sb, e.buf, e.len);
	strbuf_release(&e);
}

static void ms(struct strbuf *sb, double v)
{
	if (v >= 100)
		strbuf_addf(sb, "%.1f ms", v);
	else
		strbuf_addf(sb, "%.2f ms", v);
}

/* "+12 (+40.0%)" or "=" */
static void change(struct strbuf *sb, double g, double c, bool time)
{
	if (fabs(c - g) < (time ? 0.0005 : 0.5)) {
		strbuf_addstr(sb, "=");
		return;
	}
	if (time)
		strbuf_addf(sb, "%+.2f ms", c - g);
	else
		strbuf_addf(sb, "%+.0f", c - g);
	if (g > 0)
		strbuf_addf(sb, " (%+.0f%%)", 100.0 * (c - g) / g);
}

/* --- the page around the traces --- */

static const char page_css[] =
"body { font-family: system-ui, sans-serif; margin: 0 24px 40px; color: #222; background: #fff; }\n"
"h1 { font-size: 22px; margin: 18px 0 6px; }\n"
"h2 { font-size: 19px; margin: 28px 0 6px; border-bottom: 1px solid #ddd; padding-bottom: 4px; }\n"
"h3 { font-size: 15px; margin: 18px 0 6px; }\n"
"p.meta, p.note { color: #555; margin: 4px 0; font-size: 13px; }\n"
"code, pre, td.num, .mono { font-family: ui-monospace, monospace; font-size: 12px; }\n"
"table { border-collapse: collapse; font-size: 13px; }\n"
"th, td { border: 1px solid #ddd; padding: 3px 6px; vertical-align: top; text-align: left; }\n"
"th { background: #f4f4f0; }\n"
"td.num { text-align: right; white-space: nowrap; }\n"
".badge { display: inline-block; padding: 1px 8px; border-radius: 9px; color: #fff; font-size: 13px; }\n"
".ok { background: #2a8a3a; } .bad { background: #c62828; } .err { background: #b26a00; }\n"
".gold { background: #8a7a2a; }\n"
"tr.reg td.mark { color: #c62828; font-weight: bold; } tr.note td.mark { color: #8a6d00; }\n"
"tr.noisy td { opacity: 0.75; }\n"
"ul.src { margin: 2px 0; padding-left: 16px; } ul.src li { font-family: ui-monospace, monospace; font-size: 12px; }\n"
"pre.detail { margin: 2px 0; white-space: pre-wrap; }\n"
".bar { background: #eee; height: 7px; width: 160px; margin: 1px 0; }\n"
".bar span { display: block; height: 7px; }\n"
".bar .g { background: #7a8fa8; } .bar .c { background: #e08a3c; }\n"
".legend span { display: inline-block; width: 10px; height: 10px; margin: 0 3px 0 10px; }\n"
"pre.diff { background: #fafafa; border: 1px solid #eee; padding: 6px; overflow-x: auto; margin: 4px 0; }\n"
"pre.diff .a { color: #1a7f37; background: #e6ffec; } pre.diff .d { color: #b3261e; background: #ffebe9; }\n"
"pre.diff .h { color: #0969da; } pre.diff .n { color: #888; }\n"
"svg.timeline { width: 100%; max-width: 1200px; height: auto; }\n"
"svg.timeline text { font-family: ui-monospace, monospace; font-size: 11px; fill: #222; }\n"
".fgbox svg.flame { width: 100%; max-width: 1200px; height: auto; }\n"
".fgbox .ctl { margin: 6px 0; font-size: 13px; }\n"
".fgbox .ctl input { width: 220px; }\n"
".hidden { display: none; }\n";

/* Glue of the page's flame graphs: the weight and width choices, search, reset. */
static const char page_script[] =
"(function () {\n"
"  function boxes() { return document.querySelectorAll('.fgbox'); }\n"
"  function wire(box) {\n"
"    var weight = box.querySelector('select.weight'), width = box.querySelector('select.width');\n"
"    var input = box.querySelector('input.search'), reset = box.querySelector('button.reset');\n"
"    var svgs = box.querySelectorAll('svg.flame');\n"
"    function shown() {\n"
"      var want = (weight ? weight.value : 'calls') + '-' + (width ? width.value : 'current');\n"
"      var hit = null;\n"
"      for (var i = 0; i < svgs.length; i++) {\n"
"        var on = svgs[i].getAttribute('data-view') == want;\n"
"        svgs[i].setAttribute('class', on ? 'flame' : 'flame hidden');\n"
"        if (on) hit = svgs[i];\n"
"      }\n"
"      return hit;\n"
"    }\n"
"    function update() {\n"
"      var s = shown();\n"
"      if (s && s.flame) s.flame.search(input ? input.value : '');\n"
"    }\n"
"    if (weight) weight.onchange = update;\n"
"    if (width) width.onchange = update;\n"
"    if (input) input.oninput = update;\n"
"    if (reset) reset.onclick = function () { var s = shown(); if (s && s.flame) s.flame.unzoom(); };\n"
"    update();\n"
"  }\n"
"  function init() {\n"
"    var svgs = document.querySelectorAll('svg.flame');\n"
"    for (var i = 0; i < svgs.length; i++) flameInit(svgs[i]);\n"
"    var b = boxes();\n"
"    for (var j = 0; j < b.length; j++) wire(b[j]);\n"
"    document.body.setAttribute('data-ready', '1');\n"
"  }\n"
"  if (document.readyState == 'loading') document.addEventListener('DOMContentLoaded', init);\n"
"  else init();\n"
"})();\n";

static const char *badge_class(int status)
{
	return status == GOLDEN_OK ? "ok" : status == GOLDEN_REGRESSION ? "bad" : "err";
}

static void badge(struct strbuf *sb, int status)
{
	strbuf_addf(sb, "<span class=\"badge %s\">%s</span>", badge_class(status),
		    golden_status_name(status));
}

/* The first regression's message (else the first note's, the error, or NULL). */
static const char *headline(const struct gout_case *k)
{
	if (k->error)
		return k->error;
	for (size_t i = 0; k->r && i < k->r->nf; i++)
		if (k->r->f[i].regression)
			return k->r->f[i].message;
	return k->r && k->r->nf && k->status != GOLDEN_OK ? k->r->f[0].message : NULL;
}

static uint64_t calls_of(const struct gout_case *k, bool cur)
{
	if (k->r)
		return cur ? k->r->c_calls : k->r->g_calls;
	return !cur && k->g ? k->g->ncalls : 0;
}

static void summary_table(struct page *pg, const struct html_case *c, size_t n)
{
	struct strbuf *sb = pg->sb;

	strbuf_addstr(sb, "<table class=\"summary\"><tr><th>Trace</th><th>Verdict</th><th>What changed"
		      "</th><th>Syscalls (golden &rarr; current)</th><th>Runtime (golden &rarr; current)"
		      "</th></tr>\n");
	for (size_t i = 0; i < n; i++) {
		const struct gout_case *k = c[i].k;
		const char *hl = headline(k);
		size_t nreg = 0;

		for (size_t j = 0; k->r && j < k->r->nf; j++)
			nreg += k->r->f[j].regression;
		strbuf_addf(sb, "<tr><td><a href=\"#case-%zu\">", i + 1);
		h(sb, k->name);
		strbuf_addstr(sb, "</a></td><td>");
		if (k->r || k->error)
			badge(sb, k->status);
		else
			strbuf_addstr(sb, "<span class=\"badge gold\">golden</span>");
		strbuf_addstr(sb, "</td><td>");
		if (nreg > 1)
			strbuf_addf(sb, "%zu regressions; first: ", nreg);
		h(sb, hl ? hl : k->r ? "nothing" : "");
		strbuf_addstr(sb, "</td><td class=\"num\">");
		if (k->r)
			strbuf_addf(sb, "%" PRIu64 " &rarr; %" PRIu64, calls_of(k, false), calls_of(k, true));
		else if (k->g)
			strbuf_addf(sb, "%" PRIu64, calls_of(k, false));
		strbuf_addstr(sb, "</td><td class=\"num\">");
		if (k->r) {
			ms(sb, k->r->untraced ? k->r->g_net_ms : k->r->g_wall_ms);
			strbuf_addstr(sb, " &rarr; ");
			ms(sb, k->r->untraced ? k->r->c_net_ms : k->r->c_wall_ms);
		} else if (k->g) {
			ms(sb, k->g->timing.runs ? k->g->timing.wall_us.median / 1000.0 :
			   k->g->wall_ns / 1e6);
		}
		strbuf_addstr(sb, "</td></tr>\n");
	}
	strbuf_addstr(sb, "</table>\n");
}

/* --- findings --- */

/* The text report's runtime lines (the time verdict, worded once: output.c). */
static void runtime_line(struct strbuf *sb, const struct gout_case *k)
{
	struct golden_opts o;
	char *buf = NULL;
	size_t len = 0;
	FILE *mf = open_memstream(&buf, &len);

	if (!mf)
		return;
	golden_opts_init(&o);
	o.max_diff_lines = 1;
	gout_text(mf, k, &o, false);
	fclose(mf);
	golden_opts_release(&o);
	for (const char *p = buf; p && *p;) {
		const char *nl = strchr(p, '\n');
		size_t l = nl ? (size_t)(nl - p) : strlen(p);
		if (l > 11 && !strncmp(p, "   runtime", 10)) {
			strbuf_addstr(sb, "<p class=\"meta\">");
			hml(sb, p + 3, l - 3);
			strbuf_addstr(sb, "</p>\n");
		}
		p += l + (nl != NULL);
	}
	free(buf);
}

static void findings(struct page *pg, const struct gout_case *k)
{
	struct strbuf *sb = pg->sb;
	const struct gresult *r = k->r;

	strbuf_addstr(sb, "<h3>Findings</h3>\n");
	if (!r->nf) {
		strbuf_addstr(sb, "<p class=\"note\">None: the run is equivalent to its golden.</p>\n");
		return;
	}
	strbuf_addstr(sb, "<table class=\"findings\"><tr><th></th><th>Kind</th><th>Process</th>"
		      "<th>Finding</th><th>Where the calls come from (golden &rarr; current)</th></tr>\n");
	size_t shown[GF_NKINDS + 1] = { 0 }, more[GF_NKINDS + 1] = { 0 };

	for (size_t i = 0; i < r->nf; i++) {
		const struct gfinding *f = &r->f[i];
		unsigned kd = (unsigned)f->kind < GF_NKINDS ? (unsigned)f->kind : GF_NKINDS;

		/* a trace whose calls all changed has a finding per call */
		if (shown[kd] == MAX_FINDINGS_KIND) {
			more[kd]++;
			continue;
		}
		shown[kd]++;
		strbuf_addf(sb, "<tr class=\"%s%s\" data-kind=\"%s\"><td class=\"mark\">%s</td><td>%s</td>"
			    "<td class=\"mono\">", f->regression ? "reg" : "note",
			    f->noisy ? " noisy" : "", gfind_kind_name(f->kind),
			    f->regression ? "&#x2717;" : "note", gfind_kind_name(f->kind));
		h(sb, f->proc);
		strbuf_addstr(sb, "</td><td>");
		h(sb, f->message);
		if (f->detail && *f->detail) {
			strbuf_addstr(sb, "<pre class=\"detail\">");
			hml(sb, f->detail, strlen(f->detail));
			strbuf_addstr(sb, "</pre>");
		}
		strbuf_addstr(sb, "</td><td>");
		if (f->nsources) {
			strbuf_addstr(sb, "<ul class=\"src\">");
			for (size_t j = 0; j < f->nsources; j++) {
				const struct gsource *s = &f->sources[j];
				strbuf_addstr(sb, "<li>");
				h(sb, s->where);
				if (f->kind == GF_TIME)
					strbuf_addf(sb, ": %.2f &rarr; %.2f ms", s->golden, s->current);
				else
					strbuf_addf(sb, ": %.0f &rarr; %.0f", s->golden, s->current);
				strbuf_addstr(sb, "</li>");
			}
			strbuf_addstr(sb, "</ul>");
		}
		strbuf_addstr(sb, "</td></tr>\n");
	}
	for (unsigned kd = 0; kd <= GF_NKINDS; kd++)
		if (more[kd])
			strbuf_addf(sb, "<tr class=\"more\"><td></td><td>%s</td><td></td><td>%zu more "
				    "findings of this kind (all of them in --format json)</td><td></td></tr>\n",
				    gfind_kind_name((enum gfind_kind)kd), more[kd]);
	strbuf_addstr(sb, "</table>\n");
	strbuf_addf(sb, "<p class=\"meta\">confidence %.3f = 0.50 &times; sequence %.3f + 0.25 &times; "
		    "counts %.3f + 0.25 &times; resources %.3f (minimum %.2f)", r->confidence, r->s_seq,
		    r->s_cnt, r->s_res, r->min_confidence);
	strbuf_addstr(sb, "</p>\n");
	if (r->timing_checked)
		runtime_line(sb, k);
}

/* --- timeline --- */

#define TL_W 1200.0
#define TL_LABEL 190.0
#define TL_GAP 20.0
#define TL_ROW 18.0
#define TL_TOP 40.0

/* The task of v labelled label running name (a row of the timeline), or NULL. */
static const struct rv_task *find_task(const struct runview *v, const char *label, const char *name)
{
	size_t lo = 0, hi = v ? v->ntasks : 0;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		int c = gproc_label_cmp(v->tasks[mid].label, label);
		if (!c) {
			/* labels are unique within a run */
			return !strcmp(v->tasks[mid].name, name) ? &v->tasks[mid] : NULL;
		}
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

/* A row: a task label and the program, in one run or both. */
struct tl_row {
	const char *label, *name;
};

static int tl_row_cmp(const void *a, const void *b)
{
	const struct tl_row *x = a, *y = b;
	int c = gproc_label_cmp(x->label, y->label);
	return c ? c : strcmp(x->name, y->name);
}

static void task_bar(struct strbuf *sb, const struct rv_task *t, double x0, double pw, double T,
		     double y, const char *side)
{
	double x = x0 + (double)t->start_ns / T * pw;
	double w = (double)(t->end_ns > t->start_ns ? t->end_ns - t->start_ns : 0) / T * pw;

	if (w < 1)
		w = 1;
	strbuf_addf(sb, "<g class=\"task\" data-side=\"%s\"><title>", side);
	h(sb, t->label);
	strbuf_addch(sb, ' ');
	h(sb, t->name);
	strbuf_addf(sb, " (%s): %.3f to %.3f ms, %" PRIu64 " calls, %.3f ms in them</title>",
		    side, t->start_ns / 1e6, t->end_ns / 1e6, t->ncalls, t->call_ns / 1e6);
	strbuf_addf(sb, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.0f\" fill=\"%s\"/></g>",
		    x, y + 3, w, TL_ROW - 6, t->thread ? "rgb(176,206,232)" : "rgb(140,180,220)");
	for (size_t i = 0; i < t->nwaits; i++) {
		const struct rv_wait *wt = &t->waits[i];
		double wx = x0 + (double)wt->ts_ns / T * pw, ww = (double)wt->dur_ns / T * pw;

		if (ww < 0.8)
			continue;
		strbuf_addstr(sb, "<rect class=\"wait\" ");
		strbuf_addf(sb, "x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.0f\" fill=\"rgb(40,60,110)\">"
			    "<title>", wx, y + 1, ww, TL_ROW - 2);
		h(sb, wt->name);
		strbuf_addf(sb, ": %.3f ms at %.3f ms</title></rect>", wt->dur_ns / 1e6, wt->ts_ns / 1e6);
	}
	strbuf_addch(sb, '\n');
}

static void axis(struct strbuf *sb, double x0, double pw, double T, const char *head,
		 double wall_ms)
{
	strbuf_addf(sb, "<text x=\"%.1f\" y=\"14\">", x0);
	h(sb, head);
	strbuf_addf(sb, " run, traced: %.2f ms</text>\n", wall_ms);
	for (int i = 0; i <= 4; i++) {
		double x = x0 + pw * i / 4.0;
		strbuf_addf(sb, "<line x1=\"%.1f\" y1=\"30\" x2=\"%.1f\" y2=\"34\" stroke=\"#999\"/>"
			    "<text x=\"%.1f\" y=\"28\" text-anchor=\"%s\">%.2f ms</text>\n", x, x, x,
			    i == 0 ? "start" : i == 4 ? "end" : "middle", T * i / 4.0 / 1e6);
	}
}

static void timeline(struct page *pg, const struct runview *g, const struct runview *c)
{
	struct strbuf *sb = pg->sb;
	struct tl_row *rows = NULL;
	size_t nl = 0, al = 0, shown;
	double T = 1, pw, height;
	bool two = g && c;

	strbuf_addstr(sb, "<h3>Timeline</h3>\n");
	if (!g && !c) {
		strbuf_addstr(sb, "<p class=\"note\">No trace to draw it from.</p>\n");
		return;
	}
	if (g && (double)g->wall_ns > T)
		T = (double)g->wall_ns;
	if (c && (double)c->wall_ns > T)
		T = (double)c->wall_ns;
	/* a row per task, the golden's and the current run's together when
	 * they have the same label and program (as the findings match them) */
	for (size_t i = 0; g && i < g->ntasks; i++) {
		if (g->tasks[i].end_ns > T)
			T = (double)g->tasks[i].end_ns;
		ALLOC_GROW(rows, nl + 1, al);
		rows[nl].label = g->tasks[i].label;
		rows[nl++].name = g->tasks[i].name;
	}
	for (size_t i = 0; c && i < c->ntasks; i++) {
		if (c->tasks[i].end_ns > T)
			T = (double)c->tasks[i].end_ns;
		if (g && find_task(g, c->tasks[i].label, c->tasks[i].name))
			continue;
		ALLOC_GROW(rows, nl + 1, al);
		rows[nl].label = c->tasks[i].label;
		rows[nl++].name = c->tasks[i].name;
	}
	QSORT(rows, nl, tl_row_cmp);
	shown = nl < MAX_TASK_ROWS ? nl : MAX_TASK_ROWS;
	pw = two ? (TL_W - TL_LABEL - TL_GAP - 10) / 2 : TL_W - TL_LABEL - 10;
	height = TL_TOP + (double)shown * TL_ROW + 8;
	strbuf_addf(sb, "<p class=\"note\">Each row is a process or thread, as the findings name it; "
		    "%s on one time scale. A bar is when the task ran; dark marks are the calls it "
		    "spent longest in (where it waited).</p>\n",
		    two ? "the golden run on the left, the current one on the right," : "the run");
	strbuf_addf(sb, "<svg class=\"timeline\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 %.0f "
		    "%.0f\">\n", TL_W, height);
	if (g)
		axis(sb, TL_LABEL, pw, T, "golden", g->wall_ns / 1e6);
	if (c)
		axis(sb, g ? TL_LABEL + pw + TL_GAP : TL_LABEL, pw, T, "current", c->wall_ns / 1e6);
	for (size_t i = 0; i < shown; i++) {
		const struct rv_task *gt = find_task(g, rows[i].label, rows[i].name);
		const struct rv_task *ct = find_task(c, rows[i].label, rows[i].name);
		double y = TL_TOP + (double)i * TL_ROW;

		if (i % 2)
			strbuf_addf(sb, "<rect x=\"0\" y=\"%.1f\" width=\"%.0f\" height=\"%.0f\" "
				    "fill=\"#f6f6f3\"/>", y, TL_W, TL_ROW);
		strbuf_addf(sb, "<text class=\"label\" x=\"4\" y=\"%.1f\">", y + TL_ROW - 5);
		h(sb, rows[i].label);
		strbuf_addch(sb, ' ');
		h(sb, rows[i].name);
		strbuf_addstr(sb, "</text>");
		if (gt)
			task_bar(sb, gt, TL_LABEL, pw, T, y, "golden");
		else if (g)
			strbuf_addf(sb, "<text x=\"%.1f\" y=\"%.1f\" fill=\"#999\">(not in the golden)</text>",
				    TL_LABEL, y + TL_ROW - 5);
		if (ct)
			task_bar(sb, ct, g ? TL_LABEL + pw + TL_GAP : TL_LABEL, pw, T, y, "current");
		else if (c)
			strbuf_addf(sb, "<text x=\"%.1f\" y=\"%.1f\" fill=\"#999\">(gone)</text>",
				    TL_LABEL + pw + TL_GAP, y + TL_ROW - 5);
		strbuf_addch(sb, '\n');
	}
	strbuf_addstr(sb, "</svg>\n");
	if (shown < nl)
		strbuf_addf(sb, "<p class=\"note\">%zu more tasks not drawn.</p>\n", nl - shown);
	free(rows);
}

/* --- per-syscall bars --- */

struct bar_row {
	const char *name;
	double g, c, gt, ct;         /* calls; time in ms */
};

static int bar_cmp(const void *a, const void *b)
{
	const struct bar_row *x = a, *y = b;
	double dx = fabs(x->c - x->g) / (x->g > 1 ? x->g : 1), dy = fabs(y->c - y->g) / (y->g > 1 ? y->g : 1);
	double mx = x->g > x->c ? x->g : x->c, my = y->g > y->c ? y->g : y->c;

	if ((dx > 0) != (dy > 0))
		return dx > 0 ? -1 : 1;
	if (dx != dy)
		return dx > dy ? -1 : 1;
	if (mx != my)
		return mx > my ? -1 : 1;
	return strcmp(x->name, y->name);
}

static void bar(struct strbuf *sb, const char *cls, double v, double max)
{
	strbuf_addf(sb, "<div class=\"bar\"><span class=\"%s\" style=\"width:%.1f%%\"></span></div>", cls,
		    max > 0 ? 100.0 * v / max : 0);
}

static void bars(struct page *pg, const struct gout_case *k)
{
	struct strbuf *sb = pg->sb;
	struct bar_row *rows = NULL;
	size_t n = 0;
	double maxc = 0, maxt = 0;
	bool two = k->r != NULL;

	if (k->r) {
		rows = xcalloc(k->r->nrows + 1, sizeof(*rows));
		for (size_t i = 0; i < k->r->nrows; i++) {
			const struct gcount_row *w = &k->r->rows[i];
			if (!w->g_all && !w->c_all)
				continue;
			rows[n].name = w->name;
			rows[n].g = (double)w->g_all;
			rows[n].c = (double)w->c_all;
			rows[n].gt = w->g_time_us / 1000.0;
			rows[n].ct = w->c_time_us / 1000.0;
			n++;
		}
	} else if (k->g) {
		rows = xcalloc(k->g->names.n + 1, sizeof(*rows));
		for (uint32_t i = 0; i < k->g->names.n; i++) {
			if (!k->g->sc[i].calls)
				continue;
			rows[n].name = intern_str(&k->g->names, i);
			rows[n].g = rows[n].c = (double)k->g->sc[i].calls;
			rows[n].gt = rows[n].ct = k->g->sc[i].time_us / 1000.0;
			n++;
		}
	}
	QSORT(rows, n, bar_cmp);
	for (size_t i = 0; i < n; i++) {
		maxc = fmax(maxc, fmax(rows[i].g, rows[i].c));
		maxt = fmax(maxt, fmax(rows[i].gt, rows[i].ct));
	}
	strbuf_addstr(sb, "<h3>Syscalls</h3>\n");
	if (two)
		strbuf_addstr(sb, "<p class=\"note legend\">Bars: <span class=\"g\" style=\"background:"
			      "#7a8fa8\"></span>golden <span class=\"c\" style=\"background:#e08a3c\">"
			      "</span>current. Syscalls that changed first.</p>\n");
	strbuf_addstr(sb, "<table class=\"bars\"><tr><th>Syscall</th><th>Calls</th><th></th>");
	if (two)
		strbuf_addstr(sb, "<th>Change</th>");
	strbuf_addstr(sb, "<th>Time</th><th></th>");
	if (two)
		strbuf_addstr(sb, "<th>Change</th>");
	strbuf_addstr(sb, "</tr>\n");
	for (size_t i = 0; i < n; i++) {
		const struct bar_row *w = &rows[i];

		if (i == MAX_BAR_ROWS)
			strbuf_addf(sb, "</table>\n<details><summary>%zu more syscalls</summary>\n"
				    "<table class=\"bars\">\n", n - MAX_BAR_ROWS);
		strbuf_addstr(sb, "<tr data-syscall=\"");
		h(sb, w->name);
		strbuf_addstr(sb, "\"><td class=\"mono\">");
		h(sb, w->name);
		strbuf_addf(sb, "</td><td class=\"num\">%.0f", w->g);
		if (two)
			strbuf_addf(sb, "<br>%.0f", w->c);
		strbuf_addstr(sb, "</td><td>");
		bar(sb, "g", w->g, maxc);
		if (two)
			bar(sb, "c", w->c, maxc);
		strbuf_addstr(sb, "</td>");
		if (two) {
			strbuf_addstr(sb, "<td class=\"num\">");
			change(sb, w->g, w->c, false);
			strbuf_addstr(sb, "</td>");
		}
		strbuf_addf(sb, "<td class=\"num\">%.3f ms", w->gt);
		if (two)
			strbuf_addf(sb, "<br>%.3f ms", w->ct);
		strbuf_addstr(sb, "</td><td>");
		bar(sb, "g", w->gt, maxt);
		if (two)
			bar(sb, "c", w->ct, maxt);
		strbuf_addstr(sb, "</td>");
		if (two) {
			strbuf_addstr(sb, "<td class=\"num\">");
			change(sb, w->gt, w->ct, true);
			strbuf_addstr(sb, "</td>");
		}
		strbuf_addstr(sb, "</tr>\n");
	}
	strbuf_addstr(sb, "</table>\n");
	if (n > MAX_BAR_ROWS)
		strbuf_addstr(sb, "</details>\n");
	free(rows);
}

/* --- the call diff, repeated lines collapsed --- */

struct drun {
	struct strbuf *sb;
	char sign;                   /* of the pending run, 0 when none */
	const char *text;
	size_t count;
	size_t rows, left;           /* rows written; rows the page may still take */
	size_t skipped;              /* changed lines not shown */
};

static void drun_flush(struct drun *d)
{
	struct strbuf *sb = d->sb;

	if (!d->sign)
		return;
	if (!d->left) {
		if (d->sign != ' ')
			d->skipped += d->count;
		d->sign = 0;
		return;
	}
	strbuf_addstr(sb, d->sign == '+' ? "<span class=\"a\">" : d->sign == '-' ?
		      "<span class=\"d\">" : "<span>");
	strbuf_addch(sb, d->sign);
	h(sb, d->text);
	if (d->count > 1)
		strbuf_addf(sb, "</span><span class=\"n\">  \xc3\x97%zu</span>\n", d->count);
	else
		strbuf_addstr(sb, "</span>\n");
	d->rows++;
	d->left--;
	d->sign = 0;
}

static void drun_add(struct drun *d, char sign, const char *text)
{
	if (d->sign == sign && (d->text == text || !strcmp(d->text, text))) {
		d->count++;
		return;
	}
	drun_flush(d);
	d->sign = sign;
	d->text = text;
	d->count = 1;
}

static void diff_proc(struct drun *d, const struct gout_case *k, const struct gproc_diff *pd)
{
	const struct gmodel *g = k->g, *c = k->c;
	struct strbuf *sb = d->sb;

	if (!pd->g || !pd->c) {
		uint32_t np = pd->g ? pd->ng : pd->nc;
		for (uint32_t i = 0; i < np; i++)
			drun_add(d, pd->g ? '-' : '+', pd->g ? intern_str(&g->keys, pd->gk[i]) :
				 intern_str(&c->keys, pd->ck[i]));
		drun_flush(d);
		return;
	}
	for (size_t hk = 0; hk < pd->nhunks; hk++) {
		const struct gdiff_hunk *x = &pd->hunks[hk];
		size_t i = x->a0, j = x->b0, ie = x->a0 + x->na, je = x->b0 + x->nb;

		drun_flush(d);
		if (d->left) {
			strbuf_addf(sb, "<span class=\"h\">@@ -%zu,%zu +%zu,%zu @@</span>\n",
				    x->na ? x->a0 + 1 : x->a0, x->na, x->nb ? x->b0 + 1 : x->b0, x->nb);
			d->left--;
		}
		while (i < ie || j < je) {
			if (i < ie && pd->chg_g[i]) {
				drun_add(d, '-', intern_str(&g->keys, pd->gk[i]));
				i++;
			} else if (j < je && pd->chg_c[j]) {
				drun_add(d, '+', intern_str(&c->keys, pd->ck[j]));
				j++;
			} else {
				drun_add(d, ' ', intern_str(&g->keys, pd->gk[i < ie ? i : ie - 1]));
				i++;
				j++;
			}
		}
		drun_flush(d);
	}
}

static void call_diff(struct page *pg, const struct gout_case *k)
{
	struct strbuf *sb = pg->sb;
	const struct gresult *r = k->r;
	struct drun d;
	size_t changed = 0;

	memset(&d, 0, sizeof(d));
	d.sb = sb;
	d.left = MAX_DIFF_ROWS;
	if (pg->o->o && pg->o->o->max_diff_lines && pg->o->o->max_diff_lines * 4 < d.left)
		d.left = pg->o->o->max_diff_lines * 4;
	strbuf_addstr(sb, "<h3>Call diff</h3>\n");
	for (size_t i = 0; i < r->npd; i++)
		changed += r->pd[i].added || r->pd[i].removed;
	if (!changed) {
		strbuf_addstr(sb, "<p class=\"note\">The call sequences are the same.</p>\n");
		return;
	}
	strbuf_addstr(sb, "<p class=\"note\">Per process, the golden's calls (-) against the current "
		      "run's (+), normalized; a line repeated N times in a row shows once with "
		      "\xc3\x97N.</p>\n");
	for (size_t i = 0; i < r->npd; i++) {
		const struct gproc_diff *pd = &r->pd[i];
		if (!pd->added && !pd->removed)
			continue;
		strbuf_addstr(sb, "<details open><summary class=\"mono\">process ");
		h(sb, pd->label);
		if (pd->g && pd->g->exe) {
			strbuf_addch(sb, ' ');
			h(sb, pd->g->exe);
		} else if (pd->c && pd->c->exe) {
			strbuf_addch(sb, ' ');
			h(sb, pd->c->exe);
		}
		strbuf_addf(sb, ": %zu removed, %zu added%s</summary>\n<pre class=\"diff\">", pd->removed,
			    pd->added, !pd->g ? " (a new process)" : !pd->c ? " (gone)" : "");
		diff_proc(&d, k, pd);
		strbuf_addstr(sb, "</pre></details>\n");
	}
	if (d.skipped || !d.left)
		strbuf_addf(sb, "<p class=\"note\">The diff was cut: %zu more changed lines not shown.</p>\n",
			    d.skipped);
}

/* --- flame graphs --- */

static void flame_box(struct page *pg, const struct runview *g, const struct runview *c)
{
	struct strbuf *sb = pg->sb, id = STRBUF_INIT, attrs = STRBUF_INIT;
	static const char *const weights[2] = { "calls", "time" };
	static const char *const widths[2] = { "current", "golden" };

	strbuf_addstr(sb, "<h3>Differential flame graph</h3>\n");
	if (!g || !c) {
		strbuf_addstr(sb, "<p class=\"note\">It needs the golden's and the current run's traces.</p>\n");
		return;
	}
	struct fdiff *d = fdiff_new(g->stacks, c->stacks, NULL);
	size_t k[FD_NKINDS];

	fdiff_counts(d, FD_CALLS, k);
	strbuf_addf(sb, "<p class=\"note\">The calls of both runs stacked under the programs that made "
		    "them%s. Red: more calls end at the frame than in the golden; blue: fewer; purple: "
		    "frames the golden does not have; green (golden widths): frames the current run "
		    "no longer has. By calls: %zu grew, %zu shrank, %zu new, %zu gone. Click a frame "
		    "to zoom.</p>\n", g->own_frames && c->own_frames ? " and the program's own frames"
		    : " (captured without -s: no frames of the program's own code)", k[FD_GREW],
		    k[FD_SHRANK], k[FD_NEW], k[FD_GONE]);
	strbuf_addf(sb, "<div class=\"fgbox\" id=\"fg%u\"><div class=\"ctl\">Weight <select class=\"weight\">"
		    "<option value=\"calls\">calls</option><option value=\"time\">time</option></select>"
		    " Width <select class=\"width\"><option value=\"current\">current run</option>"
		    "<option value=\"golden\">golden run</option></select> Search <input class=\"search\" "
		    "type=\"search\" placeholder=\"a regular expression\"> <button class=\"reset\" "
		    "type=\"button\">Reset zoom</button></div>\n", pg->ncase);
	for (int w = 0; w < 2; w++)
		for (int v = 0; v < 2; v++) {
			struct fdiff_svg so;

			memset(&so, 0, sizeof(so));
			so.weight = w ? FD_TIME : FD_CALLS;
			so.view = v ? FD_VIEW_GOLDEN : FD_VIEW_CURRENT;
			so.title = w ? "Syscall time, golden against current" :
				       "Syscalls, golden against current";
			strbuf_reset(&id);
			strbuf_addf(&id, "fg%u-%s-%s-", pg->ncase, weights[w], widths[v]);
			so.idp = id.buf;
			so.min_fraction = FLAME_MIN_FRACTION;
			strbuf_reset(&attrs);
			strbuf_addf(&attrs, " data-view=\"%s-%s\"", weights[w], widths[v]);
			so.root_attrs = attrs.buf;
			fdiff_svg(d, &so, sb);
		}
	strbuf_addstr(sb, "</div>\n");
	fdiff_free(d);
	strbuf_release(&id);
	strbuf_release(&attrs);
}

/* A golden shown alone: its own flame graph, by calls and by time. */
static void flame_alone(struct page *pg, const struct runview *g)
{
	struct strbuf *sb = pg->sb, id = STRBUF_INIT;

	strbuf_addstr(sb, "<h3>Flame graph</h3>\n");
	if (!g) {
		strbuf_addstr(sb, "<p class=\"note\">No trace to draw it from.</p>\n");
		return;
	}
	strbuf_addf(sb, "<div class=\"fgbox\" id=\"fg%u\"><div class=\"ctl\">Weight <select class=\"weight\">"
		    "<option value=\"calls\">calls</option><option value=\"time\">time</option></select>"
		    " Search <input class=\"search\" type=\"search\" placeholder=\"a regular expression\">"
		    " <button class=\"reset\" type=\"button\">Reset zoom</button></div>\n", pg->ncase);
	for (int w = 0; w < 2; w++) {
		struct flamesvg_style st;

		memset(&st, 0, sizeof(st));
		st.count = !w;
		st.title = w ? "Syscall time" : "Syscalls";
		strbuf_reset(&id);
		strbuf_addf(&id, "fg%u-%s-", pg->ncase, w ? "time" : "calls");
		st.idp = id.buf;
		st.min_fraction = FLAME_MIN_FRACTION;
		st.root_attrs = w ? " data-view=\"time-current\"" : " data-view=\"calls-current\"";
		flamesvg_write(sb, g->stacks, &st);
	}
	strbuf_addstr(sb, "</div>\n");
	strbuf_release(&id);
}

/* --- one trace --- */

static struct runview *load_view(struct page *pg, const char *path, struct strbuf *why)
{
	struct runview *v = NULL;

	if (!path)
		return NULL;
	if (runview_load(path, pg->o->rv, &v) < 0) {
		strbuf_addstr(why, "cannot read ");
		strbuf_addstr(why, path);
		strbuf_addstr(why, " to draw it; ");
		return NULL;
	}
	return v;
}

static void one_case(struct page *pg, const struct html_case *hc)
{
	struct strbuf *sb = pg->sb, why = STRBUF_INIT;
	const struct gout_case *k = hc->k;
	struct runview *g = load_view(pg, hc->golden_trace, &why);
	struct runview *c = load_view(pg, hc->current_trace, &why);

	strbuf_addf(sb, "<section class=\"case\" id=\"case-%u\" data-status=\"%d\">\n<h2>", pg->ncase,
		    k->status);
	if (k->r || k->error)
		badge(sb, k->status);
	strbuf_addch(sb, ' ');
	h(sb, k->name);
	strbuf_addstr(sb, "</h2>\n<p class=\"meta\">golden <code>");
	h(sb, k->golden_path);
	strbuf_addstr(sb, "</code>");
	if (k->current_path) {
		strbuf_addstr(sb, ", current <code>");
		h(sb, k->current_path);
		strbuf_addstr(sb, "</code>");
	}
	if (k->g && k->g->command) {
		strbuf_addstr(sb, "; command <code>");
		h(sb, k->g->command);
		strbuf_addstr(sb, "</code>");
	}
	strbuf_addstr(sb, "</p>\n");
	if (k->error) {
		strbuf_addstr(sb, "<p class=\"note\"><b>");
		h(sb, k->error);
		strbuf_addstr(sb, "</b></p>\n");
	}
	if (k->hint) {
		strbuf_addstr(sb, "<p class=\"note\">");
		h(sb, k->hint);
		strbuf_addstr(sb, "</p>\n");
	}
	if (why.len) {
		strbuf_setlen(&why, why.len - 2);
		strbuf_addstr(sb, "<p class=\"note\">");
		h(sb, why.buf);
		strbuf_addstr(sb, ".</p>\n");
	}
	if (k->r)
		findings(pg, k);
	if (k->r || k->g)
		timeline(pg, g, k->r ? c : NULL);
	if (k->r || k->g)
		bars(pg, k);
	if (k->r)
		call_diff(pg, k);
	if (k->r)
		flame_box(pg, g, c);
	else if (k->g)
		flame_alone(pg, g);
	strbuf_addstr(sb, "</section>\n");
	runview_free(g);
	runview_free(c);
	strbuf_release(&why);
}

void html_report(struct strbuf *sb, const struct html_case *c, size_t n,
		 const struct html_opts *o)
{
	struct page pg = { sb, o, 0 };
	size_t pass = 0, compared = 0;
	char date[64] = "";
	time_t now = time(NULL);
	struct tm tm;

	for (size_t i = 0; i < n; i++) {
		compared += c[i].k->r != NULL || c[i].k->error != NULL;
		pass += c[i].k->status == GOLDEN_OK && (c[i].k->r || c[i].k->error);
	}
	if (localtime_r(&now, &tm))
		strftime(date, sizeof(date), "%Y-%m-%d %H:%M", &tm);
	strbuf_addstr(sb, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
		      "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
		      "style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:\">\n"
		      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
		      "<link rel=\"icon\" href=\"data:,\">\n<title>");
	if (o->title)
		h(sb, o->title);
	else if (compared)
		strbuf_addf(sb, "renacer: %zu of %zu golden traces equivalent", pass, compared);
	else
		strbuf_addstr(sb, "renacer: golden traces");
	strbuf_addstr(sb, "</title>\n<style>\n");
	strbuf_addstr(sb, page_css);
	strbuf_addstr(sb, flamesvg_css());
	strbuf_addstr(sb, "</style>\n</head>\n<body>\n<h1>");
	if (o->title)
		h(sb, o->title);
	else if (compared)
		strbuf_addf(sb, "renacer golden traces: %zu passed, %zu failed", pass, compared - pass);
	else
		strbuf_addf(sb, "renacer golden traces: %zu", n);
	strbuf_addstr(sb, "</h1>\n<p class=\"meta\">renacer " RENACER_VERSION);
	if (*date)
		strbuf_addf(sb, ", %s", date);
	if (o->command) {
		strbuf_addstr(sb, "; <code>");
		h(sb, o->command);
		strbuf_addstr(sb, "</code>");
	}
	strbuf_addstr(sb, "</p>\n");
	summary_table(&pg, c, n);
	for (size_t i = 0; i < n; i++) {
		pg.ncase = (unsigned)i + 1;
		one_case(&pg, &c[i]);
	}
	strbuf_addstr(sb, "<script>\n");
	strbuf_addstr(sb, flamesvg_script());
	strbuf_addstr(sb, page_script);
	strbuf_addstr(sb, "</script>\n</body>\n</html>\n");
}
