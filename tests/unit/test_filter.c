/*
 * Unit tests for src/sys/filter.c: every -e trace= form selects exactly
 * what strace traces (strace runs this binary in a mode that makes every
 * syscall), bad sets fail with strace's wording, and status= masks.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "unit/strace_oracle.h"
#include "core/tracer.h"
#include "sys/filter.h"
#include "util/error.h"

#include "util/banned.h"

static char last_error[1024];

static void capture(const char *kind, const char *msg)
{
	snprintf(last_error, sizeof(last_error), "%s", msg);
}

static int setup(void **state)
{
	error_set_hook(capture);
	return 0;
}

static bool has(const struct trace_filter *f, const char *name)
{
	long nr = sysent_lookup(name);
	assert_true(nr >= 0);
	return trace_set_has(f->set, nr);
}

/* Names of the rows the filter selects, compared with strace's choice. */
static int compare_with_strace(const char *expr, const char *out)
{
	struct trace_filter f;
	char line[4096];
	uint8_t *seen = calloc(sysent_count, 1);
	int failures = 0;
	FILE *fp;

	filter_init(&f);
	last_error[0] = '\0';
	if (filter_qualifier(&f, expr) != 0) {
		print_error("-e %s: we fail: %s\n", expr, last_error);
		failures++;
		goto out;
	}
	int rc = oracle_run(expr, "all", out, NULL);
	if (rc == 127) {
		failures = -1;
		goto out;
	}
	if (rc != 0) {
		print_error("-e %s: strace exits %d\n", expr, rc);
		failures++;
		goto out;
	}
	fp = fopen(out, "r");
	assert_non_null(fp);
	while (fgets(line, sizeof(line), fp)) {
		size_t len = strspn(line, "abcdefghijklmnopqrstuvwxyz0123456789_");
		if (!len || line[len] != '(' || !strncmp(line, "syscall_0x", 10))
			continue;
		line[len] = '\0';
		long nr = sysent_lookup(line);
		if (nr < 0 || seen[nr]++)
			continue;
		if (!trace_set_has(f.set, nr)) {
			print_error("-e %s: strace traces %s, we do not\n", expr, line);
			failures++;
		}
	}
	fclose(fp);
	for (unsigned i = 0; i < sysent_count; i++) {
		const char *name = sysent_table[i].name;
		if (name && !seen[i] && !oracle_unsafe(name) && trace_set_has(f.set, i)) {
			print_error("-e %s: we trace %s, strace does not\n", expr, name);
			failures++;
		}
	}
out:
	filter_release(&f);
	free(seen);
	return failures;
}

static void test_sets_vs_strace(void **state)
{
	static const char *const exprs[] = {
		"trace=openat", "trace=openat,close", "trace=!openat", "trace=!!openat",
		"trace=%file", "trace=!%file", "trace=%net", "trace=%network", "trace=file",
		"trace=desc", "trace=network", "trace=process", "trace=memory",
		"trace=signal", "trace=ipc", "trace=%creds,%clock,%pure",
		"trace=%stat,%lstat,%fstat", "trace=%%stat,%%statfs", "trace=%statfs,%fstatfs",
		"trace=/^(open|close)$", "trace=/stat", "trace=!/stat", "trace=?/nomatchxyz",
		"trace=/.*", "trace=3", "trace=03", "trace=?3000", "trace=?opnat,close",
		"trace=?", "trace=?!openat", "trace=!?opnat", "trace=all", "trace=!all",
		"trace=none", "trace=!none", "trace=openat,all", "trace=%desc,", "trace=,openat",
		"trace=%memory,openat,3", "trace=stat64,openat", "trace=?%foo",
		"t=openat", "openat", "openat,read", "!%process",
	};
	char *out = oracle_tmpfile("sets");
	int failures = 0;

	for (size_t i = 0; i < sizeof(exprs) / sizeof(exprs[0]); i++) {
		int r = compare_with_strace(exprs[i], out);
		if (r < 0) {
			free(out);
			skip();
		}
		failures += r;
	}
	unlink(out);
	free(out);
	assert_int_equal(failures, 0);
}

/* A bad set: our message is strace's, without its "strace: " prefix. */
static void test_errors_vs_strace(void **state)
{
	char big[32];
	snprintf(big, sizeof(big), "trace=%u", sysent_count);
	const char *const exprs[] = {
		"trace=opnat", "trace=%foo", "trace=", "trace=!", "trace=,", big,
		"trace=3x", "trace=-1", "trace=0x2", "trace=openat,!close", "foo=bar",
		"trace=net", "trace=creds", "trace=OPENAT", "trace=/nomatchxyz",
		"trace=/OPEN", "trace=/open/", "trace=openat,none", "trace=%NETWORK",
		"trace= openat", "trace=%stat64", "status=foo", "status=", "status=!",
		"status=,", "status=failed,!successful", "status=?foo",
	};
	char *out = oracle_tmpfile("errors-out"), *err = oracle_tmpfile("errors-err");
	int failures = 0;

	for (size_t i = 0; i < sizeof(exprs) / sizeof(exprs[0]); i++) {
		struct trace_filter f;
		char line[1024] = "";
		FILE *fp;

		filter_init(&f);
		last_error[0] = '\0';
		int ours = filter_qualifier(&f, exprs[i]);
		filter_release(&f);
		int rc = oracle_run(exprs[i], "all", out, err);
		if (rc == 127)
			skip();
		fp = fopen(err, "r");
		if (fp) {
			if (!fgets(line, sizeof(line), fp))
				line[0] = '\0';
			fclose(fp);
		}
		line[strcspn(line, "\n")] = '\0';
		const char *want = !strncmp(line, "strace: ", 8) ? line + 8 : line;
		if (ours != -1 || rc == 0 || strcmp(last_error, want)) {
			print_error("-e %s: strace exits %d with '%s'; we return %d with '%s'\n",
				    exprs[i], rc, want, ours, last_error);
			failures++;
		}
	}
	unlink(out);
	unlink(err);
	free(out);
	free(err);
	assert_int_equal(failures, 0);
}

static void test_regex_error(void **state)
{
	struct trace_filter f;

	filter_init(&f);
	assert_int_equal(filter_trace(&f, "/["), -1);
	assert_true(!strncmp(last_error, "invalid regular expression '/[': ", 33));
	assert_int_equal(filter_trace(&f, "?/["), -1);
	assert_true(!strncmp(last_error, "invalid regular expression '?/[': ", 34));
	assert_int_equal(filter_trace(&f, "openat,/(a"), -1);
	assert_true(!strncmp(last_error, "invalid regular expression '/(a': ", 34));
	filter_release(&f);
}

static void test_set_shape(void **state)
{
	struct trace_filter f;
	long hole = -1;

	for (unsigned i = 0; i < sysent_count && hole < 0; i++)
		if (!sysent_table[i].name)
			hole = i;
	filter_init(&f);
	assert_true(f.all);
	assert_null(filter_trace_set(&f));
	assert_int_equal(f.status_mask, STATUS_ALL);

	assert_int_equal(filter_trace(&f, "openat"), 0);
	assert_false(f.all);
	assert_ptr_equal(filter_trace_set(&f), f.set);
	assert_true(has(&f, "openat"));
	assert_false(has(&f, "close"));
	/* numbers without a row are always traced, as strace does */
	if (hole >= 0)
		assert_true(trace_set_has(f.set, hole));
	assert_true(trace_set_has(f.set, sysent_count));
	assert_true(trace_set_has(f.set, 100000));
	assert_true(trace_set_has(NULL, SYS_read));

	/* a later trace= replaces the earlier one */
	assert_int_equal(filter_qualifier(&f, "trace=close"), 0);
	assert_true(has(&f, "close"));
	assert_false(has(&f, "openat"));
	assert_int_equal(filter_qualifier(&f, "trace=!close"), 0);
	assert_false(has(&f, "close"));
	assert_true(has(&f, "openat"));

	assert_int_equal(filter_trace(&f, "none"), 0);
	assert_false(f.all);
	assert_false(has(&f, "read"));
	if (hole >= 0)
		assert_true(trace_set_has(f.set, hole));
	assert_int_equal(filter_trace(&f, "!none"), 0);
	assert_true(f.all);
	assert_int_equal(filter_trace(&f, "/.*"), 0);
	assert_true(f.all);
	assert_int_equal(filter_trace(&f, "%file,!openat"), -1);
	assert_string_equal(last_error, "invalid system call '!openat'");
	filter_release(&f);
	assert_null(f.set);
}

static void test_status(void **state)
{
	static const struct { const char *spec; unsigned mask; } cases[] = {
		{ "successful", STATUS_SUCCESSFUL },
		{ "failed", STATUS_FAILED },
		{ "FAILED", STATUS_FAILED },
		{ "failed,", STATUS_FAILED },
		{ ",failed,,unfinished", STATUS_FAILED | STATUS_UNFINISHED },
		{ "unavailable,detached", STATUS_UNAVAILABLE | STATUS_DETACHED },
		{ "successful,failed,unfinished,unavailable,detached", STATUS_ALL },
		{ "!failed", STATUS_ALL & ~STATUS_FAILED },
		{ "!!failed", STATUS_FAILED },
		{ "all", STATUS_ALL },
		{ "!none", STATUS_ALL },
		{ "none", STATUS_NONE },
		{ "!all", STATUS_NONE },
		{ "!successful,failed,unfinished,unavailable,detached", STATUS_NONE },
	};
	struct trace_filter f;

	filter_init(&f);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		assert_int_equal(filter_status(&f, cases[i].spec), 0);
		if (f.status_mask != cases[i].mask)
			fail_msg("status=%s: mask %#x, want %#x", cases[i].spec, f.status_mask,
				 cases[i].mask);
	}
	assert_int_equal(filter_qualifier(&f, "status=failed"), 0);
	assert_int_equal(filter_qualifier(&f, "status=successful"), 0);
	assert_int_equal(f.status_mask, STATUS_SUCCESSFUL);
	assert_int_equal(filter_status(&f, "fail"), -1);
	assert_string_equal(last_error, "invalid status 'fail'");
	assert_true(f.all);   /* status= leaves the trace set alone */
	filter_release(&f);
}

static void test_other_qualifiers(void **state)
{
	static const char *const others[] = {
		"abbrev=none", "a=all", "verbose=all", "v=none", "raw=all", "x=read",
		"signal=none", "signals=!SIGCHLD", "s=all", "read=3", "reads=3", "r=3",
		"write=1", "writes=1", "w=1", "fault=openat", "inject=openat:error=ENOENT",
		"quiet=attach", "silent=all", "silence=all", "q=all", "decode-fds=path",
		"decode-fd=all", "decode-pids=comm", "decode-pid=all", "kvm=vcpu",
		"secontext=full", "trace-fds=3", "trace-fd=3", "fd=3", "fds=3",
	};
	struct trace_filter f;

	filter_init(&f);
	assert_int_equal(filter_trace(&f, "openat"), 0);
	for (size_t i = 0; i < sizeof(others) / sizeof(others[0]); i++) {
		assert_int_equal(filter_qualifier(&f, others[i]), 1);
		assert_true(has(&f, "openat"));
		assert_false(has(&f, "close"));
		assert_int_equal(f.status_mask, STATUS_ALL);
	}
	/* names that only start like a qualifier are trace sets */
	assert_int_equal(filter_qualifier(&f, "statu=failed"), -1);
	assert_string_equal(last_error, "invalid system call 'statu=failed'");
	assert_int_equal(filter_qualifier(&f, "traces=openat"), -1);
	filter_release(&f);
}

int main(int argc, char **argv)
{
	int rc = oracle_child(argc, argv);
	if (rc >= 0)
		return rc;
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_set_shape),
		cmocka_unit_test(test_status),
		cmocka_unit_test(test_regex_error),
		cmocka_unit_test(test_other_qualifiers),
		cmocka_unit_test(test_sets_vs_strace),
		cmocka_unit_test(test_errors_vs_strace),
	};
	return cmocka_run_group_tests(tests, setup, NULL);
}
