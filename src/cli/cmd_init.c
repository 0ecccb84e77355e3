/* `renacer init`: writes a commented starter renacer.toml. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include <math.h>
#include <stdlib.h>

#include "cli/cmds.h"
#include "config/config.h"
#include "golden/model.h"
#include "golden/workflow.h"
#include "util/atomicfile.h"
#include "util/error.h"
#include "util/quote.h"
#include "util/strbuf.h"
#include "util/xmalloc.h"
#include "util/banned.h"

/* Exit statuses (as git: 1 for a failure, 2 for bad usage). */
enum { INIT_OK = 0, INIT_FAILED = 1, INIT_USAGE = 2 };

static const char init_usage[] =
"usage: renacer init [--path FILE] [--force] [--from-goldens[=DIR]]\n"
"\n"
"Writes a commented starter configuration to FILE (default renacer.toml):\n"
"the seeds' performance assertions (critical path, syscall budget, memory\n"
"budget, GodProcess and PCIeBottleneck warnings), golden-trace settings,\n"
"compression, OTLP and CI defaults.  Keys: docs/renacer-toml.md.\n"
"\n"
"Where goldens exist (DIR, default golden_traces, as 'renacer capture NAME --\n"
"COMMAND' leaves them), each becomes a declared trace with budgets of its\n"
"own, measured from its golden with headroom (runtime 3x + 20 ms, calls\n"
"+20%, committed memory +25%), so that an unchanged build passes them; the\n"
"starter's budgets for every run are left out then.\n"
"\n"
"  -p, --path FILE         write FILE instead of renacer.toml\n"
"  -f, --force             overwrite FILE if it exists\n"
"      --from-goldens[=DIR]  budgets from the goldens of DIR (the default when\n"
"                          golden_traces/ holds goldens)\n"
"      --no-goldens        the starter alone, whatever golden_traces/ holds\n"
"  -h, --help              show this help\n"
"\n"
"Exit status: 0 written, 1 FILE exists (without --force), 2 bad usage,\n"
"7 FILE (or standard output) cannot be written.\n";

/* A TOML basic string. */
static void toml_str(struct strbuf *sb, const char *s)
{
	strbuf_addch(sb, '"');
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '"' || c == '\\')
			strbuf_addf(sb, "\\%c", c);
		else if (c < 0x20 || c == 0x7f)
			strbuf_addf(sb, "\\u%04x", c);
		else
			strbuf_addch(sb, (char)c);
	}
	strbuf_addch(sb, '"');
}

/* The most calls a run of the golden made: its calls and what varied. */
static uint64_t max_calls(const struct gmodel *m)
{
	uint64_t n = m->ncalls;
	for (size_t i = 0; i < m->timing.var.nprocs; i++)
		for (size_t k = 0; k < m->timing.var.procs[i].ncalls; k++)
			n += (uint64_t)m->timing.var.procs[i].calls[k].r.hi;
	return n;
}

/* Rounds x up to a multiple of step. */
static uint64_t round_up(double x, uint64_t step)
{
	uint64_t v = (uint64_t)ceil(x);
	return (v + step - 1) / step * step;
}

/*
 * The declared traces of the goldens in dir, with budgets measured from
 * each, appended to sb.  Returns how many goldens became traces, -1 after
 * error() when one could not be read.
 */
static int golden_budgets(const char *dir, struct strbuf *sb)
{
	struct golden_opts o;
	char **names;
	size_t n = golden_list_names(dir, &names);
	int done = 0;

	golden_opts_init(&o);
	if (n)
		strbuf_addf(sb, "\n# ---- Traces measured from the goldens of %s ----------------------------\n"
			    "# Written by `renacer init` from each golden: the budgets are what the\n"
			    "# golden measured with headroom, so that an unchanged build passes.\n",
			    dir);
	for (size_t i = 0; i < n; i++) {
		bool exists;
		char *gp = golden_path(dir, names[i], &exists);
		struct gmodel *m = NULL;
		int missing = 0;
		double ms;
		uint64_t mem = 0, calls;

		if (gmodel_load(gp, &o, &m, &missing) < 0) {
			free(gp);
			done = -1;
			break;
		}
		free(gp);
		if (!m->argv) {
			warning("golden '%s' records no command (attached?): not declared", esc(names[i]));
			gmodel_free(m);
			continue;
		}
		for (size_t g = 0; g < m->ngroups; g++)
			mem += m->groups[g].mem_peak;
		ms = m->timing.runs ? m->timing.wall_us.median / 1000.0 : m->wall_ns / 1e6;
		calls = max_calls(m);
		strbuf_addstr(sb, "\n[[golden_traces.trace]]\nname = ");
		toml_str(sb, names[i]);
		strbuf_addstr(sb, "\ncommand = [");
		for (size_t k = 0; m->argv[k]; k++) {
			if (k)
				strbuf_addstr(sb, ", ");
			toml_str(sb, m->argv[k]);
		}
		strbuf_addstr(sb, "]\n");
		strbuf_addf(sb, "\n[[golden_traces.trace.assertion]]\nname = \"runtime\"\n"
			    "type = \"critical_path\"\nmax_duration_ms = %llu  # measured %.2f ms%s: 3x + 20 ms\n",
			    (unsigned long long)round_up(ms * 3 + 20, 5), ms,
			    m->timing.runs > 1 ? " (median)" : "");
		strbuf_addf(sb, "\n[[golden_traces.trace.assertion]]\nname = \"syscalls\"\n"
			    "type = \"span_count\"\nmax_spans = %llu  # measured %llu%s: +20%%\n",
			    (unsigned long long)round_up(calls * 1.2 + 10, 10),
			    (unsigned long long)m->ncalls, calls != m->ncalls ? " (more in a run)" : "");
		if (mem)
			strbuf_addf(sb, "\n[[golden_traces.trace.assertion]]\nname = \"memory\"\n"
				    "type = \"memory_usage\"\nmax_bytes = %llu  # committed %.1f MiB: "
				    "+25%%, at least +4 MiB\ntracking_mode = \"allocations\"\n",
				    (unsigned long long)round_up(fmax(mem * 1.25, mem + 4.0 * 1048576),
								 1048576),
				    mem / 1048576.0);
		gmodel_free(m);
		done++;
	}
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
	golden_opts_release(&o);
	return done;
}

int cmd_init(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "path", required_argument, NULL, 'p' },
		{ "force", no_argument, NULL, 'f' },
		{ "from-goldens", optional_argument, NULL, 'g' },
		{ "no-goldens", no_argument, NULL, 'G' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *path = "renacer.toml", *gdir = "golden_traces";
	struct stat st;
	int force = 0, c, from = -1;   /* -1: when gdir holds goldens */
	struct strbuf out = STRBUF_INIT;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+p:fh", longopts, NULL)) != -1) {
		switch (c) {
		case 'p':
			path = optarg;
			break;
		case 'f':
			force = 1;
			break;
		case 'g':
			from = 1;
			if (optarg)
				gdir = optarg;
			break;
		case 'G':
			from = 0;
			break;
		case 'h':
			fputs(init_usage, stdout);
			return INIT_OK;
		default:
			die_status(INIT_USAGE, "init: unknown or incomplete option '%s'\n%s",
				   esc(argv[optind - 1]), init_usage);
		}
	}
	if (optind < argc)
		die_status(INIT_USAGE, "init: unexpected argument '%s'\n%s", esc(argv[optind]), init_usage);
	if (!*path)
		die_status(INIT_USAGE, "init: --path needs a file name");
	if (lstat(path, &st) == 0) {
		if (!force)
			die_status(INIT_FAILED, "'%s' already exists (use --force to overwrite it)",
				   esc(path));
		if (S_ISDIR(st.st_mode))
			die_status(EXIT_WRITE_FAILED, "cannot write '%s': %s", esc(path),
				   strerror(EISDIR));
	}
	if (from != 0) {
		struct strbuf traces = STRBUF_INIT;
		int n = golden_budgets(gdir, &traces);
		if (n < 0)
			die_status(INIT_FAILED, "init: cannot read the goldens of '%s'", esc(gdir));
		if (!n && from == 1)
			die_status(INIT_FAILED, "init: no goldens in '%s' (capture them with 'renacer "
				   "capture NAME -- COMMAND')", esc(gdir));
		if (n) {
			strbuf_addstr(&out, config_starter_text(false));
			strbuf_add(&out, traces.buf, traces.len);
		}
		strbuf_release(&traces);
	}
	if (!out.len)
		strbuf_addstr(&out, config_starter_text(true));
	if (write_file_atomic(path, out.buf, out.len) < 0)
		return EXIT_WRITE_FAILED;
	printf("Created %s: edit the budgets, then run 'renacer --assert %s -- COMMAND'\n",
	       path, path);
	strbuf_release(&out);
	return INIT_OK;
}
