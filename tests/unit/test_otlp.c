/*
 * Unit tests for src/otlp/: the protobuf writer and reader, W3C trace
 * context, key=value lists, the resolution of endpoint, protocol and the
 * OTEL_* environment, and the OTLP JSON encoding of a span.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "config/config.h"
#include "otlp/internal.h"
#include "otlp/otlp.h"
#include "otlp/pb.h"
#include "util/error.h"
#include "util/strbuf.h"

#include "util/banned.h"

static struct strbuf msgs = STRBUF_INIT;

static void hook(const char *kind, const char *msg)
{
	if (*kind)
		strbuf_addf(&msgs, "%s: ", kind);
	strbuf_addf(&msgs, "%s\n", msg);
}

/* ---- protobuf ---- */

static void hexdump(struct strbuf *out, const struct strbuf *in)
{
	for (size_t i = 0; i < in->len; i++)
		strbuf_addf(out, "%02x", (unsigned char)in->buf[i]);
}

static void expect_varint(uint64_t v, const char *want)
{
	struct strbuf sb = STRBUF_INIT, hex = STRBUF_INIT;

	pb_varint(&sb, v);
	hexdump(&hex, &sb);
	assert_string_equal(hex.buf, want);
	strbuf_release(&sb);
	strbuf_release(&hex);
}

static void test_pb_write(void **state)
{
	struct strbuf sb = STRBUF_INIT, hex = STRBUF_INIT;
	size_t m;

	(void)state;
	expect_varint(0, "00");
	expect_varint(1, "01");
	expect_varint(127, "7f");
	expect_varint(128, "8001");
	expect_varint(300, "ac02");
	expect_varint(UINT64_MAX, "ffffffffffffffffff01");
	/* int64 -1 is ten bytes; fixed64 little endian; a string */
	pb_int64(&sb, 3, -1);
	pb_fixed64(&sb, 7, 0x0102030405060708ull);
	pb_string(&sb, 5, "ab");
	hexdump(&hex, &sb);
	assert_string_equal(hex.buf, "18ffffffffffffffffff01" "390807060504030201" "2a026162");
	/* a nested message of 200 bytes needs a two-byte length: moved */
	strbuf_reset(&sb);
	m = pb_begin(&sb, 2);
	for (int i = 0; i < 200; i++)
		strbuf_addch(&sb, 'x');
	pb_end(&sb, m);
	assert_int_equal(sb.len, 203);
	assert_int_equal((unsigned char)sb.buf[0], 0x12);
	assert_int_equal((unsigned char)sb.buf[1], 0xc8);
	assert_int_equal((unsigned char)sb.buf[2], 0x01);
	assert_int_equal(sb.buf[3], 'x');
	assert_int_equal(sb.buf[202], 'x');
	strbuf_release(&sb);
	strbuf_release(&hex);
}

static void test_pb_read(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	struct pb_reader r;
	struct pb_field f;
	size_t m;

	(void)state;
	pb_uint(&sb, 1, 300);
	m = pb_begin(&sb, 2);
	pb_string(&sb, 1, "inner");
	pb_end(&sb, m);
	pb_fixed32(&sb, 16, 0x101);
	pb_reader_init(&r, sb.buf, sb.len);
	assert_int_equal(pb_next(&r, &f), 1);
	assert_int_equal(f.num, 1);
	assert_int_equal(f.v, 300);
	assert_int_equal(pb_next(&r, &f), 1);
	assert_int_equal(f.num, 2);
	assert_int_equal(f.wire, PB_LEN);
	assert_int_equal(f.len, 7);
	assert_int_equal(pb_next(&r, &f), 1);
	assert_int_equal(f.num, 16);
	assert_int_equal(f.v, 0x101);
	assert_int_equal(pb_next(&r, &f), 0);
	/* a length past the end, a cut varint, group wire types: -1 */
	pb_reader_init(&r, "\x12\x05" "ab", 4);
	assert_int_equal(pb_next(&r, &f), -1);
	assert_true(r.bad);
	pb_reader_init(&r, "\x08\x80", 2);
	assert_int_equal(pb_next(&r, &f), -1);
	pb_reader_init(&r, "\x0b", 1);
	assert_int_equal(pb_next(&r, &f), -1);
	strbuf_release(&sb);
}

/* ---- trace context and lists ---- */

static void test_traceparent(void **state)
{
	struct otlp_context c;
	struct strbuf sb = STRBUF_INIT;

	(void)state;
	assert_int_equal(otlp_parse_traceparent("00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01", &c), 0);
	assert_int_equal(c.trace_id[0], 0x0a);
	assert_int_equal(c.trace_id[15], 0x9c);
	assert_int_equal(c.span_id[7], 0x31);
	assert_int_equal(c.flags, 1);
	otlp_format_traceparent(&sb, c.trace_id, c.span_id, c.flags);
	assert_string_equal(sb.buf, "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01");
	/* a later version may carry more */
	assert_int_equal(otlp_parse_traceparent("01-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-00-xyz", &c), 0);
	assert_int_equal(c.flags, 0);
	/* refused: uppercase, zero ids, version ff, extra data in version 00, short */
	assert_int_equal(otlp_parse_traceparent("00-0AF7651916CD43DD8448EB211C80319C-b7ad6b7169203331-01", &c), -1);
	assert_int_equal(otlp_parse_traceparent("00-00000000000000000000000000000000-b7ad6b7169203331-01", &c), -1);
	assert_int_equal(otlp_parse_traceparent("00-0af7651916cd43dd8448eb211c80319c-0000000000000000-01", &c), -1);
	assert_int_equal(otlp_parse_traceparent("ff-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01", &c), -1);
	assert_int_equal(otlp_parse_traceparent("00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01-x", &c), -1);
	assert_int_equal(otlp_parse_traceparent("00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331", &c), -1);
	assert_int_equal(otlp_parse_traceparent("", &c), -1);
	strbuf_release(&sb);
}

static void test_kvlist(void **state)
{
	struct otlp_kv *kv = NULL;
	size_t n = 0;
	char err[128];

	(void)state;
	assert_int_equal(otlp_parse_kvlist(" a=1, b = x%20y%2Cz ,c=,", false, &kv, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 3);
	assert_string_equal(kv[0].key, "a");
	assert_string_equal(kv[0].value, "1");
	assert_string_equal(kv[1].key, "b");
	assert_string_equal(kv[1].value, "x y,z");
	assert_string_equal(kv[2].value, "");
	/* a key again replaces; headers compare without case */
	assert_int_equal(otlp_parse_kvlist("A=2", true, &kv, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 3);
	assert_string_equal(kv[0].value, "2");
	/* errors append nothing */
	assert_int_equal(otlp_parse_kvlist("d=4,novalue", false, &kv, &n, err, sizeof(err)), -1);
	assert_string_equal(err, "entry 'novalue' has no '='");
	assert_int_equal(otlp_parse_kvlist("=x", false, &kv, &n, err, sizeof(err)), -1);
	assert_string_equal(err, "an entry has an empty key");
	assert_int_equal(otlp_parse_kvlist("k=%zz", false, &kv, &n, err, sizeof(err)), -1);
	assert_string_equal(err, "bad percent-escape in entry 'k'");
	assert_int_equal(n, 3);
	for (size_t i = 0; i < n; i++) {
		free(kv[i].key);
		free(kv[i].value);
	}
	free(kv);
}

/* ---- resolution ---- */

static const char *const *fake_env;

static const char *fake_getenv(const char *name)
{
	for (const char *const *e = fake_env; e && *e; e += 2)
		if (!strcmp(e[0], name))
			return e[1];
	return NULL;
}

static int resolve(struct otlp_settings *s, const struct otlp_args *a,
		   const struct config_otlp *cfg, const char *const *env)
{
	fake_env = env;
	strbuf_reset(&msgs);
	return otlp_settings_resolve(s, a, cfg, fake_getenv);
}

static void test_endpoint_and_protocol(void **state)
{
	struct otlp_settings s;
	struct otlp_args a = { 0 };

	(void)state;
	/* port 4317 without a protocol: gRPC; other ports: HTTP/protobuf */
	a.endpoint = "http://localhost:4317";
	assert_int_equal(resolve(&s, &a, NULL, NULL), 0);
	assert_true(s.send);
	assert_int_equal(s.proto, OTLP_PROTO_GRPC);
	assert_string_equal(s.url, "http://localhost:4317/opentelemetry.proto.collector.trace.v1.TraceService/Export");
	otlp_settings_release(&s);
	a.endpoint = "https://collector.example:4318";
	assert_int_equal(resolve(&s, &a, NULL, NULL), 0);
	assert_int_equal(s.proto, OTLP_PROTO_HTTP_PROTOBUF);
	assert_string_equal(s.url, "https://collector.example:4318/v1/traces");
	otlp_settings_release(&s);
	/* a path is a base, unless it already ends in /v1/traces */
	a.endpoint = "http://h/otlp/";
	assert_int_equal(resolve(&s, &a, NULL, NULL), 0);
	assert_string_equal(s.url, "http://h/otlp/v1/traces");
	otlp_settings_release(&s);
	a.endpoint = "http://h:9/x/v1/traces";
	assert_int_equal(resolve(&s, &a, NULL, NULL), 0);
	assert_string_equal(s.url, "http://h:9/x/v1/traces");
	otlp_settings_release(&s);
	/* the option's protocol wins over the port */
	a.endpoint = "http://[::1]:4317";
	a.protocol = "http/json";
	assert_int_equal(resolve(&s, &a, NULL, NULL), 0);
	assert_int_equal(s.proto, OTLP_PROTO_HTTP_JSON);
	assert_string_equal(s.url, "http://[::1]:4317/v1/traces");
	otlp_settings_release(&s);
	/* bad endpoints on the command line are errors */
	a.protocol = NULL;
	a.endpoint = "localhost:4317";
	assert_int_equal(resolve(&s, &a, NULL, NULL), -1);
	assert_string_equal(msgs.buf, "invalid OTLP endpoint 'localhost:4317' (expected http://HOST[:PORT][/PATH] or https://...)\n");
	a.endpoint = "http://h:99999";
	assert_int_equal(resolve(&s, &a, NULL, NULL), -1);
	a.endpoint = "http://:80";
	assert_int_equal(resolve(&s, &a, NULL, NULL), -1);
	a.endpoint = "http://h";
	a.protocol = "thrift";
	assert_int_equal(resolve(&s, &a, NULL, NULL), -1);
	assert_string_equal(msgs.buf, "unknown OTLP protocol 'thrift' (expected grpc, http/protobuf or http/json)\n");
}

static void test_environment(void **state)
{
	struct otlp_settings s;
	struct otlp_args a = { 0 };
	struct config_otlp cfg;
	static const char *const env1[] = {
		"OTEL_EXPORTER_OTLP_ENDPOINT", "http://env:4317/base",
		"OTEL_EXPORTER_OTLP_PROTOCOL", "http/json",
		"OTEL_EXPORTER_OTLP_TIMEOUT", "2500",
		"OTEL_EXPORTER_OTLP_HEADERS", "x-a=1,X-B=2",
		"OTEL_EXPORTER_OTLP_TRACES_HEADERS", "x-b=3",
		"OTEL_EXPORTER_OTLP_COMPRESSION", "none",
		"OTEL_EXPORTER_OTLP_CERTIFICATE", "/ca.pem",
		"OTEL_RESOURCE_ATTRIBUTES", "service.name=fromattrs,team=perf",
		"OTEL_BSP_MAX_EXPORT_BATCH_SIZE", "100",
		NULL,
	};
	static const char *const env2[] = {
		"OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "http://exact:1/custom",
		"OTEL_EXPORTER_OTLP_ENDPOINT", "http://ignored:2",
		"OTEL_EXPORTER_OTLP_TRACES_PROTOCOL", "grpc",
		"OTEL_EXPORTER_OTLP_PROTOCOL", "http/json",
		"OTEL_SERVICE_NAME", "svc",
		"OTEL_RESOURCE_ATTRIBUTES", "service.name=lost",
		"TRACEPARENT", "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01",
		"TRACESTATE", "vendor=1",
		NULL,
	};
	static const char *const bad[] = {
		"OTEL_EXPORTER_OTLP_PROTOCOL", "thrift",
		"OTEL_EXPORTER_OTLP_TIMEOUT", "soon",
		"OTEL_EXPORTER_OTLP_ENDPOINT", "collector:4317",
		"OTEL_RESOURCE_ATTRIBUTES", "novalue",
		"TRACEPARENT", "junk",
		NULL,
	};

	(void)state;
	/* the environment alone does not turn export on */
	assert_int_equal(resolve(&s, &a, NULL, env1), 0);
	assert_false(s.send);
	assert_false(otlp_settings_active(&s));
	assert_int_equal(s.proto, OTLP_PROTO_HTTP_JSON);
	assert_string_equal(s.url, "http://env:4317/base/v1/traces");
	assert_int_equal(s.timeout_ms, 2500);
	assert_false(s.gzip);
	assert_string_equal(s.ca_file, "/ca.pem");
	assert_int_equal(s.nheaders, 2);
	assert_string_equal(s.headers[0].key, "x-a");
	assert_string_equal(s.headers[1].value, "3");
	assert_string_equal(s.service_name, "fromattrs");
	assert_int_equal(s.nresource, 1);
	assert_string_equal(s.resource[0].key, "team");
	assert_int_equal(s.batch_size, 100);
	assert_false(s.have_parent);
	otlp_settings_release(&s);

	/* signal-specific variables win and are used as they are */
	a.file = "spans.jsonl";
	assert_int_equal(resolve(&s, &a, NULL, env2), 0);
	assert_false(s.send);
	assert_true(otlp_settings_active(&s));
	assert_int_equal(s.proto, OTLP_PROTO_GRPC);
	assert_string_equal(s.url, "http://exact:1/opentelemetry.proto.collector.trace.v1.TraceService/Export");
	assert_string_equal(s.service_name, "svc");
	assert_true(s.have_parent);
	assert_int_equal(s.parent.span_id[0], 0xb7);
	assert_string_equal(s.parent.tracestate, "vendor=1");
	otlp_settings_release(&s);

	/* bad values: warnings, ignored */
	a.file = NULL;
	assert_int_equal(resolve(&s, &a, NULL, bad), 0);
	assert_string_equal(msgs.buf,
		"warning: ignoring OTEL_EXPORTER_OTLP_PROTOCOL='thrift': expected grpc, http/protobuf or http/json\n"
		"warning: ignoring OTEL_EXPORTER_OTLP_ENDPOINT='collector:4317': not an http:// or https:// URL\n"
		"warning: ignoring OTEL_EXPORTER_OTLP_TIMEOUT='soon': not an integer between 1 and 600000\n"
		"warning: ignoring OTEL_RESOURCE_ATTRIBUTES: entry 'novalue' has no '='\n"
		"warning: ignoring TRACEPARENT='junk': not a W3C traceparent\n");
	assert_string_equal(s.url, "http://localhost:4318/v1/traces");
	assert_int_equal(s.timeout_ms, 10000);
	assert_false(s.have_parent);
	otlp_settings_release(&s);

	/* renacer.toml: below the environment, above the defaults */
	memset(&cfg, 0, sizeof(cfg));
	cfg.enabled = true;
	cfg.endpoint = "http://file:4317";
	cfg.endpoint_given = true;
	cfg.service_name = "tomlsvc";
	cfg.timeout_ms = 700;
	cfg.min_duration_us = 5;
	cfg.min_duration_us_given = true;
	assert_int_equal(resolve(&s, &a, &cfg, NULL), 0);
	assert_true(s.send);
	assert_int_equal(s.proto, OTLP_PROTO_GRPC);
	assert_string_equal(s.endpoint, "http://file:4317");
	assert_string_equal(s.service_name, "tomlsvc");
	assert_int_equal(s.timeout_ms, 700);
	assert_int_equal(s.min_duration_ns, 5000);
	otlp_settings_release(&s);
	cfg.protocol = OTLP_HTTP_JSON;
	cfg.protocol_given = true;
	assert_int_equal(resolve(&s, &a, &cfg, env1), 0);
	assert_int_equal(s.proto, OTLP_PROTO_HTTP_JSON);
	assert_string_equal(s.endpoint, "http://env:4317/base");
	assert_int_equal(s.timeout_ms, 2500);
	otlp_settings_release(&s);
	/* and the command line above all */
	a.endpoint = "http://cli:4318";
	a.protocol = "grpc";
	a.have_min_duration = true;
	a.min_duration_us = 0;
	assert_int_equal(resolve(&s, &a, &cfg, env1), 0);
	assert_int_equal(s.proto, OTLP_PROTO_GRPC);
	assert_string_equal(s.endpoint, "http://cli:4318");
	assert_int_equal(s.min_duration_ns, 0);
	otlp_settings_release(&s);
}

/* ---- encoding ---- */

static void test_encode_json(void **state)
{
	struct otlp_resource res;
	struct otlp_batch b;
	struct otlp_span sp;
	struct otlp_attr ra, at[3];
	const char *arr[] = { "3", "\"x\"" };
	struct strbuf sb = STRBUF_INIT;

	(void)state;
	memset(&res, 0, sizeof(res));
	memset(&b, 0, sizeof(b));
	memset(&sp, 0, sizeof(sp));
	for (int i = 0; i < 16; i++)
		res.trace_id[i] = (uint8_t)(0xa0 + i);
	ra.key = "service.name";
	ra.type = OA_STR;
	ra.s.p = "svc";
	ra.s.len = 3;
	res.attrs = &ra;
	res.nattrs = 1;
	res.scope_name = "renacer";
	res.scope_version = "1";
	sp.span_id[0] = 0x01;
	sp.span_id[7] = 0xff;
	sp.parent_id[0] = 0x02;
	sp.name = "read";
	sp.start_ns = 1700000000000000001ull;
	sp.end_ns = 1700000000000000002ull;
	sp.flags = 0x101;
	sp.status = OTLP_STATUS_ERROR;
	sp.status_msg = "Bad file descriptor";
	at[0].key = "syscall.return";
	at[0].type = OA_INT;
	at[0].i = -9;
	at[1].key = "syscall.args";
	at[1].type = OA_STRARR;
	at[1].arr.p = arr;
	at[1].arr.n = 2;
	at[2].key = "syscall.duration";
	at[2].type = OA_DOUBLE;
	at[2].d = 0.5;
	sp.attrs = at;
	sp.nattrs = 3;
	b.spans = &sp;
	b.n = 1;
	otlp_encode_json(&sb, &res, &b);
	assert_string_equal(sb.buf,
		"{\"resourceSpans\":[{\"resource\":{\"attributes\":[{\"key\":\"service.name\",\"value\":{\"stringValue\":\"svc\"}}]},"
		"\"scopeSpans\":[{\"scope\":{\"name\":\"renacer\",\"version\":\"1\"},\"spans\":["
		"{\"traceId\":\"a0a1a2a3a4a5a6a7a8a9aaabacadaeaf\",\"spanId\":\"01000000000000ff\","
		"\"parentSpanId\":\"0200000000000000\",\"flags\":257,\"name\":\"read\",\"kind\":1,"
		"\"startTimeUnixNano\":\"1700000000000000001\",\"endTimeUnixNano\":\"1700000000000000002\","
		"\"attributes\":[{\"key\":\"syscall.return\",\"value\":{\"intValue\":\"-9\"}},"
		"{\"key\":\"syscall.args\",\"value\":{\"arrayValue\":{\"values\":[{\"stringValue\":\"3\"},{\"stringValue\":\"\\\"x\\\"\"}]}}},"
		"{\"key\":\"syscall.duration\",\"value\":{\"doubleValue\":0.5}}],"
		"\"status\":{\"message\":\"Bad file descriptor\",\"code\":2}}],"
		"\"schemaUrl\":\"https://opentelemetry.io/schemas/1.33.0\"}],"
		"\"schemaUrl\":\"https://opentelemetry.io/schemas/1.33.0\"}]}");
	strbuf_release(&sb);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pb_write),
		cmocka_unit_test(test_pb_read),
		cmocka_unit_test(test_traceparent),
		cmocka_unit_test(test_kvlist),
		cmocka_unit_test(test_endpoint_and_protocol),
		cmocka_unit_test(test_environment),
		cmocka_unit_test(test_encode_json),
	};
	error_set_hook(hook);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
