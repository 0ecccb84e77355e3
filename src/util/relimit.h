/*
 * Bounded regular expressions: glibc's regcomp() expands counted
 * repetitions and computes epsilon closures in time and memory that grow
 * with the square of the expanded pattern (x{0,10000} takes 8 s and 800 MB,
 * x{0,32767}{0,32767} all memory).  Every pattern that comes from input
 * (renacer.toml, -e trace=/RE/) is measured here before it is compiled.
 */
#ifndef RENACER_RELIMIT_H
#define RENACER_RELIMIT_H

#include <regex.h>
#include <stddef.h>
#include <stdint.h>

/* Default budget of re_cost(): a{0,2000} (16,000,000) fits, a{0,2500} does not. */
#define RE_DEFAULT_MAX_COST 20000000ULL

/*
 * Estimates what compiling the POSIX ERE pattern costs: the number of
 * automaton nodes after counted repetitions are expanded, times the largest
 * number of nodes one of them reaches without consuming input (its epsilon
 * closure).  It is an upper bound for the shapes that matter (optional and
 * counted repetitions, alternations, nesting): a{1000} costs about 1,000,
 * a{0,1000} about 4,000,000, a 1,000-branch alternation of words about
 * 9,000,000.  Saturates at UINT64_MAX.
 *
 * Returns the cost, or UINT64_MAX with *why set (and *off, the byte offset
 * in pattern) for what renacer refuses whatever the budget: back-references
 * (\1..\9, whose matching takes exponential time).
 */
uint64_t re_cost(const char *pattern, const char **why, size_t *off);

/*
 * regcomp() of pattern with cflags when re_cost() is within max_cost (0:
 * RE_DEFAULT_MAX_COST).  Returns 0, or a REG_* error code (REG_ESIZE when
 * the pattern is over the budget or refused) with a message in err.
 */
int re_compile_bounded(regex_t *re, const char *pattern, int cflags, uint64_t max_cost,
		       char *err, size_t errlen);

#endif
