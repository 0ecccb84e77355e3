/*
 * Unit tests of the CI formats (src/golden/ci_output.c): GitHub workflow
 * commands escape %, CR and LF in data and also ':' and ',' in properties,
 * place findings on their source line; the Code Quality report is valid
 * JSON with stable fingerprints; sources split into file and line.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <jansson.h>

#include "golden/output.h"
#include "util/strbuf.h"

#include "util/banned.h"

static char *render(int (*fn)(FILE *, const struct gout_case *, size_t, const struct golden_opts *,
			      const struct gout_ci *),
		    const struct gout_case *k, size_t n, const struct gout_ci *ci)
{
	struct golden_opts o;
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);

	golden_opts_init(&o);
	assert_non_null(fp);
	assert_int_equal(fn(fp, k, n, &o, ci), 0);
	fclose(fp);
	golden_opts_release(&o);
	return buf;
}

/* A regression with a source line, a note with CR and LF in it. */
static void fill(struct gout_case *k, struct gresult *r, struct gfinding *f, struct gsource *s)
{
	memset(k, 0, sizeof(*k));
	memset(r, 0, sizeof(*r));
	memset(f, 0, 2 * sizeof(*f));
	s[0].where = (char *)"/ws/src/a,b.c:41 in flush_rows";
	s[0].golden = 5;
	s[0].current = 25;
	s[1].where = (char *)"/ws/src/old.c:7 in gone";
	s[1].golden = 3;
	s[1].current = 0;
	f[0].kind = GF_COUNT;
	f[0].regression = true;
	f[0].proc = (char *)"1";
	f[0].subject = (char *)"write";
	f[0].message = (char *)"write: 5 -> 25 calls (+400.0%)";
	f[0].detail = (char *)"+20 write from src/a,b.c:41 in flush_rows\n";
	f[0].sources = s;
	f[0].nsources = 2;
	f[1].kind = GF_NOTE;
	f[1].message = (char *)"stdout was a tty\r\nnow: a pipe";
	r->f = f;
	r->nf = 2;
	r->regression = true;
	k->name = "t%1\r\nx";
	k->golden_path = "/ws/golden_traces/t.json";
	k->status = GOLDEN_REGRESSION;
	k->r = r;
}

static void test_github(void **state)
{
	struct gout_case k;
	struct gresult r;
	struct gfinding f[2];
	struct gsource s[2];
	struct gout_ci ci = { NULL, NULL, "/ws/" };
	char *out;

	fill(&k, &r, f, s);
	out = render(gout_github, &k, 1, &ci);
	assert_non_null(strstr(out, "::group::renacer t%251%0D%0Ax: regression\n"));
	assert_non_null(strstr(out, "\n::endgroup::\n"));
	assert_non_null(strstr(out, "\n::error file=src/a%2Cb.c,line=41,title=renacer t%251%0D%0Ax%3A "
				    "count::[1] write: 5 -> 25 calls (+400.0%25)%0A+20 write from "
				    "src/a,b.c:41 in flush_rows\n"));
	assert_non_null(strstr(out, "\n::warning file=golden_traces/t.json,title=renacer t%251%0D%0Ax%3A "
				    "note::stdout was a tty%0D%0Anow: a pipe\n"));
	/* every line is a command or the report inside the group; no raw CR */
	assert_null(strchr(out, '\r'));
	for (char *p = out; *p;) {
		char *nl = strchr(p, '\n');
		assert_non_null(nl);
		if (!strncmp(p, "::", 2))
			assert_true(!strncmp(p, "::group::", 9) || !strncmp(p, "::endgroup::", 12) ||
				    !strncmp(p, "::error ", 8) || !strncmp(p, "::warning ", 10));
		p = nl + 1;
	}
	free(out);
}

static void test_github_files(void **state)
{
	static char *files[] = { (char *)"golden_traces/old.json", (char *)"golden_traces/a.json.new" };
	static char *why[] = { (char *)"a golden file that no declared trace uses",
			       (char *)"a pending update" };
	struct gout_case k;
	char *out;

	memset(&k, 0, sizeof(k));
	k.name = "golden_traces";
	k.golden_path = "golden_traces";
	k.status = GOLDEN_BAD_CONFIG;
	k.error = "2 files";
	k.files = files;
	k.files_why = why;
	k.nfiles = 2;
	out = render(gout_github, &k, 1, NULL);
	assert_non_null(strstr(out, "::error file=golden_traces/old.json,title=renacer golden_traces%3A "
				    "bad configuration::golden_traces/old.json: a golden file that no "
				    "declared trace uses\n"));
	assert_non_null(strstr(out, "::error file=golden_traces/a.json.new,title="));
	free(out);
}

static void test_codequality(void **state)
{
	struct gout_case k;
	struct gresult r;
	struct gfinding f[2];
	struct gsource s[2];
	struct gout_ci ci = { NULL, NULL, "/ws" };
	json_error_t je;
	json_t *a, *b;
	char *out, *again;

	fill(&k, &r, f, s);
	out = render(gout_codequality, &k, 1, &ci);
	a = json_loads(out, 0, &je);
	assert_non_null(a);
	assert_int_equal(json_array_size(a), 2);
	json_t *i0 = json_array_get(a, 0), *i1 = json_array_get(a, 1);
	assert_string_equal(json_string_value(json_object_get(i0, "check_name")), "renacer/count");
	assert_string_equal(json_string_value(json_object_get(i0, "severity")), "major");
	assert_string_equal(json_string_value(json_object_get(json_object_get(i0, "location"), "path")),
			    "src/a,b.c");
	assert_int_equal(json_integer_value(json_object_get(json_object_get(json_object_get(i0, "location"),
									    "lines"), "begin")), 41);
	assert_string_equal(json_string_value(json_object_get(i1, "severity")), "info");
	assert_string_equal(json_string_value(json_object_get(json_object_get(i1, "location"), "path")),
			    "golden_traces/t.json");
	assert_int_equal(strlen(json_string_value(json_object_get(i0, "fingerprint"))), 32);
	assert_string_not_equal(json_string_value(json_object_get(i0, "fingerprint")),
				json_string_value(json_object_get(i1, "fingerprint")));
	/* the same finding with other numbers keeps its fingerprint */
	f[0].message = (char *)"write: 5 -> 30 calls (+500.0%)";
	again = render(gout_codequality, &k, 1, &ci);
	b = json_loads(again, 0, &je);
	assert_string_equal(json_string_value(json_object_get(json_array_get(b, 0), "fingerprint")),
			    json_string_value(json_object_get(i0, "fingerprint")));
	json_decref(a);
	json_decref(b);
	free(out);
	free(again);
}

static void test_place(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	unsigned long line;

	assert_true(gout_source_place("src/x.c:97 in f", NULL, &sb, &line));
	assert_string_equal(sb.buf, "src/x.c");
	assert_int_equal(line, 97);
	strbuf_reset(&sb);
	assert_true(gout_source_place("/home/u/p/src/x.c:3", "/home/u/p", &sb, &line));
	assert_string_equal(sb.buf, "src/x.c");
	assert_int_equal(line, 3);
	strbuf_reset(&sb);
	assert_false(gout_source_place("in main", NULL, &sb, &line));
	assert_false(gout_source_place("prog+0x1a2b", NULL, &sb, &line));
	assert_true(gout_source_place("./lib/y.rs in g", NULL, &sb, &line));
	assert_string_equal(sb.buf, "lib/y.rs");
	assert_int_equal(line, 0);
	strbuf_release(&sb);
}

static void test_markdown(void **state)
{
	struct gout_case k;
	struct gresult r;
	struct gfinding f[2];
	struct gsource s[2];
	struct gout_ci ci = { "out/report.html", "https://ci.example/run/1", NULL };
	char *out;

	fill(&k, &r, f, s);
	k.name = "t";
	r.g_calls = 100;
	r.c_calls = 120;
	r.g_wall_ms = 2;
	r.c_wall_ms = 3;
	out = render(gout_markdown_ci, &k, 1, &ci);
	assert_non_null(strstr(out, "| t | \xe2\x9d\x8c regression | **count**: [1] write: 5 -> 25 calls "
				    "(+400.0%) at `/ws/src/a,b.c:41 in flush_rows` | 100 \xe2\x86\x92 120 "
				    "(+20%) | 2.00ms \xe2\x86\x92 3.00ms (+50%) |\n"));
	assert_non_null(strstr(out, "The whole report is `report.html` in [this run's artifacts]"
				    "(https://ci.example/run/1)"));
	free(out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_github),
		cmocka_unit_test(test_github_files),
		cmocka_unit_test(test_codequality),
		cmocka_unit_test(test_place),
		cmocka_unit_test(test_markdown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
