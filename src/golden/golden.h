/*
 * Golden traces: the options that decide what counts as "the same
 * behaviour", shared by the trace model (normalization), the comparison
 * and the subcommands.  See docs/golden.md for the rules.
 */
#ifndef RENACER_GOLDEN_H
#define RENACER_GOLDEN_H

#include <regex.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Exit statuses of capture, compare, validate, accept and report. */
enum {
	GOLDEN_OK = 0,          /* equivalent */
	GOLDEN_REGRESSION = 1,  /* a regression was found */
	GOLDEN_MISSING = 2,     /* the golden trace does not exist */
	GOLDEN_INVALID = 3,     /* the golden (or a trace) is unreadable or invalid */
	GOLDEN_CMD_FAILED = 4,  /* the command could not be run */
	GOLDEN_BAD_CONFIG = 5,  /* bad configuration or usage */
	GOLDEN_WRITE_FAILED = 7, /* a golden, a .new file or a report could not be
				    written (EXIT_WRITE_FAILED of every command) */
};

/* Longest key a normalization rule may make (bytes; longer ones are cut). */
#define GOLDEN_MAX_KEY 65536

/* Runtime slack per golden syscall (us): cross-CPU ptrace stops cost this much. */
#define GOLDEN_PER_CALL_NOISE_US 20.0
/*
 * The time renacer and the command waited for a CPU (run-queue waits,
 * /proc/PID/schedstat) is the machine's load, not the program: it is taken
 * out of the wall time, with this fraction of it added to the slack (the
 * waits of tracer and tracee are measured apart and can overlap).
 */
#define GOLDEN_WAIT_ERROR 0.05
/* Bytes a process may move more or less per kind of file before the
 * count tolerance applies: a pid or a date printed takes a few bytes more. */
#define GOLDEN_IO_FLOOR_BYTES 64
/* The bytes a command writes to its standard streams are its messages:
 * rewording them is not a regression.  They count beyond this relative
 * change (or bytes_tolerance when larger) and this many bytes. */
#define GOLDEN_MSG_TOLERANCE 0.5
#define GOLDEN_MSG_FLOOR_BYTES 1024
/* Peak memory may move this much before the tolerance applies: a larger
 * environment or a longer path moves it by pages. */
#define GOLDEN_MEM_FLOOR_BYTES (1024 * 1024)
#define GOLDEN_RSS_FLOOR_KB 2048
/*
 * Runs of a command when capture is not told how many: a median of three
 * runtimes; five for a multi-threaded command, whose counts vary too.
 */
#define GOLDEN_AUTO_RUNS 3
#define GOLDEN_THREADED_RUNS 5

/* A user normalization rule: every match of re in a call key is replaced. */
struct golden_rule {
	char *pattern;          /* POSIX extended regex, as written */
	char *replace;          /* replacement; \0..\9 insert groups */
	regex_t re;
};

/* A per-syscall count tolerance override. */
struct golden_tol {
	char *syscall;
	double tol;             /* relative, e.g. 0.05 for +-5% */
};

struct golden_opts {
	double count_tolerance;     /* default relative count tolerance (0.05) */
	double bytes_tolerance;     /* relative I/O volume tolerance; < 0: count_tolerance */
	double memory_tolerance;    /* relative peak memory tolerance (0.05) */
	struct golden_tol *tols;    /* per-syscall overrides */
	size_t ntols;
	double min_confidence;      /* pass only at or above this (0.90) */
	bool check_timing;          /* compare runtime against the golden (true) */
	double time_tolerance;      /* relative runtime slack (0.5 = +50%) */
	double time_floor_ms;       /* absolute runtime slack in ms (20) */
	double noise_k;             /* spreads of capture noise allowed (3) */
	struct golden_rule *rules;  /* user normalization rules */
	size_t nrules;
	char **ignore_syscalls;     /* never compared */
	size_t nignore_syscalls;
	char **ignore_paths;        /* fnmatch patterns on normalized paths */
	size_t nignore_paths;
	char **volatile_syscalls;   /* added to the built-in volatile set */
	size_t nvolatile;
	char **time_limits;         /* syscalls whose own time is a limit: growth
				       beyond its noise is a regression */
	size_t ntime_limits;
	unsigned context_lines;     /* unified diff context (3) */
	unsigned max_diff_lines;    /* per process, 0 = no limit (200) */
	uint64_t regex_cost;        /* re_cost() budget of a rule's pattern, 0: default */
	uint64_t string_bytes;      /* strings read from traces kept up to this, 0: default */
	uint64_t trace_records;     /* records read from one trace, 0: default */
	uint64_t sequence_calls;    /* calls a model keeps in order, 0: default
				       (golden/model.h) */
	/* the untraced timing runs (golden/timerun.h, timecmp.h) */
	bool timing_strict;         /* an inconclusive timing is a regression */
	double min_slowdown;        /* smallest slowdown reported, relative (0.25) */
	double min_slowdown_us;     /* and absolute, us (50) */
	double timing_alpha;        /* one-sided significance level (0.01) */
	unsigned timing_runs;       /* untraced runs of a capture, 0: automatic */
	unsigned timing_max_runs;   /* most untraced runs of a validation (20) */
	int callgrind;              /* count instructions under callgrind too: 1, 0,
				       or -1 automatic (CALLGRIND_AUTO_US) */
	double callgrind_tolerance; /* relative (0.01) */
};

/* Untraced runs of a validation before more are added to decide. */
#define GOLDEN_TIMING_BATCH 5
/* Untraced runs of a capture when not told: GOLDEN_TIMING_RUNS, or
 * GOLDEN_TIMING_BATCH for a command whose first run takes over 0.1 s. */
#define GOLDEN_TIMING_RUNS 10
/* The pause before the runs that confirm a slowdown (ms). */
#define GOLDEN_TIMING_PAUSE_MS 2000

/* Fills o with the defaults. */
void golden_opts_init(struct golden_opts *o);
/*
 * Adds a normalization rule; returns 0, or -1 after error() when the
 * pattern does not compile ("bad normalize pattern '...': ...").
 */
int golden_opts_add_rule(struct golden_opts *o, const char *pattern, const char *replace);
/* Adds a count tolerance override for syscall (replacing an earlier one). */
void golden_opts_set_tol(struct golden_opts *o, const char *syscall, double tol);
/* Tolerance for syscall: its override, else the default. */
double golden_opts_tol(const struct golden_opts *o, const char *syscall, bool *overridden);
void golden_opts_release(struct golden_opts *o);

#endif
