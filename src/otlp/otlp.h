/*
 * OpenTelemetry export: a run (live or read back from a saved trace) becomes
 * one OTLP trace, a span per process, thread and syscall, sent to a
 * collector over gRPC, HTTP/protobuf or HTTP/JSON while the program runs,
 * and/or written as OTLP JSON to a file.  docs/otlp.md is the user's view.
 */
#ifndef RENACER_OTLP_H
#define RENACER_OTLP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sink/sink.h"

struct config_otlp;

enum otlp_proto {
	OTLP_PROTO_GRPC = 0,
	OTLP_PROTO_HTTP_PROTOBUF,
	OTLP_PROTO_HTTP_JSON,
};

/* "grpc", "http/protobuf", "http/json". */
const char *otlp_proto_name(enum otlp_proto p);
/* The protocol called name, or -1. */
int otlp_proto_parse(const char *name);

struct otlp_kv {
	char *key;
	char *value;
};

/* A W3C trace context (traceparent and tracestate). */
struct otlp_context {
	uint8_t trace_id[16];
	uint8_t span_id[8];
	uint8_t flags;
	char *tracestate;        /* NULL when none */
};

/*
 * Parses a traceparent header value ("00-<32 hex>-<16 hex>-<2 hex>", W3C
 * Trace Context level 1; a later version may carry more fields after a
 * '-').  Returns 0, or -1 (nothing printed) when it is malformed, has an
 * all-zero id or version ff.  ctx->tracestate is left alone.
 */
int otlp_parse_traceparent(const char *s, struct otlp_context *ctx);

/* Appends "00-<trace id>-<span id>-<flags>" to sb. */
struct strbuf;
void otlp_format_traceparent(struct strbuf *sb, const uint8_t trace_id[16],
			     const uint8_t span_id[8], uint8_t flags);

/*
 * Parses a W3C-baggage-style list "k1=v1,k2=v2" (OTEL_RESOURCE_ATTRIBUTES,
 * OTEL_EXPORTER_OTLP_HEADERS): blanks around keys and values are dropped,
 * values are percent-decoded.  Appends to *kv (a key given again replaces
 * the value; keys are compared as is, or ignoring case when nocase).
 * Returns 0, or -1 with a reason in err (nothing appended) for an entry
 * with no '=', an empty key or a bad %-escape.
 */
int otlp_parse_kvlist(const char *s, bool nocase, struct otlp_kv **kv, size_t *n,
		      char *err, size_t errlen);

/* What the command line said; zero/NULL fields were not given. */
struct otlp_args {
	const char *endpoint;       /* --otlp URL */
	const char *protocol;       /* --otlp-protocol */
	const char *file;           /* --otlp-file FILE */
	const char *trace_parent;   /* --trace-parent */
	bool no_propagate;          /* --no-propagate */
	bool have_min_duration;
	uint64_t min_duration_us;   /* --otlp-min-duration */
	unsigned batch_size;        /* --otlp-batch-size, 0 = not given */
	bool force_send;            /* export to the configured endpoint even
				       without --otlp (renacer export) */
	bool implicit_cfg;          /* cfg is a renacer.toml found in the working
				       directory, not named on the command line:
				       its enabled = true turns export on only
				       toward an endpoint the environment names
				       (docs/ci.md) */
};

/* Everything the exporter needs, resolved from options, environment and file. */
struct otlp_settings {
	bool send;                  /* export over the network */
	char *endpoint;             /* as configured, for messages */
	const char *endpoint_from;  /* who named it: "--otlp",
				       "OTEL_EXPORTER_OTLP_ENDPOINT", ...,
				       "renacer.toml [otlp] endpoint", "the default" */
	char *url;                  /* the request URL */
	enum otlp_proto proto;
	struct otlp_kv *headers;    /* extra request headers */
	size_t nheaders;
	unsigned timeout_ms;        /* per batch, retries included; also the most
				       the run is ever held up by the exporter */
	bool gzip;                  /* compress request bodies */
	char *ca_file, *client_cert, *client_key;
	char *service_name;
	struct otlp_kv *resource;   /* OTEL_RESOURCE_ATTRIBUTES (service.name removed) */
	size_t nresource;
	uint64_t min_duration_ns;   /* syscall spans only for calls at least this long */
	unsigned batch_size;        /* most spans in one request */
	unsigned queue_size;        /* most spans waiting to be sent */
	unsigned schedule_delay_ms; /* a batch older than this is sent unfilled */
	char *file;                 /* OTLP JSON file to write, or NULL */
	bool patient;               /* wait for a collector that is slow but
				       working however long (renacer export:
				       no traced command to hold up) */
	bool propagate;             /* set TRACEPARENT for the command */
	bool have_parent;           /* the run's spans are children of parent */
	struct otlp_context parent;
};

/*
 * Resolves the settings.  Precedence, highest first: the command line (a),
 * the OTEL_* environment (read through getenv_fn, which may be NULL for
 * getenv), renacer.toml's [otlp] (cfg, may be NULL), the defaults.  Export
 * is on with a->endpoint, a->force_send or cfg->enabled (with
 * a->implicit_cfg only when the environment names the endpoint: else a
 * warning says it stays off); a file with a->file.  A bad command-line value or file value is an error (-1 after
 * error()); a bad environment value is a warning() and is ignored, as the
 * OpenTelemetry SDKs do.  Release with otlp_settings_release().
 */
int otlp_settings_resolve(struct otlp_settings *s, const struct otlp_args *a,
			  const struct config_otlp *cfg,
			  const char *(*getenv_fn)(const char *name));
void otlp_settings_release(struct otlp_settings *s);

/* True when the settings ask for any export (network or file). */
bool otlp_settings_active(const struct otlp_settings *s);

/*
 * The span sink.  It builds the spans of the run and hands them in batches
 * to a sender thread (network) and/or writes them to the file.  The
 * settings are copied.  Returns NULL after error() when the file cannot be
 * created.  Its end() reports network trouble with one warning() line and
 * still returns 0 (only a failed file write returns -1); it never waits
 * for the collector longer than s->timeout_ms in all.
 */
struct sink *otlp_sink_new(const struct otlp_settings *s);

/*
 * The traceparent the traced command should get (its process span as the
 * parent), e.g. "00-4bf9...-00f0...-01", valid before the run starts.
 * NULL when propagation is off.  The string belongs to the sink.
 */
const char *otlp_sink_traceparent(struct sink *s);

/* Counters of what an OTLP sink did (for tests and messages). */
struct otlp_stats {
	uint64_t spans;             /* spans built */
	uint64_t exported;          /* spans the collector accepted */
	uint64_t rejected;          /* spans a partial success rejected */
	uint64_t dropped;           /* spans never sent (failure, queue, timeout) */
	uint64_t requests, retries;
};
void otlp_sink_stats(struct sink *s, struct otlp_stats *st);

#endif
