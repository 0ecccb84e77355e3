/* The OpenTelemetry options and sink of the trace command (see otlp_cli.h). */
#include "cli/otlp_cli.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config/config.h"
#include "golden/golden.h"
#include "golden/output.h"
#include "otlp/spancmp.h"
#include "util/error.h"
#include "util/quote.h"
#include "util/strbuf.h"
#include "util/banned.h"

static int parse_u64(const char *s, uint64_t max, uint64_t *out)
{
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(s, &end, 10);
	if (!*s || *end || errno || *s == '-' || v > max)
		return -1;
	*out = v;
	return 0;
}

int otlp_cli_option(struct otlp_args *a, int opt, const char *arg)
{
	uint64_t v;

	switch (opt) {
	case OPT_OTLP:
		a->endpoint = arg;
		return 1;
	case OPT_OTLP_PROTOCOL:
		if (otlp_proto_parse(arg) < 0)
			return error("unknown OTLP protocol '%s' (expected grpc, http/protobuf or http/json)", esc(arg));
		a->protocol = arg;
		return 1;
	case OPT_OTLP_FILE:
		a->file = arg;
		return 1;
	case OPT_OTLP_MIN_DURATION:
		if (parse_u64(arg, UINT64_MAX / 1000, &v) < 0)
			return error("invalid minimum span duration '%s' (microseconds, an integer >= 0)", esc(arg));
		a->have_min_duration = true;
		a->min_duration_us = v;
		return 1;
	case OPT_OTLP_BATCH_SIZE:
		if (parse_u64(arg, 65536, &v) < 0 || v == 0)
			return error("invalid OTLP batch size '%s' (an integer from 1 to 65536)", esc(arg));
		a->batch_size = (unsigned)v;
		return 1;
	case OPT_TRACE_PARENT: {
		struct otlp_context c;
		if (otlp_parse_traceparent(arg, &c) < 0)
			return error("invalid trace parent '%s' (expected 00-<32 hex>-<16 hex>-<2 hex>)", esc(arg));
		a->trace_parent = arg;
		return 1;
	}
	case OPT_NO_PROPAGATE:
		a->no_propagate = true;
		return 1;
	}
	return 0;
}

int otlp_cli_add_sink(const struct otlp_args *a, const struct renacer_config *cfg,
		      bool set_env, struct sink_list *sinks)
{
	struct otlp_settings s;
	struct sink *sk;
	const char *tp;

	if (otlp_settings_resolve(&s, a, cfg ? &cfg->otlp : NULL, NULL) < 0)
		return -1;
	if (!otlp_settings_active(&s)) {
		otlp_settings_release(&s);
		return 0;
	}
	sk = otlp_sink_new(&s);
	if (sk)
		otlp_cli_say_where(&s);
	otlp_settings_release(&s);
	if (!sk)
		return -1;
	sink_list_add(sinks, sk);
	if (set_env && (tp = otlp_sink_traceparent(sk)) && setenv("TRACEPARENT", tp, 1) < 0)
		return error("cannot set TRACEPARENT: %s", strerror(errno));
	return 0;
}

void otlp_cli_say_where(const struct otlp_settings *s)
{
	if (!s->send)
		return;
	/* (gRPC's URL path is always the same: the endpoint says it) */
	fprintf(stderr, "renacer: OTLP export to '%s' (%s, endpoint from %s)\n",
		esc(s->proto == OTLP_PROTO_GRPC ? s->endpoint : s->url), otlp_proto_name(s->proto),
		s->endpoint_from ? s->endpoint_from : "?");
}

static struct strbuf quiet_msgs = STRBUF_INIT;

static void quiet_hook(const char *kind, const char *msg)
{
	if (!*kind && !quiet_msgs.len)
		strbuf_addstr(&quiet_msgs, msg);
}

bool otlp_cli_implicit_config(struct renacer_config *cfg)
{
	struct stat st;
	int r;

	if (stat("renacer.toml", &st) < 0 || !S_ISREG(st.st_mode))
		return false;
	strbuf_reset(&quiet_msgs);
	error_set_hook(quiet_hook);
	r = config_load("renacer.toml", cfg);
	error_set_hook(NULL);
	if (r < 0) {
		struct strbuf text = STRBUF_INIT;
		/* a file with no [otlp] table is none of the trace command's business */
		if (strbuf_read_file(&text, "renacer.toml") == 0 && strstr(text.buf, "[otlp"))
			warning("ignoring renacer.toml's [otlp]: %s", quiet_msgs.buf);
		strbuf_release(&text);
		config_init(cfg);
		strbuf_release(&quiet_msgs);
		return false;
	}
	strbuf_release(&quiet_msgs);
	return true;
}

int otlp_cli_compare(const struct golden_opts *go, int gfmt, const char *before,
		     const char *after)
{
	struct spancmp_opts o;
	enum spanfile_kind ka = spanfile_kind(before), kb = spanfile_kind(after);

	if (!ka || !kb) {
		const char *other = ka ? after : before;
		if (access(other, R_OK) < 0)
			return error("cannot read '%s': %s", esc(other), strerror(errno)),
			       errno == ENOENT ? SPANCMP_MISSING : SPANCMP_UNREADABLE;
		error("cannot compare '%s' (%s) with '%s' (%s): both must be span exports or both renacer traces",
		      esc(before), spanfile_kind_name(ka), esc(after), spanfile_kind_name(kb));
		return 5;
	}
	if (gfmt == GFMT_JUNIT) {
		error("--format junit is not available for span exports (text, json or markdown)");
		return 5;
	}
	memset(&o, 0, sizeof(o));
	o.fmt = gfmt == GFMT_JSON ? SPANCMP_JSON : gfmt == GFMT_MARKDOWN ? SPANCMP_MARKDOWN : SPANCMP_TEXT;
	o.count_tolerance = go->count_tolerance;
	o.check_timing = go->check_timing;
	o.time_tolerance = go->time_tolerance;
	o.time_floor_ms = go->time_floor_ms;
	return spancmp_files(before, after, &o, stdout);
}
