/*
 * Unit tests for src/util/quote.c: esc() gives one line without control
 * characters whatever the input; XML text keeps to XML 1.0's characters;
 * error() escapes what a caller forgot to.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "util/error.h"
#include "util/quote.h"
#include "util/utf8.h"
#include "util/strbuf.h"

#include "util/banned.h"

/* True when s has no byte below 0x20, no DEL and no C1 control (UTF-8). */
static int printable_line(const char *s)
{
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p < 0x20 || *p == 0x7f)
			return 0;
		if (p[0] == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f)
			return 0;
	}
	return 1;
}

static void test_esc_basic(void **state)
{
	(void)state;
	assert_string_equal(esc("plain/path.json"), "plain/path.json");
	assert_string_equal(esc("a\nrenacer: all good"), "a\\nrenacer: all good");
	assert_string_equal(esc("\033[31mred"), "\\033[31mred");
	assert_string_equal(esc("tab\there\r"), "tab\\there\\r");
	assert_string_equal(esc("back\\slash"), "back\\\\slash");
	assert_string_equal(esc("\x7f\x01"), "\\177\\001");
	assert_string_equal(esc("caf\xc3\xa9 \xe2\x9c\x93"), "caf\xc3\xa9 \xe2\x9c\x93");
	assert_string_equal(esc("bad \xff\xc3"), "bad \\377\\303");
	/* C1 CSI, line separator, right-to-left override, U+FFFE */
	assert_string_equal(esc("\xc2\x9b" "1m"), "\\u009b1m");
	assert_string_equal(esc("a\xe2\x80\xa8" "b"), "a\\u2028b");
	assert_string_equal(esc("\xe2\x80\xae" "txt"), "\\u202etxt");
	assert_string_equal(esc("\xef\xbf\xbe"), "\\ufffe");
	assert_string_equal(esc(NULL), "(null)");
	assert_string_equal(escn("ab\0cd", 5), "ab\\000cd");
}

static void test_esc_rotation_and_cut(void **state)
{
	const char *r[ESC_SLOTS];
	char *big = malloc(ESC_MAX * 3);

	(void)state;
	for (int i = 0; i < ESC_SLOTS; i++) {
		char s[8] = { 'x', (char)('0' + i), 0 };
		r[i] = esc(s);
	}
	/* every result stays valid until ESC_SLOTS more calls */
	for (int i = 0; i < ESC_SLOTS; i++) {
		char s[8] = { 'x', (char)('0' + i), 0 };
		assert_string_equal(r[i], s);
	}
	memset(big, '\n', ESC_MAX * 3 - 1);
	big[ESC_MAX * 3 - 1] = '\0';
	const char *e = esc(big);
	/* cut at ESC_MAX input bytes, each shown as two, then "..." */
	assert_int_equal(strlen(e), (size_t)ESC_MAX * 2 + 3);
	assert_true(printable_line(e));
	assert_string_equal(e + strlen(e) - 3, "...");
	free(big);
}

static void test_esc_every_byte(void **state)
{
	char in[3] = { 0 };

	(void)state;
	/* every byte pair gives a printable line that esc() leaves alone */
	for (int a = 1; a < 256; a++)
		for (int b = 0; b < 256; b++) {
			struct strbuf sb = STRBUF_INIT;

			in[0] = (char)a;
			in[1] = (char)b;
			const char *e = esc(in);
			assert_true(printable_line(e));
			assert_true(cescape_clean(e, strlen(e), CESC_KEEP_BACKSLASH));
			strbuf_add_cescaped(&sb, e, strlen(e), 0, CESC_KEEP_BACKSLASH);
			assert_string_equal(sb.buf, e);
			strbuf_release(&sb);
		}
}

static void test_keep_flags(void **state)
{
	struct strbuf sb = STRBUF_INIT;

	(void)state;
	strbuf_add_cescaped(&sb, "a\\n\nb\033", 6, 0, CESC_KEEP_BACKSLASH | CESC_KEEP_NEWLINE);
	assert_string_equal(sb.buf, "a\\n\nb\\033");
	assert_false(cescape_clean("x\ny", 3, 0));
	assert_true(cescape_clean("x\ny", 3, CESC_KEEP_NEWLINE));
	assert_false(cescape_clean("x\\y", 3, 0));
	assert_true(cescape_clean("x\\y", 3, CESC_KEEP_BACKSLASH));
	strbuf_release(&sb);
}

/* True when s holds only characters XML 1.0 allows and no markup. */
static int xml_clean(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n = strlen(s), i = 0;

	while (i < n) {
		unsigned cp;
		size_t l = utf8_seq_len(p + i, n - i, &cp);

		if (!l)
			return 0;
		if (cp < 0x20 && cp != '\t' && cp != '\n')
			return 0;
		if (cp == 0xfffe || cp == 0xffff || cp == '<' || cp == '>' || cp == '"' ||
		    cp == '\'')
			return 0;
		if (cp == '&' && strncmp(s + i, "&amp;", 5) && strncmp(s + i, "&lt;", 4) &&
		    strncmp(s + i, "&gt;", 4) && strncmp(s + i, "&quot;", 6) &&
		    strncmp(s + i, "&apos;", 6) && strncmp(s + i, "&#13;", 5))
			return 0;
		i += l;
	}
	return 1;
}

static void test_xml(void **state)
{
	static const char *const in[] = {
		"name<&>\"'", "\xef\xbf\xbe\xef\xbf\xbf", "\x01\x02\x1b[0m", "bad\xff\xfe",
		"cr\r\nlf", "\xed\xa0\x80 surrogate", "ok \xe2\x9c\x85",
	};

	(void)state;
	for (size_t i = 0; i < sizeof(in) / sizeof(in[0]); i++) {
		struct strbuf sb = STRBUF_INIT;

		strbuf_add_xml(&sb, in[i], strlen(in[i]));
		assert_true(xml_clean(sb.buf));
		strbuf_release(&sb);
	}
	{
		struct strbuf sb = STRBUF_INIT;

		strbuf_add_xml(&sb, "a<b>&\"c\"\xef\xbf\xbe", 11);
		assert_string_equal(sb.buf, "a&lt;b&gt;&amp;&quot;c&quot;\\ufffe");
		strbuf_release(&sb);
	}
}

static char hooked[512];

static void hook(const char *kind, const char *msg)
{
	(void)kind;
	snprintf(hooked, sizeof(hooked), "%s", msg);
}

static void test_error_backstop(void **state)
{
	(void)state;
	error_set_hook(hook);
	/* a caller that forgot esc(): still one line */
	error("cannot open '%s'", "x\nrenacer: all good\033[2J");
	assert_string_equal(hooked, "cannot open 'x\\nrenacer: all good\\033[2J'");
	/* a caller that used it: escapes are not doubled */
	error("cannot open '%s'", esc("x\ny\\z"));
	assert_string_equal(hooked, "cannot open 'x\\ny\\\\z'");
	warning("%s", "\xc2\x9b" "31m");
	assert_string_equal(hooked, "\\u009b31m");
	error_set_hook(NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_esc_basic),
		cmocka_unit_test(test_esc_rotation_and_cut),
		cmocka_unit_test(test_esc_every_byte),
		cmocka_unit_test(test_keep_flags),
		cmocka_unit_test(test_xml),
		cmocka_unit_test(test_error_backstop),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
