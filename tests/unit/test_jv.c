/*
 * Unit tests for src/golden/jv.c, with jansson as the oracle: the same
 * inputs are accepted or refused by both, and accepted ones give the same
 * values.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include <jansson.h>

#include "replay/jv.h"
#include "util/xmalloc.h"

#include "util/banned.h"

/* Whether jv node v holds what jansson's j holds. */
static int same(const struct jv *v, json_t *j)
{
	switch (v->type) {
	case JV_NULL: return json_is_null(j);
	case JV_TRUE: return json_is_true(j);
	case JV_FALSE: return json_is_false(j);
	case JV_INT: return json_is_integer(j) && json_integer_value(j) == v->i;
	case JV_REAL: return json_is_real(j) && json_real_value(j) == v->d;
	case JV_STR:
		return json_is_string(j) && json_string_length(j) == v->n &&
		       !memcmp(json_string_value(j), v->s, v->n) && v->s[v->n] == '\0';
	case JV_ARR:
		if (!json_is_array(j) || json_array_size(j) != v->n)
			return 0;
		for (uint32_t i = 0; i < v->n; i++)
			if (!same(&v->items[i], json_array_get(j, i)))
				return 0;
		return 1;
	case JV_OBJ:
		if (!json_is_object(j))
			return 0;
		for (uint32_t i = 0; i < v->n; i++) {
			json_t *m = json_object_get(j, v->items[i].key);
			/* jansson keeps the last of duplicate keys, jv all of them */
			if (!m || (jv_get(v, v->items[i].key) == &v->items[i] && !same(&v->items[i], m)))
				return 0;
		}
		return 1;
	}
	return 0;
}

static const struct { const char *text; size_t len; } inputs[] = {
#define IN(s) { s, sizeof(s) - 1 }
	IN("0"), IN("-0"), IN("1"), IN("-1"), IN("9223372036854775807"),
	IN("-9223372036854775808"), IN("9223372036854775808"), IN("-9223372036854775809"),
	IN("99999999999999999999"), IN("1.5"), IN("-0.25e-3"), IN("1E400"), IN("-1e999"),
	IN("1e-400"), IN("01"), IN("1."), IN(".5"), IN("-"), IN("+1"), IN("1e"), IN("0x10"),
	IN("true"), IN("false"), IN("null"), IN("tru"), IN("nul"), IN("True"),
	IN("\"\""), IN("\"abc\""), IN("\"a\\\"b\\\\c\\/d\\b\\f\\n\\r\\t\""),
	IN("\"\\u0041\\u00e9\\u20ac\""), IN("\"\\ud83d\\ude00\""), IN("\"\\ud83d\""),
	IN("\"\\ude00\""), IN("\"\\ud83dx\""), IN("\"\\u12\""), IN("\"\\x41\""),
	IN("\"\\u0000x\""), IN("\"a\x01\""), IN("\"\xc3\xa9\""), IN("\"\xff\""),
	IN("\"\xc3\""), IN("\"\xe2\x82\""), IN("\"\xed\xa0\x80\""), IN("\"\xf4\x90\x80\x80\""),
	IN("\"\xc0\xaf\""), IN("\"unterminated"), IN("\"trailing\\"),
	IN("[]"), IN("[ ]"), IN("[1,2,3]"), IN("[1,]"), IN("[,1]"), IN("[1 2]"), IN("["),
	IN("[[[[[]]]]]"), IN("{}"), IN("{ }"), IN("{\"a\":1}"), IN("{\"a\":1,}"),
	IN("{\"a\" 1}"), IN("{a:1}"), IN("{\"a\":1,\"b\":[true,null,{\"c\":\"d\"}]}"),
	IN("{\"a\":1,\"a\":2}"), IN("{\"a\":"), IN("{1:2}"),
	IN(" \n\t 42 \r\n"), IN(""), IN("   "), IN("1 2"), IN("{} x"), IN("[]]"),
	IN("\"a\nb\""), IN("\x00"), IN("[\"\\u0000\"]"),
#undef IN
};

static void test_against_jansson(void **state)
{
	struct arena a = ARENA_INIT;

	for (size_t i = 0; i < ARRAY_SIZE(inputs); i++) {
		struct jv_err je;
		json_error_t e;
		struct jv *v = jv_parse(&a, inputs[i].text, inputs[i].len, 32, &je);
		json_t *j = json_loadb(inputs[i].text, inputs[i].len,
				       JSON_DECODE_ANY | JSON_ALLOW_NUL, &e);

		if (!!v != !!j)
			fail_msg("input %zu '%s': jv %s (%s), jansson %s (%s)", i, inputs[i].text,
				 v ? "accepts" : "refuses", v ? "" : je.msg,
				 j ? "accepts" : "refuses", j ? "" : e.text);
		if (v && !same(v, j))
			fail_msg("input %zu '%s': values differ", i, inputs[i].text);
		if (!v)
			assert_true(je.off <= inputs[i].len && je.msg[0]);
		json_decref(j);
		arena_reset(&a);
	}
	arena_release(&a);
}

static void test_depth_and_positions(void **state)
{
	struct arena a = ARENA_INIT;
	struct jv_err je;
	char deep[200];

	memset(deep, '[', 100);
	memset(deep + 100, ']', 100);
	assert_null(jv_parse(&a, deep, 20, 32, &je));   /* cut short */
	assert_string_equal(je.msg, "premature end of input");
	assert_null(jv_parse(&a, deep, sizeof(deep), 32, &je));
	assert_int_equal(je.off, 32);                   /* the 33rd '[' */
	assert_non_null(strstr(je.msg, "depth"));
	assert_non_null(jv_parse(&a, deep + 68, 64, 32, &je));   /* 32 levels are fine */

	assert_null(jv_parse(&a, "{\"a\": tru}", 10, 32, &je));
	assert_int_equal(je.off, 6);
	assert_string_equal(je.msg, "invalid token near 'tru'");
	assert_null(jv_parse(&a, "[1, 99999999999999999999]", 25, 32, &je));
	assert_int_equal(je.off, 4);
	assert_string_equal(je.msg, "too big integer near '99999999999999999999'");
	arena_release(&a);
}

static void test_get(void **state)
{
	struct arena a = ARENA_INIT;
	struct jv_err je;
	const char *t = "{\"name\": \"read\", \"args\": [[\"fd\", \"3\"]], \"n\": -7}";
	struct jv *v = jv_parse(&a, t, strlen(t), 32, &je);

	assert_non_null(v);
	assert_string_equal(jv_get(v, "name")->s, "read");
	assert_int_equal(jv_get(v, "n")->i, -7);
	assert_null(jv_get(v, "missing"));
	assert_null(jv_get(jv_get(v, "n"), "x"));
	assert_string_equal(jv_at(jv_at(jv_get(v, "args"), 0), 1)->s, "3");
	assert_null(jv_at(jv_get(v, "args"), 1));
	arena_release(&a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_against_jansson),
		cmocka_unit_test(test_depth_and_positions),
		cmocka_unit_test(test_get),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
