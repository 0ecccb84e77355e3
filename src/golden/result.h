/*
 * The result of a golden comparison: findings, the aligned sequences of
 * each process, per-syscall count rows and the confidence, and the samples
 * of the current runs it was made from.  compare.c fills it, timecmp.c adds
 * the timing findings, output.c and the reports read it.
 */
#ifndef RENACER_GOLDEN_RESULT_H
#define RENACER_GOLDEN_RESULT_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "golden/diff.h"
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
	GF_IO,            /* bytes moved per kind of file beyond the tolerance */
	GF_TIME,          /* time in one syscall grew (where a slowdown went) */
	GF_ENV,           /* the run environment differs (stdio kinds, variables) */
	GF_THREADS,       /* a process runs more or fewer threads */
	GF_MEMORY,        /* a process's peak memory (committed, resident) grew */
	GF_NKINDS,
};
const char *gfind_kind_name(enum gfind_kind k);   /* "count", "failure", ... */

/*
 * One finding.  GF_TIME findings name the syscall (subject) and the task
 * where its time grew most (proc): the calls a source correlation can
 * annotate, in detail, with the lines they came from.
 */
struct gfinding {
	enum gfind_kind kind;
	bool regression;        /* a hard regression; else a note */
	bool noisy;             /* may come from scheduling: validate re-runs the
				   command and keeps it only when every run shows it */
	char *proc;             /* task or process label, or NULL for the whole trace */
	char *subject;          /* syscall name, path, key...; may be NULL */
	char *message;          /* one line */
	char *detail;           /* more lines shown under it (each ending in
				   '\n'), or NULL */
	double golden, current; /* numbers where they mean something */
	struct gsource *sources;   /* -s: where the calls came from (srcfind.h) */
	size_t nsources;
};

/* A source line calls came from, with their golden and current counts (or
 * time in ms for GF_TIME). */
struct gsource {
	char *where;            /* "src/report.c:41 in flush_rows" */
	double golden, current;
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
	double g_net_ms, c_net_ms;   /* wall time less the waits for a CPU (< 0: unknown) */
	double g_cpu_ms, c_cpu_ms;   /* < 0: unknown */
	int g_runs, c_runs;
	/* the verdict on the untraced runs (timecmp.h), when both sides have them */
	bool untraced;               /* the times above are of untraced runs (medians) */
	int time_verdict;            /* enum mverdict (measure/mstat.h) */
	const char *time_metric;     /* "net" or "cpu": the time that decided */
	double time_ratio, time_lo, time_hi, time_p;  /* its ratio, interval, p-value */
	double time_adjust_ms;       /* added to the current times for the machine's
					speed (the reference exec's drift), or 0 */
	uint64_t g_calls, c_calls;
	unsigned std_differs;        /* bit k: fd k's kind differs (calls on it not compared) */
};

/*
 * Runtimes of the current runs: wall time, CPU time and wall time less the
 * waits for a CPU (either of the last two may be NULL); models of the runs
 * (may be NULL) for the time per syscall.
 */
struct gsamples {
	const double *wall_us, *cpu_us, *net_us;
	size_t n;
	struct gmodel *const *models;
	size_t nmodels;
};

/* Frees what r holds and zeroes it. */
void gresult_release(struct gresult *r);

/*
 * Keeps a noisy regression of r only when every one of the n other
 * comparisons (of the same golden with other runs) has it too (same kind,
 * process and subject); the others become notes that say in how many runs
 * they were seen.  Updates r->regression and r->pass.
 */
void gresult_confirm(struct gresult *r, const struct gresult *others, size_t n);

/*
 * Appends a finding to r with its message formatted from fmt and ap; a
 * regression sets r->regression.  Returns the finding (owned by r, valid
 * until the next one is added).
 */
struct gfinding *gresult_vadd(struct gresult *r, enum gfind_kind k, bool reg, const char *proc,
			      const char *subject, double g, double c, const char *fmt, va_list ap);

/* True when r has a noisy regression (validate re-runs to confirm it). */
bool gresult_has_noisy(const struct gresult *r);

#endif
