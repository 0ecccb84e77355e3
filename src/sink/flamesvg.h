/*
 * renacer's flame graphs as SVG: one writer for the profile's own flame
 * graph (--flamegraph-svg) and for the differential ones (report/flamediff.h),
 * standalone documents or drawings embedded in an HTML page.  Frames are
 * drawn bottom up, the root ("all") at the bottom, each as wide as its
 * share of the weight, children sorted by name (as flamegraph.pl).  The
 * drawing's script: hovering a frame shows its details, a click zooms into
 * it, "Reset zoom" goes back, a search (a regular expression) highlights
 * the frames it matches and says what share they cover.  A standalone
 * document opened with #zoom=NAME starts zoomed into the widest frame called
 * NAME, #hover=NAME shows that frame's details, #search=RE searches.
 */
#ifndef RENACER_FLAMESVG_H
#define RENACER_FLAMESVG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sink/profile.h"
#include "util/strbuf.h"

/* A coloured box of the legend and what it means. */
struct flamesvg_key {
	const char *fill;       /* "rgb(...)" or "#rrggbb" */
	const char *label;      /* text (escaped by the writer) */
};

/* How a flame graph is drawn.  Callbacks get ctx; any may be NULL. */
struct flamesvg_style {
	/* The weight that sets node n's width (NULL: its calls with count,
	 * else its time in ns). */
	uint64_t (*weight)(const struct pnode *n, void *ctx);
	/* Appends n's fill colour (NULL: warm colours from the name, blue for
	 * the syscalls at the leaves, grey for "[module]" frames). */
	void (*fill)(struct strbuf *sb, const struct pnode *n, void *ctx);
	/* Appends the text shown for n on hover, unescaped (NULL: its name,
	 * weight and share, worked out by the script). */
	void (*tip)(struct strbuf *sb, const struct pnode *n, uint64_t w, uint64_t total,
		    void *ctx);
	/* Appends extra attributes of n's frame, escaped, each starting with a
	 * space: ' data-k="grew"'. */
	void (*attrs)(struct strbuf *sb, const struct pnode *n, void *ctx);
	void *ctx;
	bool count;             /* weights are calls (else ns): how hovers word them */
	const char *title;      /* the heading (NULL: "renacer") */
	const char *subtitle;   /* a line under it, or NULL */
	const struct flamesvg_key *keys;   /* a legend, or NULL */
	size_t nkeys;
	/* Embedded in an HTML page: the prefix of its element ids ("fg1-"),
	 * no XML prolog and no script (the page has flamesvg_script() once and
	 * calls flameInit() on each drawing).  NULL: a standalone document. */
	const char *idp;
	double min_fraction;    /* frames narrower than this share of the root are
				   left out (0: 1e-5) */
	const char *root_attrs; /* more attributes of the <svg> element, escaped,
				   each starting with a space, or NULL */
};

/* Appends the flame graph of p's tree drawn as st says. */
void flamesvg_write(struct strbuf *sb, const struct profile *p, const struct flamesvg_style *st);

/*
 * The script of the drawings (JavaScript, no external resource): defines
 * flameInit(svg), which wires one drawing and returns (and keeps as
 * svg.flame) an object with zoom(frame), unzoom() and search(re) (the
 * number of frames matched; an empty re clears).  A page embeds it once.
 */
const char *flamesvg_script(void);
/* The styles of embedded drawings (CSS scoped to svg.flame): a page has them once. */
const char *flamesvg_css(void);

/*
 * The profile's own flame graph: a standalone SVG with st's defaults,
 * weighted by calls (count) or time; title heads it.
 */
void profile_svg(const struct profile *p, struct strbuf *sb, bool count, const char *title);

#endif
