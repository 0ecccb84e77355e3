/* Growable string buffer (see strbuf.h). */
#include "util/strbuf.h"
#include "util/utf8.h"
#include "util/xmalloc.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

char strbuf_slopbuf[1];

void strbuf_init(struct strbuf *sb, size_t hint)
{
	sb->alloc = sb->len = 0;
	sb->buf = strbuf_slopbuf;
	if (hint)
		strbuf_grow(sb, hint);
}

void strbuf_release(struct strbuf *sb)
{
	if (sb->alloc)
		free(sb->buf);
	strbuf_init(sb, 0);
}

char *strbuf_detach(struct strbuf *sb, size_t *len)
{
	char *r;
	if (!sb->alloc)
		strbuf_grow(sb, 0);
	r = sb->buf;
	if (len)
		*len = sb->len;
	strbuf_init(sb, 0);
	return r;
}

void strbuf_grow(struct strbuf *sb, size_t extra)
{
	size_t need = sb->len + extra + 1;
	if (need < sb->len) {
		fprintf(stderr, "renacer: string too long\n");
		abort();
	}
	if (!sb->alloc)
		sb->buf = NULL;
	if (need > sb->alloc) {
		size_t n = sb->alloc ? sb->alloc * 2 : 64;
		while (n < need)
			n *= 2;
		sb->buf = xrealloc(sb->buf, n);
		if (!sb->alloc)
			sb->buf[0] = '\0';
		sb->alloc = n;
	}
}

void strbuf_add(struct strbuf *sb, const void *data, size_t len)
{
	strbuf_grow(sb, len);
	memcpy(sb->buf + sb->len, data, len);
	strbuf_setlen(sb, sb->len + len);
}

void strbuf_addstr(struct strbuf *sb, const char *s)
{
	strbuf_add(sb, s, strlen(s));
}

void strbuf_addch(struct strbuf *sb, int c)
{
	strbuf_grow(sb, 1);
	sb->buf[sb->len++] = (char)c;
	sb->buf[sb->len] = '\0';
}

void strbuf_addchars(struct strbuf *sb, int c, size_t n)
{
	strbuf_grow(sb, n);
	memset(sb->buf + sb->len, c, n);
	strbuf_setlen(sb, sb->len + n);
}

void strbuf_vaddf(struct strbuf *sb, const char *fmt, va_list ap)
{
	va_list cp;
	int n;

	strbuf_grow(sb, 64);
	va_copy(cp, ap);
	n = vsnprintf(sb->buf + sb->len, sb->alloc - sb->len, fmt, cp);
	va_end(cp);
	if (n < 0)
		return;
	if ((size_t)n >= sb->alloc - sb->len) {
		strbuf_grow(sb, (size_t)n);
		n = vsnprintf(sb->buf + sb->len, sb->alloc - sb->len, fmt, ap);
	}
	strbuf_setlen(sb, sb->len + (size_t)n);
}

void strbuf_addf(struct strbuf *sb, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	strbuf_vaddf(sb, fmt, ap);
	va_end(ap);
}

void strbuf_add_u64(struct strbuf *sb, uint64_t v)
{
	char tmp[24];
	int i = sizeof(tmp);
	do {
		tmp[--i] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	strbuf_add(sb, tmp + i, sizeof(tmp) - (size_t)i);
}

void strbuf_add_i64(struct strbuf *sb, int64_t v)
{
	if (v < 0) {
		strbuf_addch(sb, '-');
		strbuf_add_u64(sb, (uint64_t)0 - (uint64_t)v);
	} else {
		strbuf_add_u64(sb, (uint64_t)v);
	}
}

void strbuf_add_hex(struct strbuf *sb, uint64_t v)
{
	static const char hx[] = "0123456789abcdef";
	char tmp[20];
	int i = sizeof(tmp);
	do {
		tmp[--i] = hx[v & 15];
		v >>= 4;
	} while (v);
	tmp[--i] = 'x';
	tmp[--i] = '0';
	strbuf_add(sb, tmp + i, sizeof(tmp) - (size_t)i);
}

void strbuf_add_json_cstr(struct strbuf *sb, const char *s)
{
	if (s)
		strbuf_add_json_str(sb, s, strlen(s));
	else
		strbuf_addstr(sb, "null");
}

void strbuf_add_json_str(struct strbuf *sb, const char *str, size_t len)
{
	static const char hx[] = "0123456789abcdef";
	const unsigned char *s = (const unsigned char *)str;
	size_t i = 0;

	strbuf_grow(sb, len + 2);
	strbuf_addch(sb, '"');
	while (i < len) {
		unsigned c = s[i];
		size_t run = i;

		/* copy runs of plain printable ASCII in one go */
		while (run < len && s[run] >= 0x20 && s[run] < 0x80 &&
		       s[run] != '"' && s[run] != '\\')
			run++;
		if (run > i) {
			strbuf_add(sb, s + i, run - i);
			i = run;
			continue;
		}
		c = s[i];
		switch (c) {
		case '"': strbuf_add(sb, "\\\"", 2); i++; continue;
		case '\\': strbuf_add(sb, "\\\\", 2); i++; continue;
		case '\n': strbuf_add(sb, "\\n", 2); i++; continue;
		case '\t': strbuf_add(sb, "\\t", 2); i++; continue;
		case '\r': strbuf_add(sb, "\\r", 2); i++; continue;
		case '\b': strbuf_add(sb, "\\b", 2); i++; continue;
		case '\f': strbuf_add(sb, "\\f", 2); i++; continue;
		}
		if (c < 0x20) {
			char e[6] = { '\\', 'u', '0', '0', hx[c >> 4], hx[c & 15] };
			strbuf_add(sb, e, 6);
			i++;
			continue;
		}
		{
			size_t l = utf8_seq_len(s + i, len - i, NULL);
			if (l) {
				strbuf_add(sb, s + i, l);
				i += l;
			} else {
				char e[6] = { '\\', 'u', '0', '0', hx[c >> 4], hx[c & 15] };
				strbuf_add(sb, e, 6);
				i++;
			}
		}
	}
	strbuf_addch(sb, '"');
}

void strbuf_add_csv_field(struct strbuf *sb, const char *s, size_t len)
{
	size_t i;
	int quote = 0;

	for (i = 0; i < len; i++)
		if (s[i] == ',' || s[i] == '"' || s[i] == '\n' || s[i] == '\r') {
			quote = 1;
			break;
		}
	if (!quote) {
		strbuf_add(sb, s, len);
		return;
	}
	strbuf_addch(sb, '"');
	for (i = 0; i < len; i++) {
		if (s[i] == '"')
			strbuf_addch(sb, '"');
		strbuf_addch(sb, s[i]);
	}
	strbuf_addch(sb, '"');
}

int strbuf_read_file(struct strbuf *sb, const char *path)
{
	return strbuf_read_file_max(sb, path, 0);
}

int strbuf_read_file_max(struct strbuf *sb, const char *path, size_t max)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	size_t start = sb->len;
	ssize_t n;

	if (fd < 0)
		return -1;
	for (;;) {
		size_t room;

		strbuf_grow(sb, 65536);
		room = sb->alloc - sb->len - 1;
		if (max && room > max + 1 - (sb->len - start))
			room = max + 1 - (sb->len - start);
		n = read(fd, sb->buf + sb->len, room);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			int e = errno;
			close(fd);
			errno = e;
			return -1;
		}
		if (n == 0)
			break;
		strbuf_setlen(sb, sb->len + (size_t)n);
		if (max && sb->len - start > max) {
			close(fd);
			errno = EFBIG;
			return -1;
		}
	}
	close(fd);
	return 0;
}
