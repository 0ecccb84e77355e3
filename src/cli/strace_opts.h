/*
 * strace 6.1's options for the trace command (and capture/validate): the
 * parsing of their values, the checks strace makes once all options are
 * read, and the defaults that depend on several of them (-q with -o FILE,
 * -I).  trace_cmd.c's getopt loop hands each option it does not know
 * itself to strace_opt().
 */
#ifndef RENACER_STRACE_OPTS_H
#define RENACER_STRACE_OPTS_H

#include <getopt.h>
#include <stdbool.h>
#include <stddef.h>

struct trace_opts;

/* Long options that have no short form (values of struct option.val). */
enum {
	OPT_S_FIRST = 3000,
	OPT_S_FOLLOW_FORKS = OPT_S_FIRST, OPT_S_OUTPUT_SEPARATELY,
	OPT_S_DAEMONIZE, OPT_S_TS, OPT_S_HEX_STR, OPT_S_PIDNS, OPT_S_TIPS,
	OPT_S_ABBREV, OPT_S_VERBOSE, OPT_S_RAW, OPT_S_SIGNAL, OPT_S_READ,
	OPT_S_WRITE, OPT_S_FAULT, OPT_S_INJECT, OPT_S_KVM, OPT_S_QUIET,
	OPT_S_DECODE_FDS, OPT_S_DECODE_PIDS, OPT_S_SECONTEXT,
	OPT_S_LAST,
};

/* The long options above, and the long names of strace's short options,
 * for the getopt_long table of trace_cmd.c (ends without the NULL row). */
extern const struct option strace_long_opts[];
extern const size_t strace_long_opts_count;

/* What strace counts while reading options (duplicates, conflicts). */
struct strace_state {
	int qflag, tflag, xflag, yflag, fflag, zflags, dflag;
	bool quiet_set, ts_long, x_long, decode_fds_long, follow_long;
	bool separately_long, optF, columns_set, sortby_set, c_seen, C_seen;
	int daemonize_long;
};

/*
 * Handles option c (a short letter, or an OPT_S_* value) with its argument
 * (NULL when none).  lopt is the long option as typed (NULL for a short
 * one), for messages.  Returns 1 when handled, 0 when c is not one of
 * strace's options handled here, -1 after error().
 */
int strace_opt(struct trace_opts *t, struct strace_state *st, int c,
	       const char *arg, const struct option *lopt);

/*
 * After the last option: strace's checks ("-t and --absolute-timestamps
 * cannot be provided simultaneously", "-w/--summary-wall-clock must be
 * given with ..."), warnings, and the defaults (-q with -o FILE COMMAND).
 * Returns 0 or -1 after error().
 */
int strace_opts_finish(struct trace_opts *t, struct strace_state *st);

/*
 * Sets up what the engine applies (-P paths with their messages, -u, -E);
 * fills *q for tracer_opts.quals.  Returns 0 or -1 after error().
 */
struct trace_quals;
int strace_opts_quals(struct trace_opts *t, struct trace_quals *q);

#endif
