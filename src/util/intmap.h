/*
 * A map from 64-bit integers (tids, pids, descriptors, addresses) to 64-bit
 * values: open addressing with linear probing and backward-shift deletion,
 * so lookups stay one or two cache lines whatever was deleted before.
 */
#ifndef RENACER_UTIL_INTMAP_H
#define RENACER_UTIL_INTMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The one key a map cannot hold (it marks empty slots). */
#define INTMAP_NOKEY UINT64_MAX

/*
 * INTMAP_INIT is an empty map; intmap_release() frees its contents.
 * Pointers returned by intmap_get()/intmap_put() stay valid until the next
 * intmap_put() or intmap_del() on the map.
 */
struct intmap {
	uint64_t *keys;          /* INTMAP_NOKEY for an empty slot */
	uint64_t *vals;
	uint32_t cap;            /* a power of two, or 0 */
	uint32_t n;              /* keys held */
};
#define INTMAP_INIT { NULL, NULL, 0, 0 }

/* The value of key, or NULL when the map does not hold it. */
uint64_t *intmap_get(const struct intmap *m, uint64_t key);

/*
 * The value of key, added with value 0 when the map did not hold it
 * (*added, when not NULL, says which).  key must not be INTMAP_NOKEY.
 */
uint64_t *intmap_put(struct intmap *m, uint64_t key, bool *added);

/* Removes key; returns whether the map held it. */
bool intmap_del(struct intmap *m, uint64_t key);

/*
 * Removes every key for which match(key, value, arg) is true (match must not
 * change the map); returns how many it removed.
 */
uint32_t intmap_del_if(struct intmap *m, bool (*match)(uint64_t key, uint64_t val, void *arg),
		       void *arg);

/*
 * Iteration: for (uint32_t i = 0; intmap_next(m, &i, &k, &v); ) visits each
 * key once, in no particular order; the map must not change meanwhile.
 */
bool intmap_next(const struct intmap *m, uint32_t *i, uint64_t *key, uint64_t *val);

/* Empties the map, keeping its memory. */
void intmap_clear(struct intmap *m);
void intmap_release(struct intmap *m);

#endif
