/*
 * libFuzzer target for the TOML parser (src/util/toml.c) and the
 * renacer.toml checks on top of it (src/config/config.c).  Any bytes must
 * give a tree or one "LINE:COL: message"; a tree written back as TOML must
 * parse to the same tree; config_parse must say exactly one thing on failure.
 *
 * seeds: /usr/share/gocode/src/github.com/BurntSushi/toml/internal/toml-test/tests tests/data
 * seed-glob: *.toml
 */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/config.h"
#include "util/error.h"
#include "util/strbuf.h"
#include "util/toml.h"

#include "util/banned.h"

static int nerrors, nwarnings;

static void quiet(const char *kind, const char *msg)
{
	if (*kind)
		nwarnings++;
	else
		nerrors++;
}

/* "LINE:COL: text" with LINE and COL >= 1. */
static int well_formed(const char *err)
{
	char *end;
	unsigned long l = strtoul(err, &end, 10), c;

	if (l < 1 || *end != ':')
		return 0;
	c = strtoul(end + 1, &end, 10);
	return c >= 1 && end[0] == ':' && end[1] == ' ' && end[2];
}

static void emit_str(struct strbuf *sb, const char *s, size_t len)
{
	strbuf_addch(sb, '"');
	for (size_t i = 0; i < len; i++) {
		unsigned char c = s[i];
		if (c == '"' || c == '\\')
			strbuf_addf(sb, "\\%c", c);
		else if (c < 0x20 || c == 0x7f)
			strbuf_addf(sb, "\\u%04X", c);
		else
			strbuf_addch(sb, c);
	}
	strbuf_addch(sb, '"');
}

/* Writes v as one line of TOML (tables inline). */
static void emit(struct strbuf *sb, const struct toml_value *v)
{
	char buf[64];

	switch (v->type) {
	case TOML_STRING:
		emit_str(sb, v->u.str.s, v->u.str.len);
		break;
	case TOML_INTEGER:
		strbuf_addf(sb, "%lld", (long long)v->u.i);
		break;
	case TOML_FLOAT:
		if (isnan(v->u.f)) {
			strbuf_addstr(sb, "nan");
		} else if (isinf(v->u.f)) {
			strbuf_addstr(sb, v->u.f < 0 ? "-inf" : "inf");
		} else {
			snprintf(buf, sizeof(buf), "%.17g", v->u.f);
			strbuf_addstr(sb, buf);
			if (!strpbrk(buf, ".e"))
				strbuf_addstr(sb, ".0");
		}
		break;
	case TOML_BOOL:
		strbuf_addstr(sb, v->u.b ? "true" : "false");
		break;
	case TOML_DATETIME:
	case TOML_DATETIME_LOCAL:
	case TOML_DATE_LOCAL:
	case TOML_TIME_LOCAL:
		if (toml_datetime_format(v, buf, sizeof(buf)) <= 0)
			abort();
		strbuf_addstr(sb, buf);
		break;
	case TOML_ARRAY:
		strbuf_addch(sb, '[');
		for (size_t i = 0; i < v->u.arr.n; i++) {
			if (i)
				strbuf_addstr(sb, ", ");
			emit(sb, v->u.arr.items[i]);
		}
		strbuf_addch(sb, ']');
		break;
	case TOML_TABLE:
		strbuf_addch(sb, '{');
		for (size_t i = 0; i < v->u.tab.n; i++) {
			if (i)
				strbuf_addstr(sb, ", ");
			emit_str(sb, v->u.tab.kv[i].key, v->u.tab.kv[i].keylen);
			strbuf_addstr(sb, " = ");
			emit(sb, v->u.tab.kv[i].value);
		}
		strbuf_addch(sb, '}');
		break;
	}
}

static int same(const struct toml_value *a, const struct toml_value *b)
{
	if (a->type != b->type)
		return 0;
	switch (a->type) {
	case TOML_STRING:
		return a->u.str.len == b->u.str.len && !memcmp(a->u.str.s, b->u.str.s, a->u.str.len);
	case TOML_INTEGER:
		return a->u.i == b->u.i;
	case TOML_FLOAT:
		return (isnan(a->u.f) && isnan(b->u.f)) || !memcmp(&a->u.f, &b->u.f, sizeof(double));
	case TOML_BOOL:
		return a->u.b == b->u.b;
	case TOML_ARRAY:
		if (a->u.arr.n != b->u.arr.n)
			return 0;
		for (size_t i = 0; i < a->u.arr.n; i++)
			if (!same(a->u.arr.items[i], b->u.arr.items[i]))
				return 0;
		return 1;
	case TOML_TABLE:
		if (a->u.tab.n != b->u.tab.n)
			return 0;
		for (size_t i = 0; i < a->u.tab.n; i++) {
			const struct toml_kv *x = &a->u.tab.kv[i], *y = &b->u.tab.kv[i];
			if (x->keylen != y->keylen || memcmp(x->key, y->key, x->keylen) ||
			    !same(x->value, y->value))
				return 0;
		}
		return 1;
	default:
		return !memcmp(&a->dt, &b->dt, sizeof(a->dt));
	}
}

/* Depth of the tree; checks positions on the way. */
static size_t depth(const struct toml_value *v, unsigned maxline)
{
	size_t d = 0;

	if (v->line < 1 || v->col < 1 || v->line > maxline || v->kline < 1 || v->kcol < 1 ||
	    v->kline > maxline)
		abort();
	if (v->type == TOML_ARRAY)
		for (size_t i = 0; i < v->u.arr.n; i++) {
			size_t e = depth(v->u.arr.items[i], maxline);
			d = e > d ? e : d;
		}
	if (v->type == TOML_TABLE)
		for (size_t i = 0; i < v->u.tab.n; i++) {
			size_t e = depth(v->u.tab.kv[i].value, maxline);
			d = e > d ? e : d;
			if (toml_get(v, v->u.tab.kv[i].key) == NULL &&
			    strlen(v->u.tab.kv[i].key) == v->u.tab.kv[i].keylen)
				abort();   /* a key must be found again */
		}
	return d + 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[256];
	struct toml_value *root, *again;
	struct renacer_config cfg;
	unsigned lines = 1;
	int r;

	error_set_hook(quiet);
	for (size_t i = 0; i < size; i++)
		lines += data[i] == '\n';

	root = toml_parse((const char *)data, size, err, sizeof(err));
	if (!root) {
		if (!well_formed(err))
			abort();
	} else {
		if (err[0])
			abort();
		if (depth(root, lines) < 200) {
			struct strbuf sb = STRBUF_INIT;
			for (size_t i = 0; i < root->u.tab.n; i++) {
				emit_str(&sb, root->u.tab.kv[i].key, root->u.tab.kv[i].keylen);
				strbuf_addstr(&sb, " = ");
				emit(&sb, root->u.tab.kv[i].value);
				strbuf_addch(&sb, '\n');
			}
			again = toml_parse(sb.buf, sb.len, err, sizeof(err));
			if (!again) {
				fprintf(stderr, "round trip failed: %s\n%s\n", err, sb.buf);
				abort();
			}
			if (!same(root, again)) {
				fprintf(stderr, "round trip differs:\n%s\n", sb.buf);
				abort();
			}
			toml_free(again);
			strbuf_release(&sb);
		}
	}

	nerrors = nwarnings = 0;
	r = config_parse("fuzz.toml", (const char *)data, size, &cfg);
	/* the first CONFIG_MAX_WARNINGS warnings are printed, one line counts the rest */
	if ((r == 0 && nerrors) || (r < 0 && nerrors != 1) || (r != 0 && r != -1) ||
	    (!root && r == 0) ||
	    (unsigned)nwarnings != (cfg.nwarnings > CONFIG_MAX_WARNINGS ?
				    CONFIG_MAX_WARNINGS + 1 : cfg.nwarnings))
		abort();
	config_release(&cfg);
	toml_free(root);
	return 0;
}
