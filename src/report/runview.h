/*
 * What the pictures of a run need, read from its saved trace in one pass:
 * the stacks of its calls as a profile tree (under the chain of programs
 * that made them: "make;sh;cc1;main;[openat]") and a timeline of its
 * processes and threads (when each ran, its longest calls: where it
 * waited).  The HTML report (report/html.h) and `renacer flamegraph-diff`
 * (report/flamediff.h) draw from it.
 */
#ifndef RENACER_REPORT_RUNVIEW_H
#define RENACER_REPORT_RUNVIEW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "sink/profile.h"

/* Longest calls kept per task for the timeline. */
#define RV_WAITS 24

/* A call a task spent long in. */
struct rv_wait {
	uint64_t ts_ns, dur_ns;  /* since the trace began */
	const char *name;        /* syscall name (the view's) */
	uint32_t name_id;        /* private: while the trace is read */
};

/* A process or thread. */
struct rv_task {
	char *label;             /* as the golden model names it: "1", "1.2", "1/t1" */
	char *name;              /* the program it ran last (base name), or "?" */
	pid_t pid, tid;
	bool thread;
	uint64_t start_ns, end_ns;   /* first and last moment seen */
	uint64_t ncalls, call_ns;    /* its syscalls and the time in them */
	struct rv_wait waits[RV_WAITS];   /* longest first */
	size_t nwaits;
	/* private */
	int32_t parent;          /* creating task's index, -1 unknown */
	uint32_t ordinal, proc;
	uint32_t name_id;
};

struct runview {
	struct profile *stacks;  /* every syscall's stack, under its programs */
	bool own_frames;         /* some calls had frames of the program (-s/-k) */
	struct rv_task *tasks;   /* sorted by label */
	size_t ntasks;
	uint64_t wall_ns;        /* the trace's wall time (the last moment seen when unknown) */
	uint64_t ncalls;
	char *command;           /* the traced command, or NULL */
};

/* What to gather. */
struct runview_opts {
	bool no_programs;        /* stacks without the programs' frames */
	uint64_t string_bytes;   /* trace reading limits (0: defaults; replay/reader.h) */
	uint64_t records;
};

/*
 * Reads the trace at path (any format trace_read() accepts) into a new
 * view.  Returns 0, or -1 after error() when it cannot be read.
 */
int runview_load(const char *path, const struct runview_opts *o, struct runview **out);
void runview_free(struct runview *v);

/*
 * The file a trace's pictures are best drawn from: "DIR/NAME_source.json"
 * beside a golden "DIR/NAME.json[.zst]" (the same run with every stack, -s),
 * "PATH.stacks" beside a run's scratch trace, else path itself.  Malloc'ed.
 */
char *runview_stacks_path(const char *path);

#endif
