/*
 * Sending batches: a sender thread with a bounded queue, and one export
 * request over libcurl in each of the three OTLP transports (gRPC over
 * HTTP/2 with its length prefix and grpc-status trailer, HTTP/protobuf,
 * HTTP/JSON), gzip bodies, retries with exponential backoff and jitter
 * that honour Retry-After (and gRPC RetryInfo), partial success.  libcurl
 * is loaded when the first sender is made (util/dynlib.h): a run that does
 * not export over the network never maps it or its TLS stacks.
 */
#include "otlp/internal.h"
#include "otlp/pb.h"

#include <ctype.h>
/* calls go through a table of pointers, not curl's type-checking macros */
#define CURL_DISABLE_TYPECHECK
#include <curl/curl.h>
#include <errno.h>
#include <jansson.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <zlib.h>

#include "util/dynlib.h"
#include "util/quote.h"
#include "util/xmalloc.h"
#include "util/banned.h"

/* The libcurl functions renacer calls, with their own types (dynlib.h). */
#define CURL_FUNCS(X) \
	X(curl_global_init) X(curl_getdate) X(curl_easy_init) X(curl_easy_reset) \
	X(curl_easy_setopt) X(curl_easy_getinfo) X(curl_easy_strerror) \
	X(curl_easy_cleanup) X(curl_multi_init) X(curl_multi_add_handle) \
	X(curl_multi_remove_handle) X(curl_multi_perform) X(curl_multi_poll) \
	X(curl_multi_info_read) X(curl_multi_wakeup) X(curl_multi_cleanup) \
	X(curl_slist_append) X(curl_slist_free_all)

static struct curl_api {
#define CURL_MEMBER(f) __typeof__(&f) f;
	CURL_FUNCS(CURL_MEMBER)
#undef CURL_MEMBER
} cu;

static const struct dynlib_sym curl_syms[] = {
#define CURL_ROW(f) DYNLIB_SYM(struct curl_api, f),
	CURL_FUNCS(CURL_ROW)
#undef CURL_ROW
};

/* libcurl's soname since 7.16 (Debian's libcurl4); the headers are 7.x/8.x */
static struct dynlib curl_lib = { "libcurl.so.4", curl_syms, ARRAY_SIZE(curl_syms), &cu };

#define BACKOFF_FIRST_MS 200     /* first retry after 100..300 ms */
#define BACKOFF_MAX_MS 5000
#define RESPONSE_MAX (1u << 20)  /* response bytes kept */

enum health { H_OK = 0, H_FAILING };

struct otlp_sender {
	const struct otlp_settings *s;
	const struct otlp_resource *res;
	pthread_t th;
	bool started, done;
	pthread_mutex_t mu;
	pthread_cond_t cv_work;      /* the thread: a batch, finishing or abort */
	pthread_cond_t cv_space;     /* the producer: room in the queue */
	pthread_cond_t cv_done;      /* finish(): the thread is done */
	struct otlp_batch *qhead, *qtail;
	size_t qspans;
	struct otlp_batch *free_list;
	bool finishing;
	int abort;                   /* atomic: cut everything off */
	uint64_t finish_deadline;    /* monotonic ns, when finishing */
	int64_t hold_left_ns;        /* how much longer the run may be held up */
	enum health health;
	CURLM *multi;                /* the thread's, for curl_multi_wakeup */
	/* the thread's own */
	CURL *easy;
	struct strbuf enc, body, resp, hdr_status_msg;
	uint64_t rng;
	/* results, under mu */
	struct otlp_stats st;
	uint64_t failed_batches, queue_dropped, cut_dropped;
	char first_reason[512];
	char partial_msg[512];
	bool have_reason, have_partial;
};

static uint64_t mono_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void abstime(struct timespec *ts, uint64_t mono_deadline)
{
	ts->tv_sec = (time_t)(mono_deadline / 1000000000u);
	ts->tv_nsec = (long)(mono_deadline % 1000000000u);
}

static bool aborted(struct otlp_sender *snd)
{
	return __atomic_load_n(&snd->abort, __ATOMIC_ACQUIRE);
}

/* ---- compression ---- */

/* gzip (RFC 1952) of p[0..n) into out; -1 on a zlib failure. */
static int gzip_to(struct strbuf *out, const void *p, size_t n)
{
	z_stream z;
	int r;

	memset(&z, 0, sizeof(z));
	if (deflateInit2(&z, 1, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
		return -1;
	strbuf_grow(out, deflateBound(&z, n) + 16);
	z.next_in = (Bytef *)p;
	z.avail_in = (uInt)n;
	z.next_out = (Bytef *)out->buf + out->len;
	z.avail_out = (uInt)(out->alloc - out->len - 1);
	r = deflate(&z, Z_FINISH);
	if (r != Z_STREAM_END) {
		deflateEnd(&z);
		return -1;
	}
	strbuf_setlen(out, out->len + z.total_out);
	deflateEnd(&z);
	return 0;
}

/* Inflates gzip or zlib data (a compressed gRPC response); -1 on bad data. */
static int gunzip_to(struct strbuf *out, const void *p, size_t n)
{
	z_stream z;
	char buf[16384];
	int r;

	memset(&z, 0, sizeof(z));
	if (inflateInit2(&z, 15 + 32) != Z_OK)
		return -1;
	z.next_in = (Bytef *)p;
	z.avail_in = (uInt)n;
	do {
		z.next_out = (Bytef *)buf;
		z.avail_out = sizeof(buf);
		r = inflate(&z, Z_NO_FLUSH);
		if (r != Z_OK && r != Z_STREAM_END) {
			inflateEnd(&z);
			return -1;
		}
		strbuf_add(out, buf, sizeof(buf) - z.avail_out);
		if (out->len > RESPONSE_MAX)
			break;
	} while (r != Z_STREAM_END && z.avail_in);
	inflateEnd(&z);
	return 0;
}

/* ---- responses ---- */

struct response {
	long status;                 /* HTTP status of the last status line */
	int grpc_status;             /* -1 until seen */
	char grpc_message[256];
	bool grpc_gzip;              /* grpc-encoding: gzip */
	int64_t retry_after_ms;      /* Retry-After or RetryInfo, -1 none */
	char content_type[64];
	struct strbuf *body;
};

static void pct_decode_into(char *dst, size_t dlen, const char *s, size_t n)
{
	size_t w = 0;

	for (size_t i = 0; i < n && w + 1 < dlen; i++) {
		if (s[i] == '%' && i + 2 < n && isxdigit((unsigned char)s[i + 1]) &&
		    isxdigit((unsigned char)s[i + 2])) {
			char h[3] = { s[i + 1], s[i + 2], 0 };
			dst[w++] = (char)strtol(h, NULL, 16);
			i += 2;
		} else {
			dst[w++] = s[i];
		}
	}
	dst[w] = '\0';
}

static int b64val(int c)
{
	if (c >= 'A' && c <= 'Z')
		return c - 'A';
	if (c >= 'a' && c <= 'z')
		return c - 'a' + 26;
	if (c >= '0' && c <= '9')
		return c - '0' + 52;
	if (c == '+' || c == '-')
		return 62;
	if (c == '/' || c == '_')
		return 63;
	return -1;
}

/* Base64 (padded or not, standard or URL alphabet) into out. */
static void b64_decode(struct strbuf *out, const char *s, size_t n)
{
	uint32_t acc = 0;
	int bits = 0;

	for (size_t i = 0; i < n; i++) {
		int v = b64val((unsigned char)s[i]);
		if (v < 0)
			continue;
		acc = acc << 6 | (uint32_t)v;
		bits += 6;
		if (bits >= 8) {
			bits -= 8;
			strbuf_addch(out, (int)((acc >> bits) & 0xff));
		}
	}
}

/*
 * The retry delay of a google.rpc.Status (grpc-status-details-bin): the
 * RetryInfo detail's retry_delay, in ms, or -1.
 */
static int64_t status_retry_delay(const uint8_t *p, size_t n)
{
	static const char want[] = "type.googleapis.com/google.rpc.RetryInfo";
	struct pb_reader r, d, ri, dur;
	struct pb_field f, g, h, k;

	pb_reader_init(&r, p, n);
	while (pb_next(&r, &f) == 1) {
		const uint8_t *val = NULL;
		size_t vlen = 0;
		bool is_retry = false;
		if (f.num != 3 || f.wire != PB_LEN)      /* Status.details (Any) */
			continue;
		pb_reader_init(&d, f.data, f.len);
		while (pb_next(&d, &g) == 1) {
			if (g.num == 1 && g.wire == PB_LEN)
				is_retry = g.len == sizeof(want) - 1 && !memcmp(g.data, want, g.len);
			else if (g.num == 2 && g.wire == PB_LEN)
				val = g.data, vlen = g.len;
		}
		if (!is_retry || !val)
			continue;
		pb_reader_init(&ri, val, vlen);
		while (pb_next(&ri, &h) == 1) {
			int64_t secs = 0, nanos = 0;
			if (h.num != 1 || h.wire != PB_LEN)
				continue;
			pb_reader_init(&dur, h.data, h.len);
			while (pb_next(&dur, &k) == 1) {
				if (k.num == 1 && k.wire == PB_VARINT)
					secs = (int64_t)k.v;
				else if (k.num == 2 && k.wire == PB_VARINT)
					nanos = (int32_t)k.v;
			}
			if (secs < 0 || nanos < 0)
				return -1;
			return secs * 1000 + nanos / 1000000;
		}
	}
	return -1;
}

static size_t on_header(char *buf, size_t size, size_t n, void *data)
{
	struct response *rs = data;
	size_t len = size * n, nl;
	const char *colon, *v;

	nl = len;
	while (nl && (buf[nl - 1] == '\r' || buf[nl - 1] == '\n'))
		nl--;
	if (nl >= 5 && !strncmp(buf, "HTTP/", 5)) {
		const char *sp = memchr(buf, ' ', nl);
		rs->status = sp ? strtol(sp + 1, NULL, 10) : 0;
		return len;
	}
	colon = memchr(buf, ':', nl);
	if (!colon)
		return len;
	v = colon + 1;
	while (v < buf + nl && (*v == ' ' || *v == '\t'))
		v++;
	size_t klen = (size_t)(colon - buf), vlen = (size_t)(buf + nl - v);
#define IS(name) (klen == sizeof(name) - 1 && !strncasecmp(buf, name, klen))
	if (IS("grpc-status")) {
		char tmp[16];
		snprintf(tmp, sizeof(tmp), "%.*s", (int)vlen, v);
		rs->grpc_status = atoi(tmp);
	} else if (IS("grpc-message")) {
		pct_decode_into(rs->grpc_message, sizeof(rs->grpc_message), v, vlen);
	} else if (IS("grpc-encoding")) {
		rs->grpc_gzip = vlen == 4 && !strncasecmp(v, "gzip", 4);
	} else if (IS("grpc-status-details-bin")) {
		struct strbuf raw = STRBUF_INIT;
		int64_t d;
		b64_decode(&raw, v, vlen);
		d = status_retry_delay((const uint8_t *)raw.buf, raw.len);
		if (d >= 0)
			rs->retry_after_ms = d;
		strbuf_release(&raw);
	} else if (IS("retry-after")) {
		char tmp[128];
		char *end;
		long secs;
		snprintf(tmp, sizeof(tmp), "%.*s", (int)vlen, v);
		secs = strtol(tmp, &end, 10);
		if (end != tmp && !*end && secs >= 0) {
			rs->retry_after_ms = (int64_t)secs * 1000;
		} else {
			time_t when = cu.curl_getdate(tmp, NULL);
			if (when > 0) {
				time_t now = time(NULL);
				rs->retry_after_ms = when > now ? (int64_t)(when - now) * 1000 : 0;
			}
		}
	} else if (IS("content-type")) {
		snprintf(rs->content_type, sizeof(rs->content_type), "%.*s", (int)vlen, v);
	}
#undef IS
	return len;
}

static size_t on_body(char *buf, size_t size, size_t n, void *data)
{
	struct response *rs = data;
	size_t len = size * n;

	if (rs->body->len < RESPONSE_MAX)
		strbuf_add(rs->body, buf, len);
	return len;
}

/* Partial success of a protobuf ExportTraceServiceResponse. */
static void pb_partial(const uint8_t *p, size_t n, struct otlp_result *res)
{
	struct pb_reader r, q;
	struct pb_field f, g;

	pb_reader_init(&r, p, n);
	while (pb_next(&r, &f) == 1) {
		if (f.num != 1 || f.wire != PB_LEN)
			continue;
		res->rejected = 0;
		pb_reader_init(&q, f.data, f.len);
		while (pb_next(&q, &g) == 1) {
			if (g.num == 1 && g.wire == PB_VARINT)
				res->rejected = (int64_t)g.v;
			else if (g.num == 2 && g.wire == PB_LEN)
				snprintf(res->reason, sizeof(res->reason), "%.*s", (int)g.len,
					 (const char *)g.data);
		}
	}
}

/* Partial success of a JSON response. */
static void json_partial(const char *p, size_t n, struct otlp_result *res)
{
	json_t *root = json_loadb(p, n, 0, NULL), *ps, *v;

	if (!root)
		return;
	ps = json_object_get(root, "partialSuccess");
	if (!ps)
		ps = json_object_get(root, "partial_success");
	if (json_is_object(ps)) {
		res->rejected = 0;
		v = json_object_get(ps, "rejectedSpans");
		if (!v)
			v = json_object_get(ps, "rejected_spans");
		if (json_is_integer(v))
			res->rejected = json_integer_value(v);
		else if (json_is_string(v))
			res->rejected = strtoll(json_string_value(v), NULL, 10);
		v = json_object_get(ps, "errorMessage");
		if (!v)
			v = json_object_get(ps, "error_message");
		if (json_is_string(v))
			snprintf(res->reason, sizeof(res->reason), "%s", json_string_value(v));
	}
	json_decref(root);
}

/* The message of an error body: a google.rpc.Status (protobuf or JSON) or text. */
static void error_body_message(const struct response *rs, char *out, size_t outlen)
{
	const struct strbuf *b = rs->body;

	*out = '\0';
	if (!b->len)
		return;
	if (strstr(rs->content_type, "json")) {
		json_t *root = json_loadb(b->buf, b->len, 0, NULL), *m;
		if (root && (m = json_object_get(root, "message")) && json_is_string(m))
			snprintf(out, outlen, "%s", json_string_value(m));
		json_decref(root);
		return;
	}
	if (strstr(rs->content_type, "protobuf")) {
		struct pb_reader r;
		struct pb_field f;
		pb_reader_init(&r, b->buf, b->len);
		while (pb_next(&r, &f) == 1)
			if (f.num == 2 && f.wire == PB_LEN)
				snprintf(out, outlen, "%.*s", (int)f.len, (const char *)f.data);
		return;
	}
	/* text: the first line, printable bytes only */
	size_t w = 0;
	for (size_t i = 0; i < b->len && w + 1 < outlen && w < 200; i++) {
		char c = b->buf[i];
		if (c == '\n' || c == '\r') {
			if (w)
				break;
			continue;
		}
		out[w++] = isprint((unsigned char)c) ? c : '?';
	}
	out[w] = '\0';
}

static const char *const grpc_names[] = {
	"OK", "CANCELLED", "UNKNOWN", "INVALID_ARGUMENT", "DEADLINE_EXCEEDED", "NOT_FOUND",
	"ALREADY_EXISTS", "PERMISSION_DENIED", "RESOURCE_EXHAUSTED", "FAILED_PRECONDITION",
	"ABORTED", "OUT_OF_RANGE", "UNIMPLEMENTED", "INTERNAL", "UNAVAILABLE", "DATA_LOSS",
	"UNAUTHENTICATED",
};

static bool grpc_retryable(int code)
{
	/* the OTLP specification's retryable codes */
	return code == 1 || code == 4 || code == 8 || code == 10 || code == 11 || code == 14 ||
	       code == 15;
}

/* gRPC's mapping of an HTTP status that is not 200 (no grpc-status sent). */
static int grpc_from_http(long st)
{
	switch (st) {
	case 400: return 13;
	case 401: return 16;
	case 403: return 7;
	case 404: return 12;
	case 429: case 502: case 503: case 504: return 14;
	default: return 2;
	}
}

static void finish_grpc(struct otlp_sender *snd, struct response *rs, struct otlp_result *res)
{
	int code = rs->grpc_status;
	const struct strbuf *b = rs->body;

	if (rs->status != 200 && code < 0) {
		code = grpc_from_http(rs->status);
		snprintf(res->reason, sizeof(res->reason), "HTTP %ld from a gRPC endpoint (%s)",
			 rs->status, grpc_names[code]);
		res->retryable = grpc_retryable(code);
		res->grpc_status = code;
		return;
	}
	if (code < 0) {
		snprintf(res->reason, sizeof(res->reason), "the response has no grpc-status");
		return;
	}
	res->grpc_status = code;
	if (code != 0) {
		snprintf(res->reason, sizeof(res->reason), "gRPC status %s (%d)%s%s",
			 code < (int)(sizeof(grpc_names) / sizeof(*grpc_names)) ? grpc_names[code] : "?",
			 code, *rs->grpc_message ? ": " : "", esc(rs->grpc_message));
		res->retryable = grpc_retryable(code);
		return;
	}
	res->ok = 1;
	/* the response message: 1 byte compressed flag, 4 bytes length */
	if (b->len >= 5) {
		uint32_t len = (uint32_t)(uint8_t)b->buf[1] << 24 | (uint32_t)(uint8_t)b->buf[2] << 16 |
			       (uint32_t)(uint8_t)b->buf[3] << 8 | (uint32_t)(uint8_t)b->buf[4];
		if (len <= b->len - 5) {
			if (b->buf[0] && rs->grpc_gzip) {
				struct strbuf in = STRBUF_INIT;
				if (gunzip_to(&in, b->buf + 5, len) == 0)
					pb_partial((const uint8_t *)in.buf, in.len, res);
				strbuf_release(&in);
			} else if (!b->buf[0]) {
				pb_partial((const uint8_t *)b->buf + 5, len, res);
			}
		}
	}
	(void)snd;
}

static void finish_http(struct otlp_sender *snd, struct response *rs, struct otlp_result *res)
{
	char msg[300];

	if (rs->status >= 200 && rs->status < 300) {
		res->ok = 1;
		if (snd->s->proto == OTLP_PROTO_HTTP_JSON || strstr(rs->content_type, "json"))
			json_partial(rs->body->buf, rs->body->len, res);
		else
			pb_partial((const uint8_t *)rs->body->buf, rs->body->len, res);
		return;
	}
	error_body_message(rs, msg, sizeof(msg));
	snprintf(res->reason, sizeof(res->reason), "HTTP %ld%s%s", rs->status, *msg ? ": " : "", esc(msg));
	res->retryable = rs->status == 429 || rs->status == 502 || rs->status == 503 ||
			 rs->status == 504;
}

/*
 * One request with body to the collector, given up at deadline (monotonic
 * ns) or on abort.  Fills res.
 */
static void perform(struct otlp_sender *snd, const struct strbuf *body, uint64_t deadline,
		    struct otlp_result *res)
{
	const struct otlp_settings *s = snd->s;
	struct curl_slist *hdrs = NULL;
	struct response rs;
	char errbuf[CURL_ERROR_SIZE] = "", line[1024];
	CURL *h = snd->easy;
	CURLcode cc = CURLE_OK;
	uint64_t now = mono_ns();
	long left_ms = deadline > now ? (long)((deadline - now) / 1000000u) : 0;
	bool grpc = s->proto == OTLP_PROTO_GRPC, done = false;

	memset(res, 0, sizeof(*res));
	res->grpc_status = -1;
	res->retry_after_ms = -1;
	res->rejected = -1;
	if (left_ms <= 0) {
		snprintf(res->reason, sizeof(res->reason), "no time left within the %u ms timeout",
			 s->timeout_ms);
		return;
	}
	memset(&rs, 0, sizeof(rs));
	rs.grpc_status = -1;
	rs.retry_after_ms = -1;
	strbuf_reset(&snd->resp);
	rs.body = &snd->resp;

	cu.curl_easy_reset(h);
	cu.curl_easy_setopt(h, CURLOPT_URL, s->url);
	cu.curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
	cu.curl_easy_setopt(h, CURLOPT_POST, 1L);
	cu.curl_easy_setopt(h, CURLOPT_POSTFIELDS, body->buf);
	cu.curl_easy_setopt(h, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)body->len);
	cu.curl_easy_setopt(h, CURLOPT_TIMEOUT_MS, left_ms);
	cu.curl_easy_setopt(h, CURLOPT_CONNECTTIMEOUT_MS, left_ms);
	cu.curl_easy_setopt(h, CURLOPT_ERRORBUFFER, errbuf);
	cu.curl_easy_setopt(h, CURLOPT_HEADERFUNCTION, on_header);
	cu.curl_easy_setopt(h, CURLOPT_HEADERDATA, &rs);
	cu.curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, on_body);
	cu.curl_easy_setopt(h, CURLOPT_WRITEDATA, &rs);
	cu.curl_easy_setopt(h, CURLOPT_PROTOCOLS_STR, "http,https");
	cu.curl_easy_setopt(h, CURLOPT_USERAGENT, "renacer/" RENACER_VERSION);
	if (getenv("RENACER_OTLP_DEBUG"))
		cu.curl_easy_setopt(h, CURLOPT_VERBOSE, 1L);
	if (s->ca_file)
		cu.curl_easy_setopt(h, CURLOPT_CAINFO, s->ca_file);
	if (s->client_cert)
		cu.curl_easy_setopt(h, CURLOPT_SSLCERT, s->client_cert);
	if (s->client_key)
		cu.curl_easy_setopt(h, CURLOPT_SSLKEY, s->client_key);
	if (grpc) {
		cu.curl_easy_setopt(h, CURLOPT_HTTP_VERSION, strncmp(s->url, "https:", 6)
				 ? (long)CURL_HTTP_VERSION_2_PRIOR_KNOWLEDGE : (long)CURL_HTTP_VERSION_2TLS);
		/* libcurl 7.88 fails the second request on a reused HTTP/2
		 * connection to a gRPC server ("Error in the HTTP2 framing
		 * layer"): one connection a request */
		cu.curl_easy_setopt(h, CURLOPT_FORBID_REUSE, 1L);
		hdrs = cu.curl_slist_append(hdrs, "Content-Type: application/grpc+proto");
		hdrs = cu.curl_slist_append(hdrs, "TE: trailers");
		hdrs = cu.curl_slist_append(hdrs, "grpc-accept-encoding: identity,gzip");
		if (s->gzip)
			hdrs = cu.curl_slist_append(hdrs, "grpc-encoding: gzip");
		snprintf(line, sizeof(line), "grpc-timeout: %ldm", left_ms);
		hdrs = cu.curl_slist_append(hdrs, line);
	} else {
		cu.curl_easy_setopt(h, CURLOPT_ACCEPT_ENCODING, "");
		hdrs = cu.curl_slist_append(hdrs, s->proto == OTLP_PROTO_HTTP_JSON
					 ? "Content-Type: application/json"
					 : "Content-Type: application/x-protobuf");
		if (s->gzip)
			hdrs = cu.curl_slist_append(hdrs, "Content-Encoding: gzip");
	}
	hdrs = cu.curl_slist_append(hdrs, "Expect:");
	for (size_t i = 0; i < s->nheaders; i++) {
		snprintf(line, sizeof(line), "%s: %s", s->headers[i].key, s->headers[i].value);
		hdrs = cu.curl_slist_append(hdrs, line);
	}
	cu.curl_easy_setopt(h, CURLOPT_HTTPHEADER, hdrs);

	cu.curl_multi_add_handle(snd->multi, h);
	while (!done) {
		int running = 0, nmsg;
		CURLMsg *m;
		if (cu.curl_multi_perform(snd->multi, &running) != CURLM_OK) {
			cc = CURLE_FAILED_INIT;
			break;
		}
		while ((m = cu.curl_multi_info_read(snd->multi, &nmsg)))
			if (m->msg == CURLMSG_DONE && m->easy_handle == h) {
				cc = m->data.result;
				done = true;
			}
		if (done)
			break;
		if (aborted(snd)) {
			cc = CURLE_ABORTED_BY_CALLBACK;
			snprintf(errbuf, sizeof(errbuf), "cut off when the run ended");
			break;
		}
		cu.curl_multi_poll(snd->multi, NULL, 0, 100, NULL);
	}
	cu.curl_multi_remove_handle(snd->multi, h);
	cu.curl_slist_free_all(hdrs);

	if (cc != CURLE_OK) {
		const char *what = *errbuf ? errbuf : cu.curl_easy_strerror(cc);
		if (cc == CURLE_OPERATION_TIMEDOUT)
			snprintf(res->reason, sizeof(res->reason), "no answer within the %u ms timeout (%s)",
				 s->timeout_ms, what);
		else
			snprintf(res->reason, sizeof(res->reason), "%s", what);
		/* a dropped connection or stream may work the next time */
		res->retryable = cc == CURLE_SEND_ERROR || cc == CURLE_RECV_ERROR ||
				 cc == CURLE_GOT_NOTHING || cc == CURLE_HTTP2 ||
				 cc == CURLE_HTTP2_STREAM || cc == CURLE_PARTIAL_FILE;
		return;
	}
	res->http_status = rs.status;
	if (grpc && !strncmp(s->url, "https:", 6)) {
		long ver = 0;
		cu.curl_easy_getinfo(h, CURLINFO_HTTP_VERSION, &ver);
		if (ver != CURL_HTTP_VERSION_2_0) {
			snprintf(res->reason, sizeof(res->reason),
				 "the server did not agree to HTTP/2, which gRPC needs");
			return;
		}
	}
	if (grpc)
		finish_grpc(snd, &rs, res);
	else
		finish_http(snd, &rs, res);
	res->retry_after_ms = rs.retry_after_ms;
}

/* ---- the thread ---- */

static uint64_t rng_jitter_next(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static uint64_t rng_jitter(uint64_t *x, uint64_t range)
{
	return range ? rng_jitter_next(x) % range : 0;
}


static void record_failure(struct otlp_sender *snd, const char *reason)
{
	if (!snd->have_reason) {
		snprintf(snd->first_reason, sizeof(snd->first_reason), "%s", reason);
		snd->have_reason = true;
	}
}

/* Sleeps until mono deadline or abort; returns false when aborted. */
static bool nap(struct otlp_sender *snd, uint64_t until)
{
	struct timespec ts;

	abstime(&ts, until);
	pthread_mutex_lock(&snd->mu);
	while (!aborted(snd) && mono_ns() < until)
		if (pthread_cond_timedwait(&snd->cv_work, &snd->mu, &ts) == ETIMEDOUT)
			break;
	pthread_mutex_unlock(&snd->mu);
	return !aborted(snd);
}

static void export_batch(struct otlp_sender *snd, struct otlp_batch *b)
{
	const struct otlp_settings *s = snd->s;
	struct otlp_result res;
	uint64_t start = mono_ns(), deadline = start + (uint64_t)s->timeout_ms * 1000000u;
	unsigned attempt = 0;
	bool retry_ok;

	pthread_mutex_lock(&snd->mu);
	if (snd->finishing && snd->finish_deadline < deadline)
		deadline = snd->finish_deadline;
	retry_ok = snd->health == H_OK;
	pthread_mutex_unlock(&snd->mu);

	strbuf_reset(&snd->enc);
	strbuf_reset(&snd->body);
	if (s->proto == OTLP_PROTO_HTTP_JSON)
		otlp_encode_json(&snd->enc, snd->res, b);
	else
		otlp_encode_pb(&snd->enc, snd->res, b);
	if (s->proto == OTLP_PROTO_GRPC)
		strbuf_add(&snd->body, "\0\0\0\0\0", 5);
	if (!s->gzip || gzip_to(&snd->body, snd->enc.buf, snd->enc.len) < 0) {
		if (s->proto == OTLP_PROTO_GRPC && s->gzip) {
			/* compression failed: cannot send uncompressed under grpc-encoding */
			memset(&res, 0, sizeof(res));
			snprintf(res.reason, sizeof(res.reason), "cannot compress the request");
			goto failed;
		}
		strbuf_add(&snd->body, snd->enc.buf, snd->enc.len);
	}
	if (s->proto == OTLP_PROTO_GRPC) {
		uint32_t len = (uint32_t)(snd->body.len - 5);
		snd->body.buf[0] = s->gzip ? 1 : 0;
		snd->body.buf[1] = (char)(len >> 24);
		snd->body.buf[2] = (char)(len >> 16);
		snd->body.buf[3] = (char)(len >> 8);
		snd->body.buf[4] = (char)len;
	}

	for (;;) {
		uint64_t delay_ms, now;
		perform(snd, &snd->body, deadline, &res);
		pthread_mutex_lock(&snd->mu);
		snd->st.requests++;
		pthread_mutex_unlock(&snd->mu);
		if (res.ok)
			break;
		if (!res.retryable || !retry_ok || aborted(snd))
			goto failed;
		if (res.retry_after_ms >= 0) {
			delay_ms = (uint64_t)res.retry_after_ms;
		} else {
			uint64_t base = BACKOFF_FIRST_MS << (attempt < 5 ? attempt : 5);
			if (base > BACKOFF_MAX_MS)
				base = BACKOFF_MAX_MS;
			/* full range jitter: 0.5x .. 1.5x */
			delay_ms = base / 2 + rng_jitter(&snd->rng, base);
		}
		now = mono_ns();
		if (now + delay_ms * 1000000u >= deadline) {
			size_t l = strlen(res.reason);
			if (res.retry_after_ms >= 0)
				snprintf(res.reason + l, sizeof(res.reason) - l,
					 " (the collector asked to retry after %llu ms, past the %u ms timeout)",
					 (unsigned long long)delay_ms, s->timeout_ms);
			else
				snprintf(res.reason + l, sizeof(res.reason) - l,
					 " (still failing after %u attempts within the %u ms timeout)",
					 attempt + 1, s->timeout_ms);
			goto failed;
		}
		if (!nap(snd, now + delay_ms * 1000000u))
			goto failed;
		attempt++;
		pthread_mutex_lock(&snd->mu);
		snd->st.retries++;
		pthread_mutex_unlock(&snd->mu);
	}
	pthread_mutex_lock(&snd->mu);
	snd->health = H_OK;
	if (res.rejected > 0 || (res.rejected == 0 && *res.reason)) {
		uint64_t rej = res.rejected > 0 ? (uint64_t)res.rejected : 0;
		if (rej > b->n)
			rej = b->n;
		snd->st.rejected += rej;
		snd->st.exported += b->n - rej;
		if (!snd->have_partial && *res.reason) {
			snprintf(snd->partial_msg, sizeof(snd->partial_msg), "%s", res.reason);
			snd->have_partial = true;
		}
	} else {
		snd->st.exported += b->n;
	}
	pthread_cond_broadcast(&snd->cv_space);
	pthread_mutex_unlock(&snd->mu);
	return;
failed:
	pthread_mutex_lock(&snd->mu);
	snd->health = H_FAILING;
	snd->failed_batches++;
	snd->st.dropped += b->n;
	if (aborted(snd))
		snd->cut_dropped += b->n;
	record_failure(snd, res.reason);
	pthread_cond_broadcast(&snd->cv_space);
	pthread_mutex_unlock(&snd->mu);
}

static void *sender_main(void *arg)
{
	struct otlp_sender *snd = arg;

	snd->easy = cu.curl_easy_init();
	pthread_mutex_lock(&snd->mu);
	snd->multi = cu.curl_multi_init();
	for (;;) {
		struct otlp_batch *b;
		while (!snd->qhead && !snd->finishing && !aborted(snd))
			pthread_cond_wait(&snd->cv_work, &snd->mu);
		if (!snd->qhead)
			break;
		if (aborted(snd) || !snd->easy || !snd->multi) {
			/* cut off: what is queued is not sent */
			for (b = snd->qhead; b; b = b->next) {
				snd->st.dropped += b->n;
				snd->cut_dropped += b->n;
			}
			if (!snd->easy || !snd->multi)
				record_failure(snd, "cannot set up libcurl");
			while ((b = snd->qhead)) {
				snd->qhead = b->next;
				otlp_batch_reset(b);
				b->next = snd->free_list;
				snd->free_list = b;
			}
			snd->qtail = NULL;
			snd->qspans = 0;
			pthread_cond_broadcast(&snd->cv_space);
			break;
		}
		b = snd->qhead;
		snd->qhead = b->next;
		if (!snd->qhead)
			snd->qtail = NULL;
		snd->qspans -= b->n;
		pthread_cond_broadcast(&snd->cv_space);
		pthread_mutex_unlock(&snd->mu);

		export_batch(snd, b);

		pthread_mutex_lock(&snd->mu);
		otlp_batch_reset(b);
		b->next = snd->free_list;
		snd->free_list = b;
	}
	snd->done = true;
	pthread_cond_broadcast(&snd->cv_done);
	pthread_cond_broadcast(&snd->cv_space);
	pthread_mutex_unlock(&snd->mu);
	return NULL;
}

struct otlp_sender *otlp_sender_new(const struct otlp_settings *s,
				    const struct otlp_resource *res)
{
	struct otlp_sender *snd = xcalloc(1, sizeof(*snd));
	pthread_condattr_t ca;
	const char *why;

	snd->s = s;
	snd->res = res;
	strbuf_init(&snd->enc, 0);
	strbuf_init(&snd->body, 0);
	strbuf_init(&snd->resp, 0);
	strbuf_init(&snd->hdr_status_msg, 0);
	pthread_mutex_init(&snd->mu, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&snd->cv_work, &ca);
	pthread_cond_init(&snd->cv_space, &ca);
	pthread_cond_init(&snd->cv_done, &ca);
	pthread_condattr_destroy(&ca);
	snd->hold_left_ns = (int64_t)s->timeout_ms * 1000000;
	snd->rng = mono_ns() ^ (uint64_t)(uintptr_t)snd;
	if (dynlib_load(&curl_lib, &why) < 0) {
		/* every span is dropped, and the run's end says why */
		record_failure(snd, why);
		snd->done = true;
	} else {
		cu.curl_global_init(CURL_GLOBAL_DEFAULT);
	}
	return snd;
}

/* Starts the thread with every signal blocked: they are the tracer's. */
static void start_thread(struct otlp_sender *snd)
{
	sigset_t all, old;

	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	if (pthread_create(&snd->th, NULL, sender_main, snd) == 0)
		snd->started = true;
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (!snd->started) {
		record_failure(snd, "cannot start the sender thread");
		snd->done = true;
	}
}

struct otlp_batch *otlp_sender_push(struct otlp_sender *snd, struct otlp_batch *b)
{
	struct otlp_batch *nb;

	pthread_mutex_lock(&snd->mu);
	if (!snd->started && !snd->done)
		start_thread(snd);
	while (snd->qspans && snd->qspans + b->n > snd->s->queue_size && !snd->done &&
	       snd->health == H_OK && (snd->s->patient || snd->hold_left_ns > 0)) {
		struct timespec ts;
		uint64_t t0 = mono_ns();
		uint64_t until = t0 + (snd->s->patient ? 1000000000ull : (uint64_t)snd->hold_left_ns);
		abstime(&ts, until);
		pthread_cond_timedwait(&snd->cv_space, &snd->mu, &ts);
		if (!snd->s->patient)
			snd->hold_left_ns -= (int64_t)(mono_ns() - t0);
	}
	if (snd->done || (snd->qspans && snd->qspans + b->n > snd->s->queue_size)) {
		snd->st.dropped += b->n;
		snd->queue_dropped += b->n;
		pthread_mutex_unlock(&snd->mu);
		otlp_batch_reset(b);
		return b;
	}
	b->next = NULL;
	if (snd->qtail)
		snd->qtail->next = b;
	else
		snd->qhead = b;
	snd->qtail = b;
	snd->qspans += b->n;
	pthread_cond_signal(&snd->cv_work);
	nb = snd->free_list;
	if (nb)
		snd->free_list = nb->next;
	pthread_mutex_unlock(&snd->mu);
	if (!nb)
		nb = xcalloc(1, sizeof(*nb));
	nb->next = NULL;
	return nb;
}

void otlp_sender_finish(struct otlp_sender *snd, struct otlp_stats *st, char **msg)
{
	struct strbuf sb = STRBUF_INIT;
	const struct otlp_settings *s = snd->s;
	uint64_t spans;

	pthread_mutex_lock(&snd->mu);
	if (!snd->finishing) {
		uint64_t now = mono_ns();
		int64_t left = snd->s->patient ? (int64_t)s->timeout_ms * 1000000 : snd->hold_left_ns;
		if (left < 0)
			left = 0;
		snd->finishing = true;
		snd->finish_deadline = now + (uint64_t)left;
		pthread_cond_broadcast(&snd->cv_work);
		if (snd->started) {
			struct timespec ts;
			abstime(&ts, snd->finish_deadline);
			while (!snd->done)
				if (pthread_cond_timedwait(&snd->cv_done, &snd->mu, &ts) == ETIMEDOUT)
					break;
			if (!snd->done) {
				__atomic_store_n(&snd->abort, 1, __ATOMIC_RELEASE);
				if (snd->multi)
					cu.curl_multi_wakeup(snd->multi);
				pthread_cond_broadcast(&snd->cv_work);
				while (!snd->done)
					pthread_cond_wait(&snd->cv_done, &snd->mu);
			}
		}
	}
	pthread_mutex_unlock(&snd->mu);
	if (snd->started) {
		pthread_join(snd->th, NULL);
		snd->started = false;
	}

	*st = snd->st;
	spans = st->exported + st->rejected + st->dropped;
	if (st->dropped) {
		strbuf_addf(&sb, "OTLP export to '%s' failed: ", esc(s->endpoint));
		if (snd->have_reason)
			strbuf_addstr(&sb, snd->first_reason);
		else if (snd->queue_dropped)
			strbuf_addf(&sb, "the collector could not keep up within the %u ms timeout",
				    s->timeout_ms);
		strbuf_addf(&sb, "; %llu of %llu spans not exported",
			    (unsigned long long)st->dropped, (unsigned long long)spans);
		if (snd->cut_dropped && snd->have_reason && !strstr(snd->first_reason, "cut off"))
			strbuf_addf(&sb, " (%llu cut off when the run ended)",
				    (unsigned long long)snd->cut_dropped);
	}
	if (st->rejected || snd->have_partial) {
		strbuf_addstr(&sb, sb.len ? "; " : "");
		strbuf_addf(&sb, "OTLP collector at '%s' rejected %llu of %llu spans%s%s", esc(s->endpoint),
			    (unsigned long long)st->rejected, (unsigned long long)spans,
			    snd->have_partial ? ": " : "", snd->have_partial ? esc(snd->partial_msg) : "");
	}
	*msg = sb.len ? strbuf_detach(&sb, NULL) : NULL;
	strbuf_release(&sb);
}

void otlp_sender_free(struct otlp_sender *snd)
{
	struct otlp_batch *b;

	if (!snd)
		return;
	if (snd->started) {
		struct otlp_stats st;
		char *msg = NULL;
		otlp_sender_finish(snd, &st, &msg);
		free(msg);
	}
	while ((b = snd->qhead)) {
		snd->qhead = b->next;
		otlp_batch_free(b);
	}
	while ((b = snd->free_list)) {
		snd->free_list = b->next;
		otlp_batch_free(b);
	}
	if (snd->multi)
		cu.curl_multi_cleanup(snd->multi);
	if (snd->easy)
		cu.curl_easy_cleanup(snd->easy);
	strbuf_release(&snd->enc);
	strbuf_release(&snd->body);
	strbuf_release(&snd->resp);
	strbuf_release(&snd->hdr_status_msg);
	pthread_mutex_destroy(&snd->mu);
	pthread_cond_destroy(&snd->cv_work);
	pthread_cond_destroy(&snd->cv_space);
	pthread_cond_destroy(&snd->cv_done);
	free(snd);
}
