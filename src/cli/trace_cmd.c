/*
 * renacer [OPTIONS] [--] COMMAND [ARGS...] and renacer [OPTIONS] -p PID:
 * parses strace-style options, builds the sinks, runs the tracer and exits
 * with the traced command's status.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cmds.h"
#include "assert/assert.h"
#include "cli/otlp_cli.h"
#include "cli/trace_opts.h"
#include "config/config.h"
#include "core/tracer.h"
#include "dwarf/dwarf.h"
#include "dwarf/skip.h"
#include "sink/profile.h"
#include "sink/sinks.h"
#include "sink/text.h"
#include "sys/filter.h"
#include "sys/sysent.h"
#include "util/error.h"
#include "util/strbuf.h"
#include "util/xmalloc.h"
#include "util/quote.h"
#include "util/banned.h"

static const char usage_text[] =
"usage: renacer [OPTIONS] [--] COMMAND [ARGS...]\n"
"       renacer [OPTIONS] -p PID[,PID...] [-p PID...]\n"
"       renacer SUBCOMMAND [ARGS...]   (capture, validate, compare, accept,\n"
"                                       report, assert, analyze, init,\n"
"                                       export; see\n"
"                                       'renacer SUBCOMMAND --help')\n"
"\n"
"Tracing:\n"
"  -f, --follow-forks         trace children created by fork, vfork, clone\n"
"  -p, --attach PID           attach to a running process (repeat or comma list)\n"
"  -e trace=SET               trace only SET: names, %classes, /regex/, !negation\n"
"  -e status=SET              show only successful, failed or unfinished calls\n"
"      --trace=SET            same as -e trace=SET\n"
"      --status=SET           same as -e status=SET\n"
"      --no-seccomp           stop at every syscall even when filtering\n"
"                             (a seccomp-bpf filter is used by default)\n"
"      --seccomp-bpf          use the filter (the default; undoes --no-seccomp)\n"
"\n"
"Output:\n"
"  -o, --output FILE          write the trace to FILE (- for standard output;\n"
"                             default: stderr)\n"
"      --format FMT           text (strace format, default), json, jsonl, csv\n"
"      --string-limit N       show at most N bytes of strings (default 32)\n"
"  -y, --decode-fds           print paths beside file descriptors\n"
"  -v, --no-abbrev            print structures in full\n"
"  -T, --syscall-times        print the time spent in each call\n"
"  -t, --absolute-timestamps  prefix lines with the time of day; -tt adds\n"
"                             microseconds, -ttt prints seconds since the epoch\n"
"  -r, --relative-timestamps  prefix lines with the time since the last entry\n"
"  -q, --quiet                no attach/detach messages; -qq no exit lines\n"
"\n"
"Summary:\n"
"  -c, --summary              count time, calls and errors; print a table\n"
"  -C, --summary-with-trace   print the trace and the table\n"
"  -w, --summary-wall-clock   table times are wall-clock latencies (default:\n"
"                             the system CPU time spent in each call)\n"
"  -S, --summary-sort-by KEY  time (default), calls, errors, name, avg-time,\n"
"                             min-time, max-time, nothing\n"
"      --timing               add per-syscall totals in ms and the wall time\n"
"      --backend NAME         what counts: ptrace (stops the command at each\n"
"                             call), ebpf (counts in the kernel, no stops; root,\n"
"                             kernel BTF; -c tables, --format json|jsonl\n"
"                             summaries and span_count budgets only) or auto\n"
"                             (default: ebpf for -c and -c with count-only\n"
"                             --assert when it can run, else ptrace with one\n"
"                             warning).  With ebpf the -c time is the calling\n"
"                             thread's system time in each call (strace: the\n"
"                             process's), -w the wall-clock time in the kernel\n"
"\n"
"Source correlation (docs/source.md):\n"
"  -s, --source               append the program's own source line that made\n"
"                             each call: \"= 14 [src/main.c:42 in main]\"\n"
"  -s N, -sN                  (a number follows) strace's string limit, as\n"
"                             --string-limit N; write \"-s -- 64\" to run a\n"
"                             program called 64 with source lines\n"
"  -k, --stack-trace          print the stack under each call (strace's -k\n"
"                             format, with file:line where known)\n"
"      --stack-trace=symbol   the same without file:line (strace 6.1's -k)\n"
"      --source-skip REGEX    frames whose module, function or file match are\n"
"                             not the program's own (repeatable; '' empties the\n"
"                             list, built-in defaults included)\n"
"      --function-time        after the run, a table of the functions making\n"
"                             syscalls, hot paths and call edges (implies -s;\n"
"                             JSON output gets a function_profile object)\n"
"      --flamegraph FILE      folded stacks for flamegraph.pl (- for stdout; the\n"
"                             command's stdout then goes to stderr)\n"
"      --flamegraph-weight W  time (microseconds of syscall time, default) or\n"
"                             count (calls)\n"
"      --flamegraph-svg FILE  an interactive flame graph (SVG)\n"
"      --speedscope FILE      a speedscope profile (JSON)\n"
"\n"
"Checks:\n"
"      --assert FILE          evaluate the assertions of FILE (renacer.toml)\n"
"                             on the run; exit 1 when one fails\n"
"      --assert-format FMT    text (default), json, junit\n"
"      --anti-patterns        run every anti-pattern detector and report\n"
"\n"
OTLP_CLI_USAGE
"\n"
"  -h, --help                 show this help\n"
"  -V, --version              show the version\n"
"\n"
"Exit status: the traced command's (when it was killed by a signal, renacer\n"
"kills itself with the same signal); 1 when renacer itself fails (bad\n"
"option, the command cannot be started); 6 when --backend ebpf was asked\n"
"for and cannot run here; 7 when an output (the trace, -c table, assertion\n"
"report) could not be written, after the command ran to its end.\n";

enum {
	OPT_STRING_LIMIT = 1000, OPT_FORMAT, OPT_TRACE, OPT_STATUS, OPT_NO_SECCOMP,
	OPT_SECCOMP, OPT_TIMING, OPT_ASSERT, OPT_ASSERT_FORMAT, OPT_ANTI_PATTERNS,
	OPT_BACKEND,
	/* source correlation */
	OPT_SOURCE = 1100, OPT_STACK_TRACE, OPT_SOURCE_SKIP, OPT_FUNCTION_TIME,
	OPT_FLAMEGRAPH, OPT_FLAMEGRAPH_WEIGHT, OPT_FLAMEGRAPH_SVG, OPT_SPEEDSCOPE,
};

static const struct option long_opts[] = {
	{ "follow-forks", no_argument, NULL, 'f' },
	{ "attach", required_argument, NULL, 'p' },
	{ "output", required_argument, NULL, 'o' },
	{ "format", required_argument, NULL, OPT_FORMAT },
	{ "string-limit", required_argument, NULL, OPT_STRING_LIMIT },
	{ "decode-fds", no_argument, NULL, 'y' },
	{ "no-abbrev", no_argument, NULL, 'v' },
	{ "syscall-times", no_argument, NULL, 'T' },
	{ "absolute-timestamps", no_argument, NULL, 't' },
	{ "relative-timestamps", no_argument, NULL, 'r' },
	{ "quiet", no_argument, NULL, 'q' },
	{ "summary", no_argument, NULL, 'c' },
	{ "summary-only", no_argument, NULL, 'c' },
	{ "summary-with-trace", no_argument, NULL, 'C' },
	{ "summary-wall-clock", no_argument, NULL, 'w' },
	{ "summary-sort-by", required_argument, NULL, 'S' },
	{ "timing", no_argument, NULL, OPT_TIMING },
	{ "trace", required_argument, NULL, OPT_TRACE },
	{ "status", required_argument, NULL, OPT_STATUS },
	{ "no-seccomp", no_argument, NULL, OPT_NO_SECCOMP },
	{ "seccomp-bpf", no_argument, NULL, OPT_SECCOMP },
	{ "assert", required_argument, NULL, OPT_ASSERT },
	{ "assert-format", required_argument, NULL, OPT_ASSERT_FORMAT },
	{ "anti-patterns", no_argument, NULL, OPT_ANTI_PATTERNS },
	{ "backend", required_argument, NULL, OPT_BACKEND },
	{ "source", no_argument, NULL, OPT_SOURCE },
	{ "stack-trace", optional_argument, NULL, OPT_STACK_TRACE },
	{ "stack-traces", optional_argument, NULL, OPT_STACK_TRACE },
	{ "source-skip", required_argument, NULL, OPT_SOURCE_SKIP },
	{ "function-time", no_argument, NULL, OPT_FUNCTION_TIME },
	{ "flamegraph", required_argument, NULL, OPT_FLAMEGRAPH },
	{ "flamegraph-weight", required_argument, NULL, OPT_FLAMEGRAPH_WEIGHT },
	{ "flamegraph-svg", required_argument, NULL, OPT_FLAMEGRAPH_SVG },
	{ "speedscope", required_argument, NULL, OPT_SPEEDSCOPE },
	OTLP_CLI_LONG_OPTS,
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 },
};

static int parse_uint(const char *s, unsigned long max, unsigned long *out)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, 10);
	if (!*s || *end || errno || v > max || *s == '-')
		return -1;
	*out = v;
	return 0;
}

static int add_pids(struct trace_opts *t, const char *arg)
{
	char *copy = xstrdup(arg), *save = NULL, *tok;
	int ret = 0;

	for (tok = strtok_r(copy, ", ", &save); tok; tok = strtok_r(NULL, ", ", &save)) {
		unsigned long v;
		if (parse_uint(tok, INT_MAX, &v) < 0 || v == 0) {
			ret = error("invalid process id '%s'", esc(tok));
			break;
		}
		if ((pid_t)v == getpid()) {
			ret = error("cannot attach to renacer itself (pid %lu)", v);
			break;
		}
		ALLOC_GROW(t->pids, t->npids + 1, t->apids);
		t->pids[t->npids++] = (pid_t)v;
	}
	free(copy);
	return ret;
}

/* -e EXPR: trace=, status=, or a bare set (trace). */
static int add_expr(struct trace_opts *t, const char *expr)
{
	int r = filter_qualifier(&t->filter, expr);

	if (r == 1) {
		size_t n = strcspn(expr, "=");
		return error("unsupported -e qualifier '%s' (renacer knows trace= and status=)",
			     escn(expr, n));
	}
	return r;
}

/* True when s is a string limit: decimal digits only. */
static bool is_number(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (*s < '0' || *s > '9')
			return false;
	return true;
}

/*
 * The source-correlation options (docs/source.md).  -s is both strace's
 * string limit and renacer's source correlation: a number attached (-s64)
 * or in the next word (-s 64) makes it the limit, anything else (another
 * option, "--", the command) leaves -s alone, meaning --source.
 */
static int source_opt(struct trace_opts *t, int c, int argc, char **argv)
{
	unsigned long v;

	switch (c) {
	case 's':
		if (!optarg && optind < argc && is_number(argv[optind]))
			optarg = argv[optind++];
		if (!optarg) {
			t->source = true;
			return 0;
		}
		if (parse_uint(optarg, 1u << 20, &v) < 0)
			return error("invalid string limit '%s' (-s takes a number, attached or "
				     "as the next word; -s alone turns on source lines)", esc(optarg));
		t->string_limit = (unsigned)v;
		return 0;
	case OPT_SOURCE:
		t->source = true;
		return 0;
	case 'k':
		t->stack_trace = STACK_SOURCE;
		return 0;
	case OPT_STACK_TRACE:
		if (!optarg || !strcmp(optarg, "source"))
			t->stack_trace = STACK_SOURCE;
		else if (!strcmp(optarg, "symbol"))
			t->stack_trace = STACK_SYMBOL;
		else
			return error("invalid --stack-trace argument '%s' (expected symbol or source)",
				     esc(optarg));
		return 0;
	case OPT_SOURCE_SKIP: {
		/* checked now, used once the configuration is read */
		struct srcskip *probe = srcskip_new();
		int r = srcskip_add(probe, optarg);
		srcskip_free(probe);
		if (r < 0)
			return -1;
		ALLOC_GROW(t->skip, t->nskip + 1, t->askip);
		t->skip[t->nskip++] = optarg;
		return 0;
	}
	case OPT_FUNCTION_TIME:
		t->function_time = true;
		t->source = true;
		return 0;
	case OPT_FLAMEGRAPH:
		t->flamegraph = optarg;
		return 0;
	case OPT_FLAMEGRAPH_WEIGHT:
		if (!strcmp(optarg, "time") || !strcmp(optarg, "us"))
			t->flamegraph_count = false;
		else if (!strcmp(optarg, "count") || !strcmp(optarg, "calls"))
			t->flamegraph_count = true;
		else
			return error("invalid --flamegraph-weight '%s' (expected time or count)",
				     esc(optarg));
		return 0;
	case OPT_FLAMEGRAPH_SVG:
		t->flamegraph_svg = optarg;
		return 0;
	case OPT_SPEEDSCOPE:
		t->speedscope = optarg;
		return 0;
	}
	return 0;
}

int trace_opts_parse(struct trace_opts *t, int argc, char **argv)
{
	int c, tcount = 0, qcount = 0;

	memset(t, 0, sizeof(*t));
	t->format = FMT_TEXT;
	t->string_limit = 32;
	filter_init(&t->filter);
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+fFp:o:e:yvTtrqcCwS:hVs::k", long_opts, NULL)) != -1) {
		unsigned long v;

		switch (c) {
		case 'f': case 'F': t->follow = true; break;
		case 'p':
			if (add_pids(t, optarg) < 0)
				return -1;
			break;
		case 'o': t->output = optarg; break;
		case 'e':
			if (add_expr(t, optarg) < 0)
				return -1;
			break;
		case OPT_TRACE:
			if (filter_trace(&t->filter, optarg) < 0)
				return -1;
			break;
		case OPT_STATUS:
			if (filter_status(&t->filter, optarg) < 0)
				return -1;
			break;
		case 'y': t->decode_fds = true; break;
		case 'v': t->verbose = true; break;
		case 'T': t->show_duration = true; break;
		case 't': tcount++; break;
		case 'r': t->relative = true; break;
		case 'q': qcount++; break;
		case 'c': t->summary = true; t->summary_only = true; break;
		case 'C': t->summary = true; t->summary_only = false; break;
		case 'w': t->wall = true; break;
		case 'S': {
			int k = summary_sort_parse(optarg);
			if (k < 0)
				return error("invalid sortby: '%s'", esc(optarg));
			t->sort = k;
			break;
		}
		case OPT_TIMING: t->timing = true; break;
		case OPT_STRING_LIMIT:
			if (parse_uint(optarg, 1u << 20, &v) < 0)
				return error("invalid string limit '%s'", esc(optarg));
			t->string_limit = (unsigned)v;
			break;
		case OPT_FORMAT:
			if (!strcmp(optarg, "text"))
				t->format = FMT_TEXT;
			else if (!strcmp(optarg, "json"))
				t->format = FMT_JSON;
			else if (!strcmp(optarg, "jsonl"))
				t->format = FMT_JSONL;
			else if (!strcmp(optarg, "csv"))
				t->format = FMT_CSV;
			else
				return error("unknown format '%s' (expected text, json, jsonl or csv)", esc(optarg));
			t->format_given = true;
			break;
		case OPT_NO_SECCOMP: t->no_seccomp = true; break;
		case OPT_SECCOMP: t->no_seccomp = false; break;
		case OPT_ASSERT: t->assert_file = optarg; break;
		case OPT_ASSERT_FORMAT:
			if (strcmp(optarg, "text") && strcmp(optarg, "json") && strcmp(optarg, "junit"))
				return error("unknown assertion format '%s' (expected text, json or junit)", esc(optarg));
			t->assert_format = optarg;
			break;
		case OPT_ANTI_PATTERNS: t->anti_patterns = true; break;
		case OPT_BACKEND:
			if (!strcmp(optarg, "auto"))
				t->backend = BACKEND_AUTO;
			else if (!strcmp(optarg, "ptrace"))
				t->backend = BACKEND_PTRACE;
			else if (!strcmp(optarg, "ebpf"))
				t->backend = BACKEND_EBPF;
			else
				return error("unknown backend '%s' (expected ptrace, ebpf or auto)", optarg);
			break;
		case 'h': t->help = true; return 0;
		case 'V': t->version = true; return 0;
		case 's':
		case OPT_SOURCE:
		case OPT_STACK_TRACE:
		case OPT_SOURCE_SKIP:
		case OPT_FUNCTION_TIME:
		case OPT_FLAMEGRAPH:
		case OPT_FLAMEGRAPH_WEIGHT:
		case OPT_FLAMEGRAPH_SVG:
		case OPT_SPEEDSCOPE:
		case 'k':
			if (source_opt(t, c, argc, argv) < 0)
				return -1;
			break;
		case ':':
			return error("option '%s' needs an argument", esc(argv[optind - 1]));
		default:
			if (c >= OPT_OTLP && c <= OPT_NO_PROPAGATE) {
				if (otlp_cli_option(&t->otlp, c, optarg) < 0)
					return -1;
				break;
			}
			if (optopt && optopt < 256)
				return error("unknown option '-%c' (see renacer --help)", optopt);
			return error("unknown option '%s' (see renacer --help)", esc(argv[optind - 1]));
		}
	}
	t->tstamp = tcount >= 3 ? TS_EPOCH_US : tcount;
	t->quiet = qcount;
	t->argv = argv + optind;
	t->argc = argc - optind;
	if (!t->help && !t->version) {
		if (t->npids && t->argc)
			return error("cannot both attach (-p) and start a command");
		if (!t->npids && !t->argc)
			return error("must have COMMAND to run or -p PID (see renacer --help)");
	}
	return 0;
}

void trace_opts_release(struct trace_opts *t)
{
	free(t->skip);
	free(t->pids);
	filter_release(&t->filter);
}

void trace_opts_to_tracer(const struct trace_opts *t, struct tracer_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->follow = t->follow;
	o->attach = t->npids ? t->pids : NULL;
	o->nattach = t->npids;
	o->trace_set = filter_trace_set(&t->filter);
	o->status_mask = t->filter.status_mask;
	o->no_seccomp = t->no_seccomp;
	o->dopts.string_limit = t->string_limit;
	o->dopts.decode_fds = t->decode_fds;
	o->dopts.verbose = t->verbose;
	o->cpu_time = t->summary && !t->wall;
}

/* Prints "Process N attached/detached" on stderr as strace does. */
struct msg_sink {
	struct sink base;
};

static void msg_event(struct sink *s, const struct event *ev)
{
	if (ev->type == EV_PROC_START && ev->attached)
		fprintf(stderr, "renacer: Process %d attached\n", (int)ev->tid);
	else if (ev->type == EV_DETACH)
		fprintf(stderr, "renacer: Process %d detached\n", (int)ev->tid);
}

static void msg_free(struct sink *s)
{
	free(s);
}

static const struct sink_ops msg_ops = {
	.name = "messages", .no_args = 1, .event = msg_event, .free = msg_free,
};

/*
 * Adds the sinks the options ask for.  Returns 0 or -1 (error printed).
 */
int trace_opts_add_sinks(const struct trace_opts *t, struct sink_list *sinks)
{
	FILE *out = stderr, *tout = stderr;   /* the table's stream, the trace's */
	const char *path = t->output;
	struct sink *s = NULL;
	struct sink_opts so = { 0 };

	if (path && !strcmp(path, "-")) {
		/* -o -: standard output, as for most tools */
		tout = stdout;
		path = NULL;
	}

	so.sort = t->sort;
	/* strace -c: system time by default, -w for wall-clock; only a
	 * live trace measures it (saved traces carry wall-clock durations) */
	so.cpu_time = !t->wall;
	so.timing = t->timing;
	so.source = t->source;
	so.function_profile = t->function_time;
	if (t->quiet == 0 && t->npids) {
		struct msg_sink *m = xcalloc(1, sizeof(*m));
		m->base.ops = &msg_ops;
		sink_list_add(sinks, &m->base);
	}
	if (!(t->summary_only && !t->format_given)) {
		switch (t->format) {
		case FMT_TEXT: {
			struct text_opts to = { 0 };
			to.tstamp = t->tstamp;
			to.relative = t->relative;
			to.show_duration = t->show_duration;
			to.pid_prefix = t->follow && t->output;
			to.quiet = t->quiet;
			to.decode_fds = t->decode_fds;
			to.stack_symbol_only = t->stack_trace == STACK_SYMBOL;
			s = text_sink_new(tout, path, &to);
			break;
		}
		case FMT_JSON: s = json_sink_new(tout, path, &so); break;
		case FMT_JSONL: s = jsonl_sink_new(tout, path, &so); break;
		case FMT_CSV: s = csv_sink_new(tout, path, &so); break;
		}
		if (!s)
			return -1;
		sink_list_add(sinks, s);
		path = NULL;    /* the table goes to stderr */
	}
	if (t->summary) {
		bool alone = t->summary_only && !t->format_given;
		s = summary_sink_new(alone ? tout : out, alone ? path : NULL, &so);
		if (!s)
			return -1;
		sink_list_add(sinks, s);
	}
	return 0;
}

bool trace_opts_wants_stacks(const struct trace_opts *t)
{
	return t->source || t->stack_trace || t->function_time || t->flamegraph ||
	       t->flamegraph_svg || t->speedscope;
}

int trace_opts_dwarf(const struct trace_opts *t, const struct config_source *cs,
		     struct tracer_opts *o, struct dwarf **d)
{
	struct dwarf_opts dop = { 0 };
	struct srcskip *skip;

	*d = NULL;
	if (!trace_opts_wants_stacks(t))
		return 0;
	skip = srcskip_new();
	if (cs && !cs->default_skip)
		srcskip_add(skip, "");
	for (size_t i = 0; cs && i < cs->nskip; i++)
		if (srcskip_add(skip, cs->skip[i]) < 0)
			goto fail;
	for (size_t i = 0; i < t->nskip; i++)
		if (srcskip_add(skip, t->skip[i]) < 0)
			goto fail;
	dop.source = t->source;
	dop.stack_trace = t->stack_trace != STACK_NONE;
	dop.full = t->function_time || t->flamegraph || t->flamegraph_svg || t->speedscope;
	dop.skip = skip;
	dop.trace_set = o->trace_set;
	*d = dwarf_new(&dop);
	o->enrich = dwarf_enrich;
	o->enrich_data = *d;
	if (o->trace_set)
		o->watch_set = dwarf_watch_set(*d);
	return 0;
fail:
	srcskip_free(skip);
	return -1;
}

/*
 * --function-time, --flamegraph, --flamegraph-svg, --speedscope: the
 * profile sink.  folded_stream is where "--flamegraph -" writes.
 */
static int add_profile_sink(const struct trace_opts *t, struct sink_list *sinks,
			    FILE *folded_stream, const char *title)
{
	struct profile_sink_opts po = { 0 };
	struct sink *s;

	if (!t->function_time && !t->flamegraph && !t->flamegraph_svg && !t->speedscope)
		return 0;
	po.table = t->function_time;
	po.folded = t->flamegraph;
	po.folded_stream = folded_stream;
	po.count = t->flamegraph_count;
	po.svg = t->flamegraph_svg;
	po.speedscope = t->speedscope;
	po.title = title;
	s = profile_sink_new(&po);
	if (!s)
		return -1;
	sink_list_add(sinks, s);
	return 0;
}

/*
 * "--flamegraph -": the folded stacks own renacer's standard output, so
 * that `renacer --flamegraph - -- prog | flamegraph.pl` works; the
 * command (which inherits renacer's descriptors) writes its standard
 * output to standard error instead.  Returns the stream for the stacks.
 */
static FILE *take_stdout(void)
{
	int fd;
	FILE *f;

	fflush(stdout);
	fd = dup(1);
	if (fd < 0 || !(f = fdopen(fd, "w"))) {
		error("cannot set aside standard output: %s", strerror(errno));
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	if (dup2(2, 1) < 0) {
		error("cannot send the command's output to standard error: %s", strerror(errno));
		fclose(f);
		return NULL;
	}
	return f;
}

/*
 * The seeds' `renacer --function-time --source -- prog | flamegraph.pl`
 * pipes the program's output, not stacks: say how to get them.
 */
static void pipe_hint(const struct trace_opts *t)
{
	struct stat st;

	if (t->function_time && !t->flamegraph && fstat(1, &st) == 0 && S_ISFIFO(st.st_mode))
		fprintf(stderr, "renacer: hint: standard output is a pipe; --flamegraph - sends the "
			"folded stacks there (flamegraph.pl's input) and the command's output to "
			"standard error\n");
}

/* Ends renacer the way the traced command ended. */
static void exit_like(const struct trace_end *end)
{
	if (end->term_signal) {
		struct rlimit rl = { 0, 0 };
		struct sigaction sa;

		fflush(stdout);
		fflush(stderr);
		setrlimit(RLIMIT_CORE, &rl);
		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = SIG_DFL;
		sigaction(end->term_signal, &sa, NULL);
		sigset_t set;
		sigemptyset(&set);
		sigaddset(&set, end->term_signal);
		sigprocmask(SIG_UNBLOCK, &set, NULL);
		kill(getpid(), end->term_signal);
		exit(128 + end->term_signal);
	}
	exit(end->exit_code);
}

int cmd_trace(int argc, char **argv)
{
	struct trace_opts t;
	struct tracer_opts o;
	struct sink_list sinks = SINK_LIST_INIT;
	struct trace_end end;
	struct renacer_config cfg;
	struct analysis *an = NULL;
	struct dwarf *dw = NULL;
	FILE *folded_stream = NULL;
	struct strbuf title = STRBUF_INIT;
	int r, assert_status = 0;

	if (trace_opts_parse(&t, argc, argv) < 0)
		exit(1);
	if (t.help) {
		fputs(usage_text, stdout);
		return 0;
	}
	if (t.version) {
		printf("renacer %s\n", RENACER_VERSION);
		return 0;
	}
	config_init(&cfg);
	/* a bad configuration stops everything before the command runs */
	if (t.assert_file && config_load(t.assert_file, &cfg) < 0)
		exit(5);
	/* -s, -k: the [source] table of ./renacer.toml, when there is one */
	if (!t.assert_file && trace_opts_wants_stacks(&t)) {
		if (config_load_if_exists("renacer.toml", &cfg) < 0)
			exit(5);
	} else if (!t.assert_file) {
		/* else only its [otlp] table, quietly (cli/otlp_cli.h) */
		otlp_cli_implicit_config(&cfg);
	}
	if (t.flamegraph && !strcmp(t.flamegraph, "-") && !(folded_stream = take_stdout()))
		exit(1);
	pipe_hint(&t);
	if (trace_opts_add_sinks(&t, &sinks) < 0)
		exit(1);
	if (otlp_cli_add_sink(&t.otlp, &cfg, !t.npids, &sinks) < 0)
		exit(1);
	for (int i = 0; i < t.argc; i++)
		strbuf_addf(&title, "%s%s", i ? " " : "", t.argv[i]);
	for (size_t i = 0; !t.argc && i < t.npids; i++)
		strbuf_addf(&title, "%spid %d", i ? ", " : "", (int)t.pids[i]);
	if (add_profile_sink(&t, &sinks, folded_stream, title.buf) < 0)
		exit(1);
	trace_opts_to_tracer(&t, &o);
	if (t.assert_file || t.anti_patterns) {
		an = analysis_new();
		sink_list_add(&sinks, analysis_sink_new(an));
		o.follow = true;   /* assertions measure the whole process tree */
		o.collect_rss = t.assert_file && assert_needs_rss(&cfg);
	}
	if (trace_opts_dwarf(&t, &cfg.source, &o, &dw) < 0)
		exit(1);
	if (dw)
		sink_list_add(&sinks, dwarf_sink_new(dw));   /* last: forgets the dead */
	r = trace_run(&t, &o, &cfg, &sinks, &end);
	sink_list_release(&sinks);
	if (dw && getenv("RENACER_DWARF_STATS"))
		dwarf_print_stats(dw);
	dwarf_free(dw);
	if (folded_stream && fclose(folded_stream) != 0 && r >= 0)
		r = error("cannot write the folded stacks: %s", strerror(errno));
	strbuf_release(&title);
	if (r != -1 && an) {
		int fmt = output_format_parse(t.assert_format ? t.assert_format : "text");
		if (t.assert_file) {
			assert_status = assert_report(&cfg, an, fmt, stderr, t.assert_file);
			if (assert_status == ASSERT_WRITE_FAILED)
				cli_write_failed();
			if (assert_status < 0)
				assert_status = 1;
		}
		if (t.anti_patterns && anti_patterns_report(an, fmt, stderr) < 0)
			cli_write_failed();
	}
	/* an output that failed (-2: a sink could not write) is its own status,
	 * now that the command has run to its end */
	if (r == -2)
		cli_write_failed();
	if (r != -1 && cli_outputs_failed())
		exit(EXIT_WRITE_FAILED);
	analysis_free(an);
	config_release(&cfg);
	trace_opts_release(&t);
	if (r == -1)
		exit(end.exit_code && end.exit_code != 127 ? end.exit_code : 1);
	if (r < 0 && !end.term_signal && end.exit_code == 0)
		exit(1);
	/* the command's own failure wins; then a failed assertion */
	if (!end.term_signal && end.exit_code == 0 && assert_status)
		exit(assert_status);
	exit_like(&end);
	return 0;
}
