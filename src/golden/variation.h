/*
 * Measured volatility: what varied between the runs of a command.  For
 * each process (by label) the observed range of its thread count, of each
 * syscall's count (threads included, calls volatile by nature left out) and
 * of its I/O volume per kind of file, as deltas from the run the golden
 * keeps (so that they still apply when ignore rules change its counts).
 * capture --runs N stores it in the golden's "timing" object under
 * "variation"; the comparison tolerates what varied and holds the rest to
 * the count tolerance (docs/golden.md).
 */
#ifndef RENACER_GOLDEN_VARIATION_H
#define RENACER_GOLDEN_VARIATION_H

#include <stddef.h>
#include <stdint.h>

#include "golden/gio.h"


/* An observed range, relative to the kept run: lo <= 0 <= hi. */
struct grange {
	int64_t lo, hi;
};

struct gvar_calls {
	char *name;                  /* syscall name */
	struct grange r;
};

/* What varied in one process. */
struct gvar_proc {
	char *label;                 /* process label ("1", "1.2") */
	unsigned seen;               /* runs in which the process existed */
	struct grange threads;       /* threads besides the leader */
	struct gvar_calls *calls;    /* sorted by name; absent: the same in every run */
	size_t ncalls;
	struct grange io[GIO_NBUCKETS];
	struct grange mem;           /* peak committed memory, bytes */
	struct grange rss;           /* peak resident memory, KiB */
};

struct gvar {
	int runs;                    /* runs measured; 0 when nothing was */
	struct gvar_proc *procs;     /* sorted by label */
	size_t nprocs;
};

/* gvar_from_models() (golden/model.h) measures it from the runs' models. */
void gvar_release(struct gvar *v);

/* The process of label, or NULL. */
const struct gvar_proc *gvar_proc(const struct gvar *v, const char *label);
/* The range of syscall name in p: {0, 0} when it did not vary. */
struct grange gvar_calls(const struct gvar_proc *p, const char *name);

/* Adds v as member "variation" of the jansson object obj (a json_t *). */
void gvar_to_json(const struct gvar *v, void *obj);
/*
 * Fills v from a parsed "variation" object (json_t *, may be NULL: v->runs
 * is then 0).  Returns 0, or -1 after error() naming file when the object
 * has the wrong shape.
 */
int gvar_from_json(struct gvar *v, const void *json, const char *file);

#endif
