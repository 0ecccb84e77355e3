/*
 * Unit tests for src/golden/reader.c: round trips (events -> file -> reader
 * -> file again, byte for byte), zstd input, metadata, and one clear error
 * for every kind of corrupt input in tests/data/traces/bad_*.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include <jansson.h>
#include <zstd.h>

#include "replay/reader.h"
#include "sink/sinks.h"
#include "util/error.h"
#include "util/xmalloc.h"
#include "unit/trace_fixture.h"

#include "util/banned.h"

typedef struct sink *(*mk_fn)(FILE *, const char *, const struct sink_opts *);

static struct strbuf msgs = STRBUF_INIT;
static int nmsgs;

static void hook(const char *kind, const char *msg)
{
	strbuf_addstr(&msgs, msg);
	strbuf_addch(&msgs, '\n');
	nmsgs++;
}

static void capture(void)
{
	strbuf_reset(&msgs);
	nmsgs = 0;
	error_set_hook(hook);
}

static char *data_path(const char *name)
{
	struct strbuf sb = STRBUF_INIT;
	const char *top = getenv("TOP");

	strbuf_addf(&sb, "%s/tests/data/traces/%s", top && *top ? top : ".", name);
	return strbuf_detach(&sb, NULL);
}

/* Writes the fixture with mk into a new file named name; returns its path. */
static char *write_fixture(mk_fn mk, const char *name)
{
	struct sink_list l = SINK_LIST_INIT;
	char *path = fx_path(name);

	sink_list_add(&l, mk(stdout, path, NULL));
	assert_int_equal(fx_run(&l), 0);
	sink_list_release(&l);
	return path;
}

/* Reads in through the reader into a new file written by mk. */
static char *replay(const char *in, mk_fn mk, const char *name, struct trace_meta *meta)
{
	struct sink_list l = SINK_LIST_INIT;
	char *path = fx_path(name);
	int missing = -1;

	sink_list_add(&l, mk(stdout, path, NULL));
	capture();
	if (trace_read(in, &l, meta, &missing) != 0)
		fail_msg("trace_read(%s): %s", in, msgs.buf);
	error_set_hook(NULL);
	assert_int_equal(missing, 0);
	sink_list_release(&l);
	return path;
}

static void assert_same_file(const char *a, const char *b)
{
	char *x = fx_slurp(a), *y = fx_slurp(b);

	assert_non_null(x);
	assert_non_null(y);
	if (strcmp(x, y))
		fail_msg("%s and %s differ:\n%s\n----\n%s", a, b, x, y);
	free(x);
	free(y);
}

static void test_roundtrip_json(void **state)
{
	char *a = write_fixture(json_sink_new, "a.json");
	char *b = replay(a, json_sink_new, "b.json", NULL);
	char *c = replay(b, json_sink_new, "c.json", NULL);

	assert_same_file(a, b);
	assert_same_file(a, c);
	free(a);
	free(b);
	free(c);
}

static void test_roundtrip_jsonl(void **state)
{
	char *a = write_fixture(jsonl_sink_new, "a.jsonl");
	char *b = replay(a, jsonl_sink_new, "b.jsonl", NULL);

	assert_same_file(a, b);
	free(a);
	free(b);
}

/* The two formats carry the same facts, in an order the reader rebuilds. */
static void test_cross_formats(void **state)
{
	char *json = write_fixture(json_sink_new, "x.json");
	char *jsonl = write_fixture(jsonl_sink_new, "x.jsonl");
	char *csv = write_fixture(csv_sink_new, "x.csv");
	char *l2 = replay(json, jsonl_sink_new, "x2.jsonl", NULL);
	char *j2 = replay(jsonl, json_sink_new, "x2.json", NULL);
	char *c2 = replay(json, csv_sink_new, "x2.csv", NULL);

	assert_same_file(jsonl, l2);
	assert_same_file(json, j2);
	assert_same_file(csv, c2);
	free(json);
	free(jsonl);
	free(csv);
	free(l2);
	free(j2);
	free(c2);
}

static void compress_file(const char *in, const char *out)
{
	char *text = fx_slurp(in);
	size_t n = strlen(text), cap = ZSTD_compressBound(n), z;
	char *buf = malloc(cap);
	FILE *f;

	z = ZSTD_compress(buf, cap, text, n, 3);
	assert_false(ZSTD_isError(z));
	f = fopen(out, "w");
	assert_non_null(f);
	assert_int_equal(fwrite(buf, 1, z, f), z);
	fclose(f);
	free(buf);
	free(text);
}

/* zstd is recognised by its magic bytes, whatever the name says. */
static void test_zstd(void **state)
{
	const char *fmts[2] = { "z.json", "z.jsonl" };
	mk_fn mks[2] = { json_sink_new, jsonl_sink_new };

	for (int i = 0; i < 2; i++) {
		char *a = write_fixture(mks[i], fmts[i]);
		char *z = fx_path(i ? "z.jsonl.zst" : "plain-name.json");
		char *b;

		compress_file(a, z);
		b = replay(z, mks[i], i ? "zb.jsonl" : "zb.json", NULL);
		assert_same_file(a, b);
		free(a);
		free(b);
		free(z);
	}
}

static void test_meta(void **state)
{
	char *a = write_fixture(json_sink_new, "m.json");
	char *al = write_fixture(jsonl_sink_new, "m.jsonl");
	struct trace_meta m;
	char *b = replay(a, json_sink_new, "m2.json", &m);

	assert_string_equal(m.version, "9.9.9");
	assert_string_equal(m.command, "./prog 'arg with space' 'x\"y'");
	assert_int_equal(m.exit_code, 0);
	assert_int_equal(m.term_signal, 9);
	assert_int_equal(m.wall_ns, 5123456);
	assert_null(m.timing);
	trace_meta_release(&m);
	free(b);
	b = replay(al, json_sink_new, "m3.json", &m);
	assert_string_equal(m.version, "9.9.9");
	assert_int_equal(m.term_signal, 9);
	assert_int_equal(m.wall_ns, 5123456);
	trace_meta_release(&m);
	free(a);
	free(al);
	free(b);
}

/* Counts the events a replay delivers, by type. */
struct count_sink {
	struct sink base;
	int n[EV_DETACH + 1];
	int begun, ended;
};

static int cs_begin(struct sink *s, const struct trace_info *ti)
{
	((struct count_sink *)s)->begun++;
	return 0;
}

static void cs_event(struct sink *s, const struct event *ev)
{
	((struct count_sink *)s)->n[ev->type]++;
}

static int cs_end(struct sink *s, const struct trace_end *te)
{
	((struct count_sink *)s)->ended++;
	return 0;
}

static const struct sink_ops cs_ops = {
	.name = "count", .begin = cs_begin, .event = cs_event, .proc_exit = cs_event,
	.end = cs_end,
};

static void test_events_delivered(void **state)
{
	char *a = write_fixture(json_sink_new, "e.json");
	struct count_sink cs = { { &cs_ops } };
	struct sink_list l = SINK_LIST_INIT;

	sink_list_add(&l, &cs.base);
	assert_int_equal(trace_read(a, &l, NULL, NULL), 0);
	assert_int_equal(cs.begun, 1);
	assert_int_equal(cs.ended, 1);
	assert_int_equal(cs.n[EV_SYSCALL], 10);
	assert_int_equal(cs.n[EV_PROC_START], 2);
	assert_int_equal(cs.n[EV_PROC_EXIT], 2);
	assert_int_equal(cs.n[EV_EXEC], 1);
	assert_int_equal(cs.n[EV_SIGNAL], 1);
	free(l.items);
	free(a);
}

static void test_missing(void **state)
{
	struct sink_list l = SINK_LIST_INIT;
	char *p = fx_path("no-such.json");
	int missing = 0;
	struct strbuf want = STRBUF_INIT;

	capture();
	assert_int_equal(trace_read(p, &l, NULL, &missing), -1);
	error_set_hook(NULL);
	assert_int_equal(missing, ENOENT);
	strbuf_addf(&want, "cannot read trace '%s': No such file or directory\n", p);
	assert_string_equal(msgs.buf, want.buf);
	strbuf_release(&want);
	free(p);
}

/* Every bad file: -1, exactly one line naming the file and the position. */
static void test_corrupt(void **state)
{
	static const struct {
		const char *file;
		const char *msg;   /* what follows "cannot read trace 'PATH': " */
	} cases[] = {
		{ "bad_empty.json", "line 1 column 1: empty file" },
		{ "bad_blank.json", "line 3 column 1: empty file" },
		{ "bad_notjson.json", "line 1 column 1: '{' expected near 'abc'" },
		{ "bad_array.json", "line 1 column 1: '{' expected near '[1'" },
		{ "bad_binary.json", "line 1 column 1: '{' expected near '?" },
		{ "bad_truncated.json", "line 13 column 73: unexpected end of file\n" },
		{ "bad_truncated.jsonl", "line 10 column 1: unexpected end of file (no summary line" },
		{ "bad_cut_line.jsonl", "line 13 column 138: unexpected end of file (the last line is cut short)" },
		{ "bad_truncated.json.zst", "line 1 column 1: truncated zstd data" },
		{ "bad_wrong_format.json", "line 1 column 28: unsupported format 'strace-json' (expected renacer-json-v2 or renacer-json-v1)" },
		{ "bad_wrong_format.jsonl", "line 1 column 1: unsupported format 'renacer-json-v1' (expected renacer-jsonl-v2 or renacer-jsonl-v1)" },
		{ "bad_no_format.json", "line 1 column 1: no \"format\" field: not a renacer trace" },
		{ "bad_no_syscalls.json", "line 1 column 1: no \"syscalls\" array" },
		{ "bad_huge_int.json", "line 3 column " },
		{ "bad_huge_int.jsonl", "line 2 column " },
		{ "bad_huge_real.json", "line 3 column " },
		{ "bad_pid_range.json", "line 3 column 3: field 'pid': 99999999999 out of range" },
		{ "bad_wrong_type.json", "line 3 column 3: field 'name': string expected" },
		{ "bad_args.json", "line 3 column 3: field 'args': [name, text] pairs expected" },
		{ "bad_trailing.json", "line 2 column 1: end of file expected near '{\"x\"'" },
		{ "bad_summary_type.json", "line 1 column 58: field 'summary': object expected" },
		{ "bad_deep.json", "line 1 column 89: too deeply nested (more than 32 levels)" },
		{ "bad_deep_syscall.json", "line 1 column 74: too deeply nested (more than 32 levels)" },
		{ "bad_deep.jsonl", "line 2 column " },
	};

	int bad = 0;

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		char *p = data_path(cases[i].file);
		struct count_sink cs = { { &cs_ops } };
		struct sink_list l = SINK_LIST_INIT;
		struct strbuf want = STRBUF_INIT;
		struct trace_meta m;
		int missing = -1, r;

		sink_list_add(&l, &cs.base);
		capture();
		r = trace_read(p, &l, &m, &missing);
		error_set_hook(NULL);
		strbuf_addf(&want, "cannot read trace '%s': %s", p, cases[i].msg);
		if (r != -1 || nmsgs != 1 || strncmp(msgs.buf, want.buf, want.len) ||
		    !strchr(msgs.buf, '\n') || strchr(msgs.buf, '\n')[1]) {
			print_error("%s: returned %d with %d message(s):\n%s\nwanted: %s...\n",
				    cases[i].file, r, nmsgs, msgs.buf, want.buf);
			bad++;
		}
		assert_int_equal(missing, 0);
		assert_null(m.version);
		free(l.items);
		strbuf_release(&want);
		free(p);
	}
	assert_int_equal(bad, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_roundtrip_json),
		cmocka_unit_test(test_roundtrip_jsonl),
		cmocka_unit_test(test_cross_formats),
		cmocka_unit_test(test_zstd),
		cmocka_unit_test(test_meta),
		cmocka_unit_test(test_events_delivered),
		cmocka_unit_test(test_missing),
		cmocka_unit_test(test_corrupt),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
