/*
 * Byte strings quoted as strace prints them: used where a value is rendered
 * (sink/render.h), and by whoever must show bytes as strace does (the
 * decoders' socket paths of -yy, golden keys, -P's messages).  Depends on
 * strbuf only.
 */
#ifndef RENACER_SQUOTE_H
#define RENACER_SQUOTE_H

#include <stddef.h>

#include "util/strbuf.h"

/* How strings escape bytes (strace's -x, -xx, --strings-in-hex). */
enum render_xstyle {
	RX_NONE = 0,         /* octal escapes (default) */
	RX_NON_ASCII_CHARS,  /* \xNN instead of octal escapes */
	RX_NON_ASCII,        /* -x: a string with any non-printable byte other
				than \t\n\v\f\r is printed all in \xNN */
	RX_ALL,              /* -xx: every string all in \xNN */
};

/*
 * Appends p[0..len) as a double-quoted C string as strace quotes it:
 * \" \\ \f \n \r \t \v, printable ASCII (0x20..0x7e) as is, any other byte
 * in octal with as few digits as needed ("\1", "\177"), three digits when the
 * next shown byte is an octal digit ("\0018").  Bytes listed in
 * escape_chars (may be NULL) are written in octal too.
 * render_escaped() does the same without the quotes.
 */
void render_quoted(struct strbuf *sb, const char *p, size_t len, const char *escape_chars);
void render_escaped(struct strbuf *sb, const char *p, size_t len, const char *escape_chars);
/* The same in an escape style (enum render_xstyle): with RX_NON_ASCII and
 * RX_ALL the whole string may come out as \xNN bytes. */
void render_quoted_x(struct strbuf *sb, const char *p, size_t len,
		     const char *escape_chars, int xstyle);
void render_escaped_x(struct strbuf *sb, const char *p, size_t len,
		      const char *escape_chars, int xstyle);

#endif
