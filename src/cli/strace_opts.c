/*
 * strace 6.1's options (see strace_opts.h): values, conflicts and
 * defaults, with strace's wording for bad input ("invalid -a argument:
 * '-1'") behind renacer's "renacer: " prefix.
 */
#include "cli/strace_opts.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "cli/trace_opts.h"
#include "core/inject.h"
#include "core/pathtrace.h"
#include "core/quals.h"
#include "core/startup.h"
#include "sink/render.h"
#include "sink/sinks.h"
#include "sys/compat.h"
#include "sys/decode.h"
#include "util/error.h"
#include "util/quote.h"
#include "util/xmalloc.h"
#include "util/banned.h"

extern char **environ;

const struct option strace_long_opts[] = {
	{ "columns", required_argument, NULL, 'a' },
	{ "output-append-mode", no_argument, NULL, 'A' },
	{ "detach-on", required_argument, NULL, 'b' },
	{ "debug", no_argument, NULL, 'd' },
	{ "daemonize", optional_argument, NULL, OPT_S_DAEMONIZE },
	{ "daemonise", optional_argument, NULL, OPT_S_DAEMONIZE },
	{ "daemonised", optional_argument, NULL, OPT_S_DAEMONIZE },
	{ "daemonized", optional_argument, NULL, OPT_S_DAEMONIZE },
	{ "env", required_argument, NULL, 'E' },
	{ "follow-forks", no_argument, NULL, OPT_S_FOLLOW_FORKS },
	{ "output-separately", no_argument, NULL, OPT_S_OUTPUT_SEPARATELY },
	{ "instruction-pointer", no_argument, NULL, 'i' },
	{ "interruptible", required_argument, NULL, 'I' },
	{ "syscall-number", no_argument, NULL, 'n' },
	{ "summary-syscall-overhead", required_argument, NULL, 'O' },
	{ "trace-path", required_argument, NULL, 'P' },
	{ "relative-timestamps", optional_argument, NULL, 'r' },
	{ "absolute-timestamps", optional_argument, NULL, OPT_S_TS },
	{ "timestamps", optional_argument, NULL, OPT_S_TS },
	{ "syscall-times", optional_argument, NULL, 'T' },
	{ "user", required_argument, NULL, 'u' },
	{ "summary-columns", required_argument, NULL, 'U' },
	{ "strings-in-hex", optional_argument, NULL, OPT_S_HEX_STR },
	{ "const-print-style", required_argument, NULL, 'X' },
	{ "pidns-translation", no_argument, NULL, OPT_S_PIDNS },
	{ "successful-only", no_argument, NULL, 'z' },
	{ "failed-only", no_argument, NULL, 'Z' },
	{ "failing-only", no_argument, NULL, 'Z' },
	{ "tips", optional_argument, NULL, OPT_S_TIPS },
	{ "abbrev", required_argument, NULL, OPT_S_ABBREV },
	{ "verbose", required_argument, NULL, OPT_S_VERBOSE },
	{ "raw", required_argument, NULL, OPT_S_RAW },
	{ "signal", required_argument, NULL, OPT_S_SIGNAL },
	{ "signals", required_argument, NULL, OPT_S_SIGNAL },
	{ "read", required_argument, NULL, OPT_S_READ },
	{ "write", required_argument, NULL, OPT_S_WRITE },
	{ "fault", required_argument, NULL, OPT_S_FAULT },
	{ "inject", required_argument, NULL, OPT_S_INJECT },
	{ "kvm", required_argument, NULL, OPT_S_KVM },
	{ "quiet", optional_argument, NULL, OPT_S_QUIET },
	{ "silent", optional_argument, NULL, OPT_S_QUIET },
	{ "silence", optional_argument, NULL, OPT_S_QUIET },
	{ "decode-fds", optional_argument, NULL, OPT_S_DECODE_FDS },
	{ "decode-pids", required_argument, NULL, OPT_S_DECODE_PIDS },
	{ "secontext", optional_argument, NULL, OPT_S_SECONTEXT },
};
const size_t strace_long_opts_count = sizeof(strace_long_opts) / sizeof(strace_long_opts[0]);

/* strace's error_opt_arg: "invalid --columns argument: 'x'" or
 * "invalid -a argument: 'x'". */
static int bad_arg(int c, const struct option *lopt, const char *arg)
{
	if (lopt)
		return error("invalid --%s argument: '%s'", lopt->name, esc(arg ? arg : ""));
	return error("invalid -%c argument: '%s'", c, esc(arg ? arg : ""));
}

/* strace's string_to_uint: a decimal number up to INT_MAX, or -1. */
static long to_uint(const char *s)
{
	char *end;
	long v;

	if (!s || *s < '0' || *s > '9')
		return -1;
	errno = 0;
	v = strtol(s, &end, 10);
	if (*end || errno || v > INT_MAX)
		return -1;
	return v;
}

/* --absolute-timestamps=[[format:]FORMAT][,[[precision:]PRECISION]] */
static int parse_ts(struct trace_opts *t, const char *arg)
{
	char *copy = xstrdup(arg), *save = NULL, *tok;
	int format = -1, digits = -1;

	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		bool fmt = true, prec = true;
		if (!strncasecmp(tok, "format:", 7)) {
			tok += 7;
			prec = false;
		} else if (!strncasecmp(tok, "precision:", 10)) {
			tok += 10;
			fmt = false;
		}
		if (fmt && !strcasecmp(tok, "none")) {
			format = TSF_NONE;
		} else if (fmt && !strcasecmp(tok, "time")) {
			format = TSF_TIME;
		} else if (fmt && !strcasecmp(tok, "unix")) {
			format = TSF_UNIX;
		} else if (prec && (digits = parse_precision(tok)) >= 0) {
			;
		} else {
			free(copy);
			return -1;
		}
	}
	free(copy);
	if (format < 0)
		format = t->text.ts_format ? t->text.ts_format : TSF_TIME;
	t->text.ts_format = format;
	if (digits >= 0)
		t->text.ts_digits = digits;
	return 0;
}

static int parse_interruptible(const char *arg)
{
	static const struct { const char *name; int v; } names[] = {
		{ "anywhere", 1 }, { "always", 1 }, { "waiting", 2 }, { "never", 3 },
		{ "never_tstp", 4 },
	};
	long v;

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcasecmp(arg, names[i].name))
			return names[i].v;
	v = to_uint(arg);
	return v >= 1 && v <= 4 ? (int)v : -1;
}

static int parse_daemonize(const char *arg)
{
	if (!arg || !strcasecmp(arg, "grandchild"))
		return 1;
	if (!strcasecmp(arg, "pgroup") || !strcasecmp(arg, "pgrp"))
		return 2;
	if (!strcasecmp(arg, "session"))
		return 3;
	return -1;
}

/* -e NAME=VALUE other than trace=/status= (handled by filter_qualifier). */
static int qualify(struct trace_opts *t, struct strace_state *st, const char *expr)
{
	static const struct { const char *name; int opt; } quals[] = {
		{ "abbrev", OPT_S_ABBREV }, { "a", OPT_S_ABBREV },
		{ "verbose", OPT_S_VERBOSE }, { "v", OPT_S_VERBOSE },
		{ "raw", OPT_S_RAW }, { "x", OPT_S_RAW },
		{ "signal", OPT_S_SIGNAL }, { "signals", OPT_S_SIGNAL }, { "s", OPT_S_SIGNAL },
		{ "read", OPT_S_READ }, { "reads", OPT_S_READ }, { "r", OPT_S_READ },
		{ "write", OPT_S_WRITE }, { "writes", OPT_S_WRITE }, { "w", OPT_S_WRITE },
		{ "fault", OPT_S_FAULT }, { "inject", OPT_S_INJECT },
		{ "quiet", OPT_S_QUIET }, { "silent", OPT_S_QUIET }, { "silence", OPT_S_QUIET },
		{ "q", OPT_S_QUIET },
		{ "decode-fds", OPT_S_DECODE_FDS }, { "decode-fd", OPT_S_DECODE_FDS },
		{ "decode-pids", OPT_S_DECODE_PIDS }, { "decode-pid", OPT_S_DECODE_PIDS },
		{ "kvm", OPT_S_KVM }, { "secontext", OPT_S_SECONTEXT },
	};
	const char *eq = strchr(expr, '=');
	size_t len = eq ? (size_t)(eq - expr) : 0;

	for (size_t i = 0; eq && i < sizeof(quals) / sizeof(quals[0]); i++)
		if (strlen(quals[i].name) == len && !strncmp(expr, quals[i].name, len))
			return strace_opt(t, st, quals[i].opt, eq + 1, NULL) < 0 ? -1 : 0;
	switch (filter_qualifier(&t->filter, expr)) {
	case 0:
		return 0;
	case 1:         /* a qualifier strace 6.1 does not know either */
		return error("invalid system call '%s'", esc(expr));
	default:
		return -1;
	}
}

int strace_opt(struct trace_opts *t, struct strace_state *st, int c,
	       const char *arg, const struct option *lopt)
{
	long v;

	switch (c) {
	case 'a':
		v = to_uint(arg);
		if (v < 0)
			return bad_arg(c, lopt, arg);
		t->text.acolumn = (unsigned)v;
		return 1;
	case 'A':
		t->append = true;
		return 1;
	case 'b':
		if (strcmp(arg, "execve"))
			return error("syscall '%s' for -b isn't supported (only execve is)", esc(arg));
		t->detach_on_execve = true;
		return 1;
	case 'c':
		if (st->C_seen)
			return error("-c/--summary-only and -C/--summary are mutually exclusive");
		st->c_seen = true;
		t->summary = t->summary_given = true;
		t->summary_only = true;
		return 1;
	case 'C':
		if (st->c_seen)
			return error("-c/--summary-only and -C/--summary are mutually exclusive");
		st->C_seen = true;
		t->summary = t->summary_given = true;
		t->summary_only = false;
		return 1;
	case 'd':
		t->debug++;
		return 1;
	case 'D':
		st->dflag++;
		return 1;
	case OPT_S_DAEMONIZE:
		v = parse_daemonize(arg);
		if (v < 0)
			return bad_arg(c, lopt, arg);
		st->daemonize_long = (int)v;
		return 1;
	case 'e':
		return qualify(t, st, arg) < 0 ? -1 : 1;
	case 'E':
		ALLOC_GROW(t->env_changes, t->nenv + 1, t->aenv);
		t->env_changes[t->nenv++] = (char *)arg;
		return 1;
	case 'f':
		st->fflag++;
		return 1;
	case 'F':
		st->optF = true;
		return 1;
	case OPT_S_FOLLOW_FORKS:
		st->follow_long = true;
		return 1;
	case OPT_S_OUTPUT_SEPARATELY:
		st->separately_long = true;
		return 1;
	case 'i':
		t->text.show_ip = true;
		return 1;
	case 'I':
		v = parse_interruptible(arg);
		if (v < 0)
			return bad_arg(c, lopt, arg);
		t->interruptible = (int)v;
		return 1;
	case 'n':
		t->text.show_nr = true;
		return 1;
	case 'O':
		if (parse_time_ns(arg, 1000, &t->overhead_ns) < 0)
			return bad_arg(c, lopt, arg);
		t->overhead_given = true;
		return 1;
	case 'P':
		ALLOC_GROW(t->paths, t->npaths + 1, t->apaths);
		t->paths[t->npaths++] = arg;
		return 1;
	case 'q':
		st->qflag++;
		return 1;
	case OPT_S_QUIET:
		if (qualify_quiet(&t->quiet_mask, arg ? arg : "attach,personality") < 0)
			return -1;
		st->quiet_set = true;
		return 1;
	case 'r':
		t->text.relative = true;
		t->text.rel_digits = 6;
		if (arg && (t->text.rel_digits = parse_precision(arg)) < 0)
			return bad_arg(c, lopt, arg);
		return 1;
	case 't':
		st->tflag++;
		return 1;
	case OPT_S_TS:
		st->ts_long = true;
		if (parse_ts(t, arg ? arg : "format:time") < 0)
			return bad_arg(c, lopt, arg);
		return 1;
	case 'T':
		t->text.show_duration = true;
		t->text.dur_digits = 6;
		if (arg && (t->text.dur_digits = parse_precision(arg)) < 0)
			return bad_arg(c, lopt, arg);
		return 1;
	case 'u':
		t->user = arg;
		return 1;
	case 'U':
		if (summary_columns_parse(arg, NULL) < 0)
			return -1;
		t->columns = arg;
		st->columns_set = true;
		return 1;
	case 'x':
		st->xflag++;
		return 1;
	case OPT_S_HEX_STR: {
		static const char *const names[] = { "none", "non-ascii-chars", "non-ascii", "all" };
		v = -1;
		for (int i = 0; i < 4; i++)
			if (!arg ? i == 3 : !strcasecmp(arg, names[i]))
				v = i;
		if (v < 0)
			return bad_arg(c, lopt, arg);
		t->text.xstyle = (int)v;
		st->x_long = true;
		return 1;
	}
	case 'X':
		if (!strcmp(arg, "raw"))
			t->text.xlat = XS_RAW;
		else if (!strcmp(arg, "abbrev"))
			t->text.xlat = XS_ABBREV;
		else if (!strcmp(arg, "verbose"))
			t->text.xlat = XS_VERBOSE;
		else
			return bad_arg(c, lopt, arg);
		return 1;
	case 'y':
		st->yflag++;
		return 1;
	case OPT_S_DECODE_FDS: {
		unsigned m;
		if (qualify_decode_fds(&m, arg ? arg : "path") < 0)
			return -1;
		t->decode_fds = m != 0;
		t->fd_details = m;
		st->decode_fds_long = true;
		return 1;
	}
	case 'z':
	case 'Z':
		t->filter.status_mask = c == 'z' ? STATUS_SUCCESSFUL : STATUS_FAILED;
		st->zflags++;
		return 1;
	case OPT_S_ABBREV:
		return qualify_syscalls(&t->abbrev_set, arg) < 0 ? -1 : 1;
	case OPT_S_VERBOSE:
		return qualify_syscalls(&t->verbose_set, arg) < 0 ? -1 : 1;
	case OPT_S_RAW:
		return qualify_syscalls(&t->raw_set, arg) < 0 ? -1 : 1;
	case OPT_S_SIGNAL:
		return qualify_signals(&t->signal_set, arg) < 0 ? -1 : 1;
	case OPT_S_READ:
		return qualify_fds(&t->read_fds, arg) < 0 ? -1 : 1;
	case OPT_S_WRITE:
		return qualify_fds(&t->write_fds, arg) < 0 ? -1 : 1;
	case OPT_S_FAULT:
	case OPT_S_INJECT:
		if (!t->inject)
			t->inject = inject_set_new();
		return inject_set_add(t->inject, arg, c == OPT_S_FAULT) < 0 ? -1 : 1;
	case OPT_S_KVM:
		if (strcmp(arg, "vcpu"))
			return error("invalid -e kvm= argument: '%s'", esc(arg));
		t->kvm_vcpu = true;
		return 1;
	case OPT_S_SECONTEXT:
		return error("SELinux context printing (--secontext option) is not supported "
			     "by renacer");
	case OPT_S_DECODE_PIDS: {
		unsigned m;

		if (qualify_decode_pids(&m, arg) < 0)
			return -1;
		t->decode_pids = m;
		return 1;
	}
	case OPT_S_PIDNS:
		t->decode_pids |= DECODE_PID_NS;
		return 1;
	case 'Y':
		t->decode_pids |= DECODE_PID_COMM;
		return 1;
	case OPT_S_TIPS:
		return error("--tips is not supported by renacer: see 'man renacer' for "
			     "the strace options it takes");
	}
	return 0;
}

int strace_opts_finish(struct trace_opts *t, struct strace_state *st)
{
	bool outfile = t->output && t->output[0] != '|' && t->output[0] != '!';
	bool command = t->argc > 0;

	/* -D and --daemonize */
	if (st->daemonize_long) {
		if (st->dflag)
			return error("-D and --daemonize cannot be provided simultaneously");
		st->dflag = st->daemonize_long;
	}
	if (st->dflag && !command)
		return error("PROG [ARGS] must be specified with -D/--daemonize");
	if (st->dflag > 3)
		return error("too many -D's (%d), maximum supported -D count is 3", st->dflag);
	t->daemonize = st->dflag;
	/* -t and --absolute-timestamps */
	if (st->tflag) {
		if (st->ts_long)
			return error("-t and --absolute-timestamps cannot be provided simultaneously");
		text_opts_tstamp(&t->text, st->tflag);
	}
	/* -x and --strings-in-hex */
	if (st->xflag) {
		if (st->x_long)
			return error("-x and --strings-in-hex cannot be provided simultaneously");
		t->text.xstyle = st->xflag >= 2 ? RX_ALL : RX_NON_ASCII;
	}
	/* -y and --decode-fds */
	if (st->yflag) {
		if (st->decode_fds_long)
			return error("-y and --decode-fds cannot be provided simultaneously");
		t->decode_fds = true;
		t->fd_details = st->yflag >= 2 ? DECODE_FD_ALL : DECODE_FD_PATH;
	}
	/* -f, -ff, --follow-forks, --output-separately */
	if (st->fflag) {
		if (st->follow_long)
			return error("-f and --follow-forks cannot be provided simultaneously");
		if (st->fflag >= 2 && st->separately_long)
			return error("-ff and --output-separately cannot be provided simultaneously");
		t->follow = true;
		/* as strace 6.1: -f --output-separately is plain -f */
		t->output_separately = st->fflag >= 2;
	} else {
		if (st->follow_long)
			t->follow = true;
		if (st->separately_long)
			t->output_separately = true;
	}
	if (st->optF) {
		if (t->follow)
			warning("deprecated option -F ignored");
		else
			warning("option -F is deprecated, please use -f/--follow-forks instead");
		t->follow = true;
	}
	if (t->output_separately && t->summary)
		return error("(-c/--summary-only or -C/--summary) and -ff/--output-separately "
			     "are mutually exclusive");
	if (t->wall && !t->summary)
		return error("-w/--summary-wall-clock must be given with (-c/--summary-only "
			     "or -C/--summary)");
	if (st->columns_set && !t->summary)
		return error("-U/--summary-columns must be given with (-c/--summary-only "
			     "or -C/--summary)");
	if (st->sortby_set && !t->summary)
		warning("-S/--summary-sort-by has no effect without (-c/--summary-only "
			"or -C/--summary)");
	if (t->summary_only) {
		if (t->text.show_ip)
			warning("-i/--instruction-pointer has no effect with -c/--summary-only");
		if (t->text.show_nr)
			warning("-n/--syscall-number has no effect with -c/--summary-only");
		if (t->text.relative)
			warning("-r/--relative-timestamps has no effect with -c/--summary-only");
		if (t->text.ts_format)
			warning("-t/--absolute-timestamps has no effect with -c/--summary-only");
		if (t->text.show_duration)
			warning("-T/--syscall-times has no effect with -c/--summary-only");
		if (t->decode_fds)
			warning("-y/--decode-fds has no effect with -c/--summary-only");
	}
	if (t->output_separately && t->out_stdout && t->output_given)
		return error("-ff/--output-separately needs -o FILE, not standard output (-o -)");
	if (!t->output) {
		if (t->output_separately && !t->follow)
			warning("--output-separately has no effect without -o/--output");
		if (t->append)
			warning("-A/--output-append-mode has no effect without -o/--output");
		t->output_separately = false;   /* -ff without -o is -f */
	}
	if (t->output_separately && t->output && !outfile)
		return error("piping the output and -ff/--output-separately are mutually exclusive");
	if (st->zflags > 1)
		warning("only the last of -z/--successful-only/-Z/--failed-only options will "
			"take effect; see the status qualifier for more complex filters");
	/* strace's defaults that depend on -o FILE COMMAND and -D */
	if (!t->interruptible && t->daemonize)
		t->interruptible = 4;
	if (t->output && command && !st->qflag && !st->quiet_set)
		st->qflag = 1;
	if (st->qflag) {
		if (st->quiet_set)
			return error("-q and -e quiet/--quiet cannot be provided simultaneously");
		t->quiet_mask = st->qflag == 1 ? QUIET_ATTACH | QUIET_PERSONALITY :
				st->qflag == 2 ? QUIET_ATTACH | QUIET_PERSONALITY | QUIET_EXIT :
				QUIET_ALL;
	}
	t->quiet = (t->quiet_mask & QUIET_EXIT) ? 2 : (t->quiet_mask & QUIET_ATTACH) ? 1 : 0;
	t->text.quiet = t->quiet_mask;
	t->text.raw_set = t->raw_set;
	t->text.signal_set = t->signal_set;
	if (t->user && !command)
		return error("-u/--user needs a COMMAND to run");
	return 0;
}

int strace_opts_quals(struct trace_opts *t, struct trace_quals *q)
{
	memset(q, 0, sizeof(*q));
	q->want_ip = t->text.show_ip;
	q->signal_filter = t->signal_set != ~(uint64_t)0;
	q->signal_set = t->signal_set;
	q->abbrev_set = t->abbrev_set;
	q->verbose_set = t->verbose_set;
	q->compat_set[PERS_32] = t->filter.cset[PERS_32];
	q->compat_set[PERS_X32] = t->filter.cset[PERS_X32];
	q->read_fds = numset_empty(&t->read_fds) ? NULL : &t->read_fds;
	q->write_fds = numset_empty(&t->write_fds) ? NULL : &t->write_fds;
	q->inject = t->inject;
	q->detach_on_execve = t->detach_on_execve;
	q->daemonize = t->daemonize;
	q->interruptible = t->interruptible;
	if (t->npaths) {
		if (!t->pathset)
			t->pathset = pathset_new();
		for (size_t i = 0; i < t->npaths; i++) {
			char *resolved;
			pathset_add(t->pathset, t->paths[i], &resolved);
			if (resolved && !(t->quiet_mask & QUIET_PATH_RESOLVE)) {
				struct strbuf a = STRBUF_INIT, b = STRBUF_INIT;
				render_quoted(&a, t->paths[i], strlen(t->paths[i]), NULL);
				render_quoted(&b, resolved, strlen(resolved), NULL);
				fprintf(stderr, "renacer: Requested path %s resolved into %s\n", a.buf, b.buf);
				strbuf_release(&a);
				strbuf_release(&b);
			}
			free(resolved);
		}
		q->paths = t->pathset;
	}
	if (t->user) {
		if (startup_lookup_user(t->user, &t->run_as) < 0)
			return -1;
		q->user = &t->run_as;
	}
	if (t->nenv && !t->setup.envp) {
		/* -E: the command's environment, set up like capture's; the
		 * program is found in renacer's own PATH, as strace does */
		for (size_t i = 0; i < t->nenv; i++)
			run_setup_env_change(&t->setup, t->env_changes[i]);
		t->setup.own_path = 1;
		if (run_setup_prepare(&t->setup, environ) < 0)
			return -1;
	}
	return 0;
}
