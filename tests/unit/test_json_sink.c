/*
 * Unit tests for the json, jsonl and csv sinks (src/sink/json.c, jsonl.c,
 * csv.c): synthetic events in, the output checked with jansson.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>
#include <jansson.h>

#include "sink/sinks.h"
#include "unit/trace_fixture.h"

#include "util/banned.h"

/* Runs the fixture through one sink writing to path; returns the file. */
static char *run_to_file(struct sink *(*mk)(FILE *, const char *, const struct sink_opts *),
			 const char *name)
{
	struct sink_list l = SINK_LIST_INIT;
	char *path = fx_path(name);
	char *text;
	struct sink *s = mk(stdout, path, NULL);

	assert_non_null(s);
	sink_list_add(&l, s);
	assert_int_equal(fx_run(&l), 0);
	sink_list_release(&l);
	text = fx_slurp(path);
	assert_non_null(text);
	free(path);
	return text;
}

static json_t *load(const char *text)
{
	json_error_t je;
	json_t *j = json_loads(text, 0, &je);

	if (!j)
		fail_msg("not JSON: line %d column %d: %s", je.line, je.column, je.text);
	return j;
}

static const char *sget(json_t *o, const char *k)
{
	json_t *v = json_object_get(o, k);
	assert_true(json_is_string(v));
	return json_string_value(v);
}

static json_int_t iget(json_t *o, const char *k)
{
	json_t *v = json_object_get(o, k);
	assert_true(json_is_integer(v));
	return json_integer_value(v);
}

static double nget(json_t *o, const char *k)
{
	json_t *v = json_object_get(o, k);
	assert_true(json_is_number(v));
	return json_number_value(v);
}

static void check_arg(json_t *sc, size_t i, const char *name, const char *text)
{
	json_t *a = json_array_get(json_object_get(sc, "args"), i);

	assert_true(json_is_array(a));
	assert_int_equal(json_array_size(a), 3);     /* [name, text, typed value] */
	assert_string_equal(json_string_value(json_array_get(a, 0)), name);
	assert_string_equal(json_string_value(json_array_get(a, 1)), text);
	assert_true(json_is_object(json_array_get(a, 2)) || json_is_null(json_array_get(a, 2)));
}

static void test_json_document(void **state)
{
	char *text = run_to_file(json_sink_new, "t.json");
	json_t *doc = load(text), *sys, *sc, *p, *sum, *by;

	assert_string_equal(sget(doc, "format"), "renacer-json-v2");
	assert_string_equal(sget(doc, "version"), "9.9.9");
	assert_int_equal(json_array_size(json_object_get(doc, "command")), 3);
	assert_string_equal(json_string_value(json_array_get(json_object_get(doc, "command"), 2)),
			    "x\"y");
	sys = json_object_get(doc, "syscalls");
	assert_int_equal(json_array_size(sys), 10);

	sc = json_array_get(sys, 0);
	assert_string_equal(sget(sc, "name"), "execve");
	check_arg(sc, 0, "pathname", "\"./prog\"");
	check_arg(sc, 1, "argv", "0x7ffd0000");
	assert_int_equal(iget(sc, "result"), 0);
	assert_null(json_object_get(sc, "errno"));
	assert_int_equal(iget(sc, "nr"), 59);
	assert_int_equal(iget(sc, "pid"), 100);
	assert_int_equal(iget(sc, "tid"), 100);
	assert_true(nget(sc, "ts_us") > 1.122 && nget(sc, "ts_us") < 1.124);
	assert_true(nget(sc, "duration_us") > 300.006 && nget(sc, "duration_us") < 300.008);

	sc = json_array_get(sys, 1);
	assert_string_equal(sget(sc, "name"), "openat");
	check_arg(sc, 0, "dfd", "-100");
	check_arg(sc, 1, "filename", "\"/no/such,\\\"file\\\"\\n\\377\\376\"");
	assert_int_equal(iget(sc, "result"), -ENOENT);
	assert_string_equal(sget(sc, "errno"), "ENOENT");
	assert_int_equal(iget(sc, "lamport"), 3);
	p = json_object_get(sc, "source");
	assert_string_equal(sget(p, "file"), "prog.c");
	assert_int_equal(iget(p, "line"), 12);
	assert_string_equal(sget(p, "function"), "main");
	assert_int_equal(json_array_size(json_object_get(sc, "stack")), 2);
	assert_string_equal(sget(json_array_get(json_object_get(sc, "stack"), 1), "pc"),
			    "0x7f0000001234");
	p = json_array_get(json_object_get(sc, "stack"), 0);
	assert_string_equal(sget(p, "offset"), "0x1000");
	assert_string_equal(sget(p, "symbol"), "main");
	assert_string_equal(sget(p, "symbol_offset"), "0x1c");
	assert_true(json_is_true(json_object_get(p, "own")));
	p = json_array_get(json_object_get(sc, "stack"), 1);
	assert_true(json_is_null(json_object_get(p, "symbol")));
	assert_null(json_object_get(p, "symbol_offset"));
	assert_true(json_is_false(json_object_get(p, "own")));

	sc = json_array_get(sys, 2);
	assert_string_equal(sget(sc, "name"), "mmap");
	assert_int_equal(iget(sc, "result"), 0x7f1234560000ll);
	assert_string_equal(sget(sc, "rv_fmt"), "hex");
	check_arg(sc, 0, "addr", "NULL");

	sc = json_array_get(sys, 7);
	assert_string_equal(sget(sc, "name"), "exit_group");
	assert_true(json_is_true(json_object_get(sc, "unfinished")));
	assert_true(json_is_null(json_object_get(sc, "result")));

	p = json_object_get(doc, "processes");
	assert_int_equal(json_array_size(p), 2);
	assert_int_equal(iget(json_array_get(p, 0), "pid"), 100);
	assert_string_equal(sget(json_array_get(p, 0), "signal"), "SIGKILL");
	assert_string_equal(sget(json_array_get(json_object_get(json_array_get(p, 0), "exec"), 0),
				 "path"), "/tmp/prog");
	assert_int_equal(iget(json_array_get(p, 1), "ppid"), 100);
	assert_int_equal(iget(json_array_get(p, 1), "exit_code"), 0);
	assert_int_equal(iget(json_array_get(p, 1), "max_rss_kb"), 1234);

	p = json_array_get(json_object_get(doc, "signals"), 0);
	assert_string_equal(sget(p, "signal"), "SIGCHLD");
	assert_string_equal(sget(p, "siginfo"), "{si_signo=17, si_pid=101}");

	sum = json_object_get(doc, "summary");
	assert_int_equal(iget(sum, "total_syscalls"), 10);
	assert_int_equal(iget(sum, "total_errors"), 1);
	assert_int_equal(iget(sum, "total_unfinished"), 2);
	assert_string_equal(sget(sum, "signal"), "SIGKILL");
	assert_true(nget(sum, "wall_time_us") > 5123.455 && nget(sum, "wall_time_us") < 5123.457);
	by = json_object_get(sum, "by_syscall");
	assert_int_equal(iget(json_object_get(by, "write"), "calls"), 3);
	assert_int_equal(iget(json_object_get(by, "openat"), "errors"), 1);
	/* 2.007 + 3.007 + 4.007 us */
	assert_true(nget(json_object_get(by, "write"), "total_us") > 9.020 &&
		    nget(json_object_get(by, "write"), "total_us") < 9.022);
	json_decref(doc);
	free(text);
}

static void test_jsonl_lines(void **state)
{
	char *text = run_to_file(jsonl_sink_new, "t.jsonl");
	char *line = text, *nl;
	size_t n = 0, nsys = 0;
	const char *types[32];

	while ((nl = strchr(line, '\n'))) {
		json_t *o;
		*nl = '\0';
		o = load(line);
		assert_true(n < 32);
		types[n] = strdup(sget(o, "type"));
		if (!strcmp(types[n], "syscall")) {
			nsys++;
			assert_non_null(json_object_get(o, "name"));
			assert_non_null(json_object_get(o, "ts_us"));
		}
		if (n == 0)
			assert_string_equal(sget(o, "format"), "renacer-jsonl-v2");
		json_decref(o);
		n++;
		line = nl + 1;
	}
	assert_string_equal(line, "");
	assert_int_equal(nsys, 10);
	assert_string_equal(types[0], "header");
	assert_string_equal(types[1], "process_start");
	assert_string_equal(types[2], "exec");
	assert_string_equal(types[3], "syscall");
	assert_string_equal(types[n - 1], "summary");
	for (size_t i = 0; i < n; i++)
		free((char *)types[i]);
	free(text);
}

static void test_csv(void **state)
{
	char *text = run_to_file(csv_sink_new, "t.csv");
	char *l2;

	assert_true(!strncmp(text, "ts_us,pid,tid,name,nr,args,result,errno,duration_us\n", 52));
	l2 = strstr(text, "\n400.123,");
	assert_non_null(l2);
	/* the args field holds a quote and commas: quoted, quotes doubled */
	assert_true(!strncmp(l2 + 1,
			     "400.123,100,100,openat,257,\"-100, \"\"/no/such,\\\"\"file\\\"\"\\n\\377\\376\"\", 0\","
			     "-2,ENOENT,12.007\n", 88));
	assert_non_null(strstr(text, "\n700.123,101,101,write,1,\"1, \"\"hello\\n\"\", 6\",6,,2.007\n"));
	/* unfinished: empty result and errno */
	assert_non_null(strstr(text, "\n900.123,101,101,exit_group,231,0,,,0.007\n"));
	free(text);
}

static void test_stdout_stream_and_no_events(void **state)
{
	struct sink_list l = SINK_LIST_INIT;
	char *path = fx_path("stream.json");
	FILE *f = fopen(path, "w");
	struct trace_end te = { 3, 0, 1000, 0 };
	struct trace_info ti = { "1", NULL, 0, 0 };
	json_t *doc;
	char *text;

	assert_non_null(f);
	sink_list_add(&l, json_sink_new(f, NULL, NULL));
	assert_int_equal(sink_list_begin(&l, &ti), 0);
	assert_int_equal(sink_list_end(&l, &te), 0);
	sink_list_release(&l);
	fclose(f);
	text = fx_slurp(path);
	doc = load(text);
	assert_true(json_is_null(json_object_get(doc, "command")));
	assert_int_equal(json_array_size(json_object_get(doc, "syscalls")), 0);
	assert_int_equal(iget(json_object_get(doc, "summary"), "exit_code"), 3);
	assert_int_equal(json_object_size(json_object_get(json_object_get(doc, "summary"),
							  "by_syscall")), 0);
	json_decref(doc);
	free(text);
	free(path);
}

/* A path whose directory does not exist: NULL and one error, no file. */
static void test_bad_path(void **state)
{
	assert_null(json_sink_new(stdout, "/nonexistent/dir/x.json", NULL));
	assert_null(csv_sink_new(stdout, "/nonexistent/dir/x.csv", NULL));
}

/*
 * A path that is a device (-o /dev/null) is written to, never renamed over.
 * Checked through a symlink to /dev/null, so that a regression replaces
 * the link and not the device.
 */
static void test_device_path(void **state)
{
	struct sink_list l = SINK_LIST_INIT;
	char *link = fx_path("devnull");
	struct stat st;

	assert_int_equal(symlink("/dev/null", link), 0);
	sink_list_add(&l, json_sink_new(stdout, link, NULL));
	sink_list_add(&l, jsonl_sink_new(stdout, link, NULL));
	sink_list_add(&l, csv_sink_new(stdout, link, NULL));
	sink_list_add(&l, summary_sink_new(stdout, link, NULL));
	assert_int_equal(fx_run(&l), 0);
	sink_list_release(&l);
	assert_int_equal(lstat(link, &st), 0);
	assert_true(S_ISLNK(st.st_mode));
	free(link);
}

/* Nothing is left behind when the sink is freed without end(). */
static void test_abandoned_file(void **state)
{
	struct sink_list l = SINK_LIST_INIT;
	char *path = fx_path("abandoned.json");
	struct trace_info ti = { "1", NULL, 0, 0 };

	sink_list_add(&l, json_sink_new(stdout, path, NULL));
	sink_list_begin(&l, &ti);
	sink_list_release(&l);
	assert_int_equal(access(path, F_OK), -1);
	free(path);
}

static long maxrss_kb(void)
{
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_maxrss;
}

/* jsonl and json keep no per-syscall memory: 1M calls, RSS flat. */
static void test_flat_memory(void **state)
{
	struct sink *(*mk[2])(FILE *, const char *, const struct sink_opts *) = {
		jsonl_sink_new, json_sink_new
	};

	for (int k = 0; k < 2; k++) {
		struct sink_list l = SINK_LIST_INIT;
		FILE *devnull = fopen("/dev/null", "w");
		struct trace_info ti = { "1", fx_argv, 0, 0 };
		struct trace_end te = { 0 };
		long before;

		sink_list_add(&l, mk[k](devnull, NULL, NULL));
		sink_list_begin(&l, &ti);
		for (int i = 0; i < 10000; i++) {   /* warm up */
			struct event ev = fx_sys("write", 1, 5, (uint64_t)i, 1, 6, 0);
			sink_list_event(&l, &ev);
		}
		before = maxrss_kb();
		for (int i = 0; i < 1000000; i++) {
			struct event ev = fx_sys(i % 7 ? "write" : "syscall_0x1d3", i % 7 ? 1 : 467,
						 5, (uint64_t)i, 1, 6, i % 5 ? 0 : EBADF);
			ev.nargs = 2;
			ev.args[0] = fx_int("fd", 1);
			ev.args[1] = fx_str("buf", "hello\n", 6);
			sink_list_event(&l, &ev);
		}
		assert_true(maxrss_kb() - before < 2048);
		assert_int_equal(sink_list_end(&l, &te), 0);
		sink_list_release(&l);
		fclose(devnull);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_json_document),
		cmocka_unit_test(test_jsonl_lines),
		cmocka_unit_test(test_csv),
		cmocka_unit_test(test_stdout_stream_and_no_events),
		cmocka_unit_test(test_bad_path),
		cmocka_unit_test(test_device_path),
		cmocka_unit_test(test_abandoned_file),
		cmocka_unit_test(test_flat_memory),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
