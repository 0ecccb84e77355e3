/*
 * CPU placement: keeps renacer and the one tracee that runs on the same CPU,
 * so that a ptrace stop is a local context switch (about 6 us) and not a
 * wake-up across CPUs (49-110 us).  The policy and why it is this one are
 * in docs/architecture.md, "CPU placement"; the engine (core/tracer.c)
 * calls the hooks below and knows nothing else of it.
 */
#ifndef RENACER_CPUS_H
#define RENACER_CPUS_H

#include <sched.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

enum pin_mode {
	PIN_AUTO = 0,   /* default: co-locate while a single tracee runs */
	PIN_OFF,        /* --no-pin: no affinity is ever read or changed */
	PIN_TRACER,     /* RENACER_PIN=tracer (benchmarks only): renacer moves
			   to the tracee's CPU, the tracee's mask is untouched */
	PIN_ALWAYS,     /* RENACER_PIN=always (tests only): as PIN_AUTO, but
			   never backs off when the CPU is contended */
};

/* What the CLI asks for. */
struct cpu_opts {
	int mode;                 /* enum pin_mode */
	bool have_cpus;           /* --cpu LIST was given */
	cpu_set_t cpus;           /* that LIST */
};

/* Per-task state, kept in the engine's task record (zeroed at birth). */
struct cpu_task {
	pid_t tid;                /* the task (the engine updates it when an
				     exec gives a thread its leader's tid) */
	cpu_set_t *user;          /* the task's own mask (what it set or
				     inherited); NULL: never read, its mask is
				     its own */
	uint16_t flags;           /* CT_* (core/cpus.c) */
	int pinned_to;            /* CPU of the pin while CT_PINNED */
	pid_t set_target;         /* sched_setaffinity in progress: its pid */
	unsigned epoch;           /* when user was read (core/cpus.c) */
};

struct cpus;

/*
 * Parses a CPU list as taskset -c takes it ("0", "0,2", "1-3,6").  Returns
 * 0, or -1 (nothing printed) when s is not such a list or names a CPU past
 * CPU_SETSIZE.
 */
int cpus_parse_list(const char *s, cpu_set_t *set);

/* Prints set as a list ("0-1,4") into buf (size bytes). */
void cpus_format_list(const cpu_set_t *set, char *buf, size_t size);

/*
 * Checks o against renacer's own affinity (taskset, cgroup cpusets): a
 * --cpu LIST must lie inside it (placement never widens it).  Returns 0, or
 * -1 after error().
 */
int cpus_check(const struct cpu_opts *o);

/*
 * Starts placement for one trace: reads renacer's mask.  attached: the
 * tracees were attached (-p): their masks are never changed.  follow: new
 * tasks are traced too (-f); without it a task is given its own mask back
 * before it creates one.  NULL means "nothing to do" (PIN_OFF, or renacer's
 * mask unreadable) and every hook accepts NULL.
 */
struct cpus *cpus_new(const struct cpu_opts *o, bool attached, bool follow);

/* After the command was started: confines renacer to --cpu LIST. */
void cpus_begin(struct cpus *c);

/* In the child, before exec: the command starts with renacer's original
 * mask (async-signal-safe). */
void cpus_child_reset(const struct cpus *c);

/* Ends placement: renacer gets its original mask back; frees c. */
void cpus_free(struct cpus *c);

/*
 * Syscalls the engine must stop at even when a seccomp filter selects
 * others (their entry and exit keep the policy right): ORed into the
 * filter's bitmap set (nbytes bytes).  No-op for NULL.
 */
void cpus_add_watched(const struct cpus *c, uint8_t *set, size_t nbytes);

/*
 * Task tid became known (ct zeroed).  creator: the task whose fork, vfork
 * or clone made it, or NULL (the first task, an attached one).  Called
 * again with the creator once an orphan's creator is known.
 */
void cpus_task_new(struct cpus *c, struct cpu_task *ct, pid_t tid,
		   const struct cpu_task *creator);

/* The task stopped (its status was taken by wait4). */
void cpus_stopped(struct cpus *c, struct cpu_task *ct);

/*
 * The engine is about to resume the task (into the syscall whose entry it
 * stopped at, when cpus_syscall_entry() was the last hook): sets the
 * affinity of the task and of renacer as the policy says.
 */
void cpus_resume(struct cpus *c, struct cpu_task *ct);

/*
 * Syscall entry (nr, raw arguments) and exit (raw return value) of the task;
 * called for every syscall stop, reported or not.  The entry returns true
 * when placement needs the exit stop of this call (a call that blocks, a
 * sched_setaffinity); otherwise the engine may skip it.
 */
bool cpus_syscall_entry(struct cpus *c, struct cpu_task *ct, long nr, const uint64_t *args);
void cpus_syscall_exit(struct cpus *c, struct cpu_task *ct, int64_t rval);

/*
 * The task is gone, or about to be detached (detached: give it its own mask
 * back first).  Frees what ct holds.
 */
void cpus_task_release(struct cpus *c, struct cpu_task *ct, bool detached);

#endif
