/*
 * Rendering golden comparisons: readable text (coloured like git diff on a
 * terminal), JSON, JUnit XML for CI dashboards, Markdown for a pull-request
 * comment or a job summary, GitHub workflow commands (annotations on the
 * lines findings come from) and GitLab's Code Quality report.  Formats are
 * described in docs/golden.md and docs/ci.md.
 */
#ifndef RENACER_GOLDEN_OUTPUT_H
#define RENACER_GOLDEN_OUTPUT_H

#include <stdbool.h>
#include <stdio.h>

#include "golden/compare.h"
#include "util/strbuf.h"

enum gfmt { GFMT_TEXT = 0, GFMT_JSON, GFMT_JUNIT, GFMT_MARKDOWN, GFMT_GITHUB, GFMT_CODEQUALITY };

/* Parses "text", "json", "junit", "markdown" (or "md"), "github",
 * "codequality" (or "gitlab"); -1 if unknown. */
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
	char *const *files;        /* files an error is about (an orphaned golden,
				      a pending .new file): annotated one by one;
				      may be NULL */
	char *const *files_why;    /* per file, what is wrong with it (one line),
				      or NULL: the error */
	size_t nfiles;
};

/* What the CI formats say besides the cases (any field may be NULL). */
struct gout_ci {
	const char *html;          /* the HTML report's file, named as the artifact */
	const char *artifact_url;  /* where the run's artifacts are (a link) */
	const char *workspace;     /* paths under it are written relative to it
				      (GITHUB_WORKSPACE, CI_PROJECT_DIR) */
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
 * Markdown for a pull-request comment or a job summary: one table row per
 * trace (its verdict, what changed first and where, syscalls and runtime
 * golden against current), the HTML report named as the artifact when ci
 * says so, then the findings and diffs of each failing trace folded.
 */
int gout_markdown_ci(FILE *fp, const struct gout_case *k, size_t n, const struct golden_opts *o,
		     const struct gout_ci *ci);

/*
 * GitHub Actions workflow commands: per trace its text report in a
 * ::group::, then an ::error (a regression, a trace that could not be
 * validated) or ::warning (a note) per finding, with file= and line= of the
 * source line its calls come from (-s), else of the golden.  Message data
 * escapes %, CR and LF (%25, %0D, %0A), properties also ':' and ','.
 */
int gout_github(FILE *fp, const struct gout_case *k, size_t n, const struct golden_opts *o,
		const struct gout_ci *ci);

/*
 * GitLab's Code Quality report (a JSON array of issues with description,
 * check_name, fingerprint, severity and location): one per finding and
 * per file of an error; fingerprints stay the same from run to run for
 * the same trace, kind, process, subject and place.
 */
int gout_codequality(FILE *fp, const struct gout_case *k, size_t n, const struct golden_opts *o,
		     const struct gout_ci *ci);

/*
 * The source a finding is placed at: of the lines whose calls grew, the one
 * that grew most (a line of the current code), else the one that changed
 * most; NULL when f has none.
 */
const struct gsource *gout_main_source(const struct gfinding *f);

/*
 * Splits a source "src/x.c:97 in f" (struct gsource.where) into its file
 * (made relative to workspace when under it; appended to file) and line
 * (0 when it has none).  Returns false when where names no file.
 */
bool gout_source_place(const char *where, const char *workspace, struct strbuf *file,
		       unsigned long *line);

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
