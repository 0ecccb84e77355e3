/*
 * Unit tests for CPU placement's parts that need no tracee (src/core/cpus.c):
 * CPU lists as taskset -c writes them, the check of --cpu against
 * renacer's own mask, and the hooks' no-ops.  The policy itself is tested
 * end to end in tests/t/engine_cpus.sh.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "core/cpus.h"

#include "util/banned.h"

static void roundtrip(const char *in, const char *want)
{
	cpu_set_t set;
	char buf[256];

	assert_int_equal(cpus_parse_list(in, &set), 0);
	cpus_format_list(&set, buf, sizeof(buf));
	assert_string_equal(buf, want);
}

static void test_lists(void **state)
{
	cpu_set_t set;
	const char *bad[] = { "", "x", "1,", ",1", "1-", "-1", "3-1", "1--2", "0 1", "1,,2",
			      "99999", "0-1024" };

	(void)state;
	roundtrip("0", "0");
	roundtrip("0,1", "0-1");
	roundtrip("3,1,2", "1-3");
	roundtrip("0-2,5,7-8", "0-2,5,7-8");
	roundtrip("4-4", "4");
	roundtrip("1023", "1023");
	assert_int_equal(cpus_parse_list("2,4", &set), 0);
	assert_true(CPU_ISSET(2, &set) && CPU_ISSET(4, &set) && !CPU_ISSET(3, &set));
	assert_int_equal(CPU_COUNT(&set), 2);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_int_equal(cpus_parse_list(bad[i], &set), -1);
}

static void test_format_small_buffer(void **state)
{
	cpu_set_t set;
	char buf[4];

	(void)state;
	assert_int_equal(cpus_parse_list("0,2,4,6,8", &set), 0);
	cpus_format_list(&set, buf, sizeof(buf));
	assert_true(strlen(buf) < sizeof(buf));   /* cut, still terminated */
}

static void test_check(void **state)
{
	cpu_set_t mine;
	struct cpu_opts o;
	int last = -1;

	(void)state;
	assert_int_equal(sched_getaffinity(0, sizeof(mine), &mine), 0);
	for (int i = 0; i < CPU_SETSIZE; i++)
		if (CPU_ISSET(i, &mine))
			last = i;
	memset(&o, 0, sizeof(o));
	assert_int_equal(cpus_check(&o), 0);          /* no --cpu */
	o.have_cpus = true;
	o.cpus = mine;
	assert_int_equal(cpus_check(&o), 0);          /* all of its own */
	CPU_ZERO(&o.cpus);
	CPU_SET(last, &o.cpus);
	assert_int_equal(cpus_check(&o), 0);          /* one of its own */
	if (last + 1 < CPU_SETSIZE) {
		CPU_SET(last + 1, &o.cpus);           /* one it may not use */
		assert_int_equal(cpus_check(&o), -1);
	}
	o.mode = PIN_OFF;
	assert_int_equal(cpus_check(&o), 0);          /* --no-pin: nothing */
}

static void test_off_is_null(void **state)
{
	struct cpu_opts o;
	struct cpu_task ct;
	uint64_t args[6] = { 0 };
	uint8_t set[8] = { 0 };

	(void)state;
	memset(&o, 0, sizeof(o));
	memset(&ct, 0, sizeof(ct));
	o.mode = PIN_OFF;
	assert_null(cpus_new(&o, false, true));
	/* every hook takes NULL and changes nothing */
	cpus_task_new(NULL, &ct, 42, NULL);
	assert_int_equal(ct.tid, 42);
	cpus_stopped(NULL, &ct);
	cpus_resume(NULL, &ct);
	assert_false(cpus_syscall_entry(NULL, &ct, 0, args));
	cpus_syscall_exit(NULL, &ct, 0);
	cpus_add_watched(NULL, set, sizeof(set));
	for (size_t i = 0; i < sizeof(set); i++)
		assert_int_equal(set[i], 0);
	cpus_task_release(NULL, &ct, true);
	assert_null(ct.user);
	cpus_begin(NULL);
	cpus_free(NULL);
}

static void test_attached_never_pins(void **state)
{
	struct cpu_opts o;
	struct cpu_task ct;
	struct cpus *c;
	cpu_set_t before, after;

	(void)state;
	memset(&o, 0, sizeof(o));
	memset(&ct, 0, sizeof(ct));
	assert_int_equal(sched_getaffinity(0, sizeof(before), &before), 0);
	c = cpus_new(&o, true, true);
	assert_non_null(c);
	/* the test process itself stands in for an attached task: resuming
	 * it any number of times leaves its mask (and renacer's) alone */
	cpus_task_new(c, &ct, 0, NULL);
	for (int i = 0; i < 3; i++) {
		cpus_stopped(c, &ct);
		cpus_resume(c, &ct);
	}
	assert_int_equal(sched_getaffinity(0, sizeof(after), &after), 0);
	assert_true(CPU_EQUAL(&before, &after));
	cpus_task_release(c, &ct, true);
	cpus_free(c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lists),
		cmocka_unit_test(test_format_small_buffer),
		cmocka_unit_test(test_check),
		cmocka_unit_test(test_off_is_null),
		cmocka_unit_test(test_attached_never_pins),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
