/*
 * The profile sink: builds the stack tree of a run (sink/profile.h) and at
 * its end writes the --function-time table, folded stacks, the SVG flame
 * graph (sink/flamesvg.h) and speedscope's JSON (sink/speedscope.h).
 */
#ifndef RENACER_PROFSINK_H
#define RENACER_PROFSINK_H

#include <stdbool.h>
#include <stdio.h>

#include "sink/sink.h"

/* Options of the profile sink (the --function-time family of options). */
struct profile_sink_opts {
	bool table;              /* --function-time: the report on stderr at the end */
	const char *folded;      /* --flamegraph FILE, or NULL */
	FILE *folded_stream;     /* with folded "-": where to write it */
	bool count;              /* --flamegraph-weight count */
	const char *svg;         /* --flamegraph-svg FILE, or NULL */
	const char *speedscope;  /* --speedscope FILE, or NULL */
	const char *title;       /* the traced command, for the SVG and speedscope */
};

/*
 * The sink that builds a profile from a run and writes what o asks for at
 * end() (files complete or absent).  Returns NULL after error() when an
 * output file cannot be created.  o's strings must outlive the sink.
 */
struct sink *profile_sink_new(const struct profile_sink_opts *o);

#endif
