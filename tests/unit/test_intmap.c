/* util/intmap and util/intern against simple reference structures. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "util/intern.h"
#include "util/intmap.h"

/* Random puts, gets and deletes against a direct-indexed reference. */
static void test_intmap_random(void **state)
{
	enum { KEYS = 5000, OPS = 200000 };
	static uint64_t ref[KEYS];
	static bool have[KEYS];
	struct intmap m = INTMAP_INIT;
	uint32_t n = 0, seed = 12345;

	(void)state;
	for (int op = 0; op < OPS; op++) {
		seed = seed * 1103515245u + 12345u;
		uint32_t k = (seed >> 8) % KEYS;
		/* keys spread over the 64-bit range, 0 among them */
		uint64_t key = (uint64_t)k * 0x9e3779b97f4a7c15ull; /* a bijection */
		switch ((seed >> 4) % 3) {
		case 0: {
			bool added;
			uint64_t *v = intmap_put(&m, key, &added);
			assert_int_equal(added, !have[k]);
			if (added)
				assert_int_equal(*v, 0);
			*v = op;
			if (!have[k])
				n++;
			have[k] = true;
			ref[k] = op;
			break;
		}
		case 1: {
			uint64_t *v = intmap_get(&m, key);
			if (have[k]) {
				assert_non_null(v);
				assert_int_equal(*v, ref[k]);
			} else {
				assert_null(v);
			}
			break;
		}
		default:
			assert_int_equal(intmap_del(&m, key), have[k]);
			if (have[k])
				n--;
			have[k] = false;
			break;
		}
		assert_int_equal(m.n, n);
	}
	/* iteration visits each key once */
	uint32_t seen = 0, i = 0;
	uint64_t key, val;
	while (intmap_next(&m, &i, &key, &val)) {
		assert_true(intmap_get(&m, key) && *intmap_get(&m, key) == val);
		seen++;
	}
	assert_int_equal(seen, n);
	intmap_clear(&m);
	assert_int_equal(m.n, 0);
	assert_null(intmap_get(&m, 0));
	intmap_release(&m);
}

static void test_intern(void **state)
{
	struct intern t = INTERN_INIT;
	char buf[32];

	(void)state;
	for (int i = 0; i < 3000; i++) {
		int len = snprintf(buf, sizeof(buf), "s%d", i);
		assert_int_equal(intern_add(&t, buf, len), (uint32_t)i);
	}
	for (int i = 0; i < 3000; i++) {
		int len = snprintf(buf, sizeof(buf), "s%d", i);
		assert_int_equal(intern_add(&t, buf, len), (uint32_t)i);
		assert_int_equal(intern_find(&t, buf, len), (uint32_t)i);
		assert_string_equal(intern_str(&t, i), buf);
	}
	assert_int_equal(intern_find(&t, "nope", 4), UINT32_MAX);
	/* embedded NULs and the empty string are strings like others */
	assert_int_equal(intern_add(&t, "a\0b", 3), 3000);
	assert_int_equal(intern_add(&t, "a", 1), 3001);
	assert_int_equal(intern_add(&t, "", 0), 3002);
	assert_int_equal(intern_len(&t, 3000), 3);
	intern_release(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_intmap_random),
		cmocka_unit_test(test_intern),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
