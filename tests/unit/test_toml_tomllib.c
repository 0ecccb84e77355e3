/*
 * Differential test: src/util/toml.c against Python's tomllib (Debian's
 * /usr/bin/python3) on generated documents, valid and broken on purpose:
 * both must accept or reject the same ones, and read the same values.
 * The generator is seeded, so a failure reproduces; TOML_DIFF_DOCS sets how
 * many documents (default 3000), TOML_DIFF_SEED the seed.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include <jansson.h>

#include "util/strbuf.h"
#include "util/toml.h"
#include "unit/toml_tagged.h"

#include "util/banned.h"

#define PYTHON "/usr/bin/python3"

/* Reads a JSON list of documents, prints a list of {"ok": tagged} / {"error": msg}. */
static const char py_script[] =
"import sys, json, math, datetime\n"
"import tomllib\n"
"def tag(v):\n"
"    if isinstance(v, dict): return {k: tag(x) for k, x in v.items()}\n"
"    if isinstance(v, list): return [tag(x) for x in v]\n"
"    if isinstance(v, bool): return {'type': 'bool', 'value': 'true' if v else 'false'}\n"
"    if isinstance(v, int): return {'type': 'integer', 'value': str(v)}\n"
"    if isinstance(v, float): return {'type': 'float', 'value': 'nan' if math.isnan(v) else repr(v)}\n"
"    if isinstance(v, str): return {'type': 'string', 'value': v}\n"
"    if isinstance(v, datetime.datetime):\n"
"        return {'type': 'datetime' if v.tzinfo else 'datetime-local', 'value': v.isoformat()}\n"
"    if isinstance(v, datetime.date): return {'type': 'date-local', 'value': v.isoformat()}\n"
"    return {'type': 'time-local', 'value': v.isoformat()}\n"
"out = []\n"
"for doc in json.load(open(sys.argv[1])):\n"
"    try: out.append({'ok': tag(tomllib.loads(doc))})\n"
"    except tomllib.TOMLDecodeError as e: out.append({'error': str(e)})\n"
"json.dump(out, sys.stdout)\n";

/* ---- a small seeded generator of TOML-ish documents ---- */

static uint64_t rng;

static uint64_t rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static unsigned pick(unsigned n)
{
	return (unsigned)(rnd() % n);
}

static const char *const keyparts[] = { "a", "b", "c", "\"q k\"", "'l'", "1" };

static void gen_key(struct strbuf *sb, unsigned maxparts)
{
	unsigned n = 1 + pick(maxparts);

	for (unsigned i = 0; i < n; i++) {
		if (i)
			strbuf_addstr(sb, pick(4) ? "." : " . ");
		strbuf_addstr(sb, keyparts[pick(sizeof(keyparts) / sizeof(keyparts[0]))]);
	}
}

static const char *const scalars[] = {
	"0", "42", "-17", "+99", "1_000_000", "9223372036854775807", "-9223372036854775808",
	"0xDEAD_beef", "0o755", "0b1101", "3.14", "-0.0", "1e10", "6.626e-34", "1E+2",
	"224_617.445_991", "inf", "-inf", "nan", "+nan", "true", "false",
	"\"plain\"", "\"esc \\t\\n\\\\ \\\" \\u00e9 \\U0001F600\"", "'lit \\n'", "\"\"", "''",
	"\"\"\"\nml\\\n   basic \"\" q\"\"\"", "'''\nml 'lit'\n'''", "\"caf\xC3\xA9\"",
	"1979-05-27T07:32:00Z", "1979-05-27T00:32:00.5-07:00", "1979-05-27 07:32:00.123456+01:30",
	"1979-05-27T07:32:00", "1979-05-27", "07:32:00", "00:32:00.999999", "2000-02-29",
};

static void gen_value(struct strbuf *sb, int depth)
{
	unsigned r = pick(10);

	if (r < 6 || depth > 2) {
		strbuf_addstr(sb, scalars[pick(sizeof(scalars) / sizeof(scalars[0]))]);
	} else if (r < 8) {
		unsigned n = pick(4);
		strbuf_addch(sb, '[');
		for (unsigned i = 0; i < n; i++) {
			if (i)
				strbuf_addstr(sb, pick(3) ? ", " : ",\n  ");
			gen_value(sb, depth + 1);
		}
		if (n && !pick(3))
			strbuf_addch(sb, ',');
		strbuf_addch(sb, ']');
	} else {
		unsigned n = pick(3);
		strbuf_addch(sb, '{');
		for (unsigned i = 0; i < n; i++) {
			if (i)
				strbuf_addstr(sb, ", ");
			gen_key(sb, 2);
			strbuf_addstr(sb, " = ");
			gen_value(sb, depth + 1);
		}
		strbuf_addch(sb, '}');
	}
}

static const char *const junk[] = {
	"[", "]", "{", "}", "=", ".", ",", "\"", "'", "#", "\n", " ", "_", "0", "x", "e", "+",
	":", "T", "Z", "\\", "[[", "]]", "a = 1\n", "[a]\n", "a.b = 2\n",
};

static void gen_doc(struct strbuf *sb)
{
	unsigned n = 1 + pick(7);

	for (unsigned i = 0; i < n; i++) {
		unsigned r = pick(10);
		if (r == 0) {
			strbuf_addch(sb, '[');
			gen_key(sb, 3);
			strbuf_addstr(sb, "]");
		} else if (r == 1) {
			strbuf_addstr(sb, "[[");
			gen_key(sb, 3);
			strbuf_addstr(sb, "]]");
		} else {
			gen_key(sb, 3);
			strbuf_addstr(sb, " = ");
			gen_value(sb, 0);
		}
		strbuf_addstr(sb, pick(5) ? "\n" : " # note\r\n");
	}
	/* break a third of them: insert or delete one ASCII piece */
	for (unsigned m = pick(3) == 0 ? 1 + pick(2) : 0; m > 0; m--) {
		size_t at = pick((unsigned)sb->len + 1);
		if (pick(2) && at < sb->len && !(sb->buf[at] & 0x80)) {
			memmove(sb->buf + at, sb->buf + at + 1, sb->len - at);
			strbuf_setlen(sb, sb->len - 1);
		} else {
			const char *j = junk[pick(sizeof(junk) / sizeof(junk[0]))];
			struct strbuf t = STRBUF_INIT;
			while (at < sb->len && at > 0 && (sb->buf[at] & 0xC0) == 0x80)
				at--;
			strbuf_add(&t, sb->buf, at);
			strbuf_addstr(&t, j);
			strbuf_add(&t, sb->buf + at, sb->len - at);
			strbuf_reset(sb);
			strbuf_add(sb, t.buf, t.len);
			strbuf_release(&t);
		}
	}
}

/* ---- the test ---- */

/* Python's times stop at microseconds: cut our fractions to 6 digits. */
static void to_microseconds(json_t *j)
{
	const char *k;
	json_t *v;
	size_t i;

	if (json_is_array(j)) {
		json_array_foreach(j, i, v)
			to_microseconds(v);
		return;
	}
	if (!json_is_object(j))
		return;
	if (json_object_size(j) == 2 && json_is_string(json_object_get(j, "value")) &&
	    strstr(json_string_value(json_object_get(j, "type")), "time")) {
		const char *s = json_string_value(json_object_get(j, "value"));
		const char *dot = strchr(s, '.');
		struct strbuf t = STRBUF_INIT;
		size_t nd = 0;

		if (!dot)
			return;
		while (dot[1 + nd] >= '0' && dot[1 + nd] <= '9')
			nd++;
		if (nd <= 6)
			return;
		strbuf_add(&t, s, dot + 7 - s);
		strbuf_addstr(&t, dot + 1 + nd);
		json_object_set_new(j, "value", json_string(t.buf));
		strbuf_release(&t);
		return;
	}
	json_object_foreach(j, k, v)
		to_microseconds(v);
}

static int have_tomllib(void)
{
	return access(PYTHON, X_OK) == 0 &&
	       system(PYTHON " -c 'import tomllib' >/dev/null 2>&1") == 0;
}

static void test_against_tomllib(void **state)
{
	const char *e = getenv("TOML_DIFF_DOCS");
	size_t ndocs = e && atoi(e) > 0 ? (size_t)atoi(e) : 3000;
	char path[] = "/tmp/renacer-tomllib-XXXXXX";
	struct strbuf cmd = STRBUF_INIT, outbuf = STRBUF_INIT, doc = STRBUF_INIT;
	json_t *docs = json_array(), *res;
	json_error_t jerr;
	size_t accepted = 0, bad = 0;
	char buf[4096];
	FILE *p;
	int fd;
	size_t n;

	if (!have_tomllib()) {
		printf("no %s with tomllib here; nothing to compare with\n", PYTHON);
		skip();
	}
	e = getenv("TOML_DIFF_SEED");
	rng = e && strtoull(e, NULL, 0) ? strtoull(e, NULL, 0) : 0x9E3779B97F4A7C15ull;
	for (size_t i = 0; i < ndocs; i++) {
		strbuf_reset(&doc);
		gen_doc(&doc);
		json_array_append_new(docs, json_stringn(doc.buf, doc.len));
	}
	fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(json_dumpfd(docs, fd, JSON_COMPACT), 0);
	close(fd);
	strbuf_addf(&cmd, "%s -c \"$RENACER_PY\" %s", PYTHON, path);
	setenv("RENACER_PY", py_script, 1);
	p = popen(cmd.buf, "r");
	assert_non_null(p);
	while ((n = fread(buf, 1, sizeof(buf), p)) > 0)
		strbuf_add(&outbuf, buf, n);
	assert_int_equal(pclose(p), 0);
	unlink(path);
	res = json_loadb(outbuf.buf, outbuf.len, 0, &jerr);
	if (!res || json_array_size(res) != ndocs)
		fail_msg("cannot read tomllib's answers: %s", jerr.text);

	for (size_t i = 0; i < ndocs; i++) {
		json_t *d = json_array_get(docs, i), *r = json_array_get(res, i);
		json_t *want = json_object_get(r, "ok");
		const char *text = json_string_value(d);
		size_t len = json_string_length(d);
		char err[256];
		struct toml_value *root = toml_parse(text, len, err, sizeof(err));
		struct strbuf why = STRBUF_INIT;

		if (root)
			accepted++;
		if (!root && want && strstr(err, "does not fit in 64 bits")) {
			/* Python's integers have no size; TOML's are 64-bit */
		} else if (!root != !want) {
			printf("DIFFER on document %zu: tomllib %s, we %s%s\n----\n%s\n----\n", i,
			       want ? "accepts" : "rejects", root ? "accept" : "reject: ",
			       root ? "" : err, text);
			if (!want)
				printf("tomllib: %s\n", json_string_value(json_object_get(r, "error")));
			bad++;
		} else if (root) {
			json_t *have = tagged_json(root);
			to_microseconds(have);
			if (tagged_compare(want, have, "", &why)) {
				printf("VALUES DIFFER on document %zu: %s\n----\n%s\n----\n", i, why.buf, text);
				bad++;
			}
			json_decref(have);
		}
		strbuf_release(&why);
		toml_free(root);
	}
	printf("tomllib: %zu documents, %zu accepted by both, %zu disagreements\n", ndocs,
	       accepted, bad);
	json_decref(docs);
	json_decref(res);
	strbuf_release(&cmd);
	strbuf_release(&outbuf);
	strbuf_release(&doc);
	assert_int_equal(bad, 0);
	/* a generator that breaks everything or nothing would prove little */
	assert_true(accepted > ndocs / 5 && accepted < ndocs * 9 / 10);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_against_tomllib),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
