/* Timing statistics and capture context of golden traces (see timing.h). */
#include "golden/timing.h"
#include "util/error.h"
#include "util/quote.h"
#include "util/strbuf.h"
#include "util/xmalloc.h"

#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/banned.h"

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

static double median_sorted(const double *v, size_t n)
{
	if (!n)
		return 0;
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

void gstat_from(struct gstat *st, double *s, size_t n)
{
	memset(st, 0, sizeof(*st));
	if (!n)
		return;
	QSORT(s, n, cmp_double);
	st->median = median_sorted(s, n);
	st->min = s[0];
	st->max = s[n - 1];
	double *dev = xmalloc(n * sizeof(*dev));
	for (size_t i = 0; i < n; i++)
		dev[i] = fabs(s[i] - st->median);
	QSORT(dev, n, cmp_double);
	st->mad = median_sorted(dev, n);
	free(dev);
}

void gcontext_current(struct gcontext *ctx)
{
	char *cwd = getcwd(NULL, 0);
	const char *home = getenv("HOME"), *tmp = getenv("TMPDIR");

	ctx->cwd = cwd;
	ctx->home = home && *home ? xstrdup(home) : NULL;
	ctx->tmpdir = tmp && *tmp ? xstrdup(tmp) : NULL;
}

void gcontext_release(struct gcontext *ctx)
{
	free(ctx->cwd);
	free(ctx->home);
	free(ctx->tmpdir);
	ctx->cwd = ctx->home = ctx->tmpdir = NULL;
}

static json_t *stat_json(const struct gstat *st)
{
	return json_pack("{s:f,s:f,s:f,s:f}", "median", st->median, "min", st->min,
			 "max", st->max, "mad", st->mad);
}

char *gtiming_to_json(const struct gtiming *t)
{
	json_t *root = json_object(), *scs = json_object(), *ctx = json_object();
	char *s;

	json_object_set_new(root, "runs", json_integer(t->runs));
	json_object_set_new(root, "wall_us", stat_json(&t->wall_us));
	if (t->has_cpu)
		json_object_set_new(root, "cpu_us", stat_json(&t->cpu_us));
	if (t->has_net)
		json_object_set_new(root, "net_us", stat_json(&t->net_us));
	for (size_t i = 0; i < t->nsc; i++) {
		json_t *o = stat_json(&t->sc[i].us);
		json_object_set_new(o, "calls", json_real(t->sc[i].calls));
		json_object_set_new(scs, t->sc[i].name, o);
	}
	json_object_set_new(root, "syscalls", scs);
	if (t->ctx.cwd)
		json_object_set_new(ctx, "cwd", json_string(t->ctx.cwd));
	if (t->ctx.home)
		json_object_set_new(ctx, "home", json_string(t->ctx.home));
	if (t->ctx.tmpdir)
		json_object_set_new(ctx, "tmpdir", json_string(t->ctx.tmpdir));
	json_object_set_new(root, "context", ctx);
	if (t->var.runs)
		gvar_to_json(&t->var, root);
	s = json_dumps(root, JSON_COMPACT | JSON_REAL_PRECISION(10));
	json_decref(root);
	return s ? s : xstrdup("{}");
}

static int num(json_t *o, const char *key, double *out)
{
	json_t *v = json_object_get(o, key);
	if (!v)
		return 0;
	if (!json_is_number(v))
		return -1;
	*out = json_number_value(v);
	return 0;
}

static int stat_from(json_t *o, struct gstat *st)
{
	if (!json_is_object(o))
		return -1;
	if (num(o, "median", &st->median) || num(o, "min", &st->min) ||
	    num(o, "max", &st->max) || num(o, "mad", &st->mad))
		return -1;
	return 0;
}

static char *str_or_null(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);
	return json_is_string(v) ? xstrdup(json_string_value(v)) : NULL;
}

int gtiming_from_json(struct gtiming *t, const void *json, const char *file)
{
	json_t *root = (json_t *)json, *v, *scs, *ctx;
	const char *key;

	memset(t, 0, sizeof(*t));
	if (!root)
		return 0;
	if (!json_is_object(root))
		return error("invalid golden trace '%s': \"timing\" is not an object", esc(file));
	v = json_object_get(root, "runs");
	if (v && (!json_is_integer(v) || json_integer_value(v) < 0 ||
		  json_integer_value(v) > 1000000))
		return error("invalid golden trace '%s': \"timing.runs\" is not a count", esc(file));
	t->runs = v ? (int)json_integer_value(v) : 1;
	if ((v = json_object_get(root, "wall_us")) && stat_from(v, &t->wall_us) < 0)
		goto bad;
	if ((v = json_object_get(root, "cpu_us"))) {
		if (stat_from(v, &t->cpu_us) < 0)
			goto bad;
		t->has_cpu = 1;
	}
	if ((v = json_object_get(root, "net_us"))) {
		if (stat_from(v, &t->net_us) < 0)
			goto bad;
		t->has_net = 1;
	}
	scs = json_object_get(root, "syscalls");
	if (scs && !json_is_object(scs))
		goto bad;
	if (scs) {
		t->sc = xcalloc(json_object_size(scs) + 1, sizeof(*t->sc));
		json_object_foreach(scs, key, v) {
			struct gtiming_sc *s = &t->sc[t->nsc];
			if (stat_from(v, &s->us) < 0 || num(v, "calls", &s->calls) < 0)
				goto bad;
			s->name = xstrdup(key);
			t->nsc++;
		}
	}
	ctx = json_object_get(root, "context");
	if (json_is_object(ctx)) {
		t->has_ctx = 1;
		t->ctx.cwd = str_or_null(ctx, "cwd");
		t->ctx.home = str_or_null(ctx, "home");
		t->ctx.tmpdir = str_or_null(ctx, "tmpdir");
	}
	if (gvar_from_json(&t->var, json_object_get(root, "variation"), file) < 0) {
		gtiming_release(t);
		return -1;
	}
	return 0;
bad:
	gtiming_release(t);
	return error("invalid golden trace '%s': malformed \"timing\" statistics", esc(file));
}

const struct gtiming_sc *gtiming_sc(const struct gtiming *t, const char *name)
{
	for (size_t i = 0; i < t->nsc; i++)
		if (!strcmp(t->sc[i].name, name))
			return &t->sc[i];
	return NULL;
}

void gtiming_release(struct gtiming *t)
{
	for (size_t i = 0; i < t->nsc; i++)
		free(t->sc[i].name);
	free(t->sc);
	gcontext_release(&t->ctx);
	gvar_release(&t->var);
	memset(t, 0, sizeof(*t));
}
