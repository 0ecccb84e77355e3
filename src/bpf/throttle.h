/*
 * Back-pressure for the eBPF recorder.  The kernel side writes each call
 * into a ring buffer that renacer reads and decodes; a storm of cheap calls
 * fills it faster than renacer decodes (a call costs the command well under
 * a microsecond, its decoding a few), and a record that finds the ring full
 * is lost.  A BPF program on a tracepoint cannot wait, so renacer makes the
 * command wait instead: the command runs in a cgroup of its own (cgroup v2),
 * frozen while more than a quarter of the ring is unread and thawed once
 * renacer has read it empty.  Freezing is invisible to the program (no signal, no stop
 * that its parent could see with wait) and takes effect on the way back to
 * user space, so no call is cut and its times are the kernel's; only the
 * time between calls grows, as it does under ptrace.
 *
 * Where no cgroup can be made (not root, no cgroup2 mount, a read-only one
 * in a container) there is no back-pressure and losses are counted and
 * reported as before.
 */
#ifndef RENACER_BPF_THROTTLE_H
#define RENACER_BPF_THROTTLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <pthread.h>
#include <sys/types.h>

struct throttle {
	int freeze_fd;          /* the cgroup's cgroup.freeze, or -1: none */
	int procs_fd;           /* its cgroup.procs (the child joins through it) */
	char *dir;              /* the cgroup's directory */
	char *parent_procs;     /* cgroup.procs of the cgroup renacer is in:
				   where tasks left at the end go back */
	const volatile unsigned long *cons, *prod;  /* the ring's positions */
	size_t page;
	unsigned long high;     /* bytes unread at which the command freezes */
	bool frozen;
	uint64_t freezes;       /* times frozen (RENACER_EBPF_STATS) */
	pthread_mutex_t lock;   /* one freeze or thaw at a time, its flag
				   with it (the watcher and the reader) */
	pthread_t watcher;      /* checks every millisecond, so that a reader
				   blocked on its output (a slow pipe) or
				   waiting for a CPU still holds the command back */
	bool watching;
	volatile int stop;
};

/*
 * Makes the cgroup, for a ring buffer of ring_size bytes.  Returns 0, or
 * -1 with t->freeze_fd == -1 (no back-pressure; nothing to report: the run
 * goes on without it).  RENACER_EBPF_THROTTLE=0 turns it off (for tests
 * and benchmarks).
 */
int throttle_open(struct throttle *t, size_t ring_size);

/* Moves pid (the command, forked and not yet exec'ed) into the cgroup.
 * Returns 0 or -1 (errno). */
int throttle_add(const struct throttle *t, pid_t pid);

/* The same from the command's own process, before its execve.
 * Async-signal-safe. */
int throttle_join(const struct throttle *t);

/* Maps the positions of the ring buffer (its map fd), once it exists;
 * until then nothing is checked.  Returns 0, or -1 after releasing the
 * cgroup (no back-pressure). */
int throttle_map(struct throttle *t, int ring_fd);

/*
 * Freezes the command when more than a quarter of the ring is unread, thaws it
 * when the ring is empty.  Cheap (two loads) when nothing changes: call
 * it every few records and after each read of the ring.
 */
void throttle_check(struct throttle *t);

/*
 * Starts the watcher thread (before the command's first call: renacer's
 * reader may not get a CPU for a while after it).  A process forked later
 * (the watchdog) has no watcher: throttle_abandon() does not wait for it.
 * Without it only the reader's own checks hold the command back.
 */
void throttle_watch(struct throttle *t);

/*
 * In the watchdog, after renacer died: thaws, moves what is left back and
 * removes the cgroup, allocating nothing (renacer may have had threads).
 */
void throttle_abandon(struct throttle *t);

/*
 * Stops the watcher, thaws, moves what is left in the cgroup (processes
 * the command left running, and those of cgroups it made below) back to
 * renacer's own cgroup and removes it, and frees what t holds.
 * Idempotent.
 */
void throttle_release(struct throttle *t);

#endif
