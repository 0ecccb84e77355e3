/* Error reporting for library code: print one line, return -1. */
#ifndef RENACER_ERROR_H
#define RENACER_ERROR_H

/*
 * error() prints "renacer: <message>" on stderr and returns -1, so library
 * code can write `return error("cannot open '%s': %s", p, strerror(errno));`.
 * warning() prints "renacer: warning: <message>".  Neither exits: only
 * src/cli/ may exit (via die()).  error_set_hook() lets the CLI or a test
 * capture messages instead of printing them (a NULL hook restores stderr).
 *
 * Quote input in a message with esc() (util/quote.h).  As a backstop, a
 * formatted message is always one line: control characters and bytes that
 * are not UTF-8 left in it are escaped before it is printed or hooked.
 */
int error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void warning(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void error_set_hook(void (*hook)(const char *kind, const char *msg));

#endif
