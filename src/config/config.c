/*
 * renacer.toml (see config.h and docs/renacer-toml.md): parses the file
 * with util/toml and checks every table, key, type and range, so that the
 * commands that use it never see a half-valid configuration.
 */
#include "config/config.h"
#include "sys/sysent.h"
#include "util/error.h"
#include "util/quote.h"
#include "util/relimit.h"
#include "util/strbuf.h"
#include "util/toml.h"
#include "util/xmalloc.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <regex.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/banned.h"

struct ctx {
	const char *path;
	struct renacer_config *cfg;
	size_t aassertions;       /* capacity of cfg->assertions */
};

/*
 * Default strings are static, so that config_init() and config_release()
 * allocate nothing; xfree_str() frees only what was read from a file.
 */
static char default_dir[] = "golden_traces";
static char default_endpoint[] = "http://localhost:4318";
static char default_service[] = "renacer";

static void xfree_str(char *s)
{
	if (s != default_dir && s != default_endpoint && s != default_service)
		free(s);
}

/* ---- messages ---- */

__attribute__((format(printf, 4, 5)))
static int cerr(struct ctx *c, unsigned line, unsigned col, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	error("%s:%u:%u: %s", esc(c->path), line, col, sb.buf);
	strbuf_release(&sb);
	return -1;
}

__attribute__((format(printf, 4, 5)))
static void cwarn(struct ctx *c, unsigned line, unsigned col, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	/* a file of a million unknown keys gets CONFIG_MAX_WARNINGS lines
	 * and a count, not a million lines */
	if (c->cfg->nwarnings++ >= CONFIG_MAX_WARNINGS)
		return;
	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	warning("%s:%u:%u: %s", esc(c->path), line, col, sb.buf);
	strbuf_release(&sb);
}

static const char *article(enum toml_type t)
{
	return strchr("aeiou", toml_type_name(t)[0]) ? "an" : "a";
}

/* Levenshtein distance, case-insensitive (for "did you mean"). */
static size_t edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	size_t *row, d;

	if (la > 64 || lb > 64)
		return 64;
	row = xcalloc(lb + 1, sizeof(*row));
	for (size_t j = 0; j <= lb; j++)
		row[j] = j;
	for (size_t i = 1; i <= la; i++) {
		size_t prev = row[0];
		row[0] = i;
		for (size_t j = 1; j <= lb; j++) {
			size_t cur = row[j];
			size_t cost = (a[i - 1] | 0x20) == (b[j - 1] | 0x20) ? 0 : 1;
			size_t best = prev + cost;
			if (row[j] + 1 < best)
				best = row[j] + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			row[j] = best;
			prev = cur;
		}
	}
	d = row[lb];
	free(row);
	return d;
}

/* The candidate closest to word, if close enough to be a likely typo. */
static const char *closest(const char *word, const char *const *cands, size_t n)
{
	const char *best = NULL;
	size_t bestd = (size_t)-1;
	size_t limit = strlen(word) >= 8 ? 3 : 2;

	for (size_t i = 0; i < n; i++) {
		size_t d;
		if (!cands[i])
			continue;
		d = edit_distance(word, cands[i]);
		{
			/* "replacement" for "replace", "tracking" for "tracking_mode" */
			size_t lw = strlen(word), lc = strlen(cands[i]);
			size_t m = lw < lc ? lw : lc;
			if (m >= 4 && !strncasecmp(word, cands[i], m) && d > 1)
				d = 1;
		}
		if (d < bestd) {
			bestd = d;
			best = cands[i];
		}
	}
	if (best && (bestd <= limit && bestd < strlen(best)))
		return best;
	return NULL;
}

/* Appends " (did you mean 'x'?)" when a candidate is close. */
static const char *suggest(struct strbuf *sb, const char *word, const char *const *cands, size_t n)
{
	const char *m = closest(word, cands, n);

	strbuf_reset(sb);
	if (m)
		strbuf_addf(sb, " (did you mean '%s'?)", m);
	return sb->buf;
}

static bool in_list(const char *word, const char *const *list, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (list[i] && !strcmp(word, list[i]))
			return true;
	return false;
}

/* ---- typed getters: 0 absent, 1 read, -1 error ---- */

static int type_error(struct ctx *c, const char *label, const char *key,
		      const struct toml_value *v, const char *want)
{
	return cerr(c, v->line, v->col, "%s'%s' must be %s, not %s %s", label, key, want,
		    article(v->type), toml_type_name(v->type));
}

static int get_bool(struct ctx *c, const char *label, const struct toml_value *t,
		    const char *key, bool *out)
{
	const struct toml_value *v = toml_get(t, key);

	if (!v)
		return 0;
	if (v->type != TOML_BOOL)
		return type_error(c, label, key, v, "a boolean (true or false)");
	*out = v->u.b;
	return 1;
}

/* A boolean into 1 or 0; *out is left as it is (-1: not set) when absent. */
static int get_tristate(struct ctx *c, const char *label, const struct toml_value *t,
			const char *key, int *out)
{
	bool b = false;
	int r = get_bool(c, label, t, key, &b);

	if (r > 0)
		*out = b;
	return r;
}

static int get_string(struct ctx *c, const char *label, const struct toml_value *t,
		      const char *key, bool allow_empty, char **out)
{
	const struct toml_value *v = toml_get(t, key);

	if (!v)
		return 0;
	if (v->type != TOML_STRING)
		return type_error(c, label, key, v, "a string");
	if (!allow_empty && !v->u.str.len)
		return cerr(c, v->line, v->col, "%s'%s' must not be empty", label, key);
	if (strlen(v->u.str.s) != v->u.str.len)
		return cerr(c, v->line, v->col, "%s'%s' must not contain a NUL character",
			    label, key);
	xfree_str(*out);
	*out = xstrdup(v->u.str.s);
	return 1;
}

static int range_error_int(struct ctx *c, const char *label, const char *key,
			   const struct toml_value *v, int64_t min, int64_t max)
{
	if (v->u.i < min && min == 0)
		return cerr(c, v->line, v->col, "%s'%s' must not be negative (got %lld)", label,
			    key, (long long)v->u.i);
	if (v->u.i < min && min == 1 && max == INT64_MAX)
		return cerr(c, v->line, v->col, "%s'%s' must be greater than 0 (got %lld)", label,
			    key, (long long)v->u.i);
	if (max == INT64_MAX)
		return cerr(c, v->line, v->col, "%s'%s' must be at least %lld (got %lld)", label,
			    key, (long long)min, (long long)v->u.i);
	return cerr(c, v->line, v->col, "%s'%s' must be between %lld and %lld (got %lld)", label,
		    key, (long long)min, (long long)max, (long long)v->u.i);
}

static int get_int(struct ctx *c, const char *label, const struct toml_value *t,
		   const char *key, int64_t min, int64_t max, int64_t *out)
{
	const struct toml_value *v = toml_get(t, key);

	if (!v)
		return 0;
	if (v->type != TOML_INTEGER)
		return type_error(c, label, key, v, "an integer");
	if (v->u.i < min || v->u.i > max)
		return range_error_int(c, label, key, v, min, max);
	*out = v->u.i;
	return 1;
}

enum { GT_ZERO = 1, GE_ZERO, UNIT };   /* number ranges: > 0, >= 0, 0..1 */

static int get_number(struct ctx *c, const char *label, const struct toml_value *t,
		      const char *key, int range, double *out)
{
	const struct toml_value *v = toml_get(t, key);
	double d;

	if (!v)
		return 0;
	if (v->type == TOML_INTEGER)
		d = (double)v->u.i;
	else if (v->type == TOML_FLOAT)
		d = v->u.f;
	else
		return type_error(c, label, key, v, "a number");
	if (isnan(d))
		return cerr(c, v->line, v->col, "%s'%s' must be a number, not nan", label, key);
	if (range == GT_ZERO && !(d > 0))
		return cerr(c, v->line, v->col, "%s'%s' must be greater than 0 (got %g)", label, key, d);
	if (range == GE_ZERO && d < 0)
		return cerr(c, v->line, v->col, "%s'%s' must not be negative (got %g)", label, key, d);
	if (range == UNIT && !(d >= 0 && d <= 1))
		return cerr(c, v->line, v->col, "%s'%s' must be between 0 and 1 (got %g)", label, key, d);
	if (isinf(d))
		return cerr(c, v->line, v->col, "%s'%s' must be finite", label, key);
	*out = d;
	return 1;
}

static int check_regex(struct ctx *c, const char *label, const char *key,
		       const struct toml_value *v)
{
	regex_t re;
	char msg[256];
	int rc = re_compile_bounded(&re, v->u.str.s, REG_EXTENDED | REG_NOSUB,
				    c->cfg->limits.regex_cost, msg, sizeof(msg));

	if (rc)
		return cerr(c, v->line, v->col, "%sinvalid regex in '%s': %s", label, key, msg);
	regfree(&re);
	return 0;
}

static int get_regex(struct ctx *c, const char *label, const struct toml_value *t,
		     const char *key, char **out)
{
	int r = get_string(c, label, t, key, false, out);

	if (r <= 0)
		return r;
	return check_regex(c, label, key, toml_get(t, key)) ? -1 : 1;
}

static void free_list(char **l, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(l[i]);
	free(l);
}

/*
 * The error for the entry of v (an array of n items, or a table) beyond
 * limit: what names the entries, and the key of [limits] that raises it.
 */
static int over_limit(struct ctx *c, const struct toml_value *at, const char *what,
		      uint64_t limit, const char *key)
{
	return cerr(c, at->line, at->col, "more than %llu %s (raise limits.%s with RENACER_LIMITS to allow more)",
		    (unsigned long long)limit, what, key);
}

/* A set of names, to find duplicates in linear time. */
struct nameset {
	struct { const char *name; size_t idx; } *slot;
	size_t cap, n;
};

static uint64_t name_hash(const char *s)
{
	uint64_t h = 1469598103934665603ULL;
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ULL;
	return h;
}

/* Adds name (entry idx); returns the entry that had it already, or -1. */
static long nameset_add(struct nameset *ns, const char *name, size_t idx)
{
	size_t i, mask;

	if (2 * (ns->n + 1) > ns->cap) {
		struct nameset big = { NULL, ns->cap ? ns->cap * 2 : 64, ns->n };

		big.slot = xcalloc(big.cap, sizeof(*big.slot));
		for (i = 0; i < ns->cap; i++) {
			size_t j;

			if (!ns->slot[i].name)
				continue;
			for (j = name_hash(ns->slot[i].name) & (big.cap - 1); big.slot[j].name;
			     j = (j + 1) & (big.cap - 1))
				;
			big.slot[j] = ns->slot[i];
		}
		free(ns->slot);
		*ns = big;
	}
	mask = ns->cap - 1;
	for (i = name_hash(name) & mask; ns->slot[i].name; i = (i + 1) & mask)
		if (!strcmp(ns->slot[i].name, name))
			return (long)ns->slot[i].idx;
	ns->slot[i].name = name;
	ns->slot[i].idx = idx;
	ns->n++;
	return -1;
}

static void nameset_release(struct nameset *ns)
{
	free(ns->slot);
	memset(ns, 0, sizeof(*ns));
}

static int get_strlist(struct ctx *c, const char *label, const struct toml_value *t,
		       const char *key, char ***out, size_t *n)
{
	const struct toml_value *v = toml_get(t, key);
	char **l;

	if (!v)
		return 0;
	if (v->type != TOML_ARRAY)
		return type_error(c, label, key, v, "an array of strings");
	if (v->u.arr.n > c->cfg->limits.rules) {
		struct strbuf what = STRBUF_INIT;
		int r;

		strbuf_addf(&what, "items in '%s'", key);
		r = over_limit(c, v->u.arr.items[c->cfg->limits.rules], what.buf,
			       c->cfg->limits.rules, "rules");
		strbuf_release(&what);
		return r;
	}
	for (size_t i = 0; i < v->u.arr.n; i++) {
		const struct toml_value *e = v->u.arr.items[i];
		if (e->type != TOML_STRING)
			return cerr(c, e->line, e->col, "%s'%s' must be an array of strings, but item %zu is %s %s",
				    label, key, i + 1, article(e->type), toml_type_name(e->type));
		if (!e->u.str.len || strlen(e->u.str.s) != e->u.str.len)
			return cerr(c, e->line, e->col, "%s'%s': item %zu must be a non-empty string",
				    label, key, i + 1);
	}
	l = xcalloc(v->u.arr.n + 1, sizeof(*l));
	for (size_t i = 0; i < v->u.arr.n; i++)
		l[i] = xstrdup(v->u.arr.items[i]->u.str.s);
	free_list(*out, *n);
	*out = l;
	*n = v->u.arr.n;
	return 1;
}

/* Matches a string value against names[]; sets *idx. */
static int get_enum(struct ctx *c, const char *label, const struct toml_value *t,
		    const char *key, const char *const *names, size_t n, const char *expected,
		    size_t *idx)
{
	const struct toml_value *v = toml_get(t, key);
	struct strbuf hint = STRBUF_INIT;

	if (!v)
		return 0;
	if (v->type != TOML_STRING)
		return type_error(c, label, key, v, "a string");
	for (size_t i = 0; i < n; i++) {
		if (names[i] && !strcmp(v->u.str.s, names[i])) {
			*idx = i;
			return 1;
		}
	}
	cerr(c, v->line, v->col, "%sunknown %s '%s'%s (expected %s)", label, key, esc(v->u.str.s),
	     suggest(&hint, v->u.str.s, names, n), expected);
	strbuf_release(&hint);
	return -1;
}

/* A table, or a non-empty array of tables. */
static bool is_table_like(const struct toml_value *v)
{
	if (v->type == TOML_TABLE)
		return true;
	if (v->type != TOML_ARRAY || !v->u.arr.n)
		return false;
	for (size_t i = 0; i < v->u.arr.n; i++)
		if (v->u.arr.items[i]->type != TOML_TABLE)
			return false;
	return true;
}

/*
 * Reports the keys of t that are not in known: an error when fatal, else a
 * warning naming prefix+key.  belongs, when given, names where a key that
 * is valid elsewhere belongs ("does not apply to <what>" errors).
 */
static int check_keys(struct ctx *c, const char *label, const struct toml_value *t,
		      const char *prefix, const char *const *known, size_t nknown, bool fatal,
		      const char *(*belongs)(const char *key), const char *what)
{
	struct strbuf hint = STRBUF_INIT;
	int ret = 0;

	for (size_t i = 0; i < t->u.tab.n && !ret; i++) {
		const char *key = t->u.tab.kv[i].key;
		const struct toml_value *v = t->u.tab.kv[i].value;
		const char *other;

		if (in_list(key, known, nknown))
			continue;
		other = belongs ? belongs(key) : NULL;
		if (other) {
			ret = cerr(c, v->kline, v->kcol, "%skey '%s' does not apply to %s (it is for %s)",
				   label, esc(key), what, other);
			break;
		}
		strbuf_reset(&hint);
		if ((other = closest(key, known, nknown)))
			strbuf_addf(&hint, " (did you mean '%s%s'?)", prefix, other);
		if (fatal) {
			ret = cerr(c, v->kline, v->kcol, "%sunknown key '%s'%s", label, esc(key), hint.buf);
		} else if (is_table_like(v)) {
			/* a [header] starts before its key; an inline or dotted table at its key */
			bool hdr = v->line < v->kline || (v->line == v->kline && v->col < v->kcol);
			cwarn(c, hdr ? v->line : v->kline, hdr ? v->col : v->kcol,
			      "unknown table '%s%s'%s", prefix, esc(key), hint.buf);
		} else {
			cwarn(c, v->kline, v->kcol, "unknown key '%s%s'%s", prefix, esc(key), hint.buf);
		}
	}
	strbuf_release(&hint);
	return ret;
}

/* Checks that v is a table (known table names that hold something else). */
static int need_table(struct ctx *c, const char *name, const struct toml_value *v)
{
	if (v->type != TOML_TABLE)
		return cerr(c, v->kline, v->kcol, "'%s' must be a table, not %s %s", name,
			    article(v->type), toml_type_name(v->type));
	return 0;
}

/* Checks that v is an array of tables. */
static int need_table_array(struct ctx *c, const char *name, const struct toml_value *v)
{
	if (v->type == TOML_TABLE)
		return cerr(c, v->line, v->col, "'%s' must be an array of tables: write [[%s]]",
			    name, name);
	if (v->type != TOML_ARRAY)
		return cerr(c, v->kline, v->kcol, "'%s' must be an array of tables ([[%s]]), not %s %s",
			    name, name, article(v->type), toml_type_name(v->type));
	for (size_t i = 0; i < v->u.arr.n; i++)
		if (v->u.arr.items[i]->type != TOML_TABLE)
			return cerr(c, v->u.arr.items[i]->line, v->u.arr.items[i]->col,
				    "'%s' must be an array of tables ([[%s]]), but item %zu is %s %s",
				    name, name, i + 1, article(v->u.arr.items[i]->type),
				    toml_type_name(v->u.arr.items[i]->type));
	return 0;
}

/* ---- names ---- */

static const char *const assertion_types[] = {
	NULL, "critical_path", "span_count", "memory_usage", "anti_pattern",
};
static const char *const tracking_modes[] = { "allocations", "rss" };
static const char *const anti_patterns[] = {
	NULL, "TightLoop", "GodProcess", "PCIeBottleneck", "UnbufferedIO", "RedundantFileAccess",
};
static const char *const ci_formats[] = { "text", "json", "junit", "markdown" };
static const char *const otlp_protocols[] = { "http/protobuf", "http/json", "grpc" };

const char *config_assertion_type_name(enum assertion_type t)
{
	return t >= 1 && t < ARRAY_SIZE(assertion_types) ? assertion_types[t] : "?";
}

const char *config_tracking_mode_name(enum tracking_mode m)
{
	return (unsigned)m < ARRAY_SIZE(tracking_modes) ? tracking_modes[m] : "?";
}

const char *config_anti_pattern_name(enum anti_pattern p)
{
	return p >= 1 && p < ARRAY_SIZE(anti_patterns) ? anti_patterns[p] : "?";
}

const char *config_ci_format_name(enum ci_format f)
{
	return (unsigned)f < ARRAY_SIZE(ci_formats) ? ci_formats[f] : "?";
}

/* ---- [[assertion]] ---- */

/* Whether s can name a golden trace (a file name part). */
static bool valid_trace_name(const char *s)
{
	if (!*s || *s == '.' || *s == '-')
		return false;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
		      (*s >= '0' && *s <= '9') || *s == '_' || *s == '-' || *s == '.' || *s == '+'))
			return false;
	return true;
}


static const char *const common_keys[] = {
	"name", "type", "enabled", "fail_on_violation", "description", "traces",
};
static const char *const critical_path_keys[] = { "max_duration_ms", "trace_name_pattern" };
static const char *const span_count_keys[] = { "max_spans", "span_name_pattern" };
static const char *const memory_usage_keys[] = { "max_bytes", "tracking_mode" };
static const char *const anti_pattern_keys[] = { "pattern", "threshold" };

static const struct {
	const char *const *keys;
	size_t n;
} type_keys[] = {
	{ NULL, 0 },
	{ critical_path_keys, ARRAY_SIZE(critical_path_keys) },
	{ span_count_keys, ARRAY_SIZE(span_count_keys) },
	{ memory_usage_keys, ARRAY_SIZE(memory_usage_keys) },
	{ anti_pattern_keys, ARRAY_SIZE(anti_pattern_keys) },
};

static const char *assertion_key_owner(const char *key)
{
	static const char *const owners[] = {
		NULL, "critical_path assertions", "span_count assertions",
		"memory_usage assertions", "anti_pattern assertions",
	};
	for (size_t t = 1; t < ARRAY_SIZE(type_keys); t++)
		if (in_list(key, type_keys[t].keys, type_keys[t].n))
			return owners[t];
	return NULL;
}

static void assertion_release(struct config_assertion *a)
{
	free(a->name);
	free(a->description);
	for (size_t i = 0; i < a->ntraces; i++)
		free(a->traces[i]);
	free(a->traces);
	free(a->trace_name_pattern);
	free(a->span_name_pattern);
	memset(a, 0, sizeof(*a));
}

static int missing(struct ctx *c, const struct toml_value *t, const char *label, const char *key)
{
	return cerr(c, t->line, t->col, "%smissing required key '%s'", label, key);
}

static int parse_assertion(struct ctx *c, const struct toml_value *t, size_t idx,
			   struct config_assertion *a)
{
	struct strbuf label = STRBUF_INIT;
	const char *known[ARRAY_SIZE(common_keys) + 2];
	size_t nknown = 0, ti = 0;
	const struct toml_value *v;
	struct strbuf what = STRBUF_INIT;
	int64_t iv;
	int ret = -1;

	a->enabled = true;
	a->fail_on_violation = true;
	a->threshold = 0.8;
	a->tracking_mode = TRACKING_ALLOCATIONS;
	a->line = t->line;
	a->col = t->col;

	strbuf_addf(&label, "assertion #%zu: ", idx + 1);
	if (!(v = toml_get(t, "name"))) {
		missing(c, t, label.buf, "name");
		goto out;
	}
	if (get_string(c, label.buf, t, "name", false, &a->name) < 0)
		goto out;
	strbuf_reset(&label);
	strbuf_addf(&label, "assertion '%s': ", esc(a->name));
	if (!toml_get(t, "type")) {
		missing(c, t, label.buf, "type");
		goto out;
	}
	if (get_enum(c, label.buf, t, "type", assertion_types, ARRAY_SIZE(assertion_types),
		     "critical_path, span_count, memory_usage or anti_pattern", &ti) < 0)
		goto out;
	a->type = (enum assertion_type)ti;

	for (size_t i = 0; i < ARRAY_SIZE(common_keys); i++)
		known[nknown++] = common_keys[i];
	for (size_t i = 0; i < type_keys[ti].n; i++)
		known[nknown++] = type_keys[ti].keys[i];
	strbuf_addf(&what, "%s assertions", assertion_types[ti]);
	if (check_keys(c, label.buf, t, "", known, nknown, true, assertion_key_owner, what.buf))
		goto out;

	if (get_bool(c, label.buf, t, "enabled", &a->enabled) < 0 ||
	    get_bool(c, label.buf, t, "fail_on_violation", &a->fail_on_violation) < 0 ||
	    get_string(c, label.buf, t, "description", true, &a->description) < 0 ||
	    (!a->traces && get_strlist(c, label.buf, t, "traces", &a->traces, &a->ntraces) < 0))
		goto out;
	for (size_t i = 0; i < a->ntraces; i++)
		if (!valid_trace_name(a->traces[i])) {
			const struct toml_value *tv = toml_get(t, "traces");
			cerr(c, tv->line, tv->col, "%sno trace can be called '%s'", label.buf,
			     esc(a->traces[i]));
			goto out;
		}

	switch (a->type) {
	case ASSERTION_CRITICAL_PATH:
		if (!toml_get(t, "max_duration_ms")) {
			missing(c, t, label.buf, "max_duration_ms");
			goto out;
		}
		if (get_number(c, label.buf, t, "max_duration_ms", GT_ZERO, &a->max_duration_ms) < 0 ||
		    get_regex(c, label.buf, t, "trace_name_pattern", &a->trace_name_pattern) < 0)
			goto out;
		break;
	case ASSERTION_SPAN_COUNT:
		if (!toml_get(t, "max_spans")) {
			missing(c, t, label.buf, "max_spans");
			goto out;
		}
		if (get_int(c, label.buf, t, "max_spans", 0, INT64_MAX, &iv) < 0 ||
		    get_regex(c, label.buf, t, "span_name_pattern", &a->span_name_pattern) < 0)
			goto out;
		a->max_spans = (uint64_t)iv;
		break;
	case ASSERTION_MEMORY_USAGE: {
		size_t m = 0;
		if (!toml_get(t, "max_bytes")) {
			missing(c, t, label.buf, "max_bytes");
			goto out;
		}
		if (get_int(c, label.buf, t, "max_bytes", 1, INT64_MAX, &iv) < 0)
			goto out;
		a->max_bytes = (uint64_t)iv;
		if (get_enum(c, label.buf, t, "tracking_mode", tracking_modes,
			     ARRAY_SIZE(tracking_modes), "allocations or rss", &m) < 0)
			goto out;
		a->tracking_mode = (enum tracking_mode)m;
		break;
	}
	case ASSERTION_ANTI_PATTERN: {
		size_t p = 0;
		if (!toml_get(t, "pattern")) {
			missing(c, t, label.buf, "pattern");
			goto out;
		}
		if (get_enum(c, label.buf, t, "pattern", anti_patterns, ARRAY_SIZE(anti_patterns),
			     "TightLoop, GodProcess, PCIeBottleneck, UnbufferedIO or RedundantFileAccess",
			     &p) < 0)
			goto out;
		a->pattern = (enum anti_pattern)p;
		a->pattern_name = anti_patterns[p];
		if (get_number(c, label.buf, t, "threshold", UNIT, &a->threshold) < 0)
			goto out;
		break;
	}
	}
	ret = 0;
out:
	strbuf_release(&label);
	strbuf_release(&what);
	return ret;
}

static int parse_assertions(struct ctx *c, const struct toml_value *v)
{
	struct renacer_config *cfg = c->cfg;
	struct nameset names = { 0 };
	int ret = 0;

	if (need_table_array(c, "assertion", v))
		return -1;
	if (v->u.arr.n + cfg->nassertions > cfg->limits.assertions)
		return over_limit(c, v->u.arr.items[cfg->limits.assertions > cfg->nassertions
						     ? cfg->limits.assertions - cfg->nassertions : 0],
				  "[[assertion]] entries", cfg->limits.assertions, "assertions");
	for (size_t i = 0; i < cfg->nassertions; i++)
		nameset_add(&names, cfg->assertions[i].name, i);
	for (size_t i = 0; i < v->u.arr.n; i++) {
		struct config_assertion *a;
		long j;

		ALLOC_GROW(cfg->assertions, cfg->nassertions + 1, c->aassertions);
		a = &cfg->assertions[cfg->nassertions++];
		memset(a, 0, sizeof(*a));
		if (parse_assertion(c, v->u.arr.items[i], i, a)) {
			ret = -1;
			break;
		}
		if (!a->ntraces && (j = nameset_add(&names, a->name, cfg->nassertions - 1)) >= 0) {
			const struct toml_value *nv = toml_get(v->u.arr.items[i], "name");
			ret = cerr(c, nv->line, nv->col,
				   "duplicate assertion name '%s' (first defined at %u:%u)",
				   esc(a->name), cfg->assertions[j].line, cfg->assertions[j].col);
			break;
		}
	}
	nameset_release(&names);
	return ret;
}

/* ---- [semantic_equivalence], [lamport_clock] ---- */

static int parse_semantic(struct ctx *c, const struct toml_value *t, char **baseline_dir)
{
	static const char *const keys[] = { "enabled", "min_confidence", "baseline_dir" };
	struct config_semantic *s = &c->cfg->semantic;
	const char *label = "semantic_equivalence: ";

	if (need_table(c, "semantic_equivalence", t) ||
	    check_keys(c, label, t, "semantic_equivalence.", keys, ARRAY_SIZE(keys), false, NULL, NULL) ||
	    get_bool(c, label, t, "enabled", &s->enabled) < 0 ||
	    get_number(c, label, t, "min_confidence", UNIT, &s->min_confidence) < 0 ||
	    get_string(c, label, t, "baseline_dir", false, baseline_dir) < 0)
		return -1;
	return 0;
}

static int parse_lamport(struct ctx *c, const struct toml_value *t)
{
	static const char *const keys[] = { "enabled" };
	const char *label = "lamport_clock: ";
	bool on = true;

	if (need_table(c, "lamport_clock", t) ||
	    check_keys(c, label, t, "lamport_clock.", keys, ARRAY_SIZE(keys), false, NULL, NULL) ||
	    get_bool(c, label, t, "enabled", &on) < 0)
		return -1;
	if (!on) {
		const struct toml_value *v = toml_get(t, "enabled");
		cwarn(c, v->line, v->col, "lamport_clock: Lamport clocks are always recorded; 'enabled = false' has no effect");
	}
	c->cfg->semantic.lamport_clock = on;
	return 0;
}

/* ---- [golden_traces] ---- */

/* Warns about syscall names the table does not know (a typo never matches). */
static void check_syscall_name(struct ctx *c, const char *label, const char *name,
			       unsigned line, unsigned col)
{
	const char **names;
	struct strbuf hint = STRBUF_INIT;
	size_t n = 0;

	if (sysent_lookup(name) >= 0 || !strncmp(name, "syscall_", 8))
		return;
	for (size_t i = 0; sysent_compat_names[i]; i++)
		if (!strcmp(sysent_compat_names[i], name))
			return;
	names = xcalloc(sysent_count + 1, sizeof(*names));
	for (unsigned i = 0; i < sysent_count; i++)
		if (sysent_table[i].name)
			names[n++] = sysent_table[i].name;
	cwarn(c, line, col, "%sunknown syscall '%s'%s", label, esc(name), suggest(&hint, name, names, n));
	free(names);
	strbuf_release(&hint);
}

static void check_syscall_list(struct ctx *c, const char *label, const struct toml_value *t,
			       const char *key)
{
	const struct toml_value *v = toml_get(t, key);

	if (!v)
		return;
	for (size_t i = 0; i < v->u.arr.n; i++)
		check_syscall_name(c, label, v->u.arr.items[i]->u.str.s, v->u.arr.items[i]->line,
				   v->u.arr.items[i]->col);
}

/* Reads the command: an array of strings, or one string split like a shell. */
static int get_command(struct ctx *c, const char *label, const struct toml_value *t,
		       struct config_trace *tr)
{
	const struct toml_value *v = toml_get(t, "command");
	char err[128];

	if (!v)
		return missing(c, t, label, "command");
	if (v->type == TOML_STRING) {
		if (strlen(v->u.str.s) != v->u.str.len)
			return cerr(c, v->line, v->col, "%s'command' must not contain a NUL character", label);
		tr->argv = config_split_command(v->u.str.s, &tr->argc, err, sizeof(err));
		if (!tr->argv)
			return cerr(c, v->line, v->col, "%s'command': %s", label, err);
		if (!tr->argc)
			return cerr(c, v->line, v->col, "%s'command' must not be empty", label);
		return 0;
	}
	if (v->type != TOML_ARRAY)
		return type_error(c, label, "command", v, "an array of strings or a string");
	if (!v->u.arr.n)
		return cerr(c, v->line, v->col, "%s'command' must not be empty", label);
	return get_strlist(c, label, t, "command", &tr->argv, &tr->argc) < 0 ? -1 : 0;
}

static int get_env(struct ctx *c, const char *label, const struct toml_value *t,
		   struct config_trace *tr)
{
	const struct toml_value *v = toml_get(t, "env");

	if (!v)
		return 0;
	if (v->type != TOML_TABLE)
		return type_error(c, label, "env", v, "a table of strings");
	tr->env = xcalloc(v->u.tab.n + 1, sizeof(*tr->env));
	for (size_t i = 0; i < v->u.tab.n; i++) {
		const struct toml_kv *kv = &v->u.tab.kv[i];
		struct strbuf sb = STRBUF_INIT;

		if (kv->value->type != TOML_STRING)
			return cerr(c, kv->value->line, kv->value->col,
				    "%s'env.%s' must be a string, not %s %s", label, kv->key,
				    article(kv->value->type), toml_type_name(kv->value->type));
		if (!kv->keylen || strchr(kv->key, '=') || strlen(kv->key) != kv->keylen)
			return cerr(c, kv->value->kline, kv->value->kcol,
				    "%sinvalid environment variable name '%s'", label, kv->key);
		if (strlen(kv->value->u.str.s) != kv->value->u.str.len)
			return cerr(c, kv->value->line, kv->value->col,
				    "%s'env.%s' must not contain a NUL character", label, kv->key);
		strbuf_addf(&sb, "%s=%s", kv->key, kv->value->u.str.s);
		tr->env[tr->nenv++] = strbuf_detach(&sb, NULL);
	}
	return 0;
}

static void trace_release(struct config_trace *tr)
{
	free(tr->name);
	free_list(tr->argv, tr->argc);
	free_list(tr->env, tr->nenv);
	free(tr->cwd);
	free_list(tr->inject, tr->ninject);
	memset(tr, 0, sizeof(*tr));
}

static int parse_trace(struct ctx *c, const struct toml_value *t, size_t idx,
		       struct config_trace *tr)
{
	static const char *const keys[] = { "name", "command", "env", "cwd", "follow", "runs",
					    "inject", "callgrind", "assertion" };
	struct strbuf label = STRBUF_INIT;
	const struct toml_value *nv;
	int64_t runs = 0;
	int ret = -1;

	tr->follow = true;
	tr->callgrind = -1;
	tr->line = t->line;
	tr->col = t->col;
	strbuf_addf(&label, "golden trace #%zu: ", idx + 1);
	if (!(nv = toml_get(t, "name"))) {
		missing(c, t, label.buf, "name");
		goto out;
	}
	if (get_string(c, label.buf, t, "name", false, &tr->name) < 0)
		goto out;
	if (!valid_trace_name(tr->name)) {
		cerr(c, nv->line, nv->col, "golden trace name '%s' must use only letters, digits and '_', '-', '.', '+', and not start with '.' or '-'",
		     esc(tr->name));
		goto out;
	}
	strbuf_reset(&label);
	strbuf_addf(&label, "golden trace '%s': ", tr->name);
	if (check_keys(c, label.buf, t, "", keys, ARRAY_SIZE(keys), true, NULL, NULL) ||
	    get_command(c, label.buf, t, tr) ||
	    get_env(c, label.buf, t, tr) ||
	    get_string(c, label.buf, t, "cwd", false, &tr->cwd) < 0 ||
	    get_bool(c, label.buf, t, "follow", &tr->follow) < 0 ||
	    get_int(c, label.buf, t, "runs", 1, 1000, &runs) < 0 ||
	    get_strlist(c, label.buf, t, "inject", &tr->inject, &tr->ninject) < 0)
		goto out;
	if (toml_get(t, "callgrind")) {
		bool cg = false;
		if (get_bool(c, label.buf, t, "callgrind", &cg) < 0)
			goto out;
		tr->callgrind = cg;
	}
	tr->runs = (unsigned)runs;
	/* [[golden_traces.trace.assertion]]: budgets of this trace alone */
	if ((nv = toml_get(t, "assertion"))) {
		struct renacer_config *cfg = c->cfg;
		if (need_table_array(c, "golden_traces.trace.assertion", nv))
			goto out;
		if (nv->u.arr.n + cfg->nassertions > cfg->limits.assertions) {
			over_limit(c, nv, "[[assertion]] entries", cfg->limits.assertions, "assertions");
			goto out;
		}
		for (size_t i = 0; i < nv->u.arr.n; i++) {
			struct config_assertion *a;
			ALLOC_GROW(cfg->assertions, cfg->nassertions + 1, c->aassertions);
			a = &cfg->assertions[cfg->nassertions++];
			memset(a, 0, sizeof(*a));
			a->traces = xcalloc(2, sizeof(*a->traces));
			a->traces[0] = xstrdup(tr->name);
			a->ntraces = 1;
			if (parse_assertion(c, nv->u.arr.items[i], i, a))
				goto out;
			for (size_t k = 0; k + 1 < cfg->nassertions; k++) {
				const struct config_assertion *o = &cfg->assertions[k];
				if (o->ntraces == 1 && !strcmp(o->traces[0], tr->name) &&
				    !strcmp(o->name, a->name)) {
					cerr(c, a->line, a->col, "%sduplicate assertion name '%s' (first "
					     "defined at %u:%u)", label.buf, esc(a->name), o->line, o->col);
					goto out;
				}
			}
		}
	}
	ret = 0;
out:
	strbuf_release(&label);
	return ret;
}

static int parse_traces(struct ctx *c, const struct toml_value *v)
{
	struct config_golden *g = &c->cfg->golden;
	struct nameset names = { 0 };
	int ret = 0;

	if (need_table_array(c, "golden_traces.trace", v))
		return -1;
	if (v->u.arr.n > c->cfg->limits.rules)
		return over_limit(c, v->u.arr.items[c->cfg->limits.rules],
				  "[[golden_traces.trace]] entries", c->cfg->limits.rules, "rules");
	g->traces = xcalloc(v->u.arr.n ? v->u.arr.n : 1, sizeof(*g->traces));
	for (size_t i = 0; i < v->u.arr.n; i++) {
		struct config_trace *tr = &g->traces[i];
		long j;

		g->ntraces = i + 1;
		if (parse_trace(c, v->u.arr.items[i], i, tr)) {
			ret = -1;
			break;
		}
		if ((j = nameset_add(&names, tr->name, i)) >= 0) {
			const struct toml_value *nv = toml_get(v->u.arr.items[i], "name");
			ret = cerr(c, nv->line, nv->col,
				   "duplicate golden trace name '%s' (first defined at %u:%u)",
				   esc(tr->name), g->traces[j].line, g->traces[j].col);
			break;
		}
	}
	nameset_release(&names);
	return ret;
}

static int parse_normalize(struct ctx *c, const struct toml_value *v)
{
	static const char *const keys[] = { "pattern", "replace" };
	struct config_golden *g = &c->cfg->golden;

	if (v->type != TOML_ARRAY)
		return type_error(c, "golden_traces: ", "normalize", v,
				  "an array of tables ({ pattern = \"...\", replace = \"...\" })");
	if (v->u.arr.n > c->cfg->limits.rules)
		return over_limit(c, v->u.arr.items[c->cfg->limits.rules],
				  "golden_traces.normalize rules", c->cfg->limits.rules, "rules");
	g->normalize = xcalloc(v->u.arr.n ? v->u.arr.n : 1, sizeof(*g->normalize));
	for (size_t i = 0; i < v->u.arr.n; i++) {
		const struct toml_value *t = v->u.arr.items[i];
		struct config_normalize *r = &g->normalize[i];
		struct strbuf label = STRBUF_INIT;
		int bad;

		strbuf_addf(&label, "golden_traces.normalize #%zu: ", i + 1);
		if (t->type != TOML_TABLE) {
			bad = cerr(c, t->line, t->col, "%smust be a table { pattern = \"...\", replace = \"...\" }, not %s %s",
				   label.buf, article(t->type), toml_type_name(t->type));
			strbuf_release(&label);
			return bad;
		}
		g->nnormalize = i + 1;
		r->line = t->line;
		r->col = t->col;
		bad = check_keys(c, label.buf, t, "", keys, ARRAY_SIZE(keys), true, NULL, NULL);
		if (!bad && !toml_get(t, "pattern"))
			bad = missing(c, t, label.buf, "pattern");
		if (!bad && get_regex(c, label.buf, t, "pattern", &r->pattern) < 0)
			bad = -1;
		if (!bad && get_string(c, label.buf, t, "replace", true, &r->replace) < 0)
			bad = -1;
		if (!r->replace)
			r->replace = xstrdup("");
		strbuf_release(&label);
		if (bad)
			return -1;
	}
	return 0;
}

static int parse_tolerances(struct ctx *c, const struct toml_value *v)
{
	struct config_golden *g = &c->cfg->golden;

	if (v->type != TOML_TABLE)
		return type_error(c, "golden_traces: ", "tolerances", v,
				  "a table of syscall = percent");
	if (v->u.tab.n > c->cfg->limits.rules)
		return over_limit(c, v->u.tab.kv[c->cfg->limits.rules].value,
				  "golden_traces.tolerances entries", c->cfg->limits.rules, "rules");
	g->tolerances = xcalloc(v->u.tab.n ? v->u.tab.n : 1, sizeof(*g->tolerances));
	for (size_t i = 0; i < v->u.tab.n; i++) {
		const struct toml_kv *kv = &v->u.tab.kv[i];
		double pct = 0;

		if (get_number(c, "golden_traces.tolerances: ", v, kv->key, GE_ZERO, &pct) < 0)
			return -1;
		check_syscall_name(c, "golden_traces.tolerances: ", kv->key, kv->value->kline,
				   kv->value->kcol);
		g->tolerances[g->ntolerances].syscall = xstrdup(kv->key);
		g->tolerances[g->ntolerances++].pct = pct;
	}
	return 0;
}

static int parse_golden(struct ctx *c, const struct toml_value *t, bool *have_compress)
{
	static const char *const keys[] = {
		"dir", "runs", "tolerance_pct", "tolerances", "check_runtime",
		"runtime_tolerance_pct", "runtime_floor_ms", "noise_factor", "ignore_syscalls",
		"ignore_paths", "volatile_syscalls", "normalize", "context_lines",
		"max_diff_lines", "compress_above_bytes", "trace", "bytes_tolerance_pct",
		"memory_tolerance_pct", "time_limits", "env_vars", "timing", "timing_runs",
		"timing_max_runs", "min_slowdown_pct", "min_slowdown_us", "callgrind",
		"callgrind_tolerance_pct",
	};
	static const char *const timing_modes[] = { "normal", "strict" };
	size_t mode = 0;
	struct config_golden *g = &c->cfg->golden;
	const char *label = "golden_traces: ";
	const struct toml_value *v;
	int64_t iv;

	if (need_table(c, "golden_traces", t) ||
	    check_keys(c, label, t, "golden_traces.", keys, ARRAY_SIZE(keys), false, NULL, NULL) ||
	    get_string(c, label, t, "dir", false, &g->dir) < 0)
		return -1;
	iv = g->runs;
	if (get_int(c, label, t, "runs", 1, 1000, &iv) < 0)
		return -1;
	g->runs = (unsigned)iv;
	if (get_number(c, label, t, "tolerance_pct", GE_ZERO, &g->tolerance_pct) < 0 ||
	    get_bool(c, label, t, "check_runtime", &g->check_runtime) < 0 ||
	    get_number(c, label, t, "runtime_tolerance_pct", GE_ZERO, &g->runtime_tolerance_pct) < 0 ||
	    get_number(c, label, t, "runtime_floor_ms", GE_ZERO, &g->runtime_floor_ms) < 0 ||
	    get_number(c, label, t, "noise_factor", GE_ZERO, &g->noise_factor) < 0 ||
	    get_strlist(c, label, t, "ignore_syscalls", &g->ignore_syscalls, &g->nignore_syscalls) < 0 ||
	    get_strlist(c, label, t, "ignore_paths", &g->ignore_paths, &g->nignore_paths) < 0 ||
	    get_strlist(c, label, t, "volatile_syscalls", &g->volatile_syscalls,
			&g->nvolatile_syscalls) < 0 ||
	    get_number(c, label, t, "bytes_tolerance_pct", GE_ZERO, &g->bytes_tolerance_pct) < 0 ||
	    get_number(c, label, t, "memory_tolerance_pct", GE_ZERO, &g->memory_tolerance_pct) < 0 ||
	    get_strlist(c, label, t, "time_limits", &g->time_limits, &g->ntime_limits) < 0 ||
	    get_strlist(c, label, t, "env_vars", &g->env_vars, &g->nenv_vars) < 0)
		return -1;
	if (get_enum(c, label, t, "timing", timing_modes, ARRAY_SIZE(timing_modes),
		     "\"normal\" or \"strict\"", &mode) < 0 ||
	    get_number(c, label, t, "min_slowdown_pct", GE_ZERO, &g->min_slowdown_pct) < 0 ||
	    get_number(c, label, t, "min_slowdown_us", GE_ZERO, &g->min_slowdown_us) < 0 ||
	    get_tristate(c, label, t, "callgrind", &g->callgrind) < 0 ||
	    get_number(c, label, t, "callgrind_tolerance_pct", GE_ZERO,
		       &g->callgrind_tolerance_pct) < 0)
		return -1;
	g->timing_strict = mode == 1;
	iv = g->timing_runs;
	if (get_int(c, label, t, "timing_runs", 2, 1000, &iv) < 0)
		return -1;
	g->timing_runs = (unsigned)iv;
	iv = g->timing_max_runs;
	if (get_int(c, label, t, "timing_max_runs", 5, 10000, &iv) < 0)
		return -1;
	g->timing_max_runs = (unsigned)iv;
	check_syscall_list(c, label, t, "ignore_syscalls");
	check_syscall_list(c, label, t, "volatile_syscalls");
	check_syscall_list(c, label, t, "time_limits");
	iv = g->context_lines;
	if (get_int(c, label, t, "context_lines", 0, 1000, &iv) < 0)
		return -1;
	g->context_lines = (unsigned)iv;
	iv = g->max_diff_lines;
	if (get_int(c, label, t, "max_diff_lines", 0, 1000000, &iv) < 0)
		return -1;
	g->max_diff_lines = (unsigned)iv;
	switch (get_int(c, label, t, "compress_above_bytes", 0, INT64_MAX, &iv)) {
	case -1:
		return -1;
	case 1:
		g->compress = true;
		g->compress_above_bytes = (uint64_t)iv;
		*have_compress = true;
		break;
	}
	if ((v = toml_get(t, "tolerances")) && parse_tolerances(c, v))
		return -1;
	if ((v = toml_get(t, "normalize")) && parse_normalize(c, v))
		return -1;
	if ((v = toml_get(t, "trace")) && parse_traces(c, v))
		return -1;
	return 0;
}

/* ---- [compression], [otlp], [ci] ---- */

static int parse_compression(struct ctx *c, const struct toml_value *t)
{
	static const char *const keys[] = { "enabled", "algorithm", "threshold_bytes", "min_size", "level" };
	static const char *const algos[] = { "zstd", "rle" };
	struct config_compression *z = &c->cfg->compression;
	const char *label = "compression: ";
	const struct toml_value *a, *b;
	size_t ai = 0;
	int64_t iv;

	if (need_table(c, "compression", t) ||
	    check_keys(c, label, t, "compression.", keys, ARRAY_SIZE(keys), false, NULL, NULL) ||
	    get_bool(c, label, t, "enabled", &z->enabled) < 0)
		return -1;
	switch (get_enum(c, label, t, "algorithm", algos, ARRAY_SIZE(algos), "zstd", &ai)) {
	case -1:
		return -1;
	case 1:
		if (ai == 1) {
			const struct toml_value *v = toml_get(t, "algorithm");
			cwarn(c, v->line, v->col, "compression: algorithm 'rle' is not supported; zstd is used instead");
		}
		break;
	}
	a = toml_get(t, "threshold_bytes");
	b = toml_get(t, "min_size");
	if (a && b)
		return cerr(c, b->kline, b->kcol, "compression: 'min_size' and 'threshold_bytes' are the same setting; give only one");
	iv = (int64_t)z->threshold_bytes;
	if (get_int(c, label, t, a ? "threshold_bytes" : "min_size", 0, INT64_MAX, &iv) < 0)
		return -1;
	z->threshold_bytes = (uint64_t)iv;
	iv = z->level;
	if (get_int(c, label, t, "level", 1, 19, &iv) < 0)
		return -1;
	z->level = (int)iv;
	return 0;
}

static int parse_otlp(struct ctx *c, const struct toml_value *t)
{
	static const char *const keys[] = {
		"enabled", "endpoint", "service_name", "protocol", "headers", "timeout_ms",
		"batch_size", "min_duration_us",
	};
	struct config_otlp *o = &c->cfg->otlp;
	const char *label = "otlp: ";
	const struct toml_value *v;
	size_t pi = 0;
	int64_t iv;

	if (need_table(c, "otlp", t) ||
	    check_keys(c, label, t, "otlp.", keys, ARRAY_SIZE(keys), false, NULL, NULL) ||
	    get_bool(c, label, t, "enabled", &o->enabled) < 0 ||
	    get_string(c, label, t, "endpoint", false, &o->endpoint) < 0 ||
	    get_string(c, label, t, "service_name", false, &o->service_name) < 0)
		return -1;
	if ((v = toml_get(t, "endpoint")) && strncmp(o->endpoint, "http://", 7) &&
	    strncmp(o->endpoint, "https://", 8))
		return cerr(c, v->line, v->col, "otlp: 'endpoint' must be an http:// or https:// URL (got '%s')",
			    esc(o->endpoint));
	o->endpoint_given = toml_get(t, "endpoint") != NULL;
	if (get_enum(c, label, t, "protocol", otlp_protocols, ARRAY_SIZE(otlp_protocols),
		     "http/protobuf, http/json or grpc", &pi) < 0)
		return -1;
	o->protocol = (enum otlp_protocol)pi;
	o->protocol_given = toml_get(t, "protocol") != NULL;
	iv = o->timeout_ms;
	if (get_int(c, label, t, "timeout_ms", 1, 600000, &iv) < 0)
		return -1;
	o->timeout_ms = (unsigned)iv;
	iv = 0;
	if (get_int(c, label, t, "batch_size", 1, 65536, &iv) < 0)
		return -1;
	o->batch_size = (unsigned)iv;
	iv = 0;
	if (get_int(c, label, t, "min_duration_us", 0, INT64_MAX / 1000, &iv) < 0)
		return -1;
	o->min_duration_us = (uint64_t)iv;
	o->min_duration_us_given = toml_get(t, "min_duration_us") != NULL;
	if ((v = toml_get(t, "headers"))) {
		if (v->type != TOML_TABLE)
			return type_error(c, label, "headers", v, "a table of strings");
		o->headers = xcalloc(v->u.tab.n ? v->u.tab.n : 1, sizeof(*o->headers));
		for (size_t i = 0; i < v->u.tab.n; i++) {
			const struct toml_kv *kv = &v->u.tab.kv[i];
			if (kv->value->type != TOML_STRING)
				return cerr(c, kv->value->line, kv->value->col,
					    "otlp: 'headers.%s' must be a string, not %s %s", kv->key,
					    article(kv->value->type), toml_type_name(kv->value->type));
			if (!kv->keylen || strpbrk(kv->key, ": \t\r\n") || strlen(kv->key) != kv->keylen)
				return cerr(c, kv->value->kline, kv->value->kcol,
					    "otlp: invalid header name '%s'", kv->key);
			if (strpbrk(kv->value->u.str.s, "\r\n") ||
			    strlen(kv->value->u.str.s) != kv->value->u.str.len)
				return cerr(c, kv->value->line, kv->value->col,
					    "otlp: 'headers.%s' must not contain line breaks", kv->key);
			o->headers[o->nheaders].name = xstrdup(kv->key);
			o->headers[o->nheaders++].value = xstrdup(kv->value->u.str.s);
		}
	}
	return 0;
}

static int parse_ci(struct ctx *c, const struct toml_value *t)
{
	static const char *const keys[] = { "fail_fast", "export_format", "junit_path" };
	struct config_ci *ci = &c->cfg->ci;
	const char *label = "ci: ";
	size_t fi = 0;

	if (need_table(c, "ci", t) ||
	    check_keys(c, label, t, "ci.", keys, ARRAY_SIZE(keys), false, NULL, NULL) ||
	    get_bool(c, label, t, "fail_fast", &ci->fail_fast) < 0 ||
	    get_string(c, label, t, "junit_path", false, &ci->junit_path) < 0)
		return -1;
	if (get_enum(c, label, t, "export_format", ci_formats, ARRAY_SIZE(ci_formats),
		     "text, json, junit or markdown", &fi) < 0)
		return -1;
	ci->export_format = (enum ci_format)fi;
	return 0;
}

/* [source]: which stack frames are not the program's own (-s, -k) */
static int parse_source(struct ctx *c, const struct toml_value *t)
{
	static const char *const keys[] = { "skip", "default_skip" };
	struct config_source *so = &c->cfg->source;
	const char *label = "source: ";
	const struct toml_value *v;

	if (need_table(c, "source", t) ||
	    check_keys(c, label, t, "source.", keys, ARRAY_SIZE(keys), false, NULL, NULL) ||
	    get_bool(c, label, t, "default_skip", &so->default_skip) < 0 ||
	    get_strlist(c, label, t, "skip", &so->skip, &so->nskip) < 0)
		return -1;
	v = toml_get(t, "skip");
	for (size_t i = 0; v && i < v->u.arr.n; i++)
		if (check_regex(c, label, "skip", v->u.arr.items[i]))
			return -1;
	return 0;
}

/* ---- the file ---- */

/* The keys of [limits] and RENACER_LIMITS, in struct config_limits order. */
static const char *const limit_keys[] = {
	"regex_cost", "assertions", "rules", "string_bytes", "trace_records", "sequence_calls",
};
/* their least values: string_bytes below 64 would cut syscall names and paths */
static const int64_t limit_min[] = { 1, 1, 1, 64, 1, 1 };

/*
 * Applies RENACER_LIMITS ("KEY=N[,KEY=N...]", the keys of [limits]) to l.
 * Returns 0, or -1 at the first bad entry: after error() when report,
 * silently (the entries before it applied) when not.
 */
static int limits_env(struct config_limits *l, bool report)
{
	uint64_t *dst[] = {
		&l->regex_cost, &l->assertions, &l->rules, &l->string_bytes, &l->trace_records,
		&l->sequence_calls,
	};
	const char *env = getenv("RENACER_LIMITS"), *p = env;

	if (!env)
		return 0;
	while (*p) {
		const char *end = strchrnul(p, ','), *eq = memchr(p, '=', (size_t)(end - p));
		size_t i;
		char *stop;
		unsigned long long n;

		for (i = 0; eq && i < ARRAY_SIZE(limit_keys); i++)
			if (strlen(limit_keys[i]) == (size_t)(eq - p) &&
			    !memcmp(limit_keys[i], p, (size_t)(eq - p)))
				break;
		if (!eq || i == ARRAY_SIZE(limit_keys)) {
			if (report)
				error("bad RENACER_LIMITS '%s': '%.*s' is not KEY=N with KEY one of "
				      "regex_cost, assertions, rules, string_bytes, trace_records, sequence_calls",
				      esc(env), (int)(end - p), p);
			return -1;
		}
		errno = 0;
		n = strtoull(eq + 1, &stop, 10);
		if (stop != end || eq + 1 == end || !isdigit((unsigned char)eq[1]) || errno ||
		    n > INT64_MAX || (int64_t)n < limit_min[i]) {
			if (report)
				error("bad RENACER_LIMITS '%s': %s must be an integer of at least %lld",
				      esc(env), limit_keys[i], (long long)limit_min[i]);
			return -1;
		}
		*dst[i] = n;
		p = *end ? end + 1 : end;
	}
	return 0;
}

/* a + b and a * b, at most UINT64_MAX */
static uint64_t sat_add(uint64_t a, uint64_t b)
{
	return a + b < a ? UINT64_MAX : a + b;
}
static uint64_t sat_mul(uint64_t a, uint64_t b)
{
	return b && a > UINT64_MAX / b ? UINT64_MAX : a * b;
}

void config_parse_budget(const struct config_limits *l, uint64_t *values, uint64_t *items,
			 uint64_t *bytes)
{
	*values = sat_add(sat_mul(l->assertions, CONFIG_VALUES_PER_ASSERTION),
			  sat_mul(l->rules, CONFIG_VALUES_PER_RULE));
	*items = l->assertions > l->rules ? l->assertions : l->rules;
	*bytes = sat_mul(*values, CONFIG_BYTES_PER_VALUE);
}

void config_init(struct renacer_config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->semantic.enabled = true;
	cfg->semantic.min_confidence = 0.90;
	cfg->semantic.lamport_clock = true;
	cfg->golden.dir = default_dir;
	cfg->golden.runs = 0;     /* automatic: 1, GOLDEN_THREADED_RUNS when threaded */
	cfg->golden.tolerance_pct = 5;
	cfg->golden.check_runtime = true;
	cfg->golden.runtime_tolerance_pct = 50;
	cfg->golden.runtime_floor_ms = 20;
	cfg->golden.bytes_tolerance_pct = -1;
	cfg->golden.memory_tolerance_pct = -1;
	cfg->golden.noise_factor = 3;
	cfg->golden.timing_max_runs = 20;
	cfg->golden.min_slowdown_pct = 40;
	cfg->golden.min_slowdown_us = 50;
	cfg->golden.callgrind = -1;
	cfg->golden.callgrind_tolerance_pct = 1;
	cfg->golden.context_lines = 3;
	cfg->golden.max_diff_lines = 200;
	cfg->golden.compress_level = 3;
	cfg->compression.algorithm = "zstd";
	cfg->compression.threshold_bytes = 102400;
	cfg->compression.level = 3;
	cfg->otlp.endpoint = default_endpoint;
	cfg->otlp.service_name = default_service;
	cfg->otlp.protocol = OTLP_HTTP_PROTOBUF;
	cfg->otlp.timeout_ms = 10000;
	cfg->ci.export_format = CI_FORMAT_TEXT;
	cfg->limits.regex_cost = LIMIT_REGEX_COST;
	cfg->limits.assertions = LIMIT_ASSERTIONS;
	cfg->limits.rules = LIMIT_RULES;
	cfg->limits.string_bytes = LIMIT_STRING_BYTES;
	cfg->limits.trace_records = LIMIT_TRACE_RECORDS;
	cfg->limits.sequence_calls = LIMIT_SEQUENCE_CALLS;
	limits_env(&cfg->limits, false);
	cfg->source.default_skip = true;
}

void config_release(struct renacer_config *cfg)
{
	struct config_golden *g = &cfg->golden;

	free(cfg->path);
	for (size_t i = 0; i < cfg->nassertions; i++)
		assertion_release(&cfg->assertions[i]);
	free(cfg->assertions);
	xfree_str(g->dir);
	for (size_t i = 0; i < g->ntolerances; i++)
		free(g->tolerances[i].syscall);
	free(g->tolerances);
	free_list(g->ignore_syscalls, g->nignore_syscalls);
	free_list(g->ignore_paths, g->nignore_paths);
	free_list(g->volatile_syscalls, g->nvolatile_syscalls);
	free_list(g->time_limits, g->ntime_limits);
	free_list(g->env_vars, g->nenv_vars);
	for (size_t i = 0; i < g->nnormalize; i++) {
		free(g->normalize[i].pattern);
		free(g->normalize[i].replace);
	}
	free(g->normalize);
	for (size_t i = 0; i < g->ntraces; i++)
		trace_release(&g->traces[i]);
	free(g->traces);
	xfree_str(cfg->otlp.endpoint);
	xfree_str(cfg->otlp.service_name);
	for (size_t i = 0; i < cfg->otlp.nheaders; i++) {
		free(cfg->otlp.headers[i].name);
		free(cfg->otlp.headers[i].value);
	}
	free(cfg->otlp.headers);
	free(cfg->ci.junit_path);
	free_list(cfg->source.skip, cfg->source.nskip);
	config_init(cfg);
}

static const char *const top_tables[] = {
	"assertion", "semantic_equivalence", "lamport_clock", "golden_traces", "compression",
	"otlp", "ci", "limits", "source",
};

/*
 * [limits], read before everything else: the other tables are checked
 * against it.  A file can only lower a limit: the ceiling is renacer's
 * own (config_init: built in, or RENACER_LIMITS), so that a checked-out
 * repository cannot make renacer spend more than its user allows.
 */
static int parse_limits(struct ctx *c, const struct toml_value *t)
{
	struct config_limits *l = &c->cfg->limits;
	uint64_t *dst[] = {
		&l->regex_cost, &l->assertions, &l->rules, &l->string_bytes, &l->trace_records,
		&l->sequence_calls,
	};
	const char *label = "limits: ";

	if (need_table(c, "limits", t) ||
	    check_keys(c, label, t, "", limit_keys, ARRAY_SIZE(limit_keys), true, NULL, NULL))
		return -1;
	for (size_t i = 0; i < ARRAY_SIZE(limit_keys); i++) {
		int64_t iv = (int64_t)*dst[i];
		const struct toml_value *v = toml_get(t, limit_keys[i]);

		if (get_int(c, label, t, limit_keys[i], limit_min[i], INT64_MAX, &iv) < 0)
			return -1;
		if ((uint64_t)iv > *dst[i]) {
			cwarn(c, v->line, v->col, "limits.%s = %lld ignored: a renacer.toml can only "
			      "lower renacer's limit of %llu (RENACER_LIMITS=%s=%lld raises it)",
			      limit_keys[i], (long long)iv, (unsigned long long)*dst[i],
			      limit_keys[i], (long long)iv);
			continue;
		}
		*dst[i] = (uint64_t)iv;
	}
	return 0;
}

static int parse_root(struct ctx *c, const struct toml_value *root)
{
	struct renacer_config *cfg = c->cfg;
	char *baseline_dir = NULL;
	const struct toml_value *bd;
	bool have_compress = false;
	int ret = -1;

	if (check_keys(c, "", root, "", top_tables, ARRAY_SIZE(top_tables), false, NULL, NULL))
		goto out;
	if (toml_get(root, "limits") && parse_limits(c, toml_get(root, "limits")))
		goto out;
	for (size_t i = 0; i < root->u.tab.n; i++) {
		const char *k = root->u.tab.kv[i].key;
		const struct toml_value *v = root->u.tab.kv[i].value;
		int r = 0;

		if (!strcmp(k, "assertion"))
			r = parse_assertions(c, v);
		else if (!strcmp(k, "semantic_equivalence"))
			r = parse_semantic(c, v, &baseline_dir);
		else if (!strcmp(k, "lamport_clock"))
			r = parse_lamport(c, v);
		else if (!strcmp(k, "golden_traces"))
			r = parse_golden(c, v, &have_compress);
		else if (!strcmp(k, "compression"))
			r = parse_compression(c, v);
		else if (!strcmp(k, "otlp"))
			r = parse_otlp(c, v);
		else if (!strcmp(k, "ci"))
			r = parse_ci(c, v);
		else if (!strcmp(k, "source"))
			r = parse_source(c, v);
		if (r)
			goto out;
	}
	/* semantic_equivalence.baseline_dir: the golden directory, as renacer 0.6 files name it */
	if (baseline_dir) {
		const struct toml_value *gd = toml_get(toml_get(root, "golden_traces"), "dir");
		bd = toml_get(toml_get(root, "semantic_equivalence"), "baseline_dir");
		if (gd && strcmp(gd->u.str.s, baseline_dir)) {
			cerr(c, bd->line, bd->col, "semantic_equivalence: 'baseline_dir' ('%s') contradicts golden_traces.dir ('%s')",
			     esc(baseline_dir), esc(gd->u.str.s));
			goto out;
		}
		xfree_str(cfg->golden.dir);
		cfg->golden.dir = baseline_dir;
		baseline_dir = NULL;
	}
	if (!have_compress && cfg->compression.enabled) {
		cfg->golden.compress = true;
		cfg->golden.compress_above_bytes = cfg->compression.threshold_bytes;
	}
	cfg->golden.compress_level = cfg->compression.level;
	ret = 0;
out:
	free(baseline_dir);
	return ret;
}

int config_parse(const char *path, const char *text, size_t len, struct renacer_config *cfg)
{
	struct ctx c = { path, cfg };
	char err[512];
	struct toml_value *root;
	struct toml_limits tl = { 0, 0, "the bounds follow limits.assertions and limits.rules; "
				  "RENACER_LIMITS raises them" };
	uint64_t values, items, bytes;
	int ret;

	config_init(cfg);
	if (limits_env(&cfg->limits, true) < 0)
		return -1;
	/* the file cannot raise the limits: parse within renacer's own */
	config_parse_budget(&cfg->limits, &values, &items, &bytes);
	tl.values = values > SIZE_MAX ? SIZE_MAX : (size_t)values;
	tl.array_items = items > SIZE_MAX ? SIZE_MAX : (size_t)items;
	root = toml_parse_limited(text, len, &tl, err, sizeof(err));
	if (!root)
		return error("%s:%s", esc(path), err);
	cfg->path = xstrdup(path);
	ret = parse_root(&c, root);
	toml_free(root);
	if (cfg->nwarnings > CONFIG_MAX_WARNINGS)
		warning("%s: %u more warnings not shown", esc(path),
			cfg->nwarnings - CONFIG_MAX_WARNINGS);
	if (ret) {
		unsigned w = cfg->nwarnings;
		config_release(cfg);
		cfg->nwarnings = w;
	}
	return ret;
}

int config_load(const char *path, struct renacer_config *cfg)
{
	struct strbuf sb = STRBUF_INIT;
	uint64_t values, items, bytes;
	int ret;

	/* a file bigger than the limits allow is not read in at all */
	config_init(cfg);
	if (limits_env(&cfg->limits, true) < 0)
		return -1;
	config_parse_budget(&cfg->limits, &values, &items, &bytes);
	if (strbuf_read_file_max(&sb, path, bytes > SIZE_MAX - 2 ? SIZE_MAX - 2 : bytes) < 0) {
		int e = errno;
		strbuf_release(&sb);
		if (e == EFBIG)
			return error("cannot read '%s': more than %llu bytes (the bound follows "
				     "limits.assertions and limits.rules; RENACER_LIMITS raises them)",
				     esc(path), (unsigned long long)bytes);
		return error("cannot read '%s': %s", esc(path), strerror(e));
	}
	ret = config_parse(path, sb.buf, sb.len, cfg);
	strbuf_release(&sb);
	return ret;
}

int config_load_if_exists(const char *path, struct renacer_config *cfg)
{
	struct stat st;

	if (stat(path, &st) != 0 && errno == ENOENT) {
		config_init(cfg);
		return limits_env(&cfg->limits, true) < 0 ? -1 : 1;
	}
	return config_load(path, cfg);
}

/*
 * The absolute, canonical form of path: its longest existing prefix through
 * realpath() (links resolved), the rest added lexically ("." dropped, ".."
 * taking off one name).  0, or -1 with errno set.
 */
static int canonical(const char *path, struct strbuf *out)
{
	struct strbuf abs = STRBUF_INIT, rest = STRBUF_INIT;
	char *real = NULL;
	size_t cut;
	int ret = -1;

	if (path[0] != '/') {
		char *cwd = getcwd(NULL, 0);

		if (!cwd)
			goto out;
		strbuf_addstr(&abs, cwd);
		strbuf_addch(&abs, '/');
		free(cwd);
	}
	strbuf_addstr(&abs, path);
	/* shorten from the end until what is left exists */
	cut = abs.len;
	for (;;) {
		char save = abs.buf[cut];

		abs.buf[cut] = '\0';
		real = realpath(cut ? abs.buf : "/", NULL);
		abs.buf[cut] = save;
		if (real)
			break;
		if (errno != ENOENT && errno != ENOTDIR)
			goto out;
		while (cut > 0 && abs.buf[cut - 1] != '/')
			cut--;
		while (cut > 0 && abs.buf[cut - 1] == '/')
			cut--;
	}
	strbuf_addstr(out, real);
	strbuf_addstr(&rest, abs.buf + cut);
	for (char *p = rest.buf; *p;) {
		size_t n;

		while (*p == '/')
			p++;
		n = strcspn(p, "/");
		if (!n)
			break;
		if (n == 2 && !strncmp(p, "..", 2)) {
			char *slash = strrchr(out->buf, '/');
			strbuf_setlen(out, slash && slash != out->buf ? (size_t)(slash - out->buf) : 1);
		} else if (!(n == 1 && *p == '.')) {
			if (out->len > 1)
				strbuf_addch(out, '/');
			strbuf_add(out, p, n);
		}
		p += n;
	}
	ret = 0;
out:
	free(real);
	strbuf_release(&abs);
	strbuf_release(&rest);
	return ret;
}

int config_check_path(const struct renacer_config *cfg, const char *key, const char *path)
{
	struct strbuf base = STRBUF_INIT, dir = STRBUF_INIT, got = STRBUF_INIT;
	const char *slash;
	int ret = -1;

	/* no file, or a built-in default the file did not name */
	if (!cfg->path || path == default_dir)
		return 0;
	slash = strrchr(cfg->path, '/');
	if (slash)
		strbuf_add(&dir, cfg->path, slash == cfg->path ? 1 : (size_t)(slash - cfg->path));
	else
		strbuf_addch(&dir, '.');
	if (canonical(dir.buf, &base) < 0 || canonical(path, &got) < 0) {
		error("%s: cannot resolve %s '%s': %s", esc(cfg->path), key, esc(path),
		      strerror(errno));
		goto out;
	}
	if (strcmp(base.buf, "/") &&
	    (strncmp(got.buf, base.buf, base.len) || (got.buf[base.len] && got.buf[base.len] != '/'))) {
		error("%s: %s '%s' is outside '%s', the directory of the file: a renacer.toml may "
		      "only name paths inside its own directory (name it on the command line to "
		      "use it)", esc(cfg->path), key, esc(path), esc(base.buf));
		goto out;
	}
	ret = 0;
out:
	strbuf_release(&base);
	strbuf_release(&dir);
	strbuf_release(&got);
	return ret;
}

const struct config_assertion *config_assertion(const struct renacer_config *cfg,
						const char *name)
{
	for (size_t i = 0; i < cfg->nassertions; i++)
		if (!strcmp(cfg->assertions[i].name, name))
			return &cfg->assertions[i];
	return NULL;
}

bool config_assertion_applies(const struct config_assertion *a, const char *trace)
{
	if (!a->ntraces)
		return true;
	for (size_t i = 0; trace && i < a->ntraces; i++)
		if (!strcmp(a->traces[i], trace))
			return true;
	return false;
}

/* Whether a and b name the same file (as given, or the same inode). */
static bool same_program(const char *a, const char *b)
{
	struct stat sa, sb;
	if (!strcmp(a, b))
		return true;
	return !stat(a, &sa) && !stat(b, &sb) && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

const struct config_trace *config_trace_of_command(const struct renacer_config *cfg,
						   char *const argv[])
{
	for (size_t i = 0; argv && argv[0] && i < cfg->golden.ntraces; i++) {
		const struct config_trace *t = &cfg->golden.traces[i];
		size_t k = 1;
		if (t->cwd || !same_program(t->argv[0], argv[0]))
			continue;
		while (t->argv[k] && argv[k] && !strcmp(t->argv[k], argv[k]))
			k++;
		if (!t->argv[k] && !argv[k])
			return t;
	}
	return NULL;
}

const struct config_trace *config_trace(const struct renacer_config *cfg, const char *name)
{
	for (size_t i = 0; i < cfg->golden.ntraces; i++)
		if (!strcmp(cfg->golden.traces[i].name, name))
			return &cfg->golden.traces[i];
	return NULL;
}

char **config_split_command(const char *s, size_t *argc, char *err, size_t errlen)
{
	char **argv = NULL;
	size_t n = 0, alloc = 0;
	struct strbuf w = STRBUF_INIT;

	for (;;) {
		bool in_word = false;

		while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r')
			s++;
		if (!*s)
			break;
		strbuf_reset(&w);
		while (*s && !(*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r')) {
			in_word = true;
			if (*s == '\'') {
				const char *e = strchr(s + 1, '\'');
				if (!e) {
					snprintf(err, errlen, "unterminated single quote");
					goto fail;
				}
				strbuf_add(&w, s + 1, e - s - 1);
				s = e + 1;
			} else if (*s == '"') {
				for (s++; *s != '"'; s++) {
					if (!*s) {
						snprintf(err, errlen, "unterminated double quote");
						goto fail;
					}
					if (*s == '\\' && s[1] && strchr("\"\\$`", s[1]))
						s++;
					strbuf_addch(&w, *s);
				}
				s++;
			} else if (*s == '\\') {
				if (!s[1]) {
					snprintf(err, errlen, "backslash at the end of the command");
					goto fail;
				}
				strbuf_addch(&w, s[1]);
				s += 2;
			} else {
				strbuf_addch(&w, *s++);
			}
		}
		if (in_word) {
			ALLOC_GROW(argv, n + 2, alloc);
			argv[n++] = xstrdup(w.buf);
			argv[n] = NULL;
		}
	}
	strbuf_release(&w);
	if (!argv)
		argv = xcalloc(1, sizeof(*argv));
	*argc = n;
	return argv;
fail:
	strbuf_release(&w);
	free_list(argv, n);
	*argc = 0;
	return NULL;
}
