/*
 * The golden workflow: running a command under trace (N times, with timing
 * statistics), storing goldens and their summaries, re-running to confirm a
 * slow run, validating a run against its golden, comparing two saved traces,
 * and the pending NAME.json.new files that `accept` turns into goldens.
 * The CLI (src/cli/cmd_golden.c) parses arguments and prints what these
 * functions return; nothing here exits or prints anything but error() and
 * warning() lines.
 *
 * The settings (struct gwork) and one run of a command (grun_do()) are in
 * grun.h, below this file and the timing runs (timerun.h) that both use
 * them; grun.c is the file of src/golden/ that sees the engine
 * (core/tracer.h): it wires a run's sinks.
 */
#ifndef RENACER_GOLDEN_WORKFLOW_H
#define RENACER_GOLDEN_WORKFLOW_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "config/config.h"
#include "golden/compare.h"
#include "golden/golden.h"
#include "golden/grun.h"
#include "golden/model.h"
#include "golden/output.h"
#include "golden/store.h"
#include "measure/measure.h"
#include "sink/sink.h"
#include "util/strbuf.h"

struct analysis;
struct assert_results;

/* --- N runs of one trace --- */

/* Runs added to confirm a runtime regression before it counts. */
#define GOLDEN_CONFIRM_RUNS 3

/* What N runs of a command gave: a trace per run, timing over all runs. */
struct gruns {
	unsigned n;                    /* runs done (confirmation runs included) */
	char **json;                   /* per run: its JSON trace (NULL for confirmation runs) */
	double *wall_us;               /* per run */
	double *cpu_us;                /* per run */
	double *net_us;                /* per run */
	struct grun *rr;               /* per run */
	unsigned median;               /* index of the run with the median wall time */
	struct gtiming timing;         /* statistics of the first runs (not the confirmations) */
	char *outfile;                 /* the command's output (of the last run) */
	bool failed;                   /* the command could not be run */
	int interrupted;               /* the signal (SIGINT...) that stopped the runs, or 0 */
	unsigned extra;                /* confirmation runs added */
};

/*
 * Runs argv n times (traces into the scratch directory) and fills r with
 * each run, the timing statistics and the measured variation.  n 0 is
 * automatic: GOLDEN_AUTO_RUNS runs, or GOLDEN_THREADED_RUNS when the first
 * run shows threads.  an (may be NULL) sees the first run only.  Returns 0, or -1
 * after error() (r->failed when the command could not be run), or -1 with
 * r->interrupted set (nothing printed) when renacer got SIGINT, SIGTERM or
 * SIGHUP (the tracer's or w->stop).  Release r with gruns_release() either
 * way.
 */
int gruns_do(struct gwork *w, char *const argv[], const struct config_trace *ct,
	     unsigned n, struct analysis *an, struct gruns *r);

/*
 * One more run (at most GOLDEN_CONFIRM_RUNS), to confirm a finding that may
 * be noise (a runtime over the limit, a count of a threaded process): its
 * runtime and model are kept, not its trace.  Returns 0, or -1 when no more
 * runs are allowed or the run failed.
 */
int gruns_confirm(struct gwork *w, char *const argv[], const struct config_trace *ct,
		  struct gruns *r);
void gruns_release(struct gruns *r);

/* The run whose trace is stored (the median one). */
static inline const struct grun *gruns_median(const struct gruns *r)
{
	return &r->rr[r->median];
}

/* --- storing --- */

/*
 * Writes trace file dst from the JSON document src with a "timing" object
 * added (atomically; zstd-compressed at level when zst).  Returns 0 or -1
 * after error().
 */
int golden_write_trace(const char *src, const char *dst, const struct gtiming *t, bool zst,
		       int level);

/* Whether a trace of len bytes is stored compressed. */
bool gwork_want_zst(const struct gwork *w, uint64_t len);

/*
 * Stores the median run of r as the golden of name in dir:
 * DIR/NAME.json[.zst]SUFFIX (suffix "" or ".new"), removing the other
 * compression's file of the same suffix; with suffix "" also
 * DIR/NAME_summary.txt, the two as one unit (golden/store.h).  *written
 * gets the malloc'ed path of the trace.  Returns 0, 1 when w->stop was set
 * before anything changed (nothing printed), or -1 after error().
 */
int golden_store(struct gwork *w, const char *dir, const char *name, struct gruns *r,
		 const char *suffix, char **written);

/*
 * Appends the last lines (at most lines) of a command's saved output to sb.
 * Returns the number of lines appended (0 when the file is empty or
 * unreadable).
 */
unsigned golden_output_tail(const char *outfile, unsigned lines, struct strbuf *sb);

/*
 * When the traced command did not run to its own end because a signal from
 * outside killed it (SIGINT, SIGTERM, SIGHUP, SIGKILL, SIGQUIT: a terminal,
 * a cancelled CI job, timeout(1), the OOM killer): that signal, else 0.  A
 * crash of its own (SIGSEGV, SIGABRT...) is a run to its end.
 */
int golden_killed_from_outside(const struct trace_end *e);

/* --- capture --- */

struct gcapture {
	int status;                    /* GOLDEN_* */
	bool run_failed;               /* the runs failed (else storing failed, if status != 0) */
	char *written;                 /* the golden written, or NULL */
	double wall_ms;                /* median runtime: of the untraced runs net of
					  waits for a CPU, else of the traced runs */
	uint64_t ncalls;               /* syscalls of the stored run */
	struct trace_end end;          /* how the stored run's command ended */
	int interrupted;               /* renacer got this signal: nothing stored */
	char *refused;                 /* why the run was not stored (one line), or NULL */
	struct strbuf output_tail;     /* its last output lines when it did not exit 0 */
	struct assert_results *asserts; /* renacer.toml's assertions on the first run,
					   or NULL when it declares none */
	char *timing;                  /* one line on the untraced timing runs, or NULL */
	char *no_counters;             /* why there are no hardware counts, or NULL */
};

/*
 * Captures the golden of name: runs argv (ct: the declared trace, may be
 * NULL) gwork_runs_for() times and stores the median run in w->dir,
 * removing pending .new files of name; evaluates renacer.toml's assertions
 * on the first run (res->asserts; they do not change the status).  Fills
 * res (release with gcapture_release) and returns res->status.
 */
int golden_capture(struct gwork *w, const char *name, char *const argv[],
		   const struct config_trace *ct, struct gcapture *res);
void gcapture_release(struct gcapture *res);

/* --- validate --- */

/* One validation: the comparison and what to tell the user. */
struct gvalidation {
	struct gout_case k;            /* what the output functions render (points into this) */
	struct gresult r;
	bool have_r;                   /* r holds a comparison */
	struct gmodel *g, *c;          /* golden and current models, or NULL */
	char *name, *golden;           /* trace name, golden path */
	char *hint, *error;            /* see gout_case; may be NULL */
	bool golden_missing;           /* status GOLDEN_MISSING because the file is not there */
	struct strbuf output_tail;     /* last output lines when the exit status changed */
	int interrupted;               /* renacer got this signal: nothing stored */
	char *machine_note;            /* the golden was made on another machine: what
					  differs ("CPU 'A' (4 cores) -> 'B' (2 cores)"),
					  or NULL */
	char *current_trace;           /* with gwork.keep_current: the current (median)
					  run's JSON trace in the scratch directory,
					  with its stacks in "<it>.stacks" when traced
					  with -s; removed by gvalidation_release */
};

/*
 * Validates the trace name: loads its golden gpath (gexists: whether the
 * file is there), runs argv (ct may be NULL; argv NULL: the command the
 * golden recorded, for a golden captured with 'capture NAME -- COMMAND'
 * and declared nowhere) and compares, re-running up
 * to GOLDEN_CONFIRM_RUNS times before a slow run counts; evaluates
 * renacer.toml's assertions on the run; with w->update stores the run as
 * the golden, else writes NAME.json.new (unless CI is set without
 * w->new_dir).  A golden that is missing is captured with w->update (not in
 * CI).  Fills v (release with gvalidation_release) and returns its status.
 */
int golden_validate(struct gwork *w, const char *name, const char *gpath, bool gexists,
		    char *const argv[], const struct config_trace *ct, struct gvalidation *v);
void gvalidation_release(struct gvalidation *v);

/* --- compare two saved traces --- */

struct gcomparison {
	struct gresult r;
	bool have_r;
	struct gmodel *g, *c;          /* the loaded models, or NULL */
	int status;                    /* GOLDEN_* */
	const char *error;             /* which side failed (static text), or NULL */
};

/*
 * Loads the saved traces gpath (golden) and cpath (current), both at once,
 * and compares them with w->o.  Fills res (release with gcomparison_release)
 * and returns its status: GOLDEN_MISSING or GOLDEN_INVALID when either
 * could not be read (after error()).
 */
int golden_compare_files(struct gwork *w, const char *gpath, const char *cpath,
			 struct gcomparison *res);
void gcomparison_release(struct gcomparison *res);

/* --- pending .new files and accept --- */

/* A pending DIR/NAME.json[.zst].new file. */
struct gpending {
	char *path;                    /* the .new file */
	char *name;                    /* the trace name */
	char *golden;                  /* the file it replaces */
	bool stale;                    /* its golden was written after it */
	bool done;                     /* accepted or removed (set by the caller) */
};

/* Lists the pending .new files of dir (none when dir cannot be read). */
void golden_list_pending(const char *dir, struct gpending **out, size_t *n);
void gpending_free(struct gpending *p, size_t n);

/*
 * Makes pending file p the golden of p->name in dir: checks that it reads
 * back as a trace, writes DIR/NAME_summary.txt from it, renames it over the
 * golden and removes the golden of the other compression.  Returns
 * GOLDEN_OK, GOLDEN_INVALID (unreadable .new), GOLDEN_WRITE_FAILED (a file
 * could not be written), after error(), or GOLDEN_CMD_FAILED when w->stop
 * was set before anything changed.  The golden and its summary are written
 * as one unit (golden/store.h).
 */
int golden_accept(struct gwork *w, const struct gpending *p);

/* Removes a stale pending file; 0, or -1 (nothing printed) when it could not. */
int golden_remove_stale(const struct gpending *p);

#endif
