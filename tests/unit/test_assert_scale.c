/*
 * The analysis stays bounded on long runs: three million syscalls (distinct
 * paths, tiny writes, mmap/munmap churn, many short-lived children) leave
 * its memory flat and take well under a second per million events.
 */
#include <malloc.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <cmocka.h>

#include "assert/assert.h"
#include "assert/internal.h"
#include "track/track.h"
#include "unit/assert_evgen.h"

#include "util/banned.h"

static size_t heap_used(void)
{
	struct mallinfo2 mi = mallinfo2();
	return mi.uordblks + mi.hblkhd;
}

/*
 * Bytes of the per-process and per-task tables (they grow with processes):
 * the analysis's, and at most 256 bytes a task for the tracker's.
 */
static size_t tables(struct analysis *a)
{
	return a->aprocs * sizeof(struct proc) + a->atasks * sizeof(struct task) +
	       a->pids.cap * 2 * sizeof(uint64_t) + tracker_ntasks(gen_list(a)->track) * 256;
}

static void feed(struct analysis *a, long from, long to)
{
	char path[64];
	for (long i = from; i < to; i++) {
		uint64_t ts = (uint64_t)i * 1000;
		pid_t pid = 100;
		switch (i % 6) {
		case 0: {
			snprintf(path, sizeof(path), "/data/file%ld", i);
			struct event o = gen_sc(pid, "openat", ts, 500, 3);
			gen_int(&o, 0, -100);
			gen_str(&o, 1, path);
			gen_feed(a, &o);
			break;
		}
		case 1: case 2: {
			struct event w = gen_sc(pid, "write", ts, 500, 1);
			gen_int(&w, 0, 3);
			gen_feed(a, &w);
			break;
		}
		case 3: {
			struct event m = gen_sc(pid, "mmap", ts, 500, 0x7f0000000000 + (i % 64) * 0x100000);
			gen_hex(&m, 0, 0);
			gen_int(&m, 1, 65536);
			gen_int(&m, 2, 3);      /* PROT_READ|PROT_WRITE */
			gen_int(&m, 3, 0x22);   /* MAP_PRIVATE|MAP_ANONYMOUS */
			gen_int(&m, 4, -1);
			gen_feed(a, &m);
			break;
		}
		case 4: {
			struct event u = gen_sc(pid, "munmap", ts, 500, 0);
			gen_hex(&u, 0, 0x7f0000000000 + ((i - 1) % 64) * 0x100000);
			gen_int(&u, 1, 65536);
			gen_feed(a, &u);
			break;
		}
		case 5: {
			struct event c = gen_sc(pid, "close", ts, 500, 0);
			gen_int(&c, 0, 3);
			gen_feed(a, &c);
			if (i % 600 == 5) {   /* a short-lived child */
				pid_t child = (pid_t)(1000 + (i / 600) % 30000);
				gen_proc(a, EV_PROC_START, child, 100, ts);
				struct event s = gen_sc(child, "getpid", ts + 10, 10, child);
				gen_feed(a, &s);
				gen_exit(a, child, ts + 20, 1000);
				struct event w = gen_sc(pid, "wait4", ts, 30, child);
				gen_feed(a, &w);
			}
			break;
		}
		}
	}
}

static void test_flat_memory(void **state)
{
	struct analysis *a = analysis_new();
	gen_proc(a, EV_PROC_START, 100, 1, 0);
	clock_t t00 = clock();
	feed(a, 0, 1000000);
	double secs1 = (double)(clock() - t00) / CLOCKS_PER_SEC;
	size_t after1m = heap_used(), tables1m = tables(a);
	clock_t t0 = clock();
	feed(a, 1000000, 3000000);
	double secs = (double)(clock() - t0) / CLOCKS_PER_SEC;
	size_t after3m = heap_used(), tables3m = tables(a);
	gen_exit(a, 100, 3000000ULL * 1000, 0);
	analysis_end(a, NULL);
	print_message("1M events in %.2fs, 2M more in %.2fs; heap %zu KB after 1M, %zu KB after 3M, "
		      "process/thread tables %zu KB -> %zu KB\n", secs1, secs, after1m / 1024,
		      after3m / 1024, tables1m / 1024, tables3m / 1024);
	/* the process and thread tables (one record per child) are the only
	 * growth: nothing is kept per call, per path or per mapping */
	assert_true(after3m <= after1m + (tables3m - tables1m) + 3333 * 32 + 256 * 1024);
	/* linear: an event costs the same later as at first (CPU time, its
	 * own first million the yardstick, not a wall-clock limit) */
	assert_true(secs < 2 * 3 * (secs1 > 0.01 ? secs1 : 0.01));
	assert_int_equal(analysis_syscalls(a), 3000000 + 2 * 5000);
	assert_true(a->paths_dropped > 0);   /* the path table is capped */
	gen_free(a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_flat_memory),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
