/* String interning (see intern.h): FNV-1a hashing, linear probing. */
#include "util/intern.h"
#include "util/xmalloc.h"

#include <stdlib.h>
#include <string.h>

#include "util/banned.h"

/* Strings are packed into chunks that double from 256 bytes up to 64 KiB
 * (a small table stays small); a longer string gets a chunk of its own. */
#define CHUNK_MIN 256
#define CHUNK_MAX (64 * 1024)

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
		if (t->hashes[v] == h && t->lens[v] == len && !memcmp(t->strs[v], s, len))
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

/* A copy of s with a NUL, at an address that never changes: packed after
 * the strings before it, or in a new chunk when the newest one is full. */
static const char *store(struct intern *t, const char *s, size_t len)
{
	char *p;

	if (t->room < len + 1) {
		size_t size = t->pool_alloc < CHUNK_MIN ? CHUNK_MIN :
			      t->pool_alloc < CHUNK_MAX ? t->pool_alloc : CHUNK_MAX;
		if (size < len + 1)
			size = len + 1;
		ALLOC_GROW(t->chunks, t->nchunks + 1, t->achunks);
		t->chunks[t->nchunks++] = t->next = xmalloc(size);
		t->room = size;
		t->pool_alloc += size;
	}
	p = t->next;
	memcpy(p, s, len);
	p[len] = '\0';
	t->next += len + 1;
	t->room -= len + 1;
	return p;
}

uint32_t intern_add(struct intern *t, const char *s, size_t len)
{
	uint32_t h = hash_bytes(s, len), slot, id;

	if ((size_t)(t->n + 1) * 2 > t->nslots)
		rehash(t);
	id = lookup(t, s, len, h, &slot);
	if (id != UINT32_MAX)
		return id;
	if (t->n == UINT32_MAX - 1 || len >= UINT32_MAX)
		abort();  /* 4 billion strings, or one of 4 GB */
	if (t->n >= t->alloc) {
		uint32_t na = t->alloc ? t->alloc * 2 : 256;
		t->strs = xreallocarray(t->strs, na, sizeof(*t->strs));
		t->lens = xreallocarray(t->lens, na, sizeof(*t->lens));
		t->hashes = xreallocarray(t->hashes, na, sizeof(*t->hashes));
		t->alloc = na;
	}
	id = t->n++;
	t->strs[id] = store(t, s, len);
	t->lens[id] = (uint32_t)len;
	t->hashes[id] = h;
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
	return t->pool_alloc + t->achunks * sizeof(*t->chunks) +
	       (size_t)t->alloc * (sizeof(*t->strs) + 8) + (size_t)t->nslots * 4;
}

void intern_release(struct intern *t)
{
	for (size_t i = 0; i < t->nchunks; i++)
		free(t->chunks[i]);
	free(t->chunks);
	free(t->strs);
	free(t->lens);
	free(t->slots);
	free(t->hashes);
	memset(t, 0, sizeof(*t));
}
