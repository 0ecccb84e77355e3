/*
 * renacer flamegraph-diff GOLDEN CURRENT: a differential flame graph of two
 * traces (or two files of folded stacks), as SVG or as difffolded.pl's
 * folded diff lines.  The work is in src/report/flamediff.h.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cmds.h"
#include "golden/golden.h"
#include "report/flamediff.h"
#include "util/atomicfile.h"
#include "util/error.h"
#include "util/quote.h"
#include "util/strbuf.h"
#include "util/xmalloc.h"
#include "util/banned.h"

static const char usage[] =
"usage: renacer flamegraph-diff [OPTIONS] GOLDEN CURRENT\n"
"\n"
"Compares the stacks of two saved traces (.json, .jsonl, plain or .zst; a\n"
"golden NAME.json with NAME_source.json beside it gives that file's whole\n"
"stacks) or of two files of folded stacks (\"a;b;c N\" lines, as --flamegraph\n"
"writes them).  A trace's calls are stacked under the programs that made them\n"
"(\"make;sh;cc1;main;[openat]\"), then the program's own frames when it was\n"
"traced with -s or -k.  Writes a differential flame graph: frames as wide as\n"
"the current run's weight, red where more calls end than in the golden, blue\n"
"where fewer, purple for frames the golden never had (and, with --width\n"
"golden, green for frames the current run no longer has); a change under the\n"
"floor is not coloured.  Or the folded diff lines of difffolded.pl\n"
"(\"a;b;c GOLDEN CURRENT\"), which flamegraph.pl draws too.\n"
"\n"
"  -o, --output FILE        write to FILE (default: standard output)\n"
"      --format FMT         svg or folded (default: svg when FILE ends in .svg,\n"
"                           else folded)\n"
"      --weight W           calls (default) or time\n"
"      --width SIDE         current (default) or golden: whose weight sets the\n"
"                           widths (golden shows what shrank or went)\n"
"      --floor PCT          changes under PCT%% of all calls (or time) are not\n"
"                           coloured (default 0.5)\n"
"      --no-programs        stacks of traces without the programs' frames\n"
"      --title TEXT         the SVG's heading\n"
"  -q, --quiet              no summary line on standard error\n"
"  -h, --help               show this help\n"
"\n"
"Exit status: 0 written, 2 a file does not exist, 3 a file is unreadable or\n"
"invalid, 5 bad usage, 7 the output could not be written.\n";

static void usage_die(const char *fmt, const char *arg) __attribute__((noreturn));
static void usage_die(const char *fmt, const char *arg)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addf(&sb, fmt, arg ? esc(arg) : "");
	die_status(GOLDEN_BAD_CONFIG, "flamegraph-diff: %s (see 'renacer flamegraph-diff --help')",
		   sb.buf);
}

int cmd_flamediff(int argc, char **argv)
{
	enum { O_FORMAT = 1000, O_WEIGHT, O_WIDTH, O_FLOOR, O_NOPROG, O_TITLE };
	static const struct option opts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "format", required_argument, NULL, O_FORMAT },
		{ "weight", required_argument, NULL, O_WEIGHT },
		{ "width", required_argument, NULL, O_WIDTH },
		{ "floor", required_argument, NULL, O_FLOOR },
		{ "no-programs", no_argument, NULL, O_NOPROG },
		{ "title", required_argument, NULL, O_TITLE },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *out = NULL, *title = NULL;
	int fmt = -1, c, st = GOLDEN_OK;
	bool quiet = false;
	struct fdiff_svg so;
	struct fdiff_opts fo;
	struct runview_opts ro;
	struct profile *side[2] = { NULL, NULL };
	struct fdiff *d = NULL;
	struct strbuf sb = STRBUF_INIT;

	memset(&so, 0, sizeof(so));
	memset(&fo, 0, sizeof(fo));
	memset(&ro, 0, sizeof(ro));
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "o:qh", opts, NULL)) != -1) {
		char *end;

		switch (c) {
		case 'o': out = optarg; break;
		case O_FORMAT:
			if (!strcmp(optarg, "svg"))
				fmt = 1;
			else if (!strcmp(optarg, "folded"))
				fmt = 0;
			else
				usage_die("unknown format '%s' (svg, folded)", optarg);
			break;
		case O_WEIGHT:
			if (!strcmp(optarg, "calls") || !strcmp(optarg, "count"))
				so.weight = FD_CALLS;
			else if (!strcmp(optarg, "time"))
				so.weight = FD_TIME;
			else
				usage_die("unknown weight '%s' (calls, time)", optarg);
			break;
		case O_WIDTH:
			if (!strcmp(optarg, "current"))
				so.view = FD_VIEW_CURRENT;
			else if (!strcmp(optarg, "golden"))
				so.view = FD_VIEW_GOLDEN;
			else
				usage_die("unknown --width '%s' (current, golden)", optarg);
			break;
		case O_FLOOR:
			errno = 0;
			fo.floor = strtod(optarg, &end) / 100.0;
			if (errno || end == optarg || *end || fo.floor <= 0 || fo.floor > 1)
				usage_die("bad value '%s' for --floor (a percentage above 0)", optarg);
			break;
		case O_NOPROG: ro.no_programs = true; break;
		case O_TITLE: title = optarg; break;
		case 'q': quiet = true; break;
		case 'h':
			fputs(usage, stdout);
			return 0;
		default:
			usage_die("unknown or incomplete option '%s'", argv[optind - 1]);
		}
	}
	if (argc - optind != 2)
		usage_die("expected GOLDEN and CURRENT%s", NULL);
	if (fmt < 0)
		fmt = out && strlen(out) > 4 && !strcmp(out + strlen(out) - 4, ".svg");
	for (int i = 0; i < 2; i++) {
		char *p = runview_stacks_path(argv[optind + i]);
		int missing = 0;

		if (fdiff_load(p, &ro, &side[i], &missing) < 0)
			st = missing ? GOLDEN_MISSING : GOLDEN_INVALID;
		free(p);
		if (st)
			goto out;
	}
	d = fdiff_new(side[0], side[1], &fo);
	if (fmt) {
		struct strbuf t = STRBUF_INIT;
		if (!title) {
			strbuf_addf(&t, "%s against %s", argv[optind + 1], argv[optind]);
			title = t.buf;
		}
		so.title = title;
		fdiff_svg(d, &so, &sb);
		strbuf_release(&t);
	} else {
		fdiff_folded(d, so.weight, &sb);
	}
	if (!quiet) {
		size_t k[FD_NKINDS];
		fdiff_counts(d, so.weight, k);
		fprintf(stderr, "renacer: flamegraph-diff (%s): %zu frame%s grew, %zu shrank, %zu new, "
			"%zu gone, %zu the same\n", so.weight == FD_CALLS ? "calls" : "time",
			k[FD_GREW], k[FD_GREW] == 1 ? "" : "s", k[FD_SHRANK], k[FD_NEW], k[FD_GONE],
			k[FD_SAME]);
	}
	if (out && strcmp(out, "-")) {
		if (write_file_atomic(out, sb.buf, sb.len) < 0)
			st = GOLDEN_WRITE_FAILED;
	} else if (fwrite(sb.buf, 1, sb.len, stdout) != sb.len || fflush(stdout)) {
		cli_stdout_failed(errno);
	}
out:
	fdiff_free(d);
	profile_free(side[0]);
	profile_free(side[1]);
	strbuf_release(&sb);
	return st;
}
