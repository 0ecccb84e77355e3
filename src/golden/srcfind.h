/*
 * Where the calls of a finding come from: with traces captured with -s
 * (source correlation), each call of the model knows the line of the
 * program's own code that made it, and a finding about added, missing or
 * newly failing calls, or slower ones, names those lines:
 * "+20 write from src/report.c:41 in flush_rows",
 * "new call: openat(...) (1 time), from src/config.c:88 in load_plugins".
 */
#ifndef RENACER_GOLDEN_SRCFIND_H
#define RENACER_GOLDEN_SRCFIND_H

#include <stddef.h>
#include <stdint.h>

#include "golden/result.h"
#include "golden/model.h"

/* Which calls of one model a finding is about. */
struct gsrc_sel {
	const struct gmodel *m;  /* NULL: this side has none */
	size_t group;            /* its process (index in m->groups), or SIZE_MAX: all */
	const char *name;        /* calls of this syscall, or NULL */
	uint32_t key;            /* else calls with this key id of m */
	const char *contains;    /* else (when not NULL) calls whose key has this
				    text, e.g. a quoted path: a resource */
	bool failed;             /* only failed calls */
};

/* How the finding names them. */
enum gsrc_how {
	GSRC_DELTA,              /* counts: "+N NAME from X" / "-N NAME from X" lines */
	GSRC_CURRENT,            /* new calls, new failures: ", from X" */
	GSRC_GOLDEN,             /* calls gone: ", in the golden from X" */
	GSRC_TIME,               /* time grew: "+T ms in NAME from X" lines */
};

/*
 * Adds to f what the calls selected by g and c say of their sources:
 * f->sources (every source with its golden and current count, or time in
 * ms for GSRC_TIME) and, in text, a suffix of f->message or lines of
 * f->detail (the largest changes first, at most GSRC_LISTED).  Nothing
 * happens when the sides it needs were traced without -s.
 */
#define GSRC_LISTED 3
void gsrc_annotate(struct gfinding *f, const struct gsrc_sel *g, const struct gsrc_sel *c,
		   enum gsrc_how how);

/* The process index of group gr in m (gr points into m->groups), or SIZE_MAX. */
size_t gsrc_group(const struct gmodel *m, const struct ggroup *gr);

#endif
