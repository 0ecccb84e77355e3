/* Checked allocation: every allocation in renacer goes through here. */
#ifndef RENACER_XMALLOC_H
#define RENACER_XMALLOC_H

#include <stddef.h>

/*
 * xmalloc/xcalloc/xrealloc/xstrdup/xmemdup never return NULL: on allocation
 * failure or size overflow they print one line and abort the process, since
 * a tracer that cannot allocate cannot keep its tracees consistent.
 * xreallocarray checks nmemb * size for overflow.
 */
void *xmalloc(size_t size);
void *xcalloc(size_t nmemb, size_t size);
void *xrealloc(void *ptr, size_t size);
void *xreallocarray(void *ptr, size_t nmemb, size_t size);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
void *xmemdup(const void *p, size_t n);

/* Grow *arr (of *alloc elements of elsize) so that it holds at least need. */
#define ALLOC_GROW(arr, need, alloc)                                          \
	do {                                                                  \
		if ((size_t)(need) > (size_t)(alloc)) {                       \
			size_t grow_ = (alloc) ? (size_t)(alloc) * 2 : 16;    \
			if (grow_ < (size_t)(need))                           \
				grow_ = (size_t)(need);                       \
			(arr) = xreallocarray((arr), grow_, sizeof(*(arr)));  \
			(alloc) = grow_;                                      \
		}                                                             \
	} while (0)

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* qsort that accepts an empty (possibly NULL) array, as git's QSORT. */
#define QSORT(base, n, cmp)                                                  \
	do {                                                                  \
		if ((n) > 1)                                                  \
			qsort((base), (n), sizeof(*(base)), (cmp));          \
	} while (0)

#endif
