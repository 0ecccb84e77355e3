/*
 * What the golden subcommands (cmd_golden.c, cmd_golden_report.c) were
 * told on the command line besides the workflow settings of
 * src/golden/workflow.h: output format, colour, quiet.
 */
#ifndef RENACER_GOLDEN_CLI_H
#define RENACER_GOLDEN_CLI_H

#include <stdbool.h>

#include "golden/workflow.h"

struct gcli {
	const char *cmd;               /* "capture", "validate", ... */
	struct gwork w;                /* the workflow settings */
	int fmt;                       /* GFMT_* */
	int color;                     /* -1 auto, 0 never, 1 always */
	bool quiet;
	bool source;                   /* -s: source correlation asked for */
	const char *golden_file;       /* validate --golden FILE */
	const char *junit_path;        /* --junit FILE, or NULL */
	const char *html_path;         /* --html FILE, or NULL */
	const char *codequality_path;  /* --codequality FILE, or NULL */
	char *cmdline;                 /* the command line, for the HTML page */
	char **inject;                 /* -e inject=/fault=, --inject/--fault:
					  "inject=SPEC" / "fault=SPEC" (g->w.inject) */
	size_t ninject, ainject;
};

#endif
