/* `renacer init`: writes a commented starter renacer.toml. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/cmds.h"
#include "config/config.h"
#include "util/atomicfile.h"
#include "util/quote.h"
#include "util/banned.h"

/* Exit statuses (as git: 1 for a failure, 2 for bad usage). */
enum { INIT_OK = 0, INIT_FAILED = 1, INIT_USAGE = 2 };

static const char init_usage[] =
"usage: renacer init [--path FILE] [--force]\n"
"\n"
"Writes a commented starter configuration to FILE (default renacer.toml):\n"
"the seeds' performance assertions (critical path, syscall budget, memory\n"
"budget, GodProcess and PCIeBottleneck warnings), golden-trace settings,\n"
"compression, OTLP and CI defaults.  Keys: docs/renacer-toml.md.\n"
"\n"
"  -p, --path FILE   write FILE instead of renacer.toml\n"
"  -f, --force       overwrite FILE if it exists\n"
"  -h, --help        show this help\n"
"\n"
"Exit status: 0 written, 1 FILE exists (without --force), 2 bad usage,\n"
"7 FILE (or standard output) cannot be written.\n";

int cmd_init(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "path", required_argument, NULL, 'p' },
		{ "force", no_argument, NULL, 'f' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *path = "renacer.toml";
	const char *text;
	struct stat st;
	size_t len;
	int force = 0, c;

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
	text = config_starter_text(&len);
	if (write_file_atomic(path, text, len) < 0)
		return EXIT_WRITE_FAILED;
	printf("Created %s: edit the budgets, then run 'renacer --assert %s -- COMMAND'\n",
	       path, path);
	return INIT_OK;
}
