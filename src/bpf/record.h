/*
 * The eBPF recording engine's user side (src/bpf/record.c): turns the
 * kernel's call records (bpf/abi.h) into event records, decoded by the
 * syscall decoders of src/sys/ from the memory recorded with each call
 * (sys/tmem.h's view), and hands them to the sinks as the ptrace engine
 * does.  The loader (engine.c) owns the ring buffer and process events.
 */
#ifndef RENACER_BPF_RECORD_H
#define RENACER_BPF_RECORD_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "core/tracer.h"
#include "event.h"
#include "sink/sink.h"

struct recorder;

/* A recorder for one run: o's options, events to sinks, times relative to
 * t0 (monotonic ns). */
struct recorder *recorder_new(const struct tracer_opts *o, struct sink_list *sinks,
			      uint64_t t0);
void recorder_free(struct recorder *rc);

/*
 * One ring-buffer record of type RB_EV_CALL, RB_EV_ENTRY or RB_EV_SIGNAL
 * (data of size bytes, valid during the call only): decoded and delivered.
 * A record too short for what it says is dropped (counted).
 */
void recorder_record(struct recorder *rc, const void *data, size_t size);

/*
 * A process event made by the loader (EV_PROC_START, EV_EXEC,
 * EV_PROC_EXIT): stamped and delivered like the calls.  An EV_EXEC with
 * exec_old_tid moves the exec'ing thread's state to its new tid; an
 * EV_PROC_EXIT forgets the task.
 */
void recorder_process_event(struct recorder *rc, struct event *ev);

/*
 * -y, -P: the descriptors process pid starts with, as process from has
 * them now, read from /proc (a process attached: itself; the command:
 * renacer, whose descriptors it inherits, since it may be gone already),
 * for those no recorded call names before they are used inside a
 * structure (poll's standard input).  Descriptors closed on exec are left
 * out.  Nothing without -y or -P.
 */
void recorder_seed_fds(struct recorder *rc, pid_t pid, pid_t from);

/* The command (comm, n bytes, NUL-padded) task tid has from now on, as
 * the kernel's fork or exec event said: -Y shows it for the calls that
 * follow. */
void recorder_note_comm(struct recorder *rc, pid_t tid, const char *comm, size_t n);

/*
 * Delivers the ends of process leaders still kept for threads of theirs
 * whose end never came (recorder_process_event() keeps a leader's end
 * until its threads have ended): at the end of the run, before the sinks'.
 */
void recorder_flush_exits(struct recorder *rc);

/*
 * A process pid was forked by one of process parent's threads (a
 * RB_EV_FORK record, before its EV_PROC_START): it starts with its
 * parent's mappings (stacks).
 */
void recorder_fork(struct recorder *rc, pid_t pid, pid_t parent);

/* What the recorder saw: calls, records dropped, and reads the recorded
 * memory could not serve (tmem_view's gaps and faults), per syscall with
 * RENACER_EBPF_STATS set. */
struct recorder_stats {
	uint64_t calls, entries, signals, bad, gaps, faults, cut;
	uint64_t kfaults;   /* regions the kernel side could not read */
	uint64_t late, late_failed; /* ...of those, read from the process
				       afterwards (read-only mappings), or not */
};
void recorder_get_stats(const struct recorder *rc, struct recorder_stats *st);
/* Prints the per-syscall gaps and faults (for development). */
void recorder_print_gaps(const struct recorder *rc, FILE *fp);

#endif
