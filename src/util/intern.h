/*
 * String interning: every distinct string is
 * stored once and named by a small integer, so a million calls cost a
 * million ids, not a million strings.
 */
#ifndef RENACER_UTIL_INTERN_H
#define RENACER_UTIL_INTERN_H

#include <stddef.h>
#include <stdint.h>

/*
 * A table of strings.  Ids are dense, starting at 0, in order of first
 * addition.  Strings are stored NUL-terminated in one pool; pointers from
 * intern_str() stay valid only until the next intern_add().
 * INTERN_INIT is an empty table; intern_release() frees it.
 */
struct intern {
	char *pool;           /* all strings, each NUL-terminated */
	size_t pool_len, pool_alloc;
	uint32_t *offs;       /* id -> offset in pool */
	uint32_t *lens;       /* id -> length */
	uint32_t n, alloc;
	uint32_t *slots;      /* open addressing: id + 1, 0 = empty */
	uint32_t *hashes;     /* id -> hash */
	uint32_t nslots;      /* power of two */
};
#define INTERN_INIT { NULL, 0, 0, NULL, NULL, 0, 0, NULL, NULL, 0 }

/* Returns the id of s (len bytes), adding it when new. */
uint32_t intern_add(struct intern *t, const char *s, size_t len);
/* Returns the id of s, or UINT32_MAX when it is not in the table. */
uint32_t intern_find(const struct intern *t, const char *s, size_t len);
/* The string of id (NUL-terminated); id must be < t->n. */
static inline const char *intern_str(const struct intern *t, uint32_t id)
{
	return t->pool + t->offs[id];
}
static inline uint32_t intern_len(const struct intern *t, uint32_t id)
{
	return t->lens[id];
}
/* Bytes of memory the table holds (for reports). */
size_t intern_mem(const struct intern *t);
void intern_release(struct intern *t);

#endif
