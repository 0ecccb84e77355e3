/*
 * Byte strings quoted as strace prints them (see squote.h).  On the hot
 * path of the text sink: no allocation beyond the strbuf.
 */
#include "util/squote.h"

#include <stdbool.h>
#include <string.h>

#include "util/banned.h"

static inline char *sb_reserve(struct strbuf *sb, size_t n)
{
	strbuf_grow(sb, n);
	return sb->buf + sb->len;
}

static inline void sb_commit(struct strbuf *sb, char *end)
{
	strbuf_setlen(sb, (size_t)(end - sb->buf));
}

static const char hexdig[] = "0123456789abcdef";

/* strace's -x test: a byte other than printable ASCII and \t\n\v\f\r. */
static bool needs_hex(const unsigned char *p, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (p[i] > 0x7e || (p[i] < ' ' && (unsigned)(p[i] - 9) >= 5))
			return true;
	return false;
}

static char *hex_into(char *s, const unsigned char *p, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		*s++ = '\\';
		*s++ = 'x';
		*s++ = hexdig[p[i] >> 4];
		*s++ = hexdig[p[i] & 15];
	}
	return s;
}

static char *escape_into(char *s, const unsigned char *p, size_t len,
			 const char *escape_chars, int xstyle)
{
	if (xstyle == RX_ALL || (xstyle == RX_NON_ASCII && needs_hex(p, len)))
		return hex_into(s, p, len);
	for (size_t i = 0; i < len; i++) {
		unsigned c = p[i];

		switch (c) {
		case '"': case '\\':
			*s++ = '\\';
			*s++ = (char)c;
			continue;
		case '\f': *s++ = '\\'; *s++ = 'f'; continue;
		case '\n': *s++ = '\\'; *s++ = 'n'; continue;
		case '\r': *s++ = '\\'; *s++ = 'r'; continue;
		case '\t': *s++ = '\\'; *s++ = 't'; continue;
		case '\v': *s++ = '\\'; *s++ = 'v'; continue;
		}
		if (c >= ' ' && c < 0x7f && !(escape_chars && strchr(escape_chars, (int)c))) {
			*s++ = (char)c;
			continue;
		}
		*s++ = '\\';
		if (xstyle == RX_NON_ASCII_CHARS) {
			*s++ = 'x';
			*s++ = hexdig[c >> 4];
			*s++ = hexdig[c & 15];
		} else if (i + 1 < len && p[i + 1] >= '0' && p[i + 1] <= '7') {
			*s++ = (char)('0' + (c >> 6));
			*s++ = (char)('0' + ((c >> 3) & 7));
			*s++ = (char)('0' + (c & 7));
		} else {
			if (c >> 3) {
				if (c >> 6)
					*s++ = (char)('0' + (c >> 6));
				*s++ = (char)('0' + ((c >> 3) & 7));
			}
			*s++ = (char)('0' + (c & 7));
		}
	}
	return s;
}

void render_escaped_x(struct strbuf *sb, const char *p, size_t len,
		      const char *escape_chars, int xstyle)
{
	char *s = sb_reserve(sb, 4 * len);

	sb_commit(sb, escape_into(s, (const unsigned char *)p, len, escape_chars, xstyle));
}

void render_escaped(struct strbuf *sb, const char *p, size_t len, const char *escape_chars)
{
	render_escaped_x(sb, p, len, escape_chars, RX_NONE);
}

void render_quoted_x(struct strbuf *sb, const char *p, size_t len,
		     const char *escape_chars, int xstyle)
{
	char *s = sb_reserve(sb, 4 * len + 2);

	*s++ = '"';
	s = escape_into(s, (const unsigned char *)p, len, escape_chars, xstyle);
	*s++ = '"';
	sb_commit(sb, s);
}

void render_quoted(struct strbuf *sb, const char *p, size_t len, const char *escape_chars)
{
	render_quoted_x(sb, p, len, escape_chars, RX_NONE);
}
