/*
 * strace's text of a value back into a typed value (see compat.h), for
 * traces written before arguments were saved typed.
 */
#include "replay/compat.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "sys/sysent.h"
#include "util/strbuf.h"
#include "util/banned.h"

#define MAX_DEPTH 32

struct cur {
	const char *p, *e;
	struct arena *a;
};

static bool at(const struct cur *c, const char *s)
{
	size_t n = strlen(s);
	return (size_t)(c->e - c->p) >= n && !memcmp(c->p, s, n);
}

static bool is_ident(int ch)
{
	return isalnum(ch) || ch == '_';
}

/* The end of a value that is not a string, structure or array: the first
 * ',', '}' or ']' outside parentheses and quotes. */
static const char *scan_plain(const char *p, const char *e)
{
	const char *start = p;
	int depth = 0;
	while (p < e) {
		char ch = *p;
		if (ch == '"') {
			for (p++; p < e && *p != '"'; p++)
				if (*p == '\\' && p + 1 < e)
					p++;
			if (p < e)
				p++;
			continue;
		}
		if (ch == '(' || ch == '<')
			depth++;
		else if ((ch == ')' || ch == '>') && depth > 0)
			depth--;
		else if (!depth && (ch == ',' || ch == '}' || ch == ']'))
			break;
		else if (!depth && ch == '/' && p + 1 < e && p[1] == '*')
			break;
		p++;
	}
	while (p > start && p[-1] == ' ')
		p--;
	return p;
}

/* Unescapes a strace string body [p, e) (no quotes) into a. */
static const char *unescape(struct arena *a, const char *p, const char *e, uint32_t *len)
{
	char *out = arena_alloc(a, (size_t)(e - p) + 1), *o = out;

	while (p < e) {
		if (*p != '\\' || p + 1 >= e) {
			*o++ = *p++;
			continue;
		}
		p++;
		switch (*p) {
		case 'n': *o++ = '\n'; p++; break;
		case 't': *o++ = '\t'; p++; break;
		case 'r': *o++ = '\r'; p++; break;
		case 'v': *o++ = '\v'; p++; break;
		case 'f': *o++ = '\f'; p++; break;
		case 'x': {
			unsigned x = 0;
			int n = 0;
			p++;
			while (n < 2 && p < e && isxdigit((unsigned char)*p)) {
				x = x * 16 + (unsigned)(isdigit((unsigned char)*p) ? *p - '0'
							: (tolower((unsigned char)*p) - 'a' + 10));
				p++, n++;
			}
			*o++ = (char)x;
			break;
		}
		default:
			if (*p >= '0' && *p <= '7') {
				unsigned x = 0;
				int n = 0;
				while (n < 3 && p < e && *p >= '0' && *p <= '7') {
					x = x * 8 + (unsigned)(*p - '0');
					p++, n++;
				}
				*o++ = (char)x;
			} else {
				*o++ = *p++;
			}
		}
	}
	*o = '\0';
	*len = (uint32_t)(o - out);
	return out;
}

/* A quoted string at c->p; false when there is none. */
static bool parse_string(struct cur *c, struct val *v)
{
	const char *s = c->p + 1, *q = s;

	while (q < c->e && *q != '"') {
		if (*q == '\\' && q + 1 < c->e)
			q++;
		q++;
	}
	if (q >= c->e)
		return false;
	v->kind = V_STR;
	v->s.p = unescape(c->a, s, q, &v->s.len);
	c->p = q + 1;
	if (at(c, "...")) {
		v->flags |= VF_TRUNC;
		c->p += 3;
	}
	return true;
}

static void set_sym(struct cur *c, struct val *v, const char *s, const char *e)
{
	v->kind = V_FLAGS;
	v->flags |= VF_NOVAL;
	v->x.sym = arena_strndup(c->a, s, (size_t)(e - s));
}

/* Whether [s, e) is a signal set's body: signal names apart by spaces. */
static bool sigset_body(const char *s, const char *e)
{
	char name[32];
	while (s < e) {
		const char *w = s;
		while (w < e && *w != ' ')
			w++;
		if (w == s || (size_t)(w - s) >= sizeof(name) || !isalpha((unsigned char)*s))
			return false;
		memcpy(name, s, (size_t)(w - s));
		name[w - s] = '\0';
		if (signal_by_name(name) < 0 && strncmp(name, "RT_", 3) && strcmp(name, "RTMIN") &&
		    strcmp(name, "RTMAX"))
			return false;
		s = w < e ? w + 1 : w;
	}
	return true;
}

static bool parse_value(struct cur *c, struct val *v, const char *name, int depth);

/* Items of a structure or array up to the closing ch; false when malformed. */
static bool parse_items(struct cur *c, struct val *v, char close, bool named, int depth)
{
	struct val *items = NULL;
	uint32_t n = 0, alloc = 0;

	c->p++;
	while (c->p < c->e && *c->p != close) {
		const char *fname = NULL;
		if (at(c, "...")) {
			v->flags |= VF_MORE;
			c->p += 3;
			break;
		}
		if (named) {
			const char *q = c->p;
			while (q < c->e && (is_ident((unsigned char)*q) || *q == '.' || *q == '[' ||
					    *q == ']'))
				q++;
			if (q > c->p && q < c->e && *q == '=' && (q + 1 >= c->e || q[1] != '=')) {
				fname = arena_strndup(c->a, c->p, (size_t)(q - c->p));
				c->p = q + 1;
			}
		}
		if (n == alloc) {
			uint32_t na = alloc ? alloc * 2 : 8;
			struct val *ni = arena_calloc(c->a, na * sizeof(*ni));
			if (n)
				memcpy(ni, items, n * sizeof(*ni));
			items = ni;
			alloc = na;
		}
		if (!parse_value(c, &items[n], fname, depth + 1))
			return false;
		if (named && !fname)
			items[n].flags |= VF_EQ_ONLY;
		n++;
		if (at(c, ", "))
			c->p += 2;
		else if (c->p < c->e && *c->p == ',')
			c->p++;
		else
			break;
	}
	if (c->p >= c->e || *c->p != close)
		return false;
	c->p++;
	v->c.items = items;
	v->c.n = n;
	return true;
}

/* A number at c->p (decimal, 0x hex, 0 octal); false when there is none. */
static bool parse_number(struct cur *c, struct val *v)
{
	const char *p = c->p;
	char buf[40];
	char *end;
	size_t n;
	bool neg = *p == '-';

	if (neg)
		p++;
	if (p >= c->e || !isdigit((unsigned char)*p))
		return false;
	const char *q = p;
	if (q + 1 < c->e && q[0] == '0' && (q[1] == 'x' || q[1] == 'X')) {
		q += 2;
		while (q < c->e && isxdigit((unsigned char)*q))
			q++;
	} else {
		while (q < c->e && isdigit((unsigned char)*q))
			q++;
	}
	if (q < c->e && (is_ident((unsigned char)*q) || *q == '|' || *q == '(' || *q == '.'))
		return false;              /* part of an expression */
	n = (size_t)(q - c->p);
	if (n >= sizeof(buf))
		return false;
	memcpy(buf, c->p, n);
	buf[n] = '\0';
	errno = 0;
	if (p[0] == '0' && n > (size_t)(p - c->p) + 1 && (p[1] == 'x' || p[1] == 'X')) {
		v->kind = V_HEX;
		v->u = strtoull(p, &end, 16);
		if (neg)
			v->u = (uint64_t)-(int64_t)v->u;
	} else if (p[0] == '0' && q - p > 1) {
		v->kind = V_OCT;
		v->u = strtoull(p, &end, 8);
	} else if (neg) {
		v->kind = V_INT;
		v->i = strtoll(buf, &end, 10);
	} else {
		unsigned long long u = strtoull(buf, &end, 10);
		v->kind = u > INT64_MAX ? V_UINT : V_INT;
		v->u = u;
	}
	if (errno)
		return false;
	c->p = q;
	return true;
}

static bool parse_value(struct cur *c, struct val *v, const char *name, int depth)
{
	const char *start = c->p, *q;

	memset(v, 0, sizeof(*v));
	v->name = name;
	if (depth > MAX_DEPTH || c->p >= c->e)
		return false;
	switch (*c->p) {
	case '"':
		return parse_string(c, v);
	case '{':
		v->kind = V_STRUCT;
		return parse_items(c, v, '}', true, depth);
	case '~':
	case '[':
		q = memchr(c->p, ']', (size_t)(c->e - c->p));
		if (*c->p == '~' || (q && !memchr(c->p, ',', (size_t)(q - c->p)) &&
				     sigset_body(c->p + 1, q))) {
			if (!q)
				return false;
			v->kind = V_SIGSET;
			v->flags |= VF_NOVAL | (*c->p == '~' ? VF_SIGSET_NOT : 0);
			v->text = arena_strndup(c->a, c->p, (size_t)(q + 1 - c->p));
			v->text_len = (uint32_t)(q + 1 - c->p);
			c->p = q + 1;
			return true;
		}
		v->kind = V_ARRAY;
		return parse_items(c, v, ']', false, depth);
	case '/':
		if (at(c, "/* ") && (q = strstr(c->p, " */")) && q < c->e) {
			v->kind = V_COMMENT;
			v->s.p = arena_strndup(c->a, c->p + 3, (size_t)(q - c->p - 3));
			v->s.len = (uint32_t)(q - c->p - 3);
			c->p = q + 3;
			return true;
		}
		break;
	default:
		break;
	}
	if (at(c, "NULL") && (c->p + 4 == c->e || !is_ident((unsigned char)c->p[4]))) {
		v->kind = V_PTR;
		v->u = 0;
		c->p += 4;
		return true;
	}
	if (at(c, "AT_FDCWD") && (c->p + 8 == c->e || !is_ident((unsigned char)c->p[8]))) {
		v->kind = V_FD;
		v->fd.fd = -100;
		c->p += 8;
		if (c->p < c->e && *c->p == '<')
			goto fd_path;
		return true;
	}
	if (parse_number(c, v)) {
		if (c->p < c->e && *c->p == '<') {
			int64_t fd = v->kind == V_INT ? v->i : (int64_t)v->u;
			memset(&v->fd, 0, sizeof(v->fd));
			v->kind = V_FD;
			v->fd.fd = fd;
		fd_path:;
			/* 3</path> or 3<TCP:[...]> or 0</dev/null<char 1:3>> */
			int depth2 = 0;
			q = c->p;
			do {
				if (*q == '<')
					depth2++;
				else if (*q == '>')
					depth2--;
				q++;
			} while (q < c->e && depth2 > 0);
			if (depth2)
				return false;
			const char *in = c->p + 1, *ie = q - 1, *nest = memchr(in, '<', (size_t)(ie - in));
			v->fd.path = arena_strndup(c->a, in, (size_t)((nest ? nest : ie) - in));
			c->p = q;
			return true;
		}
		if (at(c, " /* ")) {
			/* a number with a comment: 0x7ffd... / * 23 vars * / */
			struct val *it = arena_calloc(c->a, 2 * sizeof(*it));
			it[0] = *v;
			it[0].name = NULL;
			c->p++;
			if (!parse_value(c, &it[1], NULL, depth + 1) || it[1].kind != V_COMMENT)
				return false;
			memset(v, 0, sizeof(*v));
			v->name = name;
			v->kind = V_OP;
			v->c.items = it;
			v->c.n = 2;
			v->c.op = " ";
			return true;
		}
		return true;
	}
	/* a symbolic value: names joined by '|', calls, expressions */
	q = scan_plain(c->p, c->e);
	if (q == start)
		return false;
	set_sym(c, v, start, q);
	c->p = q;
	/* a symbol with a comment after it: the comment is left out */
	if (at(c, " /* ") && (q = strstr(c->p, " */")) && q < c->e)
		c->p = q + 3;
	return true;
}

/* "name=value" at the top (clone's arguments): a V_OP "=" as the decoder
 * makes it; false when text is not of that form. */
static bool named_value(struct cur *c, struct val *out, const char *name)
{
	const char *q = c->p;
	struct val *it;

	while (q < c->e && is_ident((unsigned char)*q))
		q++;
	if (q == c->p || q >= c->e || *q != '=' || (q + 1 < c->e && q[1] == '=') ||
	    isdigit((unsigned char)*c->p))
		return false;
	it = arena_calloc(c->a, 2 * sizeof(*it));
	it[0].kind = V_TEXT;
	it[0].s.p = c->p;
	it[0].s.len = (uint32_t)(q - c->p);
	c->p = q + 1;
	if (!parse_value(c, &it[1], NULL, 1) || c->p != c->e)
		return false;
	memset(out, 0, sizeof(*out));
	out->kind = V_OP;
	out->name = name;
	out->c.items = it;
	out->c.n = 2;
	out->c.op = "=";
	return true;
}

void compat_val(struct arena *a, struct val *out, const char *name, const char *text,
		size_t len)
{
	struct cur c = { text, text + len, a };

	if (named_value(&c, out, name))
		goto done;
	c.p = text;
	if (!parse_value(&c, out, name, 0) || c.p != c.e) {
		const char *cut = len > 1 && text[0] == '"' ? strstr(text, "...<") : NULL;
		if (cut && text[len - 1] == '>' && strstr(cut, " bytes, cut to ")) {
			/* a string the reader cut ([limits] string_bytes): its
			 * bytes, then the cut and its true length, so that strings
			 * of other lengths still differ */
			memset(out, 0, sizeof(*out));
			out->kind = V_STR;
			out->flags = VF_TRUNC;
			out->s.p = unescape(a, text + 1, text + len, &out->s.len);
			out->name = name;
			out->text = text;
			out->text_len = (uint32_t)len;
			return;
		}
		memset(out, 0, sizeof(*out));
		out->kind = V_TEXT;
		out->name = name;
		out->s.p = text;
		out->s.len = (uint32_t)len;
	}
done:
	out->name = name;
	out->text = text;
	out->text_len = (uint32_t)len;
}

/* ---- endpoints ------------------------------------------------------------- */

/* The text of a symbolic field, or NULL. */
static const char *sym_of(const struct val *v)
{
	if (!v)
		return NULL;
	if (v->kind == V_FLAGS && (v->flags & VF_NOVAL))
		return v->x.sym;
	return NULL;
}

/* The first quoted string inside s, unescaped into sb; false when none. */
static bool quoted_in(struct arena *a, const char *s, struct strbuf *sb)
{
	const char *q = s ? strchr(s, '"') : NULL, *e;
	uint32_t len;
	if (!q)
		return false;
	for (e = q + 1; *e && *e != '"'; e++)
		if (*e == '\\' && e[1])
			e++;
	const char *u = unescape(a, q + 1, e, &len);
	strbuf_add(sb, u, len);
	return true;
}

static const char *endpoint_of(struct arena *a, const struct val *sa)
{
	const char *fam = sym_of(val_field(sa, "sa_family")), *port, *s;
	struct strbuf sb = STRBUF_INIT;
	const char *out;

	if (!fam)
		return NULL;
	if (!strcmp(fam, "AF_UNIX")) {
		const struct val *p = val_field(sa, "sun_path");
		strbuf_addstr(&sb, "unix:");
		if (p && p->kind == V_STR) {
			strbuf_add(&sb, p->s.p, p->s.len);
		} else if ((s = sym_of(p)) && s[0] == '@') {
			strbuf_addch(&sb, '@');
			quoted_in(a, s, &sb);
		}
	} else if (!strcmp(fam, "AF_INET") || !strcmp(fam, "AF_INET6")) {
		bool v6 = fam[7] == '6';
		port = sym_of(val_field(sa, v6 ? "sin6_port" : "sin_port"));
		s = sym_of(val_field(sa, v6 ? "sin6_addr" : "sin_addr"));
		strbuf_addstr(&sb, v6 ? "inet6:[" : "inet:");
		if (!quoted_in(a, s, &sb)) {
			strbuf_release(&sb);
			return NULL;
		}
		strbuf_addstr(&sb, v6 ? "]:" : ":");
		if (port && !strncmp(port, "htons(", 6))
			strbuf_add(&sb, port + 6, strcspn(port + 6, ")"));
	} else {
		strbuf_addstr(&sb, fam);
	}
	out = arena_strndup(a, sb.buf, sb.len);
	strbuf_release(&sb);
	return out;
}

const char *compat_endpoint(struct arena *a, const struct event *ev)
{
	for (unsigned i = 0; i < ev->nargs && i < EVENT_MAX_ARGS; i++) {
		const struct val *v = &ev->args[i], *n;
		if (v->kind != V_STRUCT)
			continue;
		if (val_field(v, "sa_family"))
			return endpoint_of(a, v);
		if ((n = val_field(v, "msg_name")) && val_field(n, "sa_family"))
			return endpoint_of(a, n);
	}
	return NULL;
}
