/* Scheduler statistics of a task, from /proc (the kernel's schedstat). */
#ifndef RENACER_PROCSTAT_H
#define RENACER_PROCSTAT_H

#include <stdint.h>
#include <sys/types.h>

/*
 * Reads /proc/<tid>/schedstat (tid 0: the calling thread): the time the
 * task ran and the time it waited on a run queue for a CPU, in ns.
 * Returns 0, or -1 (both left 0) when the file cannot be read (no
 * CONFIG_SCHED_INFO, the task is gone).
 */
int proc_schedstat(pid_t tid, uint64_t *run_ns, uint64_t *wait_ns);

/*
 * The same for the calling thread through an fd kept open (a pread per
 * read, cheap enough for every ptrace stop): proc_schedstat_open() returns
 * the fd or -1; proc_schedstat_fd() returns 0 or -1 (both left 0).
 */
int proc_schedstat_open(void);
int proc_schedstat_fd(int fd, uint64_t *run_ns, uint64_t *wait_ns);

#endif
