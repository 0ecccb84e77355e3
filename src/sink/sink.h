/*
 * Sinks: every consumer of events is a sink behind one small table of
 * callbacks (begin, event, process exit, end), as git's trace2 targets.
 */
#ifndef RENACER_SINK_H
#define RENACER_SINK_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "event.h"

struct sink;

/* enum stdio_kind, struct trace_env and struct trace_info, what begin()
 * learns of a trace, are in event.h, beside the records that follow. */

/* What a sink learns at the end. */
struct trace_end {
	int exit_code;              /* of the traced command (first tracee) */
	int term_signal;            /* killing signal of it, or 0 */
	uint64_t wall_ns;           /* wall time of the whole trace */
	int detached;               /* tracing stopped by detaching */
	int interrupted;            /* SIGINT/SIGTERM/SIGHUP ended it */
	int interrupt_signal;       /* that signal when interrupted, else 0;
				       renacer then ends as killed by it */
	uint64_t stops;             /* ptrace stops taken (statuses of tracees
				       handled; 0 for an engine without them) */
	uint64_t lost;              /* records the engine lost (the eBPF
				       recorder's ring buffer was full): the
				       trace misses that many calls or
				       signals; 0 for ptrace */
};

/*
 * Per-syscall totals, for an engine that counts in the kernel and has no
 * record of each call (the eBPF back end, src/bpf/engine.h).  Counting
 * follows strace -c: a call counts at its exit, so exit_group and calls cut
 * short by the death of their task are not in calls but in unfinished.
 */
struct sc_total {
	long nr;                    /* syscall number, as event.nr */
	const char *name;           /* as event.name */
	uint64_t calls;             /* calls that returned */
	uint64_t errors;            /* of calls, those that failed (-4095..-1) */
	uint64_t unfinished;        /* calls their task died inside (not in calls) */
	uint64_t cpu_ns, cpu_min_ns, cpu_max_ns;    /* system CPU time of the
						       returned calls (have_cpu) */
	uint64_t wall_ns, wall_min_ns, wall_max_ns; /* wall-clock time of the
						       returned calls (have_wall) */
	uint64_t unfinished_wall_ns; /* entry to death of the unfinished ones (have_wall) */
};

struct trace_totals {
	const struct sc_total *rows; /* one per syscall with calls or unfinished */
	size_t n;
	bool have_cpu;              /* the cpu_* fields were measured */
	bool have_wall;             /* the wall_* fields were measured */
};

/*
 * The callbacks.  Ownership: the event and everything it points to belong
 * to the caller and are valid only during the call; a sink that needs data
 * later must copy it.  One exception: the live engine keeps an
 * EV_SYSCALL_ENTRY event valid and unchanged until the EV_SYSCALL of the
 * same thread is delivered (the text sink uses it to print
 * "<unfinished ...>" lines only when another line interrupts).
 * begin/end return 0 or -1 (after error()); a failing
 * sink makes renacer exit non-zero but tracing goes on.
 */
struct sink_ops {
	const char *name;
	int wants_entry;            /* deliver EV_SYSCALL_ENTRY events */
	int no_args;                /* never reads ev->args: decoding can be skipped */
	int needs_track;            /* reads ev->task, ev->fd_obj, ev->ret_obj: the
				       list runs the tracker (src/track/track.h)
				       before it, and arguments are decoded */
	int (*begin)(struct sink *s, const struct trace_info *ti);
	void (*event)(struct sink *s, const struct event *ev);
	void (*proc_exit)(struct sink *s, const struct event *ev);
	int (*end)(struct sink *s, const struct trace_end *te);
	/* Optional.  Called once, just before end(), by an engine that counts
	 * per syscall instead of delivering EV_SYSCALL records; such an engine
	 * still delivers process events (EV_PROC_START, EV_EXEC,
	 * EV_PROC_EXIT).  A sink without it needs the records: the CLI does
	 * not pick such an engine for it (sink_list_totals_ok()).  tt and
	 * its rows belong to the engine and are valid during the call only. */
	void (*totals)(struct sink *s, const struct trace_totals *tt);
	void (*free)(struct sink *s);  /* frees the sink itself */
};

struct sink {
	const struct sink_ops *ops;
};

struct tracker;

/*
 * A fan-out list of sinks: each call goes to every sink, in order.  When a
 * sink needs it, the list owns the process/descriptor tracker and runs it
 * on each event before the sinks see it.
 */
struct sink_list {
	struct sink **items;
	size_t n, alloc;
	int wants_entry;            /* any sink wants entries */
	int needs_args;             /* any sink reads decoded arguments */
	int records;                /* number of sinks without totals() */
	struct tracker *track;      /* NULL when no sink needs it */
};
#define SINK_LIST_INIT { NULL, 0, 0, 0, 0, 0, NULL }

/* True when every sink of l can work from totals (has a totals callback). */
#define sink_list_totals_ok(l) ((l)->records == 0)

void sink_list_add(struct sink_list *l, struct sink *s);
int sink_list_begin(struct sink_list *l, const struct trace_info *ti);
/* Runs the tracker on ev (which it annotates: ev->task...), then every
 * sink.  The engine owns ev; sinks see it const. */
void sink_list_event(struct sink_list *l, struct event *ev);
int sink_list_end(struct sink_list *l, const struct trace_end *te);
/* Hands per-syscall totals to every sink that has a totals callback. */
void sink_list_totals(struct sink_list *l, const struct trace_totals *tt);
void sink_list_release(struct sink_list *l);  /* frees the sinks too */

#endif
