/*
 * The HTML report of golden comparisons (validate --html, compare --html,
 * report --html): one self-contained page (styles and scripts inline,
 * nothing fetched, a Content-Security-Policy that forbids fetching) with,
 * per trace, the verdict and every finding (with the source lines its calls
 * came from, when the golden has them), a timeline of the processes and
 * threads of the golden run and of the current one side by side (when each
 * ran, the calls it spent longest in), per-syscall bars of calls and time
 * golden against current, the call diff with repeated lines collapsed,
 * and a differential flame graph (report/flamediff.h) weighted by calls or
 * time, with zoom and search.  docs/ci.md shows it.
 */
#ifndef RENACER_REPORT_HTML_H
#define RENACER_REPORT_HTML_H

#include <stddef.h>

#include "golden/golden.h"
#include "golden/output.h"
#include "report/runview.h"
#include "util/strbuf.h"

/* One trace on the page. */
struct html_case {
	const struct gout_case *k;   /* the verdict, findings and models (golden/output.h);
					k->r NULL and k->g set: a golden shown alone */
	const char *golden_trace;    /* file to draw the golden run from, or NULL */
	const char *current_trace;   /* file to draw the current run from, or NULL */
};

struct html_opts {
	const char *title;           /* the page's heading, or NULL */
	const char *command;         /* the renacer command line that made it, or NULL */
	const struct golden_opts *o; /* diff context and limits */
	const struct runview_opts *rv;   /* reading the traces (may be NULL) */
};

/*
 * Appends the page to sb.  A trace that cannot be read (error() says why)
 * leaves its pictures out with a line saying so; the page is written
 * anyway.  Never fails.
 */
void html_report(struct strbuf *sb, const struct html_case *c, size_t n,
		 const struct html_opts *o);

#endif
