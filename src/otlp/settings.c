/*
 * Where the spans go and how: the command line, the OTEL_* environment and
 * renacer.toml's [otlp] resolved into one struct otlp_settings; W3C trace
 * context and key=value lists parsed.
 */
#include "otlp/otlp.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "config/config.h"
#include "util/error.h"
#include "util/quote.h"
#include "util/strbuf.h"
#include "util/xmalloc.h"
#include "util/banned.h"

#define DEFAULT_TIMEOUT_MS 10000
#define DEFAULT_BATCH 512
#define DEFAULT_QUEUE 2048
#define DEFAULT_DELAY_MS 5000
#define MAX_BATCH 65536

static const char *const proto_names[] = { "grpc", "http/protobuf", "http/json" };

const char *otlp_proto_name(enum otlp_proto p)
{
	return (unsigned)p < 3 ? proto_names[p] : "?";
}

int otlp_proto_parse(const char *name)
{
	for (int i = 0; i < 3; i++)
		if (!strcmp(name, proto_names[i]))
			return i;
	return -1;
}

/* ---- W3C trace context ---- */

static int hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;    /* traceparent is lowercase hex only */
}

static int parse_hex(const char *s, uint8_t *out, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		int hi = hexval((unsigned char)s[2 * i]), lo = hexval((unsigned char)s[2 * i + 1]);
		if (hi < 0 || lo < 0)
			return -1;
		out[i] = (uint8_t)(hi << 4 | lo);
	}
	return 0;
}

static bool zero(const uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (p[i])
			return false;
	return true;
}

int otlp_parse_traceparent(const char *s, struct otlp_context *ctx)
{
	uint8_t ver;
	size_t len = strlen(s);

	/* vv-<32>-<16>-ff: 55 characters; later versions may append "-..." */
	if (len < 55 || s[2] != '-' || s[35] != '-' || s[52] != '-')
		return -1;
	if (parse_hex(s, &ver, 1) < 0 || ver == 0xff)
		return -1;
	if (ver == 0 && len != 55)
		return -1;
	if (len > 55 && s[55] != '-')
		return -1;
	if (parse_hex(s + 3, ctx->trace_id, 16) < 0 || parse_hex(s + 36, ctx->span_id, 8) < 0 ||
	    parse_hex(s + 53, &ctx->flags, 1) < 0)
		return -1;
	if (zero(ctx->trace_id, 16) || zero(ctx->span_id, 8))
		return -1;
	return 0;
}

void otlp_format_traceparent(struct strbuf *sb, const uint8_t trace_id[16],
			     const uint8_t span_id[8], uint8_t flags)
{
	static const char hex[] = "0123456789abcdef";

	strbuf_addstr(sb, "00-");
	for (int i = 0; i < 16; i++) {
		strbuf_addch(sb, hex[trace_id[i] >> 4]);
		strbuf_addch(sb, hex[trace_id[i] & 15]);
	}
	strbuf_addch(sb, '-');
	for (int i = 0; i < 8; i++) {
		strbuf_addch(sb, hex[span_id[i] >> 4]);
		strbuf_addch(sb, hex[span_id[i] & 15]);
	}
	strbuf_addf(sb, "-%02x", flags);
}

/* ---- key=value lists ---- */

static char *trim_dup(const char *p, size_t n)
{
	while (n && isspace((unsigned char)*p))
		p++, n--;
	while (n && isspace((unsigned char)p[n - 1]))
		n--;
	return xstrndup(p, n);
}

/* Percent-decodes s in place; -1 on a bad escape. */
static int pct_decode(char *s)
{
	char *w = s;

	for (char *r = s; *r; r++) {
		if (*r == '%') {
			int hi, lo;
			if (!isxdigit((unsigned char)r[1]) || !isxdigit((unsigned char)r[2]))
				return -1;
			hi = isdigit((unsigned char)r[1]) ? r[1] - '0' : (tolower((unsigned char)r[1]) - 'a' + 10);
			lo = isdigit((unsigned char)r[2]) ? r[2] - '0' : (tolower((unsigned char)r[2]) - 'a' + 10);
			*w++ = (char)(hi << 4 | lo);
			r += 2;
		} else {
			*w++ = *r;
		}
	}
	*w = '\0';
	return 0;
}

static void kv_set(struct otlp_kv **kv, size_t *n, char *key, char *value, bool nocase)
{
	for (size_t i = 0; i < *n; i++)
		if (nocase ? !strcasecmp((*kv)[i].key, key) : !strcmp((*kv)[i].key, key)) {
			free((*kv)[i].value);
			(*kv)[i].value = value;
			free(key);
			return;
		}
	*kv = xreallocarray(*kv, *n + 1, sizeof(**kv));
	(*kv)[*n].key = key;
	(*kv)[*n].value = value;
	(*n)++;
}

static void kv_free(struct otlp_kv *kv, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(kv[i].key);
		free(kv[i].value);
	}
	free(kv);
}

int otlp_parse_kvlist(const char *s, bool nocase, struct otlp_kv **kv, size_t *n,
		      char *err, size_t errlen)
{
	struct otlp_kv *tmp = NULL;
	size_t ntmp = 0;
	const char *p = s;

	while (*p) {
		const char *end = strchr(p, ','), *eq;
		size_t len = end ? (size_t)(end - p) : strlen(p);
		char *key, *val;

		eq = memchr(p, '=', len);
		if (!eq) {
			char *ent = trim_dup(p, len);
			if (!*ent && end) {   /* tolerate "a=1,,b=2" and a trailing comma */
				free(ent);
				p = end + 1;
				continue;
			}
			if (!*ent) {
				free(ent);
				break;
			}
			snprintf(err, errlen, "entry '%s' has no '='", esc(ent));
			free(ent);
			goto bad;
		}
		key = trim_dup(p, (size_t)(eq - p));
		val = trim_dup(eq + 1, len - (size_t)(eq - p) - 1);
		if (!*key || pct_decode(key) < 0 || pct_decode(val) < 0) {
			snprintf(err, errlen, !*key ? "an entry has an empty key"
					     : "bad percent-escape in entry '%s'", esc(key));
			free(key);
			free(val);
			goto bad;
		}
		kv_set(&tmp, &ntmp, key, val, nocase);
		if (!end)
			break;
		p = end + 1;
	}
	for (size_t i = 0; i < ntmp; i++)
		kv_set(kv, n, tmp[i].key, tmp[i].value, nocase);
	free(tmp);
	return 0;
bad:
	kv_free(tmp, ntmp);
	return -1;
}

/* ---- endpoints ---- */

/* Checks url: http(s)://host[:port][/path]; returns the port (0 default) or -1. */
static int url_port(const char *url, const char **path)
{
	const char *h, *end, *colon;
	long port = 0;

	if (!strncmp(url, "http://", 7))
		h = url + 7;
	else if (!strncmp(url, "https://", 8))
		h = url + 8;
	else
		return -1;
	end = h + strcspn(h, "/?#");
	if (end == h)
		return -1;
	if (*h == '[') {                  /* [::1]:4317 */
		const char *rb = memchr(h, ']', (size_t)(end - h));
		if (!rb)
			return -1;
		colon = rb[1] == ':' ? rb + 1 : NULL;
	} else {
		colon = memchr(h, ':', (size_t)(end - h));
		if (colon == h)
			return -1;
	}
	if (colon) {
		char *e;
		if (colon + 1 == end)
			return -1;
		errno = 0;
		port = strtol(colon + 1, &e, 10);
		if (e != end || errno || port <= 0 || port > 65535)
			return -1;
	}
	if (memchr(h, ' ', (size_t)(end - h)))
		return -1;
	if (path)
		*path = end;
	return (int)port;
}

/* scheme://authority of url. */
static void add_origin(struct strbuf *sb, const char *url)
{
	const char *h = strstr(url, "://") + 3;
	strbuf_add(sb, url, (size_t)(h - url) + strcspn(h, "/?#"));
}

/*
 * The request URL: gRPC calls the service method on the endpoint's origin;
 * HTTP posts to the endpoint as given when it is signal-specific (exact),
 * else to its path + "/v1/traces" (a path already ending so is kept).
 */
static char *request_url(const char *endpoint, enum otlp_proto proto, bool exact)
{
	struct strbuf sb = STRBUF_INIT;
	const char *path = NULL;
	size_t plen;

	url_port(endpoint, &path);
	if (proto == OTLP_PROTO_GRPC) {
		add_origin(&sb, endpoint);
		strbuf_addstr(&sb, "/opentelemetry.proto.collector.trace.v1.TraceService/Export");
		return strbuf_detach(&sb, NULL);
	}
	plen = strcspn(path, "?#");
	if (exact || (plen >= 10 && !strncmp(path + plen - 10, "/v1/traces", 10))) {
		strbuf_addstr(&sb, endpoint);
		return strbuf_detach(&sb, NULL);
	}
	strbuf_add(&sb, endpoint, (size_t)(path - endpoint));
	strbuf_add(&sb, path, plen);
	if (!sb.len || sb.buf[sb.len - 1] != '/')
		strbuf_addch(&sb, '/');
	strbuf_addstr(&sb, "v1/traces");
	strbuf_addstr(&sb, path + plen);
	return strbuf_detach(&sb, NULL);
}

/* ---- resolution ---- */

static const char *env(const char *(*g)(const char *), const char *name)
{
	const char *v = g ? g(name) : getenv(name);
	return v && *v ? v : NULL;
}

/* The signal-specific variable, else the general one; *which names it. */
static const char *env2(const char *(*g)(const char *), const char *what, const char **which)
{
	static __thread char name[96];
	const char *v;

	snprintf(name, sizeof(name), "OTEL_EXPORTER_OTLP_TRACES_%s", what);
	if ((v = env(g, name))) {
		*which = name;
		return v;
	}
	snprintf(name, sizeof(name), "OTEL_EXPORTER_OTLP_%s", what);
	*which = name;
	return env(g, name);
}

static int env_uint(const char *(*g)(const char *), const char *name, unsigned long min,
		    unsigned long max, unsigned long *out)
{
	const char *v = env(g, name);
	char *e;
	unsigned long n;

	if (!v)
		return 0;
	errno = 0;
	n = strtoul(v, &e, 10);
	if (*e || errno || n < min || n > max || *v == '-') {
		warning("ignoring %s='%s': not an integer between %lu and %lu", name, esc(v), min, max);
		return 0;
	}
	*out = n;
	return 1;
}

void otlp_settings_release(struct otlp_settings *s)
{
	free(s->endpoint);
	free(s->url);
	kv_free(s->headers, s->nheaders);
	free(s->ca_file);
	free(s->client_cert);
	free(s->client_key);
	free(s->service_name);
	kv_free(s->resource, s->nresource);
	free(s->file);
	free(s->parent.tracestate);
	memset(s, 0, sizeof(*s));
}

bool otlp_settings_active(const struct otlp_settings *s)
{
	return s->send || s->file;
}

static int resolve_endpoint(struct otlp_settings *s, const struct otlp_args *a,
			    const struct config_otlp *cfg, const char *(*g)(const char *),
			    int proto, bool *exact)
{
	const char *ep = NULL, *v;

	*exact = false;
	if (a->endpoint) {
		if (url_port(a->endpoint, NULL) < 0)
			return error("invalid OTLP endpoint '%s' (expected http://HOST[:PORT][/PATH] or https://...)",
				     esc(a->endpoint));
		ep = a->endpoint;
		s->endpoint_from = "--otlp";
	}
	if (!ep && (v = env(g, "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"))) {
		if (url_port(v, NULL) < 0)
			warning("ignoring OTEL_EXPORTER_OTLP_TRACES_ENDPOINT='%s': not an http:// or https:// URL", esc(v));
		else
			ep = v, *exact = true, s->endpoint_from = "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT";
	}
	if (!ep && (v = env(g, "OTEL_EXPORTER_OTLP_ENDPOINT"))) {
		if (url_port(v, NULL) < 0)
			warning("ignoring OTEL_EXPORTER_OTLP_ENDPOINT='%s': not an http:// or https:// URL", esc(v));
		else
			ep = v, s->endpoint_from = "OTEL_EXPORTER_OTLP_ENDPOINT";
	}
	if (!ep && cfg && cfg->endpoint_given) {
		if (url_port(cfg->endpoint, NULL) < 0)
			return error("invalid OTLP endpoint '%s' in [otlp]", esc(cfg->endpoint));
		ep = cfg->endpoint;
		s->endpoint_from = "renacer.toml [otlp] endpoint";
	}
	if (!ep) {
		ep = proto == OTLP_PROTO_GRPC ? "http://localhost:4317" : "http://localhost:4318";
		s->endpoint_from = "the default";
	}
	s->endpoint = xstrdup(ep);
	return 0;
}

int otlp_settings_resolve(struct otlp_settings *s, const struct otlp_args *a,
			  const struct config_otlp *cfg, const char *(*g)(const char *))
{
	const char *v, *which;
	int proto = -1;
	bool exact;
	unsigned long n;
	char err[256];

	memset(s, 0, sizeof(*s));
	s->timeout_ms = DEFAULT_TIMEOUT_MS;
	s->gzip = true;
	s->batch_size = DEFAULT_BATCH;
	s->queue_size = DEFAULT_QUEUE;
	s->schedule_delay_ms = DEFAULT_DELAY_MS;
	s->propagate = !a->no_propagate;

	/* protocol: option, environment, file; else from the endpoint's port */
	if (a->protocol) {
		proto = otlp_proto_parse(a->protocol);
		if (proto < 0)
			return error("unknown OTLP protocol '%s' (expected grpc, http/protobuf or http/json)",
				     esc(a->protocol));
	}
	if (proto < 0 && (v = env2(g, "PROTOCOL", &which))) {
		proto = otlp_proto_parse(v);
		if (proto < 0)
			warning("ignoring %s='%s': expected grpc, http/protobuf or http/json", which, esc(v));
	}
	if (proto < 0 && cfg && cfg->protocol_given)
		proto = cfg->protocol == OTLP_GRPC ? OTLP_PROTO_GRPC
			: cfg->protocol == OTLP_HTTP_JSON ? OTLP_PROTO_HTTP_JSON
			: OTLP_PROTO_HTTP_PROTOBUF;
	if (resolve_endpoint(s, a, cfg, g, proto, &exact) < 0)
		goto fail;
	if (proto < 0)
		proto = url_port(s->endpoint, NULL) == 4317 ? OTLP_PROTO_GRPC : OTLP_PROTO_HTTP_PROTOBUF;
	s->proto = (enum otlp_proto)proto;
	s->url = request_url(s->endpoint, s->proto, exact);
	s->send = a->endpoint || a->force_send;
	if (!s->send && cfg && cfg->enabled) {
		/* a renacer.toml the command line did not name (a checked-out
		 * repository's) cannot send spans where it likes: only toward
		 * an endpoint the environment names (docs/ci.md) */
		if (!a->implicit_cfg || !strncmp(s->endpoint_from, "OTEL_", 5))
			s->send = true;
		else
			warning("ignoring [otlp] enabled = true of the renacer.toml found here: "
				"a renacer.toml the command line does not name cannot turn export "
				"on by itself (--otlp URL, OTEL_EXPORTER_OTLP_ENDPOINT or "
				"--assert renacer.toml can)");
	}
	s->patient = a->force_send;

	/* headers: file, then the environment (the traces variable last) */
	if (cfg)
		for (size_t i = 0; i < cfg->nheaders; i++)
			kv_set(&s->headers, &s->nheaders, xstrdup(cfg->headers[i].name),
			       xstrdup(cfg->headers[i].value), true);
	if ((v = env(g, "OTEL_EXPORTER_OTLP_HEADERS")) &&
	    otlp_parse_kvlist(v, true, &s->headers, &s->nheaders, err, sizeof(err)) < 0)
		warning("ignoring OTEL_EXPORTER_OTLP_HEADERS: %s", err);
	if ((v = env(g, "OTEL_EXPORTER_OTLP_TRACES_HEADERS")) &&
	    otlp_parse_kvlist(v, true, &s->headers, &s->nheaders, err, sizeof(err)) < 0)
		warning("ignoring OTEL_EXPORTER_OTLP_TRACES_HEADERS: %s", err);
	for (size_t i = 0; i < s->nheaders; i++)
		if (strpbrk(s->headers[i].key, ": \t\r\n") || strpbrk(s->headers[i].value, "\r\n")) {
			warning("ignoring OTLP header '%s': bad characters in it", esc(s->headers[i].key));
			free(s->headers[i].key);
			free(s->headers[i].value);
			memmove(&s->headers[i], &s->headers[i + 1], (s->nheaders - i - 1) * sizeof(*s->headers));
			s->nheaders--;
			i--;
		}

	/* timeout: environment, then file */
	if (cfg && cfg->timeout_ms)
		s->timeout_ms = cfg->timeout_ms;
	n = s->timeout_ms;
	if (env_uint(g, "OTEL_EXPORTER_OTLP_TRACES_TIMEOUT", 1, 600000, &n) ||
	    env_uint(g, "OTEL_EXPORTER_OTLP_TIMEOUT", 1, 600000, &n))
		s->timeout_ms = (unsigned)n;

	if ((v = env2(g, "COMPRESSION", &which))) {
		if (!strcmp(v, "none"))
			s->gzip = false;
		else if (strcmp(v, "gzip"))
			warning("ignoring %s='%s': expected gzip or none", which, esc(v));
	}
	if ((v = env2(g, "CERTIFICATE", &which)))
		s->ca_file = xstrdup(v);
	if ((v = env2(g, "CLIENT_CERTIFICATE", &which)))
		s->client_cert = xstrdup(v);
	if ((v = env2(g, "CLIENT_KEY", &which)))
		s->client_key = xstrdup(v);

	/* resource: OTEL_RESOURCE_ATTRIBUTES; service.name from
	 * OTEL_SERVICE_NAME, then that list, then the file, then "renacer" */
	if ((v = env(g, "OTEL_RESOURCE_ATTRIBUTES")) &&
	    otlp_parse_kvlist(v, false, &s->resource, &s->nresource, err, sizeof(err)) < 0)
		warning("ignoring OTEL_RESOURCE_ATTRIBUTES: %s", err);
	for (size_t i = 0; i < s->nresource; i++)
		if (!strcmp(s->resource[i].key, "service.name")) {
			s->service_name = s->resource[i].value;
			free(s->resource[i].key);
			memmove(&s->resource[i], &s->resource[i + 1], (s->nresource - i - 1) * sizeof(*s->resource));
			s->nresource--;
			break;
		}
	if ((v = env(g, "OTEL_SERVICE_NAME"))) {
		free(s->service_name);
		s->service_name = xstrdup(v);
	}
	if (!s->service_name)
		s->service_name = xstrdup(cfg && cfg->service_name ? cfg->service_name : "renacer");

	/* volume */
	if (cfg && cfg->batch_size)
		s->batch_size = cfg->batch_size;
	if (env_uint(g, "OTEL_BSP_MAX_EXPORT_BATCH_SIZE", 1, MAX_BATCH, &n))
		s->batch_size = (unsigned)n;
	if (a->batch_size) {
		if (a->batch_size > MAX_BATCH) {
			error("OTLP batch size %u is too large (at most %d)", a->batch_size, MAX_BATCH);
			goto fail;
		}
		s->batch_size = a->batch_size;
	}
	if (env_uint(g, "OTEL_BSP_MAX_QUEUE_SIZE", 1, 1u << 22, &n))
		s->queue_size = (unsigned)n;
	if (s->queue_size < s->batch_size)
		s->queue_size = s->batch_size;
	if (env_uint(g, "OTEL_BSP_SCHEDULE_DELAY", 0, 3600000, &n))
		s->schedule_delay_ms = (unsigned)n;
	if (cfg && cfg->min_duration_us_given)
		s->min_duration_ns = cfg->min_duration_us * 1000;
	if (a->have_min_duration)
		s->min_duration_ns = a->min_duration_us * 1000;

	/* parent: --trace-parent, else TRACEPARENT (and TRACESTATE) */
	if (a->trace_parent) {
		if (otlp_parse_traceparent(a->trace_parent, &s->parent) < 0) {
			error("invalid trace parent '%s' (expected 00-<32 hex>-<16 hex>-<2 hex>)",
			      esc(a->trace_parent));
			goto fail;
		}
		s->have_parent = true;
	} else if ((v = env(g, "TRACEPARENT"))) {
		if (otlp_parse_traceparent(v, &s->parent) < 0)
			warning("ignoring TRACEPARENT='%s': not a W3C traceparent", esc(v));
		else
			s->have_parent = true;
	}
	if (s->have_parent && (v = env(g, "TRACESTATE")))
		s->parent.tracestate = xstrdup(v);

	if (a->file)
		s->file = xstrdup(a->file);
	return 0;
fail:
	otlp_settings_release(s);
	return -1;
}
