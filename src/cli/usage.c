/* die_status() and helpers shared by the subcommands. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cmds.h"
#include "util/quote.h"
#include "util/strbuf.h"
#include "util/banned.h"

static int write_failed, stdout_reported;

void cli_write_failed(void)
{
	write_failed = 1;
}

void cli_stdout_failed(int err)
{
	if (!stdout_reported && !write_failed)
		fprintf(stderr, "renacer: cannot write to standard output%s%s\n",
			err ? ": " : "", err ? strerror(err) : "");
	stdout_reported = 1;
	write_failed = 1;
}

int cli_outputs_failed(void)
{
	errno = 0;
	if (fflush(stdout) != 0 || ferror(stdout))
		cli_stdout_failed(errno);
	/* a full stderr: nothing can say so, but the status still does */
	if (fflush(stderr) != 0 || ferror(stderr))
		write_failed = 1;
	return write_failed;
}

void die_status(int status, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT, clean = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	/* input is quoted with esc() by the callers; what is left (a usage
	 * text after the message keeps its lines) loses its control bytes */
	strbuf_add_cescaped(&clean, sb.buf, sb.len, 0,
			    CESC_KEEP_BACKSLASH | CESC_KEEP_NEWLINE);
	fflush(stdout);
	fprintf(stderr, "renacer: %s\n", clean.buf);
	strbuf_release(&sb);
	strbuf_release(&clean);
	exit(status);
}
