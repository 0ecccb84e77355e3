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
#include "unit/toml_tagged.h"

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
		have = tagged_json(root_v);
		if (!want) {
			printf("FAIL  %s: cannot read expected JSON: %s\n", rel, jerr.text);
			vfail++;
		} else if (tagged_compare(want, have, "", &why)) {
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
