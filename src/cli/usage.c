/* die_status() and helpers shared by the subcommands. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "cli/cmds.h"
#include "util/banned.h"

void die_status(int status, const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fputs("renacer: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(status);
}
