/*
 * Unit tests for the anti-pattern detectors (src/assert/detect.c) on
 * synthetic event streams: each fires on a stream built to show it and
 * stays quiet on a similar stream that must not trigger it, with typed
 * (live) and text (replayed) arguments.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "assert/assert.h"
#include "assert/internal.h"
#include "util/strbuf.h"
#include "unit/assert_evgen.h"

#include "util/banned.h"

static double conf(struct analysis *a, const char *pattern, char **evidence0)
{
	struct ap_finding f;
	assert_int_equal(anti_pattern_run(a, pattern, &f), 0);
	double c = f.confidence;
	if (evidence0)
		*evidence0 = f.nevidence ? strdup(f.evidence[0]) : strdup("");
	assert_non_null(f.headline);
	ap_finding_release(&f);
	return c;
}

/* Startup noise: a few dozen different calls as a dynamic program makes. */
static uint64_t startup(struct analysis *a, pid_t pid, uint64_t ts)
{
	gen_proc(a, EV_PROC_START, pid, 1, ts);
	for (int i = 0; i < 40; i++) {
		struct event ev = gen_sc(pid, i % 3 ? "mmap" : "mprotect", ts, 2000, 0x7f0000000000 + i * 0x10000);
		gen_hex(&ev, 0, 0);
		gen_int(&ev, 1, 4096 * (i + 1));
		gen_feed(a, &ev);
		ts += 3000;
	}
	return ts;
}

static void test_tight_loop(void **state)
{
	struct analysis *a = analysis_new();
	uint64_t ts = startup(a, 10, 0);
	for (int i = 0; i < 2000; i++) {
		struct event ev = gen_sc(10, "newfstatat", ts, 1000, -2);
		gen_text(&ev, 0, "AT_FDCWD");
		gen_text(&ev, 1, "\"/tmp/flag\"");
		gen_text(&ev, 2, "0x7ffc1234");   /* an address: masked */
		gen_text(&ev, 3, "0");
		gen_feed(a, &ev);
		ts += 1500;
	}
	gen_exit(a, 10, ts, 0);
	analysis_end(a, NULL);
	char *e0;
	double c = conf(a, "TightLoop", &e0);
	assert_true(c > 0.9);
	assert_non_null(strstr(e0, "newfstatat repeated 2000 times"));
	free(e0);
	gen_free(a);
}

static void test_tight_loop_cycle(void **state)
{
	struct analysis *a = analysis_new();
	uint64_t ts = startup(a, 10, 0);
	for (int i = 0; i < 600; i++) {
		struct event p = gen_sc(10, "poll", ts, 1000, 0);
		gen_hex(&p, 0, 0x7ffd00 + (uint64_t)i);   /* the array's address moves */
		gen_int(&p, 1, 1);
		gen_int(&p, 2, 0);
		gen_feed(a, &p);
		struct event r = gen_sc(10, "read", ts + 1000, 1000, -11);   /* EAGAIN */
		gen_int(&r, 0, 3);
		gen_hex(&r, 1, 0x7ffd00);
		gen_int(&r, 2, 4096);
		gen_feed(a, &r);
		ts += 2500;
	}
	gen_exit(a, 10, ts, 0);
	analysis_end(a, NULL);
	char *e0;
	assert_true(conf(a, "TightLoop", &e0) > 0.9);
	assert_non_null(strstr(e0, "cycle poll"));
	assert_non_null(strstr(e0, "repeated 600 times"));
	free(e0);
	gen_free(a);
}

/* Reading a file in chunks repeats read(3, .., 65536), but makes progress. */
static void test_no_tight_loop(void **state)
{
	struct analysis *a = analysis_new();
	uint64_t ts = startup(a, 10, 0);
	struct event o = gen_sc(10, "openat", ts, 1000, 3);
	gen_int(&o, 0, -100);
	gen_str(&o, 1, "/var/big");
	gen_feed(a, &o);
	for (int i = 0; i < 2000; i++) {
		struct event r = gen_sc(10, "read", ts, 1000, 65536);
		gen_int(&r, 0, 3);
		gen_str(&r, 1, "data");
		r.args[1].flags |= VF_EXIT;
		gen_int(&r, 2, 65536);
		gen_feed(a, &r);
		ts += 1500;
	}
	/* a handful of identical calls is not a loop */
	for (int i = 0; i < 10; i++) {
		struct event g = gen_sc(10, "getpid", ts, 500, 10);
		gen_feed(a, &g);
		ts += 600;
	}
	gen_exit(a, 10, ts, 0);
	analysis_end(a, NULL);
	assert_true(conf(a, "TightLoop", NULL) < 0.1);
	gen_free(a);
}

/* Process 100: main thread 100 and workers 101..104. */
static void god_run(struct analysis *a, const int work[5])
{
	uint64_t ts = startup(a, 100, 0);
	for (int t = 1; t < 5; t++) {
		struct event ev;
		memset(&ev, 0, sizeof(ev));
		ev.type = EV_PROC_START;
		ev.pid = 100;
		ev.tid = 100 + t;
		ev.ppid = 100;
		ev.is_thread = true;
		ev.ts_ns = ev.end_ns = ts;
		gen_feed(a, &ev);
	}
	/* everyone lives for the whole run; work interleaved */
	int left[5];
	memcpy(left, work, sizeof(left));
	for (int round = 0; ; round++) {
		bool any = false;
		for (int t = 0; t < 5; t++) {
			struct event ev;
			if (left[t] > 0) {
				ev = gen_sc(100, "getppid", ts, 1000, 1);
				left[t]--;
				any = true;
			} else {
				ev = gen_sc(100, "futex", ts, 1000, 0);   /* idle */
			}
			ev.tid = 100 + t;
			gen_feed(a, &ev);
			ts += 1100;
		}
		if (!any)
			break;
	}
	for (int t = 4; t >= 0; t--) {
		struct event ev;
		memset(&ev, 0, sizeof(ev));
		ev.type = EV_PROC_EXIT;
		ev.pid = 100;
		ev.tid = 100 + t;
		ev.ts_ns = ts;
		gen_feed(a, &ev);
	}
	analysis_end(a, NULL);
}

static void test_god_process(void **state)
{
	struct analysis *a = analysis_new();
	const int lopsided[5] = { 10, 3000, 2, 2, 2 };
	god_run(a, lopsided);
	char *e0;
	double c = conf(a, "GodProcess", &e0);
	assert_true(c > 0.85);
	assert_non_null(strstr(e0, "thread 101"));
	free(e0);
	gen_free(a);

	a = analysis_new();
	const int even[5] = { 10, 700, 700, 700, 700 };
	god_run(a, even);
	assert_true(conf(a, "GodProcess", NULL) < 0.2);
	gen_free(a);

	/* one process alone is never a god process */
	a = analysis_new();
	startup(a, 7, 0);
	analysis_end(a, NULL);
	assert_true(conf(a, "GodProcess", NULL) == 0);
	gen_free(a);
}

static void pcie_run(struct analysis *a, const char *dev, bool text)
{
	uint64_t ts = startup(a, 10, 0);
	struct event o = gen_sc(10, "openat", ts, 1000, 5);
	static char q[64];
	if (text) {
		snprintf(q, sizeof(q), "\"%s\"", dev);
		gen_text(&o, 0, "AT_FDCWD");
		gen_text(&o, 1, q);
		gen_text(&o, 2, "O_RDWR|O_CLOEXEC");
	} else {
		gen_int(&o, 0, -100);
		gen_str(&o, 1, dev);
	}
	gen_feed(a, &o);
	ts += 1000;
	for (int i = 0; i < 100; i++) {
		struct event io = gen_sc(10, i % 10 ? "ioctl" : "write", ts, 1 * MS, i % 10 ? 0 : 1 << 20);
		if (text) {
			gen_text(&io, 0, "5");
			gen_text(&io, 1, i % 10 ? "_IOC(_IOC_READ|_IOC_WRITE, 0x46, 0x2a, 0x20)" : "\"...\"");
			gen_text(&io, 2, i % 10 ? "0x7ffc0000" : "1048576");
		} else {
			gen_int(&io, 0, 5);
			gen_hex(&io, 1, 0xc020462a);
		}
		gen_feed(a, &io);
		ts += 1 * MS + 100000;
	}
	gen_exit(a, 10, ts, 0);
	struct trace_end te = { 0 };
	te.wall_ns = ts;
	analysis_end(a, &te);
}

static void test_pcie(void **state)
{
	struct analysis *a = analysis_new();
	pcie_run(a, "/dev/nvidia0", true);
	char *e0;
	double c = conf(a, "PCIeBottleneck", &e0);
	assert_true(c > 0.8);
	assert_non_null(strstr(e0, "GPU transfers: 100ms"));
	free(e0);
	gen_free(a);

	a = analysis_new();
	pcie_run(a, "/dev/dri/renderD128", false);
	assert_true(conf(a, "PCIeBottleneck", NULL) > 0.8);
	gen_free(a);

	a = analysis_new();
	pcie_run(a, "/dev/ttyS0", false);   /* not a GPU */
	assert_true(conf(a, "PCIeBottleneck", NULL) == 0);
	gen_free(a);
}

static void io_run(struct analysis *a, int n, int size, bool text)
{
	uint64_t ts = startup(a, 10, 0);
	struct event o = gen_sc(10, "openat", ts, 1000, 3);
	if (text) {
		gen_text(&o, 0, "AT_FDCWD");
		gen_text(&o, 1, "\"/tmp/out.txt\"");
		gen_text(&o, 2, "O_WRONLY|O_CREAT|O_TRUNC");
		gen_text(&o, 3, "0644");
	} else {
		gen_int(&o, 0, -100);
		gen_str(&o, 1, "/tmp/out.txt");
	}
	gen_feed(a, &o);
	for (int i = 0; i < n; i++) {
		struct event w = gen_sc(10, "write", ts, 1000, size);
		if (text) {
			gen_text(&w, 0, "3");
			gen_text(&w, 1, "\"x\"");
			gen_text(&w, 2, "1");
		} else {
			gen_int(&w, 0, 3);
			gen_str(&w, 1, "x");
			gen_int(&w, 2, size);
		}
		gen_feed(a, &w);
		ts += 1200;
	}
	struct event c = gen_sc(10, "close", ts, 1000, 0);
	gen_int(&c, 0, 3);
	gen_feed(a, &c);
	gen_exit(a, 10, ts, 0);
	analysis_end(a, NULL);
}

static void test_unbuffered(void **state)
{
	struct analysis *a = analysis_new();
	io_run(a, 1000, 1, true);
	char *e0;
	assert_true(conf(a, "UnbufferedIO", &e0) > 0.9);
	assert_non_null(strstr(e0, "fd 3 (/tmp/out.txt)"));
	assert_non_null(strstr(e0, "1000 writes averaging 1.0 bytes"));
	free(e0);
	gen_free(a);

	a = analysis_new();
	io_run(a, 1000, 4096, false);
	assert_true(conf(a, "UnbufferedIO", NULL) == 0);
	gen_free(a);

	a = analysis_new();
	io_run(a, 20, 1, false);   /* a few tiny writes are fine */
	assert_true(conf(a, "UnbufferedIO", NULL) == 0);
	gen_free(a);
}

static void rfa_run(struct analysis *a, int n, bool same)
{
	uint64_t ts = startup(a, 10, 0);
	char path[64];
	for (int i = 0; i < n; i++) {
		snprintf(path, sizeof(path), same ? "/etc/app.conf" : "/etc/app%d.conf", i);
		struct event s = gen_sc(10, "newfstatat", ts, 1000, 0);
		gen_int(&s, 0, -100);
		gen_str(&s, 1, path);
		gen_feed(a, &s);
		struct event o = gen_sc(10, "openat", ts, 1000, 3);
		gen_int(&o, 0, -100);
		gen_str(&o, 1, path);
		gen_feed(a, &o);
		struct event r = gen_sc(10, "read", ts, 1000, 100);
		gen_int(&r, 0, 3);
		gen_feed(a, &r);
		struct event c = gen_sc(10, "close", ts, 1000, 0);
		gen_int(&c, 0, 3);
		gen_feed(a, &c);
		ts += 5000;
	}
	gen_exit(a, 10, ts, 0);
	analysis_end(a, NULL);
}

static void test_redundant(void **state)
{
	struct analysis *a = analysis_new();
	rfa_run(a, 100, true);
	char *e0;
	assert_true(conf(a, "RedundantFileAccess", &e0) > 0.85);
	assert_non_null(strstr(e0, "/etc/app.conf: opened 100 times, stat-ed 100 times, read 100 times"));
	free(e0);
	gen_free(a);

	a = analysis_new();
	rfa_run(a, 100, false);
	assert_true(conf(a, "RedundantFileAccess", NULL) < 0.1);
	gen_free(a);
}

static void test_unknown_pattern(void **state)
{
	struct analysis *a = analysis_new();
	struct ap_finding f;
	assert_int_equal(anti_pattern_run(a, "NoSuchThing", &f), -1);
	assert_true(anti_pattern_known("GodProcess"));
	assert_false(anti_pattern_known("godprocess"));
	gen_free(a);
}

/* Text shapes of the seeds. */
static void test_report_text(void **state)
{
	struct analysis *a = analysis_new();
	gen_proc(a, EV_PROC_START, 100, 1, 0);
	for (int i = 0; i < 87; i++) {
		struct event ev = gen_sc(100, "write", (uint64_t)i * 1000, 100, 1);
		gen_int(&ev, 0, 1);
		gen_feed(a, &ev);
	}
	gen_exit(a, 100, 125 * MS, 0);
	analysis_end(a, NULL);
	struct assert_spec s[4] = {
		{ .name = "example_startup_latency", .type = AT_CRITICAL_PATH, .enabled = true,
		  .fail_on_violation = true, .max_duration_ms = 100 },
		{ .name = "max_syscall_budget", .type = AT_SPAN_COUNT, .enabled = true,
		  .fail_on_violation = true, .max_spans = 500 },
		{ .name = "detect_god", .type = AT_ANTI_PATTERN, .enabled = true,
		  .fail_on_violation = false, .pattern = "UnbufferedIO", .threshold = 0.5 },
		{ .name = "ultra_strict_latency", .type = AT_CRITICAL_PATH, .enabled = false,
		  .fail_on_violation = true, .max_duration_ms = 50 },
	};
	struct assert_results res = ASSERT_RESULTS_INIT;
	struct strbuf sb = STRBUF_INIT;
	assert_int_equal(assert_eval_specs(s, 4, a, &res), 0);
	assert_format(&res, OUT_TEXT, NULL, &sb);
	assert_non_null(strstr(sb.buf, "\xe2\x9d\x8c Assertion 'example_startup_latency' FAILED\n"
				       "   Actual: 125ms\n   Budget: 100ms\n   Regression: +25%\n"));
	assert_non_null(strstr(sb.buf, "\xe2\x9c\x85 Assertion 'max_syscall_budget' passed (87 / 500 calls)\n"));
	assert_non_null(strstr(sb.buf, "\xe2\x9a\xa0\xef\xb8\x8f Assertion 'detect_god' WARNING"));
	assert_non_null(strstr(sb.buf, "Assertion 'ultra_strict_latency' skipped (disabled)\n"));
	assert_non_null(strstr(sb.buf, "\xe2\x9a\xa0\xef\xb8\x8f Build BLOCKED: 1 assertion failed\n"));
	assert_int_equal(assert_exit_status(&res), 1);
	strbuf_release(&sb);
	assert_results_release(&res);
	gen_free(a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tight_loop),
		cmocka_unit_test(test_tight_loop_cycle),
		cmocka_unit_test(test_no_tight_loop),
		cmocka_unit_test(test_god_process),
		cmocka_unit_test(test_pcie),
		cmocka_unit_test(test_unbuffered),
		cmocka_unit_test(test_redundant),
		cmocka_unit_test(test_unknown_pattern),
		cmocka_unit_test(test_report_text),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
