/* Growable string buffer: the one string builder used everywhere. */
#ifndef RENACER_STRBUF_H
#define RENACER_STRBUF_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

/*
 * Invariant: buf is never NULL and always NUL terminated; len is the length
 * of the string (buf[len] == '\0').  STRBUF_INIT gives an empty buffer that
 * owns no memory yet; strbuf_release frees it and leaves it as STRBUF_INIT.
 * strbuf_detach hands the string to the caller (who frees it).
 */
struct strbuf {
	size_t alloc;
	size_t len;
	char *buf;
};

extern char strbuf_slopbuf[];
#define STRBUF_INIT { 0, 0, strbuf_slopbuf }

void strbuf_init(struct strbuf *sb, size_t hint);
void strbuf_release(struct strbuf *sb);
char *strbuf_detach(struct strbuf *sb, size_t *len);
void strbuf_grow(struct strbuf *sb, size_t extra);

static inline void strbuf_setlen(struct strbuf *sb, size_t len)
{
	sb->len = len;
	if (sb->buf != strbuf_slopbuf)
		sb->buf[len] = '\0';
}
static inline void strbuf_reset(struct strbuf *sb) { strbuf_setlen(sb, 0); }

void strbuf_add(struct strbuf *sb, const void *data, size_t len);
void strbuf_addstr(struct strbuf *sb, const char *s);
void strbuf_addch(struct strbuf *sb, int c);
void strbuf_addchars(struct strbuf *sb, int c, size_t n);
void strbuf_addf(struct strbuf *sb, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void strbuf_vaddf(struct strbuf *sb, const char *fmt, va_list ap);
void strbuf_add_u64(struct strbuf *sb, uint64_t v);  /* fast decimal */
void strbuf_add_i64(struct strbuf *sb, int64_t v);
void strbuf_add_hex(struct strbuf *sb, uint64_t v);  /* "0x" lowercase */

/*
 * Appends s as a JSON string literal (with quotes).  Bytes that are not
 * valid UTF-8 are written as \u00XX escapes of the byte value, so that the
 * result always parses and every byte can be recovered.
 */
void strbuf_add_json_str(struct strbuf *sb, const char *s, size_t len);
/* The same for a C string; NULL is written as null. */
void strbuf_add_json_cstr(struct strbuf *sb, const char *s);

/* Appends s quoted for CSV (RFC 4180) when it needs quoting, else as is. */
void strbuf_add_csv_field(struct strbuf *sb, const char *s, size_t len);

/* Reads a whole file into sb; returns 0 or -1 with errno set. */
int strbuf_read_file(struct strbuf *sb, const char *path);
/*
 * strbuf_read_file() that reads at most max bytes (0: no bound): a longer
 * file gives -1 with errno EFBIG, and sb holds max + 1 bytes of it at most.
 */
int strbuf_read_file_max(struct strbuf *sb, const char *path, size_t max);

#endif
