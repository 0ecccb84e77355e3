/*
 * Committed memory (memory_usage's "allocations"), followed from the calls
 * that change an address space (struct sysent.memop): writable private or
 * anonymous mappings and the heap, not the reservations a program maps
 * without write access (docs/assertions.md says how each call counts).
 */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "assert/internal.h"
#include "sys/sysent.h"
#include "util/xmalloc.h"
#include "util/banned.h"

#define PAGE 4096ULL

#ifndef MREMAP_DONTUNMAP
#define MREMAP_DONTUNMAP 4
#endif

/* ---- sets of address ranges ---------------------------------------------- */

/* Index of the first range with hi > lo. */
static size_t mapset_lower(const struct mapset *m, uint64_t lo)
{
	size_t l = 0, h = m->n;
	while (l < h) {
		size_t mid = (l + h) / 2;
		if (m->r[mid].hi <= lo)
			l = mid + 1;
		else
			h = mid;
	}
	return l;
}

void mapset_remove(struct mapset *m, uint64_t lo, uint64_t hi)
{
	if (hi <= lo)
		return;
	size_t i = mapset_lower(m, lo);
	while (i < m->n && m->r[i].lo < hi) {
		struct range *r = &m->r[i];
		if (r->lo < lo && r->hi > hi) {
			/* split in two */
			ALLOC_GROW(m->r, m->n + 1, m->alloc);
			r = &m->r[i];
			memmove(&m->r[i + 2], &m->r[i + 1], (m->n - i - 1) * sizeof(*r));
			m->r[i + 1].lo = hi;
			m->r[i + 1].hi = r->hi;
			r->hi = lo;
			m->n++;
			m->bytes -= hi - lo;
			return;
		}
		if (r->lo < lo) {
			m->bytes -= r->hi - lo;
			r->hi = lo;
			i++;
			continue;
		}
		if (r->hi > hi) {
			m->bytes -= hi - r->lo;
			r->lo = hi;
			return;
		}
		m->bytes -= r->hi - r->lo;
		memmove(&m->r[i], &m->r[i + 1], (m->n - i - 1) * sizeof(*r));
		m->n--;
	}
}

void mapset_add(struct mapset *m, uint64_t lo, uint64_t hi)
{
	if (hi <= lo)
		return;
	mapset_remove(m, lo, hi);
	size_t i = mapset_lower(m, lo);
	/* merge with neighbours that touch */
	bool left = i > 0 && m->r[i - 1].hi == lo;
	bool right = i < m->n && m->r[i].lo == hi;
	m->bytes += hi - lo;
	if (left && right) {
		m->r[i - 1].hi = m->r[i].hi;
		memmove(&m->r[i], &m->r[i + 1], (m->n - i - 1) * sizeof(*m->r));
		m->n--;
	} else if (left) {
		m->r[i - 1].hi = hi;
	} else if (right) {
		m->r[i].lo = lo;
	} else {
		ALLOC_GROW(m->r, m->n + 1, m->alloc);
		memmove(&m->r[i + 1], &m->r[i], (m->n - i) * sizeof(*m->r));
		m->r[i].lo = lo;
		m->r[i].hi = hi;
		m->n++;
	}
}

bool mapset_has(const struct mapset *m, uint64_t addr)
{
	size_t i = mapset_lower(m, addr);
	return i < m->n && m->r[i].lo <= addr;
}

/* Adds to dst the parts of src's ranges inside [lo, hi). */
static void mapset_add_within(struct mapset *dst, const struct mapset *src, uint64_t lo,
			      uint64_t hi)
{
	for (size_t i = mapset_lower(src, lo); i < src->n && src->r[i].lo < hi; i++)
		mapset_add(dst, src->r[i].lo > lo ? src->r[i].lo : lo,
			   src->r[i].hi < hi ? src->r[i].hi : hi);
}

void mapset_copy(struct mapset *dst, const struct mapset *src)
{
	mapset_release(dst);
	if (src->n) {
		dst->r = xmemdup(src->r, src->n * sizeof(*src->r));
		dst->n = dst->alloc = src->n;
	}
	dst->bytes = src->bytes;
}

void mapset_release(struct mapset *m)
{
	free(m->r);
	memset(m, 0, sizeof(*m));
}

/* ---- one process ----------------------------------------------------------- */

static uint64_t page_up(uint64_t x)
{
	return (x + PAGE - 1) & ~(PAGE - 1);
}

void pmem_release(struct pmem *m)
{
	mapset_release(&m->priv);
	mapset_release(&m->commit);
	m->brk_base = m->brk_cur = 0;
}

/* Recomputes p's totals and the tree's, tracking the peak at ts. */
static void mem_update(struct analysis *a, struct proc *p, uint64_t ts)
{
	struct pmem *m = &p->mem;
	uint64_t heap = m->brk_cur > m->brk_base ? m->brk_cur - m->brk_base : 0;
	uint64_t now = m->commit.bytes + heap;
	uint64_t resv = m->priv.bytes - m->commit.bytes;

	a->mem_now = a->mem_now - m->now + now;
	a->resv_now = a->resv_now - m->resv + resv;
	m->now = now;
	m->resv = resv;
	if (a->mem_now > a->mem_peak) {
		a->mem_peak = a->mem_now;
		a->mem_peak_ns = ts;
		a->mem_peak_pid = p->pid;
		a->mem_peak_pid_bytes = now;
		a->resv_at_peak = a->resv_now;
	}
}

/* A forked child not yet given its copy of the parent's memory gets it. */
void mem_materialize(struct analysis *a, struct proc *c, uint64_t ts)
{
	if (c->copy_from < 0)
		return;
	const struct pmem *pm = &a->procs[c->copy_from].mem;
	c->copy_from = -1;
	mapset_copy(&c->mem.priv, &pm->priv);
	mapset_copy(&c->mem.commit, &pm->commit);
	c->mem.brk_base = pm->brk_base;
	c->mem.brk_cur = pm->brk_cur;
	mem_update(a, c, ts);
}

void mem_reset(struct analysis *a, struct proc *p, uint64_t ts)
{
	p->copy_from = -1;
	pmem_release(&p->mem);
	mem_update(a, p, ts);
}

void mem_exit(struct analysis *a, struct proc *p)
{
	a->mem_now -= p->mem.now;
	a->resv_now -= p->mem.resv;
	p->mem.now = p->mem.resv = 0;
	p->copy_from = -1;
	pmem_release(&p->mem);
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
static void on_map(struct pmem *m, const struct event *ev, uint64_t ret)
{
	uint64_t len;
	if (!arg_u64(ev, 1, &len))
		return;
	uint64_t lo = ret, hi = ret + page_up(len);
	bool shared = arg_flag(ev, 3, MAP_SHARED, "MAP_SHARED", false) ||
		      arg_flag(ev, 3, MAP_SHARED, "MAP_SHARED_VALIDATE", false);
	bool anon = arg_flag(ev, 3, MAP_ANONYMOUS, "MAP_ANONYMOUS", false);
	bool noreserve = arg_flag(ev, 3, MAP_NORESERVE, "MAP_NORESERVE", false);
	bool writable = arg_flag(ev, 2, PROT_WRITE, "PROT_WRITE", true);

	/* what it replaces (MAP_FIXED) goes */
	mapset_remove(&m->priv, lo, hi);
	mapset_remove(&m->commit, lo, hi);
	if (!anon && (shared || !writable))
		return;      /* a file's pages (a private copy only of what is written) */
	mapset_add(&m->priv, lo, hi);
	/* writable with MAP_NORESERVE: sparse by declaration (sanitizer
	 * shadows, JIT heaps); what mprotect makes writable of it counts */
	if (writable && !noreserve)
		mapset_add(&m->commit, lo, hi);
}

/* mremap(addr, old_len, new_len, flags, new_addr) = ret */
static void on_remap(struct pmem *m, const struct event *ev, uint64_t ret)
{
	uint64_t addr, olen, nlen;
	if (!arg_u64(ev, 0, &addr) || !arg_u64(ev, 1, &olen) || !arg_u64(ev, 2, &nlen))
		return;
	/* the range moves whole, with what it was */
	bool priv = mapset_has(&m->priv, addr), commit = mapset_has(&m->commit, addr);
	if (olen && !arg_flag(ev, 3, MREMAP_DONTUNMAP, "MREMAP_DONTUNMAP", false)) {
		mapset_remove(&m->priv, addr & ~(PAGE - 1), page_up(addr + olen));
		mapset_remove(&m->commit, addr & ~(PAGE - 1), page_up(addr + olen));
	}
	if (priv)
		mapset_add(&m->priv, ret, ret + page_up(nlen));
	if (commit)
		mapset_add(&m->commit, ret, ret + page_up(nlen));
}

int mem_call(struct analysis *a, struct proc *p, const struct event *ev, uint8_t op)
{
	struct pmem *m = &p->mem;
	uint64_t x, y, ret = (uint64_t)ev->retval;

	mem_materialize(a, p, ev->ts_ns);
	switch (op) {
	case MEMOP_MAP:
		on_map(m, ev, ret);
		a->mmap_calls++;
		break;
	case MEMOP_UNMAP:
		if (!arg_u64(ev, 0, &x) || !arg_u64(ev, 1, &y))
			return 0;
		mapset_remove(&m->priv, x & ~(PAGE - 1), page_up(x + y));
		mapset_remove(&m->commit, x & ~(PAGE - 1), page_up(x + y));
		a->munmap_calls++;
		break;
	case MEMOP_REMAP:
		on_remap(m, ev, ret);
		a->mremap_calls++;
		break;
	case MEMOP_PROTECT:
		/* making a reservation writable commits it; the kernel keeps
		 * the commitment when write access is taken away again */
		if (!arg_u64(ev, 0, &x) || !arg_u64(ev, 1, &y))
			return 0;
		if (arg_flag(ev, 2, PROT_WRITE, "PROT_WRITE", true))
			mapset_add_within(&m->commit, &m->priv, x & ~(PAGE - 1), page_up(x + y));
		a->mprotect_calls++;
		break;
	case MEMOP_BRK:
		if (!ret)
			return 0;
		if (!m->brk_base)
			m->brk_base = ret;
		m->brk_cur = ret;
		a->brk_calls++;
		break;
	default:
		return 0;
	}
	mem_update(a, p, ev->end_ns > ev->ts_ns ? ev->end_ns : ev->ts_ns);
	return 1;
}
