/* Quoting input in messages and reports (see quote.h). */
#include "util/quote.h"
#include "util/utf8.h"

#include <string.h>

#include "util/banned.h"

/* Code points that are valid UTF-8 but move, hide or break text lines. */
static int hostile_cp(unsigned cp)
{
	return (cp >= 0x80 && cp <= 0x9f) ||       /* C1 controls (0x9b is CSI) */
	       cp == 0x2028 || cp == 0x2029 ||     /* line / paragraph separator */
	       (cp >= 0x200e && cp <= 0x200f) ||   /* LRM, RLM */
	       (cp >= 0x202a && cp <= 0x202e) ||   /* bidi embeddings, overrides */
	       (cp >= 0x2066 && cp <= 0x2069) ||   /* bidi isolates */
	       cp == 0xfeff ||                     /* zero-width no-break space */
	       cp == 0xfffe || cp == 0xffff;       /* noncharacters (not XML) */
}

static void add_octal(struct strbuf *sb, unsigned char c)
{
	char e[4] = { '\\', (char)('0' + (c >> 6)), (char)('0' + ((c >> 3) & 7)),
		      (char)('0' + (c & 7)) };
	strbuf_add(sb, e, 4);
}

static void add_ucn(struct strbuf *sb, unsigned cp)
{
	static const char hx[] = "0123456789abcdef";
	char e[6] = { '\\', 'u', hx[(cp >> 12) & 15], hx[(cp >> 8) & 15],
		      hx[(cp >> 4) & 15], hx[cp & 15] };
	strbuf_add(sb, e, 6);
}

/* Plain bytes need no escape: printable ASCII other than backslash. */
static inline int plain(unsigned char c, unsigned flags)
{
	return c >= 0x20 && c < 0x7f && (c != '\\' || (flags & CESC_KEEP_BACKSLASH));
}

int cescape_clean(const char *str, size_t len, unsigned flags)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t i = 0;

	while (i < len) {
		unsigned cp;
		size_t l;

		if (plain(s[i], flags) || (s[i] == '\n' && (flags & CESC_KEEP_NEWLINE))) {
			i++;
			continue;
		}
		if (s[i] < 0x80)
			return 0;
		l = utf8_seq_len(s + i, len - i, &cp);
		if (!l || hostile_cp(cp))
			return 0;
		i += l;
	}
	return 1;
}

void strbuf_add_cescaped(struct strbuf *sb, const char *str, size_t len, size_t max,
			 unsigned flags)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t end = (max && len > max) ? max : len;
	size_t i = 0;

	strbuf_grow(sb, end);
	while (i < end) {
		unsigned char c = s[i];
		size_t run = i;
		unsigned cp;
		size_t l;

		while (run < end && plain(s[run], flags))
			run++;
		if (run > i) {
			strbuf_add(sb, s + i, run - i);
			i = run;
			continue;
		}
		if (c < 0x80) {
			switch (c) {
			case '\\': strbuf_add(sb, "\\\\", 2); break;
			case '\n':
				if (flags & CESC_KEEP_NEWLINE)
					strbuf_addch(sb, '\n');
				else
					strbuf_add(sb, "\\n", 2);
				break;
			case '\t': strbuf_add(sb, "\\t", 2); break;
			case '\r': strbuf_add(sb, "\\r", 2); break;
			case '\a': strbuf_add(sb, "\\a", 2); break;
			case '\b': strbuf_add(sb, "\\b", 2); break;
			case '\f': strbuf_add(sb, "\\f", 2); break;
			case '\v': strbuf_add(sb, "\\v", 2); break;
			default: add_octal(sb, c); break;
			}
			i++;
			continue;
		}
		l = utf8_seq_len(s + i, end - i, &cp);
		if (!l) {
			/* a sequence cut by max is shown as its bytes */
			add_octal(sb, c);
			i++;
		} else if (hostile_cp(cp)) {
			add_ucn(sb, cp);
			i += l;
		} else {
			strbuf_add(sb, s + i, l);
			i += l;
		}
	}
	if (end < len)
		strbuf_addstr(sb, "...");
}

static _Thread_local struct strbuf esc_buf[ESC_SLOTS];
static _Thread_local unsigned esc_next;

const char *escn(const char *s, size_t len)
{
	struct strbuf *sb = &esc_buf[esc_next++ % ESC_SLOTS];

	if (!sb->buf)
		strbuf_init(sb, 0);
	strbuf_reset(sb);
	if (!s)
		strbuf_addstr(sb, "(null)");
	else
		strbuf_add_cescaped(sb, s, len, ESC_MAX, 0);
	return sb->buf;
}

const char *esc(const char *s)
{
	return escn(s, s ? strlen(s) : 0);
}

void strbuf_add_xml(struct strbuf *sb, const char *str, size_t len)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t i = 0;

	strbuf_grow(sb, len);
	while (i < len) {
		unsigned char c = s[i];
		size_t run = i;
		unsigned cp;
		size_t l;

		while (run < len && s[run] >= 0x20 && s[run] < 0x7f && s[run] != '&' &&
		       s[run] != '<' && s[run] != '>' && s[run] != '"' && s[run] != '\'')
			run++;
		if (run > i) {
			strbuf_add(sb, s + i, run - i);
			i = run;
			continue;
		}
		if (c < 0x80) {
			switch (c) {
			case '&': strbuf_addstr(sb, "&amp;"); break;
			case '<': strbuf_addstr(sb, "&lt;"); break;
			case '>': strbuf_addstr(sb, "&gt;"); break;
			case '"': strbuf_addstr(sb, "&quot;"); break;
			case '\'': strbuf_addstr(sb, "&apos;"); break;
			case '\n': strbuf_addch(sb, '\n'); break;
			case '\t': strbuf_addch(sb, '\t'); break;
			case '\r': strbuf_addstr(sb, "&#13;"); break;
			default: add_octal(sb, c); break;   /* C0 controls, DEL */
			}
			i++;
			continue;
		}
		l = utf8_seq_len(s + i, len - i, &cp);
		if (!l) {
			add_octal(sb, c);
			i++;
		} else if (hostile_cp(cp)) {
			add_ucn(sb, cp);
			i += l;
		} else {
			strbuf_add(sb, s + i, l);
			i += l;
		}
	}
}
