/* Bump allocator for per-event data: everything is freed at once. */
#ifndef RENACER_ARENA_H
#define RENACER_ARENA_H

#include <stddef.h>

/*
 * An arena hands out memory that lives until arena_reset() or
 * arena_release().  Chunks are kept across resets, so a steady stream of
 * events allocates nothing once warm.  ARENA_INIT is an empty arena.
 */
struct arena_chunk;
struct arena {
	struct arena_chunk *head;   /* chunk being filled */
	struct arena_chunk *free;   /* chunks kept after reset */
	size_t used;                /* bytes handed out since the last reset
				       (decoders bound an event with it) */
};
#define ARENA_INIT { NULL, NULL, 0 }

void *arena_alloc(struct arena *a, size_t n);       /* 16-byte aligned */
void *arena_calloc(struct arena *a, size_t n);
char *arena_strndup(struct arena *a, const char *s, size_t n); /* NUL added */
void *arena_memdup(struct arena *a, const void *p, size_t n);
void arena_reset(struct arena *a);
void arena_release(struct arena *a);

#endif
