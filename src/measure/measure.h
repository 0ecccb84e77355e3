/*
 * Measuring a command without a tracer: its process tree runs as it would
 * on its own, and each run gives its wall time, the CPU time of the whole
 * tree, its peak resident set, the time it waited for a CPU (so that the
 * machine's load can be taken out) and, where the machine has them,
 * hardware instruction and cycle counts.  docs/golden.md ("How time is
 * measured") says how each is taken and where it cannot be.
 *
 * The waits for a CPU come from the kernel's per-task run-queue delay
 * (schedstat's run_delay): for every task of the tree from the taskstats
 * record the kernel sends at each exit (needs CAP_NET_ADMIN: root), else
 * for the command's main thread from /proc/PID/schedstat read while it is
 * a zombie.  (Cgroup CPU pressure was tried: its totals are weighted by
 * whole jiffies of non-idle time and lose or stretch millisecond runs.)
 *
 * The run's standard streams, working directory and environment come from
 * a struct run_setup (core/setup.h), applied in the child as tracer_run()
 * does; renacer's own are left alone.
 *
 *   struct measure m;
 *   measure_init(&m);                 // probes the machine, once
 *   measure_run(&m, argv, setup, &s); // as many runs as wanted
 *   measure_release(&m);              // stops listening
 */
#ifndef RENACER_MEASURE_H
#define RENACER_MEASURE_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

struct run_setup;

/* How the waits for a CPU of a run are measured (measure_wait_name()). */
enum mwait {
	MW_NONE = 0,      /* not measured: net time is the wall time */
	MW_TREE,          /* every task of the tree: the kernel's taskstats
			     record of each exit (root) */
	MW_LEADER,        /* the command's main thread only (its schedstat,
			     read while it is a zombie); its children's and
			     threads' waits are not counted */
};

/* One untraced run. */
struct msample {
	double wall_us;          /* from just before exec to the command's exit,
				    less renacer's own wait for a CPU to see it */
	double cpu_us;           /* user + system CPU time of the tree */
	double user_us, sys_us;  /* the same split (tick-sampled by the kernel) */
	double wait_us;          /* time the tree was held up waiting for a CPU
				    (enum mwait says how); 0 when not measured */
	double net_us;           /* wall_us - wait_us */
	double net_low_us;       /* the same less every task's waits added up
				    (MW_TREE): a tree's waits overlap, and
				    the truth lies between the two; for one
				    task they are equal */
	enum mwait how;          /* how wait_us was measured in this run */
	unsigned tasks;          /* tasks seen exiting (MW_TREE), else 1 */
	uint64_t maxrss_kb;      /* peak resident set of the largest process */
	int64_t instructions;    /* hardware counts of the tree, user space */
	int64_t cycles;          /*   (-1: not available) */
	int exit_code;           /* the command's exit status, or */
	int term_signal;         /*   the signal that killed it (else 0) */
};

/* What this machine offers, probed once. */
struct measure {
	enum mwait wait;         /* how waits for a CPU are measured */
	int nl_fd;               /* taskstats listener (MW_TREE), or -1 */
	int nl_family;           /* its generic netlink family */
	bool hw;                 /* hardware counters work */
	char why_hw[200];        /* when !hw: one line, why */
	char why_wait[200];      /* when wait != MW_TREE: one line, why */
	int sched_fd;            /* renacer's own schedstat (its waits), or -1 */
	const volatile sig_atomic_t *stop;  /* set by the caller's signal
					       handler: the run is killed */
};

/*
 * Probes the machine (taskstats, schedstat, hardware counters) and starts
 * listening to task exits when it can.  Never fails: what is missing is
 * said in m->why_*.  stop (may be NULL): see struct measure.
 */
void measure_init(struct measure *m, const volatile sig_atomic_t *stop);

/* Stops listening and closes what measure_init() opened. */
void measure_release(struct measure *m);

/*
 * Runs argv once, untraced, set up by setup (prepared; NULL: renacer's own
 * fds 0-2, directory and environment; argv[0] looked up in its PATH), and
 * waits for it to exit.  Fills s.  Returns 0 when the command ran
 * (whatever its exit status), -1 after error() when it could not be
 * started, or -2 (nothing printed) when *m->stop was set: the command was
 * killed.
 */
int measure_run(struct measure *m, char *const argv[], const struct run_setup *setup,
		struct msample *s);

/* "every task's taskstats", "the main thread's schedstat" or "not measured". */
const char *measure_wait_name(enum mwait w);

/*
 * The command line that counts the instructions argv executes under
 * valgrind's callgrind, children followed, with its output files in
 * directory scratch: run it like argv (measure_run()), then add the
 * counts up with measure_callgrind_total().  Returns a malloc'ed
 * NULL-terminated array (free it with free(); its strings point into argv
 * and into itself), or NULL after error() when valgrind is not installed.
 */
char **measure_callgrind_argv(char *const argv[], const char *scratch);

/*
 * Adds up the instructions ("summary:" of each process's callgrind output
 * file in scratch) into *ir, removing the files; *nprocs gets how many
 * processes wrote one.  Returns 0, or -1 after error() when there is none.
 */
int measure_callgrind_total(const char *scratch, uint64_t *ir, unsigned *nprocs);

#endif
