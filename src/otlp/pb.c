/* Protobuf wire format: the writer and reader of pb.h. */
#include "otlp/pb.h"

#include <string.h>

#include "util/banned.h"

void pb_varint(struct strbuf *sb, uint64_t v)
{
	uint8_t b[10];
	size_t n = 0;

	do {
		b[n] = (uint8_t)(v & 0x7f);
		v >>= 7;
		if (v)
			b[n] |= 0x80;
		n++;
	} while (v);
	strbuf_add(sb, b, n);
}

void pb_tag(struct strbuf *sb, unsigned field, unsigned wire)
{
	pb_varint(sb, ((uint64_t)field << 3) | wire);
}

void pb_uint(struct strbuf *sb, unsigned field, uint64_t v)
{
	pb_tag(sb, field, PB_VARINT);
	pb_varint(sb, v);
}

void pb_int64(struct strbuf *sb, unsigned field, int64_t v)
{
	pb_uint(sb, field, (uint64_t)v);
}

void pb_fixed64(struct strbuf *sb, unsigned field, uint64_t v)
{
	uint8_t b[8];

	for (int i = 0; i < 8; i++)
		b[i] = (uint8_t)(v >> (8 * i));
	pb_tag(sb, field, PB_I64);
	strbuf_add(sb, b, 8);
}

void pb_fixed32(struct strbuf *sb, unsigned field, uint32_t v)
{
	uint8_t b[4];

	for (int i = 0; i < 4; i++)
		b[i] = (uint8_t)(v >> (8 * i));
	pb_tag(sb, field, PB_I32);
	strbuf_add(sb, b, 4);
}

void pb_double(struct strbuf *sb, unsigned field, double v)
{
	uint64_t u;

	memcpy(&u, &v, sizeof(u));
	pb_fixed64(sb, field, u);
}

void pb_bytes(struct strbuf *sb, unsigned field, const void *p, size_t len)
{
	pb_tag(sb, field, PB_LEN);
	pb_varint(sb, len);
	strbuf_add(sb, p, len);
}

void pb_string(struct strbuf *sb, unsigned field, const char *s)
{
	pb_bytes(sb, field, s, strlen(s));
}

size_t pb_begin(struct strbuf *sb, unsigned field)
{
	pb_tag(sb, field, PB_LEN);
	strbuf_addch(sb, 0);
	return sb->len;
}

void pb_end(struct strbuf *sb, size_t start)
{
	size_t len = sb->len - start, n = 0;
	uint8_t b[10];
	uint64_t v = len;

	do {
		b[n] = (uint8_t)(v & 0x7f);
		v >>= 7;
		if (v)
			b[n] |= 0x80;
		n++;
	} while (v);
	if (n > 1) {
		strbuf_grow(sb, n - 1);
		memmove(sb->buf + start + n - 1, sb->buf + start, len);
		strbuf_setlen(sb, sb->len + n - 1);
	}
	memcpy(sb->buf + start - 1, b, n);
}

void pb_reader_init(struct pb_reader *r, const void *p, size_t len)
{
	r->p = p;
	r->end = r->p + len;
	r->bad = 0;
}

static int read_varint(struct pb_reader *r, uint64_t *out)
{
	uint64_t v = 0;

	for (unsigned shift = 0; shift < 70; shift += 7) {
		if (r->p >= r->end)
			return -1;
		uint8_t b = *r->p++;
		v |= (uint64_t)(b & 0x7f) << shift;
		if (!(b & 0x80)) {
			*out = v;
			return 0;
		}
	}
	return -1;
}

int pb_next(struct pb_reader *r, struct pb_field *f)
{
	uint64_t key;

	if (r->bad)
		return -1;
	if (r->p >= r->end)
		return 0;
	memset(f, 0, sizeof(*f));
	if (read_varint(r, &key) < 0 || (key >> 3) == 0 || (key >> 3) > 0x1fffffff)
		goto bad;
	f->num = (unsigned)(key >> 3);
	f->wire = (unsigned)(key & 7);
	switch (f->wire) {
	case PB_VARINT:
		if (read_varint(r, &f->v) < 0)
			goto bad;
		return 1;
	case PB_I64:
		if (r->end - r->p < 8)
			goto bad;
		for (int i = 0; i < 8; i++)
			f->v |= (uint64_t)r->p[i] << (8 * i);
		r->p += 8;
		return 1;
	case PB_I32:
		if (r->end - r->p < 4)
			goto bad;
		for (int i = 0; i < 4; i++)
			f->v |= (uint64_t)r->p[i] << (8 * i);
		r->p += 4;
		return 1;
	case PB_LEN: {
		uint64_t len;
		if (read_varint(r, &len) < 0 || len > (uint64_t)(r->end - r->p))
			goto bad;
		f->data = r->p;
		f->len = (size_t)len;
		r->p += len;
		return 1;
	}
	}
bad:
	r->bad = 1;
	return -1;
}
