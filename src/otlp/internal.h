/*
 * Inside the OTLP exporter: spans as the sink builds them, batches of
 * spans, their protobuf and JSON encodings, and the sender.
 */
#ifndef RENACER_OTLP_INTERNAL_H
#define RENACER_OTLP_INTERNAL_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "otlp/otlp.h"
#include "util/arena.h"
#include "util/strbuf.h"

/* Attribute value types. */
enum { OA_STR = 1, OA_INT, OA_DOUBLE, OA_BOOL, OA_STRARR };

struct otlp_attr {
	const char *key;            /* static or in the batch's arena */
	uint8_t type;
	union {
		struct {
			const char *p;   /* bytes, may hold NULs; not terminated */
			uint32_t len;
		} s;
		int64_t i;
		double d;
		bool b;
		struct {
			const char **p;  /* n strings, each NUL terminated */
			uint32_t n;
		} arr;
	};
};

/* A span event (signals delivered to a process). */
struct otlp_event {
	uint64_t time_ns;           /* unix ns */
	const char *name;
	struct otlp_attr *attrs;
	uint32_t nattrs;
};

enum { OTLP_STATUS_UNSET = 0, OTLP_STATUS_OK = 1, OTLP_STATUS_ERROR = 2 };
enum { OTLP_KIND_INTERNAL = 1 };

struct otlp_span {
	uint8_t span_id[8];
	uint8_t parent_id[8];       /* all zero: a root span */
	const char *name;
	uint64_t start_ns, end_ns;  /* unix ns */
	uint32_t flags;             /* Span.flags: trace flags | is-remote bits */
	uint8_t status;
	const char *status_msg;     /* NULL or the ERROR message */
	struct otlp_attr *attrs;
	uint32_t nattrs;
	struct otlp_event *events;
	uint32_t nevents;
	uint32_t dropped_events;
};

/* What every request of a run shares. */
struct otlp_resource {
	uint8_t trace_id[16];
	const char *tracestate;     /* of spans whose parent is remote, or NULL */
	struct otlp_attr *attrs;    /* resource attributes */
	uint32_t nattrs;
	const char *scope_name, *scope_version;
};

/* A batch of spans; everything the spans point to lives in arena. */
struct otlp_batch {
	struct otlp_span *spans;
	size_t n, alloc;
	struct arena arena;
	uint64_t first_ns;          /* trace time of the first span added */
	struct otlp_batch *next;    /* queue / free list link */
};

void otlp_batch_reset(struct otlp_batch *b);
void otlp_batch_free(struct otlp_batch *b);

/* ExportTraceServiceRequest of the batch, appended to sb. */
void otlp_encode_pb(struct strbuf *sb, const struct otlp_resource *res,
		    const struct otlp_batch *b);
/* The same in OTLP JSON (hex ids, integer enums, 64-bit integers as strings). */
void otlp_encode_json(struct strbuf *sb, const struct otlp_resource *res,
		      const struct otlp_batch *b);

/* Lowercase hex of n bytes. */
void otlp_add_hex(struct strbuf *sb, const uint8_t *p, size_t n);

/*
 * The sender: a thread that takes batches from a bounded queue and exports
 * them.  The producer (the sink, on the tracer's thread) never blocks for
 * longer than the timeout over the whole run.
 */
struct otlp_sender;

/*
 * A sender for s, its thread not started yet.  It loads libcurl; when that
 * fails, every batch pushed is dropped and otlp_sender_finish() reports the
 * reason ("cannot load 'libcurl.so.4': ...") with the count.
 */
struct otlp_sender *otlp_sender_new(const struct otlp_settings *s,
				    const struct otlp_resource *res);
/*
 * Hands a full batch over; returns an empty batch for the producer to fill
 * (a recycled one).  When the queue is full the producer waits while the
 * collector is taking batches, for at most what is left of the timeout
 * over the whole run; after that (or while exports fail) the batch is
 * dropped and counted.
 */
struct otlp_batch *otlp_sender_push(struct otlp_sender *snd, struct otlp_batch *b);
/*
 * Sends what is queued, waiting at most what is left of the timeout, then
 * stops the thread (an export still running is cut off).  Fills st.
 * Sets *msg (malloc'ed, or NULL when all went well) to the one-line
 * summary of what went wrong.
 */
void otlp_sender_finish(struct otlp_sender *snd, struct otlp_stats *st, char **msg);
void otlp_sender_free(struct otlp_sender *snd);

/*
 * One export attempt chain of an encoded request (used by the sender and
 * by tests): see transport.c.
 */
struct otlp_result {
	int ok;                     /* 1: accepted (perhaps partly) */
	int retryable;              /* failed, worth retrying */
	long http_status;           /* 0 when no HTTP answer */
	int grpc_status;            /* -1 when none */
	int64_t retry_after_ms;     /* server-asked delay, -1 when none */
	int64_t rejected;           /* partial success: rejected spans, -1 none */
	char reason[512];           /* what failed, or the partial-success message */
};

#endif
