/*
 * A process's address space and committed memory (see amap.h).
 */
#include "track/amap.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "event.h"
#include "sys/sysent.h"
#include "util/xmalloc.h"
#include "util/banned.h"

#define PAGE 4096ULL

#ifndef MREMAP_DONTUNMAP
#define MREMAP_DONTUNMAP 4
#endif

/* ---- sets of ranges ----------------------------------------------------- */

/* Index of the first range with hi > lo. */
static size_t set_lower(const struct amap_set *s, uint64_t lo)
{
	size_t l = 0, h = s->n;
	while (l < h) {
		size_t mid = (l + h) / 2;
		if (s->r[mid].hi <= lo)
			l = mid + 1;
		else
			h = mid;
	}
	return l;
}

void amap_set_remove(struct amap_set *s, uint64_t lo, uint64_t hi)
{
	if (hi <= lo)
		return;
	size_t i = set_lower(s, lo);
	while (i < s->n && s->r[i].lo < hi) {
		struct amap_range *r = &s->r[i];
		if (r->lo < lo && r->hi > hi) {
			/* split in two */
			ALLOC_GROW(s->r, s->n + 1, s->alloc);
			r = &s->r[i];
			memmove(&s->r[i + 2], &s->r[i + 1], (s->n - i - 1) * sizeof(*r));
			s->r[i + 1].lo = hi;
			s->r[i + 1].hi = r->hi;
			r->hi = lo;
			s->n++;
			s->bytes -= hi - lo;
			return;
		}
		if (r->lo < lo) {
			s->bytes -= r->hi - lo;
			r->hi = lo;
			i++;
			continue;
		}
		if (r->hi > hi) {
			s->bytes -= hi - r->lo;
			r->lo = hi;
			return;
		}
		s->bytes -= r->hi - r->lo;
		memmove(&s->r[i], &s->r[i + 1], (s->n - i - 1) * sizeof(*r));
		s->n--;
	}
}

void amap_set_add(struct amap_set *s, uint64_t lo, uint64_t hi)
{
	if (hi <= lo)
		return;
	amap_set_remove(s, lo, hi);
	size_t i = set_lower(s, lo);
	/* merge with neighbours that touch */
	bool left = i > 0 && s->r[i - 1].hi == lo;
	bool right = i < s->n && s->r[i].lo == hi;
	s->bytes += hi - lo;
	if (left && right) {
		s->r[i - 1].hi = s->r[i].hi;
		memmove(&s->r[i], &s->r[i + 1], (s->n - i - 1) * sizeof(*s->r));
		s->n--;
	} else if (left) {
		s->r[i - 1].hi = hi;
	} else if (right) {
		s->r[i].lo = lo;
	} else {
		ALLOC_GROW(s->r, s->n + 1, s->alloc);
		memmove(&s->r[i + 1], &s->r[i], (s->n - i) * sizeof(*s->r));
		s->r[i].lo = lo;
		s->r[i].hi = hi;
		s->n++;
	}
}

bool amap_set_has(const struct amap_set *s, uint64_t addr)
{
	size_t i = set_lower(s, addr);
	return i < s->n && s->r[i].lo <= addr;
}

/* Adds to dst the parts of src's ranges inside [lo, hi). */
static void set_add_within(struct amap_set *dst, const struct amap_set *src, uint64_t lo,
			   uint64_t hi)
{
	for (size_t i = set_lower(src, lo); i < src->n && src->r[i].lo < hi; i++)
		amap_set_add(dst, src->r[i].lo > lo ? src->r[i].lo : lo,
			     src->r[i].hi < hi ? src->r[i].hi : hi);
}

static void set_copy(struct amap_set *dst, const struct amap_set *src)
{
	free(dst->r);
	memset(dst, 0, sizeof(*dst));
	if (src->n) {
		dst->r = xmemdup(src->r, src->n * sizeof(*src->r));
		dst->n = dst->alloc = src->n;
	}
	dst->bytes = src->bytes;
}

/* ---- the address space --------------------------------------------------- */

static uint64_t page_up(uint64_t x)
{
	return x > UINT64_MAX - (PAGE - 1) ? UINT64_MAX & ~(PAGE - 1)
					   : (x + PAGE - 1) & ~(PAGE - 1);
}

static void note(struct amap *m)
{
	uint64_t heap = m->brk_cur > m->brk_base ? m->brk_cur - m->brk_base : 0;
	m->stat.committed = m->commit.bytes + heap;
	m->stat.reserved = m->priv.bytes - m->commit.bytes;
	if (m->stat.committed > m->stat.peak)
		m->stat.peak = m->stat.committed;
}

static void made(struct amap *m, const struct event *ev, uint64_t lo, uint64_t hi)
{
	if (!m->made)
		m->made = xcalloc(AMAP_MADE, sizeof(*m->made));
	struct amap_made *d = &m->made[m->nmade++ % AMAP_MADE];
	d->lo = lo;
	d->hi = hi;
	d->end_ns = ev->end_ns > ev->ts_ns ? ev->end_ns : ev->ts_ns;
	d->tid = ev->tid;
}

static int cmp_made(const void *a, const void *b)
{
	const struct amap_made *x = a, *y = b;
	return x->lo < y->lo ? -1 : x->lo > y->lo;
}

/*
 * Takes [lo, hi) out of set (or out of both sets) for the removal ev began,
 * keeping what other threads mapped there after it began: the kernel had
 * done the removal before it gave them that address.
 */
static void remove_since(struct amap *m, const struct event *ev, uint64_t lo, uint64_t hi,
			 bool both)
{
	struct amap_made keep[AMAP_MADE];
	unsigned nk = 0, n = !m->made ? 0 : m->nmade < AMAP_MADE ? m->nmade : AMAP_MADE;

	for (unsigned i = 0; i < n; i++) {
		const struct amap_made *d = &m->made[i];
		if (d->tid != ev->tid && d->end_ns > ev->ts_ns && d->lo < hi && d->hi > lo)
			keep[nk++] = *d;
	}
	qsort(keep, nk, sizeof(*keep), cmp_made);
	for (unsigned i = 0; i <= nk && lo < hi; i++) {
		uint64_t end = i < nk ? (keep[i].lo > lo ? keep[i].lo : lo) : hi;
		if (end > hi)
			end = hi;
		if (both)
			amap_set_remove(&m->priv, lo, end);
		amap_set_remove(&m->commit, lo, end);
		if (i < nk && keep[i].hi > lo)
			lo = keep[i].hi;
	}
}

/*
 * Whether argument i (flags or prot) has bit: the register of a live call,
 * the number or the names read back from a saved trace; dflt when a saved
 * trace lacks the argument.
 */
static bool arg_flag(const struct event *ev, unsigned i, uint64_t bit, const char *name,
		     bool dflt)
{
	int64_t v;
	if (!ev->replayed)
		return ev_arg_int(ev, i, &v) && (v & (int64_t)bit);
	const struct val *x = ev_arg(ev, i);
	return x ? val_has_flag(x, bit, name) : dflt;
}

static bool arg_u64(const struct event *ev, unsigned i, uint64_t *out)
{
	int64_t v;
	if (!ev_arg_int(ev, i, &v))
		return false;
	*out = (uint64_t)v;
	return true;
}

/* mmap(addr, length, prot, flags, fd, offset) = ret */
static bool on_map(struct amap *m, const struct event *ev, uint64_t ret)
{
	uint64_t len;
	if (!arg_u64(ev, 1, &len))
		return false;
	uint64_t lo = ret, hi = ret + page_up(len);
	bool shared = arg_flag(ev, 3, MAP_SHARED, "MAP_SHARED", false) ||
		      arg_flag(ev, 3, MAP_SHARED, "MAP_SHARED_VALIDATE", false);
	bool anon = arg_flag(ev, 3, MAP_ANONYMOUS, "MAP_ANONYMOUS", false);
	bool noreserve = arg_flag(ev, 3, MAP_NORESERVE, "MAP_NORESERVE", false);
	bool writable = arg_flag(ev, 2, PROT_WRITE, "PROT_WRITE", true);

	/* what it replaces (MAP_FIXED) goes */
	amap_set_remove(&m->priv, lo, hi);
	amap_set_remove(&m->commit, lo, hi);
	made(m, ev, lo, hi);
	if (!anon && (shared || !writable))
		return true;     /* a file's pages (a private copy only of what is written) */
	amap_set_add(&m->priv, lo, hi);
	/* writable with MAP_NORESERVE: sparse by declaration (sanitizer
	 * shadows, JIT heaps); what mprotect makes writable of it counts */
	if (writable && !noreserve)
		amap_set_add(&m->commit, lo, hi);
	return true;
}

/* mremap(addr, old_len, new_len, flags, new_addr) = ret */
static bool on_remap(struct amap *m, const struct event *ev, uint64_t ret)
{
	uint64_t addr, olen, nlen;
	if (!arg_u64(ev, 0, &addr) || !arg_u64(ev, 1, &olen) || !arg_u64(ev, 2, &nlen))
		return false;
	/* the range moves whole, with what it was */
	bool priv = amap_set_has(&m->priv, addr), commit = amap_set_has(&m->commit, addr);
	if (olen && !arg_flag(ev, 3, MREMAP_DONTUNMAP, "MREMAP_DONTUNMAP", false))
		remove_since(m, ev, addr & ~(PAGE - 1), page_up(addr + olen), true);
	made(m, ev, ret, ret + page_up(nlen));
	if (priv)
		amap_set_add(&m->priv, ret, ret + page_up(nlen));
	if (commit)
		amap_set_add(&m->commit, ret, ret + page_up(nlen));
	return true;
}

bool amap_call(struct amap *m, const struct event *ev, uint8_t op)
{
	uint64_t x, y, ret = (uint64_t)ev->retval;
	bool done = false;

	switch (op) {
	case MEMOP_MAP:
		done = on_map(m, ev, ret);
		break;
	case MEMOP_UNMAP:
		if ((done = arg_u64(ev, 0, &x) && arg_u64(ev, 1, &y)))
			remove_since(m, ev, x & ~(PAGE - 1), page_up(x + y), true);
		break;
	case MEMOP_REMAP:
		done = on_remap(m, ev, ret);
		break;
	case MEMOP_PROTECT:
		/* making a reservation writable commits it; the kernel keeps
		 * the commitment when write access is taken away again */
		if ((done = arg_u64(ev, 0, &x) && arg_u64(ev, 1, &y)) &&
		    arg_flag(ev, 2, PROT_WRITE, "PROT_WRITE", true))
			set_add_within(&m->commit, &m->priv, x & ~(PAGE - 1), page_up(x + y));
		break;
	case MEMOP_BRK:
		if ((done = ret != 0)) {
			if (!m->brk_base)
				m->brk_base = ret;
			m->brk_cur = ret;
		}
		break;
	default:
		break;
	}
	if (done)
		note(m);
	return done;
}

void amap_copy(struct amap *dst, const struct amap *src)
{
	set_copy(&dst->priv, &src->priv);
	set_copy(&dst->commit, &src->commit);
	dst->brk_base = src->brk_base;
	dst->brk_cur = src->brk_cur;
	amap_settle(dst);
	dst->stat.peak = 0;
	note(dst);
}

void amap_clear(struct amap *m)
{
	uint64_t peak = m->stat.peak;
	amap_release(m);
	m->stat.peak = peak;
}

void amap_settle(struct amap *m)
{
	free(m->made);
	m->made = NULL;
	m->nmade = 0;
}

void amap_release(struct amap *m)
{
	amap_settle(m);
	free(m->priv.r);
	free(m->commit.r);
	memset(m, 0, sizeof(*m));
}
