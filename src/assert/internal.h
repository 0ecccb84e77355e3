/*
 * Internals of the analysis shared by the files of src/assert: the state the
 * analysis sink accumulates from events, kept small and bounded so that a
 * run of millions of syscalls costs O(processes + open fds + live mappings).
 */
#ifndef RENACER_ASSERT_INTERNAL_H
#define RENACER_ASSERT_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "event.h"
#include "assert/assert.h"
#include "util/strbuf.h"

/* ---- values of events, live (typed) or replayed (V_TEXT) -------------- */

/* True when the event was read back from a saved trace (args are V_TEXT). */
bool ev_is_text(const struct event *ev);

/*
 * Numeric value of argument i: typed values give their number, V_TEXT is
 * parsed ("4096", "-1", "0x7f..", "NULL", "AT_FDCWD", "3</path>", "0644"),
 * live events fall back to the raw register.  Returns false when there is
 * no number (a replayed argument that is not numeric, or absent).
 */
bool ev_arg_num(const struct event *ev, unsigned i, uint64_t *out);

/*
 * String value of argument i (a path, usually): V_STR bytes, or a quoted
 * strace string in V_TEXT unescaped.  Appends to out and returns true; false
 * when the argument is not a string (e.g. an unreadable address).
 */
bool an_arg_str(const struct event *ev, unsigned i, struct strbuf *out);

/*
 * The path shown beside an fd argument (-y: V_FD path, or "3</p>" text),
 * appended to out; false when none.
 */
bool ev_arg_fd_path(const struct event *ev, unsigned i, struct strbuf *out);

/*
 * True when argument i carries the flag: a V_TEXT/V_FLAGS rendering holding
 * the name as a '|'-separated token, or a number with bit set.
 */
bool ev_arg_has_flag(const struct event *ev, unsigned i, const char *name, uint64_t bit);

/* Text of argument i when it is V_TEXT, else NULL (len in *len). */
const char *ev_arg_text(const struct event *ev, unsigned i, size_t *len);

/*
 * Searches a structure argument for the integer field name (live V_STRUCT
 * or "name=123" in V_TEXT); false when absent.
 */
bool ev_arg_field(const struct event *ev, unsigned i, const char *name, int64_t *out);

/* Unescapes a strace-quoted string starting at p[0] == '"'; false if not one. */
bool unquote_strace(const char *p, size_t len, struct strbuf *out);

/* ---- interned syscall names and counts -------------------------------- */

struct sc_name {
	char *name;
	uint64_t calls;
	uint64_t errors;
	uint64_t time_ns;
	uint8_t kind, flags;     /* what the analysis does with it (analysis.c) */
};

/* ---- mappings ----------------------------------------------------------- */

struct range { uint64_t lo, hi; };       /* [lo, hi) page-aligned */

struct mapset {
	struct range *r;         /* sorted, disjoint */
	size_t n, alloc;
	uint64_t bytes;          /* sum of lengths */
};

/* ---- fds ---------------------------------------------------------------- */

enum fd_kind {
	FK_UNKNOWN = 0,   /* inherited or not seen opened */
	FK_FILE,          /* opened by path */
	FK_PIPE,
	FK_SOCKET,
	FK_SPECIAL,       /* eventfd, timerfd, signalfd, epoll, inotify, ... */
	FK_GPU,           /* a GPU device file */
};

struct fdent {
	char *path;              /* NULL when unknown */
	uint8_t kind;            /* enum fd_kind */
	bool used;               /* slot holds an open fd (or an inherited one) */
	bool cloexec;
	uint64_t rd_calls, rd_bytes, wr_calls, wr_bytes;  /* successful transfers */
};

struct fdtab {
	struct fdent *e;
	size_t n;                /* slots allocated */
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
	uint64_t brk_base, brk_cur;            /* 0 until the first brk */
	uint64_t mem;            /* mapped + brk bytes now */
	uint64_t mem_peak;
	struct mapset maps;      /* freed at exit */
	struct fdtab fds;        /* freed at exit */
	bool live;               /* in the pid index */
	unsigned threads;        /* tasks seen */
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

struct task {
	pid_t tid, pid;
	int proc;                /* index of its process */
	uint64_t first_ns, last_ns;
	bool exited;
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
	char *path;
	pid_t pid;
	int proc;
	uint32_t opens, stats, reads;   /* reads: read calls on fds opened from it */
	uint64_t bytes_read;
	uint64_t time_ns;               /* time of the opens/stats */
};
#define PATHS_MAX 8192
#define PATHS_KEPT 8

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

	struct sc_name *names;
	size_t nnames, anames;
	uint32_t *name_hash;              /* open addressing: index + 1 */
	size_t name_hash_size;

	struct proc *procs;
	size_t nprocs, aprocs;
	int *pid_hash;                    /* live pid -> proc index + 1 */
	size_t pid_hash_size, pid_hash_used;
	int root;                         /* index of the first process, -1 */

	struct task *tasks;
	size_t ntasks, atasks;
	int *tid_hash;
	size_t tid_hash_size, tid_hash_used;

	/* memory: allocations */
	uint64_t mem_now, mem_peak, mem_peak_ns;
	pid_t mem_peak_pid;
	uint64_t mem_peak_pid_bytes;
	uint64_t mmap_calls, munmap_calls, mremap_calls, brk_calls;
	bool rss_seen;

	/* loops */
	struct loop_found loops[LOOPS_KEPT];
	size_t nloops;
	uint64_t progress_seq;

	/* redundant access */
	struct path_use *paths;           /* open addressing by (pid, path) */
	size_t paths_size, paths_used;
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

/* Allocation accounting helpers (analysis.c). */
void mapset_add(struct mapset *m, uint64_t lo, uint64_t hi);
void mapset_remove(struct mapset *m, uint64_t lo, uint64_t hi);
void mapset_copy(struct mapset *dst, const struct mapset *src);
void mapset_release(struct mapset *m);

/* Name of interned syscall idx. */
static inline const char *an_name(const struct analysis *a, uint32_t idx)
{
	return idx < a->nnames ? a->names[idx].name : "?";
}

/* UnbufferedIO's confidence for calls transfers of bytes in all (detect.c). */
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

/* Run wall time: trace_end's when known, else the span of the events. */
uint64_t an_run_ns(const struct analysis *a);

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
