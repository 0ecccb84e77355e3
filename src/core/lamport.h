/*
 * Lamport clocks for trace events: every event gets a clock value that
 * respects happens-before between tasks, so that a trace can be put in an
 * order that does not depend on scheduling.  Edges: a child's first event
 * comes after the parent's fork/clone (EV_PROC_START), a parent's wait4/
 * waitid after the exit of the child it reaps, and a read of a pipe after
 * the writes into that pipe seen so far (pipes found by inode through
 * /proc/TID/fd/N, cached, and only once the trace has two processes).
 */
#ifndef RENACER_LAMPORT_H
#define RENACER_LAMPORT_H

#include <stdint.h>
#include <sys/types.h>

#include "event.h"

struct lamport;

/* A new clock state (one per trace); free with lamport_free(). */
struct lamport *lamport_new(void);
void lamport_free(struct lamport *l);

/*
 * Sets ev->lamport.  Call it for every event the sinks will see, in the
 * order the tracer handles them, while the tracee is still stopped (the
 * pipe edge reads /proc/TID/fd): EV_SYSCALL at the exit stop, EV_SIGNAL,
 * EV_PROC_START (ev->ppid is the creator's tid: the child starts one tick
 * after it), EV_EXEC, EV_PROC_EXIT and EV_DETACH (the task's final clock is
 * kept for the wait that reaps it).  EV_SYSCALL_ENTRY gets the next value
 * without advancing the clock; call it at every entry stop too, since a
 * pipe write is recorded there (its reader's exit stop may be handled
 * before the writer's).  Never fails.
 */
void lamport_stamp(struct lamport *l, struct event *ev);

/* The clock of tid now (0 for an unknown task); for tests. */
uint64_t lamport_clock(const struct lamport *l, pid_t tid);

/* How many /proc/TID/fd readlinks were made (the cost; for tests). */
uint64_t lamport_lookups(const struct lamport *l);

#endif
