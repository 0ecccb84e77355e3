/*
 * Source correlation: unwinds a stopped tracee's stack with libdw (CFI from
 * .eh_frame/.debug_frame, so frame pointers are not needed), names every
 * frame (module, ELF symbol, inlined functions, file and line, demangled)
 * and picks the frame of the program's own code that made the syscall.
 * Plugged into the engine as tracer_opts.enrich.  Debug information comes
 * from the binaries and from separate debug files found locally (build-id
 * links under /usr/lib/debug, .gnu_debuglink); never from the network.
 */
#ifndef RENACER_DWARF_H
#define RENACER_DWARF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "event.h"
#include "sink/sink.h"

struct dwarf;
struct srcskip;

struct dwarf_opts {
	bool source;             /* -s: set event.source */
	bool stack_trace;        /* -k: set event.stack_trace (sinks print the stack) */
	bool full;               /* name every frame (flame graphs, profiles);
				    else -s alone stops at the source frame */
	struct srcskip *skip;    /* which frames are not the program's own,
				    handed to the unwinder (dwarf_free frees
				    it); NULL: the built-in default (skip.h) */
	const char *cwd;         /* files under it are shown relative to it;
				    NULL: the current directory */
	const uint8_t *trace_set;   /* the reported calls (tracer_opts.trace_set):
				       others are watched, not unwound; NULL: all */
};

/* Counters, for tests and benchmarks. */
struct dwarf_stats {
	uint64_t stacks;         /* stacks unwound */
	uint64_t frames;         /* physical frames seen */
	uint64_t lookups;        /* addresses resolved (cache misses) */
	uint64_t reports;        /* times a process's mappings were (re)read */
	uint64_t errors;         /* stacks that stopped on an error */
	uint64_t tail_frames;    /* frames rebuilt from tail calls (FRAME_TAILCALL) */
	uint64_t unwind_ns;      /* time spent unwinding, lookups included */
	uint64_t lookup_ns;      /* of which resolving addresses */
	uint64_t report_ns;      /* of which reading mappings, attaching */
	uint64_t unwind_cpu_ns;  /* renacer's CPU time unwinding (unwind_ns less
				    its waits for a CPU): the time the tracee
				    stood stopped for it, which a golden run's
				    timing leaves out */
};

/*
 * Loads libdw and libelf (dwlib.h) unless done already: only runs that
 * unwind pay for them.  Returns 0, or -1 after error() with why, as
 * "cannot unwind stacks: cannot load 'libdw.so.1': libdw.so.1: cannot open
 * shared object file: No such file or directory".
 */
int dwarf_load(void);

/*
 * A new unwinder.  The options are copied; o->skip becomes its own (freed
 * on failure too).  Loads libdw and libelf (dwlib.h) the first time;
 * returns NULL after dwarf_load()'s error when they cannot be loaded.  A process whose stack cannot be read later gets
 * events without frames.
 */
struct dwarf *dwarf_new(const struct dwarf_opts *o);

/*
 * The enrich hook (core/tracer.h): called with a reported syscall's entry
 * (EV_SYSCALL_ENTRY, the tracee stopped at the entry) it unwinds the
 * calling thread and sets ev->frames, ev->nframes, ev->source,
 * ev->stack_trace and ev->stack_error; the frames stay valid until that
 * thread's next syscall entry, and their strings until dwarf_free().
 * Called with the finished EV_SYSCALL of the same record, it only notes
 * what changes the address space (execve, new executable mappings, code
 * unmapped) so that the caches are dropped before the next unwind.  An
 * EV_SYSCALL that arrives without an entry (a call begun before attach) is
 * unwound then.  An entry with ev->ustack (the eBPF recorder) is unwound
 * from that copy of the stack, with its registers and mappings, and never
 * from the process, which may have moved on.  data is the struct dwarf.
 */
void dwarf_enrich(void *data, struct event *ev);

/*
 * A sink that lets the unwinder forget processes and threads that are gone
 * (add it to the run's sink list; it frees nothing of the struct dwarf).
 */
struct sink *dwarf_sink_new(struct dwarf *d);

/*
 * The calls that change the address space (mmap, mprotect, munmap, mremap,
 * shmat, shmdt, execve, execveat), for tracer_opts.watch_set: under
 * -e trace= the engine still stops at them so that the caches are dropped
 * when they should be.  The bitmap belongs to d.
 */
const uint8_t *dwarf_watch_set(struct dwarf *d);

void dwarf_get_stats(const struct dwarf *d, struct dwarf_stats *st);
/* Prints the counters on stderr (RENACER_DWARF_STATS=1, for benchmarks). */
void dwarf_print_stats(const struct dwarf *d);

void dwarf_free(struct dwarf *d);

/*
 * Demangles a C++ or Rust (legacy and v0) symbol with libiberty; returns a
 * malloc'ed string, or NULL when name is not mangled.
 */
char *dwarf_demangle(const char *name);

#endif
