/*
 * Comparing a trace with its golden: per task the aligned call sequences
 * (unified diff); per process (threads included) syscall counts and I/O
 * volume against the measured variation and the tolerance, syscalls that
 * appeared or vanished, new failures and calls, thread counts; processes
 * new or gone (with their command lines); changed sets of files, programs
 * and endpoints; exit statuses; runtime against a noise-aware limit with
 * where the time went; differences of the run environment; then one
 * equivalence confidence (formula in docs/golden.md).
 */
#ifndef RENACER_GOLDEN_COMPARE_H
#define RENACER_GOLDEN_COMPARE_H

#include "golden/golden.h"
#include "golden/model.h"
#include "golden/result.h"

/*
 * Compares current c with golden g.  cur holds the runtimes of the current
 * runs (NULL: c's own timing or wall time).  Fills r (the caller releases
 * it with gresult_release(), golden/result.h).  Never fails.
 */
void golden_compare(const struct gmodel *g, const struct gmodel *c,
		    const struct golden_opts *o, const struct gsamples *cur,
		    struct gresult *r);

#endif
