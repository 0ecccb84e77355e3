/* Measured volatility of a command's runs (see variation.h). */
#include "golden/model.h"
#include "golden/variation.h"
#include "util/error.h"
#include "util/xmalloc.h"

#include <jansson.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "util/banned.h"

static int calls_cmp(const void *a, const void *b)
{
	return strcmp(((const struct gvar_calls *)a)->name, ((const struct gvar_calls *)b)->name);
}

static int vproc_cmp(const void *a, const void *b)
{
	return gproc_label_cmp(((const struct gvar_proc *)a)->label,
			       ((const struct gvar_proc *)b)->label);
}

/* Widens r by value v against the reference value ref. */
static void widen(struct grange *r, uint64_t v, uint64_t ref)
{
	int64_t d = (int64_t)v - (int64_t)ref;
	if (d < r->lo)
		r->lo = d;
	if (d > r->hi)
		r->hi = d;
}

static bool varied(const struct grange *r)
{
	return r->lo || r->hi;
}

/* The count of name in process g of m (0 when absent). */
static uint64_t count_of(const struct gmodel *m, const struct ggroup *g, const char *name)
{
	uint32_t id;
	if (!g || (id = intern_find(&m->names, name, strlen(name))) == UINT32_MAX)
		return 0;
	return g->counts[id];
}

void gvar_from_models(struct gvar *v, struct gmodel *const *models, size_t n, size_t ref)
{
	const struct gmodel *rm = models[ref];
	struct intern labels = INTERN_INIT, names = INTERN_INIT;
	size_t aprocs = 0;

	memset(v, 0, sizeof(*v));
	v->runs = (int)n;
	for (size_t r = 0; r < n; r++)
		for (size_t g = 0; g < models[r]->ngroups; g++)
			intern_add(&labels, models[r]->groups[g].label,
				   strlen(models[r]->groups[g].label));
	for (uint32_t li = 0; li < labels.n; li++) {
		const char *label = intern_str(&labels, li);
		const struct ggroup *rg = gmodel_group(rm, label);
		struct gvar_proc p;
		size_t acalls = 0;

		memset(&p, 0, sizeof(p));
		intern_release(&names);
		for (size_t r = 0; r < n; r++) {
			const struct gmodel *m = models[r];
			const struct ggroup *g = gmodel_group(m, label);
			if (!g)
				continue;
			p.seen++;
			for (uint32_t k = 0; k < m->names.n; k++)
				if (g->counts[k])
					intern_add(&names, intern_str(&m->names, k),
						   intern_len(&m->names, k));
		}
		for (size_t r = 0; r < n; r++) {
			const struct gmodel *m = models[r];
			const struct ggroup *g = gmodel_group(m, label);
			widen(&p.threads, g ? g->nthreads : 0, rg ? rg->nthreads : 0);
			for (int b = 0; b < GIO_NBUCKETS; b++)
				widen(&p.io[b], g ? g->io[b] : 0, rg ? rg->io[b] : 0);
			if (g && rg) {
				widen(&p.mem, g->mem_peak, rg->mem_peak);
				if (g->rss_kb && rg->rss_kb)
					widen(&p.rss, g->rss_kb, rg->rss_kb);
			}
		}
		for (uint32_t k = 0; k < names.n; k++) {
			const char *nm = intern_str(&names, k);
			struct grange cr = { 0, 0 };
			for (size_t r = 0; r < n; r++)
				widen(&cr, count_of(models[r], gmodel_group(models[r], label), nm),
				      count_of(rm, rg, nm));
			if (!varied(&cr))
				continue;
			ALLOC_GROW(p.calls, p.ncalls + 1, acalls);
			p.calls[p.ncalls].name = xstrdup(nm);
			p.calls[p.ncalls++].r = cr;
		}
		QSORT(p.calls, p.ncalls, calls_cmp);
		p.label = xstrdup(label);
		ALLOC_GROW(v->procs, v->nprocs + 1, aprocs);
		v->procs[v->nprocs++] = p;
	}
	QSORT(v->procs, v->nprocs, vproc_cmp);
	intern_release(&labels);
	intern_release(&names);
}

void gvar_release(struct gvar *v)
{
	for (size_t i = 0; i < v->nprocs; i++) {
		for (size_t c = 0; c < v->procs[i].ncalls; c++)
			free(v->procs[i].calls[c].name);
		free(v->procs[i].calls);
		free(v->procs[i].label);
	}
	free(v->procs);
	memset(v, 0, sizeof(*v));
}

const struct gvar_proc *gvar_proc(const struct gvar *v, const char *label)
{
	size_t lo = 0, hi = v ? v->nprocs : 0;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		int c = gproc_label_cmp(v->procs[mid].label, label);
		if (!c)
			return &v->procs[mid];
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

struct grange gvar_calls(const struct gvar_proc *p, const char *name)
{
	struct grange none = { 0, 0 };
	size_t lo = 0, hi = p ? p->ncalls : 0;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		int c = strcmp(p->calls[mid].name, name);
		if (!c)
			return p->calls[mid].r;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return none;
}

static json_t *range_json(const struct grange *r)
{
	return json_pack("[I,I]", (json_int_t)r->lo, (json_int_t)r->hi);
}

void gvar_to_json(const struct gvar *v, void *obj)
{
	json_t *root = json_object(), *procs = json_object();

	json_object_set_new(root, "runs", json_integer(v->runs));
	for (size_t i = 0; i < v->nprocs; i++) {
		const struct gvar_proc *p = &v->procs[i];
		json_t *o = json_object(), *calls = json_object(), *io = json_object();
		json_object_set_new(o, "seen", json_integer(p->seen));
		json_object_set_new(o, "threads", range_json(&p->threads));
		for (size_t c = 0; c < p->ncalls; c++)
			json_object_set_new(calls, p->calls[c].name, range_json(&p->calls[c].r));
		json_object_set_new(o, "calls", calls);
		for (int b = 0; b < GIO_NBUCKETS; b++)
			if (varied(&p->io[b]))
				json_object_set_new(io, gio_bucket_name(b), range_json(&p->io[b]));
		json_object_set_new(o, "bytes", io);
		if (varied(&p->mem) || varied(&p->rss)) {
			json_t *mem = json_object();
			if (varied(&p->mem))
				json_object_set_new(mem, "committed", range_json(&p->mem));
			if (varied(&p->rss))
				json_object_set_new(mem, "rss_kb", range_json(&p->rss));
			json_object_set_new(o, "memory", mem);
		}
		json_object_set_new(procs, p->label, o);
	}
	json_object_set_new(root, "processes", procs);
	json_object_set_new((json_t *)obj, "variation", root);
}

static int range_from(json_t *a, struct grange *r)
{
	json_t *lo = json_array_get(a, 0), *hi = json_array_get(a, 1);

	if (!json_is_array(a) || json_array_size(a) != 2 || !json_is_integer(lo) ||
	    !json_is_integer(hi) || json_integer_value(lo) > 0 || json_integer_value(hi) < 0)
		return -1;
	r->lo = json_integer_value(lo);
	r->hi = json_integer_value(hi);
	return 0;
}

int gvar_from_json(struct gvar *v, const void *json, const char *file)
{
	json_t *root = (json_t *)json, *runs, *procs, *po;
	const char *label;

	memset(v, 0, sizeof(*v));
	if (!root || json_is_null(root))
		return 0;
	runs = json_object_get(root, "runs");
	procs = json_object_get(root, "processes");
	if (!json_is_object(root) || !json_is_integer(runs) || json_integer_value(runs) < 1 ||
	    json_integer_value(runs) > 1000000 || !json_is_object(procs))
		goto bad;
	v->runs = (int)json_integer_value(runs);
	v->procs = xcalloc(json_object_size(procs) + 1, sizeof(*v->procs));
	json_object_foreach(procs, label, po) {
		struct gvar_proc *p = &v->procs[v->nprocs++];
		json_t *calls = json_object_get(po, "calls"), *io = json_object_get(po, "bytes");
		json_t *seen = json_object_get(po, "seen"), *x;
		const char *k;

		p->label = xstrdup(label);
		if (!json_is_object(po) || !json_is_object(calls) || !json_is_object(io) ||
		    range_from(json_object_get(po, "threads"), &p->threads) < 0 ||
		    (seen && (!json_is_integer(seen) || json_integer_value(seen) < 0)))
			goto bad;
		p->seen = seen ? (unsigned)json_integer_value(seen) : (unsigned)v->runs;
		p->calls = xcalloc(json_object_size(calls) + 1, sizeof(*p->calls));
		json_object_foreach(calls, k, x) {
			struct gvar_calls *c = &p->calls[p->ncalls++];
			c->name = xstrdup(k);
			if (range_from(x, &c->r) < 0)
				goto bad;
		}
		QSORT(p->calls, p->ncalls, calls_cmp);
		json_object_foreach(io, k, x) {
			int b = gio_bucket_parse(k);
			if (b < 0 || range_from(x, &p->io[b]) < 0)
				goto bad;
		}
		if ((x = json_object_get(po, "memory"))) {
			json_t *c = json_object_get(x, "committed"), *r = json_object_get(x, "rss_kb");
			if (!json_is_object(x) || (c && range_from(c, &p->mem) < 0) ||
			    (r && range_from(r, &p->rss) < 0))
				goto bad;
		}
	}
	QSORT(v->procs, v->nprocs, vproc_cmp);
	return 0;
bad:
	gvar_release(v);
	return error("invalid golden trace '%s': malformed \"timing.variation\"", file);
}
