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

/* Appends v to the optional array *a of n values, or drops it. */
static void opt_add(double **a, unsigned n, double v)
{
	if (v >= 0 && (n == 0 || *a)) {
		*a = xreallocarray(*a, n + 1, sizeof(double));
		(*a)[n] = v;
	} else {
		free(*a);
		*a = NULL;
	}
}

void gmeasured_add(struct gmeasured *m, const struct gmrun *r)
{
	unsigned n = m->runs;

	m->wall_us = xreallocarray(m->wall_us, n + 1, sizeof(double));
	m->cpu_us = xreallocarray(m->cpu_us, n + 1, sizeof(double));
	m->net_us = xreallocarray(m->net_us, n + 1, sizeof(double));
	m->wait_us = xreallocarray(m->wait_us, n + 1, sizeof(double));
	m->maxrss_kb = xreallocarray(m->maxrss_kb, n + 1, sizeof(double));
	m->wall_us[n] = r->wall;
	m->cpu_us[n] = r->cpu;
	m->net_us[n] = r->net;
	m->wait_us[n] = r->wait;
	m->maxrss_kb[n] = r->maxrss_kb;
	if (r->tasks > m->tasks)
		m->tasks = r->tasks;
	/* kept only once a run differs */
	if (r->net_low >= 0 && r->net_low != r->net && !m->net_low_us && n) {
		m->net_low_us = xmemdup(m->net_us, n * sizeof(double));
	}
	if (m->net_low_us || (r->net_low >= 0 && r->net_low != r->net)) {
		m->net_low_us = xreallocarray(m->net_low_us, n + 1, sizeof(double));
		m->net_low_us[n] = r->net_low >= 0 ? r->net_low : r->net;
	}
	opt_add(&m->user_us, n, r->user >= 0 && r->sys >= 0 ? r->user : -1);
	opt_add(&m->sys_us, n, r->user >= 0 && r->sys >= 0 ? r->sys : -1);
	opt_add(&m->instructions, n, r->instructions >= 0 && r->cycles >= 0 ? r->instructions : -1);
	opt_add(&m->cycles, n, r->instructions >= 0 && r->cycles >= 0 ? r->cycles : -1);
	opt_add(&m->ref_net_us, n, r->ref_net >= 0 && r->ref_cpu >= 0 ? r->ref_net : -1);
	opt_add(&m->ref_cpu_us, n, r->ref_net >= 0 && r->ref_cpu >= 0 ? r->ref_cpu : -1);
	m->runs = n + 1;
}

void gmeasured_release(struct gmeasured *m)
{
	free(m->wall_us);
	free(m->cpu_us);
	free(m->user_us);
	free(m->sys_us);
	free(m->net_us);
	free(m->net_low_us);
	free(m->wait_us);
	free(m->maxrss_kb);
	free(m->instructions);
	free(m->cycles);
	free(m->ref_net_us);
	free(m->ref_cpu_us);
	free(m->waits);
	free(m->no_counters);
	memset(m, 0, sizeof(*m));
}

static json_t *array_json(const double *v, unsigned n)
{
	json_t *a = json_array();
	for (unsigned i = 0; i < n; i++)
		json_array_append_new(a, json_real(v[i]));
	return a;
}

static json_t *measured_json(const struct gmeasured *m)
{
	json_t *o = json_object();

	json_object_set_new(o, "runs", json_integer(m->runs));
	json_object_set_new(o, "waits", json_string(m->waits ? m->waits : "none"));
	json_object_set_new(o, "wall_us", array_json(m->wall_us, m->runs));
	json_object_set_new(o, "cpu_us", array_json(m->cpu_us, m->runs));
	if (m->user_us) {
		json_object_set_new(o, "user_us", array_json(m->user_us, m->runs));
		json_object_set_new(o, "sys_us", array_json(m->sys_us, m->runs));
	}
	json_object_set_new(o, "net_us", array_json(m->net_us, m->runs));
	if (m->net_low_us)
		json_object_set_new(o, "net_low_us", array_json(m->net_low_us, m->runs));
	json_object_set_new(o, "wait_us", array_json(m->wait_us, m->runs));
	json_object_set_new(o, "maxrss_kb", array_json(m->maxrss_kb, m->runs));
	if (m->instructions) {
		json_object_set_new(o, "instructions", array_json(m->instructions, m->runs));
		json_object_set_new(o, "cycles", array_json(m->cycles, m->runs));
	} else if (m->no_counters) {
		json_object_set_new(o, "no_counters", json_string(m->no_counters));
	}
	if (m->ref_net_us) {
		json_object_set_new(o, "reference_net_us", array_json(m->ref_net_us, m->runs));
		json_object_set_new(o, "reference_cpu_us", array_json(m->ref_cpu_us, m->runs));
	}
	if (m->callgrind_ir > 0)
		json_object_set_new(o, "callgrind_instructions", json_real(m->callgrind_ir));
	if (m->callgrind_ir > 0 && m->callgrind_auto)
		json_object_set_new(o, "callgrind_automatic", json_true());
	if (m->tasks)
		json_object_set_new(o, "tasks", json_integer(m->tasks));
	if (m->later[0]) {
		json_t *a = json_array();
		for (unsigned i = 0; i < 2 && m->later[i]; i++)
			json_array_append_new(a, json_integer(m->later[i]));
		json_object_set_new(o, "later", a);
	}
	return o;
}

/* An array of n numbers into *out (malloc'ed); 0, or -1 when it is not one. */
static int array_from(json_t *a, unsigned n, double **out)
{
	if (!json_is_array(a) || json_array_size(a) != n)
		return -1;
	*out = xcalloc(n + 1, sizeof(**out));
	for (unsigned i = 0; i < n; i++) {
		json_t *v = json_array_get(a, i);
		if (!json_is_number(v))
			return -1;
		(*out)[i] = json_number_value(v);
	}
	return 0;
}

static int measured_from(json_t *o, struct gmeasured *m)
{
	json_t *v = json_object_get(o, "runs"), *s;

	if (!json_is_object(o) || !json_is_integer(v) || json_integer_value(v) < 0 ||
	    json_integer_value(v) > 100000)
		return -1;
	m->runs = (unsigned)json_integer_value(v);
	if (array_from(json_object_get(o, "wall_us"), m->runs, &m->wall_us) < 0 ||
	    array_from(json_object_get(o, "cpu_us"), m->runs, &m->cpu_us) < 0 ||
	    array_from(json_object_get(o, "net_us"), m->runs, &m->net_us) < 0 ||
	    array_from(json_object_get(o, "wait_us"), m->runs, &m->wait_us) < 0 ||
	    array_from(json_object_get(o, "maxrss_kb"), m->runs, &m->maxrss_kb) < 0)
		return -1;
	if (json_object_get(o, "user_us") &&
	    (array_from(json_object_get(o, "user_us"), m->runs, &m->user_us) < 0 ||
	     array_from(json_object_get(o, "sys_us"), m->runs, &m->sys_us) < 0))
		return -1;
	if (json_object_get(o, "net_low_us") &&
	    array_from(json_object_get(o, "net_low_us"), m->runs, &m->net_low_us) < 0)
		return -1;
	if (json_object_get(o, "instructions") &&
	    (array_from(json_object_get(o, "instructions"), m->runs, &m->instructions) < 0 ||
	     array_from(json_object_get(o, "cycles"), m->runs, &m->cycles) < 0))
		return -1;
	if (json_object_get(o, "reference_net_us") &&
	    (array_from(json_object_get(o, "reference_net_us"), m->runs, &m->ref_net_us) < 0 ||
	     array_from(json_object_get(o, "reference_cpu_us"), m->runs, &m->ref_cpu_us) < 0))
		return -1;
	if ((s = json_object_get(o, "waits")) && json_is_string(s))
		m->waits = xstrdup(json_string_value(s));
	if ((s = json_object_get(o, "no_counters")) && json_is_string(s))
		m->no_counters = xstrdup(json_string_value(s));
	if ((s = json_object_get(o, "tasks"))) {
		if (!json_is_integer(s) || json_integer_value(s) < 0 ||
		    json_integer_value(s) > 10000000)
			return -1;
		m->tasks = (unsigned)json_integer_value(s);
	}
	if ((s = json_object_get(o, "later"))) {
		unsigned prev = 0;
		if (!json_is_array(s) || json_array_size(s) > 2)
			return -1;
		for (size_t i = 0; i < json_array_size(s); i++) {
			json_t *e = json_array_get(s, i);
			if (!json_is_integer(e) || json_integer_value(e) <= prev ||
			    json_integer_value(e) >= m->runs)
				return -1;
			m->later[i] = prev = (unsigned)json_integer_value(e);
		}
	}
	if ((s = json_object_get(o, "callgrind_instructions"))) {
		if (!json_is_number(s) || json_number_value(s) < 0)
			return -1;
		m->callgrind_ir = json_number_value(s);
	}
	if ((s = json_object_get(o, "callgrind_automatic"))) {
		if (!json_is_boolean(s))
			return -1;
		m->callgrind_auto = json_is_true(s);
	}
	return 0;
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
	if (t->meas.runs)
		json_object_set_new(root, "untraced", measured_json(&t->meas));
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
	if ((v = json_object_get(root, "untraced")) && measured_from(v, &t->meas) < 0) {
		gtiming_release(t);
		return error("invalid golden trace '%s': malformed \"timing.untraced\" runs",
			     esc(file));
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
	gmeasured_release(&t->meas);
	memset(t, 0, sizeof(*t));
}
