/*
 * renacer [OPTIONS] [--] COMMAND [ARGS...] and renacer [OPTIONS] -p PID:
 * parses strace-style options, builds the sinks, runs the tracer and exits
 * with the traced command's status.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <regex.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cmds.h"
#include "assert/assert.h"
#include "cli/otlp_cli.h"
#include "cli/trace_opts.h"
#include "config/config.h"
#include "core/inject.h"
#include "core/pathtrace.h"
#include "core/startup.h"
#include "core/tracer.h"
#include "cli/strace_opts.h"
#include "sink/env.h"
#include "dwarf/dwarf.h"
#include "dwarf/skip.h"
#include "sink/profsink.h"
#include "sink/sinks.h"
#include "sink/text.h"
#include "sys/filter.h"
#include "sys/sysent.h"
#include "util/error.h"
#include "util/strbuf.h"
#include "util/xmalloc.h"
#include "util/quote.h"
#include "util/banned.h"

extern char **environ;

static const char usage_text[] =
"usage: renacer [OPTIONS] [--] COMMAND [ARGS...]\n"
"       renacer [OPTIONS] -p PID[,PID...] [-p PID...]\n"
"       renacer SUBCOMMAND [ARGS...]   (capture, validate, compare, accept,\n"
"                                       report, assert, analyze, init,\n"
"                                       export; see\n"
"                                       'renacer SUBCOMMAND --help')\n"
"\n"
"renacer takes strace 6.1's options with strace's meaning and output (see\n"
"'man renacer'); renacer's own features have long options.\n"
"\n"
"General:\n"
"  -e EXPR                    a qualifying expression: QUALIFIER=[!]all or\n"
"                             QUALIFIER=[!]VAL1[,VAL2]...; qualifiers: trace,\n"
"                             abbrev, verbose, raw, signal, read, write,\n"
"                             fault, inject, status, quiet, decode-fds, kvm\n"
"\n"
"Startup:\n"
"  -E, --env VAR=VAL          put VAR=VAL in the command's environment\n"
"  -E, --env VAR              remove VAR from the command's environment\n"
"  -p, --attach PID           attach to a running process (repeat or list;\n"
"                             with a COMMAND, both are traced)\n"
"  -u, --user USERNAME        run the command as USERNAME (root only), with\n"
"                             its set-user-ID/set-group-ID bits honoured\n"
"\n"
"Tracing:\n"
"  -b, --detach-on execve     detach from a task when it calls execve\n"
"  -D, --daemonize[=grandchild]\n"
"                             run the tracer as a grandchild of the command\n"
"  -DD, --daemonize=pgroup    ... in its own process group\n"
"  -DDD, --daemonize=session  ... in its own session\n"
"  -f, --follow-forks         trace children created by fork, vfork, clone\n"
"  -ff, --follow-forks --output-separately\n"
"                             follow forks, one file per task: FILE.PID\n"
"  -I, --interruptible N      when renacer can be interrupted: 1 anywhere,\n"
"                             2 waiting (default), 3 never (fatal signals\n"
"                             ignored), 4 never_tstp (SIGTSTP too)\n"
"      --no-seccomp           stop at every syscall even when filtering\n"
"                             (with -f a seccomp-bpf filter is used by default)\n"
"      --seccomp-bpf          use the filter (the default; undoes --no-seccomp)\n"
"      --no-pin               leave every CPU affinity alone (by default renacer\n"
"                             and the command share one CPU while a single\n"
"                             task of it runs: each stop is a local switch)\n"
"      --cpu LIST             keep renacer on the CPUs of LIST (as taskset -c:\n"
"                             0,2-3) and co-locate the command on one of them;\n"
"                             LIST must lie in renacer's own affinity\n"
"\n"
"Filtering:\n"
"  -e trace=SET, --trace=SET  trace only SET: names, %classes, /regex, all,\n"
"                             none, ?name (no error when unknown),\n"
"                             name@64|@32|@x32 (personality), !negation\n"
"  -e signal=SET, --signal=SET\n"
"                             show only the signals in SET\n"
"  -e status=SET, --status=SET\n"
"                             show only calls whose status is in SET:\n"
"                             successful, failed, unfinished, unavailable,\n"
"                             detached\n"
"  -P, --trace-path PATH      trace only calls that access PATH (repeatable;\n"
"                             descriptors are followed to their paths)\n"
"  -z, --successful-only      show only calls that succeeded\n"
"  -Z, --failed-only          show only calls that failed\n"
"\n"
"Output format:\n"
"  -a, --columns COLUMN       align results at COLUMN (default 40)\n"
"  -e abbrev=SET, --abbrev=SET\n"
"                             abbreviate the structures of the calls in SET\n"
"  -e verbose=SET, --verbose=SET\n"
"                             dereference structures for the calls in SET\n"
"                             (the others show addresses)\n"
"  -e raw=SET, --raw=SET      show the calls in SET undecoded, in hex\n"
"  -e read=SET, --read=SET    hex dump the data read from descriptors in SET\n"
"  -e write=SET, --write=SET  hex dump the data written to descriptors in SET\n"
"  -e quiet=SET, --quiet=SET  suppress messages: attach, exit,\n"
"                             path-resolution, personality, thread-execve\n"
"  -e decode-fds=SET, --decode-fds=SET\n"
"                             what to show beside descriptors: path, socket,\n"
"                             dev, pidfd\n"
"  -e kvm=vcpu, --kvm=vcpu    show the exit reason of each KVM_RUN ioctl\n"
"  -i, --instruction-pointer  show the instruction pointer of each call\n"
"  -n, --syscall-number       show the syscall number\n"
"  -o, --output FILE          write the trace to FILE (default: stderr for text,\n"
"                             stdout for json, jsonl and csv; - is standard\n"
"                             output, where the command's own output is then\n"
"                             set aside and shown on stderr after it);\n"
"                             '|CMD' or '!CMD' pipes it to CMD\n"
"  -A, --output-append-mode   append to the -o FILE\n"
"      --output-separately    one file per task, FILE.PID (with -o)\n"
"  -q, --quiet                no attach/detach messages (and -qq no exit\n"
"                             lines, -qqq nothing suppressible)\n"
"      --silent, --silence    same as --quiet\n"
"  -r, --relative-timestamps[=PRECISION]\n"
"                             prefix lines with the time since the last one;\n"
"                             PRECISION: s, ms, us (default), ns\n"
"      --absolute-timestamps[=[format:]FORMAT[,[precision:]PRECISION]]\n"
"      --timestamps[=...]     prefix lines with the time: FORMAT none, time\n"
"                             (default) or unix; PRECISION s (default), ms,\n"
"                             us, ns\n"
"  -t                         time of day; -tt with microseconds; -ttt\n"
"                             seconds since the epoch with microseconds\n"
"  -T, --syscall-times[=PRECISION]\n"
"                             show the time spent in each call\n"
"      --string-limit N       show at most N bytes of strings (default 32)\n"
"  -v, --no-abbrev            print structures in full\n"
"  -x, --strings-in-hex=non-ascii\n"
"                             print strings with non-ASCII bytes in hex\n"
"  -xx, --strings-in-hex[=all]\n"
"                             print all strings in hex\n"
"      --strings-in-hex=non-ascii-chars\n"
"                             hex instead of octal in escape sequences\n"
"  -X, --const-print-style FORMAT\n"
"                             named constants and flags: raw, abbrev\n"
"                             (default), verbose\n"
"  -y, --decode-fds[=path]    print paths beside file descriptors\n"
"  -yy, --decode-fds=all      also socket endpoints, device numbers, pidfds\n"
"      --format FMT           text (strace format, default), json, jsonl, csv;\n"
"                             json, jsonl and csv follow children and threads\n"
"                             (as -f and renacer capture)\n"
"\n"
"Statistics:\n"
"  -c, --summary-only         count time, calls and errors; print a table\n"
"  -C, --summary              print the trace and the table (renacer before\n"
"                             0.10 took --summary for -c; strace's meaning won)\n"
"  -O, --summary-syscall-overhead OVERHEAD[UNIT]\n"
"                             take OVERHEAD (s, ms, us (default), ns) off\n"
"                             each call's time\n"
"  -S, --summary-sort-by KEY  time (default), min-time, max-time, avg-time,\n"
"                             calls, errors, name, nothing\n"
"  -U, --summary-columns COLUMNS\n"
"                             the table's columns: time-percent, total-time,\n"
"                             min-time, max-time, avg-time, calls, errors, name\n"
"  -w, --summary-wall-clock   table times are wall-clock latencies (default:\n"
"                             the system CPU time spent in each call)\n"
"      --timing               add per-syscall totals in ms and the wall time;\n"
"                             implies -c (unless -C) and -w, so that the table\n"
"                             and its totals show the same times\n"
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
"Tampering:\n"
"  -e inject=SET[:error=ERRNO|:retval=VALUE][:signal=SIG][:syscall=SYSCALL]\n"
"            [:delay_enter=DELAY][:delay_exit=DELAY]\n"
"            [:poke_enter=@argN=HEX,...][:poke_exit=@argN=HEX,...][:when=WHEN]\n"
"  --inject=...               tamper with the calls in SET (DELAY: us or\n"
"                             NUMBER{s|ms|us|ns}; WHEN: FIRST[..LAST][+[STEP]])\n"
"  -e fault=SET[:error=ERRNO][:when=WHEN], --fault=...\n"
"                             -e inject= with error=ENOSYS by default\n"
"\n"
"Checks:\n"
"      --assert FILE          evaluate the assertions of FILE (renacer.toml)\n"
"                             on the run; exit 1 when one fails.  Without -o,\n"
"                             --format or -c only the results are printed\n"
"      --assert-format FMT    text (default), json, junit\n"
"      --anti-patterns        run every anti-pattern detector and report\n"
"\n"
OTLP_CLI_USAGE
"\n"
"Miscellaneous:\n"
"  -d, --debug                debug output of renacer itself on stderr\n"
"  -h, --help                 show this help\n"
"  -V, --version              show the version\n"
"\n"
"Not supported (a one-line error says why): --secontext, --tips.\n"
"\n"
"Exit status: the traced command's (when it was killed by a signal, renacer\n"
"kills itself with the same signal); SIGINT, SIGTERM or SIGHUP to renacer\n"
"detach -p processes, pass the signal on to the command (killed 2 s later)\n"
"and end renacer as killed by it; 1 when renacer itself fails (bad\n"
"option, the command cannot be started); 6 when --backend ebpf was asked\n"
"for and cannot run here; 7 when an output (the trace, -c table, assertion\n"
"report) could not be written, after the command ran to its end.\n";

enum {
	OPT_STRING_LIMIT = 1000, OPT_FORMAT, OPT_TRACE, OPT_STATUS, OPT_NO_SECCOMP,
	OPT_SECCOMP, OPT_TIMING, OPT_ASSERT, OPT_ASSERT_FORMAT, OPT_ANTI_PATTERNS,
	OPT_BACKEND,
	/* CPU placement */
	OPT_NO_PIN = 1050, OPT_CPU,
	/* source correlation */
	OPT_SOURCE = 1100, OPT_STACK_TRACE, OPT_SOURCE_SKIP, OPT_FUNCTION_TIME,
	OPT_FLAMEGRAPH, OPT_FLAMEGRAPH_WEIGHT, OPT_FLAMEGRAPH_SVG, OPT_SPEEDSCOPE,
};

/* renacer's own long options and strace's long names of short options;
 * the rest of strace's are in strace_long_opts (cli/strace_opts.c) */
static const struct option own_long_opts[] = {
	{ "attach", required_argument, NULL, 'p' },
	{ "output", required_argument, NULL, 'o' },
	{ "format", required_argument, NULL, OPT_FORMAT },
	{ "string-limit", required_argument, NULL, OPT_STRING_LIMIT },
	{ "no-abbrev", no_argument, NULL, 'v' },
	{ "summary-only", no_argument, NULL, 'c' },
	{ "summary", no_argument, NULL, 'C' },
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
	{ "no-pin", no_argument, NULL, OPT_NO_PIN },
	{ "cpu", required_argument, NULL, OPT_CPU },
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
};

/* own_long_opts + strace_long_opts + the NULL row, made once. */
static struct option *long_opts(void)
{
	static struct option *all;
	size_t n = ARRAY_SIZE(own_long_opts);

	if (all)
		return all;
	all = xcalloc(n + strace_long_opts_count + 1, sizeof(*all));
	memcpy(all, own_long_opts, sizeof(own_long_opts));
	memcpy(all + n, strace_long_opts, strace_long_opts_count * sizeof(*all));
	return all;
}

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
	struct strace_state st;
	int c, li;

	memset(t, 0, sizeof(*t));
	strbuf_init(&t->summary_text, 0);
	run_setup_init(&t->setup);
	memset(&st, 0, sizeof(st));
	t->format = FMT_TEXT;
	t->string_limit = 32;
	t->signal_set = ~(uint64_t)0;
	text_opts_init(&t->text);
	filter_init(&t->filter);
	optind = 1;
	opterr = 0;
	/* strace 6.1's letters; -s N is strace's string limit and -s alone
	 * renacer's source correlation (source_opt), -k the stack; -Y is
	 * rejected with a reason by strace_opt() */
	while (li = -1, (c = getopt_long(argc, argv, "+:a:Ab:cCdDe:E:fFhiI:kno:O:p:P:qrs::S:tTu:U:vVwxX:yYzZ",
					 long_opts(), &li)) != -1) {
		const struct option *lopt = li >= 0 ? &long_opts()[li] : NULL;
		unsigned long v;
		int r;

		switch (c) {
		case 'p':
			if (add_pids(t, optarg) < 0)
				return -1;
			continue;
		case 'o':
			/* -o -: standard output, as for most tools (strace writes
			 * a file named '-') */
			t->output_given = true;
			if (!strcmp(optarg, "-")) {
				t->output = NULL;
				t->out_stdout = true;
			} else {
				t->output = optarg;
				t->out_stdout = false;
			}
			continue;
		case OPT_TRACE:
			if (filter_trace(&t->filter, optarg) < 0)
				return -1;
			continue;
		case OPT_STATUS:
			if (filter_status(&t->filter, optarg) < 0)
				return -1;
			continue;
		case 'v': t->verbose = true; continue;
		case 'w': t->wall = true; continue;
		case 'S': {
			int k = summary_sort_parse(optarg);
			if (k < 0)
				return error("invalid sortby: '%s'", esc(optarg));
			t->sort = k;
			st.sortby_set = true;
			continue;
		}
		case OPT_TIMING: t->timing = true; continue;
		case OPT_STRING_LIMIT:
			if (parse_uint(optarg, 1u << 20, &v) < 0)
				return error("invalid string limit '%s'", esc(optarg));
			t->string_limit = (unsigned)v;
			continue;
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
			continue;
		case OPT_NO_SECCOMP: t->no_seccomp = true; continue;
		case OPT_SECCOMP: t->no_seccomp = false; t->seccomp_given = true; continue;
		case OPT_ASSERT: t->assert_file = optarg; continue;
		case OPT_ASSERT_FORMAT:
			if (strcmp(optarg, "text") && strcmp(optarg, "json") && strcmp(optarg, "junit"))
				return error("unknown assertion format '%s' (expected text, json or junit)", esc(optarg));
			t->assert_format = optarg;
			continue;
		case OPT_ANTI_PATTERNS: t->anti_patterns = true; continue;
		case OPT_BACKEND:
			if (!strcmp(optarg, "auto"))
				t->backend = BACKEND_AUTO;
			else if (!strcmp(optarg, "ptrace"))
				t->backend = BACKEND_PTRACE;
			else if (!strcmp(optarg, "ebpf"))
				t->backend = BACKEND_EBPF;
			else
				return error("unknown backend '%s' (expected ptrace, ebpf or auto)", esc(optarg));
			continue;
		case OPT_NO_PIN: t->no_pin = true; continue;
		case OPT_CPU:
			if (cpus_parse_list(optarg, &t->cpus) < 0)
				return error("invalid CPU list '%s' (expected numbers and ranges "
					     "as taskset -c takes them: 0,2-3)", esc(optarg));
			t->have_cpus = true;
			continue;
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
			continue;
		case ':':
		case '?': {
			/* the long option as typed, without "=value" */
			const char *as = argv[optind - 1];
			bool is_long = !strncmp(as, "--", 2);
			int n = (int)strcspn(as, "=");

			if (c == ':' && is_long)
				return error("option '%s' needs an argument (see renacer --help)", escn(as, (size_t)n));
			if (c == ':')
				return error("option '-%c' needs an argument (see renacer --help)", optopt);
			if (is_long && optopt)
				return error("option '%s' takes no argument (see renacer --help)", escn(as, (size_t)n));
			if (is_long)
				return error("unknown option '%s' (see renacer --help)", escn(as, (size_t)n));
			return error("unknown option '-%c' (see renacer --help)", optopt);
		}
		}
		if (c >= OPT_OTLP && c <= OPT_NO_PROPAGATE) {
			if (otlp_cli_option(&t->otlp, c, optarg) < 0)
				return -1;
			continue;
		}
		r = strace_opt(t, &st, c, optarg, lopt);
		if (r < 0)
			return -1;
		if (r == 0)
			return error("unknown option '%s' (see renacer --help)", esc(argv[optind - 1]));
	}
	/* --timing prints per-syscall latencies: it implies -c, and the table
	 * shows the same wall-clock latencies (-w) so that the two agree */
	if (t->timing) {
		if (!t->summary)
			t->summary = t->summary_only = true;
		t->wall = true;
	}
	/* machine formats are data: without -o they go to stdout */
	if (t->format != FMT_TEXT && !t->output_given)
		t->out_stdout = true;
	t->argv = argv + optind;
	t->argc = argc - optind;
	if (t->help || t->version)
		return 0;
	if (!t->npids && !t->argc)
		return error("must have COMMAND to run or -p PID (see renacer --help)");
	if (t->no_pin && t->have_cpus)
		return error("--no-pin and --cpu cannot be used together");
	if (t->have_cpus) {
		struct cpu_opts co = { PIN_AUTO, true, t->cpus };
		if (cpus_check(&co) < 0)
			return -1;
	}
	return strace_opts_finish(t, &st);
}

void trace_opts_release(struct trace_opts *t)
{
	free(t->skip);
	free(t->pids);
	filter_release(&t->filter);
	free(t->raw_set);
	free(t->abbrev_set);
	free(t->verbose_set);
	numset_release(&t->read_fds);
	numset_release(&t->write_fds);
	free(t->paths);
	free(t->env_changes);
	run_setup_release(&t->setup);
	pathset_free(t->pathset);
	inject_set_free(t->inject);
	strbuf_release(&t->summary_text);
}

void trace_opts_to_tracer(const struct trace_opts *t, struct tracer_opts *o)
{
	memset(o, 0, sizeof(*o));
	/* a machine-readable trace covers what a golden does: children and
	 * threads (the text format keeps strace's default) */
	o->follow = t->follow || t->format != FMT_TEXT;
	o->attach = t->npids ? t->pids : NULL;
	o->nattach = t->npids;
	o->trace_set = filter_trace_set(&t->filter);
	o->status_mask = t->filter.status_mask;
	o->no_seccomp = t->no_seccomp;
	o->dopts.string_limit = t->string_limit;
	o->dopts.decode_fds = t->decode_fds;
	o->dopts.fd_details = t->fd_details;
	o->dopts.decode_pids = t->decode_pids;
	o->dopts.verbose = t->verbose;
	o->dopts.kvm_vcpu = t->kvm_vcpu;
	o->cpu_time = t->summary && !t->wall;
	o->cpu.mode = t->no_pin ? PIN_OFF : PIN_AUTO;
	o->cpu.have_cpus = t->have_cpus;
	o->cpu.cpus = t->cpus;
	/* -n shows the last syscall on signal and exit lines, -D starts the
	 * command itself, an injected signal= goes with the resume from a
	 * syscall-entry stop: all need every syscall stop, as strace has them */
	if (t->text.show_nr || t->daemonize || inject_set_has_signals(t->inject))
		o->no_seccomp = true;
	o->quals = &t->quals;
	if (t->nenv)
		o->setup = &t->setup;
}

/*
 * strace's messages on stderr: "Process N attached" (-p, and each new
 * task of -f), "Process N attached with M threads" (-p -f), "Process N
 * detached"; none with -q (the default with -o FILE COMMAND).
 */
struct msg_sink {
	struct sink base;
	pid_t last;              /* -p -f: process whose threads were counted */
	bool follow;             /* -f was given: new tasks are announced (not
				    when only --assert follows them) */
};

static void msg_event(struct sink *s, const struct event *ev)
{
	struct msg_sink *m = (struct msg_sink *)s;

	if (ev->type == EV_PROC_START && ev->attached) {
		/* once per process, when its first thread is attached */
		if (m->last == ev->pid)
			return;
		m->last = ev->pid;
		if (ev->attach_threads > 1)
			fprintf(stderr, "renacer: Process %d attached with %u threads\n",
				(int)ev->pid, ev->attach_threads);
		else
			fprintf(stderr, "renacer: Process %d attached\n", (int)ev->pid);
		return;
	}
	if (ev->type == EV_PROC_START && ev->ppid != getpid() && m->follow)
		fprintf(stderr, "renacer: Process %d attached\n", (int)ev->tid);
	else if (ev->type == EV_DETACH)
		fprintf(stderr, "renacer: Process %d detached\n", (int)ev->tid);
}

static void msg_free(struct sink *s)
{
	free(s);
}

/* The messages need only process events: an engine that counts serves them. */
static void msg_totals(struct sink *s, const struct trace_totals *tt)
{
}

static const struct sink_ops msg_ops = {
	.name = "messages", .no_args = 1, .event = msg_event,
	.totals = msg_totals, .free = msg_free,
};

/*
 * -d: renacer's own debugging output on stderr, one line per event the
 * engine delivers (what strace -d shows of its wait statuses, in renacer's
 * terms): the event, the task, the syscall and its outcome, the time.
 */
static void debug_event(struct sink *s, const struct event *ev)
{
	static const char *const names[] = {
		[EV_SYSCALL_ENTRY] = "syscall-entry", [EV_SYSCALL] = "syscall",
		[EV_SIGNAL] = "signal", [EV_PROC_START] = "start", [EV_PROC_EXIT] = "exit",
		[EV_EXEC] = "exec", [EV_DETACH] = "detach", [EV_PERSONALITY] = "personality",
	};
	const char *n = ev->type < ARRAY_SIZE(names) && names[ev->type] ? names[ev->type] : "?";

	fprintf(stderr, "renacer: debug: %s pid %d tid %d", n, (int)ev->pid, (int)ev->tid);
	if (ev->type == EV_SYSCALL_ENTRY || ev->type == EV_SYSCALL)
		fprintf(stderr, " nr %ld %s", ev->nr, ev->name ? ev->name : "?");
	if (ev->type == EV_SYSCALL)
		fprintf(stderr, " %s retval %lld err %d%s", ev->state == SC_UNFINISHED ?
			"unfinished" : "complete", (long long)ev->retval, ev->err,
			ev->tamper ? " tampered" : "");
	if (ev->type == EV_SIGNAL)
		fprintf(stderr, " sig %d%s", ev->signo, ev->group_stop ? " stop" : "");
	if (ev->type == EV_PROC_START)
		fprintf(stderr, " parent %d%s%s", (int)ev->ppid, ev->is_thread ? " thread" : "",
			ev->attached ? " attached" : "");
	if (ev->type == EV_PROC_EXIT)
		fprintf(stderr, " code %d signal %d", ev->exit_code, ev->term_signal);
	fprintf(stderr, " at %llu.%09llu\n", (unsigned long long)(ev->ts_ns / 1000000000u),
		(unsigned long long)(ev->ts_ns % 1000000000u));
}

static void debug_free(struct sink *s)
{
	free(s);
}

static const struct sink_ops debug_ops = {
	.name = "debug", .wants_entry = 1, .no_args = 1, .event = debug_event,
	.proc_exit = debug_event, .free = debug_free,
};

/* The text sink the options ask for (-o FILE, -o '|CMD', -A, -ff). */
static struct sink *text_sink_for(const struct trace_opts *t, FILE *out, const char *path)
{
	struct text_opts to = t->text;

	to.pid_prefix = t->output && !t->output_separately && (t->follow || t->npids + (t->argc > 0) > 1);
	to.decode_fds = t->decode_fds;
	to.stack_symbol_only = t->stack_trace == STACK_SYMBOL;
	if (path && (path[0] == '|' || path[0] == '!'))
		return text_sink_new_pipe(path + 1, &to);
	if (path && t->output_separately)
		return text_sink_new_split(path, t->append, &to);
	if (path && t->append)
		return text_sink_new_append(path, &to);
	return text_sink_new(out, path, &to);
}

/*
 * Adds the sinks the options ask for.  Returns 0 or -1 (error printed).
 */
int trace_opts_add_sinks(struct trace_opts *t, struct sink_list *sinks)
{
	FILE *out = stderr;   /* the table's stream */
	FILE *tout = t->out_stdout ? (t->out_fp ? t->out_fp : stdout) : stderr; /* the trace's */
	const char *path = t->output;
	struct sink *s = NULL;
	struct sink_opts so = { 0 };

	so.sort = t->sort;
	/* strace -c: system time by default, -w for wall-clock; only a
	 * live trace measures it (saved traces carry wall-clock durations) */
	so.cpu_time = !t->wall;
	so.timing = t->timing;
	so.source = t->source;
	so.function_profile = t->function_time;
	so.overhead_ns = t->overhead_ns;
	if (t->columns && summary_columns_parse(t->columns, so.columns) < 0)
		return -1;
	if (t->debug) {
		struct sink *d = xcalloc(1, sizeof(*d));
		d->ops = &debug_ops;
		sink_list_add(sinks, d);
	}
	if (!(t->quiet_mask & QUIET_ATTACH)) {
		struct msg_sink *m = xcalloc(1, sizeof(*m));
		m->base.ops = &msg_ops;
		m->follow = t->follow;
		sink_list_add(sinks, &m->base);
	}
	/* --assert and --anti-patterns alone print only their results */
	bool checks_only = (t->assert_file || t->anti_patterns) && !t->output_given &&
			   !t->format_given && !t->summary;
	/* -C with the text format: the table ends the trace's own output,
	 * as strace writes it (the summary sink ends first, into a buffer
	 * the text sink prints last) */
	if (t->summary && !t->summary_only && t->format == FMT_TEXT) {
		sink_list_add(sinks, summary_sink_new_buf(&t->summary_text, &so));
		t->text.trailer = &t->summary_text;
	}
	if (!checks_only && !(t->summary_only && !t->format_given)) {
		switch (t->format) {
		case FMT_TEXT: s = text_sink_for(t, tout, path); break;
		case FMT_JSON: s = json_sink_new(tout, path, &so); break;
		case FMT_JSONL: s = jsonl_sink_new(tout, path, &so); break;
		case FMT_CSV: s = csv_sink_new(tout, path, &so); break;
		}
		if (!s)
			return -1;
		sink_list_add(sinks, s);
		path = NULL;    /* the table goes to stderr */
	}
	if (t->summary && !(!t->summary_only && t->format == FMT_TEXT)) {
		bool alone = t->summary_only && !t->format_given;
		s = summary_sink_new(alone ? tout : out, alone ? path : NULL, &so);
		if (!s)
			return -1;
		sink_list_add(sinks, s);
	}
	return 0;
}

/*
 * When the trace goes to stdout, the command's own stdout is moved to a
 * temporary regular file (the kind of file renacer capture gives it, so
 * both count the same calls) and copied to stderr when it ends: the trace
 * on stdout holds nothing else.
 */
struct moved_stdout {
	int saved;               /* renacer's stdout, where the trace goes */
	int tmp;                 /* the command's stdout */
	FILE *fp;                /* stream on saved */
};

static int move_stdout(struct moved_stdout *m)
{
	const char *dir = getenv("TMPDIR");
	struct strbuf path = STRBUF_INIT;

	memset(m, 0, sizeof(*m));
	m->saved = m->tmp = -1;
	fflush(stdout);
	strbuf_addf(&path, "%s/renacer-stdout.XXXXXX", dir && *dir ? dir : "/tmp");
	m->tmp = mkostemp(path.buf, O_CLOEXEC);
	if (m->tmp < 0) {
		error("cannot create a file for the command's output '%s': %s", path.buf,
		      strerror(errno));
		strbuf_release(&path);
		return -1;
	}
	unlink(path.buf);
	strbuf_release(&path);
	m->saved = fcntl(1, F_DUPFD_CLOEXEC, 3);
	if (m->saved < 0 || !(m->fp = fdopen(m->saved, "w")) || dup2(m->tmp, 1) < 0) {
		error("cannot move the command's output away from the trace: %s", strerror(errno));
		if (m->fp)
			fclose(m->fp);
		else if (m->saved >= 0)
			close(m->saved);
		close(m->tmp);
		m->saved = m->tmp = -1;
		m->fp = NULL;
		return -1;
	}
	return 0;
}

/* Puts stdout back and copies the command's output to stderr. */
static void restore_stdout(struct moved_stdout *m)
{
	char buf[65536];
	ssize_t n;

	if (m->tmp < 0)
		return;
	fflush(stdout);
	fflush(m->fp);
	dup2(m->saved, 1);
	fclose(m->fp);
	if (lseek(m->tmp, 0, SEEK_SET) == 0) {
		fflush(stderr);
		while ((n = read(m->tmp, buf, sizeof(buf))) > 0)
			if (write(2, buf, (size_t)n) != n)
				break;
	}
	close(m->tmp);
	m->tmp = -1;
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
	if (!(*d = dwarf_new(&dop)))
		return -1;   /* skip freed */
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
 * The seeds' `renacer --function-time --source -- cargo bench | flamegraph.pl`
 * pipes the program's output, not stacks: say what to add.  Printed after
 * the run, where the trace above cannot scroll it away.
 */
static void pipe_hint(const struct trace_opts *t)
{
	struct stat st;

	if (t->function_time && !t->flamegraph && fstat(1, &st) == 0 && S_ISFIFO(st.st_mode))
		fprintf(stderr, "renacer: hint: standard output is a pipe and got the command's "
			"output, not the folded stacks flamegraph.pl reads; add --flamegraph - to "
			"send the stacks there (and the command's output to standard error)\n");
}

/*
 * Profiles without -f: the processes and threads the command started
 * (cargo bench runs each benchmark as a child) are not in them.  Counts
 * the command's successful clone/fork calls, for profile_hint().
 */
struct kids_sink {
	struct sink base;
	unsigned long n;
};

static void kids_event(struct sink *s, const struct event *ev)
{
	if (ev->type == EV_SYSCALL && ev->state == SC_COMPLETE && !ev->err && ev->retval > 0 &&
	    ev->name && (!strcmp(ev->name, "clone") || !strcmp(ev->name, "clone3") ||
			 !strcmp(ev->name, "fork") || !strcmp(ev->name, "vfork")))
		((struct kids_sink *)s)->n++;
}

static void kids_free(struct sink *s)
{
	free(s);
}

static const struct sink_ops kids_ops = {
	.name = "kids", .no_args = 1, .event = kids_event, .free = kids_free,
};

static bool wants_profile(const struct trace_opts *t)
{
	return t->function_time || t->flamegraph || t->flamegraph_svg || t->speedscope;
}

static void profile_hint(unsigned long n)
{
	if (n)
		fprintf(stderr, "renacer: hint: the command started %lu process%s or thread%s that "
			"%s not traced, so %s not in the profile; -f follows them\n", n,
			n == 1 ? "" : "es", n == 1 ? "" : "s", n == 1 ? "was" : "were",
			n == 1 ? "its calls are" : "their calls are");
}

/*
 * Count-only runs (every enabled assertion a span_count budget, no
 * --anti-patterns, and no sink but the analysis and the attach messages:
 * --assert alone, which prints only its results) need each call's name
 * and nothing else: the
 * engine counts it at its entry and never stops at its exit
 * (tracer_opts.entry_only).  When every budget has a span_name_pattern and
 * no -e trace= was given, the seccomp filter stops only the calls those
 * patterns match; *set (free it) then holds them.
 */
static bool count_only(const struct trace_opts *t, const struct renacer_config *cfg,
		       const struct sink_list *sinks, uint8_t **set)
{
	size_t nb = (sysent_count + 7) / 8;
	uint8_t *bits;

	*set = NULL;
	if (!t->assert_file || t->anti_patterns || !assert_counts_only(cfg) ||
	    (t->filter.status_mask && t->filter.status_mask != STATUS_ALL))
		return false;
	for (size_t i = 0; i < sinks->n; i++) {
		const char *n = sinks->items[i]->ops->name;
		if (!n || (strcmp(n, "analysis") && strcmp(n, "messages")))
			return false;
	}
	if (filter_trace_set(&t->filter))
		return true;
	bits = xcalloc(1, nb);
	for (size_t i = 0; i < cfg->nassertions; i++) {
		const struct config_assertion *a = &cfg->assertions[i];
		regex_t re;

		if (!a->enabled)
			continue;
		if (!a->span_name_pattern ||
		    regcomp(&re, a->span_name_pattern, REG_EXTENDED | REG_NOSUB) != 0) {
			free(bits);
			return true;         /* every call counts */
		}
		/* a pattern that could match an unnamed number counts all */
		if (regexec(&re, "syscall_0x1", 0, NULL, 0) == 0) {
			regfree(&re);
			free(bits);
			return true;
		}
		for (size_t nr = 0; nr < sysent_count; nr++) {
			const struct sysent *se = sysent_get((long)nr);
			if (se && se->name && regexec(&re, se->name, 0, NULL, 0) == 0)
				bits[nr >> 3] |= (uint8_t)(1u << (nr & 7));
		}
		regfree(&re);
	}
	*set = bits;
	return true;
}

/*
 * The seeds' `renacer -- prog > current_trace.txt` saves the program's
 * output, not the trace (strace's text goes to stderr): say so, with what
 * to type.  Only when stdout is a regular file that the trace skipped.
 */
static void file_hint(const struct trace_opts *t)
{
	char path[4096];
	struct stat st;
	ssize_t n;

	/* --flamegraph - took standard output: fd 1 is standard error now */
	if (t->format != FMT_TEXT || t->output_given || t->out_stdout ||
	    (t->flamegraph && !strcmp(t->flamegraph, "-")) ||
	    (t->summary_only && !t->format_given) || t->npids || !t->argc ||
	    ((t->assert_file || t->anti_patterns) && !t->summary) ||
	    fstat(1, &st) < 0 || !S_ISREG(st.st_mode))
		return;
	if ((n = readlink("/proc/self/fd/1", path, sizeof(path) - 1)) <= 0)
		return;
	path[n] = '\0';
	fprintf(stderr, "renacer: hint: the trace went to standard error; '%s' holds the "
		"command's output (to write the trace to a file: renacer -o FILE -- %s)\n",
		esc(path), esc(t->argv[0]));
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
	struct moved_stdout moved = { -1, -1, NULL };
	struct trace_env env = { { 0 }, NULL, NULL, 0 };
	struct dwarf *dw = NULL;
	FILE *folded_stream = NULL;
	struct strbuf title = STRBUF_INIT;
	uint8_t *count_set = NULL;
	struct kids_sink *kids = NULL;   /* freed with the sinks */
	unsigned long nkids;
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
	/* an explicit --backend that cannot serve the options: said before
	 * anything is made (-D splits the process; outputs are created) */
	if (trace_backend_precheck(&t) < 0)
		exit(1);
	config_init(&cfg);
	/* a bad configuration stops everything before the command runs */
	if (t.assert_file && config_load(t.assert_file, &cfg) < 0)
		exit(5);
	/* libdw is loaded only for stacks: when it cannot be, nothing starts */
	if (trace_opts_wants_stacks(&t) && dwarf_load() < 0)
		exit(1);
	if (t.out_stdout && t.flamegraph && !strcmp(t.flamegraph, "-")) {
		error("the trace and --flamegraph - cannot both go to standard output; write "
		      "the trace with -o FILE");
		exit(1);
	}
	if (t.out_stdout && t.argc) {
		if (move_stdout(&moved) < 0)
			exit(1);
		t.out_fp = moved.fp;
	}
	/* -s, -k: the [source] table of ./renacer.toml, when there is one */
	if (!t.assert_file && trace_opts_wants_stacks(&t)) {
		int r = config_load_if_exists("renacer.toml", &cfg);

		if (r < 0) {
			restore_stdout(&moved);
			exit(5);
		}
		t.otlp.implicit_cfg = r == 0;   /* found, not named */
	} else if (!t.assert_file) {
		/* else only its [otlp] table, quietly (cli/otlp_cli.h) */
		t.otlp.implicit_cfg = otlp_cli_implicit_config(&cfg);
	}
	if (t.flamegraph && !strcmp(t.flamegraph, "-") && !(folded_stream = take_stdout())) {
		restore_stdout(&moved);
		exit(1);
	}
	if (trace_opts_add_sinks(&t, &sinks) < 0) {
		restore_stdout(&moved);
		exit(1);
	}
	if (otlp_cli_add_sink(&t.otlp, &cfg, t.argc > 0, &sinks) < 0) {
		restore_stdout(&moved);
		exit(1);
	}
	for (int i = 0; i < t.argc; i++)
		strbuf_addf(&title, "%s%s", i ? " " : "", t.argv[i]);
	for (size_t i = 0; !t.argc && i < t.npids; i++)
		strbuf_addf(&title, "%spid %d", i ? ", " : "", (int)t.pids[i]);
	if (add_profile_sink(&t, &sinks, folded_stream, title.buf) < 0) {
		restore_stdout(&moved);
		exit(1);
	}
	/* after the OTLP sink: -E starts from the environment with its
	 * TRACEPARENT */
	if (strace_opts_quals(&t, &t.quals) < 0) {
		restore_stdout(&moved);
		exit(1);
	}
	trace_opts_to_tracer(&t, &o);
	if (t.argc) {
		/* the command's environment, -E's changes included (a
		 * variable renacer lacks, LC_ALL=C, is recorded as the
		 * command has it) */
		trace_env_capture_run(&env, NULL,
				      run_setup_envp(t.nenv ? &t.setup : NULL, environ), NULL, NULL);
		o.env = &env;
	}
	/* -D: from here on this process is the tracer, a grandchild of the
	 * one that becomes the command */
	if (t.daemonize && startup_daemonize(t.daemonize, NULL, t.argv,
					     run_setup_envp(t.nenv ? &t.setup : NULL, environ),
					     t.quals.user, &t.quals.daemon_tracee) < 0) {
		startup_daemon_release();
		restore_stdout(&moved);
		exit(1);
	}
	if (t.assert_file || t.anti_patterns) {
		an = analysis_new();
		sink_list_add(&sinks, analysis_sink_new(an));
		o.follow = true;   /* assertions measure the whole process tree */
		o.collect_rss = t.assert_file && assert_needs_rss(&cfg);
	}
	if (wants_profile(&t) && !o.follow) {
		kids = xcalloc(1, sizeof(*kids));
		kids->base.ops = &kids_ops;
		sink_list_add(&sinks, &kids->base);
	}
	if (trace_opts_dwarf(&t, &cfg.source, &o, &dw) < 0)
		exit(1);
	if (dw)
		sink_list_add(&sinks, dwarf_sink_new(dw));   /* last: forgets the dead */
	if (count_only(&t, &cfg, &sinks, &count_set)) {
		o.entry_only = true;
		if (count_set)
			o.trace_set = count_set;
	}
	r = trace_run(&t, &o, &cfg, &sinks, &end);
	free(count_set);
	/* for tests and benchmarks: how many times the command stopped */
	if (getenv("RENACER_STOPS") && r != -1)
		fprintf(stderr, "renacer: %llu ptrace stops\n", (unsigned long long)end.stops);
	nkids = kids ? kids->n : 0;
	sink_list_release(&sinks);
	restore_stdout(&moved);
	trace_env_release(&env);
	if (dw && getenv("RENACER_DWARF_STATS"))
		dwarf_print_stats(dw);
	dwarf_free(dw);
	if (folded_stream && fclose(folded_stream) != 0 && r >= 0)
		r = error("cannot write the folded stacks: %s", strerror(errno));
	strbuf_release(&title);
	if (r != -1) {
		file_hint(&t);
		pipe_hint(&t);
		profile_hint(nkids);
	}
	if (r != -1 && an) {
		int fmt = output_format_parse(t.assert_format ? t.assert_format : "text");
		if (t.assert_file) {
			/* the budgets of the declared trace this command is, if any */
			const struct config_trace *ct = config_trace_of_command(&cfg, t.argv);
			assert_status = assert_report(&cfg, ct ? ct->name : NULL, an, fmt, stderr,
						      t.assert_file);
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
	/* renacer's own SIGINT/SIGTERM/SIGHUP: end as killed by it, as a
	 * shell expects of an interrupted program (130 for SIGINT), whatever
	 * became of the command */
	if (end.interrupt_signal) {
		end.term_signal = end.interrupt_signal;
		exit_like(&end);
	}
	/* the command's own failure wins; then a failed assertion */
	if (!end.term_signal && end.exit_code == 0 && assert_status)
		exit(assert_status);
	exit_like(&end);
	return 0;
}
