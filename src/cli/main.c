/* renacer's entry point: dispatches to a subcommand or traces a command. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cmds.h"
#include "util/banned.h"

struct subcmd {
	const char *name;
	int (*fn)(int argc, char **argv);
};

/* Subcommands; "renacer -- NAME" traces a program called NAME instead. */
static const struct subcmd subcmds[] = {
	{ "capture", cmd_capture },    /* golden traces (cmd_golden.c) */
	{ "compare", cmd_compare },
	{ "validate", cmd_validate },
	{ "accept", cmd_accept },
	{ "report", cmd_report },      /* cmd_golden_report.c */
	{ "assert", cmd_assert },      /* assertions on a saved trace (cmd_assert.c) */
	{ "analyze", cmd_analyze },    /* anti-patterns on a saved trace (cmd_assert.c) */
	{ "init", cmd_init },          /* starter renacer.toml (cmd_init.c) */
	{ "export", cmd_export },      /* a saved trace to OTLP (cmd_export.c) */
	{ "flamegraph-diff", cmd_flamediff }, /* differential flame graphs (cmd_flamediff.c) */
	{ NULL, NULL },
};

/* At exit (main's return or exit()): a failed output gives its own status. */
static void check_outputs(void)
{
	if (cli_outputs_failed())
		_exit(EXIT_WRITE_FAILED);
}

int main(int argc, char **argv)
{
	atexit(check_outputs);
	if (argc > 1) {
		for (const struct subcmd *c = subcmds; c->name; c++)
			if (!strcmp(argv[1], c->name))
				return c->fn(argc - 1, argv + 1);
	}
	return cmd_trace(argc, argv);
}
