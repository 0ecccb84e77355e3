/*
 * Unit tests for the -c summary sink (src/sink/summary.c): the table in
 * strace 6.1's exact layout for synthetic calls of known durations, the
 * sort keys, wide columns and the --timing lines.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "sink/sinks.h"
#include "unit/trace_fixture.h"

#include "util/banned.h"

#define HEAD "% time     seconds  usecs/call     calls    errors syscall\n" \
	     "------ ----------- ----------- --------- --------- ----------------\n"
#define RULE "------ ----------- ----------- --------- --------- ----------------\n"
#define TOTAL "100.00    0.000744          93         8         1 total\n"

static char *table(const struct sink_opts *o, int (*run)(struct sink_list *))
{
	struct sink_list l = SINK_LIST_INIT;
	char *path = fx_path("summary.txt");
	char *text;

	sink_list_add(&l, summary_sink_new(stdout, path, o));
	assert_int_equal(run(&l), 0);
	sink_list_release(&l);
	text = fx_slurp(path);
	free(path);
	return text;
}

/* exit_group and the call cut short by death are not counted (as strace). */
static void test_by_time(void **state)
{
	char *t = table(NULL, fx_run);

	assert_string_equal(t, HEAD
		" 53.76    0.000400         400         1           wait4\n"
		" 40.32    0.000300         300         1           execve\n"
		"  2.69    0.000020          20         1           clone\n"
		"  1.61    0.000012          12         1         1 openat\n"
		"  1.21    0.000009           3         3           write\n"
		"  0.40    0.000003           3         1           mmap\n"
		RULE TOTAL);
	free(t);
}

static void test_sort_keys(void **state)
{
	struct sink_opts o = { 0 };
	char *t;

	o.sort = summary_sort_parse("calls");
	t = table(&o, fx_run);
	/* ties keep syscall-number order: mmap 9, clone 56, execve 59, wait4 61, openat 257 */
	assert_string_equal(t, HEAD
		"  1.21    0.000009           3         3           write\n"
		"  0.40    0.000003           3         1           mmap\n"
		"  2.69    0.000020          20         1           clone\n"
		" 40.32    0.000300         300         1           execve\n"
		" 53.76    0.000400         400         1           wait4\n"
		"  1.61    0.000012          12         1         1 openat\n"
		RULE TOTAL);
	free(t);

	o.sort = summary_sort_parse("name");
	t = table(&o, fx_run);
	assert_string_equal(t, HEAD
		"  2.69    0.000020          20         1           clone\n"
		" 40.32    0.000300         300         1           execve\n"
		"  0.40    0.000003           3         1           mmap\n"
		"  1.61    0.000012          12         1         1 openat\n"
		" 53.76    0.000400         400         1           wait4\n"
		"  1.21    0.000009           3         3           write\n"
		RULE TOTAL);
	free(t);

	o.sort = summary_sort_parse("nothing");
	t = table(&o, fx_run);
	assert_string_equal(t, HEAD
		"  1.21    0.000009           3         3           write\n"
		"  0.40    0.000003           3         1           mmap\n"
		"  2.69    0.000020          20         1           clone\n"
		" 40.32    0.000300         300         1           execve\n"
		" 53.76    0.000400         400         1           wait4\n"
		"  1.61    0.000012          12         1         1 openat\n"
		RULE TOTAL);
	free(t);

	o.sort = summary_sort_parse("errors");
	t = table(&o, fx_run);
	assert_true(!strncmp(t + strlen(HEAD), "  1.61    0.000012          12         1         1 openat\n", 58));
	free(t);

	assert_int_equal(summary_sort_parse("avg-time"), SORT_AVG_TIME);
	assert_int_equal(summary_sort_parse("count"), SORT_CALLS);
	assert_int_equal(summary_sort_parse("time"), SORT_TIME);
	assert_int_equal(summary_sort_parse("bogus"), -1);
}

static int run_empty(struct sink_list *l)
{
	struct trace_info ti = { "1", NULL, 0, 0 };
	struct trace_end te = { 0 };

	sink_list_begin(l, &ti);
	return sink_list_end(l, &te);
}

/* Nothing counted: strace prints no table at all. */
static void test_empty(void **state)
{
	char *t = table(NULL, run_empty);

	assert_string_equal(t, "");
	free(t);
}

static int run_wide(struct sink_list *l)
{
	struct trace_info ti = { "1", NULL, 0, 0 };
	struct trace_end te = { 0 };
	struct event ev;

	sink_list_begin(l, &ti);
	ev = fx_sys("a_very_long_syscall_name", 460, 7, 0, 0, 0, 0);
	ev.end_ns = ev.ts_ns + 123456000000000ull;      /* 123456 s */
	sink_list_event(l, &ev);
	ev = fx_sys("read", 0, 7, 0, 0, 0, 0);
	ev.end_ns = ev.ts_ns;                            /* 0 s */
	sink_list_event(l, &ev);
	return sink_list_end(l, &te);
}

/* Columns widen as strace's do (seconds, usecs/call, syscall). */
static void test_wide(void **state)
{
	char *t = table(NULL, run_wide);

	assert_string_equal(t,
		"% time       seconds   usecs/call     calls    errors syscall\n"
		"------ ------------- ------------ --------- --------- -------------------------\n"
		"100.00 123456.000000 123456000000         1           a_very_long_syscall_name\n"
		"  0.00      0.000000            0         1           read\n"
		"------ ------------- ------------ --------- --------- -------------------------\n"
		"100.00 123456.000000  61728000000         2           total\n");
	free(t);
}

static void test_timing(void **state)
{
	struct sink_opts o = { 0 };
	char *t;

	o.timing = true;
	t = table(&o, fx_run);
	assert_non_null(strstr(t, RULE TOTAL "\nSyscall Summary:\n"
			       "wait4: 1 calls (0.40ms total)\n"
			       "execve: 1 calls (0.30ms total)\n"
			       "clone: 1 calls (0.02ms total)\n"
			       "openat: 1 calls (0.01ms total)\n"
			       "write: 3 calls (0.01ms total)\n"
			       "mmap: 1 calls (0.00ms total)\n"
			       "TOTAL: 8 calls (0.74ms total)\n"
			       "Wall time: 5.12ms\n"));
	free(t);
}

/* fx_run's calls as an engine without records hands them over: totals. */
static int run_totals(struct sink_list *l)
{
	static const struct sc_total rows[] = {
		/* nr, name, calls, errors, unfinished, cpu (3), wall, min, max, unfinished wall */
		{ 0, "read", 0, 0, 1, 0, 0, 0, 0, 0, 0, 2000000 },
		{ 1, "write", 3, 0, 0, 0, 0, 0, 9000, 2000, 4000, 0 },
		{ 9, "mmap", 1, 0, 0, 0, 0, 0, 3000, 3000, 3000, 0 },
		{ 56, "clone", 1, 0, 0, 0, 0, 0, 20000, 20000, 20000, 0 },
		{ 59, "execve", 1, 0, 0, 0, 0, 0, 300000, 300000, 300000, 0 },
		{ 61, "wait4", 1, 0, 0, 0, 0, 0, 400000, 400000, 400000, 0 },
		{ 231, "exit_group", 0, 0, 1, 0, 0, 0, 0, 0, 0, 0 },
		{ 257, "openat", 1, 1, 0, 0, 0, 0, 12000, 12000, 12000, 0 },
	};
	struct trace_totals tt = { rows, sizeof(rows) / sizeof(rows[0]), false, true };
	struct trace_info ti = { "1", NULL, 0, 1, "ebpf" };
	struct trace_end te = { 0, 0, 5123456, 0, 0 };

	sink_list_begin(l, &ti);
	assert_true(sink_list_totals_ok(l));
	sink_list_totals(l, &tt);
	return sink_list_end(l, &te);
}

/* The same table from totals as from records (the eBPF back end's path),
 * wall-clock times asked for (-w); unfinished calls are not in it. */
static void test_totals(void **state)
{
	struct sink_opts o = { 0 };
	char *t = table(&o, run_totals);
	char *want = table(&o, fx_run);

	assert_string_equal(t, want);
	free(t);
	free(want);
	o.sort = summary_sort_parse("min-time");
	t = table(&o, run_totals);
	want = table(&o, fx_run);
	assert_string_equal(t, want);
	free(t);
	free(want);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_by_time),
		cmocka_unit_test(test_sort_keys),
		cmocka_unit_test(test_empty),
		cmocka_unit_test(test_wide),
		cmocka_unit_test(test_timing),
		cmocka_unit_test(test_totals),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
