/*
 * The settings of the golden workflow (struct gwork: renacer.toml and the
 * command line), the golden directory's files, and one run of a command
 * (grun_do(): traced, or untraced for the timing runs of timerun.h) in the
 * run environment its trace declares.  Below the workflow (workflow.h) and
 * the timing runs (timerun.h), which both run commands through it.
 *
 * grun.c is the one file of src/golden/ that sees the engine
 * (core/tracer.h, bpf/engine.h): it wires a run's sinks.
 */
#ifndef RENACER_GOLDEN_GRUN_H
#define RENACER_GOLDEN_GRUN_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "config/config.h"
#include "golden/golden.h"
#include "golden/model.h"
#include "golden/store.h"
#include "measure/measure.h"
#include "sink/sink.h"
#include "util/strbuf.h"

struct analysis;

/*
 * The settings of a golden workflow: renacer.toml and what the command line
 * overrides.  Fill the "given" fields (all may be left zero), then call
 * gwork_load_config(); release with gwork_release().
 */
/* gwork.ring_scale for a run under ptrace (after the recorder lost calls
 * with its largest ring buffer) */
#define GRUN_PTRACE (~0u)
/* Whether RENACER_BACKEND=ebpf asked for the recorder: a run that loses
 * calls then fails instead of going back to ptrace. */
bool grun_recorder_forced(void);

struct gwork {
	/* given by the caller */
	const char *config_path;       /* renacer.toml to read, or NULL (./renacer.toml if present) */
	const char *dir;               /* golden directory, or NULL ([golden_traces] dir) */
	unsigned runs;                 /* runs per trace, 0: the trace's or [golden_traces] runs */
	bool update;                   /* validate rewrites goldens that differ */
	const char *new_dir;           /* where .new traces go (NULL: beside the golden) */
	const volatile sig_atomic_t *stop; /* set to a signal number (SIGINT, SIGTERM...)
					  by the caller's handler: no more runs, and
					  nothing is stored; may be NULL */
	const struct trace_env *like;  /* run commands the way this environment
					  says (validate: the golden's), or NULL */
	struct strbuf like_notes;      /* what could not be made like it, one line
					  each (filled by grun_do; may be reset) */
	char *const *inject;           /* -e inject=/fault= of the command line, as
					  "inject=SPEC" or "fault=SPEC": every run
					  is tampered with (core/inject.h); added
					  to a trace's own inject = [...] */
	size_t ninject;
	struct measure *measure;       /* set: grun_do() runs the command untraced
					  through it and fills grun.ms (the
					  timing runs, golden/timerun.h) */
	bool same_machine;             /* validate refuses a golden made on another
					  machine (golden/machine.h) */
	bool keep_current;             /* validate keeps the current run's trace in
					  gvalidation.current_trace (for pictures:
					  report/html.h) until it is released */
	bool source;                   /* -s: runs unwind the stack of every call:
					  traces carry its source line, and a
					  stored golden NAME.json gets
					  NAME_source.json beside it with the
					  stacks (docs/source.md) */
	/* filled by gwork_load_config() */
	struct renacer_config cfg;
	bool have_cfg;                 /* a renacer.toml was read */
	struct golden_opts o;
	bool ci;                       /* the CI environment variable is set */
	bool compress;                 /* store traces above compress_above as .zst */
	uint64_t compress_above;
	int compress_level;
	const char *junit_path;        /* [ci] junit_path, or NULL */
	char **env_vars;               /* variables recorded in a run's environment
					  (patterns; NULL: trace_env_default_vars) */
	/* private */
	const char *cur_name;          /* the trace being run: its messages name it */
	bool traced_timing;            /* the traced runs judge the time: measure
					  their waits for a CPU at every stop */
	char **said;                   /* messages of cur_name already printed (a
					  warning each run of N would repeat) */
	size_t nsaid, asaid;
	char *tmpdir;                  /* scratch directory, or NULL */
	unsigned ring_scale;           /* the eBPF recorder's ring buffer for the
					  next grun_do() is 4^ring_scale times its
					  size: larger for a run again after one
					  lost records (gruns_do); GRUN_PTRACE:
					  that run is under ptrace */
	bool ptrace_only;              /* a recording lost calls: the next
					  runs of this command go under ptrace
					  (gruns_do) */
	char base[GOLDEN_BASE_SIZE];   /* the golden in hand when its capture,
					  validate or accept began: stored only
					  over that one (golden/store.h) */
};

/*
 * Parses renacer.toml (w->config_path or ./renacer.toml) and fills w->o and
 * the other settings from it; sets w->ci and, from RENACER_UPDATE_GOLDEN,
 * w->update.  Checks the inject = [...] of every declared trace and
 * w->inject.  Returns 0, or -1 after error().
 */
int gwork_load_config(struct gwork *w);
/* Frees what gwork_load_config() filled and removes the scratch directory. */
void gwork_release(struct gwork *w);

/* True when the CI environment variable is set (and not "0"/"false"). */
bool golden_in_ci(void);

/*
 * A new trace NAME is run (NULL: none): the engine's messages held during
 * its runs are printed once each, naming it.
 */
void gwork_set_trace(struct gwork *w, const char *name);

/* A private scratch directory (made once, removed by gwork_release), or NULL after error(). */
const char *gwork_tmpdir(struct gwork *w);

/*
 * The number of runs for a trace: w->runs, else ct's, else the config's;
 * 0 when none says: automatic (gruns_do).
 */
unsigned gwork_runs_for(const struct gwork *w, const struct config_trace *ct);

/*
 * The golden file of name in dir: "DIR/NAME.json" or, when only that
 * exists, "DIR/NAME.json.zst".  Returns a malloc'ed path; *exists tells
 * whether it is there.
 */
char *golden_path(const char *dir, const char *name, bool *exists);

/*
 * The names of the goldens in dir (NAME.json or NAME.json.zst; not the
 * NAME_source.json of -s, not pending .new files), sorted, in *names
 * (malloc'ed strings in a malloc'ed array).  Returns how many.
 */
size_t golden_list_names(const char *dir, char ***names);

/* True when name can be a trace name (not empty, no '/', not "." or ".."). */
bool golden_valid_name(const char *name);

/* Creates dir and its parents; 0, or -1 after error(). */
int golden_mkdir_p(const char *dir);

/* Removes path if it exists; 0, or -1 after error(). */
int golden_unlink(const char *path);

/* --- one traced run --- */

/* What one traced run gave. */
struct grun {
	bool started;                  /* false: the command could not be run */
	struct trace_end end;
	double wall_us;
	double cpu_us;                 /* user + system time of the traced processes */
	double net_us;                 /* wall time less the waits for a CPU: renacer's
					  and the longest of any traced task's */
	uint64_t ncalls;
	struct gmodel *m;              /* the run's model (timing per syscall), finalized
					  with this process's path context */
	struct strbuf summary;         /* a run with a JSON trace: its -c table
					  (with --timing's list), as a golden's
					  NAME_summary.txt holds it */
	struct msample ms;             /* an untraced run (gwork.measure): its numbers */
};

/*
 * Runs argv under trace (following children as ct says, in ct's cwd with
 * ct's env; ct may be NULL) with stdin from /dev/null and the command's
 * output (stdout and stderr) saved to outfile.  Writes the JSON trace to
 * json_path and the -c table to summary_path (either may be NULL) and feeds
 * an (may be NULL).  Returns 0 when the command ran (whatever its exit
 * status), -1 after error() when it could not be run (rr->started false)
 * or a file could not be opened.  rr is filled either way; release it with
 * grun_release().
 */
int grun_do(struct gwork *w, char *const argv[], const struct config_trace *ct,
	    const char *json_path, const char *outfile, struct analysis *an,
	    const char *summary_path, struct grun *rr);
void grun_release(struct grun *rr);

#endif
