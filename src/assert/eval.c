/*
 * Evaluating [[assertion]] entries on an analysis: each type measured for
 * real (docs/assertions.md says how), with the evidence that explains the
 * number and a recommendation when it is broken.
 */
#include <math.h>
#include <regex.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "assert/internal.h"
#include "util/error.h"
#include "util/quote.h"
#include "util/relimit.h"
#include "util/xmalloc.h"
#include "util/banned.h"

static void ev_take(struct assert_result *r, char *line)
{
	r->evidence = xreallocarray(r->evidence, r->nevidence + 1, sizeof(*r->evidence));
	r->evidence[r->nevidence++] = line;
}

static void ev_add(struct assert_result *r, struct strbuf *sb)
{
	ev_take(r, strbuf_detach(sb, NULL));
}

static void ev_addf(struct assert_result *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void ev_addf(struct assert_result *r, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;
	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	ev_add(r, &sb);
}

static int compile(regex_t *re, const char *pattern, const struct assert_spec *s,
		   const char *key)
{
	char msg[256];
	int rc = re_compile_bounded(re, pattern, REG_EXTENDED | REG_NOSUB, s->regex_cost, msg,
				    sizeof(msg));
	if (rc)
		return error("assertion '%s': invalid %s '%s': %s", esc(s->name), key, esc(pattern),
			     msg);
	return 0;
}

/* Indices of syscall names sorted by time (by_time) or calls, descending. */
static const struct analysis *sort_a;
static int by_time_desc(const void *x, const void *y)
{
	uint32_t i = *(const uint32_t *)x, j = *(const uint32_t *)y;
	const struct sc_stat *a = &sort_a->stats[i], *b = &sort_a->stats[j];
	if (a->time_ns != b->time_ns)
		return a->time_ns > b->time_ns ? -1 : 1;
	return strcmp(an_name(sort_a, i), an_name(sort_a, j));
}
static int by_calls_desc(const void *x, const void *y)
{
	uint32_t i = *(const uint32_t *)x, j = *(const uint32_t *)y;
	const struct sc_stat *a = &sort_a->stats[i], *b = &sort_a->stats[j];
	if (a->calls != b->calls)
		return a->calls > b->calls ? -1 : 1;
	return strcmp(an_name(sort_a, i), an_name(sort_a, j));
}

static uint32_t *sorted_names(const struct analysis *a, bool by_time, const regex_t *re,
			      size_t *n)
{
	uint32_t *idx = xcalloc(a->names.n + 1, sizeof(*idx));
	*n = 0;
	for (uint32_t i = 0; i < a->names.n; i++)
		if (a->stats[i].calls && (!re || !regexec(re, an_name(a, i), 0, NULL, 0)))
			idx[(*n)++] = i;
	sort_a = a;
	QSORT(idx, *n, by_time ? by_time_desc : by_calls_desc);
	return idx;
}

static void eval_critical_path(const struct assert_spec *s, const struct analysis *a,
			       struct assert_result *r)
{
	regex_t re;
	bool have_re = s->trace_name_pattern != NULL;
	struct cp_result cp;
	struct strbuf sb = STRBUF_INIT;
	uint64_t sum = 0;
	size_t matched = 0;

	if (have_re && compile(&re, s->trace_name_pattern, s, "trace_name_pattern") < 0) {
		r->measured = false;
		return;
	}
	r->unit = AU_MS;
	r->budget = s->max_duration_ms;
	r->measured = a->nprocs > 0;
	critical_path(a, &cp);
	strbuf_addstr(&sb, have_re ? "critical path (processes matching the pattern): "
				   : "critical path: ");
	for (size_t i = 0; i < cp.nsegs; i++) {
		const struct proc *p = &a->procs[cp.segs[i].proc];
		if (have_re && !(p->name && !regexec(&re, p->name, 0, NULL, 0)))
			continue;
		if (matched++)
			strbuf_addstr(&sb, " \xe2\x86\x92 ");
		strbuf_addf(&sb, "%s[%d] ", p->name ? p->name : "?", (int)p->pid);
		fmt_ms(&sb, cp.segs[i].ns);
		sum += cp.segs[i].ns;
	}
	if (!matched)
		strbuf_addstr(&sb, have_re ? "no process on the path matches" : "empty (no events)");
	ev_add(r, &sb);
	if (have_re) {
		strbuf_addf(&sb, "trace_name_pattern '%s': ", s->trace_name_pattern);
		fmt_ms(&sb, sum);
		strbuf_addstr(&sb, " of the path's ");
		fmt_ms(&sb, cp.total_ns);
		ev_add(r, &sb);
	}
	r->actual = (double)sum / 1e6;
	if (critpath_untraced(a, sum, cp.total_ns, have_re, &r->actual, &sb))
		ev_add(r, &sb);
	cp_result_release(&cp);
	if (have_re)
		regfree(&re);
	fmt_ms(&sb, (uint64_t)llround(r->actual * 1e6));
	strbuf_addstr(&sb, " / ");
	fmt_ms(&sb, (uint64_t)llround(s->max_duration_ms * 1e6));
	r->summary = strbuf_detach(&sb, NULL);
	if (r->actual > r->budget) {
		size_t n;
		uint32_t *idx = sorted_names(a, true, NULL, &n);
		strbuf_addstr(&sb, "syscall time:");
		for (size_t i = 0; i < n && i < 3; i++) {
			const struct sc_stat *nm = &a->stats[idx[i]];
			strbuf_addf(&sb, "%s %s %llu call%s ", i ? "," : "", an_name(a, idx[i]),
				    (unsigned long long)nm->calls, nm->calls == 1 ? "" : "s");
			fmt_ms(&sb, nm->time_ns);
		}
		free(idx);
		ev_add(r, &sb);
		r->recommendation = xstrdup("Profile the slowest process on the path "
					    "(renacer -f -c --timing) and remove the waits and calls "
					    "that take the time");
	}
	strbuf_release(&sb);
}

static void eval_span_count(const struct assert_spec *s, const struct analysis *a,
			    struct assert_result *r)
{
	regex_t re;
	bool have_re = s->span_name_pattern != NULL;
	struct strbuf sb = STRBUF_INIT;
	uint64_t count = 0;
	size_t n;

	if (have_re && compile(&re, s->span_name_pattern, s, "span_name_pattern") < 0) {
		r->measured = false;
		return;
	}
	r->unit = AU_CALLS;
	r->budget = (double)s->max_spans;
	r->measured = true;
	uint32_t *idx = sorted_names(a, false, have_re ? &re : NULL, &n);
	for (size_t i = 0; i < n; i++)
		count += a->stats[idx[i]].calls;
	r->actual = (double)count;
	strbuf_addf(&sb, "%llu / %llu calls", (unsigned long long)count,
		    (unsigned long long)s->max_spans);
	if (have_re)
		strbuf_addf(&sb, " matching '%s'", s->span_name_pattern);
	r->summary = strbuf_detach(&sb, NULL);
	if (count > s->max_spans) {
		strbuf_addstr(&sb, "top syscalls:");
		for (size_t i = 0; i < n && i < 5; i++)
			strbuf_addf(&sb, "%s %s (%llu)", i ? "," : "", an_name(a, idx[i]),
				    (unsigned long long)a->stats[idx[i]].calls);
		ev_add(r, &sb);
		r->recommendation = xstrdup("Look for loops of small calls (renacer -c shows which "
					    "syscalls grew): buffer I/O, batch requests, cache "
					    "lookups");
	}
	free(idx);
	if (have_re)
		regfree(&re);
	strbuf_release(&sb);
}

static void eval_memory(const struct assert_spec *s, const struct analysis *a,
			struct assert_result *r)
{
	struct strbuf sb = STRBUF_INIT;
	r->unit = AU_BYTES;
	r->budget = (double)s->max_bytes;
	r->measured = true;
	if (s->tracking_mode == TM_RSS) {
		pid_t top;
		uint64_t top_kb;
		size_t with;
		uint64_t peak = rss_tree_peak(a, &top, &top_kb, &with);
		if (!a->rss_seen) {
			r->measured = false;
			r->actual = 0;
			ev_addf(r, "tracking_mode 'rss' needs each process's peak RSS (VmHWM) at exit, "
				"and this run has none: trace live with --assert, or capture the "
				"trace with it");
			r->summary = xstrdup("rss not recorded");
			return;
		}
		r->actual = (double)peak;
		fmt_bytes(&sb, peak);
		strbuf_addstr(&sb, " / ");
		fmt_bytes(&sb, s->max_bytes);
		strbuf_addstr(&sb, " rss");
		r->summary = strbuf_detach(&sb, NULL);
		strbuf_addf(&sb, "peak resident set of the tree (sum of VmHWM of processes alive "
			    "together), %zu process%s; the largest, process %d, VmHWM ", with,
			    with == 1 ? "" : "es", (int)top);
		fmt_bytes(&sb, top_kb * 1024);
		ev_add(r, &sb);
	} else {
		r->actual = (double)a->mem_peak;
		fmt_bytes(&sb, a->mem_peak);
		strbuf_addstr(&sb, " / ");
		fmt_bytes(&sb, s->max_bytes);
		strbuf_addstr(&sb, " committed");
		r->summary = strbuf_detach(&sb, NULL);
		strbuf_addstr(&sb, "peak of committed memory of the tree (writable private mappings, "
			    "thread stacks included, and the heap) ");
		fmt_ms(&sb, a->mem_peak_ns);
		strbuf_addf(&sb, " into the trace; process %d held ", (int)a->mem_peak_pid);
		fmt_bytes(&sb, a->mem_peak_pid_bytes);
		ev_add(r, &sb);
		if (a->resv_at_peak) {
			strbuf_addstr(&sb, "not counted: ");
			fmt_bytes(&sb, a->resv_at_peak);
			strbuf_addstr(&sb, " reserved without write access at the peak "
				    "(malloc arenas' reservations)");
			ev_add(r, &sb);
		}
		ev_addf(r, "%llu mmap, %llu munmap, %llu mremap, %llu mprotect, %llu brk calls",
			(unsigned long long)a->mmap_calls, (unsigned long long)a->munmap_calls,
			(unsigned long long)a->mremap_calls, (unsigned long long)a->mprotect_calls,
			(unsigned long long)a->brk_calls);
	}
	if (r->actual > r->budget)
		r->recommendation = xstrdup("Find the largest allocations (renacer -f -e trace=%memory) "
					    "and free or reuse buffers; stream data instead of "
					    "loading it whole");
	strbuf_release(&sb);
}

static void eval_anti_pattern(const struct assert_spec *s, const struct analysis *a,
			      struct assert_result *r)
{
	struct ap_finding f;
	struct strbuf sb = STRBUF_INIT;
	r->unit = AU_CONFIDENCE;
	r->budget = s->threshold;
	if (anti_pattern_run(a, s->pattern, &f) < 0) {
		r->measured = false;
		return;
	}
	r->measured = true;
	r->actual = f.confidence;
	bool hit = f.confidence >= s->threshold;
	strbuf_addf(&sb, "%s confidence %.0f%% %s %.0f%%", s->pattern, floor(100 * f.confidence),
		    hit ? ">=" : "<", floor(100 * s->threshold + 1e-9));
	r->summary = strbuf_detach(&sb, NULL);
	if (hit) {
		strbuf_addf(&sb, "%s detected (confidence: %.0f%%)", anti_pattern_label(s->pattern),
			    floor(100 * f.confidence));
		ev_add(r, &sb);
	}
	for (size_t i = 0; i < f.nevidence; i++) {
		ev_take(r, f.evidence[i]);
		f.evidence[i] = NULL;
	}
	f.nevidence = 0;
	if (hit && f.recommendation) {
		r->recommendation = f.recommendation;
		f.recommendation = NULL;
	}
	ap_finding_release(&f);
	strbuf_release(&sb);
}

static const char *type_name(enum assert_type t)
{
	switch (t) {
	case AT_CRITICAL_PATH: return "critical_path";
	case AT_SPAN_COUNT: return "span_count";
	case AT_MEMORY_USAGE: return "memory_usage";
	case AT_ANTI_PATTERN: return "anti_pattern";
	}
	return "?";
}

int assert_eval_specs(const struct assert_spec *specs, size_t n, const struct analysis *a,
		      struct assert_results *res)
{
	int ret = 0;
	for (size_t i = 0; i < n; i++) {
		const struct assert_spec *s = &specs[i];
		ALLOC_GROW(res->r, res->n + 1, res->alloc);
		struct assert_result *r = &res->r[res->n++];
		memset(r, 0, sizeof(*r));
		r->name = s->name;
		r->type = type_name(s->type);
		r->fail_on_violation = s->fail_on_violation;
		r->measured = true;
		if (!s->enabled) {
			r->status = AS_SKIPPED;
			r->summary = xstrdup("disabled");
			switch (s->type) {
			case AT_CRITICAL_PATH: r->unit = AU_MS; r->budget = s->max_duration_ms; break;
			case AT_SPAN_COUNT: r->unit = AU_CALLS; r->budget = (double)s->max_spans; break;
			case AT_MEMORY_USAGE: r->unit = AU_BYTES; r->budget = (double)s->max_bytes; break;
			case AT_ANTI_PATTERN: r->unit = AU_CONFIDENCE; r->budget = s->threshold; break;
			}
			res->skipped++;
			continue;
		}
		switch (s->type) {
		case AT_CRITICAL_PATH: eval_critical_path(s, a, r); break;
		case AT_SPAN_COUNT: eval_span_count(s, a, r); break;
		case AT_MEMORY_USAGE: eval_memory(s, a, r); break;
		case AT_ANTI_PATTERN: eval_anti_pattern(s, a, r); break;
		default:
			ret = error("assertion '%s': unknown type", esc(s->name));
			break;
		}
		if (!r->summary) {   /* could not be evaluated (bad regex, unknown pattern) */
			r->summary = xstrdup("could not be evaluated");
			r->measured = false;
			ret = -1;
		}
		bool violated = !r->measured ||
			(r->unit == AU_CONFIDENCE ? r->actual >= r->budget : r->actual > r->budget);
		if (r->unit != AU_CONFIDENCE)
			r->regression_pct = r->budget > 0 ? (r->actual - r->budget) / r->budget * 100
							  : (r->actual > 0 ? INFINITY : 0);
		if (!violated) {
			r->status = AS_PASSED;
			res->passed++;
		} else if (s->fail_on_violation) {
			r->status = AS_FAILED;
			res->failed++;
		} else {
			r->status = AS_WARNING;
			res->warnings++;
		}
	}
	return ret;
}

void assert_results_release(struct assert_results *res)
{
	for (size_t i = 0; i < res->n; i++) {
		struct assert_result *r = &res->r[i];
		free(r->summary);
		for (size_t k = 0; k < r->nevidence; k++)
			free(r->evidence[k]);
		free(r->evidence);
		free(r->recommendation);
	}
	free(res->r);
	memset(res, 0, sizeof(*res));
}
