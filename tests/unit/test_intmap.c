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

static bool odd_value(uint64_t key, uint64_t val, void *arg)
{
	(void)key;
	++*(uint32_t *)arg;
	return val & 1;
}

/*
 * intmap_del_if() removes exactly the matching keys, whatever the runs of
 * the table look like: full tables (many keys, runs that wrap around the
 * end) and sparse ones, against the keys as put.
 */
static void test_intmap_del_if(void **state)
{
	enum { MAXKEYS = 3000 };
	static uint64_t keys[MAXKEYS], vals[MAXKEYS];
	uint32_t seed = 777;

	(void)state;
	for (int round = 0; round < 200; round++) {
		struct intmap m = INTMAP_INIT;
		uint32_t nkeys = 1 + (uint32_t)round * 15 % MAXKEYS, odd = 0, calls = 0;

		for (uint32_t k = 0; k < nkeys; k++) {
			bool added;
			seed = seed * 1103515245u + 12345u;
			/* (round & 1): keys 0, 1, 2 ... that all land near each
			 * other, else keys spread over the range */
			keys[k] = round & 1 ? k : (uint64_t)seed << 20 ^ k;
			vals[k] = seed >> 16;
			*intmap_put(&m, keys[k], &added) = vals[k];
			assert_true(added);
			odd += (seed >> 16) & 1;
		}
		assert_int_equal(intmap_del_if(&m, odd_value, &calls), odd);
		assert_true(calls >= nkeys);
		assert_int_equal(m.n, nkeys - odd);
		for (uint32_t k = 0; k < nkeys; k++) {
			uint64_t *v = intmap_get(&m, keys[k]);
			if (vals[k] & 1) {
				assert_null(v);
			} else {
				assert_non_null(v);
				assert_int_equal(*v, vals[k]);
			}
		}
		uint32_t i = 0, seen = 0;
		uint64_t val;
		while (intmap_next(&m, &i, NULL, &val)) {
			assert_int_equal(val & 1, 0);
			seen++;
		}
		assert_int_equal(seen, nkeys - odd);
		intmap_release(&m);
	}
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

/*
 * A string's pointer stays what it was while the table grows (many small
 * strings and one larger than a chunk), and equal strings share it.
 */
static void test_intern_stable(void **state)
{
	enum { N = 50000 };
	struct intern t = INTERN_INIT;
	static const char *ptr[N];
	static char big[200000];
	char buf[32];

	(void)state;
	memset(big, 'x', sizeof(big) - 1);
	for (int i = 0; i < N; i++) {
		int len = snprintf(buf, sizeof(buf), "string %d", i);
		ptr[i] = intern_str(&t, intern_add(&t, buf, len));
		if (i == N / 2)
			assert_int_equal(intern_add(&t, big, sizeof(big) - 1), i + 1);
	}
	for (int i = 0; i < N; i++) {
		int len = snprintf(buf, sizeof(buf), "string %d", i);
		uint32_t id = intern_add(&t, buf, len);
		assert_ptr_equal(intern_str(&t, id), ptr[i]);
		assert_string_equal(ptr[i], buf);
	}
	assert_int_equal(intern_len(&t, N / 2 + 1), sizeof(big) - 1);
	assert_string_equal(intern_str(&t, N / 2 + 1), big);
	assert_true(intern_mem(&t) > sizeof(big));
	intern_release(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_intmap_random),
		cmocka_unit_test(test_intmap_del_if),
		cmocka_unit_test(test_intern),
		cmocka_unit_test(test_intern_stable),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
