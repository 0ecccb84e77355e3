/*
 * Committed memory of the tree (memory_usage's "allocations"): each
 * process's address space is a struct amap (track/amap.h, the model the
 * tracker keeps for golden comparison too); this file sums the processes
 * alive together and keeps the peak, when it was and who held it.
 */
#include "assert/internal.h"
#include "sys/sysent.h"
#include "util/banned.h"

/* Recomputes p's totals and the tree's, tracking the peak at ts. */
static void mem_update(struct analysis *a, struct proc *p, uint64_t ts)
{
	uint64_t now = p->mem.stat.committed, resv = p->mem.stat.reserved;

	a->mem_now = a->mem_now - p->mem_now + now;
	a->resv_now = a->resv_now - p->mem_resv + resv;
	p->mem_now = now;
	p->mem_resv = resv;
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
	amap_copy(&c->mem, &a->procs[c->copy_from].mem);
	c->copy_from = -1;
	mem_update(a, c, ts);
}

void mem_reset(struct analysis *a, struct proc *p, uint64_t ts)
{
	p->copy_from = -1;
	amap_clear(&p->mem);
	mem_update(a, p, ts);
}

void mem_exit(struct analysis *a, struct proc *p)
{
	a->mem_now -= p->mem_now;
	a->resv_now -= p->mem_resv;
	p->mem_now = p->mem_resv = 0;
	p->copy_from = -1;
	amap_release(&p->mem);
}

int mem_call(struct analysis *a, struct proc *p, const struct event *ev, uint8_t op)
{
	mem_materialize(a, p, ev->ts_ns);
	if (!amap_call(&p->mem, ev, op))
		return 0;
	switch (op) {
	case MEMOP_MAP: a->mmap_calls++; break;
	case MEMOP_UNMAP: a->munmap_calls++; break;
	case MEMOP_REMAP: a->mremap_calls++; break;
	case MEMOP_PROTECT: a->mprotect_calls++; break;
	case MEMOP_BRK: a->brk_calls++; break;
	}
	mem_update(a, p, ev->end_ns > ev->ts_ns ? ev->end_ns : ev->ts_ns);
	return 1;
}
