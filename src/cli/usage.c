/* die_status() and helpers shared by the subcommands. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "cli/cmds.h"
#include "util/quote.h"
#include "util/strbuf.h"
#include "util/banned.h"

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
