/*
 * The ptrace engine: starts or attaches to tracees, follows children,
 * turns every stop into an event record and hands it to the sinks.
 */
#ifndef RENACER_TRACER_H
#define RENACER_TRACER_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "core/cpus.h"
#include "sink/sink.h"
#include "sys/decode.h"
#include "sys/filter.h"   /* STATUS_*, the -e status= bits */

struct trace_quals;
struct run_setup;

struct tracer_opts {
	bool follow;               /* -f: follow fork/vfork/clone */
	const pid_t *attach;       /* -p PIDs, or NULL to start argv */
	size_t nattach;
	const uint8_t *trace_set;  /* bitmap over syscall nr; NULL traces all */
	unsigned status_mask;      /* STATUS_*; 0 means STATUS_ALL */
	bool no_seccomp;           /* never use a seccomp-bpf filter */
	bool collect_rss;          /* read VmHWM at every process exit */
	bool collect_sched;        /* read each task's run-queue wait at its exit
				      (event.rq_wait_ns; core/procstat.h) */
	bool cpu_time;             /* fill event.cpu_ns (wait4's rusage) */
	struct decode_opts dopts;
	struct cpu_opts cpu;       /* CPU placement (core/cpus.h); zero: the
				      default co-location */
	/* Count calls by name only: each reported syscall is delivered once,
	 * at its entry stop, as EV_SYSCALL with state SC_ENTRY_ONLY (event.h:
	 * no result, no exit time, nothing decoded at exit), and never as
	 * EV_SYSCALL_ENTRY.  Under the seccomp filter (a command started with
	 * -f; all calls when trace_set is NULL) no exit stop is taken at all:
	 * one stop per call instead of two.  Without it (-p, no -f) the exit
	 * stop still happens but adds nothing.  Needs status_mask 0; only for
	 * sinks that read nothing of a call but its name, number, task and
	 * entry time (the CLI sets it for count-only assertions with no trace
	 * output). */
	bool entry_only;
	/* strace's -P, -e signal=, -e abbrev=/verbose=, -e read=/write=,
	 * -e inject=, -i, -b, -E, -u, -D, -I (core/quals.h); NULL none */
	const struct trace_quals *quals;
	/* May be NULL.  Called with the entry of each reported syscall
	 * (EV_SYSCALL_ENTRY, the tracee stopped at the entry stop, before any
	 * sink sees it) and again with the finished EV_SYSCALL (the same
	 * record completed in place; for an unfinished call the tracee may be
	 * gone) before the sinks see it: src/dwarf unwinds the stack here. */
	void (*enrich)(void *data, struct event *ev);
	void *enrich_data;
	/* How the command is run (stdio kinds, cwd, variables), handed to the
	 * sinks in trace_info.env; NULL: not recorded.  Not used with -p. */
	const struct trace_env *env;
	/* The command's environment, directory and standard streams
	 * (core/setup.h, prepared), applied in the child before its execve;
	 * its PATH finds the program.  NULL: renacer's own (or -E's
	 * environment).  Not used with -p or -D. */
	const struct run_setup *setup;
	/* With enrich and a trace_set: syscalls outside trace_set that the
	 * engine stops at anyway (bitmap as trace_set; may be NULL).  Their
	 * entry and exit go to enrich (name, raw arguments and result only;
	 * never decoded) and never to the sinks: src/dwarf watches mmap and
	 * execve this way to keep its caches right under -e trace=. */
	const uint8_t *watch_set;
};


/*
 * Runs the trace to its end.  With o->attach NULL, starts argv (searching
 * PATH as execvp does) under trace; otherwise attaches to the given pids.
 * Every event goes to sinks (begin/end are called here too).  On return
 * *end holds the exit status of the first tracee.
 * Returns 0, or -1 after error() when the command could not be started
 * (end->exit_code is then 127 for not found/not executable, 1 otherwise)
 * or attaching failed.  SIGINT/SIGTERM/SIGHUP end the trace: attached
 * tracees are detached and keep running, started ones are killed.
 */
int tracer_run(const struct tracer_opts *o, char *const argv[],
	       struct sink_list *sinks, struct trace_end *end);

/* Monotonic clock in ns. */
uint64_t now_ns(void);

#endif
