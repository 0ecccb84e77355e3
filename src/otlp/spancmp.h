/*
 * Comparing two span exports: Jaeger query-API exports (/api/traces JSON,
 * also the UI's "Download JSON") and OTLP JSON files (one request, or one
 * request a line as --otlp-file and the Collector's file exporter write).
 * Spans are grouped by operation (service and span name) and compared per
 * trace: how many, and how long in total; the seeds' pre-release check.
 * The traces of the second export that the first one also holds are left
 * out of it (Jaeger keeps the baseline's trace: an export taken after the
 * change holds both), unless that would leave nothing.
 */
#ifndef RENACER_SPANCMP_H
#define RENACER_SPANCMP_H

#include <stdbool.h>
#include <stdio.h>

enum spanfile_kind {
	SPANFILE_NONE = 0,          /* neither (a renacer trace, say) */
	SPANFILE_JAEGER,
	SPANFILE_OTLP,
};

/*
 * What path holds, judged by its first bytes: the first member of its
 * top-level object is "data" (Jaeger) or "resourceSpans" (OTLP JSON).
 * SPANFILE_NONE too when it cannot be read (the caller's reader says why).
 */
enum spanfile_kind spanfile_kind(const char *path);
const char *spanfile_kind_name(enum spanfile_kind k);  /* "Jaeger export", "OTLP JSON" */

enum { SPANCMP_TEXT = 0, SPANCMP_JSON, SPANCMP_MARKDOWN };

struct spancmp_opts {
	int fmt;                    /* SPANCMP_* */
	double count_tolerance;     /* relative: 0.05 lets spans/trace move 5% */
	bool check_timing;          /* compare durations at all */
	double time_tolerance;      /* relative: 0.5 lets total time/trace grow 50% */
	double time_floor_ms;       /* ... and always by this much */
};

/* Exit statuses, those of renacer compare. */
enum { SPANCMP_SAME = 0, SPANCMP_DIFFERS = 1, SPANCMP_MISSING = 2, SPANCMP_UNREADABLE = 3 };

/*
 * Loads before and after, compares them and prints the report to out.
 * Returns SPANCMP_SAME or SPANCMP_DIFFERS, or SPANCMP_MISSING /
 * SPANCMP_UNREADABLE after error() naming the file (an export without
 * spans is SPANCMP_UNREADABLE).
 */
int spancmp_files(const char *before, const char *after, const struct spancmp_opts *o,
		  FILE *out);

#endif
