/*
 * -c / --summary: strace's -c table (strace 6.1 src/count.c: same columns,
 * widths, number formats and sort keys).  Times are the system CPU time
 * spent in each call, as strace measures it, or with -w the wall-clock time
 * between the entry and exit stops.
 */
#include "sink/sinks.h"
#include "sink/sinkout.h"
#include "util/error.h"
#include "util/quote.h"
#include "util/xmalloc.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "util/banned.h"

struct summary_sink {
	struct sink base;
	struct sinkout out;
	struct sink_opts o;
	struct sc_counts counts;
	struct sc_counts wall;   /* --timing with CPU times: the latencies */
	bool have_wall;
	struct strbuf *dst;      /* summary_sink_new_buf: the table goes here */
};

static const struct {
	const char *name;
	enum summary_sort sort;
} sort_keys[] = {
	{ "time", SORT_TIME }, { "time_percent", SORT_TIME }, { "time-percent", SORT_TIME },
	{ "time_total", SORT_TIME }, { "time-total", SORT_TIME },
	{ "total_time", SORT_TIME }, { "total-time", SORT_TIME },
	{ "min_time", SORT_MIN_TIME }, { "min-time", SORT_MIN_TIME },
	{ "shortest", SORT_MIN_TIME }, { "time_min", SORT_MIN_TIME },
	{ "time-min", SORT_MIN_TIME },
	{ "longest", SORT_MAX_TIME }, { "max_time", SORT_MAX_TIME },
	{ "max-time", SORT_MAX_TIME }, { "time_max", SORT_MAX_TIME },
	{ "time-max", SORT_MAX_TIME },
	{ "avg_time", SORT_AVG_TIME }, { "avg-time", SORT_AVG_TIME },
	{ "time_avg", SORT_AVG_TIME }, { "time-avg", SORT_AVG_TIME },
	{ "calls", SORT_CALLS }, { "count", SORT_CALLS },
	{ "error", SORT_ERRORS }, { "errors", SORT_ERRORS },
	{ "name", SORT_NAME }, { "syscall", SORT_NAME },
	{ "syscall_name", SORT_NAME }, { "syscall-name", SORT_NAME },
	{ "none", SORT_NOTHING }, { "nothing", SORT_NOTHING },
};

int summary_sort_parse(const char *key)
{
	for (size_t i = 0; i < ARRAY_SIZE(sort_keys); i++)
		if (!strcmp(sort_keys[i].name, key))
			return (int)sort_keys[i].sort;
	return -1;
}

/*
 * strace -c counts a call at its exit stop, so exit_group and calls cut
 * short by death are left out.  Its default time is the tracee's system
 * CPU time in the call (ev->cpu_ns: the rusage wait4 reports at the two
 * stops, tick-grained like strace's); -w and saved traces use the wall-clock
 * time between the entry and exit stops.
 */
static void summary_event(struct sink *s, const struct event *ev)
{
	struct summary_sink *ss = (struct summary_sink *)s;

	if (!sc_counted_by_strace(ev))
		return;
	uint64_t wall = ev->end_ns > ev->ts_ns ? ev->end_ns - ev->ts_ns : 0;
	uint64_t t = ss->o.cpu_time ? ev->cpu_ns : wall;

	/* -O: strace takes the tracing overhead off each call */
	t = t > ss->o.overhead_ns ? t - ss->o.overhead_ns : 0;
	sc_counts_add(&ss->counts, ev->nr, ev->name, ev->err != 0, false, t);
	if (ss->have_wall)
		sc_counts_add(&ss->wall, ev->nr, ev->name, ev->err != 0, false, wall);
}

/*
 * The same table from an engine's per-syscall totals: returned calls only,
 * timed with the measure this sink was asked for (system time unless -w).
 */
static void summary_totals(struct sink *s, const struct trace_totals *tt)
{
	struct summary_sink *ss = (struct summary_sink *)s;
	bool cpu = ss->o.cpu_time && tt->have_cpu;

	for (size_t i = 0; i < tt->n; i++) {
		const struct sc_total *r = &tt->rows[i];
		sc_counts_add_many(&ss->counts, r->nr, r->name, r->calls, r->errors, 0,
				   cpu ? r->cpu_ns : r->wall_ns,
				   cpu ? r->cpu_min_ns : r->wall_min_ns,
				   cpu ? r->cpu_max_ns : r->wall_max_ns);
		if (ss->have_wall)
			sc_counts_add_many(&ss->wall, r->nr, r->name, r->calls, r->errors, 0,
					   r->wall_ns, r->wall_min_ns, r->wall_max_ns);
	}
}

/* As strace: ts_float() of a timespec built from ns. */
static double secs(uint64_t ns)
{
	return (double)(ns / 1000000000u) + (double)(ns % 1000000000u) / 1e9;
}

static uint64_t avg_ns(const struct sc_count *r)
{
	return r->calls ? r->time_ns / r->calls : 0;
}

/* A row with its place in syscall-number order, for ties. */
struct srow {
	const struct sc_count *r;
	size_t pos;
};

/* Descending by a key, ties in syscall-number order (strace's stable sort). */
#define DESC(a, b) ((a) < (b) ? 1 : (a) > (b) ? -1 : 0)
static int row_cmp(const void *pa, const void *pb, void *arg)
{
	const struct srow *x = pa, *y = pb;
	const struct sc_count *a = x->r, *b = y->r;
	int c = 0;

	switch (*(const enum summary_sort *)arg) {
	case SORT_TIME: c = DESC(a->time_ns, b->time_ns); break;
	case SORT_CALLS: c = DESC(a->calls, b->calls); break;
	case SORT_ERRORS: c = DESC(a->errors, b->errors); break;
	case SORT_NAME: c = strcmp(a->name, b->name); break;
	case SORT_AVG_TIME: c = DESC(avg_ns(a), avg_ns(b)); break;
	case SORT_MIN_TIME: c = DESC(a->min_ns, b->min_ns); break;
	case SORT_MAX_TIME: c = DESC(a->max_ns, b->max_ns); break;
	case SORT_NOTHING: break;
	}
	if (c)
		return c;
	return x->pos < y->pos ? -1 : x->pos > y->pos;
}

/* The rows with calls, in the order of key (caller frees). */
static struct srow *sorted_rows(const struct sc_counts *c, enum summary_sort key, size_t *n)
{
	struct sc_count **rows = sc_counts_rows(c, n);
	struct srow *s = xcalloc(*n + 1, sizeof(*s));

	for (size_t i = 0; i < *n; i++) {
		s[i].r = rows[i];
		s[i].pos = i;
	}
	free(rows);
	qsort_r(s, *n, sizeof(*s), row_cmp, &key);
	return s;
}

static size_t width(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static size_t width(const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	return n > 0 ? (size_t)n : 0;
}

static size_t max_sz(size_t a, size_t b)
{
	return a > b ? a : b;
}

static const struct {
	const char *name;
	enum summary_column col;
} column_names[] = {
	{ "time", COL_TIME_PERCENT }, { "time_percent", COL_TIME_PERCENT },
	{ "time-percent", COL_TIME_PERCENT },
	{ "time_total", COL_TOTAL_TIME }, { "time-total", COL_TOTAL_TIME },
	{ "total_time", COL_TOTAL_TIME }, { "total-time", COL_TOTAL_TIME },
	{ "min_time", COL_MIN_TIME }, { "min-time", COL_MIN_TIME },
	{ "shortest", COL_MIN_TIME }, { "time_min", COL_MIN_TIME }, { "time-min", COL_MIN_TIME },
	{ "longest", COL_MAX_TIME }, { "max_time", COL_MAX_TIME }, { "max-time", COL_MAX_TIME },
	{ "time_max", COL_MAX_TIME }, { "time-max", COL_MAX_TIME },
	{ "avg_time", COL_AVG_TIME }, { "avg-time", COL_AVG_TIME },
	{ "time_avg", COL_AVG_TIME }, { "time-avg", COL_AVG_TIME },
	{ "calls", COL_CALLS }, { "count", COL_CALLS },
	{ "error", COL_ERRORS }, { "errors", COL_ERRORS },
	{ "name", COL_NAME }, { "syscall", COL_NAME }, { "syscall_name", COL_NAME },
	{ "syscall-name", COL_NAME },
};

int summary_columns_parse(const char *spec, uint8_t cols[COL_MAX])
{
	uint8_t tmp[COL_MAX] = { 0 }, seen[COL_MAX] = { 0 };
	const char *p = spec;
	size_t n = 0;

	for (;;) {
		const char *comma = strchr(p, ',');
		size_t len = comma ? (size_t)(comma - p) : strlen(p);
		bool found = false;

		for (size_t i = 0; i < ARRAY_SIZE(column_names); i++) {
			if (strncmp(column_names[i].name, p, len) || column_names[i].name[len])
				continue;
			if (seen[column_names[i].col])
				return error("call summary column has been provided more than "
					     "once: '%s' (-U option residual: '%s')",
					     column_names[i].name, esc(p));
			seen[column_names[i].col] = 1;
			tmp[n++] = (uint8_t)column_names[i].col;
			found = true;
			break;
		}
		if (!found)
			return error("unknown column name: '%s'", escn(p, len));
		if (!comma)
			break;
		p = comma + 1;
	}
	if (!seen[COL_NAME])
		tmp[n++] = COL_NAME;   /* a table without names means nothing */
	if (cols)
		memcpy(cols, tmp, sizeof(tmp));
	return 0;
}

/* Column heading, minimum width and left alignment (strace's cdesc). */
static const struct {
	const char *head;
	size_t min;
	bool left;
} col_desc[COL_MAX] = {
	[COL_TIME_PERCENT] = { "% time", 6, false },
	[COL_TOTAL_TIME] = { "seconds", 11, false },
	[COL_MIN_TIME] = { "shortest", 8, false },
	[COL_MAX_TIME] = { "longest", 7, false },
	[COL_AVG_TIME] = { "usecs/call", 11, false },
	[COL_CALLS] = { "calls", 9, false },
	[COL_ERRORS] = { "errors", 9, false },
	[COL_NAME] = { "syscall", 16, true },
};

static void rule(struct strbuf *sb, const uint8_t *cols, size_t ncols, const size_t *w)
{
	for (size_t i = 0; i < ncols; i++) {
		if (i)
			strbuf_addch(sb, ' ');
		strbuf_addchars(sb, '-', w[cols[i]]);
	}
	strbuf_addch(sb, '\n');
}

/* One row: the values of r (or of the totals when r is NULL). */
static void table_row(struct strbuf *sb, const uint8_t *cols, size_t ncols, const size_t *w,
		      const struct sc_count *r, const struct sc_counts *c,
		      uint64_t min_all, uint64_t max_all)
{
	double total = secs(c->time_ns);

	for (size_t i = 0; i < ncols; i++) {
		int wi = (int)w[cols[i]];
		bool last = i + 1 == ncols;

		if (i)
			strbuf_addch(sb, ' ');
		switch (cols[i]) {
		case COL_TIME_PERCENT: {
			double pct = 100.0;
			if (r) {
				pct = 100.0 * secs(r->time_ns);
				if (pct != 0.0)
					pct /= total;
			}
			strbuf_addf(sb, "%*.2f", wi, pct);
			break;
		}
		case COL_TOTAL_TIME:
			strbuf_addf(sb, "%*.6f", wi, r ? secs(r->time_ns) : total);
			break;
		case COL_MIN_TIME:
			strbuf_addf(sb, "%*.6f", wi, secs(r ? r->min_ns : min_all));
			break;
		case COL_MAX_TIME:
			strbuf_addf(sb, "%*.6f", wi, secs(r ? r->max_ns : max_all));
			break;
		case COL_AVG_TIME:
			strbuf_addf(sb, "%*" PRIu64, wi, r ? (uint64_t)(secs(avg_ns(r)) * 1e6)
					: (uint64_t)(total / (double)c->calls * 1e6));
			break;
		case COL_CALLS:
			strbuf_addf(sb, "%*" PRIu64, wi, r ? r->calls : c->calls);
			break;
		case COL_ERRORS:
			strbuf_addf(sb, "%*.0" PRIu64, wi, r ? r->errors : c->errors);
			break;
		case COL_NAME:
			if (last)
				strbuf_addstr(sb, r ? r->name : "total");
			else
				strbuf_addf(sb, "%-*s", wi, r ? r->name : "total");
			break;
		}
	}
	strbuf_addch(sb, '\n');
}

/* Appends the table of c to sb; nothing when no call was counted. */
static void summary_table(struct strbuf *sb, const struct sc_counts *c, enum summary_sort key,
			  const uint8_t *cols_opt)
{
	static const uint8_t dflt[] = { COL_TIME_PERCENT, COL_TOTAL_TIME, COL_AVG_TIME,
					COL_CALLS, COL_ERRORS, COL_NAME };
	const uint8_t *cols = cols_opt && cols_opt[0] ? cols_opt : dflt;
	size_t ncols = 0, n, namemax = 0;
	struct srow *rows = sorted_rows(c, key, &n);
	uint64_t avgmax = 0, min_all = UINT64_MAX, minmax = 0, max_all = 0;
	size_t w[COL_MAX];

	while (ncols < COL_MAX && (cols != dflt || ncols < ARRAY_SIZE(dflt)) && cols[ncols] != COL_END)
		ncols++;
	if (!n)
		goto out;
	for (size_t i = 0; i < n; i++) {
		const struct sc_count *r = rows[i].r;
		uint64_t a = (uint64_t)(secs(avg_ns(r)) * 1e6);
		namemax = max_sz(namemax, strlen(r->name));
		if (a > avgmax)
			avgmax = a;
		if (r->min_ns < min_all)
			min_all = r->min_ns;
		if (r->min_ns > minmax)
			minmax = r->min_ns;
		if (r->max_ns > max_all)
			max_all = r->max_ns;
	}
	w[COL_TIME_PERCENT] = 6;
	w[COL_TOTAL_TIME] = max_sz(11, width("%.6f", secs(c->time_ns)));
	w[COL_MIN_TIME] = max_sz(8, width("%" PRIu64 ".000000", minmax / 1000000000u));
	w[COL_MAX_TIME] = max_sz(7, width("%" PRIu64 ".000000", max_all / 1000000000u));
	w[COL_AVG_TIME] = max_sz(11, width("%" PRIu64, avgmax));
	w[COL_CALLS] = max_sz(9, width("%" PRIu64, c->calls));
	w[COL_ERRORS] = max_sz(9, width("%" PRIu64, c->errors));
	w[COL_NAME] = max_sz(16, namemax + 1);

	for (size_t i = 0; i < ncols; i++) {
		bool last = i + 1 == ncols;
		if (i)
			strbuf_addch(sb, ' ');
		if (col_desc[cols[i]].left && last)
			strbuf_addstr(sb, col_desc[cols[i]].head);
		else if (col_desc[cols[i]].left)
			strbuf_addf(sb, "%-*s", (int)w[cols[i]], col_desc[cols[i]].head);
		else
			strbuf_addf(sb, "%*s", (int)w[cols[i]], col_desc[cols[i]].head);
	}
	strbuf_addch(sb, '\n');
	rule(sb, cols, ncols, w);
	for (size_t i = 0; i < n; i++)
		table_row(sb, cols, ncols, w, rows[i].r, c, min_all, max_all);
	rule(sb, cols, ncols, w);
	table_row(sb, cols, ncols, w, NULL, c, min_all, max_all);
out:
	free(rows);
}

/* --timing: the short per-syscall list of latencies in milliseconds and
 * the wall time. */
static void summary_timing(struct strbuf *sb, const struct sc_counts *c,
			   enum summary_sort key, const struct trace_end *te)
{
	size_t n;
	struct srow *rows = sorted_rows(c, key, &n);

	strbuf_addstr(sb, "\nSyscall Summary:\n");
	for (size_t i = 0; i < n; i++)
		strbuf_addf(sb, "%s: %" PRIu64 " calls (%.2fms total)\n", rows[i].r->name,
			    rows[i].r->calls, (double)rows[i].r->time_ns / 1e6);
	strbuf_addf(sb, "TOTAL: %" PRIu64 " calls (%.2fms total)\n", c->calls,
		    (double)c->time_ns / 1e6);
	strbuf_addf(sb, "Wall time: %.2fms\n", te ? (double)te->wall_ns / 1e6 : 0.0);
	free(rows);
}

static int summary_end(struct sink *s, const struct trace_end *te)
{
	struct summary_sink *ss = (struct summary_sink *)s;
	struct strbuf sb = STRBUF_INIT;

	summary_table(&sb, &ss->counts, ss->o.sort, ss->o.columns);
	if (ss->o.timing)
		summary_timing(&sb, ss->have_wall ? &ss->wall : &ss->counts, ss->o.sort, te);
	if (ss->dst) {
		strbuf_add(ss->dst, sb.buf, sb.len);
		strbuf_release(&sb);
		return 0;
	}
	sinkout_put(&ss->out, &sb);
	strbuf_release(&sb);
	return sinkout_close(&ss->out);
}

static void summary_free(struct sink *s)
{
	struct summary_sink *ss = (struct summary_sink *)s;

	if (ss->out.fp)
		sinkout_abort(&ss->out);
	sc_counts_release(&ss->counts);
	if (ss->have_wall)
		sc_counts_release(&ss->wall);
	free(ss);
}

static const struct sink_ops summary_ops = {
	.name = "summary",
	.no_args = 1,
	.event = summary_event,
	.totals = summary_totals,
	.end = summary_end,
	.free = summary_free,
};

struct sink *summary_sink_new_buf(struct strbuf *dst, const struct sink_opts *o)
{
	struct summary_sink *ss = (struct summary_sink *)summary_sink_new(NULL, NULL, o);

	ss->dst = dst;
	return &ss->base;
}

struct sink *summary_sink_new(FILE *out, const char *path, const struct sink_opts *o)
{
	struct summary_sink *ss = xcalloc(1, sizeof(*ss));

	if (sinkout_open(&ss->out, out, path) < 0) {
		free(ss);
		return NULL;
	}
	ss->base.ops = &summary_ops;
	if (o)
		ss->o = *o;
	sc_counts_init(&ss->counts);
	if (ss->o.cpu_time && ss->o.timing) {
		sc_counts_init(&ss->wall);
		ss->have_wall = true;
	}
	return &ss->base;
}
