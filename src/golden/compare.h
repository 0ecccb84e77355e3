/*
 * Comparing a trace with its golden: per process the aligned call
 * sequences (unified diff), per-syscall counts against a tolerance,
 * syscalls that appeared or vanished, new failures, changed sets of files,
 * programs and endpoints, exit statuses and runtime against the golden's
 * timing; then one equivalence confidence (formula in docs/golden.md).
 */
#ifndef RENACER_GOLDEN_COMPARE_H
#define RENACER_GOLDEN_COMPARE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "golden/diff.h"
#include "golden/golden.h"
#include "golden/model.h"

/* What a finding is about. */
enum gfind_kind {
	GF_PROCESS = 0,   /* a process or thread appeared or vanished */
	GF_EXIT,          /* an exit status changed */
	GF_COUNT,         /* a syscall count moved beyond its tolerance */
	GF_APPEARED,      /* a syscall the golden never made */
	GF_VANISHED,      /* a syscall the golden made and the trace does not */
	GF_CALL,          /* a distinct call (arguments/result) new or gone */
	GF_FAILURE,       /* a call now fails (or no longer fails: a note) */
	GF_RESOURCE,      /* file, program or endpoint set changed */
	GF_TIMING,        /* runtime beyond the noise-aware limit */
	GF_CONFIDENCE,    /* equivalence confidence below the minimum */
	GF_NOTE,          /* anything else worth saying */
	GF_ASSERTION,     /* a renacer.toml assertion failed on the run (validate) */
	GF_NKINDS,
};
const char *gfind_kind_name(enum gfind_kind k);   /* "count", "failure", ... */

struct gfinding {
	enum gfind_kind kind;
	bool regression;        /* a hard regression; else a note */
	char *proc;             /* process label, or NULL for the whole trace */
	char *subject;          /* syscall name, path, key...; may be NULL */
	char *message;          /* one line */
	double golden, current; /* numbers where they mean something */
};

/* The aligned sequences of one process. */
struct gproc_diff {
	const char *label;
	const struct gproc *g, *c;   /* either NULL when unmatched */
	uint32_t *gk, *ck;           /* compared keys (golden ids; current ids) */
	uint32_t *gi, *ci;           /* their call indexes */
	uint32_t ng, nc;
	size_t common;               /* calls kept in the alignment */
	uint8_t *chg_g, *chg_c;      /* per compared key: removed / added */
	struct gdiff_hunk *hunks;
	size_t nhunks;
	size_t added, removed;
	int exact;                   /* the alignment is a longest one */
};

/* Per-syscall totals, both sides (stable calls; all calls). */
struct gcount_row {
	const char *name;
	uint64_t g_stable, c_stable, g_all, c_all;
	uint64_t g_err, c_err;
	double g_time_us, c_time_us;
};

struct gresult {
	struct gfinding *f;
	size_t nf, af;
	struct gproc_diff *pd;
	size_t npd;
	struct gcount_row *rows;     /* sorted by name */
	size_t nrows;
	/* unified key ids: golden keys keep theirs, current ones map here */
	uint32_t *cmap;
	uint32_t nids;
	double s_seq, s_cnt, s_res;  /* confidence components */
	double confidence;
	double min_confidence;
	bool regression;             /* at least one hard regression */
	bool pass;                   /* equivalent: no regression, confidence high enough */
	/* timing */
	bool timing_checked;
	double g_wall_ms, c_wall_ms, limit_ms, spread_ms;
	double g_cpu_ms, c_cpu_ms, cpu_limit_ms;   /* < 0: unknown */
	int g_runs, c_runs;
	uint64_t g_calls, c_calls;
};

/* Runtimes of the current runs: wall and CPU time (cpu_us may be NULL). */
struct gsamples {
	const double *wall_us, *cpu_us;
	size_t n;
};

/*
 * Compares current c with golden g.  cur holds the runtimes of the current
 * runs (NULL: c's own timing or wall time).  Fills r (the caller releases
 * it with gresult_release).  Never fails.
 */
void golden_compare(const struct gmodel *g, const struct gmodel *c,
		    const struct golden_opts *o, const struct gsamples *cur,
		    struct gresult *r);
void gresult_release(struct gresult *r);


#endif
