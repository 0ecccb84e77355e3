/*
 * A small strict JSON parser for trace records: one value into a tree of
 * nodes allocated from an arena, so that reading millions of records costs
 * no malloc per record (jansson's per-node allocations dominate otherwise).
 */
#ifndef RENACER_JV_H
#define RENACER_JV_H

#include <stddef.h>
#include <stdint.h>

#include "util/arena.h"

enum jv_type { JV_NULL = 0, JV_FALSE, JV_TRUE, JV_INT, JV_REAL, JV_STR, JV_ARR, JV_OBJ };

/* A node; the members of an object are its items, each with its key. */
struct jv {
	uint8_t type;            /* enum jv_type */
	uint32_t n;              /* string bytes, or item count */
	const char *key;         /* member name (NUL-terminated), else NULL */
	union {
		int64_t i;           /* JV_INT */
		double d;            /* JV_REAL */
		const char *s;       /* JV_STR: n bytes plus a NUL (may hold NULs) */
		struct jv *items;    /* JV_ARR, JV_OBJ */
	};
};

/* Where and why parsing failed; msg reads like jansson's. */
struct jv_err {
	size_t off;              /* byte offset in the input */
	char msg[120];
};

/*
 * Parses buf[0..len) as exactly one JSON value (RFC 8259: UTF-8 checked,
 * \u escapes decoded, \u0000 allowed) with whitespace around it.  Integers
 * that do not fit int64 and reals that overflow are errors, as is nesting
 * deeper than max_depth.  Returns the root, or NULL with *err filled.  All
 * memory comes from a; nothing else is allocated.
 */
struct jv *jv_parse(struct arena *a, const char *buf, size_t len, int max_depth,
		    struct jv_err *err);

/* Member key of object o (the last one of duplicates), or NULL (also when o
 * is NULL or not an object). */
struct jv *jv_get(const struct jv *o, const char *key);

/* Item i of array a, or NULL. */
static inline struct jv *jv_at(const struct jv *a, size_t i)
{
	return a && a->type == JV_ARR && i < a->n ? &a->items[i] : NULL;
}

#endif
