/*
 * A small protobuf wire-format writer and reader: enough for the OTLP trace
 * messages renacer sends and the few it reads back (export responses,
 * google.rpc.Status with RetryInfo).  Writers append to a strbuf and never
 * fail; readers never read past the buffer they are given.
 */
#ifndef RENACER_OTLP_PB_H
#define RENACER_OTLP_PB_H

#include <stddef.h>
#include <stdint.h>

#include "util/strbuf.h"

/* Wire types. */
enum { PB_VARINT = 0, PB_I64 = 1, PB_LEN = 2, PB_I32 = 5 };

void pb_varint(struct strbuf *sb, uint64_t v);
void pb_tag(struct strbuf *sb, unsigned field, unsigned wire);
/* field = varint v; proto3 default 0 is still written (callers skip it). */
void pb_uint(struct strbuf *sb, unsigned field, uint64_t v);
void pb_int64(struct strbuf *sb, unsigned field, int64_t v);   /* two's complement */
void pb_fixed64(struct strbuf *sb, unsigned field, uint64_t v);
void pb_fixed32(struct strbuf *sb, unsigned field, uint32_t v);
void pb_double(struct strbuf *sb, unsigned field, double v);
void pb_bytes(struct strbuf *sb, unsigned field, const void *p, size_t len);
void pb_string(struct strbuf *sb, unsigned field, const char *s);

/*
 * A nested message: pb_begin() writes the tag and reserves one length byte,
 * returning the offset where the message's bytes start; pb_end() writes the
 * real length there (moving the bytes when it needs more than one byte).
 * Pairs nest like parentheses.
 */
size_t pb_begin(struct strbuf *sb, unsigned field);
void pb_end(struct strbuf *sb, size_t start);

/* Reading: a cursor over len bytes. */
struct pb_reader {
	const uint8_t *p, *end;
	int bad;                 /* set on a malformed or truncated input */
};

/* One field as read. */
struct pb_field {
	unsigned num, wire;
	uint64_t v;              /* PB_VARINT, PB_I64, PB_I32 */
	const uint8_t *data;     /* PB_LEN */
	size_t len;
};

void pb_reader_init(struct pb_reader *r, const void *p, size_t len);
/*
 * Reads the next field into f.  Returns 1, 0 at the end of the input, or
 * -1 (and sets r->bad) on malformed input (bad varint, length past the
 * end, unknown or group wire types).
 */
int pb_next(struct pb_reader *r, struct pb_field *f);

#endif
