/*
 * The timing part of a golden comparison: the runtime against the golden's
 * noise-aware limit, where a slowdown went (time per syscall) and the
 * configured per-syscall time limits.  Called by golden_compare() once the
 * count rows of r are filled and sorted.
 */
#ifndef RENACER_GOLDEN_TIMECMP_H
#define RENACER_GOLDEN_TIMECMP_H

#include "golden/compare.h"

/*
 * Compares the timing of current c (or of the current runs cs, may be NULL)
 * with golden g: fills r's timing fields and adds GF_TIMING and GF_TIME
 * findings to r.  Never fails.
 */
void gtiming_check(struct gresult *r, const struct gmodel *g, const struct gmodel *c,
		   const struct golden_opts *o, const struct gsamples *cs);

#endif
