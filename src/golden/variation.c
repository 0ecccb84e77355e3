/* Measured volatility of a command's runs (see variation.h). */
#include "golden/label.h"
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

static bool varied(const struct grange *r)
{
	return r->lo || r->hi;
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
