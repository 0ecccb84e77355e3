/*
 * renacer's own flame graph: one self-contained SVG (styles and script
 * inline, nothing fetched).  Frames are drawn bottom up, the root ("all")
 * at the bottom, each as wide as its share of the weight; children sorted
 * by name, as flamegraph.pl does.  Hover shows the frame, its weight and
 * its share; a click zooms into a frame; "Reset zoom" goes back; a URL
 * ending in #zoom=NAME opens zoomed into the widest frame called NAME, and
 * #hover=NAME shows that frame's details as a hover would.
 */
#include "sink/profile.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "util/xmalloc.h"
#include "util/banned.h"

#define SVG_W 1200.0
#define FRAME_H 16
#define PAD_TOP 40
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

static uint64_t weight(const struct pnode *n, bool count)
{
	return count ? n->calls : n->ns;
}

static int by_name(const void *a, const void *b)
{
	const struct pnode *x = *(const struct pnode *const *)a, *y = *(const struct pnode *const *)b;
	return strcmp(x->name, y->name);
}

static uint32_t max_depth(const struct pnode *n)
{
	uint32_t m = n->depth;

	for (const struct pnode *c = n->child; c; c = c->next) {
		uint32_t d = max_depth(c);
		if (d > m)
			m = d;
	}
	return m;
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
	bool count;
	uint64_t total;
	double height;
};

static void frame(struct layout *l, const struct pnode *n, const char *name, double x0,
		  uint64_t w)
{
	double fx = l->total ? (double)x0 / (double)l->total : 0;
	double fw = l->total ? (double)w / (double)l->total : 1;
	double px = PAD_X + fx * (SVG_W - 2 * PAD_X), pw = fw * (SVG_W - 2 * PAD_X);
	double y = l->height - PAD_BOTTOM - (double)(n->depth + 1) * FRAME_H;
	struct strbuf *sb = l->sb;

	strbuf_addf(sb, "<g class=\"f\" data-x=\"%.9f\" data-w=\"%.9f\" data-d=\"%u\" data-v=\"%" PRIu64
		    "\" data-c=\"%" PRIu64 "\" data-n=\"", fx, fw, n->depth, w, n->calls);
	xml_text(sb, name);
	strbuf_addstr(sb, "\"><title>");
	xml_text(sb, name);
	if (l->count)
		strbuf_addf(sb, " (%" PRIu64 " calls, %.2f%%)", w, l->total ? 100.0 * (double)w / (double)l->total : 0);
	else
		strbuf_addf(sb, " (%.3f ms, %" PRIu64 " calls, %.2f%%)", w / 1e6, n->calls,
			    l->total ? 100.0 * (double)w / (double)l->total : 0);
	strbuf_addf(sb, "</title><rect x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" height=\"%d\" rx=\"2\" fill=\"",
		    px, y, pw, FRAME_H - 1);
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
		uint64_t w = weight(kids[i], l->count);
		if (l->total && (double)w / (double)l->total >= MIN_FRACTION) {
			frame(l, kids[i], kids[i]->name, x, w);
			frames(l, kids[i], x);
		}
		x += w;
	}
	free(kids);
}

static const char svg_script[] =
"var frames, details, unzoomText, svg, total, zoomed = null;\n"
"var W = " "1200" ", PAD = 10, CHAR_W = 7.3;\n"
"function attr(g, k) { return g.getAttribute('data-' + k); }\n"
"function num(g, k) { return parseFloat(attr(g, k)); }\n"
"function fmt(g) {\n"
"  var v = num(g, 'v'), pct = total ? (100 * v / total).toFixed(2) : '0.00';\n"
"  var s = svg.getAttribute('data-unit') == 'calls' ? v + ' calls' :\n"
"      (v / 1e6).toFixed(3) + ' ms, ' + attr(g, 'c') + ' calls';\n"
"  var r = attr(g, 'n') + ' (' + s + ', ' + pct + '% of all';\n"
"  if (zoomed && zoomed !== g && num(zoomed, 'v'))\n"
"    r += ', ' + (100 * v / num(zoomed, 'v')).toFixed(2) + '% of ' + attr(zoomed, 'n');\n"
"  return r + ')';\n"
"}\n"
"function fit(g, width) {\n"
"  var t = g.getElementsByTagName('text')[0], name = attr(g, 'n');\n"
"  var n = width > 6 ? Math.floor((width - 6) / CHAR_W) : 0;\n"
"  t.textContent = n < 3 ? '' : name.length <= n ? name : name.substring(0, n - 2) + '..';\n"
"}\n"
"function place(g, x, w) {\n"
"  var r = g.getElementsByTagName('rect')[0], t = g.getElementsByTagName('text')[0];\n"
"  var px = PAD + x * (W - 2 * PAD), pw = w * (W - 2 * PAD);\n"
"  r.setAttribute('x', px.toFixed(2)); r.setAttribute('width', pw.toFixed(2));\n"
"  t.setAttribute('x', (px + 3).toFixed(2));\n"
"  fit(g, pw);\n"
"}\n"
"function zoom(g) {\n"
"  var zx = num(g, 'x'), zw = num(g, 'w'), zd = num(g, 'd'), eps = 1e-9;\n"
"  zoomed = g;\n"
"  for (var i = 0; i < frames.length; i++) {\n"
"    var f = frames[i], x = num(f, 'x'), w = num(f, 'w'), d = num(f, 'd');\n"
"    if (d >= zd && x >= zx - eps && x + w <= zx + zw + eps) {\n"
"      f.setAttribute('class', 'f');\n"
"      place(f, (x - zx) / zw, w / zw);\n"
"    } else if (d < zd && x <= zx + eps && x + w >= zx + zw - eps) {\n"
"      f.setAttribute('class', 'f parent');\n"
"      place(f, 0, 1);\n"
"    } else {\n"
"      f.setAttribute('class', 'f hide');\n"
"    }\n"
"  }\n"
"  unzoomText.setAttribute('class', '');\n"
"  svg.setAttribute('data-zoomed', attr(g, 'n'));\n"
"  details.textContent = 'Zoomed into ' + fmt(g);\n"
"}\n"
"function unzoom() {\n"
"  zoomed = null;\n"
"  for (var i = 0; i < frames.length; i++) {\n"
"    frames[i].setAttribute('class', 'f');\n"
"    place(frames[i], num(frames[i], 'x'), num(frames[i], 'w'));\n"
"  }\n"
"  unzoomText.setAttribute('class', 'hide');\n"
"  svg.removeAttribute('data-zoomed');\n"
"  details.textContent = ' ';\n"
"}\n"
"function init(evt) {\n"
"  svg = document.documentElement;\n"
"  frames = document.querySelectorAll('g.f');\n"
"  details = document.getElementById('details');\n"
"  unzoomText = document.getElementById('unzoom');\n"
"  total = 0;\n"
"  for (var i = 0; i < frames.length; i++) {\n"
"    var f = frames[i];\n"
"    if (num(f, 'd') == 0) total = num(f, 'v');\n"
"    f.onmouseover = function () { details.textContent = fmt(this); };\n"
"    f.onmouseout = function () { details.textContent = zoomed ? 'Zoomed into ' + fmt(zoomed) : ' '; };\n"
"    f.onclick = function () { zoom(this); };\n"
"  }\n"
"  unzoomText.onclick = unzoom;\n"
"  var m = /[#&]zoom=([^&]*)/.exec(location.hash), best = null;\n"
"  if (m) {\n"
"    var want = decodeURIComponent(m[1]);\n"
"    for (var j = 0; j < frames.length; j++)\n"
"      if (attr(frames[j], 'n') == want && (!best || num(frames[j], 'w') > num(best, 'w')))\n"
"        best = frames[j];\n"
"    if (best) zoom(best);\n"
"  }\n"
"  var h = /[#&]hover=([^&]*)/.exec(location.hash);\n"
"  if (h) {\n"
"    var name = decodeURIComponent(h[1]), hit = null;\n"
"    for (var k = 0; k < frames.length; k++)\n"
"      if (attr(frames[k], 'n') == name && (!hit || num(frames[k], 'w') > num(hit, 'w')))\n"
"        hit = frames[k];\n"
"    if (hit) hit.onmouseover.call(hit);\n"
"  }\n"
"  svg.setAttribute('data-ready', '1');\n"
"}\n";

void profile_svg(const struct profile *p, struct strbuf *sb, bool count, const char *title)
{
	const struct pnode *root = profile_root(p);
	struct layout l = { sb, count, weight(root, count), 0 };
	uint32_t depth = max_depth(root);

	l.height = PAD_TOP + (double)(depth + 1) * FRAME_H + PAD_BOTTOM;
	strbuf_addf(sb, "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>\n"
		    "<svg version=\"1.1\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" "
		    "height=\"%.0f\" viewBox=\"0 0 %d %.0f\" onload=\"init(evt)\" data-unit=\"%s\">\n",
		    (int)SVG_W, l.height, (int)SVG_W, l.height, count ? "calls" : "ns");
	strbuf_addstr(sb, "<!-- renacer flame graph: syscall ");
	strbuf_addstr(sb, count ? "calls" : "time");
	strbuf_addstr(sb, " by the program's own stacks (docs/source.md) -->\n"
		    "<style type=\"text/css\">\n"
		    "text { font-family: monospace; font-size: 12px; fill: #000; }\n"
		    "g.f text { pointer-events: none; }\n"
		    "g.f:hover rect { stroke: #000; stroke-width: 0.5; cursor: pointer; }\n"
		    "g.parent rect { opacity: 0.5; }\n"
		    ".hide { display: none; }\n"
		    "#title { font-size: 16px; }\n"
		    "#unzoom { cursor: pointer; fill: #06c; }\n"
		    "</style>\n<script type=\"text/ecmascript\"><![CDATA[\n");
	strbuf_addstr(sb, svg_script);
	strbuf_addstr(sb, "]]></script>\n");
	strbuf_addf(sb, "<rect x=\"0\" y=\"0\" width=\"%d\" height=\"%.0f\" fill=\"#f8f8f4\"/>\n",
		    (int)SVG_W, l.height);
	strbuf_addf(sb, "<text id=\"title\" x=\"%.0f\" y=\"24\" text-anchor=\"middle\">", SVG_W / 2);
	xml_text(sb, title && *title ? title : "renacer");
	strbuf_addstr(sb, count ? " (syscalls)" : " (syscall time)");
	strbuf_addstr(sb, "</text>\n<text id=\"unzoom\" x=\"10\" y=\"24\" class=\"hide\">Reset zoom</text>\n");
	strbuf_addf(sb, "<text id=\"details\" x=\"10\" y=\"%.0f\"> </text>\n<g id=\"frames\">\n",
		    l.height - 8);
	frame(&l, root, "all", 0, l.total);
	frames(&l, root, 0);
	strbuf_addstr(sb, "</g>\n</svg>\n");
}
