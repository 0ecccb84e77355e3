/* The result of a golden comparison: findings and their lifetime (see result.h). */
#include "golden/result.h"
#include "util/strbuf.h"
#include "util/xmalloc.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "util/banned.h"

const char *gfind_kind_name(enum gfind_kind k)
{
	static const char *const n[] = {
		"process", "exit", "count", "appeared", "vanished", "call", "failure",
		"resource", "timing", "confidence", "note", "assertion", "io", "time",
		"environment", "threads", "memory",
	};
	return (unsigned)k < GF_NKINDS ? n[k] : "?";
}

struct gfinding *gresult_vadd(struct gresult *r, enum gfind_kind k, bool reg, const char *proc,
			      const char *subject, double g, double c, const char *fmt, va_list ap)
{
	struct strbuf sb = STRBUF_INIT;
	struct gfinding *f;

	strbuf_vaddf(&sb, fmt, ap);
	ALLOC_GROW(r->f, r->nf + 1, r->af);
	f = &r->f[r->nf++];
	memset(f, 0, sizeof(*f));
	f->kind = k;
	f->regression = reg;
	f->proc = proc ? xstrdup(proc) : NULL;
	f->subject = subject ? xstrdup(subject) : NULL;
	f->message = strbuf_detach(&sb, NULL);
	f->golden = g;
	f->current = c;
	if (reg)
		r->regression = true;
	return f;
}

bool gresult_has_noisy(const struct gresult *r)
{
	for (size_t i = 0; i < r->nf; i++)
		if (r->f[i].regression && r->f[i].noisy)
			return true;
	return false;
}

static bool same_finding(const struct gfinding *a, const struct gfinding *b)
{
	if (a->kind != b->kind)
		return false;
	if ((a->proc == NULL) != (b->proc == NULL) || (a->proc && strcmp(a->proc, b->proc)))
		return false;
	if (a->kind == GF_TIMING || a->kind == GF_CONFIDENCE)
		return true;
	return (a->subject == NULL) == (b->subject == NULL) &&
	       (!a->subject || !strcmp(a->subject, b->subject));
}

void gresult_confirm(struct gresult *r, const struct gresult *others, size_t n)
{
	r->regression = false;
	for (size_t i = 0; i < r->nf; i++) {
		struct gfinding *f = &r->f[i];
		size_t seen = 1;
		if (f->regression && f->noisy && f->kind != GF_TIMING && f->kind != GF_TIME) {
			for (size_t k = 0; k < n; k++)
				for (size_t j = 0; j < others[k].nf; j++)
					if (others[k].f[j].regression &&
					    same_finding(f, &others[k].f[j])) {
						seen++;
						break;
					}
			if (seen < n + 1) {
				struct strbuf sb = STRBUF_INIT;
				strbuf_addf(&sb, "%s (in %zu of %zu runs: not a regression)",
					    f->message, seen, n + 1);
				free(f->message);
				f->message = strbuf_detach(&sb, NULL);
				f->regression = false;
			}
		}
		if (f->regression)
			r->regression = true;
	}
	r->pass = !r->regression && r->confidence >= r->min_confidence;
}

void gresult_release(struct gresult *r)
{
	for (size_t i = 0; i < r->nf; i++) {
		free(r->f[i].proc);
		free(r->f[i].subject);
		free(r->f[i].message);
		free(r->f[i].detail);
		for (size_t j = 0; j < r->f[i].nsources; j++)
			free(r->f[i].sources[j].where);
		free(r->f[i].sources);
	}
	free(r->f);
	for (size_t i = 0; i < r->npd; i++) {
		free(r->pd[i].chg_g);
		free(r->pd[i].chg_c);
		free(r->pd[i].gk);
		free(r->pd[i].ck);
		free(r->pd[i].gi);
		free(r->pd[i].ci);
		free(r->pd[i].hunks);
	}
	free(r->pd);
	free(r->rows);
	free(r->cmap);
	memset(r, 0, sizeof(*r));
}
