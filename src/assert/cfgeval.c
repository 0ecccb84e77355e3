/*
 * The seam between renacer.toml (src/config) and the assertion engine:
 * turns [[assertion]] entries into specs, evaluates and reports them.
 */
#include <stdlib.h>

#include "assert/internal.h"
#include "config/config.h"
#include "util/xmalloc.h"
#include "util/banned.h"

static enum assert_type spec_type(enum assertion_type t)
{
	switch (t) {
	case ASSERTION_CRITICAL_PATH: return AT_CRITICAL_PATH;
	case ASSERTION_SPAN_COUNT: return AT_SPAN_COUNT;
	case ASSERTION_MEMORY_USAGE: return AT_MEMORY_USAGE;
	case ASSERTION_ANTI_PATTERN: return AT_ANTI_PATTERN;
	}
	return (enum assert_type)0;
}

int assert_eval(const struct renacer_config *cfg, const char *trace, const struct analysis *a,
		struct assert_results *res)
{
	size_t n = 0, all = cfg ? cfg->nassertions : 0;
	struct assert_spec *specs = xcalloc(all + 1, sizeof(*specs));
	for (size_t i = 0; i < all; i++) {
		const struct config_assertion *c = &cfg->assertions[i];
		struct assert_spec *s = &specs[n];
		if (!config_assertion_applies(c, trace))
			continue;
		n++;
		s->name = c->name;
		s->type = spec_type(c->type);
		s->enabled = c->enabled;
		s->fail_on_violation = c->fail_on_violation;
		s->max_duration_ms = c->max_duration_ms;
		s->trace_name_pattern = c->trace_name_pattern;
		s->max_spans = c->max_spans;
		s->span_name_pattern = c->span_name_pattern;
		s->max_bytes = c->max_bytes;
		s->tracking_mode = c->tracking_mode == TRACKING_RSS ? TM_RSS : TM_ALLOCATIONS;
		s->pattern = c->pattern_name ? c->pattern_name : config_anti_pattern_name(c->pattern);
		s->threshold = c->threshold;
		s->regex_cost = cfg->limits.regex_cost;
	}
	int r = assert_eval_specs(specs, n, a, res);
	free(specs);
	return r;
}

bool assert_needs_rss(const struct renacer_config *cfg)
{
	for (size_t i = 0; cfg && i < cfg->nassertions; i++) {
		const struct config_assertion *c = &cfg->assertions[i];
		if (c->enabled && c->type == ASSERTION_MEMORY_USAGE && c->tracking_mode == TRACKING_RSS)
			return true;
	}
	return false;
}

bool assert_counts_only(const struct renacer_config *cfg)
{
	for (size_t i = 0; cfg && i < cfg->nassertions; i++)
		if (cfg->assertions[i].enabled && cfg->assertions[i].type != ASSERTION_SPAN_COUNT)
			return false;
	return true;
}

int assert_report(const struct renacer_config *cfg, const char *trace, const struct analysis *a,
		  enum output_format fmt, FILE *out, const char *source)
{
	struct assert_results res = ASSERT_RESULTS_INIT;
	struct strbuf sb = STRBUF_INIT;
	int ret;
	if (assert_eval(cfg, trace, a, &res) < 0) {
		assert_results_release(&res);
		return -1;
	}
	assert_format(&res, fmt, source, &sb);
	ret = assert_write_out(out, &sb) < 0 ? ASSERT_WRITE_FAILED : assert_exit_status(&res);
	strbuf_release(&sb);
	assert_results_release(&res);
	return ret;
}
