/* Bump allocator (see arena.h). */
#include "util/arena.h"
#include "util/xmalloc.h"

#include <stdlib.h>
#include <string.h>

struct arena_chunk {
	struct arena_chunk *next;
	size_t size, used;
	max_align_t data[];
};

#define CHUNK_MIN 16384

void *arena_alloc(struct arena *a, size_t n)
{
	struct arena_chunk *c = a->head;

	n = (n + 15) & ~(size_t)15;
	if (!c || c->size - c->used < n) {
		struct arena_chunk **pp = &a->free;
		c = NULL;
		while (*pp) {
			if ((*pp)->size >= n) {
				c = *pp;
				*pp = c->next;
				break;
			}
			pp = &(*pp)->next;
		}
		if (!c) {
			size_t sz = n > CHUNK_MIN ? n : CHUNK_MIN;
			c = xmalloc(sizeof(*c) + sz);
			c->size = sz;
		}
		c->used = 0;
		c->next = a->head;
		a->head = c;
	}
	c->used += n;
	a->used += n;
	return (char *)c->data + c->used - n;
}

void *arena_calloc(struct arena *a, size_t n)
{
	void *p = arena_alloc(a, n);
	memset(p, 0, n);
	return p;
}

char *arena_strndup(struct arena *a, const char *s, size_t n)
{
	char *p = arena_alloc(a, n + 1);
	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

void *arena_memdup(struct arena *a, const void *p, size_t n)
{
	void *d = arena_alloc(a, n ? n : 1);
	if (n)
		memcpy(d, p, n);
	return d;
}

void arena_reset(struct arena *a)
{
	a->used = 0;
	while (a->head) {
		struct arena_chunk *c = a->head;
		a->head = c->next;
		/* keep at most a few chunks around; free huge one-offs */
		if (c->size > 4 * CHUNK_MIN) {
			free(c);
			continue;
		}
		c->next = a->free;
		a->free = c;
	}
}

void arena_release(struct arena *a)
{
	arena_reset(a);
	while (a->free) {
		struct arena_chunk *c = a->free;
		a->free = c->next;
		free(c);
	}
}
