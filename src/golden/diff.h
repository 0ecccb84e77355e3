/*
 * Sequence diff for golden traces: Myers' O(ND) algorithm in linear space
 * (divide and conquer on the middle snake), with the two heuristics git's
 * xdiff uses so that a million-element sequence with many changes still
 * diffs in bounded time: elements that occur in only one sequence are
 * changes without search, and a search that costs more than a limit
 * splits at the furthest-reaching diagonal instead of the optimal one.
 */
#ifndef RENACER_GOLDEN_DIFF_H
#define RENACER_GOLDEN_DIFF_H

#include <stddef.h>
#include <stdint.h>

/*
 * Compares a[0..n) with b[0..m) (element ids < nids).  Sets chg_a[i] to 1
 * for each element of a not kept (removed) and chg_b[j] to 1 for each
 * element of b not kept (added); the kept ones form a common subsequence,
 * the longest one when the cost limit was never hit (*exact set to 1).
 * Returns the length of the common subsequence.
 */
size_t gdiff(const uint32_t *a, size_t n, const uint32_t *b, size_t m, uint32_t nids,
	     uint8_t *chg_a, uint8_t *chg_b, int *exact);

/* A run of changes with its position: a[a0..a0+na) became b[b0..b0+nb). */
struct gdiff_hunk {
	size_t a0, na, b0, nb;     /* with context lines included */
};

/*
 * Groups the changes into unified-diff hunks with ctx elements of context
 * around each change (hunks closer than 2*ctx merge).  Returns the number
 * of hunks; *out is malloc'ed (the caller frees it).
 */
size_t gdiff_hunks(const uint8_t *chg_a, size_t n, const uint8_t *chg_b, size_t m,
		   unsigned ctx, struct gdiff_hunk **out);

#endif
