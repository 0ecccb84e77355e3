/*
 * The compact trace model a golden comparison works on: per process a
 * sequence of normalized call keys (interned), per-syscall counts, errors
 * and time, and the files, programs and network endpoints the trace used.
 * It is built by a sink, so a live run and a saved trace give the same
 * model.  Normalization rules are in docs/golden.md.
 */
#ifndef RENACER_GOLDEN_MODEL_H
#define RENACER_GOLDEN_MODEL_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "golden/gio.h"
#include "golden/label.h"
#include "golden/machine.h"
#include "golden/golden.h"
#include "util/intern.h"
#include "golden/timing.h"
#include "sink/sink.h"

/* Call flags. */
enum {
	GC_FAILED = 1 << 0,     /* returned an error */
	GC_VOLATILE = 1 << 1,   /* count or presence random by nature (timing
				   syscalls, getrandom, EAGAIN...; docs/golden.md) */
	GC_UNFINISHED = 1 << 2, /* the task died inside the call */
	GC_MEM = 1 << 3,        /* memory management (its order varies when threaded) */
	GC_IGNORED = 1 << 4,    /* dropped by an ignore list */
	GC_STD_SHIFT = 5,       /* bits 5-6: 1 + the standard stream (0-2) the
				   call works on, 0 for none */
	GC_STD_MASK = 3 << 5,
	GC_AGG = 1 << 7,        /* an aggregate of calls beyond the model's
				   budget (struct gagg), not one call */
};

/*
 * How many calls a model keeps one by one, in order, by default
 * (limits.sequence_calls): the calls after them are kept as aggregates per
 * task, raw key, name, flags, errno and source, so that a model's memory
 * does not grow with the trace.  Counts, errors, time, I/O and resources
 * stay exact; only the order of the later calls is not compared.
 */
#define GOLDEN_SEQUENCE_CALLS 500000

/* The standard stream (0-2) call c works on, or -1. */
#define GCALL_STD(c) ((((c)->flags & GC_STD_MASK) >> GC_STD_SHIFT) - 1)

/* Kinds of file for I/O volume: golden/gio.h. */

/* One syscall as the model keeps it (12 bytes). */
struct gcall {
	uint32_t key;           /* normalized key id in gmodel.keys */
	uint32_t dur_us;        /* duration, saturated */
	uint8_t flags;          /* GC_* */
	uint8_t err;            /* errno (255 for larger ones), 0 on success */
	uint16_t sc;            /* syscall name id in gmodel.names */
};

/* The calls an aggregate (GC_AGG) stands for. */
struct gagg {
	uint64_t n;             /* calls */
	uint64_t dur_us;        /* their total duration */
	uint32_t next;          /* building: the next aggregate of the same key
				   with another source (index in calls), or
				   UINT32_MAX */
};

/* Resource kinds (files, programs, endpoints). */
enum gres_kind {
	GR_OPEN = 0,            /* a file opened */
	GR_CREATE,              /* a file or directory created */
	GR_DELETE,              /* a file or directory deleted */
	GR_EXEC,                /* a program executed (path and argv) */
	GR_ENDPOINT,            /* a network endpoint connected, bound or sent to */
	GR_NKINDS,
};
const char *gres_kind_name(enum gres_kind k);   /* "opened", "created", ... */

/* A task (process or thread) after finalization. */
struct gproc {
	char *label;            /* processes "1", "1.2", "1.2.1": creation order
				   among the processes each process made; threads
				   "1/t1", "1/t2", "1/t2.1": creation order among
				   the threads of their creator */
	uint32_t group;         /* its process in gmodel.groups */
	bool is_thread;
	bool exited;            /* exit seen */
	bool threaded;          /* its thread group has more than one thread */
	int exit_code;
	int term_signal;
	char *exe;              /* last program executed (normalized), or NULL */
	struct gcall *calls;    /* calls[0..nkept) one by one, in order; the rest
				   aggregates (GC_AGG), after them */
	uint32_t ncalls;
	uint32_t nkept;
	struct gagg *agg;       /* of calls[nkept + i] (NULL when none) */
	uint32_t *seq;          /* keys of the compared calls (not volatile/ignored) */
	uint32_t nseq;
	uint32_t *seq_idx;      /* index in calls of each seq element */
	uint32_t *src;          /* per call: 1 + its source's id in gmodel.srcs,
				   0 for none; NULL when no call of the task has
				   one (traced without -s) */
};

/* How many calls p->calls[i] stands for, and their total duration (us). */
static inline uint64_t gcall_n(const struct gproc *p, uint32_t i)
{
	return i < p->nkept ? 1 : p->agg[i - p->nkept].n;
}

static inline uint64_t gcall_dur(const struct gproc *p, uint32_t i)
{
	return i < p->nkept ? p->calls[i].dur_us : p->agg[i - p->nkept].dur_us;
}

/*
 * A process (thread group) after finalization: the counts that are compared
 * per process, threads included, since which thread makes a call can depend
 * on scheduling.
 */
struct ggroup {
	char *label;            /* the process label ("1", "1.2") */
	char *exe;              /* last program executed (normalized), or NULL */
	char *cmdline;          /* its command line ("ls -l"), or NULL */
	uint32_t leader;        /* index of its first task in gmodel.procs */
	uint32_t nthreads;      /* threads besides the leader */
	bool threaded;          /* nthreads > 0 */
	uint32_t *counts;       /* per name id: calls counted (not ignored, not
				   volatile by nature) */
	uint64_t io[GIO_NBUCKETS];   /* bytes per kind of file and direction (the
					standard streams apart: GK_STDIO) */
	bool exited;            /* exit of the leader seen */
	int exit_code, term_signal;
	uint64_t mem_peak;      /* the most memory it committed (writable private
				   mappings and heap, not reservations), bytes
				   (track/track.h) */
	uint64_t rss_kb;        /* its peak resident memory (VmHWM), KiB; 0 unknown */
};

/* Per-syscall totals over the whole trace (indexed by name id). */
struct gsc_stat {
	uint64_t calls;         /* all calls */
	uint64_t stable;        /* calls that are not volatile or ignored */
	uint64_t errors;        /* failed calls */
	uint64_t stable_errors; /* failed calls that are not volatile */
	uint64_t time_us;       /* sum of durations */
};

struct gmodel {
	struct intern keys;     /* normalized call keys */
	struct intern names;    /* syscall names */
	struct intern res;      /* resources, as "<kind>\t<value>" */
	struct gproc *procs;    /* tasks, sorted by label */
	size_t nprocs;
	struct ggroup *groups;  /* processes, sorted by label */
	size_t ngroups;
	struct trace_env env;   /* how the command was run (sink.h) */
	bool has_env;           /* env was recorded */
	struct gsc_stat *sc;    /* names.n entries */
	struct intern sigs;     /* signal names delivered */
	uint64_t *sig_counts;
	uint64_t ncalls;        /* syscalls in the trace */
	uint64_t cut_calls;     /* calls kept only in aggregates (beyond
				   limits.sequence_calls) */
	uint64_t wall_ns;       /* wall time of the traced run */
	int exit_code, term_signal;
	char *command;          /* the traced command, or NULL */
	char **argv;            /* the same as an argument vector (NULL-terminated), or NULL */
	struct gtiming timing;  /* from a golden's "timing" key (runs == 0 if none) */
	struct intern srcs;     /* where calls were made (-s): "src/x.c:41 in f" */
	struct gmachine machine;   /* where a golden was made (timing.machine;
				      machine.known false when not recorded) */
	void *priv;             /* building state, NULL once finalized */
};

/*
 * Creates an empty model; o must outlive it.  gmodel_sink() returns the
 * sink that feeds it (add it to a sink list; the list frees the sink, not
 * the model).  Call gmodel_finalize() after the trace has ended.
 */
struct gmodel *gmodel_new(const struct golden_opts *o);
struct sink *gmodel_sink(struct gmodel *m);

/*
 * Normalizes what the stream left raw (paths with ctx, which may be NULL;
 * pids; user rules; ignore lists), names the processes and builds the
 * compared sequences.  Returns 0.
 */
int gmodel_finalize(struct gmodel *m, const struct gcontext *ctx);
void gmodel_free(struct gmodel *m);

/*
 * Reads a saved trace (any format trace_read() accepts) into a finalized
 * model, using the capture context and timing stored in it.  Returns 0, or
 * -1 after error(); *missing is set when the file does not exist.
 */
int gmodel_load(const char *path, const struct golden_opts *o, struct gmodel **out,
		int *missing);

/* Name of a syscall id, of a resource id (after the kind), its kind. */
static inline const char *gmodel_name(const struct gmodel *m, uint16_t sc)
{
	return intern_str(&m->names, sc);
}
const char *gmodel_res_value(const struct gmodel *m, uint32_t id);
enum gres_kind gmodel_res_kind(const struct gmodel *m, uint32_t id);

/* The process of label, or NULL (binary search). */
const struct ggroup *gmodel_group(const struct gmodel *m, const char *label);

/* Bytes of memory the model holds (for the scale benchmark). */
size_t gmodel_mem(const struct gmodel *m);

/*
 * Fills v from the finalized models of n runs of one command (n >= 1),
 * relative to run ref (the one whose trace is kept): what varied between
 * them (golden/variation.h).  Only what varied is kept.  Release with
 * gvar_release().
 */
void gvar_from_models(struct gvar *v, struct gmodel *const *models, size_t n, size_t ref);

#endif
