/*
 * Golden traces: renacer capture, compare, validate and accept: the
 * options, the usage texts and what is printed.  The work itself is in
 * src/golden/workflow.h.  Exit statuses are in golden.h.
 */
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "assert/assert.h"
#include "cli/cmds.h"
#include "cli/golden_cli.h"
#include "cli/otlp_cli.h"
#include "otlp/spancmp.h"
#include "golden/output.h"
#include "report/html.h"
#include "report/runview.h"
#include "util/atomicfile.h"
#include "util/error.h"
#include "util/quote.h"
#include "util/strbuf.h"
#include "util/xmalloc.h"
#include "util/banned.h"

/* --- usage --- */

#define EXIT_TEXT \
"Exit status:\n" \
"  0  equivalent (or captured / accepted)\n" \
"  1  regression: the trace differs from its golden\n" \
"  2  golden missing\n" \
"  3  golden unreadable or invalid (the message names the file and position)\n" \
"  4  the command failed to run\n" \
"  5  bad configuration or usage\n" \
"  7  an output (a golden, a .new file, the report, --junit) could not be written\n"

#define COMMON_TEXT \
"      --config FILE        renacer.toml to read (default: ./renacer.toml if present)\n" \
"      --dir DIR            golden directory (default: [golden_traces] dir or\n" \
"                           golden_traces)\n"

static const char capture_usage[] =
"usage: renacer capture [--dir DIR] [--runs N] [-s] NAME -- COMMAND [ARGS...]\n"
"       renacer capture [--dir DIR] [--runs N] [NAME...]\n"
"\n"
"Traces COMMAND (following children and threads; stdin /dev/null, its output\n"
"saved aside) and writes DIR/NAME.json (renacer-json-v2 with its environment,\n"
"each process's peak RSS and a \"timing\" object: runtime statistics and what\n"
"varied between the runs; NAME.json.zst above the [compression] threshold)\n"
"and DIR/NAME_summary.txt (the -c table and the per-syscall totals).  Time\n"
"is measured on untraced runs of COMMAND, each one kept ([golden_traces]\n"
"timing_runs, default 10).\n"
"Without a command, captures the traces declared in renacer.toml\n"
"([[golden_traces.trace]]): all, or those named.  The assertions of\n"
"renacer.toml are evaluated on the run; a failing one is a warning.\n"
"\n"
COMMON_TEXT
"      --runs N             run N times and store the median run, the spread of\n"
"                           the runtime and of each syscall's time, and the\n"
"                           range of each process's counts and I/O (default 3;\n"
"                           5 when the command runs threads)\n"
"  -e inject=SPEC, --inject=SPEC, -e fault=SPEC, --fault=SPEC\n"
"                           tamper with the runs as strace's -e inject= (see\n"
"                           'man renacer'): keep a golden of a failure path;\n"
"                           validate it with the same option\n"
"  -s, --source             source correlation: the golden keeps the line of\n"
"                           each call, NAME_source.json every call's stack;\n"
"                           validate then names the lines findings come from\n"
"  -q, --quiet              print only errors\n"
"  -h, --help               show this help\n"
"\n"
"With CI set in the environment capture refuses to write (exit 5).\n"
"\n"
EXIT_TEXT;

static const char compare_usage[] =
"usage: renacer compare [OPTIONS] GOLDEN CURRENT\n"
"\n"
"Compares two saved traces (.json, .jsonl, plain or .zst) after normalizing\n"
"them: call sequences per process (unified diff), syscall counts against the\n"
"tolerance, failures, files/programs/endpoints, exit statuses and runtime.\n"
"Two span exports (Jaeger /api/traces JSON, OTLP JSON such as --otlp-file\n"
"writes) are compared per operation instead: spans and total time a trace,\n"
"against --tolerance and [golden_traces] runtime_tolerance_pct (docs/otlp.md).\n"
"\n"
"      --config FILE        renacer.toml to read (default: ./renacer.toml if present)\n"
"      --format FMT         text (default), json, junit, markdown, github\n"
"                           (workflow commands: annotations, a job summary in\n"
"                           $GITHUB_STEP_SUMMARY), codequality (GitLab)\n"
"      --codequality FILE   also write GitLab's Code Quality report to FILE\n"
"      --html FILE          also write an HTML report to FILE: findings, a\n"
"                           timeline of both runs, syscall bars, the call diff\n"
"                           and a differential flame graph (one page, no\n"
"                           network)\n"
"      --color[=WHEN]       auto (default: on a terminal), always, never\n"
"      --no-color           same as --color=never\n"
"      --tolerance PCT      syscall count tolerance in percent (default 5)\n"
"      --min-confidence X   pass only at or above X (default 0.90)\n"
"      --no-timing          do not compare runtimes\n"
"  -h, --help               show this help\n"
"\n"
EXIT_TEXT
"(2 and 3 apply to either file.)\n";

static const char validate_usage[] =
"usage: renacer validate [OPTIONS] [NAME...]\n"
"       renacer validate [OPTIONS] --golden FILE -- COMMAND [ARGS...]\n"
"\n"
"Runs each declared trace of renacer.toml (all, or those named) or COMMAND,\n"
"the way its golden was run (stdio kinds, locale and other recorded\n"
"variables), and compares the run with its golden: calls, counts and bytes per\n"
"process against what varied at capture, processes and threads, files,\n"
"exit statuses, and time, judged on untraced runs against the golden's (slower\n"
"by a significant margin of at least 40%, or inconclusive when too noisy).\n"
"A finding that may be noise is confirmed by running again (up to 3 times).\n"
"On a mismatch the new trace is written beside the golden as NAME.json.new;\n"
"accept it with 'renacer accept NAME'.  Assertions of renacer.toml are\n"
"evaluated on the run too.\n"
"\n"
COMMON_TEXT
"      --golden FILE        the golden of COMMAND\n"
"      --runs N             run N times from the start (default 1)\n"
"  -e inject=SPEC, --inject=SPEC, -e fault=SPEC, --fault=SPEC\n"
"                           tamper with the runs as capture did (strace's\n"
"                           -e inject=; see 'man renacer')\n"
"      --update             rewrite the goldens that differ (also\n"
"                           RENACER_UPDATE_GOLDEN=1); never with CI set\n"
"      --new-dir DIR        write NAME.json.new files to DIR instead\n"
"      --format FMT         text (default), json, junit, markdown, github\n"
"                           (workflow commands: annotations on the source lines\n"
"                           of findings, a job summary in $GITHUB_STEP_SUMMARY),\n"
"                           codequality (GitLab's Code Quality report)\n"
"      --junit FILE         also write a JUnit XML report to FILE\n"
"      --codequality FILE   also write GitLab's Code Quality report to FILE\n"
"      --html FILE          also write an HTML report to FILE: findings with\n"
"                           their source lines, a timeline of the golden and\n"
"                           the current run, syscall bars, the call diff and a\n"
"                           differential flame graph (one page, no network)\n"
"      --color[=WHEN]       auto (default: on a terminal), always, never\n"
"      --no-color           same as --color=never\n"
"      --tolerance PCT      syscall count tolerance in percent (default 5)\n"
"      --min-confidence X   pass only at or above X (default 0.90)\n"
"      --no-timing          do not judge time (and make no untraced runs)\n"
"  -s, --source             trace with source correlation (automatic when the\n"
"                           golden was captured with -s): findings name the\n"
"                           lines their calls come from\n"
"      --same-machine       refuse (5) a golden made on another machine (CPU\n"
"                           model, cores, kernel, libc); without it validate\n"
"                           says so in one line\n"
"      --allow-orphans      with CI set, do not fail on golden files that no\n"
"                           declared trace uses\n"
"      --allow-pending      with CI set, do not fail on pending NAME.json.new\n"
"                           files in the golden directory\n"
"  -q, --quiet              text format: print only failing traces\n"
"  -h, --help               show this help\n"
"\n"
"With CI set in the environment nothing is written into the golden directory,\n"
"a missing golden fails, and so (5, with their names) do golden files that no\n"
"declared trace uses and pending .new files; without CI they are warnings.\n"
"\n"
EXIT_TEXT
"With several traces the status is the highest one.\n";

static const char accept_usage[] =
"usage: renacer accept [--dir DIR] [--all] [NAME...]\n"
"\n"
"Makes DIR/NAME.json.new (written by validate on a mismatch) the golden.\n"
"Lists the .new files still pending and removes stale ones (older than their\n"
"golden).  --all accepts every pending .new file.\n"
"\n"
COMMON_TEXT
"      --all                accept every pending .new file\n"
"  -h, --help               show this help\n"
"\n"
"Exit status: 0 accepted (or nothing to do), 2 no NAME.json.new for a NAME,\n"
"3 a .new file is unreadable, 5 bad usage or CI set, 7 a file could not be\n"
"written.\n";

/* --- options --- */

enum {
	O_CONFIG = 1000, O_DIR, O_RUNS, O_FORMAT, O_COLOR, O_NO_COLOR, O_TOL, O_MINCONF,
	O_NO_TIMING, O_UPDATE, O_GOLDEN, O_NEWDIR, O_JUNIT, O_ALL, O_INJECT, O_FAULT, O_HTML,
	O_CODEQUALITY, O_SAME_MACHINE, O_ALLOW_ORPHANS, O_ALLOW_PENDING,
};

static const struct option long_opts[] = {
	{ "config", required_argument, NULL, O_CONFIG },
	{ "dir", required_argument, NULL, O_DIR },
	{ "runs", required_argument, NULL, O_RUNS },
	{ "format", required_argument, NULL, O_FORMAT },
	{ "color", optional_argument, NULL, O_COLOR },
	{ "colour", optional_argument, NULL, O_COLOR },
	{ "no-color", no_argument, NULL, O_NO_COLOR },
	{ "tolerance", required_argument, NULL, O_TOL },
	{ "min-confidence", required_argument, NULL, O_MINCONF },
	{ "no-timing", no_argument, NULL, O_NO_TIMING },
	{ "update", no_argument, NULL, O_UPDATE },
	{ "golden", required_argument, NULL, O_GOLDEN },
	{ "new-dir", required_argument, NULL, O_NEWDIR },
	{ "junit", required_argument, NULL, O_JUNIT },
	{ "html", required_argument, NULL, O_HTML },
	{ "codequality", required_argument, NULL, O_CODEQUALITY },
	{ "same-machine", no_argument, NULL, O_SAME_MACHINE },
	{ "allow-orphans", no_argument, NULL, O_ALLOW_ORPHANS },
	{ "allow-pending", no_argument, NULL, O_ALLOW_PENDING },
	{ "all", no_argument, NULL, O_ALL },
	{ "inject", required_argument, NULL, O_INJECT },
	{ "fault", required_argument, NULL, O_FAULT },
	{ "source", no_argument, NULL, 's' },
	{ "quiet", no_argument, NULL, 'q' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

struct overrides {
	double tol, minconf;     /* < 0: not given */
	bool no_timing, all;
	bool allow_orphans, allow_pending;
};

static void usage_die(const char *cmd, const char *usage, const char *fmt, ...)
	__attribute__((noreturn, format(printf, 3, 4)));
static void usage_die(const char *cmd, const char *usage, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	fflush(stdout);
	(void)usage;
	{
		/* the message quotes the user's arguments: one line, always */
		struct strbuf clean = STRBUF_INIT;

		strbuf_add_cescaped(&clean, sb.buf, sb.len, 0, CESC_KEEP_BACKSLASH);
		fprintf(stderr, "renacer %s: %s (see 'renacer %s --help')\n", cmd, clean.buf, cmd);
		strbuf_release(&clean);
	}
	exit(GOLDEN_BAD_CONFIG);
}

static double parse_num(const char *cmd, const char *usage, const char *opt, const char *s,
			double lo, double hi)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || *end || v < lo || v > hi)
		usage_die(cmd, usage, "bad value '%s' for %s", esc(s), opt);
	return v;
}

/* Parses the options; returns the index of the first operand. */
static int parse_opts(struct gcli *g, struct overrides *ov, int argc, char **argv,
		      const char *usage)
{
	int c;

	memset(ov, 0, sizeof(*ov));
	ov->tol = ov->minconf = -1;
	g->color = -1;
	optind = 1;
	opterr = 0;
	/* commands after NAME or "--" keep their options: stop at the first operand */
	bool permute = !strcmp(g->cmd, "compare") || !strcmp(g->cmd, "accept");
	bool tamper = !strcmp(g->cmd, "capture") || !strcmp(g->cmd, "validate");
	while ((c = getopt_long(argc, argv, permute ? "sqh" : tamper ? "+sqhe:" : "+sqh",
				long_opts, NULL)) != -1) {
		struct strbuf spec = STRBUF_INIT;

		switch (c) {
		case 'e':
		case O_INJECT:
		case O_FAULT:
			/* strace's -e inject=/fault= only: a golden is of
			 * every call, so no other qualifier applies */
			if (!tamper)
				usage_die(g->cmd, usage, "unknown or incomplete option '%s'",
					  esc(argv[optind - 1]));
			if (c == 'e' && strncmp(optarg, "inject=", 7) && strncmp(optarg, "fault=", 6))
				usage_die(g->cmd, usage, "-e takes only inject= and fault=, not '%s'",
					  esc(optarg));
			strbuf_addf(&spec, "%s%s", c == O_INJECT ? "inject=" : c == O_FAULT ?
				    "fault=" : "", optarg);
			ALLOC_GROW(g->inject, g->ninject + 1, g->ainject);
			g->inject[g->ninject++] = strbuf_detach(&spec, NULL);
			g->w.inject = g->inject;
			g->w.ninject = g->ninject;
			break;
		case O_CONFIG: g->w.config_path = optarg; break;
		case O_DIR: g->w.dir = optarg; break;
		case O_RUNS:
			g->w.runs = (unsigned)parse_num(g->cmd, usage, "--runs", optarg, 1, 10000);
			break;
		case O_FORMAT:
			if ((g->fmt = gfmt_parse(optarg)) < 0)
				usage_die(g->cmd, usage, "unknown format '%s' (text, json, junit, markdown, "
					  "github, codequality)",
					  esc(optarg));
			break;
		case O_COLOR:
			if (!optarg || !strcmp(optarg, "always"))
				g->color = 1;
			else if (!strcmp(optarg, "never"))
				g->color = 0;
			else if (!strcmp(optarg, "auto"))
				g->color = -1;
			else
				usage_die(g->cmd, usage, "bad --color value '%s' (auto, always, never)",
					  esc(optarg));
			break;
		case O_NO_COLOR: g->color = 0; break;
		case O_TOL:
			ov->tol = parse_num(g->cmd, usage, "--tolerance", optarg, 0, 1e9);
			break;
		case O_MINCONF:
			ov->minconf = parse_num(g->cmd, usage, "--min-confidence", optarg, 0, 1);
			break;
		case O_NO_TIMING: ov->no_timing = true; break;
		case O_UPDATE: g->w.update = true; break;
		case O_GOLDEN: g->golden_file = optarg; break;
		case O_NEWDIR: g->w.new_dir = optarg; break;
		case O_JUNIT: g->junit_path = optarg; break;
		case O_SAME_MACHINE:
		case O_ALLOW_ORPHANS:
		case O_ALLOW_PENDING:
			if (c == O_SAME_MACHINE)
				g->w.same_machine = true;
			else if (c == O_ALLOW_ORPHANS)
				ov->allow_orphans = true;
			else
				ov->allow_pending = true;
			break;
		case O_CODEQUALITY:
			g->codequality_path = optarg;
			break;
		case O_HTML:
			g->html_path = optarg;
			g->w.keep_current = true;
			break;
		case O_ALL: ov->all = true; break;
		case 's': g->source = true; g->w.source = true; break;
		case 'q': g->quiet = true; break;
		case 'h':
			fputs(usage, stdout);
			exit(0);
		default:
			usage_die(g->cmd, usage, "unknown or incomplete option '%s'", esc(argv[optind - 1]));
		}
	}
	return optind;
}

static void load_config_or_die(struct gcli *g, const struct overrides *ov)
{
	if (gwork_load_config(&g->w) < 0)
		exit(GOLDEN_BAD_CONFIG);
	if (ov->tol >= 0)
		g->w.o.count_tolerance = ov->tol / 100.0;
	if (ov->minconf >= 0)
		g->w.o.min_confidence = ov->minconf;
	if (ov->no_timing)
		g->w.o.check_timing = false;
	if (!g->junit_path)
		g->junit_path = g->w.junit_path;
	if (g->color < 0)
		g->color = g->fmt == GFMT_TEXT && isatty(1) && !getenv("NO_COLOR");
}

/*
 * SIGINT, SIGTERM and SIGHUP while a golden may be written (capture,
 * validate, accept): the signal is remembered, the work in progress stops
 * before anything is stored (gwork.stop), and renacer dies by that signal
 * at the end, after one line saying what was left untouched, so that a
 * shell or CI sees the interruption.
 */
static volatile sig_atomic_t stop_sig;

static void on_stop(int sig)
{
	if (!stop_sig)
		stop_sig = sig;
}

static void catch_stops(struct gcli *g)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_stop;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	g->w.stop = &stop_sig;
}

/* Notes a run stopped by sig (the tracer's own handler saw it). */
static void stopped_by(int sig)
{
	if (!stop_sig && sig)
		stop_sig = sig;
}

/* Ends the command: status, or death by the signal that interrupted it. */
static int finish(struct gcli *g, int st)
{
	int sig = stop_sig;

	gwork_release(&g->w);
	if (sig) {
		struct sigaction sa;
		sigset_t set;

		cli_outputs_failed();
		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = SIG_DFL;
		sigaction(sig, &sa, NULL);
		sigemptyset(&set);
		sigaddset(&set, sig);
		sigprocmask(SIG_UNBLOCK, &set, NULL);
		raise(sig);
		exit(128 + sig);
	}
	return st;
}

/* Prints the last output lines of a command that did not exit 0. */
static void show_output_tail(const struct strbuf *tail)
{
	if (!tail->len)
		return;
	fprintf(stderr, "renacer: last lines of its output:\n");
	for (const char *p = tail->buf; *p;) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		fprintf(stderr, "  | %.*s\n", (int)len, p);
		p += len + (nl != NULL);
	}
}

/* --- capture --- */

static int capture_one(struct gcli *g, const char *name, char *const argv[],
		       const struct config_trace *ct)
{
	struct gcapture res;
	int st = golden_capture(&g->w, name, argv, ct, &res);

	if (res.interrupted) {
		stopped_by(res.interrupted);
		error("capture of '%s' interrupted by %s: the golden is unchanged", esc(name),
		      signal_name(res.interrupted) ? signal_name(res.interrupted) : "a signal");
	} else if (res.refused) {
		error("%s; the golden is unchanged", res.refused);
	} else if (res.run_failed) {
		error("capture of '%s' failed", esc(name));
	}
	if (st != GOLDEN_OK)
		goto out;
	if (!g->quiet) {
		static bool counters_said;
		printf("\xe2\x9c\x85 Captured: %s (%.2fms, %llu syscalls)\n", esc(res.written),
		       res.wall_ms, (unsigned long long)res.ncalls);
		if (res.timing)
			printf("   %s\n", res.timing);
		/* once: it is the machine's, not the trace's */
		if (res.no_counters && !counters_said) {
			printf("   note: %s\n", res.no_counters);
			counters_said = true;
		}
	}
	if (res.end.term_signal || res.end.exit_code) {
		if (res.end.term_signal)
			warning("'%s' was killed by %s; the golden records that", esc(argv[0]),
				signal_name(res.end.term_signal) ? signal_name(res.end.term_signal)
								 : "a signal");
		else
			warning("'%s' exited with status %d; the golden records that", esc(argv[0]),
				res.end.exit_code);
		show_output_tail(&res.output_tail);
	}
	for (size_t i = 0; res.asserts && i < res.asserts->n; i++) {
		const struct assert_result *a = &res.asserts->r[i];
		if (a->status == AS_FAILED || a->status == AS_WARNING)
			warning("assertion '%s' (%s) %s on the captured run: %s", a->name, a->type,
				a->status == AS_FAILED ? "fails" : "warns",
				a->summary ? a->summary : "");
	}
	if (g->source && !g->quiet)
		printf("   with the stack of every call: %s/%s_source.json\n", g->w.dir, name);
out:
	gcapture_release(&res);
	return st;
}

int cmd_capture(int argc, char **argv)
{
	struct gcli g;
	struct overrides ov;
	int first, st = GOLDEN_OK;

	memset(&g, 0, sizeof(g));
	g.cmd = "capture";
	first = parse_opts(&g, &ov, argc, argv, capture_usage);
	load_config_or_die(&g, &ov);
	if (g.w.ci)
		die_status(GOLDEN_BAD_CONFIG, "capture: refusing to write golden traces with CI set "
			   "in the environment (unset CI to capture)");
	catch_stops(&g);
	/* NAME -- COMMAND: one command */
	for (int i = first; i < argc; i++) {
		if (strcmp(argv[i], "--"))
			continue;
		if (i != first + 1)
			usage_die("capture", capture_usage, "expected one NAME before '--'");
		if (i + 1 >= argc)
			usage_die("capture", capture_usage, "expected a command after '--'");
		if (!golden_valid_name(argv[first]))
			usage_die("capture", capture_usage, "bad trace name '%s'", esc(argv[first]));
		if (golden_mkdir_p(g.w.dir) < 0)
			exit(GOLDEN_BAD_CONFIG);
		st = capture_one(&g, argv[first], argv + i + 1, config_trace(&g.w.cfg, argv[first]));
		return finish(&g, st);
	}
	/* the declared traces */
	if (!g.w.cfg.golden.ntraces)
		usage_die("capture", capture_usage, "no command given and no traces declared in %s",
			  g.w.cfg.path ? g.w.cfg.path : "renacer.toml ([[golden_traces.trace]])");
	for (int i = first; i < argc; i++)
		if (!config_trace(&g.w.cfg, argv[i]))
			die_status(GOLDEN_BAD_CONFIG, "capture: no trace '%s' declared in %s", esc(argv[i]),
				   g.w.cfg.path ? g.w.cfg.path : "renacer.toml");
	if (golden_mkdir_p(g.w.dir) < 0)
		exit(GOLDEN_BAD_CONFIG);
	for (size_t k = 0; k < g.w.cfg.golden.ntraces; k++) {
		const struct config_trace *ct = &g.w.cfg.golden.traces[k];
		bool wanted = first >= argc;
		for (int i = first; i < argc; i++)
			if (!strcmp(argv[i], ct->name))
				wanted = true;
		if (!wanted)
			continue;
		if (stop_sig)
			break;
		int s = capture_one(&g, ct->name, ct->argv, ct);
		if (s > st)
			st = s;
	}
	return finish(&g, st);
}

/* --- compare --- */

/* What the CI formats add: the HTML report's name, the run's page, the workspace. */
static void ci_context(struct gcli *g, struct gout_ci *ci, struct strbuf *url, struct strbuf *cwd)
{
	const char *server = getenv("GITHUB_SERVER_URL"), *repo = getenv("GITHUB_REPOSITORY");
	const char *run = getenv("GITHUB_RUN_ID");
	char buf[4096];

	memset(ci, 0, sizeof(*ci));
	ci->html = g->html_path;
	if (server && *server && repo && *repo && run && *run) {
		strbuf_addf(url, "%s/%s/actions/runs/%s", server, repo, run);
		ci->artifact_url = url->buf;
	} else if (getenv("CI_JOB_URL") && *getenv("CI_JOB_URL")) {
		strbuf_addf(url, "%s/artifacts/browse", getenv("CI_JOB_URL"));
		ci->artifact_url = url->buf;
	}
	ci->workspace = getenv("GITHUB_WORKSPACE");
	if (!ci->workspace || !*ci->workspace)
		ci->workspace = getenv("CI_PROJECT_DIR");
	if ((!ci->workspace || !*ci->workspace) && getcwd(buf, sizeof(buf))) {
		strbuf_addstr(cwd, buf);
		ci->workspace = cwd->buf;
	}
}

/* Writes one format of the cases into path (atomically); a failure is status 7 at exit. */
static void emit_file(const char *path, int fmt, const struct gout_case *cases, size_t n,
		      const struct golden_opts *o, const struct gout_ci *ci)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *mf = open_memstream(&buf, &len);
	int r = -1;

	if (mf) {
		r = fmt == GFMT_JUNIT ? gout_junit(mf, cases, n, o) : gout_codequality(mf, cases, n, o, ci);
		if (fclose(mf) != 0)
			r = -1;
	}
	if (r < 0 || write_file_atomic(path, buf, len) < 0) {
		if (r < 0)
			error("cannot write '%s': %s", esc(path), strerror(errno));
		cli_write_failed();
	}
	free(buf);
}

/*
 * With GITHUB_STEP_SUMMARY set (a GitHub Actions step), --format github
 * appends the Markdown summary to that file.
 */
static void step_summary(const struct gout_case *cases, size_t n, const struct golden_opts *o,
			 const struct gout_ci *ci)
{
	const char *path = getenv("GITHUB_STEP_SUMMARY");
	FILE *fp;

	if (!path || !*path)
		return;
	if (!(fp = fopen(path, "a"))) {
		error("cannot write the job summary '%s': %s", esc(path), strerror(errno));
		cli_write_failed();
		return;
	}
	if (gout_markdown_ci(fp, cases, n, o, ci) < 0 || fputc('\n', fp) == EOF) {
		error("cannot write the job summary '%s': %s", esc(path), strerror(errno));
		cli_write_failed();
	}
	if (fclose(fp) != 0) {
		error("cannot write the job summary '%s': %s", esc(path), strerror(errno));
		cli_write_failed();
	}
}

static void emit_cases(struct gcli *g, struct gout_case *cases, size_t n)
{
	const struct golden_opts *o = &g->w.o;
	struct strbuf url = STRBUF_INIT, cwd = STRBUF_INIT;
	struct gout_ci ci;
	int r = 0;

	ci_context(g, &ci, &url, &cwd);
	switch (g->fmt) {
	case GFMT_JSON: r = gout_json(stdout, cases, n, o); break;
	case GFMT_JUNIT: r = gout_junit(stdout, cases, n, o); break;
	case GFMT_MARKDOWN: r = gout_markdown_ci(stdout, cases, n, o, &ci); break;
	case GFMT_GITHUB: r = gout_github(stdout, cases, n, o, &ci); break;
	case GFMT_CODEQUALITY: r = gout_codequality(stdout, cases, n, o, &ci); break;
	default: break;
	}
	if (r < 0)
		cli_stdout_failed(errno);
	if (g->fmt == GFMT_GITHUB)
		step_summary(cases, n, o, &ci);
	/* the report on stdout is checked at exit (cli_outputs_failed) */
	if (g->junit_path)
		emit_file(g->junit_path, GFMT_JUNIT, cases, n, o, &ci);
	if (g->codequality_path)
		emit_file(g->codequality_path, GFMT_CODEQUALITY, cases, n, o, &ci);
	strbuf_release(&url);
	strbuf_release(&cwd);
}

/* The command line, for the HTML page ("renacer validate --html r.html"). */
static void keep_cmdline(struct gcli *g, int argc, char **argv)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addstr(&sb, "renacer");
	for (int i = 0; i < argc; i++) {
		strbuf_addch(&sb, ' ');
		strbuf_addstr(&sb, argv[i]);
	}
	free(g->cmdline);
	g->cmdline = strbuf_detach(&sb, NULL);
}

/*
 * --html FILE: the page of cases k, drawn from the goldens and currents
 * (either may be NULL, per case).  A failure to write is status 7 at exit.
 */
static void emit_html(struct gcli *g, const struct gout_case *k, char *const *goldens,
		      char *const *currents, size_t n)
{
	struct html_case *hc;
	struct html_opts ho;
	struct runview_opts ro;
	struct strbuf sb = STRBUF_INIT;
	char **paths;

	if (!g->html_path)
		return;
	hc = xcalloc(n + 1, sizeof(*hc));
	paths = xcalloc(2 * n + 1, sizeof(*paths));
	for (size_t i = 0; i < n; i++) {
		hc[i].k = &k[i];
		if (goldens[i] && (k[i].g || k[i].r))
			hc[i].golden_trace = paths[2 * i] = runview_stacks_path(goldens[i]);
		if (currents[i])
			hc[i].current_trace = paths[2 * i + 1] = runview_stacks_path(currents[i]);
	}
	memset(&ho, 0, sizeof(ho));
	memset(&ro, 0, sizeof(ro));
	ro.string_bytes = g->w.o.string_bytes;
	ro.records = g->w.o.trace_records;
	ho.o = &g->w.o;
	ho.rv = &ro;
	ho.command = g->cmdline;
	html_report(&sb, hc, n, &ho);
	if (write_file_atomic(g->html_path, sb.buf, sb.len) < 0)
		cli_write_failed();
	for (size_t i = 0; i < 2 * n; i++)
		free(paths[i]);
	free(paths);
	free(hc);
	strbuf_release(&sb);
}

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int cmd_compare(int argc, char **argv)
{
	struct gcli g;
	struct overrides ov;
	struct gcomparison res;
	struct gout_case k;
	int first, st;
	double t0 = now_s();

	memset(&g, 0, sizeof(g));
	g.cmd = "compare";
	first = parse_opts(&g, &ov, argc, argv, compare_usage);
	if (argc - first != 2)
		usage_die("compare", compare_usage, "expected GOLDEN and CURRENT");
	load_config_or_die(&g, &ov);
	/* Jaeger and OTLP JSON span exports: compared per operation (otlp_cli.c) */
	if (spanfile_kind(argv[first]) || spanfile_kind(argv[first + 1]))
		return otlp_cli_compare(&g.w.o, g.fmt, argv[first], argv[first + 1]);
	st = golden_compare_files(&g.w, argv[first], argv[first + 1], &res);
	memset(&k, 0, sizeof(k));
	k.name = argv[first];
	k.golden_path = argv[first];
	k.current_path = argv[first + 1];
	k.status = st;
	if (!res.have_r) {
		k.error = res.error;
		if (g.fmt != GFMT_TEXT)
			emit_cases(&g, &k, 1);
		if (g.html_path) {
			char *none = NULL;
			keep_cmdline(&g, argc, argv);
			emit_html(&g, &k, &none, &none, 1);
			free(g.cmdline);
		}
		gcomparison_release(&res);
		gwork_release(&g.w);
		return st;
	}
	k.r = &res.r;
	k.g = res.g;
	k.c = res.c;
	k.seconds = now_s() - t0;
	if (g.fmt == GFMT_TEXT && gout_text(stdout, &k, &g.w.o, g.color) < 0)
		cli_stdout_failed(errno);
	emit_cases(&g, &k, 1);
	{
		char *gp = argv[first], *cp = argv[first + 1];
		keep_cmdline(&g, argc, argv);
		emit_html(&g, &k, &gp, &cp, 1);
		free(g.cmdline);
	}
	gcomparison_release(&res);
	gwork_release(&g.w);
	return st;
}

/* --- validate --- */

/* Validates one trace and prints it in text format (others wait for all). */
static int validate_print(struct gcli *g, const char *name, const char *gpath, bool gexists,
			  char *const argv[], const struct config_trace *ct,
			  struct gvalidation *v)
{
	int st = golden_validate(&g->w, name, gpath, gexists, argv, ct, v);

	if (v->interrupted) {
		stopped_by(v->interrupted);
		error("validation of '%s' interrupted by %s: nothing written", esc(name),
		      signal_name(v->interrupted) ? signal_name(v->interrupted) : "a signal");
	}

	if (v->golden_missing && (!g->quiet || g->fmt != GFMT_TEXT))
		error("golden trace '%s' does not exist", esc(gpath));
	if (g->fmt == GFMT_TEXT)
		show_output_tail(&v->output_tail);
	if (g->fmt == GFMT_TEXT && (!g->quiet || st) &&
	    gout_text(stdout, &v->k, &g->w.o, g->color) < 0)
		cli_stdout_failed(errno);
	return st;
}

static void strip_ext(struct strbuf *sb, const char *path)
{
	const char *base = strrchr(path, '/');
	static const char *const exts[] = { ".json.zst", ".jsonl.zst", ".json", ".jsonl", ".zst" };

	strbuf_addstr(sb, base ? base + 1 : path);
	for (size_t i = 0; i < ARRAY_SIZE(exts); i++) {
		size_t l = strlen(exts[i]);
		if (sb->len > l && !strcmp(sb->buf + sb->len - l, exts[i])) {
			strbuf_setlen(sb, sb->len - l);
			break;
		}
	}
}

/* The trace a file of a golden directory belongs to ("ls" of ls.json.zst), or NULL. */
static char *golden_file_owner(const char *nm)
{
	static const char *const ends[] = { "_source.json.zst", "_source.json", "_summary.txt",
					    ".json.zst", ".json" };
	size_t l = strlen(nm);

	if (nm[0] == '.')
		return NULL;
	for (size_t i = 0; i < ARRAY_SIZE(ends); i++) {
		size_t e = strlen(ends[i]);
		if (l > e && !strcmp(nm + l - e, ends[i]))
			return xstrndup(nm, l - e);
	}
	return NULL;
}

static int str_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * Golden hygiene: files of the golden directory that no declared trace
 * uses, and pending .new files.  With CI set (and not allowed) they are a
 * failing case of their own (*hc filled, returns 1) whose files are
 * annotated one by one; else a warning each (returns 0).
 */
static int hygiene(struct gcli *g, const struct overrides *ov, struct gout_case *hc,
		   char ***files_out, size_t *nfiles_out, char **error_out)
{
	DIR *d = opendir(g->w.dir);
	struct dirent *e;
	char **orph = NULL, **pend = NULL;
	size_t no = 0, ao = 0, np = 0, ap = 0;
	struct gpending *p = NULL;
	size_t npend = 0;
	struct strbuf sb = STRBUF_INIT;
	bool fail_o, fail_p;

	while (d && (e = readdir(d))) {
		char *owner = golden_file_owner(e->d_name);
		/* with no trace declared, every golden validates by the command
		 * it recorded: none is an orphan */
		if (owner && g->w.cfg.golden.ntraces && !config_trace(&g->w.cfg, owner)) {
			strbuf_reset(&sb);
			strbuf_addf(&sb, "%s/%s", g->w.dir, e->d_name);
			ALLOC_GROW(orph, no + 1, ao);
			orph[no++] = strbuf_detach(&sb, NULL);
		}
		free(owner);
	}
	if (d)
		closedir(d);
	golden_list_pending(g->w.dir, &p, &npend);
	for (size_t i = 0; i < npend; i++) {
		ALLOC_GROW(pend, np + 1, ap);
		pend[np++] = xstrdup(p[i].path);
	}
	gpending_free(p, npend);
	QSORT(orph, no, str_cmp);
	QSORT(pend, np, str_cmp);
	fail_o = g->w.ci && !ov->allow_orphans && no;
	fail_p = g->w.ci && !ov->allow_pending && np;
	for (size_t i = 0; i < no; i++)
		if (!fail_o)
			warning("'%s' is a golden file that no trace declared in %s uses", esc(orph[i]),
				g->w.cfg.path ? g->w.cfg.path : "renacer.toml");
	for (size_t i = 0; i < np; i++)
		if (!fail_p)
			warning("'%s' is a pending update: accept it (renacer accept) or remove it",
				esc(pend[i]));
	strbuf_reset(&sb);
	if (fail_o) {
		strbuf_addf(&sb, "%zu golden file%s that no declared trace uses:", no, no == 1 ? "" : "s");
		for (size_t i = 0; i < no; i++)
			strbuf_addf(&sb, "%s %s", i ? "," : "", orph[i]);
		strbuf_addstr(&sb, " (remove them, declare their traces, or --allow-orphans)");
	}
	if (fail_p) {
		strbuf_addf(&sb, "%s%zu pending .new file%s:", sb.len ? "; " : "", np, np == 1 ? "" : "s");
		for (size_t i = 0; i < np; i++)
			strbuf_addf(&sb, "%s %s", i ? "," : "", pend[i]);
		strbuf_addstr(&sb, " (accept or remove them, or --allow-pending)");
	}
	*files_out = NULL;
	*nfiles_out = 0;
	if (fail_o || fail_p) {
		static char orphan_why[] = "a golden file that no declared trace uses";
		static char pending_why[] = "a pending update (accept it or remove it)";
		char **all = xcalloc(no + np + 1, sizeof(*all));
		char **why = xcalloc(no + np + 1, sizeof(*why));
		size_t n = 0;
		for (size_t i = 0; fail_o && i < no; i++) {
			why[n] = orphan_why;
			all[n++] = xstrdup(orph[i]);
		}
		for (size_t i = 0; fail_p && i < np; i++) {
			why[n] = pending_why;
			all[n++] = xstrdup(pend[i]);
		}
		memset(hc, 0, sizeof(*hc));
		hc->files_why = why;
		hc->name = g->w.dir;
		hc->golden_path = g->w.dir;
		hc->status = GOLDEN_BAD_CONFIG;
		*error_out = strbuf_detach(&sb, NULL);
		hc->error = *error_out;
		hc->files = all;
		hc->nfiles = n;
		*files_out = all;
		*nfiles_out = n;
	}
	for (size_t i = 0; i < no; i++)
		free(orph[i]);
	for (size_t i = 0; i < np; i++)
		free(pend[i]);
	free(orph);
	free(pend);
	strbuf_release(&sb);
	return fail_o || fail_p;
}

/* Says once per difference that goldens were made on another machine. */
static void machine_note(const struct gvalidation *v, struct strbuf *said)
{
	if (!v->machine_note || v->k.status == GOLDEN_BAD_CONFIG)
		return;
	for (const char *p = said->buf; (p = strstr(p, v->machine_note)); p++)
		if ((p == said->buf || p[-1] == '\n') && p[strlen(v->machine_note)] == '\n')
			return;
	strbuf_addf(said, "%s\n", v->machine_note);
	warning("golden '%s' was made on another machine: %s (--same-machine refuses it)",
		esc(v->name), esc(v->machine_note));
}

int cmd_validate(int argc, char **argv)
{
	struct gcli g;
	struct overrides ov;
	struct gvalidation *v = NULL;
	size_t nv = 0, nhfiles = 0;
	int first, st = GOLDEN_OK, dashdash = -1, hyg = 0;
	struct gout_case hcase = { 0 };
	char **hfiles = NULL, *herror = NULL;
	struct strbuf said = STRBUF_INIT;

	memset(&g, 0, sizeof(g));
	g.cmd = "validate";
	first = parse_opts(&g, &ov, argc, argv, validate_usage);
	if (first > 1 && !strcmp(argv[first - 1], "--"))
		dashdash = --first;     /* getopt stepped over it */
	for (int i = first; dashdash < 0 && i < argc; i++)
		if (!strcmp(argv[i], "--"))
			dashdash = i;
	if (dashdash >= 0 && !g.golden_file)
		usage_die("validate", validate_usage, "a command needs --golden FILE");
	if (g.golden_file && dashdash < 0)
		usage_die("validate", validate_usage, "--golden needs '-- COMMAND'");
	if (dashdash >= 0 && (dashdash != first || dashdash + 1 >= argc))
		usage_die("validate", validate_usage, "expected --golden FILE -- COMMAND [ARGS...]");
	load_config_or_die(&g, &ov);
	catch_stops(&g);
	if (g.w.ci && g.w.update) {
		warning("CI is set: --update ignored, nothing is written into '%s'", esc(g.w.dir));
		g.w.update = false;
	}

	if (g.golden_file) {
		struct strbuf name = STRBUF_INIT, dir = STRBUF_INIT;
		struct stat sbuf;
		const char *slash = strrchr(g.golden_file, '/');
		strip_ext(&name, g.golden_file);
		if (slash)
			strbuf_add(&dir, g.golden_file, slash - g.golden_file);
		else
			strbuf_addch(&dir, '.');
		g.w.dir = dir.buf;
		v = xcalloc(1, sizeof(*v));
		nv = 1;
		st = validate_print(&g, name.buf, g.golden_file, !stat(g.golden_file, &sbuf),
				    argv + dashdash + 1, config_trace(&g.w.cfg, name.buf), &v[0]);
		{
			struct strbuf said = STRBUF_INIT;
			machine_note(&v[0], &said);
			strbuf_release(&said);
		}
		emit_cases(&g, &v[0].k, 1);
		{
			char *gp = v[0].golden_missing ? NULL : v[0].golden;
			keep_cmdline(&g, argc, argv);
			emit_html(&g, &v[0].k, &gp, &v[0].current_trace, 1);
			free(g.cmdline);
		}
		gvalidation_release(&v[0]);
		free(v);
		strbuf_release(&name);
		strbuf_release(&dir);
		g.w.dir = NULL;
		return finish(&g, st);
	}

	/* goldens no renacer.toml declares (capture NAME -- COMMAND): named
	 * on the command line, or all of the directory's when none is declared */
	struct strlist { char **s; size_t n, alloc; } extra = { NULL, 0, 0 };
	for (int i = first; i < argc; i++) {
		bool exists;
		char *gp;
		if (config_trace(&g.w.cfg, argv[i]))
			continue;
		if (!golden_valid_name(argv[i]))
			die_status(GOLDEN_BAD_CONFIG, "validate: '%s' is not a trace name", esc(argv[i]));
		gp = golden_path(g.w.dir, argv[i], &exists);
		free(gp);
		if (!exists)
			die_status(GOLDEN_BAD_CONFIG, "validate: no trace '%s' declared in %s and no golden "
				   "'%s/%s.json'", esc(argv[i]), g.w.cfg.path ? g.w.cfg.path : "renacer.toml",
				   esc(g.w.dir), esc(argv[i]));
		ALLOC_GROW(extra.s, extra.n + 1, extra.alloc);
		extra.s[extra.n++] = xstrdup(argv[i]);
	}
	if (!g.w.cfg.golden.ntraces && first >= argc) {
		extra.n = golden_list_names(g.w.dir, &extra.s);
		if (!extra.n)
			usage_die("validate", validate_usage, "no traces declared in %s and no goldens in "
				  "'%s'; use --golden FILE -- COMMAND", g.w.cfg.path ? g.w.cfg.path :
				  "renacer.toml ([[golden_traces.trace]])", esc(g.w.dir));
	}
	/* hygiene first: what this run writes is not counted */
	hyg = hygiene(&g, &ov, &hcase, &hfiles, &nhfiles, &herror);
	if (hyg) {
		if (g.fmt == GFMT_TEXT && gout_text(stdout, &hcase, &g.w.o, g.color) < 0)
			cli_stdout_failed(errno);
		st = GOLDEN_BAD_CONFIG;
	}
	v = xcalloc(g.w.cfg.golden.ntraces + extra.n + 1, sizeof(*v));
	for (size_t t = 0; t < g.w.cfg.golden.ntraces; t++) {
		const struct config_trace *ct = &g.w.cfg.golden.traces[t];
		bool wanted = first >= argc, exists;
		char *gp;
		int s;

		for (int i = first; i < argc; i++)
			if (!strcmp(argv[i], ct->name))
				wanted = true;
		if (!wanted)
			continue;
		if (stop_sig)
			break;
		gp = golden_path(g.w.dir, ct->name, &exists);
		s = validate_print(&g, ct->name, gp, exists, ct->argv, ct, &v[nv]);
		machine_note(&v[nv], &said);
		free(gp);
		nv++;
		if (s > st)
			st = s;
		if (s && g.w.cfg.ci.fail_fast)
			break;
	}
	for (size_t e = 0; e < extra.n && !stop_sig && !(st && g.w.cfg.ci.fail_fast); e++) {
		bool exists;
		char *gp = golden_path(g.w.dir, extra.s[e], &exists);
		int s = validate_print(&g, extra.s[e], gp, exists, NULL, NULL, &v[nv]);
		free(gp);
		nv++;
		if (s > st)
			st = s;
	}
	for (size_t e = 0; e < extra.n; e++)
		free(extra.s[e]);
	free(extra.s);
	{
		struct gout_case *ks = xcalloc(nv + 2, sizeof(*ks));
		char **gp = xcalloc(nv + 2, sizeof(*gp)), **cp = xcalloc(nv + 2, sizeof(*cp));
		size_t nk = nv;
		for (size_t i = 0; i < nv; i++) {
			ks[i] = v[i].k;
			gp[i] = v[i].golden_missing ? NULL : v[i].golden;
			cp[i] = v[i].current_trace;
		}
		if (hyg)
			ks[nk++] = hcase;
		emit_cases(&g, ks, nk);
		keep_cmdline(&g, argc, argv);
		emit_html(&g, ks, gp, cp, nk);
		free(g.cmdline);
		free(gp);
		free(cp);
		free(ks);
	}
	if (g.fmt == GFMT_TEXT && nv > 1 && !g.quiet) {
		size_t pass = 0;
		for (size_t i = 0; i < nv; i++)
			pass += v[i].k.status == GOLDEN_OK;
		printf("%zu of %zu golden traces equivalent\n", pass, nv);
	}
	for (size_t i = 0; i < nv; i++)
		gvalidation_release(&v[i]);
	free(v);
	for (size_t i = 0; i < nhfiles; i++)
		free(hfiles[i]);
	free(hfiles);
	free((char **)hcase.files_why);
	free(herror);
	strbuf_release(&said);
	return finish(&g, st);
}

/* --- accept --- */

static int accept_print(struct gcli *g, const struct gpending *p)
{
	int st = golden_accept(&g->w, p);

	if (st == GOLDEN_OK)
		printf("\xe2\x9c\x85 Accepted: %s\n", esc(p->golden));
	else if (st == GOLDEN_CMD_FAILED && stop_sig)
		error("accept of '%s' interrupted by %s: the golden is unchanged", esc(p->name),
		      signal_name(stop_sig) ? signal_name(stop_sig) : "a signal");
	return st;
}

int cmd_accept(int argc, char **argv)
{
	struct gcli g;
	struct overrides ov;
	struct gpending *p;
	size_t np;
	int first, st = GOLDEN_OK;

	memset(&g, 0, sizeof(g));
	g.cmd = "accept";
	first = parse_opts(&g, &ov, argc, argv, accept_usage);
	load_config_or_die(&g, &ov);
	if (g.w.ci)
		die_status(GOLDEN_BAD_CONFIG, "accept: refusing to write golden traces with CI set "
			   "in the environment");
	catch_stops(&g);
	golden_list_pending(g.w.dir, &p, &np);
	for (int i = first; i < argc; i++) {
		bool found = false;
		for (size_t j = 0; j < np; j++) {
			if (strcmp(p[j].name, argv[i]) || p[j].done)
				continue;
			found = true;
			int s = accept_print(&g, &p[j]);
			if (s > st)
				st = s;
			p[j].done = true;
		}
		if (!found) {
			error("no new trace for '%s' in '%s' (%s/%s.json.new); run 'renacer validate %s' "
			      "first", esc(argv[i]), esc(g.w.dir), esc(g.w.dir), esc(argv[i]), esc(argv[i]));
			if (st < GOLDEN_MISSING)
				st = GOLDEN_MISSING;
		}
	}
	for (size_t j = 0; j < np; j++) {
		if (p[j].done)
			continue;
		if (p[j].stale) {
			if (golden_remove_stale(&p[j]) == 0)
				printf("removed stale %s (its golden is newer)\n", p[j].path);
		} else if (ov.all) {
			int s = accept_print(&g, &p[j]);
			if (s > st)
				st = s;
		} else {
			printf("pending: %s (accept with: renacer accept %s)\n", p[j].path, p[j].name);
		}
	}
	if (first >= argc && !ov.all && !np)
		printf("no new traces pending in %s\n", g.w.dir);
	gpending_free(p, np);
	return finish(&g, st);
}
