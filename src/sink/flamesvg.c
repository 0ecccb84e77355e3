/*
 * renacer's flame graphs as SVG (see flamesvg.h): one self-contained
 * drawing, styles and script inline, nothing fetched.
 */
#include "sink/flamesvg.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "util/xmalloc.h"
#include "util/banned.h"

#define SVG_W 1200.0
#define FRAME_H 16
#define PAD_TOP 40
#define PAD_TOP_MORE 62      /* with a subtitle or a legend */
#define PAD_BOTTOM 28
#define PAD_X 10.0
#define CHAR_W 7.3           /* 12px monospace */
#define MIN_FRACTION 1e-5    /* narrower frames are left out */

static void xml_text(struct strbuf *sb, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '&': strbuf_addstr(sb, "&amp;"); break;
		case '<': strbuf_addstr(sb, "&lt;"); break;
		case '>': strbuf_addstr(sb, "&gt;"); break;
		case '"': strbuf_addstr(sb, "&quot;"); break;
		case '\'': strbuf_addstr(sb, "&#39;"); break;
		default:
			if ((unsigned char)*s < 0x20)
				strbuf_addch(sb, ' ');
			else
				strbuf_addch(sb, *s);
		}
	}
}

static int by_name(const void *a, const void *b)
{
	const struct pnode *x = *(const struct pnode *const *)a, *y = *(const struct pnode *const *)b;
	return strcmp(x->name, y->name);
}

/*
 * A warm colour from the name for the program's functions, blue for the
 * syscalls (the leaves), grey for "[module]" stand-ins (no own frame).
 */
static void colour(struct strbuf *sb, const struct pnode *n, const char *name)
{
	uint32_t h = 2166136261u;

	for (const char *s = name; *s; s++) {
		h ^= (unsigned char)*s;
		h *= 16777619u;
	}
	if (n->parent && !n->child)
		strbuf_addf(sb, "rgb(%u,%u,%u)", 80 + h % 40, 140 + (h >> 8) % 50, 220 + (h >> 16) % 35);
	else if (name[0] == '[')
		strbuf_addf(sb, "rgb(%u,%u,%u)", 170 + h % 30, 170 + h % 30, 170 + h % 30);
	else
		strbuf_addf(sb, "rgb(%u,%u,%u)", 205 + h % 50, 80 + (h >> 8) % 130, 40 + (h >> 16) % 40);
}

/* The label that fits in width px: the name, cut with "..", or nothing. */
static void label(struct strbuf *sb, const char *name, double width)
{
	size_t fit = width > 6 ? (size_t)((width - 6) / CHAR_W) : 0, len = strlen(name);
	char *cut;

	if (fit < 3)
		return;
	if (len <= fit) {
		xml_text(sb, name);
		return;
	}
	cut = xstrndup(name, fit - 2);
	xml_text(sb, cut);
	strbuf_addstr(sb, "..");
	free(cut);
}

struct layout {
	struct strbuf *sb;
	const struct flamesvg_style *st;
	uint64_t total;
	double height;
	double min_fraction;
	uint32_t depth;          /* deepest frame drawn */
	struct strbuf tmp;
};

static uint64_t weight(const struct layout *l, const struct pnode *n)
{
	if (l->st->weight)
		return l->st->weight(n, l->st->ctx);
	return l->st->count ? n->calls : n->ns;
}

static void frame(struct layout *l, const struct pnode *n, const char *name, uint64_t x0,
		  uint64_t w)
{
	const struct flamesvg_style *st = l->st;
	double fx = l->total ? (double)x0 / (double)l->total : 0;
	double fw = l->total ? (double)w / (double)l->total : 1;
	double px = PAD_X + fx * (SVG_W - 2 * PAD_X), pw = fw * (SVG_W - 2 * PAD_X);
	double y = l->height - PAD_BOTTOM - (double)(n->depth + 1) * FRAME_H;
	struct strbuf *sb = l->sb;

	strbuf_addf(sb, "<g class=\"f\" data-x=\"%.9f\" data-w=\"%.9f\" data-d=\"%u\" data-v=\"%" PRIu64
		    "\" data-c=\"%" PRIu64 "\"", fx, fw, n->depth, w, n->calls);
	if (st->attrs)
		st->attrs(sb, n, st->ctx);
	strbuf_reset(&l->tmp);
	if (st->tip) {
		st->tip(&l->tmp, n, w, l->total, st->ctx);
		strbuf_addstr(sb, " data-t=\"");
		xml_text(sb, l->tmp.buf);
		strbuf_addch(sb, '"');
	}
	strbuf_addstr(sb, " data-n=\"");
	xml_text(sb, name);
	strbuf_addstr(sb, "\"><title>");
	if (st->tip) {
		xml_text(sb, l->tmp.buf);
	} else {
		xml_text(sb, name);
		if (st->count)
			strbuf_addf(sb, " (%" PRIu64 " calls, %.2f%%)", w,
				    l->total ? 100.0 * (double)w / (double)l->total : 0);
		else
			strbuf_addf(sb, " (%.3f ms, %" PRIu64 " calls, %.2f%%)", w / 1e6, n->calls,
				    l->total ? 100.0 * (double)w / (double)l->total : 0);
	}
	strbuf_addf(sb, "</title><rect x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" height=\"%d\" rx=\"2\" fill=\"",
		    px, y, pw, FRAME_H - 1);
	if (st->fill)
		st->fill(sb, n, st->ctx);
	else
		colour(sb, n, name);
	strbuf_addf(sb, "\"/><text x=\"%.2f\" y=\"%.1f\">", px + 3, y + FRAME_H - 4.5);
	label(sb, name, pw);
	strbuf_addstr(sb, "</text></g>\n");
}

static void frames(struct layout *l, const struct pnode *n, uint64_t x0)
{
	const struct pnode **kids = NULL;
	size_t nk = 0, ak = 0;
	uint64_t x = x0;

	for (const struct pnode *c = n->child; c; c = c->next) {
		ALLOC_GROW(kids, nk + 1, ak);
		kids[nk++] = c;
	}
	QSORT(kids, nk, by_name);
	for (size_t i = 0; i < nk; i++) {
		uint64_t w = weight(l, kids[i]);
		if (w && l->total && (double)w / (double)l->total >= l->min_fraction) {
			frame(l, kids[i], kids[i]->name, x, w);
			frames(l, kids[i], x);
		}
		x += w;
	}
	free(kids);
}

/* The depth of the deepest frame that will be drawn under n. */
static uint32_t drawn_depth(const struct layout *l, const struct pnode *n)
{
	uint32_t m = n->depth;

	for (const struct pnode *c = n->child; c; c = c->next) {
		uint64_t w = weight(l, c);
		if (w && l->total && (double)w / (double)l->total >= l->min_fraction) {
			uint32_t d = drawn_depth(l, c);
			if (d > m)
				m = d;
		}
	}
	return m;
}

static const char svg_script[] =
"function flameInit(svg) {\n"
"  if (svg.flame) return svg.flame;\n"
"  var doc = svg.ownerDocument, idp = svg.getAttribute('data-idp') || '';\n"
"  var standalone = svg === doc.documentElement;\n"
"  function byId(k) { return doc.getElementById(idp + k); }\n"
"  var frames = svg.querySelectorAll('g.f'), details = byId('details');\n"
"  var unzoomText = byId('unzoom'), searchText = byId('search'), matched = byId('matched');\n"
"  var W = 1200, PAD = 10, CHAR_W = 7.3, total = 0, zoomed = null, searching = '';\n"
"  function attr(g, k) { return g.getAttribute('data-' + k); }\n"
"  function num(g, k) { return parseFloat(attr(g, k)); }\n"
"  function show(el, on) {\n"
"    if (!el) return;\n"
"    var c = (el.getAttribute('class') || '').replace(/(^| )hide( |$)/, ' ').trim();\n"
"    el.setAttribute('class', on ? c : (c ? c + ' hide' : 'hide'));\n"
"  }\n"
"  function fmt(g) {\n"
"    var t = attr(g, 't');\n"
"    if (t) return t;\n"
"    var v = num(g, 'v'), pct = total ? (100 * v / total).toFixed(2) : '0.00';\n"
"    var s = svg.getAttribute('data-unit') == 'calls' ? v + ' calls' :\n"
"        (v / 1e6).toFixed(3) + ' ms, ' + attr(g, 'c') + ' calls';\n"
"    var r = attr(g, 'n') + ' (' + s + ', ' + pct + '% of all';\n"
"    if (zoomed && zoomed !== g && num(zoomed, 'v'))\n"
"      r += ', ' + (100 * v / num(zoomed, 'v')).toFixed(2) + '% of ' + attr(zoomed, 'n');\n"
"    return r + ')';\n"
"  }\n"
"  function fit(g, width) {\n"
"    var t = g.getElementsByTagName('text')[0], name = attr(g, 'n');\n"
"    var n = width > 6 ? Math.floor((width - 6) / CHAR_W) : 0;\n"
"    t.textContent = n < 3 ? '' : name.length <= n ? name : name.substring(0, n - 2) + '..';\n"
"  }\n"
"  function place(g, x, w) {\n"
"    var r = g.getElementsByTagName('rect')[0], t = g.getElementsByTagName('text')[0];\n"
"    var px = PAD + x * (W - 2 * PAD), pw = w * (W - 2 * PAD);\n"
"    r.setAttribute('x', px.toFixed(2)); r.setAttribute('width', pw.toFixed(2));\n"
"    t.setAttribute('x', (px + 3).toFixed(2));\n"
"    fit(g, pw);\n"
"  }\n"
"  function say(s) { if (details) details.textContent = s; }\n"
"  function zoom(g) {\n"
"    var zx = num(g, 'x'), zw = num(g, 'w'), zd = num(g, 'd'), eps = 1e-9;\n"
"    zoomed = g;\n"
"    for (var i = 0; i < frames.length; i++) {\n"
"      var f = frames[i], x = num(f, 'x'), w = num(f, 'w'), d = num(f, 'd');\n"
"      if (d >= zd && x >= zx - eps && x + w <= zx + zw + eps) {\n"
"        f.setAttribute('class', 'f');\n"
"        place(f, (x - zx) / zw, w / zw);\n"
"      } else if (d < zd && x <= zx + eps && x + w >= zx + zw - eps) {\n"
"        f.setAttribute('class', 'f parent');\n"
"        place(f, 0, 1);\n"
"      } else {\n"
"        f.setAttribute('class', 'f hide');\n"
"      }\n"
"    }\n"
"    show(unzoomText, true);\n"
"    svg.setAttribute('data-zoomed', attr(g, 'n'));\n"
"    say('Zoomed into ' + fmt(g));\n"
"  }\n"
"  function unzoom() {\n"
"    zoomed = null;\n"
"    for (var i = 0; i < frames.length; i++) {\n"
"      frames[i].setAttribute('class', 'f');\n"
"      place(frames[i], num(frames[i], 'x'), num(frames[i], 'w'));\n"
"    }\n"
"    show(unzoomText, false);\n"
"    svg.removeAttribute('data-zoomed');\n"
"    say(' ');\n"
"  }\n"
"  function search(term) {\n"
"    var re = null, hits = [], spans = [], cover = 0, i, j;\n"
"    if (term) {\n"
"      try { re = new RegExp(term); }\n"
"      catch (e) { re = new RegExp(term.replace(/[.*+?^${}()|[\\]\\\\]/g, '\\\\$&')); }\n"
"    }\n"
"    for (i = 0; i < frames.length; i++) {\n"
"      if (re && num(frames[i], 'd') > 0 && re.test(attr(frames[i], 'n'))) {\n"
"        frames[i].setAttribute('data-m', '1');\n"
"        hits.push(frames[i]);\n"
"      } else {\n"
"        frames[i].removeAttribute('data-m');\n"
"      }\n"
"    }\n"
"    hits.sort(function (a, b) { return num(a, 'd') - num(b, 'd'); });\n"
"    for (i = 0; i < hits.length; i++) {\n"
"      var x = num(hits[i], 'x'), w = num(hits[i], 'w'), inside = false;\n"
"      for (j = 0; j < spans.length && !inside; j++)\n"
"        inside = x >= spans[j][0] - 1e-9 && x + w <= spans[j][1] + 1e-9;\n"
"      if (!inside) { spans.push([x, x + w]); cover += w; }\n"
"    }\n"
"    searching = re ? term : '';\n"
"    if (re) svg.setAttribute('data-matched', String(hits.length));\n"
"    else svg.removeAttribute('data-matched');\n"
"    if (matched) matched.textContent = re ? 'Matched: ' + (100 * cover).toFixed(1) + '% in ' +\n"
"        hits.length + ' frame' + (hits.length == 1 ? '' : 's') : ' ';\n"
"    if (searchText) searchText.textContent = re ? 'Reset search' : 'Search';\n"
"    return hits.length;\n"
"  }\n"
"  for (var i = 0; i < frames.length; i++) {\n"
"    var f = frames[i];\n"
"    if (num(f, 'd') == 0) total = num(f, 'v');\n"
"    f.onmouseover = function () { say(fmt(this)); };\n"
"    f.onmouseout = function () { say(zoomed ? 'Zoomed into ' + fmt(zoomed) : ' '); };\n"
"    f.onclick = function () { zoom(this); };\n"
"  }\n"
"  if (unzoomText) unzoomText.onclick = unzoom;\n"
"  if (searchText) searchText.onclick = function () {\n"
"    if (searching) { search(''); return; }\n"
"    var t = window.prompt('Search frames (a regular expression)', '');\n"
"    if (t) search(t);\n"
"  };\n"
"  svg.flame = { zoom: zoom, unzoom: unzoom, search: search, frames: frames };\n"
"  if (standalone) {\n"
"    var named = function (want) {\n"
"      var best = null;\n"
"      for (var j = 0; j < frames.length; j++)\n"
"        if (attr(frames[j], 'n') == want && (!best || num(frames[j], 'w') > num(best, 'w')))\n"
"          best = frames[j];\n"
"      return best;\n"
"    };\n"
"    var m = /[#&]zoom=([^&]*)/.exec(location.hash);\n"
"    if (m && named(decodeURIComponent(m[1]))) zoom(named(decodeURIComponent(m[1])));\n"
"    var h = /[#&]hover=([^&]*)/.exec(location.hash);\n"
"    if (h && named(decodeURIComponent(h[1]))) say(fmt(named(decodeURIComponent(h[1]))));\n"
"    var s = /[#&]search=([^&]*)/.exec(location.hash);\n"
"    if (s) search(decodeURIComponent(s[1]));\n"
"  }\n"
"  svg.setAttribute('data-ready', '1');\n"
"  return svg.flame;\n"
"}\n";

const char *flamesvg_script(void)
{
	return svg_script;
}

const char *flamesvg_css(void)
{
	return "svg.flame text { font-family: monospace; font-size: 12px; fill: #000; }\n"
	       "svg.flame g.f text { pointer-events: none; }\n"
	       "svg.flame g.f:hover rect { stroke: #000; stroke-width: 0.5; cursor: pointer; }\n"
	       "svg.flame g.parent rect { opacity: 0.5; }\n"
	       "svg.flame g.f[data-m] rect { fill: rgb(230,0,230); }\n"
	       "svg.flame .hide { display: none; }\n"
	       "svg.flame .title { font-size: 16px; }\n"
	       "svg.flame .ctl { cursor: pointer; fill: #06c; }\n";
}

/* Appends id="<prefix>k". */
static void id_attr(struct strbuf *sb, const struct flamesvg_style *st, const char *k)
{
	strbuf_addstr(sb, "id=\"");
	if (st->idp)
		xml_text(sb, st->idp);
	strbuf_addstr(sb, k);
	strbuf_addch(sb, '"');
}

void flamesvg_write(struct strbuf *sb, const struct profile *p, const struct flamesvg_style *st)
{
	const struct pnode *root = profile_root(p);
	struct layout l;
	double top = st->subtitle || st->nkeys ? PAD_TOP_MORE : PAD_TOP;
	const char *unit = st->count ? "calls" : "ns";

	memset(&l, 0, sizeof(l));
	l.sb = sb;
	l.st = st;
	l.min_fraction = st->min_fraction > 0 ? st->min_fraction : MIN_FRACTION;
	strbuf_init(&l.tmp, 128);
	l.total = weight(&l, root);
	l.depth = drawn_depth(&l, root);
	l.height = top + (double)(l.depth + 1) * FRAME_H + PAD_BOTTOM;
	if (!st->idp) {
		strbuf_addf(sb, "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>\n"
			    "<svg version=\"1.1\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" "
			    "height=\"%.0f\" viewBox=\"0 0 %d %.0f\" onload=\"flameInit(document."
			    "documentElement)\" data-unit=\"%s\">\n",
			    (int)SVG_W, l.height, (int)SVG_W, l.height, unit);
		strbuf_addstr(sb, "<!-- renacer flame graph: syscall ");
		strbuf_addstr(sb, st->count ? "calls" : "time");
		strbuf_addstr(sb, " by the program's own stacks (docs/source.md) -->\n");
	} else {
		strbuf_addf(sb, "<svg class=\"flame\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 %d "
			    "%.0f\" data-unit=\"%s\" data-idp=\"", (int)SVG_W, l.height, unit);
		xml_text(sb, st->idp);
		strbuf_addch(sb, '"');
		if (st->root_attrs)
			strbuf_addstr(sb, st->root_attrs);
		strbuf_addstr(sb, ">\n");
	}
	if (!st->idp) {
		strbuf_addstr(sb, "<style type=\"text/css\">\n"
			      "text { font-family: monospace; font-size: 12px; fill: #000; }\n"
			      "g.f text { pointer-events: none; }\n"
			      "g.f:hover rect { stroke: #000; stroke-width: 0.5; cursor: pointer; }\n"
			      "g.parent rect { opacity: 0.5; }\n"
			      "g.f[data-m] rect { fill: rgb(230,0,230); }\n"
			      ".hide { display: none; }\n"
			      "#title { font-size: 16px; }\n"
			      "#unzoom, #search { cursor: pointer; fill: #06c; }\n"
			      "</style>\n");
	}
	if (!st->idp) {
		strbuf_addstr(sb, "<script type=\"text/ecmascript\"><![CDATA[\n");
		strbuf_addstr(sb, svg_script);
		strbuf_addstr(sb, "]]></script>\n");
	}
	strbuf_addf(sb, "<rect x=\"0\" y=\"0\" width=\"%d\" height=\"%.0f\" fill=\"#f8f8f4\"/>\n",
		    (int)SVG_W, l.height);
	strbuf_addstr(sb, "<text ");
	id_attr(sb, st, "title");
	strbuf_addf(sb, "%s x=\"%.0f\" y=\"24\" text-anchor=\"middle\">",
		    st->idp ? " class=\"title\"" : "", SVG_W / 2);
	xml_text(sb, st->title && *st->title ? st->title : "renacer");
	strbuf_addstr(sb, "</text>\n");
	if (st->subtitle) {
		strbuf_addf(sb, "<text x=\"%.0f\" y=\"42\" text-anchor=\"middle\">", SVG_W / 2);
		xml_text(sb, st->subtitle);
		strbuf_addstr(sb, "</text>\n");
	}
	if (st->nkeys) {
		/* the legend, right-aligned on the subtitle's line */
		double x = SVG_W - PAD_X;
		for (size_t i = st->nkeys; i-- > 0;) {
			double tw = (double)strlen(st->keys[i].label) * CHAR_W;
			x -= tw;
			strbuf_addf(sb, "<text x=\"%.1f\" y=\"%d\">", x, st->subtitle ? 58 : 42);
			xml_text(sb, st->keys[i].label);
			strbuf_addstr(sb, "</text>");
			x -= 16;
			strbuf_addf(sb, "<rect x=\"%.1f\" y=\"%d\" width=\"12\" height=\"12\" fill=\"", x,
				    (st->subtitle ? 58 : 42) - 10);
			xml_text(sb, st->keys[i].fill);
			strbuf_addstr(sb, "\" stroke=\"#888\" stroke-width=\"0.5\"/>\n");
			x -= 12;
		}
	}
	strbuf_addstr(sb, "<text ");
	id_attr(sb, st, "unzoom");
	strbuf_addstr(sb, " x=\"10\" y=\"24\" class=\"hide ctl\">Reset zoom</text>\n");
	if (!st->idp) {
		strbuf_addstr(sb, "<text ");
		id_attr(sb, st, "search");
		strbuf_addf(sb, " x=\"%.0f\" y=\"24\" text-anchor=\"end\">Search</text>\n", SVG_W - PAD_X);
	}
	strbuf_addstr(sb, "<text ");
	id_attr(sb, st, "matched");
	strbuf_addf(sb, " x=\"%.0f\" y=\"%.0f\" text-anchor=\"end\"> </text>\n", SVG_W - PAD_X,
		    l.height - 8);
	strbuf_addstr(sb, "<text ");
	id_attr(sb, st, "details");
	strbuf_addf(sb, " x=\"10\" y=\"%.0f\"> </text>\n<g ", l.height - 8);
	id_attr(sb, st, "frames");
	strbuf_addstr(sb, ">\n");
	frame(&l, root, "all", 0, l.total);
	frames(&l, root, 0);
	strbuf_addstr(sb, "</g>\n</svg>\n");
	strbuf_release(&l.tmp);
}

void profile_svg(const struct profile *p, struct strbuf *sb, bool count, const char *title)
{
	struct flamesvg_style st;
	struct strbuf t = STRBUF_INIT;

	memset(&st, 0, sizeof(st));
	st.count = count;
	strbuf_addstr(&t, title && *title ? title : "renacer");
	strbuf_addstr(&t, count ? " (syscalls)" : " (syscall time)");
	st.title = t.buf;
	flamesvg_write(sb, p, &st);
	strbuf_release(&t);
}
