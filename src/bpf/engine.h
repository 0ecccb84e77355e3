/*
 * The eBPF back end: a second engine behind the same seam as the ptrace one
 * (core/tracer.h); nothing stops the tracee.  Counting, the kernel keeps
 * calls, errors and time per syscall for the traced process tree
 * (src/bpf/renacer.bpf.c) and the engine delivers process events
 * (EV_PROC_START, EV_EXEC, EV_PROC_EXIT) and, at the end, per-syscall
 * totals (sink_ops.totals).  Recording (ebpf_opts.record), it delivers
 * every call, signal and process event as the ptrace engine does
 * (bpf/record.h).
 */
#ifndef RENACER_BPF_ENGINE_H
#define RENACER_BPF_ENGINE_H

#include <stdbool.h>

#include "core/tracer.h"
#include "sink/sink.h"
#include "util/strbuf.h"

/* What the eBPF engine measures beyond tracer_opts. */
struct ebpf_opts {
	bool wall;   /* wall-clock time per call (-w, --timing, JSON summaries);
		      * tracer_opts.cpu_time asks for system CPU time */
	bool minmax; /* each syscall's shortest and longest call (-S min-time,
		      * max-time, -U min-time,max-time); else sc_total's
		      * *_min_ns/_max_ns are 0 */
	bool record; /* record every call (bpf/record.h): the sinks get
		      * EV_SYSCALL records decoded from the recording, as from
		      * the ptrace engine, and no totals */
	unsigned ring_scale; /* the ring buffer is 4^ring_scale times its size */
	bool shallow_ioctl; /* record an ioctl's argument but not the buffers
			     * its pointer fields name (SG_IO's, v4l2's): what
			     * a golden keeps of them (a structure is "_" to
			     * the model) and what makes the program slow to
			     * verify (the verifier walks ioc_ptrs[]) */
};

/* The recorder copies strings and buffers of at most this many bytes
 * (string limit -s plus what decoders read past it). */
#define EBPF_STRING_MAX 8190
/* -s below this (all the command line takes, 1 MiB): the data of reads
 * and writes (buffers, iovecs, messages) past EBPF_STRING_MAX comes in
 * chunks beside the records, as -e read= dumps do; other strings stay cut
 * at EBPF_STRING_MAX (docs/architecture.md). */
#define EBPF_DATA_STRING_MAX ((1u << 20) + 1)

/* ebpf_run()'s result when the back end cannot run here (nothing ran). */
#define EBPF_UNAVAILABLE (-3)

/*
 * Whether the back end can be tried here, without loading anything: built
 * in, privileges (CAP_BPF and CAP_PERFMON, or CAP_SYS_ADMIN), the kernel's
 * BTF, no confidentiality lockdown.  Returns 0, or -1 with the reason
 * appended to why (e.g. "not running as root"); prints nothing.
 * RENACER_NO_EBPF in the environment makes it fail (a test knob).
 */
int ebpf_probe(struct strbuf *why);

/*
 * Runs argv (searched in PATH as execvp does) with the eBPF back end, with
 * tracer_run()'s contract: sinks get begin, the process events, then
 * totals and end; *end holds the command's exit status.  o->follow follows
 * children and threads from birth; o->trace_set and o->status_mask select
 * what is counted; o->cpu_time measures system CPU time.  o->attach
 * traces those processes instead (their threads too with o->follow, from
 * /proc, and what they start from then on).
 *
 * The command's process is forked before the program is loaded (the fork
 * overlaps the load) and execs once it is attached.
 *
 * Returns 0; -1 after error() when the command could not be started
 * (end->exit_code 127 when not found); -2 when a sink's end failed; or
 * EBPF_UNAVAILABLE with the reason in why and no message printed when
 * the program could not be loaded or attached: then nothing ran (the
 * early child ended without exec and was reaped), no sink was called,
 * and the caller may fall back to ptrace.
 */
int ebpf_run(const struct tracer_opts *o, const struct ebpf_opts *eo, char *const argv[],
	     struct sink_list *sinks, struct trace_end *end, struct strbuf *why);

/*
 * Whether the recording engine can serve o (nothing needs the command
 * stopped: no -e inject=, -u, -D, -b; -s within EBPF_DATA_STRING_MAX;
 * -y, -yy, -P, -Y and -e read=/write= it serves from what the kernel
 * records with each call, -p from the table of traced tasks).  Appends the reason to why (may be NULL) when
 * not.
 */
bool ebpf_can_record(const struct tracer_opts *o, struct strbuf *why);

/*
 * Whether runs that need a record of each call are recorded in the kernel
 * unless asked otherwise: RENACER_BACKEND=ebpf in the environment (until
 * the recorder serves every decoder as the ptrace engine does, ptrace
 * stays the default; RENACER_BACKEND=ptrace says so explicitly).
 */
bool ebpf_record_default(void);

/*
 * Whether the golden workflow's traced runs are recorded in the kernel
 * where the recorder can serve them: yes unless RENACER_BACKEND=ptrace (a
 * golden keeps what both engines see alike: the calls, their arguments as
 * the model keys them, the files and processes; its times come from the
 * untraced runs).
 */
bool ebpf_golden_default(void);
/* explicitly RENACER_BACKEND=ebpf: no fallback to ptrace */
bool ebpf_golden_forced(void);

/* engine_run()'s ring_scale for a run under ptrace whatever the default */
#define ENGINE_PTRACE (~0u)

/*
 * For callers other than the command line (the golden workflow): runs argv
 * as tracer_run() does, recorded in the kernel when ebpf_golden_default(),
 * ebpf_can_record(o) and the machine allows it, else with tracer_run().
 * ring_scale > 0 makes the ring buffer 4 times larger that many times (a
 * run that lost records, retried: end->lost); ENGINE_PTRACE runs it under
 * ptrace.  Returns as tracer_run().
 */
int engine_run(const struct tracer_opts *o, char *const argv[], struct sink_list *sinks,
	       struct trace_end *end, unsigned ring_scale);

#endif
