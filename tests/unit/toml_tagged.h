/*
 * Test helpers shared by test_toml_corpus.c and test_toml_tomllib.c: a
 * parsed TOML tree as toml-test's tagged JSON ({"type": "integer", "value":
 * "42"}, tables as objects, arrays as arrays), and the comparison toml-test
 * makes (floats numerically, nan equal to nan, date-times as instants).
 * Static functions: include it in one test file each.
 */
#ifndef RENACER_TEST_TOML_TAGGED_H
#define RENACER_TEST_TOML_TAGGED_H

#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/strbuf.h"
#include "util/toml.h"

/* ---- our tree as toml-test's tagged JSON ---- */

static json_t *tagged(const char *type, const char *value)
{
	return json_pack("{s:s, s:s}", "type", type, "value", value);
}

static json_t *tagged_json(const struct toml_value *v)
{
	char buf[64];
	json_t *j;

	switch (v->type) {
	case TOML_TABLE:
		j = json_object();
		for (size_t i = 0; i < v->u.tab.n; i++)
			json_object_setn_new(j, v->u.tab.kv[i].key, v->u.tab.kv[i].keylen,
					     tagged_json(v->u.tab.kv[i].value));
		return j;
	case TOML_ARRAY:
		j = json_array();
		for (size_t i = 0; i < v->u.arr.n; i++)
			json_array_append_new(j, tagged_json(v->u.arr.items[i]));
		return j;
	case TOML_STRING:
		return json_pack("{s:s, s:s%}", "type", "string", "value", v->u.str.s, v->u.str.len);
	case TOML_INTEGER:
		snprintf(buf, sizeof(buf), "%lld", (long long)v->u.i);
		return tagged("integer", buf);
	case TOML_FLOAT:
		if (isnan(v->u.f))
			snprintf(buf, sizeof(buf), "nan");
		else if (isinf(v->u.f))
			snprintf(buf, sizeof(buf), "%sinf", v->u.f < 0 ? "-" : "");
		else
			snprintf(buf, sizeof(buf), "%.17g", v->u.f);
		return tagged("float", buf);
	case TOML_BOOL:
		return tagged("bool", v->u.b ? "true" : "false");
	case TOML_DATETIME:
	case TOML_DATETIME_LOCAL:
	case TOML_DATE_LOCAL:
	case TOML_TIME_LOCAL:
		toml_datetime_format(v, buf, sizeof(buf));
		return tagged(v->type == TOML_DATETIME ? "datetime" :
			      v->type == TOML_DATETIME_LOCAL ? "datetime-local" :
			      v->type == TOML_DATE_LOCAL ? "date-local" : "time-local", buf);
	}
	return json_null();
}

/* ---- semantic comparison, as toml-test does it ---- */

static int is_tagged(json_t *o)
{
	return json_is_object(o) && json_object_size(o) == 2 &&
	       json_object_get(o, "type") && json_object_get(o, "value");
}

/*
 * Parses an RFC 3339 date, time or date-time (as toml-test writes them, or
 * Python's isoformat) into seconds since 0000-03-01 UTC and nanoseconds.
 */
static int parse_dt(const char *s, long long *secs, long *nanos)
{
	char t[80];
	int y = 0, mo = 0, d = 0, h = 0, mi = 0, se = 0, n = 0;
	size_t i, len = strlen(s);
	const char *p;
	long frac = 0;
	int off = 0;

	if (len >= sizeof(t))
		return -1;
	for (i = 0; i <= len; i++) {
		char c = s[i];
		t[i] = c == ' ' || c == 't' ? 'T' : c == 'z' ? 'Z' : c;
	}
	p = t;
	if (strlen(p) >= 10 && p[4] == '-') {
		if (sscanf(p, "%4d-%2d-%2d%n", &y, &mo, &d, &n) != 3)
			return -1;
		p += n;
		if (*p == 'T')
			p++;
	}
	if (*p && p[2] == ':') {
		if (sscanf(p, "%2d:%2d:%2d%n", &h, &mi, &se, &n) != 3)
			return -1;
		p += n;
		if (*p == '.') {
			int digits = 0;
			for (p++; *p >= '0' && *p <= '9'; p++, digits++)
				if (digits < 9)
					frac = frac * 10 + (*p - '0');
			for (; digits < 9; digits++)
				frac *= 10;
		}
		if (*p == 'Z') {
			p++;
		} else if (*p == '+' || *p == '-') {
			int oh, om;
			if (sscanf(p + 1, "%2d:%2d", &oh, &om) != 2)
				return -1;
			off = (*p == '-' ? -1 : 1) * (oh * 60 + om);
			p += 6;
		}
	}
	if (*p)
		return -1;
	/* days from civil (Howard Hinnant) */
	{
		long yy = y - (mo <= 2);
		long era = (yy >= 0 ? yy : yy - 399) / 400;
		long yoe = yy - era * 400;
		long doy = (153 * (mo + (mo > 2 ? -3 : 9)) + 2) / 5 + d - 1;
		long doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
		long long days = era * 146097LL + doe;
		*secs = days * 86400 + h * 3600 + mi * 60 + se - off * 60LL;
	}
	*nanos = frac;
	return 0;
}

static void addpath(struct strbuf *sb, const char *path)
{
	strbuf_addstr(sb, *path ? path : "(root)");
}

static int tagged_compare(json_t *want, json_t *have, const char *path, struct strbuf *why);

static int compare_values(json_t *want, json_t *have, const char *path, struct strbuf *why)
{
	const char *wt = json_string_value(json_object_get(want, "type"));
	const char *ht = json_string_value(json_object_get(have, "type"));
	json_t *wv = json_object_get(want, "value"), *hv = json_object_get(have, "value");
	const char *ws, *hs;

	if (!wt || !ht || strcmp(wt, ht)) {
		addpath(why, path);
		strbuf_addf(why, ": type %s, expected %s", ht ? ht : "?", wt ? wt : "?");
		return -1;
	}
	if (!strcmp(wt, "array"))
		return tagged_compare(wv, hv, path, why);
	ws = json_string_value(wv);
	hs = json_string_value(hv);
	if (!ws || !hs) {
		addpath(why, path);
		strbuf_addstr(why, ": value is not a string");
		return -1;
	}
	if (!strcmp(wt, "float")) {
		int wn = strstr(ws, "nan") != NULL, hn = strstr(hs, "nan") != NULL;
		if (wn || hn) {
			if (wn == hn)
				return 0;
		} else if (strtod(ws, NULL) == strtod(hs, NULL)) {
			return 0;
		}
	} else if (!strcmp(wt, "datetime") || !strcmp(wt, "datetime-local") ||
		   !strcmp(wt, "date-local") || !strcmp(wt, "time-local")) {
		long long s1, s2;
		long n1, n2;
		if (!parse_dt(ws, &s1, &n1) && !parse_dt(hs, &s2, &n2) && s1 == s2 && n1 == n2)
			return 0;
	} else if (json_string_length(wv) == json_string_length(hv) &&
		   !memcmp(ws, hs, json_string_length(wv))) {
		return 0;
	}
	addpath(why, path);
	strbuf_addf(why, ": %s value '%s', expected '%s'", wt, hs, ws);
	return -1;
}

static int tagged_compare(json_t *want, json_t *have, const char *path, struct strbuf *why)
{
	if (json_is_array(want)) {
		if (!json_is_array(have) || json_array_size(have) != json_array_size(want)) {
			addpath(why, path);
			strbuf_addf(why, ": array of %zu, expected array of %zu",
				    json_is_array(have) ? json_array_size(have) : 0,
				    json_array_size(want));
			return -1;
		}
		for (size_t i = 0; i < json_array_size(want); i++) {
			struct strbuf sub = STRBUF_INIT;
			int r;
			strbuf_addf(&sub, "%s[%zu]", path, i);
			r = tagged_compare(json_array_get(want, i), json_array_get(have, i), sub.buf, why);
			strbuf_release(&sub);
			if (r)
				return r;
		}
		return 0;
	}
	if (!json_is_object(want) || !json_is_object(have)) {
		addpath(why, path);
		strbuf_addstr(why, ": kind differs (table/array/value)");
		return -1;
	}
	if (is_tagged(want) != is_tagged(have)) {
		addpath(why, path);
		strbuf_addf(why, ": is a %s, expected a %s", is_tagged(have) ? "value" : "table",
			    is_tagged(want) ? "value" : "table");
		return -1;
	}
	if (is_tagged(want))
		return compare_values(want, have, path, why);
	{
		const char *k;
		size_t klen;
		json_t *v;
		json_object_keylen_foreach(have, k, klen, v) {
			if (!json_object_getn(want, k, klen)) {
				addpath(why, path);
				strbuf_addf(why, ": unexpected key '%.*s'", (int)klen, k);
				return -1;
			}
		}
		json_object_keylen_foreach(want, k, klen, v) {
			json_t *h = json_object_getn(have, k, klen);
			struct strbuf sub = STRBUF_INIT;
			int r;
			if (!h) {
				addpath(why, path);
				strbuf_addf(why, ": missing key '%.*s'", (int)klen, k);
				return -1;
			}
			strbuf_addf(&sub, "%s%s%.*s", path, *path ? "." : "", (int)klen, k);
			r = tagged_compare(v, h, sub.buf, why);
			strbuf_release(&sub);
			if (r)
				return r;
		}
	}
	return 0;
}

#endif
