/*
 * Unit tests for src/golden/diff.c: the alignment against a brute-force
 * LCS on random sequences (exact length while under the cost limit, always
 * a valid common subsequence), the cost-limited heuristic on a long input,
 * and unified-diff hunks.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "golden/diff.h"
#include "util/xmalloc.h"

#include "util/banned.h"

/* Length of the longest common subsequence, by dynamic programming. */
static size_t lcs(const uint32_t *a, size_t n, const uint32_t *b, size_t m)
{
	size_t *prev = xcalloc(m + 1, sizeof(*prev)), *cur = xcalloc(m + 1, sizeof(*cur));
	for (size_t i = 1; i <= n; i++) {
		for (size_t j = 1; j <= m; j++) {
			if (a[i - 1] == b[j - 1])
				cur[j] = prev[j - 1] + 1;
			else
				cur[j] = prev[j] > cur[j - 1] ? prev[j] : cur[j - 1];
		}
		size_t *t = prev;
		prev = cur;
		cur = t;
	}
	size_t r = prev[m];
	free(prev);
	free(cur);
	return r;
}

/* The kept elements of a and b are equal, in order, and as many as common. */
static void check_alignment(const uint32_t *a, size_t n, const uint32_t *b, size_t m,
			    const uint8_t *ca, const uint8_t *cb, size_t common)
{
	size_t i = 0, j = 0, kept = 0;
	for (;;) {
		while (i < n && ca[i])
			i++;
		while (j < m && cb[j])
			j++;
		if (i >= n || j >= m)
			break;
		assert_int_equal(a[i], b[j]);
		kept++;
		i++;
		j++;
	}
	for (; i < n; i++)
		assert_true(ca[i]);
	for (; j < m; j++)
		assert_true(cb[j]);
	assert_int_equal(kept, common);
}

static void test_random_against_lcs(void **state)
{
	(void)state;
	srand(42);
	for (int round = 0; round < 400; round++) {
		size_t n = (size_t)(rand() % 60), m = (size_t)(rand() % 60);
		uint32_t alpha = 1 + (uint32_t)(rand() % 6);
		uint32_t *a = xmalloc((n + 1) * 4), *b = xmalloc((m + 1) * 4);
		uint8_t *ca = xmalloc(n + 1), *cb = xmalloc(m + 1);
		int exact;
		for (size_t i = 0; i < n; i++)
			a[i] = (uint32_t)rand() % alpha;
		for (size_t j = 0; j < m; j++)
			b[j] = (uint32_t)rand() % alpha;
		size_t common = gdiff(a, n, b, m, alpha, ca, cb, &exact);
		check_alignment(a, n, b, m, ca, cb, common);
		assert_true(exact);
		assert_int_equal(common, lcs(a, n, b, m));
		free(a);
		free(b);
		free(ca);
		free(cb);
	}
}

static void test_edits(void **state)
{
	/* golden: 0..999; current: one inserted, one removed, one replaced */
	uint32_t a[1000], b[1000];
	uint8_t ca[1000], cb[1000];
	size_t m = 0;
	int exact;
	(void)state;
	for (uint32_t i = 0; i < 1000; i++)
		a[i] = i % 50;
	for (uint32_t i = 0; i < 1000; i++) {
		if (i == 100)
			b[m++] = 77;           /* inserted (a value never in a) */
		if (i == 500)
			continue;              /* removed */
		b[m++] = i == 700 ? 78 : a[i];   /* replaced */
	}
	size_t common = gdiff(a, 1000, b, m, 100, ca, cb, &exact);
	check_alignment(a, 1000, b, m, ca, cb, common);
	assert_int_equal(common, 998);
	assert_true(ca[500] && ca[700]);
	assert_true(cb[100]);

	struct gdiff_hunk *h;
	size_t nh = gdiff_hunks(ca, 1000, cb, m, 3, &h);
	assert_int_equal(nh, 3);
	/* the first hunk: 3 lines of context, the insertion, 3 lines */
	assert_int_equal(h[0].a0, 97);
	assert_int_equal(h[0].na, 6);
	assert_int_equal(h[0].b0, 97);
	assert_int_equal(h[0].nb, 7);
	free(h);
	/* two changes 4 apart share a hunk with 3 lines of context */
	memset(ca, 0, sizeof(ca));
	memset(cb, 0, sizeof(cb));
	ca[10] = ca[15] = 1;
	nh = gdiff_hunks(ca, 20, cb, 18, 3, &h);
	assert_int_equal(nh, 1);
	assert_int_equal(h[0].a0, 7);
	assert_int_equal(h[0].na, 12);
	assert_int_equal(h[0].nb, 10);
	free(h);
}

static void test_large_heuristic(void **state)
{
	/* 200k elements from a small alphabet with 5% scattered changes: the
	 * cost limit kicks in; the result is still a valid alignment close to
	 * the number of unchanged elements */
	size_t n = 200000;
	uint32_t *a = xmalloc(n * 4), *b = xmalloc(n * 4);
	uint8_t *ca = xmalloc(n), *cb = xmalloc(n);
	size_t same = 0;
	int exact;
	(void)state;
	srand(7);
	for (size_t i = 0; i < n; i++) {
		a[i] = (uint32_t)(i % 13);
		b[i] = rand() % 20 == 0 ? (uint32_t)(rand() % 13) : a[i];
		same += a[i] == b[i];
	}
	size_t common = gdiff(a, n, b, n, 13, ca, cb, &exact);
	check_alignment(a, n, b, n, ca, cb, common);
	assert_true(common >= same);
	free(a);
	free(b);
	free(ca);
	free(cb);
}

static void test_empty(void **state)
{
	uint32_t a[3] = { 1, 2, 3 };
	uint8_t ca[3], cb[1];
	int exact;
	(void)state;
	assert_int_equal(gdiff(a, 3, NULL, 0, 4, ca, cb, &exact), 0);
	assert_true(ca[0] && ca[1] && ca[2]);
	assert_int_equal(gdiff(NULL, 0, NULL, 0, 1, ca, cb, &exact), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_random_against_lcs),
		cmocka_unit_test(test_edits),
		cmocka_unit_test(test_large_heuristic),
		cmocka_unit_test(test_empty),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
