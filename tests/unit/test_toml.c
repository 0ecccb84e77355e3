/*
 * Unit tests for src/util/toml.c: focused cases for every part of TOML 1.0,
 * the redefinition rules, positions and error messages.  The toml-test
 * corpus runs in test_toml_corpus.c.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "util/strbuf.h"
#include "util/toml.h"

#include "util/banned.h"

/*
 * A compact rendering of a tree: {key=value,...}, [a,b], 'string',
 * integers as is, f:1.5 for floats, true/false, and dt: ldt: ld: lt:
 * for the four date/time types.
 */
static void dump_str(struct strbuf *sb, const char *s, size_t len, int q)
{
	strbuf_addch(sb, q);
	for (size_t i = 0; i < len; i++) {
		unsigned char c = s[i];
		if (c == q || c == '\\')
			strbuf_addf(sb, "\\%c", c);
		else if (c < 0x20 || c == 0x7f)
			strbuf_addf(sb, "\\x%02x", c);
		else
			strbuf_addch(sb, c);
	}
	strbuf_addch(sb, q);
}

static void dump(struct strbuf *sb, const struct toml_value *v)
{
	char buf[64];

	switch (v->type) {
	case TOML_TABLE:
		strbuf_addch(sb, '{');
		for (size_t i = 0; i < v->u.tab.n; i++) {
			const struct toml_kv *kv = &v->u.tab.kv[i];
			int bare = kv->keylen > 0;
			if (i)
				strbuf_addch(sb, ',');
			for (size_t j = 0; j < kv->keylen; j++)
				if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-", kv->key[j]) || !kv->key[j])
					bare = 0;
			if (bare)
				strbuf_add(sb, kv->key, kv->keylen);
			else
				dump_str(sb, kv->key, kv->keylen, '"');
			strbuf_addch(sb, '=');
			dump(sb, kv->value);
		}
		strbuf_addch(sb, '}');
		break;
	case TOML_ARRAY:
		strbuf_addch(sb, '[');
		for (size_t i = 0; i < v->u.arr.n; i++) {
			if (i)
				strbuf_addch(sb, ',');
			dump(sb, v->u.arr.items[i]);
		}
		strbuf_addch(sb, ']');
		break;
	case TOML_STRING:
		dump_str(sb, v->u.str.s, v->u.str.len, '\'');
		break;
	case TOML_INTEGER:
		strbuf_addf(sb, "%lld", (long long)v->u.i);
		break;
	case TOML_FLOAT:
		if (isnan(v->u.f))
			strbuf_addstr(sb, "f:nan");
		else
			strbuf_addf(sb, "f:%.17g", v->u.f);
		break;
	case TOML_BOOL:
		strbuf_addstr(sb, v->u.b ? "true" : "false");
		break;
	default:
		toml_datetime_format(v, buf, sizeof(buf));
		strbuf_addf(sb, "%s:%s", v->type == TOML_DATETIME ? "dt" :
			    v->type == TOML_DATETIME_LOCAL ? "ldt" :
			    v->type == TOML_DATE_LOCAL ? "ld" : "lt", buf);
		break;
	}
}

static struct strbuf out = STRBUF_INIT;
static char err[256];

/* Parses len bytes; returns the dump or "ERR <message>". */
static const char *parse_n(const char *text, size_t len)
{
	struct toml_value *root = toml_parse(text, len, err, sizeof(err));

	strbuf_reset(&out);
	if (!root) {
		strbuf_addf(&out, "ERR %s", err);
		return out.buf;
	}
	assert_string_equal(err, "");
	dump(&out, root);
	toml_free(root);
	return out.buf;
}

static const char *parse(const char *text)
{
	return parse_n(text, strlen(text));
}

#define CHECK(text, want) check_at(text, strlen(text), want, __FILE__, __LINE__)
#define CHECKN(text, want) check_at(text, sizeof(text) - 1, want, __FILE__, __LINE__)

static void check_at(const char *text, size_t len, const char *want, const char *file, int line)
{
	const char *got = parse_n(text, len);

	if (strcmp(got, want))
		fail_msg("%s:%d: for <<%s>>\n  want %s\n  got  %s", file, line, text, want, got);
}

static void test_basics(void **state)
{
	CHECK("", "{}");
	CHECK("\n\n  \t\n# only a comment", "{}");
	CHECK("a = 1", "{a=1}");
	CHECK("a=1\r\nb=2\r\n", "{a=1,b=2}");
	CHECK("bare_key-1 = true\n\"quoted key\" = false\n'lit\"key' = 1\n",
	      "{bare_key-1=true,\"quoted key\"=false,\"lit\\\"key\"=1}");
	CHECK("1234 = 'digits are bare keys'", "{1234='digits are bare keys'}");
	CHECK("\"\" = 1", "{\"\"=1}");
	CHECK("'' = 1", "{\"\"=1}");
	CHECK("a = 1 # comment\n# another\nb = 2#x", "{a=1,b=2}");
	/* a leading UTF-8 byte order mark is skipped */
	CHECK("\xEF\xBB\xBF" "a = 1", "{a=1}");
	CHECK("a = 1\n\xEF\xBB\xBF", "ERR 2:1: expected a key, found '\xEF\xBB\xBF'");
}

static void test_strings(void **state)
{
	CHECK("s = \"tab\\there \\\"q\\\" \\\\ \\b\\f\\n\\r\"",
	      "{s='tab\\x09here \"q\" \\\\ \\x08\\x0c\\x0a\\x0d'}");
	CHECK("s = \"\\u00e9\\U0001F600\\u0000x\"", "{s='\xC3\xA9\xF0\x9F\x98\x80\\x00x'}");
	CHECK("s = 'C:\\Users\\nodejs' ", "{s='C:\\\\Users\\\\nodejs'}");
	CHECK("s = \"raw \ttab and \xC3\xA9\"", "{s='raw \\x09tab and \xC3\xA9'}");
	/* multi-line basic: first newline trimmed, CRLF read as LF */
	CHECK("s = \"\"\"\nline1\r\nline2\n\"\"\"", "{s='line1\\x0aline2\\x0a'}");
	CHECK("s = \"\"\"\r\nx\"\"\"", "{s='x'}");
	/* line-ending backslash eats whitespace and newlines */
	CHECK("s = \"\"\"a \\\n    b \\   \n\n  \tc\\\r\n\"\"\"", "{s='a b c'}");
	/* up to two quotes inside and at the end */
	CHECK("s = \"\"\"a\"b\"\"c\"\"\"", "{s='a\"b\"\"c'}");
	CHECK("s = \"\"\"\"\"\"\"\"", "{s='\"\"'}");
	CHECK("s = \"\"\"\"x\"\"\"\"", "{s='\"x\"'}");
	CHECK("s = '''\nraw \\n text\n'''", "{s='raw \\\\n text\\x0a'}");
	CHECK("s = ''''x'''''", "{s='\\'x\\'\\''}");
	CHECK("s = ''''''", "{s=''}");
	CHECK("s = \"\"", "{s=''}");
	/* errors */
	CHECK("s = \"abc", "ERR 1:5: unterminated string");
	CHECK("s = \"abc\ndef\"", "ERR 1:5: unterminated string (a single-line string cannot span lines)");
	CHECK("s = 'abc\n'", "ERR 1:5: unterminated string (a single-line string cannot span lines)");
	CHECK("s = \"\"\"abc", "ERR 1:5: unterminated string");
	CHECK("s = \"\\q\"", "ERR 1:6: invalid escape sequence: backslash followed by 'q'");
	CHECK("s = \"\\e\"", "ERR 1:6: invalid escape sequence: backslash followed by 'e'");
	CHECK("s = \"\\u12\"", "ERR 1:6: invalid escape '\\u': expected 4 hexadecimal digits");
	CHECK("s = \"\\uD800\"", "ERR 1:6: invalid escape '\\uD800': not a Unicode scalar value");
	CHECK("s = \"\\U00110000\"", "ERR 1:6: invalid escape '\\U00110000': not a Unicode scalar value");
	CHECK("s = \"a \\ b\"", "ERR 1:8: invalid escape sequence: backslash followed by ' '");
	CHECK("s = \"\"\"a \\ b\"\"\"", "ERR 1:10: a line-ending backslash must be followed only by whitespace up to the end of the line");
	CHECK("s = \"\"\"\"\"\"\"\"\"", "ERR 1:13: too many quotes at the end of a multi-line string");
	CHECK("s = \"a\x01\"", "ERR 1:7: control character U+0001 not allowed in string (use an escape)");
	CHECK("s = \"a\x7f\"", "ERR 1:7: control character U+007F not allowed in string (use an escape)");
	CHECK("s = '''a\rb'''", "ERR 1:9: carriage return not followed by a newline in string");
	CHECK("s = \"\xC3\"", "ERR 1:6: invalid UTF-8 byte 0xC3 in string");
	CHECK("s = \"\xC0\xAF\"", "ERR 1:6: invalid UTF-8 byte 0xC0 in string");          /* overlong */
	CHECK("s = \"\xED\xA0\x80\"", "ERR 1:6: invalid UTF-8 byte 0xED in string");      /* surrogate */
	CHECK("s = \"\xF4\x90\x80\x80\"", "ERR 1:6: invalid UTF-8 byte 0xF4 in string");  /* > U+10FFFF */
	CHECK("s = \"ok\" \"more\"", "ERR 1:10: expected end of line after the value, found '\"'");
}

static void test_integers(void **state)
{
	CHECK("a = +99\nb = 42\nc = 0\nd = -17\ne = +0\nf = -0", "{a=99,b=42,c=0,d=-17,e=0,f=0}");
	CHECK("a = 1_000\nb = 5_349_221\nc = 1_2_3_4_5", "{a=1000,b=5349221,c=12345}");
	CHECK("a = 0xDEADBEEF\nb = 0xdead_beef\nc = 0o755\nd = 0b1101_0110\ne = 0x0",
	      "{a=3735928559,b=3735928559,c=493,d=214,e=0}");
	CHECK("a = 9223372036854775807\nb = -9223372036854775808\nc = 0x7FFFFFFFFFFFFFFF",
	      "{a=9223372036854775807,b=-9223372036854775808,c=9223372036854775807}");
	CHECK("a = 9223372036854775808", "ERR 1:5: integer '9223372036854775808' does not fit in 64 bits");
	CHECK("a = -9223372036854775809", "ERR 1:5: integer '-9223372036854775809' does not fit in 64 bits");
	CHECK("a = 0x8000000000000000", "ERR 1:5: integer '0x8000000000000000' does not fit in 64 bits");
	CHECK("a = 012", "ERR 1:5: invalid number '012' (leading zeros are not allowed)");
	CHECK("a = 1__2", "ERR 1:5: invalid number '1__2' (an underscore must be between two digits)");
	CHECK("a = _1", "ERR 1:5: invalid value '_1' (strings must be quoted)");
	CHECK("a = 1_", "ERR 1:5: invalid number '1_' (an underscore must be between two digits)");
	CHECK("a = -0x1", "ERR 1:5: hexadecimal integers cannot have a sign");
	CHECK("a = 0X1", "ERR 1:5: invalid number '0X1'");
	CHECK("a = 0o8", "ERR 1:5: invalid octal integer '0o8'");
	CHECK("a = 0b", "ERR 1:5: invalid binary integer '0b'");
	CHECK("a = 1 2", "ERR 1:7: expected end of line after the value, found '2'");
	CHECK("a = 12abc", "ERR 1:5: invalid number '12abc'");
}

static void test_floats(void **state)
{
	CHECK("a = 1.0\nb = 3.1415\nc = -0.01\nd = 5e+22\ne = 1e06\nf = -2E-2\ng = 6.626e-34",
	      "{a=f:1,b=f:3.1415000000000002,c=f:-0.01,d=f:4.9999999999999996e+22,e=f:1000000,f=f:-0.02,g=f:6.6259999999999998e-34}");
	CHECK("a = 224_617.445_991_228\nb = 1e1_0", "{a=f:224617.44599122801,b=f:10000000000}");
	CHECK("a = inf\nb = +inf\nc = -inf\nd = nan\ne = +nan\nf = -nan",
	      "{a=f:inf,b=f:inf,c=f:-inf,d=f:nan,e=f:nan,f=f:nan}");
	CHECK("a = -0.0\nb = +0.0", "{a=f:-0,b=f:0}");
	CHECK("a = 1e400\nb = 1e-400", "{a=f:inf,b=f:0}");
	CHECK("a = 0.1e-1", "{a=f:0.01}");
	CHECK("a = .5", "ERR 1:5: expected a value, found '.'");
	CHECK("a = 5.", "ERR 1:5: invalid float '5.' (a decimal point must be followed by a digit)");
	CHECK("a = 1.e5", "ERR 1:5: invalid float '1.e5' (a decimal point must be followed by a digit)");
	CHECK("a = 1e", "ERR 1:5: invalid float '1e' (an exponent needs digits)");
	CHECK("a = 1.5_", "ERR 1:5: invalid float '1.5_' (an underscore must be between two digits)");
	CHECK("a = 03.5", "ERR 1:5: invalid number '03.5' (leading zeros are not allowed)");
	CHECK("a = infinity", "ERR 1:5: invalid number 'infinity'");
	CHECK("a = NaN", "ERR 1:5: invalid value 'NaN' (strings must be quoted)");
}

static void test_bools_and_bare_words(void **state)
{
	CHECK("a = true\nb = false", "{a=true,b=false}");
	CHECK("a = True", "ERR 1:5: invalid value 'True' (strings must be quoted)");
	CHECK("a = trueish", "ERR 1:5: invalid value 'trueish' (strings must be quoted)");
	CHECK("a = hello world", "ERR 1:5: invalid value 'hello' (strings must be quoted)");
	CHECK("a =", "ERR 1:4: missing value");
	CHECK("a = # nothing", "ERR 1:5: missing value");
	CHECK("a = @", "ERR 1:5: expected a value, found '@'");
	CHECK("a = \x0c", "ERR 1:5: expected a value, found control character U+000C");
}

static void test_datetimes(void **state)
{
	CHECK("a = 1979-05-27T07:32:00Z\nb = 1979-05-27T00:32:00-07:00\nc = 1979-05-27 00:32:00.999999+01:30\nd = 1979-05-27t07:32:00z",
	      "{a=dt:1979-05-27T07:32:00Z,b=dt:1979-05-27T00:32:00-07:00,c=dt:1979-05-27T00:32:00.999999+01:30,d=dt:1979-05-27T07:32:00Z}");
	CHECK("a = 1979-05-27T07:32:00\nb = 1979-05-27\nc = 07:32:00\nd = 00:32:00.5",
	      "{a=ldt:1979-05-27T07:32:00,b=ld:1979-05-27,c=lt:07:32:00,d=lt:00:32:00.5}");
	/* fractions past nanoseconds are dropped */
	CHECK("a = 00:00:00.1234567891234", "{a=lt:00:00:00.123456789}");
	/* -00:00 is read as Z */
	CHECK("a = 2000-01-01T00:00:00-00:00", "{a=dt:2000-01-01T00:00:00Z}");
	/* a date followed by a comment, and by a space and not a time */
	CHECK("a = 1979-05-27 # birthday", "{a=ld:1979-05-27}");
	CHECK("a = [1979-05-27 , 07:32:00]", "{a=[ld:1979-05-27,lt:07:32:00]}");
	/* leap years */
	CHECK("a = 2000-02-29\nb = 2024-02-29", "{a=ld:2000-02-29,b=ld:2024-02-29}");
	CHECK("a = 1900-02-29", "ERR 1:13: day out of range for 1900-02");
	CHECK("a = 2023-02-29", "ERR 1:13: day out of range for 2023-02");
	CHECK("a = 2023-02-30", "ERR 1:13: day out of range for 2023-02");
	CHECK("a = 2023-04-31", "ERR 1:13: day out of range for 2023-04");
	CHECK("a = 2023-13-01", "ERR 1:10: month out of range (01-12)");
	CHECK("a = 2023-00-01", "ERR 1:10: month out of range (01-12)");
	CHECK("a = 24:00:00", "ERR 1:5: hour out of range (00-23)");
	CHECK("a = 23:60:00", "ERR 1:8: minute out of range (00-59)");
	/* no leap second (as Python's tomllib and Go's time) */
	CHECK("a = 23:59:60", "ERR 1:11: second out of range (00-59)");
	CHECK("a = 07:32", "ERR 1:5: invalid time (expected HH:MM:SS)");
	CHECK("a = 1979-05-27T07:32Z", "ERR 1:16: invalid time (expected HH:MM:SS)");
	CHECK("a = 1979-05-27T", "ERR 1:16: invalid time (expected HH:MM:SS)");
	CHECK("a = 1979-5-27", "ERR 1:5: invalid date (expected YYYY-MM-DD)");
	CHECK("a = 1979-05-7", "ERR 1:5: invalid date (expected YYYY-MM-DD)");
	CHECK("a = 07:32:00.", "ERR 1:13: invalid time: a decimal point must be followed by digits");
	CHECK("a = 07:32:00Z", "ERR 1:13: a local time cannot have a time offset");
	CHECK("a = 1979-05-27T07:32:00+7:00", "ERR 1:24: invalid time offset (expected Z or +HH:MM)");
	CHECK("a = 1979-05-27T07:32:00+24:00", "ERR 1:24: time offset out of range");
	CHECK("a = 1979-05-27 07:32:00 Z", "ERR 1:25: expected end of line after the value, found 'Z'");
}

static void test_datetime_fields(void **state)
{
	const char text[] = "a = 1987-07-05T17:45:56.123-05:30\nb = 10:11:12";
	struct toml_value *root = toml_parse(text, sizeof(text) - 1, err, sizeof(err));
	const struct toml_value *a, *b;
	char buf[64];

	assert_non_null(root);
	a = toml_get(root, "a");
	assert_int_equal(a->type, TOML_DATETIME);
	assert_true(toml_is_datetime(a));
	assert_int_equal(a->dt.year, 1987);
	assert_int_equal(a->dt.month, 7);
	assert_int_equal(a->dt.day, 5);
	assert_int_equal(a->dt.hour, 17);
	assert_int_equal(a->dt.minute, 45);
	assert_int_equal(a->dt.second, 56);
	assert_int_equal(a->dt.nanosecond, 123000000);
	assert_int_equal(a->dt.offset_minutes, -330);
	/* the original text is kept */
	assert_string_equal(a->u.str.s, "1987-07-05T17:45:56.123-05:30");
	assert_int_equal(a->u.str.len, strlen(a->u.str.s));
	assert_int_equal(toml_datetime_format(a, buf, sizeof(buf)), 29);
	assert_string_equal(buf, "1987-07-05T17:45:56.123-05:30");
	/* a short buffer is truncated, the length is the full one */
	assert_int_equal(toml_datetime_format(a, buf, 5), 29);
	assert_string_equal(buf, "1987");
	b = toml_get(root, "b");
	assert_int_equal(b->type, TOML_TIME_LOCAL);
	assert_int_equal(b->dt.year, 0);
	assert_int_equal(b->dt.hour, 10);
	assert_int_equal(toml_datetime_format(root, buf, sizeof(buf)), -1);
	assert_false(toml_is_datetime(root));
	assert_false(toml_is_datetime(NULL));
	toml_free(root);
}

static void test_arrays(void **state)
{
	CHECK("a = []\nb = [ ]\nc = [1]\nd = [1,2,]\ne = [ [1, 2], ['a', \"b\"] ]",
	      "{a=[],b=[],c=[1],d=[1,2],e=[[1,2],['a','b']]}");
	/* mixed types are fine in TOML 1.0 */
	CHECK("a = [1, 'two', 3.0, true, 1979-05-27, {x = 1}, []]",
	      "{a=[1,'two',f:3,true,ld:1979-05-27,{x=1},[]]}");
	/* newlines and comments anywhere between values */
	CHECK("a = [ # first\n  1, # one\n\n  2 # two\n  , # comma\n]\n", "{a=[1,2]}");
	CHECK("a = [\r\n1,\r\n2\r\n]", "{a=[1,2]}");
	CHECK("a = [1 2]", "ERR 1:8: expected ',' or ']' in array, found '2'");
	CHECK("a = [1,,2]", "ERR 1:8: expected a value, found ','");
	CHECK("a = [,]", "ERR 1:6: expected a value, found ','");
	CHECK("a = [1, 2", "ERR 1:5: unterminated array (missing ']')");
	CHECK("a = [1,\n", "ERR 1:5: unterminated array (missing ']')");
	CHECK("a = [1 # c\x01\n]", "ERR 1:11: control character U+0001 not allowed in comment");
}

static void test_inline_tables(void **state)
{
	CHECK("a = {}\nb = { x = 1, y.z = 'w' }\nc = {d = {e = [1]}}",
	      "{a={},b={x=1,y={z='w'}},c={d={e=[1]}}}");
	CHECK("a = {x=1,y=2}", "{a={x=1,y=2}}");
	CHECK("a = {x = 1,}", "ERR 1:12: trailing comma not allowed in an inline table");
	CHECK("a = {x = 1\n}", "ERR 1:11: inline table must be closed on the same line (missing '}')");
	CHECK("a = {\nx = 1}", "ERR 1:6: inline table must be closed on the same line (missing '}')");
	CHECK("a = {x = 1 y = 2}", "ERR 1:12: expected ',' or '}' in inline table, found 'y'");
	CHECK("a = {x = 1, x = 2}", "ERR 1:13: duplicate key 'x' (first defined at 1:6)");
	CHECK("a = {x.y = 1, x = 2}", "ERR 1:15: duplicate key 'x' (first defined at 1:6)");
	CHECK("a = {x = {y = 1}, x.z = 2}", "ERR 1:19: cannot add to inline table 'x' defined at 1:10");
	/* inline tables are immutable */
	CHECK("a = {x = 1}\n[a]", "ERR 2:2: table 'a' is already defined at 1:5 (as an inline table)");
	CHECK("a = {x = 1}\n[a.y]", "ERR 2:2: cannot add to inline table 'a' defined at 1:5");
	CHECK("a = {x = 1}\na.y = 2", "ERR 2:1: cannot add to inline table 'a' defined at 1:5");
	CHECK("a = {x = {}}\n[[a.x.y]]", "ERR 2:3: cannot add to inline table 'a' defined at 1:5");
	/* multi-line values inside an inline table are fine */
	CHECK("a = { s = \"\"\"\nx\"\"\", l = [\n1] }", "{a={s='x',l=[1]}}");
}

static void test_tables(void **state)
{
	CHECK("[a]\nx = 1\n[b]\ny = 2\n[a.c]\nz = 3", "{a={x=1,c={z=3}},b={y=2}}");
	CHECK("[ a . \"b c\" . 'd' ]\nx = 1", "{a={\"b c\"={d={x=1}}}}");
	CHECK("[a.b.c]\n[a]\nx = 1", "{a={b={c={}},x=1}}");
	CHECK("[a]\n[a.b]\n[a.b.c]", "{a={b={c={}}}}");
	/* dotted keys */
	CHECK("a.b.c = 1\na.b.d = 2\na.e = 3", "{a={b={c=1,d=2},e=3}}");
	CHECK("[t]\na.b = 1\n[t.a.c]\nx = 2", "{t={a={b=1,c={x=2}}}}");
	/* TOML 1.0 spec examples */
	CHECK("[fruit]\napple.color = 'red'\napple.taste.sweet = true\n[fruit.apple.texture]\nsmooth = true",
	      "{fruit={apple={color='red',taste={sweet=true},texture={smooth=true}}}}");
	CHECK("[fruit]\napple.color = 'red'\n[fruit.apple]",
	      "ERR 3:8: table 'fruit.apple' is already defined at 2:1 (by dotted keys)");
	CHECK("[fruit]\napple.taste.sweet = true\n[fruit.apple.taste]",
	      "ERR 3:14: table 'fruit.apple.taste' is already defined at 2:7 (by dotted keys)");
	/* a table defined twice */
	CHECK("[a]\n[a]", "ERR 2:2: table 'a' is already defined at 1:1");
	CHECK("[a]\nb = 1\n[a.b]", "ERR 3:4: cannot define table 'a.b': it is already an integer defined at 2:1");
	CHECK("a = 1\n[a]", "ERR 2:2: cannot define table 'a': it is already an integer defined at 1:1");
	CHECK("a.b = 1\n[a]", "ERR 2:2: table 'a' is already defined at 1:1 (by dotted keys)");
	/* dotted keys may not add to a table defined by a header */
	CHECK("[a.b.c]\nz = 9\n[a]\nb.c.t = 1",
	      "ERR 4:3: cannot add to table 'b.c' with dotted keys: it is defined by a table header at 1:1");
	/* but may extend an implicitly created one, which is then defined */
	CHECK("[a.b.c]\n[a]\nb.d = 1", "{a={b={c={},d=1}}}");
	CHECK("[a.b.c]\n[a]\nb.d = 1\n[a.b]", "ERR 4:4: table 'a.b' is already defined at 1:4 (by dotted keys)");
	CHECK("a.b = 1\na.b.c = 2", "ERR 2:3: cannot use key 'a.b' as a table: it is an integer defined at 1:3");
	CHECK("a = 'x'\na.b = 2", "ERR 2:1: cannot use key 'a' as a table: it is a string defined at 1:1");
	CHECK("a = 1\na = 2", "ERR 2:1: duplicate key 'a' (first defined at 1:1)");
	CHECK("a.b = 1\na.b = 2", "ERR 2:3: duplicate key 'a.b' (first defined at 1:3)");
	CHECK("a = 1\n\"a\" = 2", "ERR 2:1: duplicate key 'a' (first defined at 1:1)");
	/* header syntax */
	CHECK("[]", "ERR 1:2: expected a key, found ']'");
	CHECK("[a", "ERR 1:3: expected ']' to close the table header, found end of file");
	CHECK("[a]]", "ERR 1:4: expected end of line after the table header, found ']'");
	CHECK("[a] x = 1", "ERR 1:5: expected end of line after the table header, found 'x'");
	CHECK("[a.]", "ERR 1:4: expected a key, found ']'");
	CHECK("[a b]", "ERR 1:4: expected ']' to close the table header, found 'b'");
	CHECK("[\"\"\"a\"\"\"]", "ERR 1:2: a key cannot be a multi-line string");
	CHECK("[a] # comment\nx = 1", "{a={x=1}}");
}

static void test_arrays_of_tables(void **state)
{
	CHECK("[[a]]\nx = 1\n[[a]]\n[[a]]\nx = 3", "{a=[{x=1},{},{x=3}]}");
	CHECK("[[fruit]]\nname = 'apple'\n[fruit.physical]\ncolor = 'red'\n[[fruit.variety]]\nname = 'red delicious'\n"
	      "[[fruit.variety]]\nname = 'granny smith'\n[[fruit]]\nname = 'banana'\n[[fruit.variety]]\nname = 'plantain'",
	      "{fruit=[{name='apple',physical={color='red'},variety=[{name='red delicious'},{name='granny smith'}]},{name='banana',variety=[{name='plantain'}]}]}");
	/* each element is a fresh table for headers and dotted keys */
	CHECK("[[a]]\n[a.b]\n[[a]]\n[a.b]\nc.d = 1", "{a=[{b={}},{b={c={d=1}}}]}");
	CHECK("[[a.b]]\n[a]\nc = 1", "{a={b=[{}],c=1}}");
	CHECK("a = []\n[[a]]", "ERR 2:3: cannot append to static array 'a' defined at 1:1");
	CHECK("a = [{}]\n[a.b]", "ERR 2:2: cannot use key 'a' as a table: it is an array defined at 1:1");
	CHECK("[a]\n[[a]]", "ERR 2:3: cannot define array of tables 'a': it is already a table defined at 1:1");
	CHECK("[[a]]\n[a]", "ERR 2:2: cannot define table 'a': it is already an array defined at 1:3");
	CHECK("[[a.b]]\n[[a]]", "ERR 2:3: cannot define array of tables 'a': it is already a table defined at 1:3");
	CHECK("[[a]]\nb.c = 1\n[a.b]", "ERR 3:4: table 'a.b' is already defined at 2:1 (by dotted keys)");
	CHECK("[[a]", "ERR 1:5: expected ']]' to close the array of tables header, found end of file");
	CHECK("[[a] ]", "ERR 1:5: expected ']]' to close the array of tables header, found ' '");
	CHECK("[[]]", "ERR 1:3: expected a key, found ']'");
	CHECK("[ [a]]", "ERR 1:3: expected a key, found '['");
}

static void test_keys(void **state)
{
	CHECK("a.\"b.c\".'d' = 1", "{a={\"b.c\"={d=1}}}");
	CHECK("a . b = 1", "{a={b=1}}");
	CHECK("3.14159 = 'pi'", "{3={14159='pi'}}");
	CHECK("\"\\u0000\" = 1\n\"a\\tb\" = 2", "{\"\\x00\"=1,\"a\\x09b\"=2}");
	CHECK("= 1", "ERR 1:1: expected a key, found '='");
	CHECK("a", "ERR 1:2: key 'a' has no value (expected '=')");
	CHECK("a\nb = 1", "ERR 1:2: key 'a' has no value (expected '=')");
	CHECK("a b = 1", "ERR 1:3: expected '=' after key 'a', found 'b'");
	CHECK("a.= 1", "ERR 1:3: expected a key, found '='");
	CHECK(".a = 1", "ERR 1:1: expected a key, found '.'");
	CHECK("a..b = 1", "ERR 1:3: expected a key, found '.'");
	CHECK("\xC3\xA9 = 1", "ERR 1:1: expected a key, found '\xC3\xA9'");
	CHECK("\"\"\"a\"\"\" = 1", "ERR 1:1: a key cannot be a multi-line string");
	CHECK("a = 1 = 2", "ERR 1:7: expected end of line after the value, found '='");
	CHECK("\"a\nb\" = 1", "ERR 1:1: unterminated string (a single-line string cannot span lines)");
	CHECK("\"a b\".c d = 1", "ERR 1:9: expected '=' after key '\"a b\".c', found 'd'");
}

static void test_control_and_encoding(void **state)
{
	CHECKN("a = 1\r", "ERR 1:6: carriage return not followed by a newline");
	CHECKN("a = 1 # x\ry\n", "ERR 1:10: carriage return not followed by a newline in comment");
	CHECKN("a = 1\0", "ERR 1:6: expected end of line after the value, found control character U+0000");
	CHECKN("# \xff\n", "ERR 1:3: invalid UTF-8 byte 0xFF in comment");
	CHECKN("# \xe2\x82\n", "ERR 1:3: invalid UTF-8 byte 0xE2 in comment");
	CHECKN("# caf\xc3\xa9 \t ok\na = 1", "{a=1}");
	CHECKN("\xff", "ERR 1:1: expected a key, found invalid UTF-8 byte 0xFF");
	CHECKN("a = 1\x7f", "ERR 1:6: expected end of line after the value, found control character U+007F");
	CHECKN("\ta\t=\t1\t", "{a=1}");
	CHECKN("\x0b", "ERR 1:1: expected a key, found control character U+000B");
}

/* Lines and columns of values, keys, headers, with CRLF and UTF-8. */
static void test_positions(void **state)
{
	const char text[] =
		"# x\r\n"
		"title = \"caf\xC3\xA9\"  \r\n"          /* line 2 */
		"\"\xC3\xA9t\xC3\xA9\" = 1\n"            /* line 3: key of 3 characters */
		"  [server . main]\n"                     /* line 4 */
		"  port.number = [ 1,\n"                  /* line 5 */
		"     2 ]\n"                              /* line 6 */
		"[[jobs]]\n"                              /* line 7 */
		"[[jobs]]\n"                              /* line 8 */
		"x = { y = 1979-05-27 }\n";               /* line 9 */
	struct toml_value *root = toml_parse(text, sizeof(text) - 1, err, sizeof(err));
	const struct toml_value *v, *t;

	assert_non_null(root);
	assert_int_equal(root->line, 1);
	assert_int_equal(root->col, 1);
	v = toml_get(root, "title");
	assert_int_equal(v->kline, 2);
	assert_int_equal(v->kcol, 1);
	assert_int_equal(v->line, 2);
	assert_int_equal(v->col, 9);
	v = toml_get(root, "\xC3\xA9t\xC3\xA9");
	assert_int_equal(v->kline, 3);
	assert_int_equal(v->kcol, 1);
	assert_int_equal(v->col, 9);   /* columns count characters, not bytes */
	t = toml_get(root, "server");
	assert_int_equal(t->type, TOML_TABLE);
	assert_int_equal(t->line, 4);     /* implicit: where its key is */
	assert_int_equal(t->col, 4);
	t = toml_get(t, "main");
	assert_int_equal(t->line, 4);     /* the header starts at '[' */
	assert_int_equal(t->col, 3);
	assert_int_equal(t->kline, 4);
	assert_int_equal(t->kcol, 13);
	v = toml_get(toml_get(t, "port"), "number");
	assert_int_equal(v->type, TOML_ARRAY);
	assert_int_equal(v->kline, 5);
	assert_int_equal(v->kcol, 8);
	assert_int_equal(v->line, 5);
	assert_int_equal(v->col, 17);
	assert_int_equal(v->u.arr.items[0]->line, 5);
	assert_int_equal(v->u.arr.items[0]->col, 19);
	assert_int_equal(v->u.arr.items[1]->line, 6);
	assert_int_equal(v->u.arr.items[1]->col, 6);
	t = toml_get(toml_get(root, "server"), "main");
	v = toml_get(t, "port");
	assert_int_equal(v->line, 5);     /* dotted: where its key is */
	assert_int_equal(v->col, 3);
	v = toml_get(root, "jobs");
	assert_int_equal(v->u.arr.n, 2);
	assert_int_equal(v->line, 7);
	assert_int_equal(v->kcol, 3);
	assert_int_equal(v->u.arr.items[1]->line, 8);
	assert_int_equal(v->u.arr.items[1]->col, 1);
	v = toml_get(toml_get(toml_get(root, "jobs")->u.arr.items[1], "x"), "y");
	assert_int_equal(v->type, TOML_DATE_LOCAL);
	assert_int_equal(v->line, 9);
	assert_int_equal(v->col, 11);
	assert_int_equal(v->kcol, 7);
	toml_free(root);

	/* an error far into a long line, and after a multi-line string */
	CHECK("a = \"\"\"\n\n\"\"\"\nb = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12 x]",
	      "ERR 4:44: expected ',' or ']' in array, found 'x'");
	CHECK("a = \"\xC3\xA9\xC3\xA9\" x", "ERR 1:10: expected end of line after the value, found 'x'");
}

/* Tables with many keys use a hash index: lookups and duplicates still work. */
static void test_big_table(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	struct toml_value *root;
	char key[32];

	for (int i = 0; i < 5000; i++)
		strbuf_addf(&sb, "k%d = %d\n", i, i);
	strbuf_addstr(&sb, "[t]\n");
	for (int i = 0; i < 100; i++)
		strbuf_addf(&sb, "\"x.%d\" = %d\n", i, i);
	root = toml_parse(sb.buf, sb.len, err, sizeof(err));
	assert_non_null(root);
	assert_int_equal(root->u.tab.n, 5001);
	for (int i = 0; i < 5000; i += 7) {
		snprintf(key, sizeof(key), "k%d", i);
		assert_int_equal(toml_get(root, key)->u.i, i);
		/* document order is kept */
		assert_string_equal(root->u.tab.kv[i].key, key);
	}
	assert_null(toml_get(root, "k5000"));
	assert_int_equal(toml_get(toml_get(root, "t"), "x.99")->u.i, 99);
	assert_null(toml_get(root, "x.99"));
	toml_free(root);

	strbuf_addstr(&sb, "\"x.50\" = 0\n");
	root = toml_parse(sb.buf, sb.len, err, sizeof(err));
	assert_null(root);
	assert_string_equal(err, "5102:1: duplicate key '\"x.50\"' (first defined at 5052:1)");
	strbuf_release(&sb);
}

static void test_limits(void **state)
{
	struct strbuf sb = STRBUF_INIT;

	/* nesting is bounded: no stack overflow */
	strbuf_addstr(&sb, "a = ");
	strbuf_addchars(&sb, '[', 100000);
	assert_string_equal(parse(sb.buf), "ERR 1:517: values nested too deeply (limit 512)");
	strbuf_reset(&sb);
	strbuf_addstr(&sb, "a = ");
	for (int i = 0; i < 1000; i++)
		strbuf_addstr(&sb, "{b=");
	assert_string_equal(parse(sb.buf), "ERR 1:771: key nested too deeply (limit 512)");
	strbuf_reset(&sb);
	strbuf_addstr(&sb, "a");
	for (int i = 0; i < 1000; i++)
		strbuf_addstr(&sb, ".a");
	strbuf_addstr(&sb, " = 1");
	assert_string_equal(parse(sb.buf), "ERR 1:1025: key has too many parts (limit 512)");
	/* deep but allowed */
	strbuf_reset(&sb);
	strbuf_addstr(&sb, "a = ");
	strbuf_addchars(&sb, '[', 300);
	strbuf_addchars(&sb, ']', 300);
	assert_memory_equal(parse(sb.buf), "{a=[[[", 6);
	strbuf_release(&sb);
}

/* parse() with limits */
static const char *parse_lim(const char *text, size_t values, size_t items, const char *hint)
{
	struct toml_limits lim = { values, items, hint };
	struct toml_value *root = toml_parse_limited(text, strlen(text), &lim, err, sizeof(err));

	strbuf_reset(&out);
	if (!root) {
		strbuf_addf(&out, "ERR %s", err);
		return out.buf;
	}
	dump(&out, root);
	toml_free(root);
	return out.buf;
}

/* toml_parse_limited stops at the value beyond a limit, wherever it is */
static void test_parse_limits(void **state)
{
	/* the root table and a, b: three values */
	assert_string_equal(parse_lim("a = 1\nb = 2\n", 3, 0, NULL), "{a=1,b=2}");
	assert_string_equal(parse_lim("a = 1\nb = 2\nc = 3\n", 3, 0, "why"),
			    "ERR 3:5: more than 3 values in the document (why)");
	assert_string_equal(parse_lim("a = [1, 2, 3]\n", 4, 0, NULL),
			    "ERR 1:12: more than 4 values in the document");
	assert_string_equal(parse_lim("[x]\n[y]\n[z]\n", 3, 0, NULL),
			    "ERR 3:1: more than 3 values in the document");
	/* items of one array, inline or of tables */
	assert_string_equal(parse_lim("a = [1, 2]\nb = [3, 4]\n", 0, 2, NULL), "{a=[1,2],b=[3,4]}");
	assert_string_equal(parse_lim("a = [1, 2, 3]\n", 0, 2, NULL),
			    "ERR 1:12: more than 2 entries in an array");
	assert_string_equal(parse_lim("[[t.u]]\n[[t.u]]\n[[t.u]]\n", 0, 2, "h"),
			    "ERR 3:1: more than 2 entries in array 't.u' (h)");
	assert_string_equal(parse_lim("[[t]]\n[[t]]\n", 0, 2, NULL), "{t=[{},{}]}");
	/* no limits: as toml_parse */
	assert_string_equal(parse_lim("a = [1, 2, 3]\n", 0, 0, NULL), "{a=[1,2,3]}");
}

static void test_api(void **state)
{
	struct toml_value *root;
	char small[12];

	assert_null(toml_parse("a = ", 4, NULL, 0));   /* no buffer is fine */
	assert_null(toml_parse("a = ", 4, small, sizeof(small)));
	assert_string_equal(small, "1:5: missin");   /* truncated, terminated */
	root = toml_parse("a = 1\nb = 'x'\n[c]", 17, err, sizeof(err));
	assert_non_null(root);
	assert_int_equal(toml_get(root, "a")->type, TOML_INTEGER);
	assert_null(toml_get(root, "z"));
	assert_null(toml_get(toml_get(root, "a"), "x"));   /* not a table */
	assert_null(toml_get(NULL, "a"));
	assert_string_equal(toml_get(root, "b")->u.str.s, "x");
	assert_int_equal(toml_get(root, "b")->u.str.len, 1);
	toml_free(root);
	toml_free(NULL);
	/* text need not be NUL terminated */
	assert_string_equal(parse_n("a = 12345", 6), "{a=12}");
	assert_string_equal(parse_n("abc = 1", 2), "ERR 1:3: key 'ab' has no value (expected '=')");
	assert_string_equal(parse_n("d = 1979-05-27X", 14), "{d=ld:1979-05-27}");
	assert_string_equal(toml_type_name(TOML_STRING), "string");
	assert_string_equal(toml_type_name(TOML_INTEGER), "integer");
	assert_string_equal(toml_type_name(TOML_FLOAT), "float");
	assert_string_equal(toml_type_name(TOML_BOOL), "boolean");
	assert_string_equal(toml_type_name(TOML_DATETIME), "offset date-time");
	assert_string_equal(toml_type_name(TOML_DATETIME_LOCAL), "local date-time");
	assert_string_equal(toml_type_name(TOML_DATE_LOCAL), "local date");
	assert_string_equal(toml_type_name(TOML_TIME_LOCAL), "local time");
	assert_string_equal(toml_type_name(TOML_ARRAY), "array");
	assert_string_equal(toml_type_name(TOML_TABLE), "table");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_basics),
		cmocka_unit_test(test_strings),
		cmocka_unit_test(test_integers),
		cmocka_unit_test(test_floats),
		cmocka_unit_test(test_bools_and_bare_words),
		cmocka_unit_test(test_datetimes),
		cmocka_unit_test(test_datetime_fields),
		cmocka_unit_test(test_arrays),
		cmocka_unit_test(test_inline_tables),
		cmocka_unit_test(test_tables),
		cmocka_unit_test(test_arrays_of_tables),
		cmocka_unit_test(test_keys),
		cmocka_unit_test(test_control_and_encoding),
		cmocka_unit_test(test_positions),
		cmocka_unit_test(test_big_table),
		cmocka_unit_test(test_limits),
		cmocka_unit_test(test_parse_limits),
		cmocka_unit_test(test_api),
	};
	int rc = cmocka_run_group_tests(tests, NULL, NULL);

	strbuf_release(&out);
	return rc;
}
