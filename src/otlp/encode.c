/*
 * A batch of spans as an OTLP ExportTraceServiceRequest: protobuf (the
 * opentelemetry/proto/trace/v1 messages) and OTLP JSON (protobuf's JSON
 * mapping with OTLP's exceptions: trace and span ids in hex, enums as
 * integers; 64-bit integers are strings as in any proto3 JSON).
 */
#include "otlp/internal.h"
#include "otlp/pb.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/xmalloc.h"
#include "util/banned.h"

/* The semantic conventions the attribute names follow. */
#define SCHEMA_URL "https://opentelemetry.io/schemas/1.33.0"

void otlp_batch_reset(struct otlp_batch *b)
{
	b->n = 0;
	b->first_ns = 0;
	arena_reset(&b->arena);
}

void otlp_batch_free(struct otlp_batch *b)
{
	if (!b)
		return;
	free(b->spans);
	arena_release(&b->arena);
	free(b);
}

void otlp_add_hex(struct strbuf *sb, const uint8_t *p, size_t n)
{
	static const char hex[] = "0123456789abcdef";

	strbuf_grow(sb, 2 * n);
	for (size_t i = 0; i < n; i++) {
		sb->buf[sb->len++] = hex[p[i] >> 4];
		sb->buf[sb->len++] = hex[p[i] & 15];
	}
	sb->buf[sb->len] = '\0';
}

static bool all_zero(const uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (p[i])
			return false;
	return true;
}

/* ---- protobuf ---- */

/* AnyValue fields */
enum { AV_STRING = 1, AV_BOOL = 2, AV_INT = 3, AV_DOUBLE = 4, AV_ARRAY = 5 };

static void pb_anyvalue(struct strbuf *sb, unsigned field, const struct otlp_attr *a)
{
	size_t v = pb_begin(sb, field);

	switch (a->type) {
	case OA_STR:
		pb_bytes(sb, AV_STRING, a->s.p, a->s.len);
		break;
	case OA_INT:
		pb_int64(sb, AV_INT, a->i);
		break;
	case OA_DOUBLE:
		pb_double(sb, AV_DOUBLE, a->d);
		break;
	case OA_BOOL:
		pb_uint(sb, AV_BOOL, a->b);
		break;
	case OA_STRARR: {
		size_t arr = pb_begin(sb, AV_ARRAY);
		for (uint32_t i = 0; i < a->arr.n; i++) {
			size_t e = pb_begin(sb, 1);      /* ArrayValue.values */
			pb_string(sb, AV_STRING, a->arr.p[i]);
			pb_end(sb, e);
		}
		pb_end(sb, arr);
		break;
	}
	}
	pb_end(sb, v);
}

/* repeated KeyValue attributes = field */
static void pb_attrs(struct strbuf *sb, unsigned field, const struct otlp_attr *a, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++) {
		size_t kv = pb_begin(sb, field);
		pb_string(sb, 1, a[i].key);
		pb_anyvalue(sb, 2, &a[i]);
		pb_end(sb, kv);
	}
}

static void pb_span(struct strbuf *sb, const struct otlp_resource *res, const struct otlp_span *s)
{
	size_t m = pb_begin(sb, 2);                  /* ScopeSpans.spans */

	pb_bytes(sb, 1, res->trace_id, 16);
	pb_bytes(sb, 2, s->span_id, 8);
	if (res->tracestate && (s->flags & 0x200))
		pb_string(sb, 3, res->tracestate);
	if (!all_zero(s->parent_id, 8))
		pb_bytes(sb, 4, s->parent_id, 8);
	pb_string(sb, 5, s->name);
	pb_uint(sb, 6, OTLP_KIND_INTERNAL);
	pb_fixed64(sb, 7, s->start_ns);
	pb_fixed64(sb, 8, s->end_ns);
	pb_attrs(sb, 9, s->attrs, s->nattrs);
	for (uint32_t i = 0; i < s->nevents; i++) {
		const struct otlp_event *e = &s->events[i];
		size_t em = pb_begin(sb, 11);
		pb_fixed64(sb, 1, e->time_ns);
		pb_string(sb, 2, e->name);
		pb_attrs(sb, 3, e->attrs, e->nattrs);
		pb_end(sb, em);
	}
	if (s->dropped_events)
		pb_uint(sb, 12, s->dropped_events);
	if (s->status != OTLP_STATUS_UNSET) {
		size_t st = pb_begin(sb, 15);
		if (s->status_msg)
			pb_string(sb, 2, s->status_msg);
		pb_uint(sb, 3, s->status);
		pb_end(sb, st);
	}
	pb_fixed32(sb, 16, s->flags);
	pb_end(sb, m);
}

void otlp_encode_pb(struct strbuf *sb, const struct otlp_resource *res,
		    const struct otlp_batch *b)
{
	size_t rs = pb_begin(sb, 1);                 /* resource_spans */
	size_t r = pb_begin(sb, 1);                  /* resource */
	pb_attrs(sb, 1, res->attrs, res->nattrs);
	pb_end(sb, r);
	size_t ss = pb_begin(sb, 2);                 /* scope_spans */
	size_t sc = pb_begin(sb, 1);                 /* scope */
	pb_string(sb, 1, res->scope_name);
	pb_string(sb, 2, res->scope_version);
	pb_end(sb, sc);
	for (size_t i = 0; i < b->n; i++)
		pb_span(sb, res, &b->spans[i]);
	pb_string(sb, 3, SCHEMA_URL);
	pb_end(sb, ss);
	pb_string(sb, 3, SCHEMA_URL);
	pb_end(sb, rs);
}

/* ---- JSON ---- */

static void json_str(struct strbuf *sb, const char *p, size_t len)
{
	strbuf_add_json_str(sb, p, len);
}

static void json_anyvalue(struct strbuf *sb, const struct otlp_attr *a)
{
	switch (a->type) {
	case OA_STR:
		strbuf_addstr(sb, "{\"stringValue\":");
		json_str(sb, a->s.p, a->s.len);
		strbuf_addch(sb, '}');
		break;
	case OA_INT:
		strbuf_addstr(sb, "{\"intValue\":\"");
		strbuf_add_i64(sb, a->i);
		strbuf_addstr(sb, "\"}");
		break;
	case OA_DOUBLE:
		/* JSON has no NaN or infinities: proto3 JSON writes them as strings */
		if (isnan(a->d))
			strbuf_addstr(sb, "{\"doubleValue\":\"NaN\"}");
		else if (isinf(a->d))
			strbuf_addstr(sb, a->d > 0 ? "{\"doubleValue\":\"Infinity\"}"
					     : "{\"doubleValue\":\"-Infinity\"}");
		else
			strbuf_addf(sb, "{\"doubleValue\":%.17g}", a->d);
		break;
	case OA_BOOL:
		strbuf_addstr(sb, a->b ? "{\"boolValue\":true}" : "{\"boolValue\":false}");
		break;
	case OA_STRARR:
		strbuf_addstr(sb, "{\"arrayValue\":{\"values\":[");
		for (uint32_t i = 0; i < a->arr.n; i++) {
			if (i)
				strbuf_addch(sb, ',');
			strbuf_addstr(sb, "{\"stringValue\":");
			json_str(sb, a->arr.p[i], strlen(a->arr.p[i]));
			strbuf_addch(sb, '}');
		}
		strbuf_addstr(sb, "]}}");
		break;
	}
}

static void json_attrs(struct strbuf *sb, const struct otlp_attr *a, uint32_t n)
{
	strbuf_addstr(sb, "\"attributes\":[");
	for (uint32_t i = 0; i < n; i++) {
		if (i)
			strbuf_addch(sb, ',');
		strbuf_addstr(sb, "{\"key\":");
		json_str(sb, a[i].key, strlen(a[i].key));
		strbuf_addstr(sb, ",\"value\":");
		json_anyvalue(sb, &a[i]);
		strbuf_addch(sb, '}');
	}
	strbuf_addch(sb, ']');
}

static void json_span(struct strbuf *sb, const struct otlp_resource *res, const struct otlp_span *s)
{
	strbuf_addstr(sb, "{\"traceId\":\"");
	otlp_add_hex(sb, res->trace_id, 16);
	strbuf_addstr(sb, "\",\"spanId\":\"");
	otlp_add_hex(sb, s->span_id, 8);
	strbuf_addch(sb, '"');
	if (res->tracestate && (s->flags & 0x200)) {
		strbuf_addstr(sb, ",\"traceState\":");
		json_str(sb, res->tracestate, strlen(res->tracestate));
	}
	if (!all_zero(s->parent_id, 8)) {
		strbuf_addstr(sb, ",\"parentSpanId\":\"");
		otlp_add_hex(sb, s->parent_id, 8);
		strbuf_addch(sb, '"');
	}
	strbuf_addf(sb, ",\"flags\":%u,\"name\":", (unsigned)s->flags);
	json_str(sb, s->name, strlen(s->name));
	strbuf_addf(sb, ",\"kind\":%d,\"startTimeUnixNano\":\"", OTLP_KIND_INTERNAL);
	strbuf_add_u64(sb, s->start_ns);
	strbuf_addstr(sb, "\",\"endTimeUnixNano\":\"");
	strbuf_add_u64(sb, s->end_ns);
	strbuf_addstr(sb, "\",");
	json_attrs(sb, s->attrs, s->nattrs);
	if (s->nevents) {
		strbuf_addstr(sb, ",\"events\":[");
		for (uint32_t i = 0; i < s->nevents; i++) {
			const struct otlp_event *e = &s->events[i];
			if (i)
				strbuf_addch(sb, ',');
			strbuf_addstr(sb, "{\"timeUnixNano\":\"");
			strbuf_add_u64(sb, e->time_ns);
			strbuf_addstr(sb, "\",\"name\":");
			json_str(sb, e->name, strlen(e->name));
			strbuf_addch(sb, ',');
			json_attrs(sb, e->attrs, e->nattrs);
			strbuf_addch(sb, '}');
		}
		strbuf_addch(sb, ']');
	}
	if (s->dropped_events)
		strbuf_addf(sb, ",\"droppedEventsCount\":%u", (unsigned)s->dropped_events);
	if (s->status != OTLP_STATUS_UNSET) {
		strbuf_addstr(sb, ",\"status\":{");
		if (s->status_msg) {
			strbuf_addstr(sb, "\"message\":");
			json_str(sb, s->status_msg, strlen(s->status_msg));
			strbuf_addch(sb, ',');
		}
		strbuf_addf(sb, "\"code\":%d}", s->status);
	}
	strbuf_addch(sb, '}');
}

void otlp_encode_json(struct strbuf *sb, const struct otlp_resource *res,
		      const struct otlp_batch *b)
{
	strbuf_addstr(sb, "{\"resourceSpans\":[{\"resource\":{");
	json_attrs(sb, res->attrs, res->nattrs);
	strbuf_addstr(sb, "},\"scopeSpans\":[{\"scope\":{\"name\":");
	json_str(sb, res->scope_name, strlen(res->scope_name));
	strbuf_addstr(sb, ",\"version\":");
	json_str(sb, res->scope_version, strlen(res->scope_version));
	strbuf_addstr(sb, "},\"spans\":[");
	for (size_t i = 0; i < b->n; i++) {
		if (i)
			strbuf_addch(sb, ',');
		json_span(sb, res, &b->spans[i]);
	}
	strbuf_addstr(sb, "],\"schemaUrl\":\"" SCHEMA_URL "\"}],\"schemaUrl\":\"" SCHEMA_URL "\"}]}");
}
