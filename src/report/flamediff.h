/*
 * Differential flame graphs: the stacks of a golden run and of the current
 * one merged into one tree, each frame with both sides' calls and time.
 * A frame is drawn as wide as one side's weight (the current run's, or the
 * golden's to see what shrank or went), and coloured by what changed at
 * it: red where more calls (or time) end there than in the golden, blue
 * where fewer, one colour for frames the golden never had and one for
 * frames the current run no longer has.  A change smaller than the floor
 * is not coloured, so a golden compared with itself has no coloured frame
 * and a planted change is coloured at the frames where it happened, not at
 * every caller above it.  Also the folded diff lines of difffolded.pl
 * ("a;b;c GOLDEN CURRENT").  docs/ci.md describes them.
 */
#ifndef RENACER_REPORT_FLAMEDIFF_H
#define RENACER_REPORT_FLAMEDIFF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "report/runview.h"
#include "sink/profile.h"
#include "util/strbuf.h"

/* What a frame of the merged tree is. */
enum fdiff_kind {
	FD_SAME = 0,       /* no change at the frame beyond the floor */
	FD_GREW,           /* more calls (time) end at it */
	FD_SHRANK,         /* fewer */
	FD_NEW,            /* the golden has no call under it */
	FD_GONE,           /* the current run has no call under it */
	FD_NKINDS,
};
const char *fdiff_kind_name(enum fdiff_kind k);   /* "same", "grew", ... */

/* Which weight. */
enum fdiff_weight { FD_CALLS = 0, FD_TIME };

/* Which side sets the widths. */
enum fdiff_view { FD_VIEW_CURRENT = 0, FD_VIEW_GOLDEN };

struct fdiff_opts {
	/* A change of fewer than floor x the larger side's total weight is not
	 * coloured (0: FDIFF_FLOOR); nor one smaller than min_ratio of what
	 * the golden had at the frame (0: FDIFF_MIN_RATIO). */
	double floor, min_ratio;
};
#define FDIFF_FLOOR 0.005
#define FDIFF_MIN_RATIO 0.10

struct fdiff;

/*
 * Merges the stacks of golden and current (neither is changed; both may
 * be freed after) into a new comparison.  o may be NULL (the defaults).
 */
struct fdiff *fdiff_new(const struct profile *golden, const struct profile *current,
			const struct fdiff_opts *o);
void fdiff_free(struct fdiff *d);

/* Frames of each kind, weighted by w (the root is not counted). */
void fdiff_counts(const struct fdiff *d, enum fdiff_weight w, size_t counts[FD_NKINDS]);

/*
 * difffolded.pl's lines: every stack calls end at on either side,
 * "a;b;[write] G C", G and C the golden's and the current run's calls or
 * time in microseconds (at least 1 for a stack with calls), sorted.
 */
void fdiff_folded(const struct fdiff *d, enum fdiff_weight w, struct strbuf *sb);

/* How the SVG is made. */
struct fdiff_svg {
	enum fdiff_weight weight;
	enum fdiff_view view;
	const char *title;       /* heading, or NULL */
	const char *idp;         /* embedded in a page: id prefix (sink/flamesvg.h), or NULL */
	double min_fraction;     /* frames narrower than this are left out (0: flamesvg's) */
	const char *root_attrs;  /* more attributes of the <svg> (flamesvg.h), or NULL */
};

/*
 * Appends the differential flame graph (sink/flamesvg.h's writer): each
 * frame carries data-k (its kind's name), data-g and data-cur (both sides'
 * weights) and hovers as "NAME: golden G, current C (+D, +P%)".
 */
void fdiff_svg(const struct fdiff *d, const struct fdiff_svg *o, struct strbuf *sb);

/*
 * The stacks of one side from path: a saved trace (any format trace_read()
 * takes: its calls' stacks under their programs, runview.h; o may be
 * NULL), or folded stacks ("a;b;c N" lines, flamegraph.pl's input: N is
 * both the calls and the time in microseconds).  Returns 0, or -1 after
 * error() naming the file (and line) with *missing set when it does not
 * exist.
 */
int fdiff_load(const char *path, const struct runview_opts *o, struct profile **out,
	       int *missing);

/* The merged tree and both sides' weights of node n (for tests and pages). */
const struct profile *fdiff_tree(const struct fdiff *d);
void fdiff_weights(const struct fdiff *d, const struct pnode *n, enum fdiff_weight w,
		   uint64_t *golden, uint64_t *current);
enum fdiff_kind fdiff_kind_of(const struct fdiff *d, const struct pnode *n, enum fdiff_weight w);

#endif
