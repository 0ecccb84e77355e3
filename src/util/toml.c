/*
 * TOML 1.0 parser (see toml.h): a recursive descent over the bytes of the
 * document that builds the tree as it goes and enforces the spec's rules on
 * redefining tables (headers, dotted keys, inline tables, arrays of tables).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE   /* strtod_l */
#endif
#include "util/toml.h"
#include "util/strbuf.h"
#include "util/xmalloc.h"

#include <locale.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/banned.h"

/* Deepest nesting of tables and arrays accepted (keeps recursion bounded). */
#define MAX_DEPTH 512

/* toml_value.defined for tables */
enum {
	T_IMPLICIT,   /* created as the parent of a [a.b] header: may be defined later */
	T_HEADER,     /* defined by a [header] or [[header]] (or the root) */
	T_DOTTED,     /* created by a dotted key: extendable by dotted keys only */
	T_INLINE,     /* an inline table: immutable */
};
/* toml_value.defined for arrays */
enum { A_STATIC, A_TABLES };

struct parser {
	const unsigned char *s;
	size_t len, pos;
	char *err;
	size_t errlen;
	int failed;
	struct toml_value *root;
	struct toml_value *cur;   /* table that key/value lines go into */
	int cur_depth;
	/* line/column cache: byte lc_pos is at lc_line:lc_col; lc_ls starts that line */
	size_t lc_pos, lc_ls, begin;
	unsigned lc_line, lc_col;
	char found[48];           /* what found() describes for a message */
	const struct toml_limits *lim;   /* NULL: none */
	size_t nvalues;           /* values made so far (new_value) */
};

struct keypart {
	char *s;
	size_t len;
	size_t pos;
};

struct keypath {
	struct keypart *p;
	size_t n, alloc;
};

/* ---- positions and errors ---- */

static void where(struct parser *P, size_t pos, unsigned *line, unsigned *col)
{
	size_t p;
	unsigned ln, c;

	if (pos > P->len)
		pos = P->len;
	if (pos < P->lc_pos) {
		if (pos >= P->lc_ls) {
			P->lc_pos = P->lc_ls;
			P->lc_col = 1;
		} else {
			P->lc_pos = P->lc_ls = P->begin;
			P->lc_line = P->lc_col = 1;
		}
	}
	p = P->lc_pos;
	ln = P->lc_line;
	c = P->lc_col;
	for (; p < pos; p++) {
		unsigned char ch = P->s[p];
		if (ch == '\n') {
			ln++;
			c = 1;
			P->lc_ls = p + 1;
		} else if ((ch & 0xC0) != 0x80) {
			c++;
		}
	}
	P->lc_pos = p;
	P->lc_line = ln;
	P->lc_col = c;
	*line = ln;
	*col = c;
}

__attribute__((format(printf, 3, 4)))
static int fail(struct parser *P, size_t pos, const char *fmt, ...)
{
	if (!P->failed && P->err && P->errlen) {
		struct strbuf sb = STRBUF_INIT;
		unsigned line, col;
		va_list ap;

		where(P, pos, &line, &col);
		strbuf_addf(&sb, "%u:%u: ", line, col);
		va_start(ap, fmt);
		strbuf_vaddf(&sb, fmt, ap);
		va_end(ap);
		snprintf(P->err, P->errlen, "%s", sb.buf);
		strbuf_release(&sb);
	}
	P->failed = 1;
	return -1;
}

static int peek(const struct parser *P, size_t off)
{
	return P->pos + off < P->len ? P->s[P->pos + off] : -1;
}

/* Length of the valid UTF-8 sequence at s (avail bytes), 0 if invalid. */
static int utf8_seq(const unsigned char *s, size_t avail)
{
	unsigned char c = s[0];

	if (c < 0x80)
		return 1;
	if (c < 0xC2 || c > 0xF4)
		return 0;
	if (c < 0xE0)
		return avail >= 2 && (s[1] & 0xC0) == 0x80 ? 2 : 0;
	if (c < 0xF0) {
		if (avail < 3 || (s[1] & 0xC0) != 0x80 || (s[2] & 0xC0) != 0x80)
			return 0;
		if ((c == 0xE0 && s[1] < 0xA0) || (c == 0xED && s[1] >= 0xA0))
			return 0;   /* overlong, surrogate */
		return 3;
	}
	if (avail < 4 || (s[1] & 0xC0) != 0x80 || (s[2] & 0xC0) != 0x80 ||
	    (s[3] & 0xC0) != 0x80)
		return 0;
	if ((c == 0xF0 && s[1] < 0x90) || (c == 0xF4 && s[1] >= 0x90))
		return 0;           /* overlong, above U+10FFFF */
	return 4;
}

/* Describes the character at pos for a message: 'x', U+000C, end of file... */
static const char *describe(struct parser *P, size_t pos, char *buf, size_t size)
{
	unsigned char c;

	if (pos >= P->len)
		return "end of file";
	c = P->s[pos];
	if (c == '\n' || (c == '\r' && pos + 1 < P->len && P->s[pos + 1] == '\n'))
		return "end of line";
	if (c >= 0x20 && c < 0x7f) {
		snprintf(buf, size, "'%c'", c);
	} else if (c < 0x80) {
		snprintf(buf, size, "control character U+%04X", c);
	} else {
		int n = utf8_seq(P->s + pos, P->len - pos);
		if (!n)
			snprintf(buf, size, "invalid UTF-8 byte 0x%02X", c);
		else
			snprintf(buf, size, "'%.*s'", n, (const char *)P->s + pos);
	}
	return buf;
}

/* describe() into the parser's buffer (one message is built at a time). */
static const char *found(struct parser *P, size_t pos)
{
	return describe(P, pos, P->found, sizeof(P->found));
}

static void skip_ws(struct parser *P)
{
	while (P->pos < P->len && (P->s[P->pos] == ' ' || P->s[P->pos] == '\t'))
		P->pos++;
}

/* Consumes "\n" or "\r\n"; returns whether there was one. */
static int eat_newline(struct parser *P)
{
	if (peek(P, 0) == '\n') {
		P->pos++;
		return 1;
	}
	if (peek(P, 0) == '\r' && peek(P, 1) == '\n') {
		P->pos += 2;
		return 1;
	}
	return 0;
}

/*
 * Consumes one character of string or comment text at P->pos (not a line
 * end), appending it to sb when sb is not NULL.  Rejects control characters
 * other than tab and invalid UTF-8.
 */
static int content_char(struct parser *P, struct strbuf *sb, const char *what)
{
	unsigned char c = P->s[P->pos];
	int n;

	if (c == '\t' || (c >= 0x20 && c < 0x7f)) {
		if (sb)
			strbuf_addch(sb, c);
		P->pos++;
		return 0;
	}
	if (c == '\r')
		return fail(P, P->pos, "carriage return not followed by a newline in %s", what);
	if (c < 0x80)
		return fail(P, P->pos, "control character U+%04X not allowed in %s%s", c, what,
			    strcmp(what, "comment") ? " (use an escape)" : "");
	n = utf8_seq(P->s + P->pos, P->len - P->pos);
	if (!n)
		return fail(P, P->pos, "invalid UTF-8 byte 0x%02X in %s", c, what);
	if (sb)
		strbuf_add(sb, P->s + P->pos, n);
	P->pos += n;
	return 0;
}

static int skip_comment(struct parser *P)
{
	P->pos++;   /* '#' */
	while (P->pos < P->len && P->s[P->pos] != '\n') {
		if (P->s[P->pos] == '\r' && peek(P, 1) == '\n')
			break;
		if (content_char(P, NULL, "comment"))
			return -1;
	}
	return 0;
}

/* Skips whitespace, newlines and comments (inside arrays). */
static int skip_ws_nl(struct parser *P)
{
	for (;;) {
		skip_ws(P);
		if (peek(P, 0) == '#') {
			if (skip_comment(P))
				return -1;
		} else if (!eat_newline(P)) {
			if (peek(P, 0) == '\r')
				return fail(P, P->pos, "carriage return not followed by a newline");
			return 0;
		}
	}
}

/* ---- tables ---- */

static uint32_t hash_key(const char *k, size_t n)
{
	uint32_t h = 2166136261u;
	for (size_t i = 0; i < n; i++) {
		h ^= (unsigned char)k[i];
		h *= 16777619u;
	}
	return h;
}

static long tab_find(const struct toml_value *t, const char *k, size_t n)
{
	const struct toml_kv *kv = t->u.tab.kv;

	if (t->u.tab.index) {
		size_t mask = t->u.tab.index_cap - 1;
		size_t h = hash_key(k, n) & mask;
		uint32_t ix;
		while ((ix = t->u.tab.index[h])) {
			const struct toml_kv *e = &kv[ix - 1];
			if (e->keylen == n && !memcmp(e->key, k, n))
				return (long)ix - 1;
			h = (h + 1) & mask;
		}
		return -1;
	}
	for (size_t i = 0; i < t->u.tab.n; i++)
		if (kv[i].keylen == n && !memcmp(kv[i].key, k, n))
			return (long)i;
	return -1;
}

static void index_insert(struct toml_value *t, size_t i)
{
	size_t mask = t->u.tab.index_cap - 1;
	size_t h = hash_key(t->u.tab.kv[i].key, t->u.tab.kv[i].keylen) & mask;

	while (t->u.tab.index[h])
		h = (h + 1) & mask;
	t->u.tab.index[h] = (uint32_t)(i + 1);
}

/* Appends key (taking ownership of it) with value v to table t. */
static void tab_add(struct toml_value *t, char *key, size_t keylen, struct toml_value *v)
{
	size_t n = t->u.tab.n;

	ALLOC_GROW(t->u.tab.kv, n + 1, t->u.tab.alloc);
	t->u.tab.kv[n].key = key;
	t->u.tab.kv[n].keylen = keylen;
	t->u.tab.kv[n].value = v;
	t->u.tab.n = ++n;
	if (n < 16)
		return;
	if (!t->u.tab.index || n * 2 > t->u.tab.index_cap) {
		size_t cap = 64;
		while (cap < n * 4)
			cap *= 2;
		free(t->u.tab.index);
		t->u.tab.index = xcalloc(cap, sizeof(*t->u.tab.index));
		t->u.tab.index_cap = cap;
		for (size_t i = 0; i < n; i++)
			index_insert(t, i);
	} else {
		index_insert(t, n - 1);
	}
}

static struct toml_value *tab_get(const struct toml_value *t, const char *k, size_t n)
{
	long i = tab_find(t, k, n);
	return i < 0 ? NULL : t->u.tab.kv[i].value;
}

static struct toml_value *new_value(struct parser *P, enum toml_type type, size_t pos)
{
	struct toml_value *v = xcalloc(1, sizeof(*v));

	P->nvalues++;
	v->type = type;
	where(P, pos, &v->line, &v->col);
	v->kline = v->line;
	v->kcol = v->col;
	return v;
}

/* The hint of the limits, as " (HINT)", or "". */
static const char *hint(const struct parser *P, struct strbuf *sb)
{
	if (P->lim && P->lim->hint)
		strbuf_addf(sb, " (%s)", P->lim->hint);
	return sb->buf;
}

/* Fails at pos when one more value would be more than the limits allow. */
static int check_values(struct parser *P, size_t pos)
{
	struct strbuf sb = STRBUF_INIT;
	int r;

	if (!P->lim || !P->lim->values || P->nvalues < P->lim->values)
		return 0;
	r = fail(P, pos, "more than %zu values in the document%s", P->lim->values,
		 hint(P, &sb));
	strbuf_release(&sb);
	return r;
}

/* Fails at pos when array a (named name, or NULL) is full. */
static int check_items(struct parser *P, const struct toml_value *a, const char *name,
		       size_t pos)
{
	struct strbuf sb = STRBUF_INIT;
	int r;

	if (!P->lim || !P->lim->array_items || a->u.arr.n < P->lim->array_items)
		return 0;
	if (name)
		r = fail(P, pos, "more than %zu entries in array '%s'%s", P->lim->array_items,
			 name, hint(P, &sb));
	else
		r = fail(P, pos, "more than %zu entries in an array%s", P->lim->array_items,
			 hint(P, &sb));
	strbuf_release(&sb);
	return r;
}

static void arr_push(struct toml_value *a, struct toml_value *v)
{
	ALLOC_GROW(a->u.arr.items, a->u.arr.n + 1, a->u.arr.alloc);
	a->u.arr.items[a->u.arr.n++] = v;
}

/* ---- keys ---- */

static int is_bare(int c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
	       (c >= '0' && c <= '9') || c == '_' || c == '-';
}

/* Appends the key path parts[0..n) as the user would write it. */
static void add_keypath(struct strbuf *sb, const struct keypart *parts, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const struct keypart *k = &parts[i];
		int bare = k->len > 0;

		if (i)
			strbuf_addch(sb, '.');
		for (size_t j = 0; j < k->len && bare; j++)
			bare = is_bare((unsigned char)k->s[j]);
		if (bare) {
			strbuf_add(sb, k->s, k->len);
			continue;
		}
		strbuf_addch(sb, '"');
		for (size_t j = 0; j < k->len; j++) {
			unsigned char c = k->s[j];
			if (c == '"' || c == '\\')
				strbuf_addf(sb, "\\%c", c);
			else if (c < 0x20 || c == 0x7f)
				strbuf_addf(sb, "\\u%04X", c);
			else
				strbuf_addch(sb, c);
		}
		strbuf_addch(sb, '"');
	}
}

static const char *keyname(struct strbuf *sb, const struct keypath *kp, size_t n)
{
	strbuf_reset(sb);
	add_keypath(sb, kp->p, n);
	return sb->buf;
}

static void keypath_release(struct keypath *kp)
{
	for (size_t i = 0; i < kp->n; i++)
		free(kp->p[i].s);
	free(kp->p);
	kp->p = NULL;
	kp->n = kp->alloc = 0;
}

/* ---- strings ---- */

static int hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

static void add_utf8(struct strbuf *sb, uint32_t cp)
{
	if (cp < 0x80) {
		strbuf_addch(sb, cp);
	} else if (cp < 0x800) {
		strbuf_addch(sb, 0xC0 | (cp >> 6));
		strbuf_addch(sb, 0x80 | (cp & 0x3F));
	} else if (cp < 0x10000) {
		strbuf_addch(sb, 0xE0 | (cp >> 12));
		strbuf_addch(sb, 0x80 | ((cp >> 6) & 0x3F));
		strbuf_addch(sb, 0x80 | (cp & 0x3F));
	} else {
		strbuf_addch(sb, 0xF0 | (cp >> 18));
		strbuf_addch(sb, 0x80 | ((cp >> 12) & 0x3F));
		strbuf_addch(sb, 0x80 | ((cp >> 6) & 0x3F));
		strbuf_addch(sb, 0x80 | (cp & 0x3F));
	}
}

/* Parses the escape sequence at P->pos (a backslash) of a basic string. */
static int parse_escape(struct parser *P, struct strbuf *sb, int ml)
{
	size_t at = P->pos;
	int c = peek(P, 1);
	int ndig;
	uint32_t cp = 0;

	switch (c) {
	case 'b': strbuf_addch(sb, '\b'); break;
	case 't': strbuf_addch(sb, '\t'); break;
	case 'n': strbuf_addch(sb, '\n'); break;
	case 'f': strbuf_addch(sb, '\f'); break;
	case 'r': strbuf_addch(sb, '\r'); break;
	case '"': strbuf_addch(sb, '"'); break;
	case '\\': strbuf_addch(sb, '\\'); break;
	case 'u':
	case 'U':
		ndig = c == 'u' ? 4 : 8;
		for (int i = 0; i < ndig; i++) {
			int h = hexval(peek(P, 2 + i));
			if (h < 0)
				return fail(P, at, "invalid escape '\\%c': expected %d hexadecimal digits",
					    c, ndig);
			cp = cp << 4 | (uint32_t)h;
		}
		if (cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
			return fail(P, at, "invalid escape '\\%c%0*X': not a Unicode scalar value",
				    c, ndig, cp);
		add_utf8(sb, cp);
		P->pos += 2 + ndig;
		return 0;
	default:
		if (ml && (c == ' ' || c == '\t' || c == '\n' || c == '\r')) {
			size_t p = P->pos + 1;
			while (p < P->len && (P->s[p] == ' ' || P->s[p] == '\t'))
				p++;
			if (!(p < P->len && (P->s[p] == '\n' ||
			      (P->s[p] == '\r' && p + 1 < P->len && P->s[p + 1] == '\n'))))
				return fail(P, at, "a line-ending backslash must be followed only by whitespace up to the end of the line");
			while (p < P->len) {
				if (P->s[p] == ' ' || P->s[p] == '\t' || P->s[p] == '\n')
					p++;
				else if (P->s[p] == '\r' && p + 1 < P->len && P->s[p + 1] == '\n')
					p += 2;
				else
					break;
			}
			P->pos = p;
			return 0;
		}
		if (c < 0)
			return fail(P, at, "unterminated string");
		return fail(P, at, "invalid escape sequence: backslash followed by %s",
			    found(P, at + 1));
	}
	P->pos += 2;
	return 0;
}

/*
 * Parses a string of any of the four kinds at P->pos into sb (appending).
 * allow_ml is false for keys, which cannot be multi-line strings.
 */
static int parse_string(struct parser *P, struct strbuf *sb, int allow_ml)
{
	size_t start = P->pos;
	int q = P->s[P->pos];
	int basic = q == '"';
	int ml = peek(P, 1) == q && peek(P, 2) == q;

	if (ml && !allow_ml)
		return fail(P, start, "a key cannot be a multi-line string");
	P->pos += ml ? 3 : 1;
	if (ml)
		eat_newline(P);
	for (;;) {
		int c = peek(P, 0);

		if (c < 0)
			return fail(P, start, "unterminated string");
		if (c == q) {
			size_t n = 0;
			if (!ml) {
				P->pos++;
				return 0;
			}
			while (peek(P, n) == q)
				n++;
			if (n < 3) {
				strbuf_addchars(sb, q, n);
				P->pos += n;
				continue;
			}
			if (n > 5)
				return fail(P, P->pos + 5, "too many quotes at the end of a multi-line string");
			strbuf_addchars(sb, q, n - 3);
			P->pos += n;
			return 0;
		}
		if (c == '\\' && basic) {
			if (parse_escape(P, sb, ml))
				return -1;
			continue;
		}
		if (c == '\n' || (c == '\r' && peek(P, 1) == '\n')) {
			if (!ml)
				return fail(P, start, "unterminated string (a single-line string cannot span lines)");
			strbuf_addch(sb, '\n');
			P->pos += c == '\r' ? 2 : 1;
			continue;
		}
		if (content_char(P, sb, "string"))
			return -1;
	}
}

/* Parses one simple key (bare or quoted) into *k. */
static int parse_simple_key(struct parser *P, struct keypart *k)
{
	int c = peek(P, 0);

	k->pos = P->pos;
	if (c == '"' || c == '\'') {
		struct strbuf sb = STRBUF_INIT;
		if (parse_string(P, &sb, 0)) {
			strbuf_release(&sb);
			return -1;
		}
		k->s = strbuf_detach(&sb, &k->len);
		return 0;
	}
	if (c < 0 || !is_bare(c))
		return fail(P, P->pos, "expected a key, found %s", found(P, P->pos));
	while (P->pos < P->len && is_bare(P->s[P->pos]))
		P->pos++;
	k->len = P->pos - k->pos;
	k->s = xstrndup((const char *)P->s + k->pos, k->len);
	return 0;
}

/* Parses a (possibly dotted) key at P->pos; leaves P->pos after it. */
static int parse_key(struct parser *P, struct keypath *kp)
{
	for (;;) {
		ALLOC_GROW(kp->p, kp->n + 1, kp->alloc);
		if (parse_simple_key(P, &kp->p[kp->n]))
			return -1;
		kp->n++;
		if (kp->n > MAX_DEPTH)
			return fail(P, kp->p[kp->n - 1].pos, "key has too many parts (limit %d)",
				    MAX_DEPTH);
		skip_ws(P);
		if (peek(P, 0) != '.')
			return 0;
		P->pos++;
		skip_ws(P);
	}
}

/* ---- numbers and dates ---- */

static int is_digit(int c)
{
	return c >= '0' && c <= '9';
}

static int is_numchar(int c)
{
	return is_bare(c) || c == '+' || c == '.';
}

static int digit_ok(int c, int base)
{
	return base == 16 ? hexval(c) >= 0 : c >= '0' && c < '0' + base;
}

/*
 * Index after digit ('_'? digit)* starting at t[i] in base; -1 if t[i] is
 * no digit.  *bad_us is set (and the underscore's index returned) when an
 * underscore is not followed by a digit.
 */
static long digits_us(const unsigned char *t, size_t i, size_t n, int base, int *bad_us)
{
	*bad_us = 0;
	if (i >= n || !digit_ok(t[i], base))
		return -1;
	i++;
	while (i < n) {
		if (digit_ok(t[i], base)) {
			i++;
		} else if (t[i] == '_') {
			if (i + 1 >= n || !digit_ok(t[i + 1], base)) {
				*bad_us = 1;
				return (long)i;
			}
			i++;
		} else {
			break;
		}
	}
	return (long)i;
}

static double c_strtod(const char *s)
{
	static locale_t c_locale;

	if (!c_locale)
		c_locale = newlocale(LC_NUMERIC_MASK, "C", (locale_t)0);
	if (c_locale)
		return strtod_l(s, NULL, c_locale);
	return strtod(s, NULL);
}

static int parse_number(struct parser *P, struct toml_value **out)
{
	size_t start = P->pos, end = P->pos;
	const unsigned char *t;
	size_t n, i = 0;
	int neg = 0, has_sign = 0, is_float = 0, bad_us = 0;
	long j;
	struct toml_value *v;

	while (end < P->len && is_numchar(P->s[end]))
		end++;
	t = P->s + start;
	n = end - start;
#define BADNUM(msg) fail(P, start, "invalid %s '%.*s'%s", is_float ? "float" : "number", \
			 (int)(n > 40 ? 40 : n), (const char *)t, msg)
	if (n && (t[0] == '+' || t[0] == '-')) {
		has_sign = 1;
		neg = t[0] == '-';
		i = 1;
	}
	if (n - i == 3 && (!memcmp(t + i, "inf", 3) || !memcmp(t + i, "nan", 3))) {
		v = new_value(P, TOML_FLOAT, start);
		if (t[i] == 'i')
			v->u.f = neg ? -__builtin_inf() : __builtin_inf();
		else
			v->u.f = neg ? -__builtin_nan("") : __builtin_nan("");
		P->pos = end;
		*out = v;
		return 0;
	}
	if (n - i >= 2 && t[i] == '0' && (t[i + 1] == 'x' || t[i + 1] == 'o' || t[i + 1] == 'b')) {
		int base = t[i + 1] == 'x' ? 16 : t[i + 1] == 'o' ? 8 : 2;
		const char *bname = base == 16 ? "hexadecimal" : base == 8 ? "octal" : "binary";
		uint64_t u = 0;

		if (has_sign)
			return fail(P, start, "%s integers cannot have a sign", bname);
		j = digits_us(t, i + 2, n, base, &bad_us);
		if (j < 0 || bad_us || (size_t)j != n)
			return fail(P, start, "invalid %s integer '%.*s'%s", bname,
				    (int)(n > 40 ? 40 : n), (const char *)t,
				    bad_us ? " (an underscore must be between two digits)" : "");
		for (size_t k = i + 2; k < n; k++) {
			if (t[k] == '_')
				continue;
			if (u > (uint64_t)INT64_MAX / base ||
			    u * base + hexval(t[k]) > (uint64_t)INT64_MAX)
				return fail(P, start, "integer '%.*s' does not fit in 64 bits",
					    (int)(n > 40 ? 40 : n), (const char *)t);
			u = u * base + hexval(t[k]);
		}
		v = new_value(P, TOML_INTEGER, start);
		v->u.i = (int64_t)u;
		P->pos = end;
		*out = v;
		return 0;
	}
	if (i >= n || !is_digit(t[i]))
		return BADNUM("");
	if (t[i] == '0' && i + 1 < n && (is_digit(t[i + 1]) || t[i + 1] == '_'))
		return BADNUM(" (leading zeros are not allowed)");
	j = digits_us(t, i, n, 10, &bad_us);
	if (bad_us)
		return BADNUM(" (an underscore must be between two digits)");
	if ((size_t)j < n && t[j] == '.') {
		is_float = 1;
		j = digits_us(t, j + 1, n, 10, &bad_us);
		if (j < 0)
			return BADNUM(" (a decimal point must be followed by a digit)");
		if (bad_us)
			return BADNUM(" (an underscore must be between two digits)");
	}
	if (j >= 0 && (size_t)j < n && (t[j] == 'e' || t[j] == 'E')) {
		is_float = 1;
		j++;
		if ((size_t)j < n && (t[j] == '+' || t[j] == '-'))
			j++;
		j = digits_us(t, j, n, 10, &bad_us);
		if (j < 0)
			return BADNUM(" (an exponent needs digits)");
		if (bad_us)
			return BADNUM(" (an underscore must be between two digits)");
	}
	if (j < 0 || (size_t)j != n)
		return BADNUM("");
	if (is_float) {
		struct strbuf sb = STRBUF_INIT;
		for (size_t k = 0; k < n; k++)
			if (t[k] != '_')
				strbuf_addch(&sb, t[k]);
		v = new_value(P, TOML_FLOAT, start);
		v->u.f = c_strtod(sb.buf);
		strbuf_release(&sb);
	} else {
		uint64_t u = 0, lim = neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
		for (size_t k = i; k < n; k++) {
			if (t[k] == '_')
				continue;
			if (u > lim / 10 || u * 10 + (t[k] - '0') > lim)
				return fail(P, start, "integer '%.*s' does not fit in 64 bits",
					    (int)(n > 40 ? 40 : n), (const char *)t);
			u = u * 10 + (t[k] - '0');
		}
		v = new_value(P, TOML_INTEGER, start);
		v->u.i = neg ? (int64_t)(0 - u) : (int64_t)u;
	}
#undef BADNUM
	P->pos = end;
	*out = v;
	return 0;
}

/* Reads n digits at p into *out; returns 0, or -1 if they are not all digits. */
static int ndigits(const struct parser *P, size_t p, int n, int *out)
{
	int v = 0;

	if (p + n > P->len)
		return -1;
	for (int i = 0; i < n; i++) {
		if (!is_digit(P->s[p + i]))
			return -1;
		v = v * 10 + (P->s[p + i] - '0');
	}
	*out = v;
	return 0;
}

static int days_in_month(int y, int m)
{
	static const int d[] = { 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };
	if (m == 2 && y % 4 == 0 && (y % 100 != 0 || y % 400 == 0))
		return 29;
	return d[m - 1];
}

/* Parses HH:MM:SS[.frac] at *pp into dt. */
static int parse_time(struct parser *P, size_t *pp, struct toml_datetime *dt)
{
	size_t p = *pp;

	if (ndigits(P, p, 2, &dt->hour) || p + 2 >= P->len || P->s[p + 2] != ':' ||
	    ndigits(P, p + 3, 2, &dt->minute) || p + 5 >= P->len || P->s[p + 5] != ':' ||
	    ndigits(P, p + 6, 2, &dt->second))
		return fail(P, p, "invalid time (expected HH:MM:SS)");
	if (dt->hour > 23)
		return fail(P, p, "hour out of range (00-23)");
	if (dt->minute > 59)
		return fail(P, p + 3, "minute out of range (00-59)");
	if (dt->second > 59)
		return fail(P, p + 6, "second out of range (00-59)");
	p += 8;
	if (p < P->len && P->s[p] == '.') {
		int nd = 0;
		uint32_t ns = 0;
		p++;
		if (p >= P->len || !is_digit(P->s[p]))
			return fail(P, p - 1, "invalid time: a decimal point must be followed by digits");
		for (; p < P->len && is_digit(P->s[p]); p++, nd++)
			if (nd < 9)
				ns = ns * 10 + (P->s[p] - '0');
		for (; nd < 9; nd++)
			ns *= 10;
		dt->nanosecond = ns;
	}
	*pp = p;
	return 0;
}

static int parse_datetime(struct parser *P, struct toml_value **out)
{
	size_t start = P->pos, p = start;
	struct toml_datetime dt = { 0 };
	enum toml_type type;
	struct toml_value *v;

	if (p + 4 < P->len && P->s[p + 4] == '-') {
		if (ndigits(P, p, 4, &dt.year) || ndigits(P, p + 5, 2, &dt.month) ||
		    p + 7 >= P->len || P->s[p + 7] != '-' || ndigits(P, p + 8, 2, &dt.day))
			return fail(P, start, "invalid date (expected YYYY-MM-DD)");
		if (dt.month < 1 || dt.month > 12)
			return fail(P, p + 5, "month out of range (01-12)");
		if (dt.day < 1 || dt.day > days_in_month(dt.year, dt.month))
			return fail(P, p + 8, "day out of range for %04d-%02d", dt.year, dt.month);
		p += 10;
		type = TOML_DATE_LOCAL;
		if (p < P->len && (P->s[p] == 'T' || P->s[p] == 't')) {
			p++;
			if (parse_time(P, &p, &dt))
				return -1;
			type = TOML_DATETIME_LOCAL;
		} else if (p + 3 < P->len && P->s[p] == ' ' && is_digit(P->s[p + 1]) &&
			   is_digit(P->s[p + 2]) && P->s[p + 3] == ':') {
			p++;
			if (parse_time(P, &p, &dt))
				return -1;
			type = TOML_DATETIME_LOCAL;
		}
		if (type == TOML_DATETIME_LOCAL && p < P->len) {
			int c = P->s[p];
			if (c == 'Z' || c == 'z') {
				p++;
				type = TOML_DATETIME;
			} else if (c == '+' || c == '-') {
				int oh, om;
				if (ndigits(P, p + 1, 2, &oh) || p + 3 >= P->len || P->s[p + 3] != ':' ||
				    ndigits(P, p + 4, 2, &om))
					return fail(P, p, "invalid time offset (expected Z or +HH:MM)");
				if (oh > 23 || om > 59)
					return fail(P, p, "time offset out of range");
				dt.offset_minutes = (c == '-' ? -1 : 1) * (oh * 60 + om);
				p += 6;
				type = TOML_DATETIME;
			}
		}
	} else {
		if (parse_time(P, &p, &dt))
			return -1;
		type = TOML_TIME_LOCAL;
		if (p < P->len && (P->s[p] == 'Z' || P->s[p] == 'z' || P->s[p] == '+' ||
				   P->s[p] == '-'))
			return fail(P, p, "a local time cannot have a time offset");
	}
	v = new_value(P, type, start);
	v->dt = dt;
	v->u.str.len = p - start;
	v->u.str.s = xstrndup((const char *)P->s + start, p - start);
	P->pos = p;
	*out = v;
	return 0;
}

/* ---- values ---- */

static int parse_keyval(struct parser *P, struct toml_value *table, int depth);
static const char *article(enum toml_type t);
static int parse_value(struct parser *P, int depth, struct toml_value **out);

static int parse_array(struct parser *P, int depth, struct toml_value **out)
{
	size_t start = P->pos;
	struct toml_value *a = new_value(P, TOML_ARRAY, start);

	a->defined = A_STATIC;
	P->pos++;
	for (;;) {
		struct toml_value *item;
		int c;

		if (skip_ws_nl(P))
			goto err;
		if (peek(P, 0) == ']') {
			P->pos++;
			break;
		}
		if (peek(P, 0) < 0) {
			fail(P, start, "unterminated array (missing ']')");
			goto err;
		}
		if (check_items(P, a, NULL, P->pos) || parse_value(P, depth + 1, &item))
			goto err;
		arr_push(a, item);
		if (skip_ws_nl(P))
			goto err;
		c = peek(P, 0);
		if (c == ',') {
			P->pos++;
		} else if (c == ']') {
			P->pos++;
			break;
		} else if (c < 0) {
			fail(P, start, "unterminated array (missing ']')");
			goto err;
		} else {
			fail(P, P->pos, "expected ',' or ']' in array, found %s", found(P, P->pos));
			goto err;
		}
	}
	*out = a;
	return 0;
err:
	toml_free(a);
	return -1;
}

static int parse_inline_table(struct parser *P, int depth, struct toml_value **out)
{
	size_t start = P->pos;
	struct toml_value *t = new_value(P, TOML_TABLE, start);

	t->defined = T_DOTTED;
	P->pos++;
	skip_ws(P);
	if (peek(P, 0) == '}') {
		P->pos++;
		goto done;
	}
	for (;;) {
		int c;

		skip_ws(P);
		c = peek(P, 0);
		if (c == '\n' || c == '\r' || c < 0 || c == '#') {
			fail(P, P->pos, "inline table must be closed on the same line (missing '}')");
			goto err;
		}
		if (c == '}') {
			fail(P, P->pos, "trailing comma not allowed in an inline table");
			goto err;
		}
		if (parse_keyval(P, t, depth + 1))
			goto err;
		skip_ws(P);
		c = peek(P, 0);
		if (c == ',') {
			P->pos++;
		} else if (c == '}') {
			P->pos++;
			break;
		} else if (c == '\n' || c == '\r' || c < 0 || c == '#') {
			fail(P, P->pos, "inline table must be closed on the same line (missing '}')");
			goto err;
		} else {
			fail(P, P->pos, "expected ',' or '}' in inline table, found %s",
			     found(P, P->pos));
			goto err;
		}
	}
done:
	t->defined = T_INLINE;
	*out = t;
	return 0;
err:
	toml_free(t);
	return -1;
}

static int parse_value(struct parser *P, int depth, struct toml_value **out)
{
	size_t start = P->pos;
	int c = peek(P, 0);

	*out = NULL;
	if (depth > MAX_DEPTH)
		return fail(P, start, "values nested too deeply (limit %d)", MAX_DEPTH);
	if (check_values(P, start))
		return -1;
	if (c == '"' || c == '\'') {
		struct strbuf sb = STRBUF_INIT;
		struct toml_value *v;
		if (parse_string(P, &sb, 1)) {
			strbuf_release(&sb);
			return -1;
		}
		v = new_value(P, TOML_STRING, start);
		v->u.str.s = strbuf_detach(&sb, &v->u.str.len);
		*out = v;
		return 0;
	}
	if (c == '[')
		return parse_array(P, depth, out);
	if (c == '{')
		return parse_inline_table(P, depth, out);
	if (c >= 0 && is_digit(c)) {
		if ((P->pos + 4 < P->len && P->s[P->pos + 4] == '-' && is_digit(peek(P, 1)) &&
		     is_digit(peek(P, 2)) && is_digit(peek(P, 3))) ||
		    (peek(P, 2) == ':' && is_digit(peek(P, 1))))
			return parse_datetime(P, out);
		return parse_number(P, out);
	}
	if (c == '+' || c == '-' || c == 'i' || c == 'n')
		return parse_number(P, out);
	if (c == 't' || c == 'f') {
		size_t end = P->pos;
		while (end < P->len && is_numchar(P->s[end]))
			end++;
		if ((end - start == 4 && !memcmp(P->s + start, "true", 4)) ||
		    (end - start == 5 && !memcmp(P->s + start, "false", 5))) {
			struct toml_value *v = new_value(P, TOML_BOOL, start);
			v->u.b = c == 't';
			P->pos = end;
			*out = v;
			return 0;
		}
	}
	if (c >= 0 && is_bare(c)) {
		size_t end = P->pos;
		while (end < P->len && is_numchar(P->s[end]))
			end++;
		return fail(P, start, "invalid value '%.*s' (strings must be quoted)",
			    (int)(end - start > 40 ? 40 : end - start), (const char *)P->s + start);
	}
	if (c < 0 || c == '\n' || c == '\r' || c == '#')
		return fail(P, start, "missing value");
	return fail(P, start, "expected a value, found %s", found(P, start));
}

/* Parses "key = value" at P->pos into table (with dotted-key rules). */
static int parse_keyval(struct parser *P, struct toml_value *table, int depth)
{
	struct keypath kp = { 0 };
	struct strbuf name = STRBUF_INIT;
	struct toml_value *t = table, *v;
	struct keypart *last;
	unsigned kline, kcol;
	int ret = -1;

	if (parse_key(P, &kp))
		goto out;
	skip_ws(P);
	if (peek(P, 0) != '=') {
		int c = peek(P, 0);
		if (c < 0 || c == '\n' || c == '\r')
			fail(P, P->pos, "key '%s' has no value (expected '=')", keyname(&name, &kp, kp.n));
		else
			fail(P, P->pos, "expected '=' after key '%s', found %s",
			     keyname(&name, &kp, kp.n), found(P, P->pos));
		goto out;
	}
	P->pos++;
	skip_ws(P);
	if (depth + (int)kp.n > MAX_DEPTH) {
		fail(P, kp.p[0].pos, "key nested too deeply (limit %d)", MAX_DEPTH);
		goto out;
	}
	for (size_t i = 0; i + 1 < kp.n; i++) {
		struct keypart *k = &kp.p[i];
		struct toml_value *e = tab_get(t, k->s, k->len);

		if (!e) {
			e = new_value(P, TOML_TABLE, k->pos);
			e->defined = T_DOTTED;
			tab_add(t, k->s, k->len, e);
			k->s = NULL;
			t = e;
			continue;
		}
		if (e->type == TOML_TABLE) {
			if (e->defined == T_IMPLICIT)
				e->defined = T_DOTTED;
			if (e->defined == T_DOTTED) {
				t = e;
				continue;
			}
			if (e->defined == T_HEADER) {
				fail(P, k->pos, "cannot add to table '%s' with dotted keys: it is defined by a table header at %u:%u",
				     keyname(&name, &kp, i + 1), e->line, e->col);
				goto out;
			}
			fail(P, k->pos, "cannot add to inline table '%s' defined at %u:%u",
			     keyname(&name, &kp, i + 1), e->line, e->col);
			goto out;
		}
		fail(P, k->pos, "cannot use key '%s' as a table: it is %s %s defined at %u:%u",
		     keyname(&name, &kp, i + 1), article(e->type),
		     toml_type_name(e->type), e->kline, e->kcol);
		goto out;
	}
	last = &kp.p[kp.n - 1];
	if ((v = tab_get(t, last->s, last->len))) {
		fail(P, last->pos, "duplicate key '%s' (first defined at %u:%u)",
		     keyname(&name, &kp, kp.n), v->kline, v->kcol);
		goto out;
	}
	where(P, last->pos, &kline, &kcol);   /* before the value: keeps where() forward */
	if (parse_value(P, depth + (int)kp.n, &v))
		goto out;
	v->kline = kline;
	v->kcol = kcol;
	tab_add(t, last->s, last->len, v);
	last->s = NULL;
	ret = 0;
out:
	keypath_release(&kp);
	strbuf_release(&name);
	return ret;
}

/* Parses a [table] or [[array of tables]] header at P->pos. */
static int parse_header(struct parser *P)
{
	size_t start = P->pos;
	int aot = peek(P, 1) == '[';
	struct keypath kp = { 0 };
	struct strbuf name = STRBUF_INIT;
	struct toml_value *t = P->root, *e;
	struct keypart *last;
	int ret = -1;

	P->pos += aot ? 2 : 1;
	skip_ws(P);
	if (parse_key(P, &kp))
		goto out;
	skip_ws(P);
	if (peek(P, 0) != ']' || (aot && peek(P, 1) != ']')) {
		size_t at = peek(P, 0) == ']' ? P->pos + 1 : P->pos;
		fail(P, at, "expected '%s' to close the %s header, found %s", aot ? "]]" : "]",
		     aot ? "array of tables" : "table", found(P, at));
		goto out;
	}
	P->pos += aot ? 2 : 1;
	if (check_values(P, start))
		goto out;
	if (2 * (int)kp.n > MAX_DEPTH) {
		fail(P, start, "table header nested too deeply (limit %d)", MAX_DEPTH / 2);
		goto out;
	}
	for (size_t i = 0; i + 1 < kp.n; i++) {
		struct keypart *k = &kp.p[i];

		e = tab_get(t, k->s, k->len);
		if (!e) {
			e = new_value(P, TOML_TABLE, k->pos);
			e->defined = T_IMPLICIT;
			tab_add(t, k->s, k->len, e);
			k->s = NULL;
		} else if (e->type == TOML_TABLE && e->defined == T_INLINE) {
			fail(P, k->pos, "cannot add to inline table '%s' defined at %u:%u",
			     keyname(&name, &kp, i + 1), e->line, e->col);
			goto out;
		} else if (e->type == TOML_ARRAY && e->defined == A_TABLES) {
			e = e->u.arr.items[e->u.arr.n - 1];
		} else if (e->type != TOML_TABLE) {
			fail(P, k->pos, "cannot use key '%s' as a table: it is %s %s defined at %u:%u",
			     keyname(&name, &kp, i + 1),
			     article(e->type),
			     toml_type_name(e->type), e->kline, e->kcol);
			goto out;
		}
		t = e;
	}
	last = &kp.p[kp.n - 1];
	e = tab_get(t, last->s, last->len);
	if (aot) {
		struct toml_value *elem;

		if (!e) {
			e = new_value(P, TOML_ARRAY, start);
			e->defined = A_TABLES;
			where(P, last->pos, &e->kline, &e->kcol);
			tab_add(t, last->s, last->len, e);
			last->s = NULL;
		} else if (e->type != TOML_ARRAY || e->defined != A_TABLES) {
			if (e->type == TOML_ARRAY)
				fail(P, last->pos, "cannot append to static array '%s' defined at %u:%u",
				     keyname(&name, &kp, kp.n), e->kline, e->kcol);
			else
				fail(P, last->pos, "cannot define array of tables '%s': it is already %s %s defined at %u:%u",
				     keyname(&name, &kp, kp.n),
				     article(e->type),
				     toml_type_name(e->type), e->line, e->col);
			goto out;
		}
		/* (the name only when it is needed: a new array took the key) */
		if (P->lim && P->lim->array_items && e->u.arr.n >= P->lim->array_items) {
			check_items(P, e, keyname(&name, &kp, kp.n), start);
			goto out;
		}
		elem = new_value(P, TOML_TABLE, start);
		elem->defined = T_HEADER;
		where(P, last->pos, &elem->kline, &elem->kcol);
		arr_push(e, elem);
		t = elem;
	} else {
		if (!e) {
			e = new_value(P, TOML_TABLE, start);
			where(P, last->pos, &e->kline, &e->kcol);
			tab_add(t, last->s, last->len, e);
			last->s = NULL;
		} else if (e->type == TOML_TABLE && e->defined == T_IMPLICIT) {
			where(P, start, &e->line, &e->col);
			where(P, last->pos, &e->kline, &e->kcol);
		} else if (e->type == TOML_TABLE) {
			fail(P, last->pos, "table '%s' is already defined at %u:%u%s",
			     keyname(&name, &kp, kp.n), e->line, e->col,
			     e->defined == T_DOTTED ? " (by dotted keys)" :
			     e->defined == T_INLINE ? " (as an inline table)" : "");
			goto out;
		} else {
			fail(P, last->pos, "cannot define table '%s': it is already %s %s defined at %u:%u",
			     keyname(&name, &kp, kp.n),
			     article(e->type),
			     toml_type_name(e->type), e->kline, e->kcol);
			goto out;
		}
		e->defined = T_HEADER;
		t = e;
	}
	P->cur = t;
	P->cur_depth = 2 * (int)kp.n;
	ret = 0;
out:
	keypath_release(&kp);
	strbuf_release(&name);
	return ret;
}

struct toml_value *toml_parse(const char *text, size_t len, char *err, size_t errlen)
{
	return toml_parse_limited(text, len, NULL, err, errlen);
}

struct toml_value *toml_parse_limited(const char *text, size_t len,
				      const struct toml_limits *lim, char *err, size_t errlen)
{
	struct parser P = { 0 };

	P.lim = lim;
	P.s = (const unsigned char *)text;
	P.len = len;
	P.err = err;
	P.errlen = errlen;
	if (err && errlen)
		err[0] = '\0';
	if (len >= 3 && !memcmp(text, "\xEF\xBB\xBF", 3))
		P.pos = 3;
	P.begin = P.lc_pos = P.lc_ls = P.pos;
	P.lc_line = P.lc_col = 1;
	P.root = new_value(&P, TOML_TABLE, P.pos);
	P.root->defined = T_HEADER;
	P.cur = P.root;
	while (P.pos < P.len) {
		const char *what = NULL;
		int c;

		skip_ws(&P);
		c = peek(&P, 0);
		if (c == '[') {
			if (parse_header(&P))
				goto err;
			what = "the table header";
		} else if (c >= 0 && c != '#' && c != '\n' && c != '\r') {
			if (parse_keyval(&P, P.cur, P.cur_depth))
				goto err;
			what = "the value";
		}
		skip_ws(&P);
		if (peek(&P, 0) == '#' && skip_comment(&P))
			goto err;
		if (P.pos >= P.len)
			break;
		if (!eat_newline(&P)) {
			if (peek(&P, 0) == '\r')
				fail(&P, P.pos, "carriage return not followed by a newline");
			else
				fail(&P, P.pos, "expected end of line after %s, found %s",
				     what ? what : "whitespace", found(&P, P.pos));
			goto err;
		}
	}
	return P.root;
err:
	toml_free(P.root);
	return NULL;
}

void toml_free(struct toml_value *v)
{
	if (!v)
		return;
	switch (v->type) {
	case TOML_ARRAY:
		for (size_t i = 0; i < v->u.arr.n; i++)
			toml_free(v->u.arr.items[i]);
		free(v->u.arr.items);
		break;
	case TOML_TABLE:
		for (size_t i = 0; i < v->u.tab.n; i++) {
			free(v->u.tab.kv[i].key);
			toml_free(v->u.tab.kv[i].value);
		}
		free(v->u.tab.kv);
		free(v->u.tab.index);
		break;
	case TOML_STRING:
	case TOML_DATETIME:
	case TOML_DATETIME_LOCAL:
	case TOML_DATE_LOCAL:
	case TOML_TIME_LOCAL:
		free(v->u.str.s);
		break;
	default:
		break;
	}
	free(v);
}

struct toml_value *toml_get(const struct toml_value *table, const char *key)
{
	if (!table || table->type != TOML_TABLE)
		return NULL;
	return tab_get(table, key, strlen(key));
}

/* "a" or "an" before a type name. */
static const char *article(enum toml_type t)
{
	return strchr("aeiou", toml_type_name(t)[0]) ? "an" : "a";
}

const char *toml_type_name(enum toml_type t)
{
	switch (t) {
	case TOML_STRING: return "string";
	case TOML_INTEGER: return "integer";
	case TOML_FLOAT: return "float";
	case TOML_BOOL: return "boolean";
	case TOML_DATETIME: return "offset date-time";
	case TOML_DATETIME_LOCAL: return "local date-time";
	case TOML_DATE_LOCAL: return "local date";
	case TOML_TIME_LOCAL: return "local time";
	case TOML_ARRAY: return "array";
	case TOML_TABLE: return "table";
	}
	return "value";
}

int toml_datetime_format(const struct toml_value *v, char *buf, size_t size)
{
	const struct toml_datetime *d;
	struct strbuf sb = STRBUF_INIT;
	int n;

	if (!toml_is_datetime(v))
		return -1;
	d = &v->dt;
	if (v->type != TOML_TIME_LOCAL)
		strbuf_addf(&sb, "%04d-%02d-%02d", d->year, d->month, d->day);
	if (v->type != TOML_DATE_LOCAL) {
		if (v->type != TOML_TIME_LOCAL)
			strbuf_addch(&sb, 'T');
		strbuf_addf(&sb, "%02d:%02d:%02d", d->hour, d->minute, d->second);
		if (d->nanosecond) {
			char frac[16];
			int len = snprintf(frac, sizeof(frac), "%09u", (unsigned)d->nanosecond);
			while (len > 0 && frac[len - 1] == '0')
				len--;
			strbuf_addf(&sb, ".%.*s", len, frac);
		}
	}
	if (v->type == TOML_DATETIME) {
		int off = d->offset_minutes;
		if (!off)
			strbuf_addch(&sb, 'Z');
		else
			strbuf_addf(&sb, "%c%02d:%02d", off < 0 ? '-' : '+',
				    abs(off) / 60, abs(off) % 60);
	}
	n = (int)sb.len;
	if (size)
		snprintf(buf, size, "%s", sb.buf);
	strbuf_release(&sb);
	return n;
}
