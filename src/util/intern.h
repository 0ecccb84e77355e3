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
 * addition.  Strings are stored NUL-terminated in chunks that never move,
 * so a pointer from intern_str() stays valid until intern_release(), and
 * two equal strings have the same pointer (callers may compare pointers).
 * INTERN_INIT is an empty table (as is an all-zero one); intern_release()
 * frees it.
 */
struct intern {
	char **chunks;        /* the strings, each NUL-terminated */
	size_t nchunks, achunks;
	char *next;           /* the newest chunk's first free byte */
	size_t room;          /* ... and how many are free from there */
	size_t pool_alloc;    /* bytes of all chunks */
	const char **strs;    /* id -> string (in a chunk) */
	uint32_t *lens;       /* id -> length */
	uint32_t n, alloc;
	uint32_t *slots;      /* open addressing: id + 1, 0 = empty */
	uint32_t *hashes;     /* id -> hash */
	uint32_t nslots;      /* power of two */
};
#define INTERN_INIT { NULL, 0, 0, NULL, 0, 0, NULL, NULL, 0, 0, NULL, NULL, 0 }

/* Returns the id of s (len bytes), adding it when new. */
uint32_t intern_add(struct intern *t, const char *s, size_t len);
/* Returns the id of s, or UINT32_MAX when it is not in the table. */
uint32_t intern_find(const struct intern *t, const char *s, size_t len);
/* The string of id (NUL-terminated); id must be < t->n. */
static inline const char *intern_str(const struct intern *t, uint32_t id)
{
	return t->strs[id];
}
static inline uint32_t intern_len(const struct intern *t, uint32_t id)
{
	return t->lens[id];
}
/* Bytes of memory the table holds (for reports). */
size_t intern_mem(const struct intern *t);
void intern_release(struct intern *t);

#endif
