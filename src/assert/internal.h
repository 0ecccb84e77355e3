/*
 * Internals of the analysis shared by the files of src/assert: the state the
 * analysis sink accumulates from typed events (the tracker's tasks and
 * objects, the semantics table), kept small and bounded so that a run of
 * millions of syscalls costs O(processes + open fds + live mappings).
 */
#ifndef RENACER_ASSERT_INTERNAL_H
#define RENACER_ASSERT_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "event.h"
#include "assert/assert.h"
#include "track/amap.h"
#include "util/intern.h"
#include "util/intmap.h"
#include "util/strbuf.h"

/* ---- syscall names and counts ------------------------------------------ */

/* What the run did with one syscall name (by its id in analysis.names). */
struct sc_stat {
	uint64_t calls;
	uint64_t errors;
	uint64_t time_ns;
};

/* ---- descriptors ------------------------------------------------------------- */

/*
 * What a process moved through one object (struct tobj, by its id): kept
 * while the process uses it, folded into the report's candidates when the
 * process closes a descriptor of it or ends.
 */
struct fdst {
	char *path;              /* the path it was opened by, NULL unknown */
	int64_t fd;              /* the descriptor number it was last used by */
	uint64_t rd_calls, rd_bytes, wr_calls, wr_bytes;  /* successful transfers */
};

/* ---- processes and tasks ------------------------------------------------ */

struct proc {
	pid_t pid, ppid;
	int parent;              /* index in analysis procs, or -1 */
	char *name;              /* basename of the program (after exec), or NULL */
	uint64_t start_ns, end_ns;
	bool have_start, exited, vm_shared;
	int copy_from;           /* forked: parent whose memory it copies on first use, or -1 */
	bool waited;             /* the parent reaped it with wait4/waitid */
	uint64_t wait_start, wait_end;  /* the reaping call's entry and exit */
	uint64_t max_rss_kb;     /* VmHWM at exit (max over its threads) */
	uint64_t calls, work_calls, work_ns;   /* syscalls of all its threads */
	struct amap mem;         /* its address space, freed at exit */
	uint64_t mem_now, mem_resv;  /* its part of the tree's totals */
	struct intmap fds;       /* tobj id -> struct fdst *, freed at exit */
	uint32_t npaths;         /* its entries in analysis.paths */
};

#define LOOP_RING 8
#define LOOP_MAXP 4

struct loop_run {
	uint64_t start_ns;       /* entry of the first call of the run */
	uint64_t end_ns;         /* exit of the last call */
	uint64_t busy_ns;        /* sum of the calls' durations */
	uint32_t len;            /* calls matching the call p before */
	char *sample;            /* one call of the cycle, rendered (when long) */
};

/* The loop window of a live thread (freed when it exits). */
struct loop_state {
	uint64_t ring_sig[LOOP_RING];
	uint32_t ring_name[LOOP_RING];  /* index in names */
	uint64_t ring_ts[LOOP_RING], ring_dur[LOOP_RING];
	uint64_t ring_n;         /* calls pushed so far */
	struct loop_run run[LOOP_MAXP + 1];  /* by period */
};

/* A task (thread), by the tracker's idx (struct ttask). */
struct task {
	pid_t tid, pid;
	int proc;                /* index of its process, -1 until seen */
	uint64_t first_ns, last_ns;
	bool seen, exited;
	uint64_t calls, work_calls, work_ns;
	struct loop_state *loop; /* NULL until its first call and after its exit */
};

/* A finished loop kept for the report (the longest ones). */
struct loop_found {
	pid_t tid, pid;
	unsigned period;
	uint32_t names[LOOP_MAXP];
	uint64_t calls, start_ns, end_ns, busy_ns;
	char *sample;
};
#define LOOPS_KEPT 4

/* A file accessed repeatedly by one process. */
struct path_use {
	char *path;                     /* kept_paths: owned; in the table: the
					   string of id in analysis.path_ids */
	uint32_t id;                    /* in the table: its path's id */
	uint64_t seq;                   /* order of first access (ties) */
	pid_t pid;
	int proc;
	uint32_t opens, stats, reads;   /* reads: read calls on fds opened from it */
	uint64_t bytes_read;
	uint64_t time_ns;               /* time of the opens/stats */
};
#define PATHS_MAX 8192
#define PATHS_KEPT 8

/* Whether u is more redundant than v (ties: the first accessed). */
static inline bool path_more_redundant(const struct path_use *u, const struct path_use *v)
{
	uint64_t ru = (uint64_t)u->opens + u->stats, rv = (uint64_t)v->opens + v->stats;
	return ru != rv ? ru > rv : u->seq < v->seq;
}

/* An fd with tiny transfers, folded at close. */
struct io_found {
	pid_t pid;
	int64_t fd;
	char *path;
	uint64_t calls, bytes;
	bool writes;                    /* the writes (else the reads) */
};
#define IO_KEPT 8

#define GPU_DEVS 16
struct gpu_dev {
	char *path;
	uint64_t calls, ioctls, reads, writes, mmaps;
	uint64_t bytes_in, bytes_out, bytes_mapped;
	uint64_t time_ns;
};

struct analysis {
	/* totals */
	uint64_t syscalls, errors, unfinished;
	uint64_t syscall_ns;              /* sum of durations */
	uint64_t first_ns, last_ns;       /* earliest entry, latest exit */
	bool any_event;
	uint64_t wall_ns;                 /* from trace_end, 0 if unknown */
	bool ended;

	struct intern names;              /* syscall names */
	struct sc_stat *stats;            /* by name id */
	size_t astats;

	struct proc *procs;
	size_t nprocs, aprocs;
	struct intmap pids;               /* pid -> index of its latest process */
	int root;                         /* index of the first process, -1 */

	struct task *tasks;               /* by tracker task idx */
	size_t ntasks, atasks;

	/* memory: committed (memory.c) */
	uint64_t mem_now, mem_peak, mem_peak_ns;
	pid_t mem_peak_pid;
	uint64_t mem_peak_pid_bytes;
	uint64_t resv_now, resv_at_peak;  /* reserved, not committed */
	uint64_t mmap_calls, munmap_calls, mremap_calls, mprotect_calls, brk_calls;
	bool rss_seen;

	/* loops */
	struct loop_found loops[LOOPS_KEPT];
	size_t nloops;
	uint64_t progress_seq;

	/* redundant access */
	struct intern path_ids;           /* the paths of the table (compacted) */
	struct intmap paths;              /* proc << 32 | path id -> struct path_use * */
	uint64_t paths_seq;
	uint64_t paths_dropped;
	struct path_use kept_paths[PATHS_KEPT];
	size_t nkept_paths;

	/* unbuffered io */
	struct io_found io[IO_KEPT];
	size_t nio;

	/* gpu */
	struct gpu_dev gpu[GPU_DEVS];
	size_t ngpu;
	uint64_t gpu_calls, gpu_ns, gpu_opens;

	/* untraced runs of the same command (analysis_set_runtime()) */
	double *rt_net_us, *rt_wall_us;
	size_t nrt;
};

/*
 * Committed memory (memory.c).  mem_call applies one successful call whose
 * struct sysent.memop is op to p's address space and the tree's totals
 * (returns 1 when it was one); mem_materialize gives a forked child its
 * copy of its parent's (proc.copy_from) on first use; mem_reset empties a
 * process (execve); mem_exit takes an ended process out of the totals.
 */
int mem_call(struct analysis *a, struct proc *p, const struct event *ev, uint8_t op);
void mem_materialize(struct analysis *a, struct proc *c, uint64_t ts);
void mem_reset(struct analysis *a, struct proc *p, uint64_t ts);
void mem_exit(struct analysis *a, struct proc *p);

/* Name of syscall name id. */
static inline const char *an_name(const struct analysis *a, uint32_t id)
{
	return id < a->names.n ? intern_str(&a->names, id) : "?";
}

/* Run wall time: trace_end's when known, else the span of the events. */
static inline uint64_t an_run_ns(const struct analysis *a)
{
	if (a->wall_ns)
		return a->wall_ns;
	return a->last_ns > a->first_ns ? a->last_ns - a->first_ns : 0;
}

/*
 * How much calls transfers of bytes in all look unbuffered, 0..1: the
 * measure the analysis keeps its worst descriptors by, and UnbufferedIO's
 * confidence (docs/anti-patterns.md).
 */
#define IO_MIN_CALLS 32.0
#define IO_TINY_BYTES 512.0
double unbuffered_confidence(uint64_t calls, uint64_t bytes);

/* One assertion, as eval.c reads it (converted from the config). */
enum assert_type {
	AT_CRITICAL_PATH = 1,
	AT_SPAN_COUNT,
	AT_MEMORY_USAGE,
	AT_ANTI_PATTERN,
};
enum { TM_ALLOCATIONS = 0, TM_RSS = 1 };

struct assert_spec {
	const char *name;
	enum assert_type type;
	bool enabled, fail_on_violation;
	double max_duration_ms;          /* critical_path */
	const char *trace_name_pattern;  /* critical_path, or NULL */
	uint64_t max_spans;              /* span_count */
	const char *span_name_pattern;   /* span_count, or NULL */
	uint64_t max_bytes;              /* memory_usage */
	int tracking_mode;               /* memory_usage: TM_* */
	const char *pattern;             /* anti_pattern */
	double threshold;                /* anti_pattern */
	uint64_t regex_cost;             /* re_cost() budget of the patterns, 0: default */
};

/* Evaluates n specs into res (appended); -1 after error() on a bad regex. */
int assert_eval_specs(const struct assert_spec *specs, size_t n, const struct analysis *a,
		      struct assert_results *res);

/* Writes sb to out and flushes; -1 after error() on failure. */
int assert_write_out(FILE *out, const struct strbuf *sb);

/* Readable name of a detector ("PCIe Bottleneck"), or pattern itself. */
const char *anti_pattern_label(const char *pattern);

/* Critical path (critpath.c): fills r (segments and duration). */
struct cp_seg { int proc; uint64_t ns; };
struct cp_result {
	struct cp_seg *segs;     /* per process on the path, in path order, merged */
	size_t nsegs;
	uint64_t total_ns;       /* sum of all segments (root's lifetime) */
};
void critical_path(const struct analysis *a, struct cp_result *r);

/*
 * critical_path with untraced runs (analysis_set_runtime()): the median of
 * their net times, times the share path_ns of total_ns that the selected
 * processes took on the traced path (pattern), into *actual_ms, with an
 * evidence line appended to sb.  Returns false (nothing changed) without
 * such runs.
 */
bool critpath_untraced(const struct analysis *a, uint64_t path_ns, uint64_t total_ns,
		       bool pattern, double *actual_ms, struct strbuf *sb);
void cp_result_release(struct cp_result *r);

/* Peak of concurrent VmHWM over the tree (bytes), 0 when unknown. */
uint64_t rss_tree_peak(const struct analysis *a, pid_t *top_pid, uint64_t *top_kb,
		       size_t *nprocs_with_rss);

/* Appends a duration in ms with up to two decimals ("0.73ms", "125ms"). */
void fmt_ms(struct strbuf *sb, uint64_t ns);
/* Appends bytes human-readable ("12.3MB", 1024-based). */
void fmt_bytes(struct strbuf *sb, uint64_t bytes);

#endif
