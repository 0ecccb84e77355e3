/* Differential flame graphs (see flamediff.h). */
#include "report/flamediff.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sink/flamesvg.h"
#include "util/error.h"
#include "util/quote.h"
#include "util/xmalloc.h"
#include "util/banned.h"

#define G 0
#define C 1

struct fdiff {
	struct profile *u;           /* the merged tree (its own weights unused) */
	uint32_t n;                  /* nodes */
	uint64_t *tot[2][2];         /* [side][weight][node id]: under the frame */
	uint64_t *self[2][2];        /* ending at the frame */
	uint8_t *kind[2];            /* [weight][node id] */
	uint64_t maxdelta[2];        /* the largest coloured change, per weight */
	struct fdiff_opts o;
};

/* One stack calls end at, found on a side. */
struct rec {
	const struct pnode *leaf;    /* in the merged tree */
	int side;
	uint64_t calls, ns;
};

struct build {
	struct fdiff *d;
	struct rec *recs;
	size_t nrecs, arecs;
	const char **path;
	size_t apath;
};

const char *fdiff_kind_name(enum fdiff_kind k)
{
	static const char *const names[FD_NKINDS] = { "same", "grew", "shrank", "new", "gone" };
	return (unsigned)k < FD_NKINDS ? names[k] : "?";
}

/* Adds the stacks under n (at depth) of one side to the merged tree. */
static void gather(struct build *b, const struct pnode *n, size_t depth, int side)
{
	uint64_t calls = n->calls, ns = n->ns;

	for (const struct pnode *c = n->child; c; c = c->next) {
		calls -= c->calls <= calls ? c->calls : calls;
		ns -= c->ns <= ns ? c->ns : ns;
	}
	if (depth && (calls || ns)) {
		ALLOC_GROW(b->recs, b->nrecs + 1, b->arecs);
		b->recs[b->nrecs].leaf = profile_add_stack(b->d->u, b->path, depth, 0, 0);
		b->recs[b->nrecs].side = side;
		b->recs[b->nrecs].calls = calls;
		b->recs[b->nrecs].ns = ns;
		b->nrecs++;
	}
	for (const struct pnode *c = n->child; c; c = c->next) {
		ALLOC_GROW(b->path, depth + 1, b->apath);
		b->path[depth] = c->name;
		gather(b, c, depth + 1, side);
	}
}

static uint64_t absdiff(uint64_t a, uint64_t b)
{
	return a > b ? a - b : b - a;
}

/* Classifies n and its subtree for weight w. */
static void classify(struct fdiff *d, const struct pnode *n, int w, uint64_t big)
{
	uint32_t id = n->id;
	enum fdiff_kind k = FD_SAME;

	if (n->parent) {
		uint64_t gc = d->tot[G][FD_CALLS][id], cc = d->tot[C][FD_CALLS][id];
		uint64_t gs = d->self[G][w][id], cs = d->self[C][w][id];
		uint64_t delta = absdiff(gs, cs);

		if (!gc && cc)
			k = FD_NEW;
		else if (gc && !cc)
			k = FD_GONE;
		else if (delta && (double)delta >= d->o.floor * (double)big &&
			 (double)delta >= d->o.min_ratio * (double)gs)
			k = cs > gs ? FD_GREW : FD_SHRANK;
		if ((k == FD_GREW || k == FD_SHRANK) && delta > d->maxdelta[w])
			d->maxdelta[w] = delta;
	}
	d->kind[w][id] = (uint8_t)k;
	for (const struct pnode *c = n->child; c; c = c->next)
		classify(d, c, w, big);
}

struct fdiff *fdiff_new(const struct profile *golden, const struct profile *current,
			const struct fdiff_opts *o)
{
	struct fdiff *d = xcalloc(1, sizeof(*d));
	struct build b;

	memset(&b, 0, sizeof(b));
	b.d = d;
	d->o.floor = o && o->floor > 0 ? o->floor : FDIFF_FLOOR;
	d->o.min_ratio = o && o->min_ratio > 0 ? o->min_ratio : FDIFF_MIN_RATIO;
	d->u = profile_new();
	gather(&b, profile_root(golden), 0, G);
	gather(&b, profile_root(current), 0, C);
	d->n = profile_nodes(d->u);
	for (int s = 0; s < 2; s++)
		for (int w = 0; w < 2; w++) {
			d->tot[s][w] = xcalloc(d->n, sizeof(uint64_t));
			d->self[s][w] = xcalloc(d->n, sizeof(uint64_t));
		}
	for (int w = 0; w < 2; w++)
		d->kind[w] = xcalloc(d->n, 1);
	for (size_t i = 0; i < b.nrecs; i++) {
		const struct rec *r = &b.recs[i];
		d->self[r->side][FD_CALLS][r->leaf->id] += r->calls;
		d->self[r->side][FD_TIME][r->leaf->id] += r->ns;
		for (const struct pnode *p = r->leaf; p; p = p->parent) {
			d->tot[r->side][FD_CALLS][p->id] += r->calls;
			d->tot[r->side][FD_TIME][p->id] += r->ns;
		}
	}
	for (int w = 0; w < 2; w++) {
		uint64_t big = d->tot[G][w][0] > d->tot[C][w][0] ? d->tot[G][w][0] : d->tot[C][w][0];
		classify(d, profile_root(d->u), w, big);
	}
	free(b.recs);
	free(b.path);
	return d;
}

void fdiff_free(struct fdiff *d)
{
	if (!d)
		return;
	for (int s = 0; s < 2; s++)
		for (int w = 0; w < 2; w++) {
			free(d->tot[s][w]);
			free(d->self[s][w]);
		}
	for (int w = 0; w < 2; w++)
		free(d->kind[w]);
	profile_free(d->u);
	free(d);
}

const struct profile *fdiff_tree(const struct fdiff *d)
{
	return d->u;
}

void fdiff_weights(const struct fdiff *d, const struct pnode *n, enum fdiff_weight w,
		   uint64_t *golden, uint64_t *current)
{
	*golden = d->tot[G][w][n->id];
	*current = d->tot[C][w][n->id];
}

enum fdiff_kind fdiff_kind_of(const struct fdiff *d, const struct pnode *n, enum fdiff_weight w)
{
	return (enum fdiff_kind)d->kind[w][n->id];
}

static void count_kinds(const struct fdiff *d, const struct pnode *n, int w, size_t *counts)
{
	for (const struct pnode *c = n->child; c; c = c->next) {
		counts[d->kind[w][c->id]]++;
		count_kinds(d, c, w, counts);
	}
}

void fdiff_counts(const struct fdiff *d, enum fdiff_weight w, size_t counts[FD_NKINDS])
{
	memset(counts, 0, FD_NKINDS * sizeof(*counts));
	count_kinds(d, profile_root(d->u), w, counts);
}

/* --- folded --- */

static void path_text(struct strbuf *sb, const struct pnode *n)
{
	if (!n->parent)
		return;
	if (n->parent->parent) {
		path_text(sb, n->parent);
		strbuf_addch(sb, ';');
	}
	strbuf_addstr(sb, n->name);
}

static int str_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static uint64_t folded_weight(const struct fdiff *d, int side, int w, uint32_t id)
{
	uint64_t v;

	if (w == FD_CALLS)
		return d->self[side][FD_CALLS][id];
	v = (d->self[side][FD_TIME][id] + 500) / 1000;
	return v || !d->self[side][FD_CALLS][id] ? v : 1;
}

static void folded_lines(const struct fdiff *d, const struct pnode *n, int w, char ***lines,
			 size_t *nl, size_t *al, struct strbuf *tmp)
{
	uint32_t id = n->id;

	if (n->parent && (d->self[G][FD_CALLS][id] || d->self[C][FD_CALLS][id] ||
			  d->self[G][FD_TIME][id] || d->self[C][FD_TIME][id])) {
		strbuf_reset(tmp);
		path_text(tmp, n);
		strbuf_addf(tmp, " %" PRIu64 " %" PRIu64, folded_weight(d, G, w, id),
			    folded_weight(d, C, w, id));
		ALLOC_GROW(*lines, *nl + 1, *al);
		(*lines)[(*nl)++] = xstrdup(tmp->buf);
	}
	for (const struct pnode *c = n->child; c; c = c->next)
		folded_lines(d, c, w, lines, nl, al, tmp);
}

void fdiff_folded(const struct fdiff *d, enum fdiff_weight w, struct strbuf *sb)
{
	char **lines = NULL;
	size_t nl = 0, al = 0;
	struct strbuf tmp = STRBUF_INIT;

	folded_lines(d, profile_root(d->u), w, &lines, &nl, &al, &tmp);
	QSORT(lines, nl, str_cmp);
	for (size_t i = 0; i < nl; i++) {
		strbuf_addstr(sb, lines[i]);
		strbuf_addch(sb, '\n');
		free(lines[i]);
	}
	free(lines);
	strbuf_release(&tmp);
}

/* --- SVG --- */

struct svgctx {
	const struct fdiff *d;
	int w, side;
};

#define FILL_SAME "rgb(224,222,214)"
#define FILL_NEW "rgb(163,73,214)"
#define FILL_GONE "rgb(64,168,150)"

static uint64_t svg_weight(const struct pnode *n, void *ctx)
{
	const struct svgctx *x = ctx;
	return x->d->tot[x->side][x->w][n->id];
}

static void svg_fill(struct strbuf *sb, const struct pnode *n, void *ctx)
{
	const struct svgctx *x = ctx;
	const struct fdiff *d = x->d;
	uint32_t id = n->id;
	double t;

	switch (d->kind[x->w][id]) {
	case FD_NEW:
		strbuf_addstr(sb, FILL_NEW);
		return;
	case FD_GONE:
		strbuf_addstr(sb, FILL_GONE);
		return;
	case FD_GREW:
	case FD_SHRANK:
		t = d->maxdelta[x->w] ? (double)absdiff(d->self[G][x->w][id], d->self[C][x->w][id]) /
					(double)d->maxdelta[x->w] : 1;
		t = 0.35 + 0.65 * (t > 1 ? 1 : t);
		if (d->kind[x->w][id] == FD_GREW)
			strbuf_addf(sb, "rgb(%d,%d,%d)", (int)(250 - 40 * t), (int)(210 - 180 * t),
				    (int)(210 - 180 * t));
		else
			strbuf_addf(sb, "rgb(%d,%d,%d)", (int)(210 - 180 * t), (int)(220 - 150 * t),
				    (int)(255 - 20 * t));
		return;
	default: {
		/* greys, a little apart from name to name, so that neighbours show */
		uint32_t h = 2166136261u;
		for (const char *p = n->name; p && *p; p++) {
			h ^= (unsigned char)*p;
			h *= 16777619u;
		}
		h = 214 + h % 16;
		strbuf_addf(sb, "rgb(%u,%u,%u)", h, h, h - 6);
	}
	}
}

static void amount(struct strbuf *sb, uint64_t v, int w)
{
	if (w == FD_CALLS)
		strbuf_add_u64(sb, v);
	else
		strbuf_addf(sb, "%.3f ms", v / 1e6);
}

static void svg_tip(struct strbuf *sb, const struct pnode *n, uint64_t wv, uint64_t total,
		    void *ctx)
{
	const struct svgctx *x = ctx;
	const struct fdiff *d = x->d;
	uint32_t id = n->id;
	uint64_t g = d->tot[G][x->w][id], c = d->tot[C][x->w][id];
	enum fdiff_kind k = d->kind[x->w][id];

	(void)wv;
	(void)total;
	strbuf_addstr(sb, n->parent ? n->name : "all");
	strbuf_addstr(sb, ": golden ");
	amount(sb, g, x->w);
	strbuf_addstr(sb, ", current ");
	amount(sb, c, x->w);
	if (x->w == FD_CALLS)
		strbuf_addstr(sb, c == 1 ? " call" : " calls");
	if (g != c) {
		strbuf_addstr(sb, " (");
		strbuf_addch(sb, c > g ? '+' : '-');
		amount(sb, absdiff(g, c), x->w);
		if (g)
			strbuf_addf(sb, ", %+.1f%%", 100.0 * ((double)c - (double)g) / (double)g);
		strbuf_addch(sb, ')');
	}
	if (n->child && (d->self[G][x->w][id] || d->self[C][x->w][id])) {
		strbuf_addstr(sb, "; ending here ");
		amount(sb, d->self[G][x->w][id], x->w);
		strbuf_addstr(sb, " -> ");
		amount(sb, d->self[C][x->w][id], x->w);
	}
	if (k != FD_SAME) {
		strbuf_addstr(sb, " [");
		strbuf_addstr(sb, fdiff_kind_name(k));
		strbuf_addch(sb, ']');
	}
}

static void svg_attrs(struct strbuf *sb, const struct pnode *n, void *ctx)
{
	const struct svgctx *x = ctx;
	const struct fdiff *d = x->d;

	strbuf_addf(sb, " data-k=\"%s\" data-g=\"%" PRIu64 "\" data-cur=\"%" PRIu64 "\"",
		    fdiff_kind_name(d->kind[x->w][n->id]), d->tot[G][x->w][n->id],
		    d->tot[C][x->w][n->id]);
}

void fdiff_svg(const struct fdiff *d, const struct fdiff_svg *o, struct strbuf *sb)
{
	static const struct flamesvg_key keys[] = {
		{ "rgb(219,66,66)", "grew" },
		{ "rgb(66,109,241)", "shrank" },
		{ FILL_NEW, "new" },
		{ FILL_GONE, "gone" },
		{ FILL_SAME, "same (or under the floor)" },
	};
	struct svgctx x = { d, o->weight, o->view == FD_VIEW_GOLDEN ? G : C };
	struct flamesvg_style st;
	struct strbuf sub = STRBUF_INIT;
	const char *what = o->weight == FD_CALLS ? "calls" : "time";

	strbuf_addf(&sub, "width: the %s run's %s; colour: what changed where calls end "
		    "(not coloured under %.1f%% of all %s or %.0f%% of the frame's)",
		    o->view == FD_VIEW_GOLDEN ? "golden" : "current", what, 100 * d->o.floor, what,
		    100 * d->o.min_ratio);
	memset(&st, 0, sizeof(st));
	st.weight = svg_weight;
	st.fill = svg_fill;
	st.tip = svg_tip;
	st.attrs = svg_attrs;
	st.ctx = &x;
	st.count = o->weight == FD_CALLS;
	st.title = o->title ? o->title : "renacer: golden against current";
	st.subtitle = sub.buf;
	st.keys = keys;
	st.nkeys = ARRAY_SIZE(keys);
	st.idp = o->idp;
	st.min_fraction = o->min_fraction;
	st.root_attrs = o->root_attrs;
	flamesvg_write(sb, d->u, &st);
	strbuf_release(&sub);
}

/* --- reading a side --- */

/* Whether the file starts like a trace (JSON, JSON Lines or zstd), not folded lines. */
static int looks_like_trace(FILE *fp)
{
	unsigned char b[4];
	size_t n = fread(b, 1, sizeof(b), fp);
	int c;

	if (n == 4 && b[0] == 0x28 && b[1] == 0xb5 && b[2] == 0x2f && b[3] == 0xfd)
		return 1;
	for (size_t i = 0; i < n; i++)
		if (!isspace(b[i]))
			return b[i] == '{';
	while ((c = fgetc(fp)) != EOF)
		if (!isspace(c))
			return c == '{';
	return 0;
}

/* Parses folded lines into p; 0 or -1 after error(). */
static int load_folded(const char *path, FILE *fp, struct profile *p)
{
	char *line = NULL;
	size_t cap = 0, lineno = 0;
	ssize_t len;
	const char **names = NULL;
	size_t an = 0;
	int ret = 0;

	while ((len = getline(&line, &cap, fp)) >= 0) {
		char *sp, *end, *q;
		unsigned long long w;
		size_t n = 0;

		lineno++;
		while (len && (line[len - 1] == '\n' || line[len - 1] == '\r' || line[len - 1] == ' '))
			line[--len] = '\0';
		if (!len)
			continue;
		sp = strrchr(line, ' ');
		if (!sp || sp == line) {
			ret = error("cannot read folded stacks '%s': line %zu: no weight after the stack",
				    esc(path), lineno);
			break;
		}
		errno = 0;
		w = strtoull(sp + 1, &end, 10);
		if (errno || end == sp + 1 || *end || sp[1] == '-') {
			ret = error("cannot read folded stacks '%s': line %zu: bad weight '%s'",
				    esc(path), lineno, esc(sp + 1));
			break;
		}
		*sp = '\0';
		q = strrchr(line, ' ');
		if (q && strspn(q + 1, "0123456789") == strlen(q + 1) && q[1]) {
			ret = error("cannot read folded stacks '%s': line %zu: two weights (a folded "
				    "diff, not folded stacks)", esc(path), lineno);
			break;
		}
		for (char *f = line;; ) {
			char *semi = strchr(f, ';');
			ALLOC_GROW(names, n + 1, an);
			names[n++] = f;
			if (!semi)
				break;
			*semi = '\0';
			f = semi + 1;
		}
		if (w > UINT64_MAX / 1000)
			w = UINT64_MAX / 1000;
		profile_add_stack(p, names, n, w, w * 1000);
	}
	if (!ret && ferror(fp))
		ret = error("cannot read '%s': %s", esc(path), strerror(errno ? errno : EIO));
	free(line);
	free(names);
	return ret;
}

int fdiff_load(const char *path, const struct runview_opts *o, struct profile **out,
	       int *missing)
{
	FILE *fp = fopen(path, "r");
	int trace, ret;

	*out = NULL;
	if (missing)
		*missing = 0;
	if (!fp) {
		if (missing)
			*missing = errno == ENOENT;
		return error("cannot open '%s': %s", esc(path), strerror(errno));
	}
	trace = looks_like_trace(fp);
	if (trace) {
		struct runview *v;

		fclose(fp);
		if (runview_load(path, o, &v) < 0)
			return -1;
		*out = v->stacks;
		v->stacks = NULL;
		runview_free(v);
		return 0;
	}
	rewind(fp);
	*out = profile_new();
	ret = load_folded(path, fp, *out);
	fclose(fp);
	if (ret < 0) {
		profile_free(*out);
		*out = NULL;
	}
	return ret;
}
