/* Arena-backed strict JSON parser for trace records (see jv.h). */
#include "replay/jv.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/banned.h"

struct jp {
	struct arena *a;
	const unsigned char *p, *start, *end;
	int depth, max_depth;
	struct jv_err *err;
	struct jv *stack;        /* items being gathered, in the arena */
	size_t nstack, astack;
};

static bool fail(struct jp *j, const unsigned char *at, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static bool fail(struct jp *j, const unsigned char *at, const char *fmt, ...)
{
	va_list ap;

	j->err->off = (size_t)(at - j->start);
	va_start(ap, fmt);
	vsnprintf(j->err->msg, sizeof(j->err->msg), fmt, ap);
	va_end(ap);
	return false;
}

/* "near '...'" text: the token at p, printable ASCII only. */
static bool fail_near(struct jp *j, const unsigned char *p, const char *what)
{
	char near[24];
	size_t n = 0;

	if (p >= j->end)
		return fail(j, p, "%s near end of file", what);
	while (p + n < j->end && n < 20 && !strchr(" \t\r\n,:]}", p[n]))
		n++;
	if (!n)
		n = 1;
	for (size_t i = 0; i < n; i++)
		near[i] = p[i] >= 0x20 && p[i] < 0x7f ? (char)p[i] : '?';
	near[n] = '\0';
	return fail(j, p, "%s near '%s'", what, near);
}

static void ws(struct jp *j)
{
	while (j->p < j->end && (*j->p == ' ' || *j->p == '\n' || *j->p == '\t' || *j->p == '\r'))
		j->p++;
}

/* Length of a valid UTF-8 sequence at p (1..4), or 0. */
static size_t utf8_len(const unsigned char *p, const unsigned char *end)
{
	unsigned c = p[0], cp;
	size_t n;

	if (c < 0x80)
		return 1;
	if (c < 0xc2 || c > 0xf4)
		return 0;
	n = c < 0xe0 ? 2 : c < 0xf0 ? 3 : 4;
	if ((size_t)(end - p) < n)
		return 0;
	cp = c & (0xff >> (n + 1));
	for (size_t i = 1; i < n; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		cp = (cp << 6) | (p[i] & 0x3f);
	}
	if ((n == 3 && (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff))) ||
	    (n == 4 && (cp < 0x10000 || cp > 0x10ffff)))
		return 0;
	return n;
}

static int hex4(const unsigned char *p)
{
	int v = 0;
	for (int i = 0; i < 4; i++) {
		int c = p[i], d;
		if (c >= '0' && c <= '9')
			d = c - '0';
		else if (c >= 'a' && c <= 'f')
			d = c - 'a' + 10;
		else if (c >= 'A' && c <= 'F')
			d = c - 'A' + 10;
		else
			return -1;
		v = v * 16 + d;
	}
	return v;
}

static size_t put_utf8(unsigned char *o, unsigned cp)
{
	if (cp < 0x80) {
		o[0] = (unsigned char)cp;
		return 1;
	}
	if (cp < 0x800) {
		o[0] = (unsigned char)(0xc0 | cp >> 6);
		o[1] = (unsigned char)(0x80 | (cp & 0x3f));
		return 2;
	}
	if (cp < 0x10000) {
		o[0] = (unsigned char)(0xe0 | cp >> 12);
		o[1] = (unsigned char)(0x80 | ((cp >> 6) & 0x3f));
		o[2] = (unsigned char)(0x80 | (cp & 0x3f));
		return 3;
	}
	o[0] = (unsigned char)(0xf0 | cp >> 18);
	o[1] = (unsigned char)(0x80 | ((cp >> 12) & 0x3f));
	o[2] = (unsigned char)(0x80 | ((cp >> 6) & 0x3f));
	o[3] = (unsigned char)(0x80 | (cp & 0x3f));
	return 4;
}

/* A string at j->p (the opening quote); decoded into the arena. */
static bool parse_string(struct jp *j, const char **out, uint32_t *outlen)
{
	const unsigned char *q = ++j->p, *run;
	bool esc = false;
	unsigned char *buf, *o;

	/* first pass: find the end, check bytes, learn whether to decode */
	for (;;) {
		if (q >= j->end)
			return fail(j, q, "premature end of input");
		if (*q == '"')
			break;
		if (*q == '\\') {
			if (j->end - q < 2)
				return fail(j, j->end, "premature end of input");
			esc = true;
			q += 2;
			continue;
		}
		if (*q < 0x20)
			return fail(j, q, "control character 0x%x in string", *q);
		if (*q >= 0x80) {
			size_t n = utf8_len(q, j->end);
			if (!n)
				return fail(j, q, "invalid UTF-8 in string");
			q += n;
			continue;
		}
		q++;
	}
	if ((size_t)(q - j->p) > UINT32_MAX)
		return fail(j, j->p, "string too long");
	buf = o = arena_alloc(j->a, (size_t)(q - j->p) + 1);
	if (!esc) {
		memcpy(buf, j->p, (size_t)(q - j->p));
		o += q - j->p;
	} else {
		for (run = j->p; run < q;) {
			if (*run != '\\') {
				*o++ = *run++;
				continue;
			}
			run++;
			switch (*run) {
			case '"': case '\\': case '/': *o++ = *run++; break;
			case 'b': *o++ = '\b'; run++; break;
			case 'f': *o++ = '\f'; run++; break;
			case 'n': *o++ = '\n'; run++; break;
			case 'r': *o++ = '\r'; run++; break;
			case 't': *o++ = '\t'; run++; break;
			case 'u': {
				int cp, lo;
				if (q - run < 5 || (cp = hex4(run + 1)) < 0)
					return fail(j, run - 1, "invalid escape");
				run += 5;
				if (cp >= 0xdc00 && cp <= 0xdfff)
					return fail(j, run - 6, "invalid Unicode '\\u%04X'", (unsigned)cp);
				if (cp >= 0xd800 && cp <= 0xdbff) {
					if (q - run < 6 || run[0] != '\\' || run[1] != 'u' ||
					    (lo = hex4(run + 2)) < 0xdc00 || lo > 0xdfff)
						return fail(j, run - 6, "invalid Unicode '\\u%04X'",
							    (unsigned)cp);
					cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
					run += 6;
				}
				o += put_utf8(o, (unsigned)cp);
				break;
			}
			default:
				return fail(j, run - 1, "invalid escape");
			}
		}
	}
	*o = '\0';
	*out = (const char *)buf;
	*outlen = (uint32_t)(o - buf);
	j->p = q + 1;
	return true;
}

static bool parse_number(struct jp *j, struct jv *v)
{
	const unsigned char *s = j->p, *q = s;
	bool real = false;

	if (q < j->end && *q == '-')
		q++;
	if (q >= j->end || *q < '0' || *q > '9')
		return fail_near(j, s, "invalid token");
	if (*q == '0') {
		q++;
	} else {
		while (q < j->end && *q >= '0' && *q <= '9')
			q++;
	}
	if (q < j->end && *q == '.') {
		real = true;
		q++;
		if (q >= j->end || *q < '0' || *q > '9')
			return fail_near(j, s, "invalid token");
		while (q < j->end && *q >= '0' && *q <= '9')
			q++;
	}
	if (q < j->end && (*q == 'e' || *q == 'E')) {
		real = true;
		q++;
		if (q < j->end && (*q == '+' || *q == '-'))
			q++;
		if (q >= j->end || *q < '0' || *q > '9')
			return fail_near(j, s, "invalid token");
		while (q < j->end && *q >= '0' && *q <= '9')
			q++;
	}
	if (!real) {
		bool neg = *s == '-';
		uint64_t u = 0, lim = neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
		for (const unsigned char *d = s + neg; d < q; d++) {
			unsigned dig = (unsigned)(*d - '0');
			if (u > (lim - dig) / 10)
				return fail_near(j, s, "too big integer");
			u = u * 10 + dig;
		}
		v->type = JV_INT;
		v->i = neg ? (int64_t)(0 - u) : (int64_t)u;
	} else {
		char tmp[64], *e;
		size_t n = (size_t)(q - s);
		double d;

		if (n >= sizeof(tmp)) {
			/* long reals: copy into the arena to NUL-terminate */
			char *t = arena_strndup(j->a, (const char *)s, n);
			errno = 0;
			d = strtod(t, &e);
		} else {
			memcpy(tmp, s, n);
			tmp[n] = '\0';
			errno = 0;
			d = strtod(tmp, &e);
		}
		if (errno == ERANGE && (d == HUGE_VAL || d == -HUGE_VAL))
			return fail_near(j, s, "real number overflow");
		v->type = JV_REAL;
		v->d = d;
	}
	j->p = q;
	return true;
}

static bool parse_value(struct jp *j, struct jv *v);

/* Items of an array or object: gathered on j->stack, then copied out. */
static bool parse_container(struct jp *j, struct jv *v, bool obj)
{
	size_t base = j->nstack, n;
	unsigned char close = obj ? '}' : ']';
	const unsigned char *open = j->p;

	if (++j->depth > j->max_depth)
		return fail(j, open, "maximum parsing depth reached (%d)", j->max_depth);
	j->p++;
	ws(j);
	if (j->p < j->end && *j->p == close) {
		j->p++;
		goto done;
	}
	for (;;) {
		struct jv item;
		const char *key = NULL;
		uint32_t klen;

		memset(&item, 0, sizeof(item));
		ws(j);
		if (obj) {
			if (j->p >= j->end || *j->p != '"')
				return fail_near(j, j->p, "string or '}' expected");
			if (!parse_string(j, &key, &klen))
				return false;
			ws(j);
			if (j->p >= j->end || *j->p != ':')
				return fail_near(j, j->p, "':' expected");
			j->p++;
			ws(j);
		}
		if (!parse_value(j, &item))
			return false;
		item.key = key;
		if (j->nstack == j->astack) {
			/* grow in the arena too: it is reset per record anyway */
			struct jv *bigger;
			j->astack = j->astack ? j->astack * 2 : 64;
			bigger = arena_alloc(j->a, j->astack * sizeof(*j->stack));
			if (j->nstack)
				memcpy(bigger, j->stack, j->nstack * sizeof(*j->stack));
			j->stack = bigger;
		}
		j->stack[j->nstack++] = item;
		ws(j);
		if (j->p < j->end && *j->p == ',') {
			j->p++;
			continue;
		}
		if (j->p < j->end && *j->p == close) {
			j->p++;
			break;
		}
		return fail_near(j, j->p, obj ? "',' or '}' expected" : "',' or ']' expected");
	}
done:
	n = j->nstack - base;
	if (n > UINT32_MAX)
		return fail(j, open, "too many items");
	v->type = obj ? JV_OBJ : JV_ARR;
	v->n = (uint32_t)n;
	v->items = NULL;
	if (n) {
		v->items = arena_alloc(j->a, n * sizeof(*v->items));
		memcpy(v->items, j->stack + base, n * sizeof(*v->items));
	}
	j->nstack = base;
	j->depth--;
	return true;
}

static bool word(struct jp *j, const char *w, size_t n)
{
	if ((size_t)(j->end - j->p) < n || memcmp(j->p, w, n))
		return fail_near(j, j->p, "invalid token");
	j->p += n;
	return true;
}

static bool parse_value(struct jp *j, struct jv *v)
{
	if (j->p >= j->end)
		return fail(j, j->p, "premature end of input");
	switch (*j->p) {
	case '{': return parse_container(j, v, true);
	case '[': return parse_container(j, v, false);
	case '"':
		v->type = JV_STR;
		return parse_string(j, &v->s, &v->n);
	case 't': v->type = JV_TRUE; return word(j, "true", 4);
	case 'f': v->type = JV_FALSE; return word(j, "false", 5);
	case 'n': v->type = JV_NULL; return word(j, "null", 4);
	default: return parse_number(j, v);
	}
}

struct jv *jv_parse(struct arena *a, const char *buf, size_t len, int max_depth,
		    struct jv_err *err)
{
	struct jp j;
	struct jv *root = arena_calloc(a, sizeof(*root));
	bool ok;

	memset(&j, 0, sizeof(j));
	j.a = a;
	j.start = j.p = (const unsigned char *)buf;
	j.end = j.start + len;
	j.max_depth = max_depth;
	j.err = err;
	ws(&j);
	if (j.p >= j.end)
		ok = fail(&j, j.p, "premature end of input");
	else
		ok = parse_value(&j, root);
	if (ok) {
		ws(&j);
		if (j.p < j.end)
			ok = fail_near(&j, j.p, "end of file expected");
	}
	return ok ? root : NULL;
}

struct jv *jv_get(const struct jv *o, const char *key)
{
	if (!o || o->type != JV_OBJ)
		return NULL;
	/* the last of duplicate keys wins, as in jansson */
	for (uint32_t i = o->n; i-- > 0;)
		if (!strcmp(o->items[i].key, key))
			return &o->items[i];
	return NULL;
}
