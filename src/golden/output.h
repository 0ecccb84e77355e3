/*
 * Rendering golden comparisons: readable text (coloured like git diff on a
 * terminal), JSON, JUnit XML for CI dashboards and Markdown for a
 * pull-request comment.  Formats are described in docs/golden.md.
 */
#ifndef RENACER_GOLDEN_OUTPUT_H
#define RENACER_GOLDEN_OUTPUT_H

#include <stdbool.h>
#include <stdio.h>

#include "golden/compare.h"
#include "util/strbuf.h"

enum gfmt { GFMT_TEXT = 0, GFMT_JSON, GFMT_JUNIT, GFMT_MARKDOWN };

/* Parses "text", "json", "junit", "markdown" (or "md"); -1 if unknown. */
int gfmt_parse(const char *s);

/* One comparison (or one that could not run) to render. */
struct gout_case {
	const char *name;          /* trace name ("ls") */
	const char *golden_path;   /* golden file */
	const char *current_path;  /* current trace file, or NULL */
	int status;                /* GOLDEN_* status of this case */
	const char *error;         /* why it could not run (status 2..5), or NULL */
	const char *hint;          /* what to do next (accept, update), or NULL */
	const struct gresult *r;   /* NULL when no comparison ran */
	const struct gmodel *g, *c;
	double seconds;            /* time the case took */
};

/* Name of a GOLDEN_* status ("equivalent", "regression", "missing", ...). */
const char *golden_status_name(int status);

/*
 * Text for one case, written as soon as it is known.  The writers return 0,
 * or -1 with errno set when fp could not be written (they print nothing).
 * Everything quoted from traces and files is escaped (util/quote.h): a text
 * or Markdown item is one line, JSON is UTF-8, JUnit is XML 1.0.
 */
int gout_text(FILE *fp, const struct gout_case *k, const struct golden_opts *o, bool color);

/* The other formats take every case at once. */
int gout_json(FILE *fp, const struct gout_case *k, size_t n, const struct golden_opts *o);
int gout_junit(FILE *fp, const struct gout_case *k, size_t n, const struct golden_opts *o);
int gout_markdown(FILE *fp, const struct gout_case *k, size_t n, const struct golden_opts *o);

/*
 * Appends the unified diff of process diff d (golden g, current c) to sb,
 * with colour escapes when color.  left, when not NULL, is the number of
 * diff lines the report may still print (golden_traces.max_diff_lines
 * counts over a whole report, not per hunk or process): it is decreased,
 * and what does not fit is counted in a "... N more diff lines" line.
 */
void gout_unified(struct strbuf *sb, const struct gresult *r, const struct gproc_diff *d,
		  const struct gmodel *g, const struct gmodel *c, const char *gname,
		  const char *cname, size_t *left, bool color);

#endif
