/*
 * Span exports compared per operation (see spancmp.h): Jaeger and OTLP
 * JSON read with jansson, spans folded into (service, name) rows.
 */
#include "otlp/spancmp.h"

#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "util/error.h"
#include "util/quote.h"
#include "util/strbuf.h"
#include "util/xmalloc.h"
#include "util/banned.h"

enum spanfile_kind spanfile_kind(const char *path)
{
	char buf[4096];
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	const char *p, *end;

	if (fd < 0)
		return SPANFILE_NONE;
	n = read(fd, buf, sizeof(buf));
	close(fd);
	if (n <= 0)
		return SPANFILE_NONE;
	p = buf;
	end = buf + n;
	while (p < end && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r'))
		p++;
	if (p == end || *p++ != '{')
		return SPANFILE_NONE;
	while (p < end && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r'))
		p++;
	if ((size_t)(end - p) >= 6 && !memcmp(p, "\"data\"", 6))
		return SPANFILE_JAEGER;
	if (((size_t)(end - p) >= 15 && !memcmp(p, "\"resourceSpans\"", 15)) ||
	    ((size_t)(end - p) >= 16 && !memcmp(p, "\"resource_spans\"", 16)))
		return SPANFILE_OTLP;
	return SPANFILE_NONE;
}

const char *spanfile_kind_name(enum spanfile_kind k)
{
	return k == SPANFILE_JAEGER ? "Jaeger export" : k == SPANFILE_OTLP ? "OTLP JSON" : "not spans";
}

/* One operation's spans. */
struct op {
	char *service, *name;
	uint64_t count;
	double total_us, max_us;
};

struct spanset {
	const char *path;
	enum spanfile_kind kind;
	struct op *ops;
	size_t nops, aops;
	char **traces;              /* distinct trace ids */
	size_t ntraces, atraces;
	uint64_t nspans;
	size_t nservices;
	/* after: the traces also in before (a Jaeger export taken after a
	 * second run still holds the first), left out of the comparison */
	const struct spanset *exclude;
	char **left;                /* distinct trace ids left out */
	size_t nleft, aleft;
	uint64_t nleft_spans;
};

static struct op *op_get(struct spanset *s, const char *service, const char *name)
{
	for (size_t i = 0; i < s->nops; i++)
		if (!strcmp(s->ops[i].name, name) && !strcmp(s->ops[i].service, service))
			return &s->ops[i];
	ALLOC_GROW(s->ops, s->nops + 1, s->aops);
	memset(&s->ops[s->nops], 0, sizeof(s->ops[0]));
	s->ops[s->nops].service = xstrdup(service);
	s->ops[s->nops].name = xstrdup(name);
	return &s->ops[s->nops++];
}

/*
 * Whether two trace ids are the same trace: Jaeger prints a 128-bit id
 * without the leading zeros of its high half, OTLP JSON all 32 digits.
 */
static bool same_trace(const char *a, const char *b)
{
	while (*a == '0')
		a++;
	while (*b == '0')
		b++;
	return !strcasecmp(a, b);
}

static bool has_trace(char *const *ids, size_t n, const char *trace)
{
	for (size_t i = 0; i < n; i++)
		if (same_trace(ids[i], trace))
			return true;
	return false;
}

static void add_span(struct spanset *s, const char *trace, const char *service, const char *name,
		     double dur_us)
{
	struct op *o;
	size_t i;

	if (s->exclude && has_trace(s->exclude->traces, s->exclude->ntraces, trace)) {
		s->nleft_spans++;
		if (!has_trace(s->left, s->nleft, trace)) {
			ALLOC_GROW(s->left, s->nleft + 1, s->aleft);
			s->left[s->nleft++] = xstrdup(trace);
		}
		return;
	}
	o = op_get(s, service, name);
	o->count++;
	o->total_us += dur_us;
	if (dur_us > o->max_us)
		o->max_us = dur_us;
	s->nspans++;
	for (i = 0; i < s->ntraces; i++)
		if (!strcmp(s->traces[i], trace))
			break;
	if (i == s->ntraces) {
		ALLOC_GROW(s->traces, s->ntraces + 1, s->atraces);
		s->traces[s->ntraces++] = xstrdup(trace);
	}
}

static void spanset_release(struct spanset *s)
{
	for (size_t i = 0; i < s->nops; i++) {
		free(s->ops[i].service);
		free(s->ops[i].name);
	}
	free(s->ops);
	for (size_t i = 0; i < s->ntraces; i++)
		free(s->traces[i]);
	free(s->traces);
	for (size_t i = 0; i < s->nleft; i++)
		free(s->left[i]);
	free(s->left);
}

static int bad(const struct spanset *s, const char *what)
{
	return error("cannot read %s '%s': %s", spanfile_kind_name(s->kind), esc(s->path), what);
}

/* A number that may be a JSON integer, real or decimal string. */
static bool num(const json_t *v, double *out)
{
	if (json_is_integer(v)) {
		*out = (double)json_integer_value(v);
		return true;
	}
	if (json_is_real(v)) {
		*out = json_real_value(v);
		return true;
	}
	if (json_is_string(v)) {
		char *e;
		errno = 0;
		*out = strtod(json_string_value(v), &e);
		return !*e && !errno && e != json_string_value(v);
	}
	return false;
}

static int load_jaeger(struct spanset *s, json_t *root)
{
	json_t *data = json_object_get(root, "data"), *tr;
	size_t i;

	if (!json_is_array(data))
		return bad(s, "'data' is not an array");
	json_array_foreach(data, i, tr) {
		json_t *spans = json_object_get(tr, "spans"), *procs = json_object_get(tr, "processes"), *sp;
		size_t j;
		if (!json_is_array(spans))
			return bad(s, "a trace has no 'spans' array");
		json_array_foreach(spans, j, sp) {
			const char *trace = json_string_value(json_object_get(sp, "traceID"));
			const char *name = json_string_value(json_object_get(sp, "operationName"));
			const char *pid = json_string_value(json_object_get(sp, "processID"));
			const char *service = "";
			double dur;
			if (!trace || !name || !num(json_object_get(sp, "duration"), &dur))
				return bad(s, "a span lacks traceID, operationName or duration");
			if (pid && json_is_object(procs)) {
				const char *sv = json_string_value(json_object_get(json_object_get(procs, pid),
										   "serviceName"));
				if (sv)
					service = sv;
			}
			add_span(s, trace, service, name, dur);
		}
	}
	return 0;
}

static const char *otlp_service(json_t *resource)
{
	json_t *attrs = json_object_get(resource, "attributes"), *kv;
	size_t i;

	json_array_foreach(attrs, i, kv) {
		const char *k = json_string_value(json_object_get(kv, "key"));
		const char *v = json_string_value(json_object_get(json_object_get(kv, "value"), "stringValue"));
		if (k && v && !strcmp(k, "service.name"))
			return v;
	}
	return "";
}

static int load_otlp_request(struct spanset *s, json_t *root)
{
	json_t *rss = json_object_get(root, "resourceSpans"), *rs;
	size_t i;

	if (!rss)
		rss = json_object_get(root, "resource_spans");
	if (!json_is_array(rss))
		return bad(s, "'resourceSpans' is not an array");
	json_array_foreach(rss, i, rs) {
		const char *service = otlp_service(json_object_get(rs, "resource"));
		json_t *sss = json_object_get(rs, "scopeSpans"), *ss;
		size_t j;
		if (!sss)
			sss = json_object_get(rs, "scope_spans");
		json_array_foreach(sss, j, ss) {
			json_t *spans = json_object_get(ss, "spans"), *sp;
			size_t k;
			json_array_foreach(spans, k, sp) {
				const char *trace = json_string_value(json_object_get(sp, "traceId"));
				const char *name = json_string_value(json_object_get(sp, "name"));
				double st, en;
				if (!trace || !name ||
				    !num(json_object_get(sp, "startTimeUnixNano"), &st) ||
				    !num(json_object_get(sp, "endTimeUnixNano"), &en))
					return bad(s, "a span lacks traceId, name or its times");
				add_span(s, trace, service, name, en > st ? (en - st) / 1000.0 : 0);
			}
		}
	}
	return 0;
}

/* An OTLP file: one request, or one a line. */
static int load_otlp(struct spanset *s, const char *text, size_t len)
{
	json_error_t je;
	json_t *root = json_loadb(text, len, JSON_DISABLE_EOF_CHECK, &je);
	size_t pos;

	if (!root)
		return bad(s, je.text);
	pos = je.position;
	for (;;) {
		int r = load_otlp_request(s, root);
		json_decref(root);
		if (r < 0)
			return -1;
		while (pos < len && (text[pos] == '\n' || text[pos] == '\r' || text[pos] == ' ' ||
				     text[pos] == '\t'))
			pos++;
		if (pos >= len)
			return 0;
		root = json_loadb(text + pos, len - pos, JSON_DISABLE_EOF_CHECK, &je);
		if (!root) {
			struct strbuf m = STRBUF_INIT;
			strbuf_addf(&m, "at byte %zu: %s", pos, je.text);
			bad(s, m.buf);
			strbuf_release(&m);
			return -1;
		}
		pos += je.position;
	}
}

/*
 * Reads path into s; with exclude, the spans of traces exclude also has
 * are counted apart (s->left) instead.
 */
static int load(struct spanset *s, const char *path, const struct spanset *exclude)
{
	struct strbuf sb = STRBUF_INIT;
	json_error_t je;
	json_t *root;
	int r;

	memset(s, 0, sizeof(*s));
	s->path = path;
	s->exclude = exclude;
	if (strbuf_read_file(&sb, path) < 0) {
		int e = errno;
		error("cannot read '%s': %s", esc(path), strerror(e));
		strbuf_release(&sb);
		return e == ENOENT ? SPANCMP_MISSING : SPANCMP_UNREADABLE;
	}
	s->kind = spanfile_kind(path);
	if (s->kind == SPANFILE_OTLP) {
		r = load_otlp(s, sb.buf, sb.len);
	} else if (s->kind == SPANFILE_JAEGER) {
		root = json_loadb(sb.buf, sb.len, 0, &je);
		r = root ? load_jaeger(s, root) : bad(s, je.text);
		json_decref(root);
	} else {
		r = error("'%s' is neither a Jaeger export nor OTLP JSON", esc(path));
	}
	strbuf_release(&sb);
	if (r < 0) {
		spanset_release(s);
		return SPANCMP_UNREADABLE;
	}
	/* Jaeger answers a query for a service it never saw with no traces */
	if (!s->nspans && !s->nleft_spans) {
		error("%s '%s' holds no spans%s", spanfile_kind_name(s->kind), esc(path),
		      s->kind == SPANFILE_JAEGER ? " (is the query's service the service.name "
		      "the spans were sent with?)" : "");
		spanset_release(s);
		return SPANCMP_UNREADABLE;
	}
	for (size_t i = 0; i < s->nops; i++) {
		size_t j;
		for (j = 0; j < i; j++)
			if (!strcmp(s->ops[j].service, s->ops[i].service))
				break;
		if (j == i)
			s->nservices++;
	}
	return 0;
}

/* ---- comparing ---- */

struct row {
	const char *service, *name;
	const struct op *a, *b;     /* NULL where the operation is missing */
	double cnt_a, cnt_b;        /* spans per trace */
	double ms_a, ms_b;          /* total ms per trace */
	bool bad;                   /* a regression, because of why */
	char why[160];
};

static int row_cmp(const void *x, const void *y)
{
	const struct row *a = x, *b = y;
	int c = strcmp(a->service, b->service);
	return c ? c : strcmp(a->name, b->name);
}

static const struct op *find_op(const struct spanset *s, const char *service, const char *name)
{
	for (size_t i = 0; i < s->nops; i++)
		if (!strcmp(s->ops[i].name, name) && !strcmp(s->ops[i].service, service))
			return &s->ops[i];
	return NULL;
}

static double pct(double a, double b)
{
	return a > 0 ? (b - a) / a * 100.0 : 0;
}

static void judge(struct row *r, const struct spancmp_opts *o)
{
	if (!r->a) {
		snprintf(r->why, sizeof(r->why), "new operation (%.4g spans a trace)", r->cnt_b);
	} else if (!r->b) {
		snprintf(r->why, sizeof(r->why), "operation gone (was %.4g spans a trace)", r->cnt_a);
	} else if (fabs(r->cnt_b - r->cnt_a) > r->cnt_a * o->count_tolerance + 1e-9) {
		snprintf(r->why, sizeof(r->why), "%.4g -> %.4g spans a trace (%+.1f%%, tolerance %.4g%%)",
			 r->cnt_a, r->cnt_b, pct(r->cnt_a, r->cnt_b), o->count_tolerance * 100);
	} else if (o->check_timing && r->ms_b > r->ms_a * (1 + o->time_tolerance) &&
		   r->ms_b - r->ms_a > o->time_floor_ms) {
		snprintf(r->why, sizeof(r->why),
			 "%.3f -> %.3f ms a trace (%+.1f%%, tolerance %.4g%% and %.4g ms)",
			 r->ms_a, r->ms_b, pct(r->ms_a, r->ms_b), o->time_tolerance * 100,
			 o->time_floor_ms);
	} else {
		return;
	}
	r->bad = true;
}

static void json_str(FILE *out, const char *s)
{
	struct strbuf sb = STRBUF_INIT;
	strbuf_add_json_str(&sb, s, strlen(s));
	fputs(sb.buf, out);
	strbuf_release(&sb);
}

static void print_side(FILE *out, const char *key, const struct spanset *s)
{
	fprintf(out, "  \"%s\": {\"path\": ", key);
	json_str(out, s->path);
	fprintf(out, ", \"kind\": \"%s\", \"traces\": %zu, \"spans\": %llu",
		s->kind == SPANFILE_JAEGER ? "jaeger" : "otlp", s->ntraces, (unsigned long long)s->nspans);
	if (s->nleft)
		fprintf(out, ", \"left_out_traces\": %zu, \"left_out_spans\": %llu", s->nleft,
			(unsigned long long)s->nleft_spans);
	fprintf(out, "},\n");
}

static void print_json(FILE *out, const struct spanset *a, const struct spanset *b,
		       const struct row *rows, size_t n, size_t nbad)
{
	fprintf(out, "{\n  \"format\": \"renacer-span-compare-v1\",\n");
	print_side(out, "before", a);
	print_side(out, "after", b);
	fprintf(out, "  \"operations\": [");
	for (size_t i = 0; i < n; i++) {
		const struct row *r = &rows[i];
		fprintf(out, "%s\n    {\"service\": ", i ? "," : "");
		json_str(out, r->service);
		fprintf(out, ", \"name\": ");
		json_str(out, r->name);
		fprintf(out, ", \"spans_per_trace\": [%.6g, %.6g], \"total_ms_per_trace\": [%.6f, %.6f]",
			r->cnt_a, r->cnt_b, r->ms_a, r->ms_b);
		fprintf(out, ", \"mean_us\": [%.3f, %.3f]",
			r->a && r->a->count ? r->a->total_us / r->a->count : 0,
			r->b && r->b->count ? r->b->total_us / r->b->count : 0);
		if (r->bad) {
			fprintf(out, ", \"regression\": ");
			json_str(out, r->why);
		}
		fputc('}', out);
	}
	fprintf(out, "\n  ],\n  \"regressions\": %zu,\n  \"status\": \"%s\"\n}\n", nbad,
		nbad ? "regression" : "equivalent");
}

static void print_text(FILE *out, const struct spanset *a, const struct spanset *b,
		       const struct row *rows, size_t n, size_t nbad, bool md, bool check_timing)
{
	bool svc = a->nservices > 1 || b->nservices > 1 ||
		   (n && rows[0].service[0] && strcmp(rows[0].service, rows[n - 1].service));
	size_t w = 9;

	for (size_t i = 0; i < n; i++) {
		size_t l = strlen(rows[i].name) + (svc ? strlen(rows[i].service) + 2 : 0);
		if (l > w)
			w = l;
	}
	if (w > 48)
		w = 48;
	fprintf(out, "%sbefore: %s (%s, %zu trace%s, %llu spans)\n", md ? "- " : "", a->path,
		spanfile_kind_name(a->kind), a->ntraces, a->ntraces == 1 ? "" : "s",
		(unsigned long long)a->nspans);
	fprintf(out, "%safter:  %s (%s, %zu trace%s, %llu spans", md ? "- " : "", b->path,
		spanfile_kind_name(b->kind), b->ntraces, b->ntraces == 1 ? "" : "s",
		(unsigned long long)b->nspans);
	if (b->nleft)
		fprintf(out, "; %zu more trace%s also in before, left out", b->nleft,
			b->nleft == 1 ? "" : "s");
	fprintf(out, ")\n\n");
	if (md)
		fprintf(out, "| operation | spans/trace before | after | change | ms/trace before | after | change | |\n"
			     "|---|---:|---:|---:|---:|---:|---:|---|\n");
	else
		fprintf(out, "%-*s %11s %11s %8s %11s %11s %8s\n", (int)w, "", "spans/trace", "",
			"", "ms/trace", "", "");
	if (!md)
		fprintf(out, "%-*s %11s %11s %8s %11s %11s %8s\n", (int)w, "operation", "before",
			"after", "change", "before", "after", "change");
	for (size_t i = 0; i < n; i++) {
		const struct row *r = &rows[i];
		char name[256], dc[16] = "-", dt[16] = "-";
		if (svc)
			snprintf(name, sizeof(name), "%s: %s", r->service, r->name);
		else
			snprintf(name, sizeof(name), "%s", r->name);
		if (r->a && r->b) {
			snprintf(dc, sizeof(dc), "%+.1f%%", pct(r->cnt_a, r->cnt_b));
			snprintf(dt, sizeof(dt), "%+.1f%%", pct(r->ms_a, r->ms_b));
		}
		if (md) {
			fprintf(out, "| %s | %.4g | %.4g | %s | %.3f | %.3f | %s | %s |\n", name, r->cnt_a,
				r->cnt_b, dc, r->ms_a, r->ms_b, dt, r->bad ? "regression" : "");
			continue;
		}
		fprintf(out, "%-*s %11.4g %11.4g %8s %11.3f %11.3f %8s%s\n", (int)w, name, r->cnt_a,
			r->cnt_b, dc, r->ms_a, r->ms_b, dt, r->bad ? "  <-" : "");
	}
	fputc('\n', out);
	for (size_t i = 0; i < n; i++)
		if (rows[i].bad)
			fprintf(out, "%sregression: %s%s%s: %s\n", md ? "- " : "",
				svc ? rows[i].service : "", svc ? ": " : "", rows[i].name, rows[i].why);
	if (nbad)
		fprintf(out, "%sREGRESSION: %zu of %zu operations differ%s\n", md ? "\n**" : "", nbad, n, md ? "**" : "");
	else
		fprintf(out, "%sEQUIVALENT: %zu operations, %s within tolerance%s\n",
			md ? "\n**" : "", n, check_timing ? "spans and times" : "spans", md ? "**" : "");
}

int spancmp_files(const char *before, const char *after, const struct spancmp_opts *o,
		  FILE *out)
{
	struct spanset a, b;
	struct row *rows = NULL;
	size_t n = 0, alloc = 0, nbad = 0;
	int st;

	if ((st = load(&a, before, NULL)))
		return st;
	st = load(&b, after, &a);
	/* every trace of after is also in before: compare them as they are */
	if (!st && !b.nspans) {
		spanset_release(&b);
		st = load(&b, after, NULL);
	}
	if (st) {
		spanset_release(&a);
		return st;
	}
	for (int side = 0; side < 2; side++) {
		const struct spanset *s = side ? &b : &a;
		for (size_t i = 0; i < s->nops; i++) {
			const struct op *op = &s->ops[i];
			struct row *r;
			if (side && find_op(&a, op->service, op->name))
				continue;
			ALLOC_GROW(rows, n + 1, alloc);
			r = &rows[n++];
			memset(r, 0, sizeof(*r));
			r->service = op->service;
			r->name = op->name;
			r->a = find_op(&a, op->service, op->name);
			r->b = find_op(&b, op->service, op->name);
		}
	}
	for (size_t i = 0; i < n; i++) {
		struct row *r = &rows[i];
		double ta = a.ntraces ? (double)a.ntraces : 1, tb = b.ntraces ? (double)b.ntraces : 1;
		r->cnt_a = r->a ? (double)r->a->count / ta : 0;
		r->cnt_b = r->b ? (double)r->b->count / tb : 0;
		r->ms_a = r->a ? r->a->total_us / 1000.0 / ta : 0;
		r->ms_b = r->b ? r->b->total_us / 1000.0 / tb : 0;
		judge(r, o);
		if (r->bad)
			nbad++;
	}
	QSORT(rows, n, row_cmp);
	if (o->fmt == SPANCMP_JSON)
		print_json(out, &a, &b, rows, n, nbad);
	else
		print_text(out, &a, &b, rows, n, nbad, o->fmt == SPANCMP_MARKDOWN, o->check_timing);
	free(rows);
	spanset_release(&a);
	spanset_release(&b);
	return nbad ? SPANCMP_DIFFERS : SPANCMP_SAME;
}
