/* String interning (see intern.h): FNV-1a hashing, linear probing. */
#include "util/intern.h"
#include "util/xmalloc.h"

#include <stdlib.h>
#include <string.h>

#include "util/banned.h"

static uint32_t hash_bytes(const char *s, size_t len)
{
	uint32_t h = 2166136261u;
	for (size_t i = 0; i < len; i++) {
		h ^= (unsigned char)s[i];
		h *= 16777619u;
	}
	return h ? h : 1;
}

static uint32_t lookup(const struct intern *t, const char *s, size_t len,
		       uint32_t h, uint32_t *slot)
{
	uint32_t mask = t->nslots - 1, i = h & mask;
	for (;;) {
		uint32_t v = t->slots[i];
		if (!v) {
			*slot = i;
			return UINT32_MAX;
		}
		v--;
		if (t->hashes[v] == h && t->lens[v] == len &&
		    !memcmp(t->pool + t->offs[v], s, len))
			return v;
		i = (i + 1) & mask;
	}
}

static void rehash(struct intern *t)
{
	uint32_t n = t->nslots ? t->nslots * 2 : 1024;
	free(t->slots);
	t->slots = xcalloc(n, sizeof(*t->slots));
	t->nslots = n;
	for (uint32_t id = 0; id < t->n; id++) {
		uint32_t i = t->hashes[id] & (n - 1);
		while (t->slots[i])
			i = (i + 1) & (n - 1);
		t->slots[i] = id + 1;
	}
}

uint32_t intern_add(struct intern *t, const char *s, size_t len)
{
	uint32_t h = hash_bytes(s, len), slot, id;

	if ((size_t)(t->n + 1) * 2 > t->nslots)
		rehash(t);
	id = lookup(t, s, len, h, &slot);
	if (id != UINT32_MAX)
		return id;
	if (t->n == UINT32_MAX - 1 || t->pool_len + len + 1 > UINT32_MAX)
		abort();  /* more than 4 GB of distinct strings */
	if (t->n >= t->alloc) {
		uint32_t na = t->alloc ? t->alloc * 2 : 256;
		t->offs = xreallocarray(t->offs, na, sizeof(*t->offs));
		t->lens = xreallocarray(t->lens, na, sizeof(*t->lens));
		t->hashes = xreallocarray(t->hashes, na, sizeof(*t->hashes));
		t->alloc = na;
	}
	ALLOC_GROW(t->pool, t->pool_len + len + 1, t->pool_alloc);
	memcpy(t->pool + t->pool_len, s, len);
	t->pool[t->pool_len + len] = '\0';
	id = t->n++;
	t->offs[id] = (uint32_t)t->pool_len;
	t->lens[id] = (uint32_t)len;
	t->hashes[id] = h;
	t->pool_len += len + 1;
	t->slots[slot] = id + 1;
	return id;
}

uint32_t intern_find(const struct intern *t, const char *s, size_t len)
{
	uint32_t slot;
	if (!t->nslots)
		return UINT32_MAX;
	return lookup(t, s, len, hash_bytes(s, len), &slot);
}

size_t intern_mem(const struct intern *t)
{
	return t->pool_alloc + (size_t)t->alloc * 12 + (size_t)t->nslots * 4;
}

void intern_release(struct intern *t)
{
	free(t->pool);
	free(t->offs);
	free(t->lens);
	free(t->slots);
	free(t->hashes);
	memset(t, 0, sizeof(*t));
}
