/*
 * Printers of assertion results (text as the seeds show it, JSON, JUnit
 * XML) and of the anti-pattern report of `renacer analyze` and
 * `--anti-patterns`.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "assert/internal.h"
#include "util/error.h"
#include "util/quote.h"
#include "util/xmalloc.h"
#include "util/banned.h"

#define OK_MARK "\xe2\x9c\x85"            /* ✅ */
#define FAIL_MARK "\xe2\x9d\x8c"          /* ❌ */
#define WARN_MARK "\xe2\x9a\xa0\xef\xb8\x8f"  /* ⚠️ */
#define SKIP_MARK "\xe2\x8f\xad\xef\xb8\x8f"  /* ⏭️ */

int output_format_parse(const char *s)
{
	if (!strcmp(s, "text"))
		return OUT_TEXT;
	if (!strcmp(s, "json"))
		return OUT_JSON;
	if (!strcmp(s, "junit"))
		return OUT_JUNIT;
	return -1;
}

static const char *status_name(enum assert_status s)
{
	switch (s) {
	case AS_PASSED: return "passed";
	case AS_FAILED: return "failed";
	case AS_WARNING: return "warning";
	case AS_SKIPPED: return "skipped";
	}
	return "?";
}

static const char *unit_name(enum assert_unit u)
{
	switch (u) {
	case AU_MS: return "ms";
	case AU_CALLS: return "calls";
	case AU_BYTES: return "bytes";
	case AU_CONFIDENCE: return "confidence";
	}
	return "?";
}

static void add_value(struct strbuf *sb, enum assert_unit u, double v)
{
	switch (u) {
	case AU_MS:
		fmt_ms(sb, (uint64_t)llround(v * 1e6));
		break;
	case AU_CALLS:
		strbuf_addf(sb, "%.0f", v);
		break;
	case AU_BYTES:
		fmt_bytes(sb, (uint64_t)llround(v));
		break;
	case AU_CONFIDENCE:
		strbuf_addf(sb, "%.0f%%", floor(v * 100));
		break;
	}
}

/* v exactly, for when add_value rounds actual and budget to one text. */
static void add_exact(struct strbuf *sb, enum assert_unit u, double v)
{
	if (u == AU_BYTES)
		strbuf_addf(sb, " (%.0f bytes)", v);
	else if (u == AU_MS)
		strbuf_addf(sb, " (%.6fms)", v);
}

/*
 * The regression in percent, with as many decimals as it takes to show
 * two significant digits of a small one (1 byte over 100MB is
 * +0.00000095%, not +0.0%), and what it is in the unit when that small.
 */
static void add_regression(struct strbuf *sb, const struct assert_result *r)
{
	double pct = r->regression_pct, a = fabs(pct);
	if (isnan(pct) || isinf(pct)) {
		strbuf_addstr(sb, "n/a (budget 0)");
	} else if (a >= 10) {
		strbuf_addf(sb, "%+.0f%%", pct);
	} else if (a >= 0.1 || a == 0) {
		strbuf_addf(sb, "%+.1f%%", pct);
	} else {
		int dec = (int)ceil(-log10(a)) + 1;
		strbuf_addf(sb, "%+.*f%% (", dec < 15 ? dec : 15, pct);
		if (r->actual >= r->budget)
			strbuf_addch(sb, '+');
		else
			strbuf_addch(sb, '-');
		add_value(sb, r->unit, fabs(r->actual - r->budget));
		strbuf_addch(sb, ')');
	}
}

int assert_exit_status(const struct assert_results *res)
{
	return res->failed ? 1 : 0;
}

/* ---- text ------------------------------------------------------------------- */

/*
 * Text from renacer.toml or a trace (names, process names, paths) in a
 * text report: one line, no control characters (util/quote.h).
 */
static void add_in(struct strbuf *sb, const char *s)
{
	if (s)
		strbuf_add_cescaped(sb, s, strlen(s), 0, CESC_KEEP_BACKSLASH);
}

static void text_result(struct strbuf *sb, const struct assert_result *r)
{
	switch (r->status) {
	case AS_PASSED:
		strbuf_addstr(sb, OK_MARK " Assertion '");
		add_in(sb, r->name);
		strbuf_addstr(sb, "' passed (");
		add_in(sb, r->summary);
		strbuf_addstr(sb, ")\n");
		return;
	case AS_SKIPPED:
		strbuf_addstr(sb, SKIP_MARK " Assertion '");
		add_in(sb, r->name);
		strbuf_addstr(sb, "' skipped (disabled)\n");
		return;
	case AS_FAILED:
		strbuf_addstr(sb, FAIL_MARK " Assertion '");
		add_in(sb, r->name);
		strbuf_addstr(sb, "' FAILED\n");
		break;
	case AS_WARNING:
		strbuf_addstr(sb, WARN_MARK " Assertion '");
		add_in(sb, r->name);
		strbuf_addstr(sb, "' WARNING (fail_on_violation = false)\n");
		break;
	}
	size_t from = 0;
	if (!r->measured) {
		strbuf_addstr(sb, "   Not measured: the trace lacks the data\n");
	} else if (r->unit == AU_CONFIDENCE) {
		/* evidence[0] is the detector's headline: "X detected (confidence: 85%)" */
		if (r->nevidence) {
			strbuf_addstr(sb, "   ");
			add_in(sb, r->evidence[from++]);
			strbuf_addch(sb, '\n');
		}
		strbuf_addstr(sb, "   Threshold: ");
		add_value(sb, r->unit, r->budget);
		strbuf_addch(sb, '\n');
	} else {
		struct strbuf av = STRBUF_INIT, bv = STRBUF_INIT;
		add_value(&av, r->unit, r->actual);
		add_value(&bv, r->unit, r->budget);
		if (!strcmp(av.buf, bv.buf) && r->actual != r->budget) {
			add_exact(&av, r->unit, r->actual);
			add_exact(&bv, r->unit, r->budget);
		}
		strbuf_addf(sb, "   Actual: %s\n   Budget: %s\n   Regression: ", av.buf, bv.buf);
		add_regression(sb, r);
		strbuf_addch(sb, '\n');
		strbuf_release(&av);
		strbuf_release(&bv);
	}
	for (size_t i = from; i < r->nevidence; i++) {
		strbuf_addstr(sb, "   ");
		add_in(sb, r->evidence[i]);
		strbuf_addch(sb, '\n');
	}
	if (r->recommendation) {
		strbuf_addstr(sb, "   Recommendation: ");
		add_in(sb, r->recommendation);
		strbuf_addch(sb, '\n');
	}
}

static void text_results(struct strbuf *sb, const struct assert_results *res)
{
	for (size_t i = 0; i < res->n; i++)
		text_result(sb, &res->r[i]);
	strbuf_addf(sb, "\n%zu assertion%s: %u passed, %u failed, %u warning%s, %u skipped\n",
		    res->n, res->n == 1 ? "" : "s", res->passed, res->failed, res->warnings,
		    res->warnings == 1 ? "" : "s", res->skipped);
	if (res->failed)
		strbuf_addf(sb, WARN_MARK " Build BLOCKED: %u assertion%s failed\n", res->failed,
			    res->failed == 1 ? "" : "s");
}

/* ---- json --------------------------------------------------------------------- */

static void json_str(struct strbuf *sb, const char *s)
{
	if (!s)
		strbuf_addstr(sb, "null");
	else
		strbuf_add_json_str(sb, s, strlen(s));
}

static void json_num(struct strbuf *sb, enum assert_unit u, double v)
{
	if (isnan(v) || isinf(v))
		strbuf_addstr(sb, "null");
	else if (u == AU_CALLS || u == AU_BYTES)
		strbuf_addf(sb, "%.0f", v);
	else if (u == AU_MS)
		strbuf_addf(sb, "%.3f", v);
	else
		strbuf_addf(sb, "%.4f", v);
}

static void json_lines(struct strbuf *sb, char *const *lines, size_t n)
{
	strbuf_addch(sb, '[');
	for (size_t i = 0; i < n; i++) {
		if (i)
			strbuf_addstr(sb, ", ");
		json_str(sb, lines[i]);
	}
	strbuf_addch(sb, ']');
}

static void json_results(struct strbuf *sb, const struct assert_results *res, const char *source)
{
	strbuf_addstr(sb, "{\n  \"format\": \"renacer-assert-v1\",\n  \"source\": ");
	json_str(sb, source);
	strbuf_addstr(sb, ",\n  \"results\": [");
	for (size_t i = 0; i < res->n; i++) {
		const struct assert_result *r = &res->r[i];
		strbuf_addstr(sb, i ? ",\n    {" : "\n    {");
		strbuf_addstr(sb, "\"name\": ");
		json_str(sb, r->name);
		strbuf_addstr(sb, ", \"type\": ");
		json_str(sb, r->type);
		strbuf_addf(sb, ", \"status\": \"%s\", \"fail_on_violation\": %s, \"measured\": %s",
			    status_name(r->status), r->fail_on_violation ? "true" : "false",
			    r->measured && r->status != AS_SKIPPED ? "true" : "false");
		strbuf_addf(sb, ", \"unit\": \"%s\", \"actual\": ", unit_name(r->unit));
		if (r->measured && r->status != AS_SKIPPED)
			json_num(sb, r->unit, r->actual);
		else
			strbuf_addstr(sb, "null");
		strbuf_addstr(sb, ", \"budget\": ");
		json_num(sb, r->unit, r->budget);
		strbuf_addstr(sb, ", \"regression_pct\": ");
		if (r->measured && r->status != AS_SKIPPED && r->unit != AU_CONFIDENCE)
			json_num(sb, AU_CONFIDENCE, r->regression_pct);
		else
			strbuf_addstr(sb, "null");
		strbuf_addstr(sb, ", \"summary\": ");
		json_str(sb, r->summary);
		strbuf_addstr(sb, ", \"evidence\": ");
		json_lines(sb, r->evidence, r->nevidence);
		strbuf_addstr(sb, ", \"recommendation\": ");
		json_str(sb, r->recommendation);
		strbuf_addch(sb, '}');
	}
	strbuf_addf(sb, "%s],\n  \"summary\": {\"total\": %zu, \"passed\": %u, \"failed\": %u, "
		    "\"warnings\": %u, \"skipped\": %u, \"blocked\": %s, \"exit_status\": %d}\n}\n",
		    res->n ? "\n  " : "", res->n, res->passed, res->failed, res->warnings,
		    res->skipped, res->failed ? "true" : "false", assert_exit_status(res));
}

/* ---- junit ------------------------------------------------------------------------ */

/* Appends s escaped for XML text and attributes (util/quote.h). */
static void xml_str(struct strbuf *sb, const char *s)
{
	if (s)
		strbuf_add_xml(sb, s, strlen(s));
}

static void junit_details(struct strbuf *sb, const struct assert_result *r)
{
	struct strbuf t = STRBUF_INIT;
	text_result(&t, r);
	xml_str(sb, t.buf);
	strbuf_release(&t);
}

static void junit_results(struct strbuf *sb, const struct assert_results *res, const char *source)
{
	strbuf_addstr(sb, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
	strbuf_addf(sb, "<testsuites name=\"renacer\" tests=\"%zu\" failures=\"%u\" errors=\"0\" "
		    "skipped=\"%u\">\n", res->n, res->failed, res->skipped);
	strbuf_addf(sb, "  <testsuite name=\"renacer.assertions\" tests=\"%zu\" failures=\"%u\" "
		    "errors=\"0\" skipped=\"%u\">\n", res->n, res->failed, res->skipped);
	if (source) {
		strbuf_addstr(sb, "    <properties>\n      <property name=\"source\" value=\"");
		xml_str(sb, source);
		strbuf_addstr(sb, "\"/>\n    </properties>\n");
	}
	for (size_t i = 0; i < res->n; i++) {
		const struct assert_result *r = &res->r[i];
		strbuf_addstr(sb, "    <testcase classname=\"renacer.");
		xml_str(sb, r->type);
		strbuf_addstr(sb, "\" name=\"");
		xml_str(sb, r->name);
		strbuf_addstr(sb, "\"");
		if (r->status == AS_PASSED) {
			strbuf_addstr(sb, ">\n      <system-out>");
			xml_str(sb, r->summary);
			strbuf_addstr(sb, "</system-out>\n    </testcase>\n");
			continue;
		}
		strbuf_addstr(sb, ">\n");
		switch (r->status) {
		case AS_SKIPPED:
			strbuf_addstr(sb, "      <skipped message=\"disabled\"/>\n");
			break;
		case AS_FAILED:
			strbuf_addstr(sb, "      <failure type=\"");
			xml_str(sb, r->type);
			strbuf_addstr(sb, "\" message=\"");
			xml_str(sb, r->summary);
			strbuf_addstr(sb, "\">");
			junit_details(sb, r);
			strbuf_addstr(sb, "</failure>\n");
			break;
		case AS_WARNING:
			strbuf_addstr(sb, "      <system-out>warning (fail_on_violation = false): ");
			junit_details(sb, r);
			strbuf_addstr(sb, "</system-out>\n");
			break;
		default:
			break;
		}
		strbuf_addstr(sb, "    </testcase>\n");
	}
	strbuf_addstr(sb, "  </testsuite>\n</testsuites>\n");
}

void assert_format(const struct assert_results *res, enum output_format fmt,
		   const char *source, struct strbuf *out)
{
	switch (fmt) {
	case OUT_JSON:
		json_results(out, res, source);
		break;
	case OUT_JUNIT:
		junit_results(out, res, source);
		break;
	default:
		text_results(out, res);
		break;
	}
}

int assert_write_out(FILE *out, const struct strbuf *sb)
{
	if (fwrite(sb->buf, 1, sb->len, out) != sb->len || fflush(out))
		return error("cannot write the report: %s", strerror(errno));
	return 0;
}

/* ---- anti-pattern report -------------------------------------------------------------- */

void anti_patterns_format(const struct analysis *a, enum output_format fmt, struct strbuf *out)
{
	struct ap_finding f[8];
	size_t n = 0, found = 0;
	for (size_t i = 0; anti_pattern_names[i] && n < ARRAY_SIZE(f); i++)
		if (anti_pattern_run(a, anti_pattern_names[i], &f[n]) == 0) {
			if (f[n].confidence >= AP_REPORT_THRESHOLD)
				found++;
			n++;
		}
	if (fmt == OUT_JSON) {
		strbuf_addf(out, "{\n  \"format\": \"renacer-anti-patterns-v1\",\n"
			    "  \"syscalls\": %llu,\n  \"wall_time_us\": %.3f,\n"
			    "  \"report_threshold\": %.2f,\n  \"findings\": [",
			    (unsigned long long)a->syscalls, (double)an_run_ns(a) / 1e3,
			    AP_REPORT_THRESHOLD);
		for (size_t i = 0; i < n; i++) {
			strbuf_addstr(out, i ? ",\n    {" : "\n    {");
			strbuf_addstr(out, "\"pattern\": ");
			json_str(out, f[i].pattern);
			strbuf_addf(out, ", \"confidence\": %.4f, \"detected\": %s, \"headline\": ",
				    f[i].confidence,
				    f[i].confidence >= AP_REPORT_THRESHOLD ? "true" : "false");
			json_str(out, f[i].headline);
			strbuf_addstr(out, ", \"evidence\": ");
			json_lines(out, f[i].evidence, f[i].nevidence);
			strbuf_addstr(out, ", \"recommendation\": ");
			json_str(out, f[i].recommendation);
			strbuf_addch(out, '}');
		}
		strbuf_addf(out, "\n  ],\n  \"detected\": %zu\n}\n", found);
	} else {
		strbuf_addf(out, "Anti-pattern analysis: %llu syscalls, ",
			    (unsigned long long)a->syscalls);
		fmt_ms(out, an_run_ns(a));
		strbuf_addch(out, '\n');
		for (size_t i = 0; i < n; i++) {
			bool hit = f[i].confidence >= AP_REPORT_THRESHOLD;
			strbuf_addf(out, "%s ", hit ? WARN_MARK : OK_MARK);
			add_in(out, f[i].headline);
			strbuf_addch(out, '\n');
			for (size_t k = 0; k < f[i].nevidence; k++) {
				strbuf_addstr(out, "   ");
				add_in(out, f[i].evidence[k]);
				strbuf_addch(out, '\n');
			}
			if (hit && f[i].recommendation) {
				strbuf_addstr(out, "   Recommendation: ");
				add_in(out, f[i].recommendation);
				strbuf_addch(out, '\n');
			}
		}
		strbuf_addf(out, "%zu anti-pattern%s detected\n", found, found == 1 ? "" : "s");
	}
	for (size_t i = 0; i < n; i++)
		ap_finding_release(&f[i]);
}

int anti_patterns_report(const struct analysis *a, enum output_format fmt, FILE *out)
{
	struct strbuf sb = STRBUF_INIT;
	anti_patterns_format(a, fmt, &sb);
	int ret = assert_write_out(out, &sb);
	strbuf_release(&sb);
	return ret;
}
