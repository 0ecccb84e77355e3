/*
 * The address space of a process as its calls show it (mmap, munmap,
 * mprotect, mremap, brk: struct sysent.memop), and the memory it has
 * committed: writable private mappings, anonymous or of files, and the heap;
 * not the reservations made without write access (glibc's 64 MB malloc
 * arenas, thread stacks' guard pages) nor writable MAP_NORESERVE ones until
 * mprotect makes parts of them writable.  docs/assertions.md says how each
 * call counts.
 *
 * One model for both of its readers: the tracker (track.h, for golden
 * comparison) and memory_usage (src/assert).
 *
 * Calls are seen when they end, and the threads of a process share its
 * address space, so a call can be seen after another that it preceded:
 * munmap(X) in one thread, then mmap in another that the kernel answers
 * with X, may be seen mmap first.  A removal (munmap, mprotect, mremap's
 * old range) does not take away what another thread mapped after the
 * removal began (struct amap.made).
 */
#ifndef RENACER_TRACK_AMAP_H
#define RENACER_TRACK_AMAP_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

struct event;

/* Sorted, disjoint [lo, hi) page-aligned ranges. */
struct amap_set {
	struct amap_range { uint64_t lo, hi; } *r;
	size_t n, alloc;
	uint64_t bytes;          /* sum of lengths */
};

/* What a process committed, in bytes. */
struct tmemstat {
	uint64_t committed;       /* now: writable private mappings and heap */
	uint64_t reserved;        /* now: mapped without write access */
	uint64_t peak;            /* the most committed it reached */
};

#define AMAP_MADE 16

struct amap {
	struct amap_set priv;    /* anonymous mappings and writable private
				    ones of files */
	struct amap_set commit;  /* the part of priv that is or was writable */
	uint64_t brk_base, brk_cur;  /* 0 until the first brk */
	struct tmemstat stat;
	/* the latest mappings made (a ring of AMAP_MADE, allocated by the
	 * first): [lo, hi) by tid, ended at end_ns */
	struct amap_made { uint64_t lo, hi, end_ns; pid_t tid; } *made;
	unsigned nmade;
};

/*
 * Applies one successful call whose struct sysent.memop is op (returns
 * false when the call is not one or its arguments are missing).
 */
bool amap_call(struct amap *m, const struct event *ev, uint8_t op);

/* dst (released first) becomes a copy of src: a forked child's memory. */
void amap_copy(struct amap *dst, const struct amap *src);

/* A new image (execve): the address space empties; the peak stays. */
void amap_clear(struct amap *m);

/* The process ended: what only ordering calls needed goes (the ranges and
 * the numbers stay). */
void amap_settle(struct amap *m);

/* Frees the ranges; m becomes empty (its peak 0). */
void amap_release(struct amap *m);

/* Whether no call has mapped anything or moved the heap. */
static inline bool amap_empty(const struct amap *m)
{
	return !m->priv.n && !m->brk_base;
}

/* The sets alone (for tests): add, remove, membership. */
void amap_set_add(struct amap_set *s, uint64_t lo, uint64_t hi);
void amap_set_remove(struct amap_set *s, uint64_t lo, uint64_t hi);
bool amap_set_has(const struct amap_set *s, uint64_t addr);

#endif
