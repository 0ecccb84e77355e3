/*
 * Conformance: runs src/util/toml.c over the toml-test corpus (Debian's
 * golang-github-burntsushi-toml-dev).  Every valid/X.toml must parse to the
 * tagged JSON in valid/X.json; every invalid/X.toml must be rejected.
 * TOML_TEST_DIR overrides the corpus location; TOML_CORPUS_VERBOSE=1 prints
 * the message given for every invalid file.
 */
#include <dirent.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <cmocka.h>
#include <jansson.h>

#include "util/strbuf.h"
#include "util/toml.h"
#include "util/xmalloc.h"

#include "util/banned.h"

#define DEFAULT_DIR "/usr/share/gocode/src/github.com/BurntSushi/toml/internal/toml-test/tests"

/*
 * Tests toml-test itself leaves out for TOML 1.0.0 (its version.go):
 * "\e" is a TOML 1.1 escape.
 */
static const char *const skip_1_0[] = {
	"valid/string/escape-esc.toml",
};

static const char *corpus_dir(void)
{
	const char *d = getenv("TOML_TEST_DIR");
	return d && *d ? d : DEFAULT_DIR;
}

struct filelist {
	char **v;
	size_t n, alloc;
};

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Collects every *.toml under root/sub, as paths relative to root. */
static void collect(const char *root, const char *sub, struct filelist *fl)
{
	struct strbuf path = STRBUF_INIT;
	DIR *d;
	struct dirent *de;

	strbuf_addf(&path, "%s/%s", root, sub);
	d = opendir(path.buf);
	strbuf_release(&path);
	if (!d)
		return;
	while ((de = readdir(d))) {
		struct strbuf rel = STRBUF_INIT;
		struct strbuf full = STRBUF_INIT;
		struct stat st;
		size_t len = strlen(de->d_name);

		if (de->d_name[0] == '.')
			continue;
		strbuf_addf(&rel, "%s/%s", sub, de->d_name);
		strbuf_addf(&full, "%s/%s", root, rel.buf);
		if (stat(full.buf, &st) == 0 && S_ISDIR(st.st_mode)) {
			collect(root, rel.buf, fl);
		} else if (len > 5 && !strcmp(de->d_name + len - 5, ".toml")) {
			ALLOC_GROW(fl->v, fl->n + 1, fl->alloc);
			fl->v[fl->n++] = strbuf_detach(&rel, NULL);
		}
		strbuf_release(&rel);
		strbuf_release(&full);
	}
	closedir(d);
	qsort(fl->v, fl->n, sizeof(*fl->v), cmp_str);
}

static void filelist_release(struct filelist *fl)
{
	for (size_t i = 0; i < fl->n; i++)
		free(fl->v[i]);
	free(fl->v);
}

/* ---- our tree as toml-test's tagged JSON ---- */

static json_t *tagged(const char *type, const char *value)
{
	return json_pack("{s:s, s:s}", "type", type, "value", value);
}

static json_t *to_json(const struct toml_value *v)
{
	char buf[64];
	json_t *j;

	switch (v->type) {
	case TOML_TABLE:
		j = json_object();
		for (size_t i = 0; i < v->u.tab.n; i++)
			json_object_setn_new(j, v->u.tab.kv[i].key, v->u.tab.kv[i].keylen,
					     to_json(v->u.tab.kv[i].value));
		return j;
	case TOML_ARRAY:
		j = json_array();
		for (size_t i = 0; i < v->u.arr.n; i++)
			json_array_append_new(j, to_json(v->u.arr.items[i]));
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

/* Parses an RFC 3339 date/time into comparable parts: {days, seconds, nanos, has_off}. */
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

static int compare(json_t *want, json_t *have, const char *path, struct strbuf *why);

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
		return compare(wv, hv, path, why);
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

static int compare(json_t *want, json_t *have, const char *path, struct strbuf *why)
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
			r = compare(json_array_get(want, i), json_array_get(have, i), sub.buf, why);
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
			r = compare(v, h, sub.buf, why);
			strbuf_release(&sub);
			if (r)
				return r;
		}
	}
	return 0;
}

/* ---- the test ---- */

static int read_file(const char *root, const char *rel, struct strbuf *sb)
{
	struct strbuf p = STRBUF_INIT;
	int r;

	strbuf_addf(&p, "%s/%s", root, rel);
	r = strbuf_read_file(sb, p.buf);
	strbuf_release(&p);
	return r;
}

static int skipped(const char *rel)
{
	for (size_t i = 0; i < sizeof(skip_1_0) / sizeof(skip_1_0[0]); i++)
		if (!strcmp(rel, skip_1_0[i]))
			return 1;
	return 0;
}

static void test_corpus(void **state)
{
	const char *root = corpus_dir();
	struct filelist valid = { 0 }, invalid = { 0 };
	size_t vpass = 0, vfail = 0, vskip = 0, ipass = 0, ifail = 0;
	int verbose = getenv("TOML_CORPUS_VERBOSE") != NULL;
	struct stat st;

	if (stat(root, &st) != 0 || !S_ISDIR(st.st_mode))
		fail_msg("toml-test corpus not found at '%s'; run 'make deps' (it installs "
			 "golang-github-burntsushi-toml-dev) or set TOML_TEST_DIR", root);
	collect(root, "valid", &valid);
	collect(root, "invalid", &invalid);
	if (valid.n < 50 || invalid.n < 50)
		fail_msg("toml-test corpus at '%s' looks incomplete (%zu valid, %zu invalid files)",
			 root, valid.n, invalid.n);

	for (size_t i = 0; i < valid.n; i++) {
		const char *rel = valid.v[i];
		struct strbuf text = STRBUF_INIT, why = STRBUF_INIT;
		struct strbuf jpath = STRBUF_INIT;
		char err[256];
		struct toml_value *root_v;
		json_t *want = NULL, *have = NULL;
		json_error_t jerr;

		if (skipped(rel)) {
			printf("skip  %s (not TOML 1.0; toml-test skips it for 1.0.0)\n", rel);
			vskip++;
			continue;
		}
		if (read_file(root, rel, &text) < 0) {
			printf("FAIL  %s: cannot read\n", rel);
			vfail++;
			continue;
		}
		root_v = toml_parse(text.buf, text.len, err, sizeof(err));
		if (!root_v) {
			printf("FAIL  %s: rejected: %s\n", rel, err);
			vfail++;
			strbuf_release(&text);
			continue;
		}
		strbuf_addf(&jpath, "%s/%.*s.json", root, (int)(strlen(rel) - 5), rel);
		want = json_load_file(jpath.buf, JSON_ALLOW_NUL | JSON_DECODE_ANY, &jerr);
		have = to_json(root_v);
		if (!want) {
			printf("FAIL  %s: cannot read expected JSON: %s\n", rel, jerr.text);
			vfail++;
		} else if (compare(want, have, "", &why)) {
			char *dump = json_dumps(have, JSON_COMPACT | JSON_SORT_KEYS);
			printf("FAIL  %s: %s\n      got: %.400s\n", rel, why.buf, dump);
			free(dump);
			vfail++;
		} else {
			vpass++;
		}
		json_decref(want);
		json_decref(have);
		toml_free(root_v);
		strbuf_release(&text);
		strbuf_release(&why);
		strbuf_release(&jpath);
	}

	for (size_t i = 0; i < invalid.n; i++) {
		const char *rel = invalid.v[i];
		struct strbuf text = STRBUF_INIT;
		char err[256];
		struct toml_value *root_v;

		if (read_file(root, rel, &text) < 0) {
			printf("FAIL  %s: cannot read\n", rel);
			ifail++;
			continue;
		}
		root_v = toml_parse(text.buf, text.len, err, sizeof(err));
		if (root_v) {
			printf("FAIL  %s: accepted, but it is invalid TOML\n", rel);
			toml_free(root_v);
			ifail++;
		} else if (!err[0] || !strchr(err, ':')) {
			printf("FAIL  %s: rejected without a LINE:COL message ('%s')\n", rel, err);
			ifail++;
		} else {
			if (verbose)
				printf("ok    %s: %s\n", rel, err);
			ipass++;
		}
		strbuf_release(&text);
	}

	printf("toml-test valid:   %zu/%zu passed, %zu failed, %zu skipped (TOML 1.1 only)\n",
	       vpass, valid.n - vskip, vfail, vskip);
	printf("toml-test invalid: %zu/%zu rejected, %zu accepted or without position\n",
	       ipass, invalid.n, ifail);
	fflush(stdout);
	filelist_release(&valid);
	filelist_release(&invalid);
	assert_int_equal(vfail + ifail, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_corpus),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
