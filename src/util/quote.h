/*
 * Quoting input in messages and reports: whatever a file, a name, a path or
 * a TOML string holds, what renacer prints of it is one line with no control
 * characters, and XML text that every parser accepts.
 */
#ifndef RENACER_QUOTE_H
#define RENACER_QUOTE_H

#include <stddef.h>

#include "util/strbuf.h"

/*
 * esc(s) returns s with C-style escapes, for quoting input inside a message:
 *
 *     error("cannot open golden trace '%s': %s", esc(path), strerror(errno));
 *
 * Escaped: backslash (\\), \n \t \r \a \b \f \v, every other byte below 0x20
 * and DEL as a three-digit octal escape (ESC is \033), bytes that are not
 * valid UTF-8 the same way (\377), and the code points that move or hide
 * text: C1 controls, U+2028/U+2029, the bidirectional overrides and
 * isolates, U+FEFF, U+FFFE/U+FFFF (as \uXXXX).  Quotes are not escaped.
 * Input beyond ESC_MAX bytes is cut and "..." appended.  s may be NULL
 * ("(null)").
 *
 * The result lives in one of ESC_SLOTS rotating per-thread buffers: it is
 * valid until ESC_SLOTS more calls of esc()/escn() in the same thread, so
 * use it in the message at hand and never keep it.
 */
#define ESC_MAX 4096
#define ESC_SLOTS 8
const char *esc(const char *s);
const char *escn(const char *s, size_t len);   /* s need not be NUL-terminated */

/* Flags of strbuf_add_cescaped(). */
#define CESC_KEEP_BACKSLASH 1  /* leave '\\' alone (text that is already escaped) */
#define CESC_KEEP_NEWLINE 2    /* leave '\n' alone (a multi-line report body) */

/*
 * Appends s[0..len) escaped as esc() does, without esc()'s length cut
 * (max == 0) or cut after max input bytes with "..." appended.
 */
void strbuf_add_cescaped(struct strbuf *sb, const char *s, size_t len, size_t max,
			 unsigned flags);

/*
 * True when s[0..len) needs no escaping under flags (a fast check that lets
 * callers skip a copy).
 */
int cescape_clean(const char *s, size_t len, unsigned flags);

/*
 * Appends s[0..len) as XML 1.0 character data that is also safe inside a
 * double- or single-quoted attribute: & < > " ' become entities; newline
 * and tab stay (an attribute value shows them as spaces), carriage return
 * becomes &#13;; characters XML 1.0 forbids (other C0 controls,
 * U+FFFE, U+FFFF, surrogates) and bytes that are not valid UTF-8 are
 * written as "\ooo" / "\uXXXX" text, the same escapes as esc().
 */
void strbuf_add_xml(struct strbuf *sb, const char *s, size_t len);


#endif
