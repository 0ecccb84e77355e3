/* Error reporting (see error.h). */
#include "util/error.h"
#include "util/quote.h"
#include "util/strbuf.h"

#include <stdarg.h>
#include <stdio.h>

static void (*err_hook)(const char *, const char *);

void error_set_hook(void (*hook)(const char *kind, const char *msg))
{
	err_hook = hook;
}

static void report(const char *kind, const char *fmt, va_list ap)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_vaddf(&sb, fmt, ap);
	/* a message is one line whatever it quotes: control characters
	 * that slipped past esc() are escaped here (backslashes are left
	 * alone, since esc() already wrote escapes) */
	if (!cescape_clean(sb.buf, sb.len, CESC_KEEP_BACKSLASH)) {
		struct strbuf clean = STRBUF_INIT;

		strbuf_add_cescaped(&clean, sb.buf, sb.len, 0, CESC_KEEP_BACKSLASH);
		strbuf_release(&sb);
		sb = clean;
	}
	if (err_hook)
		err_hook(kind, sb.buf);
	else if (*kind)
		fprintf(stderr, "renacer: %s: %s\n", kind, sb.buf);
	else
		fprintf(stderr, "renacer: %s\n", sb.buf);
	strbuf_release(&sb);
}

int error(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	report("", fmt, ap);
	va_end(ap);
	return -1;
}

void warning(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	report("warning", fmt, ap);
	va_end(ap);
}
