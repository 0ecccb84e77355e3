/* Source lines of findings (see srcfind.h). */
#include "golden/srcfind.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/strbuf.h"
#include "util/xmalloc.h"
#include "util/banned.h"

struct acc {
	struct gsource *rows;
	size_t n, alloc;
};

/* Whether a key names text as an argument of its own (a path it opens),
 * not as what a descriptor argument refers to ("<\"/etc/x\">"). */
static bool key_names(const char *key, const char *text)
{
	for (const char *p = strstr(key, text); p; p = strstr(p + 1, text))
		if (p == key || p[-1] != '<')
			return true;
	return false;
}

static struct gsource *row_of(struct acc *a, const char *where)
{
	for (size_t i = 0; i < a->n; i++)
		if (!strcmp(a->rows[i].where, where))
			return &a->rows[i];
	ALLOC_GROW(a->rows, a->n + 1, a->alloc);
	memset(&a->rows[a->n], 0, sizeof(a->rows[a->n]));
	a->rows[a->n].where = xstrdup(where);
	return &a->rows[a->n++];
}

size_t gsrc_group(const struct gmodel *m, const struct ggroup *gr)
{
	if (!m || !gr || gr < m->groups || gr >= m->groups + m->ngroups)
		return SIZE_MAX;
	return (size_t)(gr - m->groups);
}

/* Whether any call of m knows its source. */
static bool has_sources(const struct gmodel *m)
{
	return m && m->srcs.n > 0;
}

/* Adds the selected calls of s to a: counts (or time in ms) per source. */
static void collect(struct acc *a, const struct gsrc_sel *s, bool golden, bool time)
{
	const struct gmodel *m = s->m;
	uint32_t name_id = UINT32_MAX;

	if (!m)
		return;
	if (s->name) {
		name_id = intern_find(&m->names, s->name, strlen(s->name));
		if (name_id == UINT32_MAX)
			return;
	}
	for (size_t t = 0; t < m->nprocs; t++) {
		const struct gproc *p = &m->procs[t];
		if (!p->src || (s->group != SIZE_MAX && p->group != s->group))
			continue;
		for (uint32_t i = 0; i < p->ncalls; i++) {
			const struct gcall *c = &p->calls[i];
			struct gsource *r;
			double v;

			if (!p->src[i] || (c->flags & GC_IGNORED))
				continue;
			if (s->name ? c->sc != name_id :
			    s->contains ? !key_names(intern_str(&m->keys, c->key), s->contains) :
			    c->key != s->key)
				continue;
			if (s->failed && !(c->flags & GC_FAILED))
				continue;
			r = row_of(a, intern_str(&m->srcs, p->src[i] - 1));
			v = time ? (double)gcall_dur(p, i) / 1000.0 : (double)gcall_n(p, i);
			if (golden)
				r->golden += v;
			else
				r->current += v;
		}
	}
}

static double change(const struct gsource *r, enum gsrc_how how)
{
	return how == GSRC_GOLDEN ? r->golden : how == GSRC_CURRENT ? r->current
								   : r->current - r->golden;
}

static int by_change_how;
static int by_change(const void *a, const void *b)
{
	const struct gsource *x = a, *y = b;
	double dx = fabs(change(x, by_change_how)), dy = fabs(change(y, by_change_how));

	if (dx != dy)
		return dx > dy ? -1 : 1;
	return strcmp(x->where, y->where);
}

static void add_line(struct gfinding *f, const char *line)
{
	struct strbuf sb = STRBUF_INIT;

	if (f->detail)
		strbuf_addstr(&sb, f->detail);
	strbuf_addstr(&sb, line);
	strbuf_addch(&sb, '\n');
	free(f->detail);
	f->detail = strbuf_detach(&sb, NULL);
}

static void add_suffix(struct gfinding *f, const char *suffix)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addstr(&sb, f->message);
	strbuf_addstr(&sb, suffix);
	free(f->message);
	f->message = strbuf_detach(&sb, NULL);
}

void gsrc_annotate(struct gfinding *f, const struct gsrc_sel *g, const struct gsrc_sel *c,
		   enum gsrc_how how)
{
	struct acc a = { NULL, 0, 0 };
	struct strbuf line = STRBUF_INIT;
	bool time = how == GSRC_TIME;
	const char *name = (c && c->name) ? c->name : (g && g->name) ? g->name : "calls";
	size_t shown = 0, hidden = 0;

	/* a change per source needs both sides' sources, except where one
	 * side has no such call at all */
	switch (how) {
	case GSRC_CURRENT:
		if (!c || !has_sources(c->m))
			return;
		collect(&a, c, false, false);
		break;
	case GSRC_GOLDEN:
		if (!g || !has_sources(g->m))
			return;
		collect(&a, g, true, false);
		break;
	case GSRC_DELTA:
	case GSRC_TIME:
		/* a side with calls but no sources would make the change lie */
		if ((g && g->m && f->golden > 0 && !has_sources(g->m)) ||
		    (c && c->m && f->current > 0 && !has_sources(c->m)))
			return;
		if (g)
			collect(&a, g, true, time);
		if (c)
			collect(&a, c, false, time);
		break;
	}
	if (!a.n)
		return;
	by_change_how = how;
	QSORT(a.rows, a.n, by_change);
	f->sources = a.rows;
	f->nsources = a.n;

	if (how == GSRC_CURRENT || how == GSRC_GOLDEN) {
		const char *pre = how == GSRC_GOLDEN ? ", in the golden from " : ", from ";
		if (a.n == 1) {
			strbuf_addstr(&line, pre);
			strbuf_addstr(&line, a.rows[0].where);
			add_suffix(f, line.buf);
		} else {
			for (size_t i = 0; i < a.n; i++) {
				if (i >= GSRC_LISTED) {
					hidden++;
					continue;
				}
				strbuf_reset(&line);
				strbuf_addf(&line, "%s%s (%.0f)", how == GSRC_GOLDEN ? "in the golden from "
							 : "from ", a.rows[i].where, change(&a.rows[i], how));
				add_line(f, line.buf);
			}
		}
	} else {
		for (size_t i = 0; i < a.n; i++) {
			double d = change(&a.rows[i], how);
			if ((time && fabs(d) < 0.005) || (!time && d == 0))
				continue;
			if (shown >= GSRC_LISTED) {
				hidden++;
				continue;
			}
			shown++;
			strbuf_reset(&line);
			if (time)
				strbuf_addf(&line, "%+.2fms in %s from %s", d, name, a.rows[i].where);
			else
				strbuf_addf(&line, "%+.0f %s from %s", d, name, a.rows[i].where);
			add_line(f, line.buf);
		}
	}
	if (hidden) {
		strbuf_reset(&line);
		strbuf_addf(&line, "... and %zu more source line%s", hidden, hidden == 1 ? "" : "s");
		add_line(f, line.buf);
	}
	strbuf_release(&line);
}
