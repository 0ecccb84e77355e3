/*
 * Unit tests for the untraced runs (src/measure/measure.c), on the real
 * machine: what it offers is probed and said (hardware counters, or one
 * line why there are none); a CPU-bound and a sleeping run of
 * tests/progs/timework give times that add up (net within wall, a sleep's
 * time in the net time, CPU time for computing); exit statuses and deaths
 * by a signal come back; a missing command is an error; as root every task
 * of a tree is seen, and the lower bound of a tree's net time is below it.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>

#include "measure/measure.h"
#include "util/error.h"

#include "util/banned.h"

static char prog[4096];
static struct measure m;

static void test_probe(void **state)
{
	(void)state;
	/* schedstat is there on Debian's kernels: waits are measured */
	assert_int_not_equal(m.wait, MW_NONE);
	if (getuid() == 0)
		assert_int_equal(m.wait, MW_TREE);
	/* counters, or one line why not */
	if (m.hw)
		assert_int_equal(m.why_hw[0], '\0');
	else
		assert_non_null(strstr(m.why_hw, "instructions and cycles are not recorded"));
	assert_non_null(measure_wait_name(m.wait));
}

static void test_cpu_run(void **state)
{
	char *argv[] = { prog, (char *)"cpu", (char *)"20000", NULL };
	struct msample s;
	(void)state;
	assert_int_equal(measure_run(&m, argv, NULL, &s), 0);
	assert_int_equal(s.exit_code, 0);
	assert_int_equal(s.term_signal, 0);
	assert_true(s.cpu_us > 5000);
	assert_true(s.net_us <= s.wall_us + 1);
	assert_true(s.net_us >= 0.8 * s.cpu_us);
	assert_true(s.net_low_us <= s.net_us + 1);
	assert_true(s.maxrss_kb > 0);
	if (m.hw) {
		assert_true(s.instructions > 1000000);
		assert_true(s.cycles > 0);
	} else {
		assert_true(s.instructions == -1 && s.cycles == -1);
	}
}

static void test_wait_run(void **state)
{
	char *argv[] = { prog, (char *)"wait", (char *)"20000", NULL };
	struct msample s;
	(void)state;
	assert_int_equal(measure_run(&m, argv, NULL, &s), 0);
	/* the sleeps are in the net time: only waits for a CPU come out */
	assert_true(s.net_us >= 19000);
	assert_true(s.cpu_us < s.net_us / 2);
}

static void test_status(void **state)
{
	char *ex[] = { (char *)"sh", (char *)"-c", (char *)"exit 3", NULL };
	char *kill[] = { (char *)"sh", (char *)"-c", (char *)"kill -TERM $$", NULL };
	char *none[] = { (char *)"/nonexistent/renacer-test-prog", NULL };
	struct msample s;
	(void)state;
	assert_int_equal(measure_run(&m, ex, NULL, &s), 0);
	assert_int_equal(s.exit_code, 3);
	assert_int_equal(measure_run(&m, kill, NULL, &s), 0);
	assert_int_equal(s.term_signal, 15);
	assert_int_equal(measure_run(&m, none, NULL, &s), -1);
}

/*
 * Listening starts at once on a quiet machine: the registration is
 * acknowledged, not taken as done at the next exit of some other task
 * (which, with nothing else running, never came: every validate hung).
 */
static void test_listen_quiet(void **state)
{
	(void)state;
	for (int i = 0; i < 5; i++) {
		struct measure q;
		struct timespec a, b;
		clock_gettime(CLOCK_MONOTONIC, &a);
		measure_init(&q, NULL);
		clock_gettime(CLOCK_MONOTONIC, &b);
		if (getuid() == 0)
			assert_int_equal(q.wait, MW_TREE);
		measure_release(&q);
		assert_true((b.tv_sec - a.tv_sec) * 1000 + (b.tv_nsec - a.tv_nsec) / 1000000 < 1000);
	}
}

static void test_tree(void **state)
{
	char script[3 * sizeof(prog) + 64];
	char *argv[] = { (char *)"sh", (char *)"-c", script, NULL };
	struct msample s;
	(void)state;
	snprintf(script, sizeof(script), "%s cpu 2000; %s cpu 2000; :", prog, prog);
	assert_int_equal(measure_run(&m, argv, NULL, &s), 0);
	if (m.wait != MW_TREE)
		return;
	assert_int_equal(s.how, MW_TREE);
	assert_true(s.tasks >= 3);
	assert_true(s.net_low_us <= s.net_us + 1);
}

int main(void)
{
	const char *p = getenv("PROGS");
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_probe),
		cmocka_unit_test(test_cpu_run),
		cmocka_unit_test(test_wait_run),
		cmocka_unit_test(test_status),
		cmocka_unit_test(test_listen_quiet),
		cmocka_unit_test(test_tree),
	};
	int r;

	snprintf(prog, sizeof(prog), "%s/timework", p ? p : "build/progs");
	error_set_hook(NULL);
	measure_init(&m, NULL);
	r = cmocka_run_group_tests(tests, NULL, NULL);
	measure_release(&m);
	return r;
}
