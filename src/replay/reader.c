/*
 * Reads saved traces back into events (see reader.h and
 * docs/trace-format.md): renacer-json-v1 documents and renacer-jsonl-v1
 * streams, plain or zstd-compressed, without holding the syscalls in memory.
 */
#include "replay/reader.h"
#include "sink/env.h"
#include "replay/compat.h"
#include "sys/sysent.h"
#include "replay/jv.h"
#include "config/config.h"
#include "util/arena.h"
#include "util/error.h"
#include "util/quote.h"
#include "util/strbuf.h"
#include "util/xmalloc.h"
#include "util/zlimit.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <jansson.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zstd.h>

#include "util/banned.h"

#define SRC_BUF (1u << 16)
#define MAX_DEPTH 32            /* nesting allowed anywhere in a trace */
#define MAX_SCALAR 1024         /* longest number or literal token */
#define MAX_US 9.2e15           /* microseconds that fit int64 nanoseconds */

/*
 * A byte stream from a plain or zstd-compressed file, with its position:
 * columns count bytes from 1.
 */
struct src {
	int fd;
	ZSTD_DStream *z;         /* NULL for a plain file */
	unsigned char *zin;
	size_t zin_len, zin_pos;
	size_t zret;             /* last ZSTD_decompressStream result */
	uint64_t zin_total;      /* compressed bytes read (util/zlimit.h) */
	unsigned char *buf;
	size_t len, pos;
	uint64_t off;            /* bytes consumed before buf */
	unsigned long line;      /* of the next byte, 1-based */
	uint64_t line_start;     /* offset of the first byte of that line */
	int err;                 /* errno of a failed read */
	const char *zerr;        /* zstd error */
	bool eof;
};

struct errname {
	const char *name;
	int err;
};

struct side {                /* a process or signal event of a .json document */
	struct event ev;
	size_t seq;
};

/*
 * Cuts long strings out of the bytes of a value as they are copied (see
 * val_add): a string beyond max decoded bytes keeps its first max bytes and
 * gets "...<N bytes, cut to max>" instead of the rest.
 */
struct cutter {
	bool on;                 /* the value outgrew max: bytes go through cut_byte */
	bool str, esc;           /* in a string; after its backslash */
	uint8_t uhex;            /* hex digits of a \u escape still to come */
	unsigned ucp;            /* the code point of that escape */
	bool cut;                /* dropping the rest of the current string */
	uint64_t dlen;           /* decoded bytes of the current string so far */
	uint64_t kept;           /* of them, kept */
};

struct member {              /* a top-level member of a .json document */
	const char *key;
	struct jv *v;
	unsigned long line, col;
};

struct reader {
	const char *path;
	struct src src;
	struct sink_list *sinks;
	struct trace_meta *meta;
	struct arena arena;      /* per record */
	struct arena keep;       /* for the whole read */
	struct strbuf val;       /* bytes of the record being scanned */
	unsigned long rline, rcol; /* position of the record being converted */
	struct member *members;  /* pass 1 of a document */
	size_t nmembers, amembers;
	bool in_doc;
	uint64_t sys_off;        /* byte offset of the syscalls '[' */
	unsigned long sys_line, sys_col;
	struct side *side;
	size_t nside, aside, iside;
	char **argv;
	const char *version;
	json_t *timing;          /* "timing", for trace_meta */
	struct trace_env env;    /* "environment" (ti.env points here when read) */
	struct trace_info ti;
	struct trace_end te;
	bool reported;           /* an error was printed */
	struct errname *errnames; /* sorted, for errno_by_name() */
	size_t nerrnames;
	struct trace_limits lim;  /* with the defaults filled in */
	uint64_t nrecords;       /* records read so far */
	struct cutter cut;       /* for the value being copied into val */
	size_t val_max;          /* most bytes val may hold (after cutting) */
	int fmt_version;         /* 1 or 2 (renacer-json-v2: typed values) */
};

/* --- errors --- */

static int rd_err_at(struct reader *rd, unsigned long line, unsigned long col,
		     const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static int rd_err_at(struct reader *rd, unsigned long line, unsigned long col,
		     const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	if (rd->reported)
		return -1;
	rd->reported = true;
	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	error("cannot read trace '%s': line %lu column %lu: %s", esc(rd->path), line, col, sb.buf);
	strbuf_release(&sb);
	return -1;
}

static int rd_err(struct reader *rd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int rd_err(struct reader *rd, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	if (rd->reported)
		return -1;
	rd->reported = true;
	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	error("cannot read trace '%s': %s", esc(rd->path), sb.buf);
	strbuf_release(&sb);
	return -1;
}

/* --- byte source --- */

static void src_close(struct src *s)
{
	if (s->fd >= 0)
		close(s->fd);
	ZSTD_freeDStream(s->z);
	free(s->zin);
	free(s->buf);
	memset(s, 0, sizeof(*s));
	s->fd = -1;
}

/* Opens path; sniffs the zstd magic.  -1 with errno set on failure. */
static int src_open(struct src *s, const char *path)
{
	unsigned char magic[4];
	ssize_t n;

	memset(s, 0, sizeof(*s));
	s->line = 1;
	s->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (s->fd < 0)
		return -1;
	s->buf = xmalloc(SRC_BUF);
	do
		n = pread(s->fd, magic, sizeof(magic), 0);
	while (n < 0 && errno == EINTR);
	if (n < 0) {
		int e = errno;
		src_close(s);
		errno = e;
		return -1;
	}
	/* a zstd frame (28 b5 2f fd), or a skippable frame (5? 2a 4d 18) that
	 * zstd streams may start with (metadata, seekable-format tables) */
	if (n == 4 && ((magic[0] == 0x28 && magic[1] == 0xb5 && magic[2] == 0x2f &&
			magic[3] == 0xfd) ||
		       ((magic[0] & 0xf0) == 0x50 && magic[1] == 0x2a && magic[2] == 0x4d &&
			magic[3] == 0x18))) {
		s->z = ZSTD_createDStream();
		if (!s->z) {
			src_close(s);
			errno = ENOMEM;
			return -1;
		}
		ZSTD_initDStream(s->z);
		s->zin = xmalloc(ZSTD_DStreamInSize());
	}
	return 0;
}

static ssize_t xread(int fd, void *buf, size_t n)
{
	ssize_t r;
	do
		r = read(fd, buf, n);
	while (r < 0 && errno == EINTR);
	return r;
}

/* Refills buf; false at end of input or on error (s->err / s->zerr). */
static bool src_fill(struct src *s)
{
	if (s->eof)
		return false;
	s->off += s->len;
	s->len = s->pos = 0;
	if (!s->z) {
		ssize_t r = xread(s->fd, s->buf, SRC_BUF);
		if (r <= 0) {
			if (r < 0)
				s->err = errno;
			s->eof = true;
			return false;
		}
		s->len = (size_t)r;
		return true;
	}
	for (;;) {
		ZSTD_inBuffer in;
		ZSTD_outBuffer out = { s->buf, SRC_BUF, 0 };

		if (s->zin_pos == s->zin_len) {
			ssize_t r = xread(s->fd, s->zin, ZSTD_DStreamInSize());
			if (r < 0) {
				s->err = errno;
				s->eof = true;
				return false;
			}
			if (r == 0) {
				if (s->zret != 0)
					s->zerr = "truncated zstd data";
				s->eof = true;
				return false;
			}
			s->zin_len = (size_t)r;
			s->zin_pos = 0;
			s->zin_total += (uint64_t)r;
		}
		in.src = s->zin;
		in.size = s->zin_len;
		in.pos = s->zin_pos;
		s->zret = ZSTD_decompressStream(s->z, &out, &in);
		s->zin_pos = in.pos;
		if (ZSTD_isError(s->zret)) {
			s->zerr = ZSTD_getErrorName(s->zret);
			s->eof = true;
			return false;
		}
		if (out.pos) {
			s->len = out.pos;
			if (!zlimit_ok(s->zin_total, s->off + s->len)) {
				s->len = 0;
				s->zerr = ZLIMIT_MESSAGE;
				s->eof = true;
				return false;
			}
			return true;
		}
	}
}

static inline uint64_t src_offset(const struct src *s)
{
	return s->off + s->pos;
}

static inline unsigned long src_col(const struct src *s)
{
	return (unsigned long)(src_offset(s) - s->line_start + 1);
}

static inline int src_peek(struct src *s)
{
	if (s->pos == s->len && !src_fill(s))
		return -1;
	return s->buf[s->pos];
}

static inline int src_get(struct src *s)
{
	int c = src_peek(s);
	if (c >= 0) {
		s->pos++;
		if (c == '\n') {
			s->line++;
			s->line_start = src_offset(s);
		}
	}
	return c;
}

/* Reports a read or decompression error, if one happened. */
static int src_check(struct reader *rd)
{
	if (rd->src.err)
		return rd_err(rd, "%s", strerror(rd->src.err));
	if (rd->src.zerr)
		return rd_err_at(rd, rd->src.line, src_col(&rd->src), "%s", rd->src.zerr);
	return 0;
}

/* An error at the stream's position. */
#define pos_err(rd, ...) rd_err_at((rd), (rd)->src.line, src_col(&(rd)->src), __VA_ARGS__)
/* An error in the record being converted. */
#define rec_err(rd, ...) rd_err_at((rd), (rd)->rline, (rd)->rcol, __VA_ARGS__)

/* Skips forward to byte offset off (which is at line/col). */
static int src_seek(struct reader *rd, uint64_t off, unsigned long line, unsigned long col)
{
	struct src *s = &rd->src;

	if (!s->z && lseek(s->fd, (off_t)off, SEEK_SET) == (off_t)off) {
		s->off = off;
		s->len = s->pos = 0;
	} else {
		while (src_offset(s) < off) {
			size_t step;
			if (s->pos == s->len && !src_fill(s))
				return src_check(rd) ? -1 : pos_err(rd, "unexpected end of file");
			step = s->len - s->pos;
			if (step > off - src_offset(s))
				step = (size_t)(off - src_offset(s));
			s->pos += step;
		}
	}
	s->line = line;
	s->line_start = off - (col - 1);
	return 0;
}

/* --- long strings --- */

/* UTF-8 bytes of the code point of a \u escape (a surrogate pair: 4, 0). */
static unsigned ucp_len(unsigned cp)
{
	if (cp < 0x80)
		return 1;
	if (cp < 0x800)
		return 2;
	if (cp >= 0xd800 && cp <= 0xdbff)
		return 4;
	if (cp >= 0xdc00 && cp <= 0xdfff)
		return 0;
	return 3;
}

static int hexdig(int c)
{
	return c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10;
}

/* Empties val for the next value, which may hold max bytes. */
static void val_reset(struct reader *rd, size_t max)
{
	strbuf_reset(&rd->val);
	memset(&rd->cut, 0, sizeof(rd->cut));
	rd->val_max = max;
}

/* One byte of a value whose strings are being cut. */
static void cut_byte(struct reader *rd, struct strbuf *out, unsigned char c)
{
	struct cutter *k = &rd->cut;

	if (!k->str) {
		if (c == '"') {
			k->str = true;
			k->esc = k->cut = false;
			k->uhex = 0;
			k->dlen = k->kept = 0;
		}
		strbuf_addch(out, c);
		return;
	}
	if (k->uhex) {
		k->ucp = (k->ucp << 4) | (unsigned)hexdig(c);
		if (!--k->uhex)
			k->dlen += ucp_len(k->ucp);
		if (!k->cut)
			strbuf_addch(out, c);
		return;
	}
	if (k->esc) {
		k->esc = false;
		if (c == 'u') {
			k->uhex = 4;
			k->ucp = 0;
		} else {
			k->dlen++;
		}
		if (!k->cut)
			strbuf_addch(out, c);
		return;
	}
	if (c == '"') {
		k->str = false;
		if (k->cut)
			strbuf_addf(out, "...<%" PRIu64 " bytes, cut to %" PRIu64 ">", k->dlen,
				    rd->lim.string_bytes);
		strbuf_addch(out, c);
		return;
	}
	/* cut at a character boundary, never inside an escape */
	if (!k->cut && k->dlen >= rd->lim.string_bytes && (c & 0xc0) != 0x80)
		k->cut = true;
	if (c == '\\')
		k->esc = true;
	else
		k->dlen++;
	if (!k->cut)
		strbuf_addch(out, c);
}

/*
 * Appends n bytes of the value being scanned to out.  While a value is
 * smaller than the string limit no string in it can be too long, and the
 * bytes are copied as they are; past that, every byte goes through
 * cut_byte() (the bytes already copied first).  -1 after error() when the
 * value, cut, is longer than rd->val_max.
 */
static int val_add(struct reader *rd, struct strbuf *out, const unsigned char *p, size_t n)
{
	if (!rd->cut.on) {
		if (out->len + n <= rd->lim.string_bytes) {
			strbuf_add(out, p, n);
			return 0;
		} else {
			struct strbuf old = STRBUF_INIT;

			strbuf_add(&old, out->buf, out->len);
			strbuf_reset(out);
			rd->cut.on = true;
			for (size_t i = 0; i < old.len; i++)
				cut_byte(rd, out, (unsigned char)old.buf[i]);
			strbuf_release(&old);
		}
	}
	for (size_t i = 0; i < n;) {
		struct cutter *k = &rd->cut;

		if (k->str && k->cut && !k->esc && !k->uhex) {
			/* the dropped middle of a long string: only counted */
			size_t j = i;

			while (j < n && p[j] != '"' && p[j] != '\\')
				j++;
			k->dlen += j - i;
			i = j;
			if (i == n)
				break;
		}
		cut_byte(rd, out, p[i++]);
	}
	if (out->len > rd->val_max)
		return pos_err(rd, "record longer than %zu bytes (after strings longer than "
			       "limits.string_bytes are cut)", rd->val_max);
	return 0;
}

/* Counts one more record against limits.trace_records. */
static int count_record(struct reader *rd)
{
	if (++rd->nrecords > rd->lim.records)
		return rec_err(rd, "more than %" PRIu64 " records (raise limits.trace_records "
			       "with RENACER_LIMITS to read more)", rd->lim.records);
	return 0;
}

/* --- scanning a document --- */

static void skip_ws(struct src *s)
{
	int c;
	while ((c = src_peek(s)) == ' ' || c == '\n' || c == '\t' || c == '\r')
		src_get(s);
}

/* Up to 20 characters of what comes next, for "near '...'" messages. */
static void near_text(struct src *s, struct strbuf *sb)
{
	int c;
	for (int i = 0; i < 20 && (c = src_peek(s)) >= 0; i++) {
		if (c == '\n' || c == '\r' || (i && (c == ',' || c == ':')))
			break;
		strbuf_addch(sb, c < 0x20 || c >= 0x7f ? '?' : c);
		src_get(s);
	}
}

static int unexpected(struct reader *rd, const char *what)
{
	struct strbuf near = STRBUF_INIT;
	unsigned long l = rd->src.line, c = src_col(&rd->src);
	int ret;

	if (src_check(rd))
		return -1;
	near_text(&rd->src, &near);
	if (near.len)
		ret = rd_err_at(rd, l, c, "%s expected near '%s'", what, near.buf);
	else
		ret = rd_err_at(rd, l, c, "%s expected near end of file", what);
	strbuf_release(&near);
	return ret;
}

/* Bytes the bracket scanner must look at. */
static const unsigned char scan_special[256] = {
	['"'] = 1, ['\\'] = 1, ['{'] = 1, ['}'] = 1, ['['] = 1, [']'] = 1, ['\n'] = 1,
};

/*
 * Copies the bytes of one JSON value at the stream's position into out (or
 * skips them when out is NULL), checking only brackets, strings and depth
 * (depth: the nesting around the value); jv_parse checks the rest.
 */
static int scan_value(struct reader *rd, struct strbuf *out, int depth)
{
	struct src *s = &rd->src;
	int c = src_peek(s), d = 0;
	bool str = false, esc = false;

	if (c < 0 || c == ',' || c == ':' || c == ']' || c == '}')
		return unexpected(rd, "a value");
	if (c != '{' && c != '[' && c != '"') {
		/* a scalar: jv_parse judges the token */
		size_t n = 0;

		while ((c = src_peek(s)) >= 0 && c != ',' && c != ']' && c != '}' &&
		       c != ' ' && c != '\n' && c != '\t' && c != '\r' && c != ':') {
			if (++n > MAX_SCALAR)
				return pos_err(rd, "value longer than %d bytes", MAX_SCALAR);
			if (out)
				strbuf_addch(out, c);
			src_get(s);
		}
		return src_check(rd);
	}
	for (;;) {
		const unsigned char *b, *p, *e;

		if (s->pos == s->len && !src_fill(s))
			return src_check(rd) ? -1 : pos_err(rd, "unexpected end of file");
		b = p = s->buf + s->pos;
		e = s->buf + s->len;
		for (; p < e; p++) {
			if (!scan_special[*p] && !esc)
				continue;
			if (esc) {
				esc = false;
				if (*p != '\n')
					continue;
			}
			switch (*p) {
			case '\n':
				s->line++;
				s->line_start = s->off + (size_t)(p - s->buf) + 1;
				break;
			case '\\':
				esc = str;
				break;
			case '"':
				str = !str;
				if (!str && !d)
					goto done;
				break;
			case '{': case '[':
				if (str)
					break;
				if (depth + ++d > MAX_DEPTH) {
					s->pos = (size_t)(p - s->buf);
					return pos_err(rd, "too deeply nested (more than %d levels)",
						       MAX_DEPTH);
				}
				break;
			case '}': case ']':
				if (!str && !--d)
					goto done;
				break;
			}
		}
		if (out && val_add(rd, out, b, (size_t)(p - b)) < 0)
			return -1;
		s->pos = s->len;
		continue;
done:
		p++;
		if (out && val_add(rd, out, b, (size_t)(p - b)) < 0)
			return -1;
		s->pos = (size_t)(p - s->buf);
		return 0;
	}
}

/*
 * Parses the record bytes in rd->val, which began at line/col, into arena
 * a; NULL after an error at the right position.
 */
static struct jv *parse_val(struct reader *rd, struct arena *a, unsigned long line,
			    unsigned long col, int depth)
{
	struct jv_err je;
	struct jv *v = jv_parse(a, rd->val.buf, rd->val.len, MAX_DEPTH - depth, &je);

	if (!v) {
		unsigned long l = line, c = col + (unsigned long)je.off;
		for (size_t i = 0; i < je.off && i < rd->val.len; i++)
			if (rd->val.buf[i] == '\n') {
				l++;
				c = (unsigned long)(je.off - i);
			}
		rd_err_at(rd, l, c, "%s", je.msg);
	}
	return v;
}

/* --- field access (errors name the record's position) --- */

/*
 * How a field may be given: OPT may be absent, REQ must be there, NUL may
 * also be null.  Every other type than the one docs/trace-format.md gives
 * is an error that names the field.
 */
enum { OPT = 0, REQ = 1, NUL = 2 };

static bool jv_null(const struct jv *v)
{
	return !v || v->type == JV_NULL;
}

/* "null", "true", "an integer", ... for messages. */
static const char *jv_kind(const struct jv *v)
{
	switch (v->type) {
	case JV_NULL: return "null";
	case JV_FALSE: return "false";
	case JV_TRUE: return "true";
	case JV_INT: return "an integer";
	case JV_REAL: return "a fraction";
	case JV_STR: return "a string";
	case JV_ARR: return "an array";
	case JV_OBJ: return "an object";
	}
	return "?";
}

/*
 * 0 when field v is absent (or null where req allows it: nothing to
 * read), 1 when it is there with type want (or, want_too, that one), -1
 * after an error ("missing field", or "integer expected, not null").
 */
static int field(struct reader *rd, const struct jv *v, const char *key, int req, int want,
		 int want_too, const char *what)
{
	if (!v) {
		if (req & REQ)
			return rec_err(rd, "missing field '%s'", key);
		return 0;
	}
	if (v->type == JV_NULL && (req & NUL))
		return 0;
	if (v->type == want || (want_too >= 0 && v->type == want_too) ||
	    (want == JV_TRUE && v->type == JV_FALSE))
		return 1;
	return rec_err(rd, "field '%s': %s expected, not %s", key, what, jv_kind(v));
}

static int get_int(struct reader *rd, const struct jv *v, const char *key, int64_t *out,
		   int64_t min, int64_t max, int req)
{
	int r = field(rd, v, key, req, JV_INT, -1, req & NUL ? "integer or null" : "integer");

	if (r <= 0)
		return r;
	if (v->i < min || v->i > max)
		return rec_err(rd, "field '%s': %" PRId64 " out of range", key, v->i);
	*out = v->i;
	return 1;
}

static int get_pid(struct reader *rd, const struct jv *v, const char *key, pid_t *out, int req)
{
	int64_t x = 0;
	int r = get_int(rd, v, key, &x, 0, INT32_MAX, req);
	if (r > 0)
		*out = (pid_t)x;
	return r;
}

/* A time in microseconds (integer or fraction) as ns. */
static int get_us(struct reader *rd, const struct jv *v, const char *key, uint64_t *ns, int req)
{
	int r = field(rd, v, key, req, JV_INT, JV_REAL, req & NUL ? "number or null" : "number");

	if (r <= 0)
		return r;
	if (v->type == JV_INT) {
		if (v->i < 0 || v->i > (int64_t)MAX_US)
			return rec_err(rd, "field '%s': %" PRId64 " out of range", key, v->i);
		*ns = (uint64_t)v->i * 1000u;
		return 1;
	}
	if (!(v->d >= 0 && v->d <= MAX_US))
		return rec_err(rd, "field '%s': %g out of range", key, v->d);
	*ns = (uint64_t)llround(v->d * 1000.0);
	return 1;
}

static int get_str(struct reader *rd, const struct jv *v, const char *key, const char **out,
		   size_t *len, int req)
{
	int r;

	*out = NULL;
	if (len)
		*len = 0;
	r = field(rd, v, key, req, JV_STR, -1, req & NUL ? "string or null" : "string");
	if (r <= 0)
		return r;
	*out = v->s;
	if (len)
		*len = v->n;
	return 1;
}

static int get_bool(struct reader *rd, const struct jv *v, const char *key, bool *out)
{
	int r = field(rd, v, key, OPT, JV_TRUE, -1, "true or false");

	if (r <= 0)
		return r;
	*out = v->type == JV_TRUE;
	return 1;
}

/* A field that must be an object or an array (its members are read apart). */
static int get_obj(struct reader *rd, const struct jv *v, const char *key, int type, int req)
{
	return field(rd, v, key, req, type, -1, type == JV_OBJ ?
		     (req & NUL ? "object or null" : "object") :
		     (req & NUL ? "array or null" : "array"));
}

/* A signal given as a name ("SIGKILL") or, when it has none, a number. */
static int get_signal(struct reader *rd, const struct jv *v, const char *key, int *out)
{
	int r = field(rd, v, key, OPT, JV_STR, JV_INT, "signal name");

	if (r <= 0)
		return r;
	if (v->type == JV_INT) {
		if (v->i > 0 && v->i < 1024) {
			*out = (int)v->i;
			return 1;
		}
		return rec_err(rd, "field '%s': %" PRId64 " out of range", key, v->i);
	}
	{
		int sig = signal_by_name(v->s);
		if (sig > 0) {
			*out = sig;
			return 1;
		}
		return rec_err(rd, "field '%s': unknown signal '%s'", key, escn(v->s, v->n));
	}
}

static int errname_cmp(const void *a, const void *b)
{
	return strcmp(((const struct errname *)a)->name, ((const struct errname *)b)->name);
}

/* The errno called name ("ENOENT"), or -1; the table is built on first use. */
static int errno_by_name(struct reader *rd, const char *name)
{
	struct errname key = { name, 0 }, *hit;

	if (!rd->errnames) {
		rd->errnames = xcalloc(4096, sizeof(*rd->errnames));
		for (int e = 1; e < 4096; e++) {
			const char *n = errno_name(e);
			if (n) {
				rd->errnames[rd->nerrnames].name = n;
				rd->errnames[rd->nerrnames++].err = e;
			}
		}
		QSORT(rd->errnames, rd->nerrnames, errname_cmp);
	}
	hit = bsearch(&key, rd->errnames, rd->nerrnames, sizeof(*rd->errnames), errname_cmp);
	return hit ? hit->err : -1;
}

static const struct val *text_val(struct arena *a, const char *name, const char *s, size_t len)
{
	struct val *v = arena_calloc(a, sizeof(*v));

	v->kind = V_TEXT;
	v->name = name;
	v->s.p = s;
	v->s.len = (uint32_t)len;
	return v;
}

/* A [name or null, text] pair into a V_TEXT value; false when malformed. */
static bool text_pair(const struct jv *p, struct val *out)
{
	const struct jv *n = jv_at(p, 0), *t = jv_at(p, 1);

	if (!p || p->type != JV_ARR || (p->n != 2 && p->n != 3) ||
	    !(n->type == JV_STR || n->type == JV_NULL) || t->type != JV_STR)
		return false;
	memset(out, 0, sizeof(*out));
	out->kind = V_TEXT;
	out->name = n->type == JV_STR ? n->s : NULL;
	out->s.p = t->s;
	out->s.len = t->n;
	return true;
}

#define TYPED_MAX_DEPTH 24

static bool typed_op(struct arena *a, const struct jv *o, const char *name, struct val *out,
		     int depth);

/* An integer member as 64 bits (unsigned values beyond INT64_MAX come as
 * their two's complement); false when it is not one. */
static bool jv_bits(const struct jv *v, uint64_t *out)
{
	if (!v || v->type != JV_INT)
		return false;
	*out = (uint64_t)v->i;
	return true;
}

static bool jv_true(const struct jv *o, const char *key)
{
	const struct jv *v = jv_get(o, key);
	return v && v->type == JV_TRUE;
}

/*
 * A typed value of renacer-json-v2 (docs/trace-format.md) into out, memory
 * from a; false when it is malformed.
 */
static bool typed_val(struct arena *a, const struct jv *o, const char *name, struct val *out,
		      int depth)
{
	const struct jv *m, *x;
	uint64_t u;

	memset(out, 0, sizeof(*out));
	out->name = name;
	if (o && o->type == JV_NULL)
		return true;
	if (!o || o->type != JV_OBJ || !o->n || depth > TYPED_MAX_DEPTH)
		return false;
	m = &o->items[0];
	if (!strcmp(m->key, "op"))
		return typed_op(a, o, name, out, depth);
	switch (m->key[0]) {
	case 'b':
		if (strcmp(m->key, "bytes") || m->type != JV_STR || m->n % 2)
			return false;
		out->kind = V_STR;
		{
			char *b = arena_alloc(a, m->n / 2 + 1);
			for (uint32_t i = 0; i < m->n / 2; i++) {
				int hi = hexdig(m->s[2 * i]), lo = hexdig(m->s[2 * i + 1]);
				if (hi < 0 || lo < 0)
					return false;
				b[i] = (char)(hi * 16 + lo);
			}
			b[m->n / 2] = '\0';
			out->s.p = b;
			out->s.len = m->n / 2;
		}
		if (jv_true(o, "trunc"))
			out->flags |= VF_TRUNC;
		return true;
	case 'i': case 'u': case 'o': case 'x': case 'p':
		if (m->key[1] || !jv_bits(m, &u))
			return false;
		out->kind = m->key[0] == 'i' ? V_INT : m->key[0] == 'u' ? V_UINT :
			    m->key[0] == 'o' ? V_OCT : m->key[0] == 'x' ? V_HEX : V_PTR;
		out->u = u;
		return true;
	case 's':
		if (strcmp(m->key, "s") && strcmp(m->key, "struct") && strcmp(m->key, "sigset"))
			return false;
		if (!strcmp(m->key, "s")) {
			if (m->type != JV_STR)
				return false;
			out->kind = V_STR;
			out->s.p = m->s;
			out->s.len = m->n;
			if (jv_true(o, "trunc"))
				out->flags |= VF_TRUNC;
			return true;
		}
		if (!strcmp(m->key, "sigset")) {
			out->kind = V_SIGSET;
			if (m->type == JV_NULL)
				out->flags |= VF_NOVAL;
			else if (!jv_bits(m, &out->sig.mask))
				return false;
			if (jv_true(o, "not"))
				out->flags |= VF_SIGSET_NOT;
			return true;
		}
		/* struct: [[name, value], ...] */
		if (m->type != JV_ARR)
			return false;
		out->kind = V_STRUCT;
		out->c.n = m->n;
		out->c.items = arena_calloc(a, (m->n ? m->n : 1) * sizeof(struct val));
		for (uint32_t i = 0; i < m->n; i++) {
			const struct jv *f = &m->items[i], *fn = jv_at(f, 0);
			if (!f || f->type != JV_ARR || f->n != 2 ||
			    !(fn->type == JV_STR || fn->type == JV_NULL) ||
			    !typed_val(a, jv_at(f, 1), fn->type == JV_STR ? fn->s : NULL,
				       &out->c.items[i], depth + 1))
				return false;
			if (fn->type == JV_NULL)
				out->c.items[i].flags |= VF_EQ_ONLY;
		}
		if (jv_true(o, "more"))
			out->flags |= VF_MORE;
		return true;
	case 'f':
		if (!strcmp(m->key, "fd")) {
			if (m->type != JV_INT)
				return false;
			out->kind = V_FD;
			out->fd.fd = m->i;
			if ((x = jv_get(o, "path")) && x->type == JV_STR)
				out->fd.path = x->s;
			return true;
		}
		/* fall through */
	case 'e':
		if (strcmp(m->key, "flags") && strcmp(m->key, "enum"))
			return false;
		out->kind = m->key[0] == 'f' ? V_FLAGS : V_ENUM;
		if (m->type == JV_NULL)
			out->flags |= VF_NOVAL;
		else if (!jv_bits(m, &out->x.v))
			return false;
		x = jv_get(o, out->kind == V_FLAGS ? "names" : "name");
		if (x && x->type == JV_STR)
			out->x.sym = x->s;
		return true;
	case 'a':
		break;
	case 'c':
		if (strcmp(m->key, "comment") || m->type != JV_STR)
			return false;
		out->kind = V_COMMENT;
		out->s.p = m->s;
		out->s.len = m->n;
		return true;
	case 't':
		if (strcmp(m->key, "text") || m->type != JV_STR)
			return false;
		out->kind = V_TEXT;
		out->s.p = m->s;
		out->s.len = m->n;
		return true;
	default:
		return false;
	}
	/* array or op: items */
	if (!strcmp(m->key, "array")) {
		out->kind = V_ARRAY;
		x = m;
		if (jv_true(o, "more"))
			out->flags |= VF_MORE;
	} else {
		return false;
	}
	if (!x || x->type != JV_ARR)
		return false;
	out->c.n = x->n;
	out->c.items = arena_calloc(a, (x->n ? x->n : 1) * sizeof(struct val));
	for (uint32_t i = 0; i < x->n; i++)
		if (!typed_val(a, &x->items[i], NULL, &out->c.items[i], depth + 1))
			return false;
	return true;
}

/* An "op" value: {"op": "|", "items": [...]}; false when malformed. */
static bool typed_op(struct arena *a, const struct jv *o, const char *name, struct val *out,
		     int depth)
{
	const struct jv *op = jv_get(o, "op"), *it = jv_get(o, "items");

	memset(out, 0, sizeof(*out));
	out->name = name;
	if (!op || op->type != JV_STR || !it || it->type != JV_ARR || depth > TYPED_MAX_DEPTH)
		return false;
	out->kind = V_OP;
	out->c.op = op->s;
	out->c.n = it->n;
	out->c.items = arena_calloc(a, (it->n ? it->n : 1) * sizeof(struct val));
	for (uint32_t i = 0; i < it->n; i++)
		if (!typed_val(a, &it->items[i], NULL, &out->c.items[i], depth + 1))
			return false;
	return true;
}

/*
 * An argument: [name, text] (renacer-json-v1: the text is read back into a
 * typed value, replay/compat.h) or [name, text, typed value] (v2).  The
 * value keeps its text for renderers.  False when malformed.
 */
static bool conv_arg(struct reader *rd, const struct jv *p, struct val *out)
{
	struct val text;
	const struct jv *tv;

	if (!text_pair(p, &text) || (int)p->n != (rd->fmt_version == 1 ? 2 : 3))
		return false;
	if (p->n == 2) {
		compat_val(&rd->arena, out, text.name, text.s.p, text.s.len);
		return true;
	}
	tv = jv_at(p, 2);
	if (!typed_val(&rd->arena, tv, text.name, out, 0))
		return false;
	out->text = text.s.p;
	out->text_len = text.s.len;
	return true;
}

static int rv_fmt_by_name(const char *s)
{
	static const char *const names[] = { "dec", "hex", "oct", "fd", "none" };
	for (size_t i = 0; i < ARRAY_SIZE(names); i++)
		if (!strcmp(names[i], s))
			return (int)i;
	return -1;
}

/* An address written as a hex string ("0x401000"); absent is 0. */
static int get_hex(struct reader *rd, const struct jv *v, const char *key, uint64_t *out)
{
	const char *s;
	char *end;

	int r = get_str(rd, v, key, &s, NULL, OPT);

	if (r <= 0)
		return r;
	errno = 0;
	*out = strtoull(s, &end, 16);
	if (errno || *end || end == s || s[0] == '-' || s[0] == '+')
		return rec_err(rd, "field '%s': hex address expected", key);
	return 1;
}

/* A frame object of "stack" (or the "source" object: fewer members). */
static int conv_frame(struct reader *rd, const struct jv *f, struct frame *fr)
{
	int64_t line = 0;
	bool b = false;

	if (f->type != JV_OBJ)
		return rec_err(rd, "field 'stack': objects expected, not %s", jv_kind(f));
	/* function, file, line, module and symbol are null when unknown */
	if (get_hex(rd, jv_get(f, "pc"), "pc", &fr->pc) < 0 ||
	    get_str(rd, jv_get(f, "function"), "function", &fr->function, NULL, NUL) < 0 ||
	    get_str(rd, jv_get(f, "file"), "file", &fr->file, NULL, NUL) < 0 ||
	    get_str(rd, jv_get(f, "module"), "module", &fr->module, NULL, NUL) < 0 ||
	    get_hex(rd, jv_get(f, "offset"), "offset", &fr->offset) < 0 ||
	    get_str(rd, jv_get(f, "symbol"), "symbol", &fr->symbol, NULL, NUL) < 0 ||
	    get_hex(rd, jv_get(f, "symbol_offset"), "symbol_offset", &fr->symoff) < 0 ||
	    get_int(rd, jv_get(f, "line"), "line", &line, 0, UINT32_MAX, NUL) < 0)
		return -1;
	fr->line = (uint32_t)line;
	if (get_bool(rd, jv_get(f, "inlined"), "inlined", &b) < 0)
		return -1;
	if (b)
		fr->flags |= FRAME_INLINED;
	b = false;
	if (get_bool(rd, jv_get(f, "tail_call"), "tail_call", &b) < 0)
		return -1;
	if (b)
		fr->flags |= FRAME_TAILCALL;
	b = false;
	if (get_bool(rd, jv_get(f, "own"), "own", &b) < 0)
		return -1;
	if (b)
		fr->flags |= FRAME_OWN;
	return 0;
}

static int conv_frames(struct reader *rd, const struct jv *st, struct event *ev)
{
	struct frame *fr;

	int r = get_obj(rd, st, "stack", JV_ARR, OPT);

	if (r <= 0)
		return r;
	ev->stack_trace = true;
	if (!st->n)
		return 0;
	fr = arena_calloc(&rd->arena, st->n * sizeof(*fr));
	for (uint32_t i = 0; i < st->n; i++)
		if (conv_frame(rd, &st->items[i], &fr[i]) < 0)
			return -1;
	ev->frames = fr;
	ev->nframes = st->n;
	return 0;
}

/* "source": {"file", "line", "function"} (-s) */
static int conv_source(struct reader *rd, const struct jv *o, struct event *ev)
{
	struct frame *fr;

	int r = get_obj(rd, o, "source", JV_OBJ, OPT);

	if (r <= 0)
		return r;
	fr = arena_calloc(&rd->arena, sizeof(*fr));
	if (conv_frame(rd, o, fr) < 0)
		return -1;
	fr->flags |= FRAME_OWN;
	ev->source = fr;
	return 0;
}

static int conv_errno(struct reader *rd, const struct jv *e, struct event *ev)
{
	int n, r = field(rd, e, "errno", OPT, JV_STR, -1, "error name");

	if (r <= 0)
		return r;
	n = errno_by_name(rd, e->s);
	if (n < 0)
		return rec_err(rd, "field 'errno': unknown error '%s'", escn(e->s, e->n));
	ev->err = n;
	return 0;
}

/* A syscall record to an EV_SYSCALL event (strings point into o). */
/* "tamper": ["INJECTED: args", "DELAYED"] (-e inject=) into ev->tamper. */
static int conv_tamper(struct reader *rd, const struct jv *v, struct event *ev)
{
	if (v->type != JV_ARR)
		return rec_err(rd, "field 'tamper': an array of strings expected");
	for (size_t i = 0; i < v->n; i++) {
		const struct jv *e = jv_at(v, i);
		if (!e || e->type != JV_STR)
			return rec_err(rd, "field 'tamper': an array of strings expected");
		if (!strcmp(e->s, "INJECTED"))
			ev->tamper |= TAMPER_INJECTED;
		else if (!strcmp(e->s, "INJECTED: args"))
			ev->tamper |= TAMPER_POKED;
		else if (!strcmp(e->s, "INJECTED: args, retval"))
			ev->tamper |= TAMPER_POKED | TAMPER_INJECTED;
		else if (!strcmp(e->s, "DELAYED"))
			ev->tamper |= TAMPER_DELAYED;
		else
			return rec_err(rd, "field 'tamper': unknown mark '%s'", e->s);
	}
	return 1;
}

static int conv_syscall(struct reader *rd, const struct jv *o, struct event *ev)
{
	uint64_t dur = 0;
	int64_t v;
	bool unfinished = false, named = false;
	int r = 0;

	memset(ev, 0, sizeof(*ev));
	ev->type = EV_SYSCALL;
	ev->nr = -1;
	if (o->type != JV_OBJ)
		return rec_err(rd, "field 'syscalls': objects expected, not %s", jv_kind(o));
	/* one pass over the members: records have a dozen of them */
	for (uint32_t i = 0; i < o->n && r >= 0; i++) {
		const struct jv *m = &o->items[i];
		const char *k = m->key;
		const char *s;

		switch (k[0]) {
		case 'a':
			if (strcmp(k, "args"))
				break;
			if ((r = get_obj(rd, m, k, JV_ARR, OPT)) <= 0)
				break;
			if (m->n > EVENT_MAX_ARGS)
				return rec_err(rd, "field 'args': more than %d arguments",
					       EVENT_MAX_ARGS);
			for (uint32_t j = 0; j < m->n; j++)
				if (!conv_arg(rd, &m->items[j], &ev->args[j]))
					return rec_err(rd, rd->fmt_version == 1
							   ? "field 'args': [name, text] pairs expected"
							   : "field 'args': [name, text, value] expected");
			ev->nargs = (uint8_t)m->n;
			break;
		case 'd':
			if (!strcmp(k, "duration_us"))
				r = get_us(rd, m, k, &dur, OPT);
			break;
		case 'e':
			if (!strcmp(k, "errno"))
				r = conv_errno(rd, m, ev);
			else if (!strcmp(k, "endpoint"))
				r = get_str(rd, m, k, &ev->endpoint, NULL, OPT);
			break;
		case 'l':
			if (!strcmp(k, "lamport") && (r = get_int(rd, m, k, &v, 0, INT64_MAX, OPT)) > 0)
				ev->lamport = (uint64_t)v;
			break;
		case 'n':
			if (!strcmp(k, "name"))
				named = (r = get_str(rd, m, k, &ev->name, NULL, REQ)) > 0;
			else if (!strcmp(k, "nr") && (r = get_int(rd, m, k, &v, -1, INT32_MAX, OPT)) > 0)
				ev->nr = (long)v;
			break;
		case 'p':
			if (!strcmp(k, "pid"))
				r = get_pid(rd, m, k, &ev->pid, OPT);
			break;
		case 'r':
			if (!strcmp(k, "result")) {
				if ((r = get_int(rd, m, k, &v, INT64_MIN, INT64_MAX, NUL)) > 0)
					ev->retval = v;
			} else if (!strcmp(k, "rv_fmt")) {
				if ((r = get_str(rd, m, k, &s, NULL, OPT)) > 0) {
					int f = rv_fmt_by_name(s);
					if (f < 0)
						return rec_err(rd, "field 'rv_fmt': unknown format '%s'",
							       esc(s));
					ev->rv_fmt = (uint8_t)f;
				}
			} else if (!strcmp(k, "ret_aux")) {
				struct val *ra = arena_calloc(&rd->arena, sizeof(*ra));
				if (!conv_arg(rd, m, ra))
					return rec_err(rd, rd->fmt_version == 1
							   ? "field 'ret_aux': [name, text] expected"
							   : "field 'ret_aux': [name, text, value] expected");
				ev->ret_aux = ra;
			} else if (!strcmp(k, "ret_path")) {
				r = get_str(rd, m, k, &ev->ret_path, NULL, OPT);
			} else if (!strcmp(k, "ret_ref")) {
				/* what the descriptors made refer to: the tracker says
				 * it again from the calls; only its shape is checked */
				if ((r = get_obj(rd, m, k, JV_ARR, OPT)) > 0)
					for (uint32_t j = 0; j < m->n; j++)
						if (m->items[j].type != JV_OBJ)
							return rec_err(rd, "field 'ret_ref': objects expected, not %s",
								       jv_kind(&m->items[j]));
			}
			break;
		case 's':
			if (!strcmp(k, "stack"))
				r = conv_frames(rd, m, ev);
			else if (!strcmp(k, "source"))
				r = conv_source(rd, m, ev);
			else if (!strcmp(k, "stack_error"))
				r = get_str(rd, m, k, &ev->stack_error, NULL, OPT);
			break;
		case 't':
			if (!strcmp(k, "tamper"))
				r = conv_tamper(rd, m, ev);
			else if (!strcmp(k, "tid"))
				r = get_pid(rd, m, k, &ev->tid, OPT);
			else if (!strcmp(k, "ts_us"))
				r = get_us(rd, m, k, &ev->ts_ns, OPT);
			break;
		case 'u':
			if (!strcmp(k, "unfinished"))
				r = get_bool(rd, m, k, &unfinished);
			break;
		}
	}
	if (r < 0)
		return -1;
	if (!named)
		return rec_err(rd, "missing field 'name'");
	if (!ev->tid)
		ev->tid = ev->pid;
	ev->replayed = true;
	if (ev->nr < 0)
		ev->nr = sysent_lookup(ev->name);
	if (!ev->endpoint)
		ev->endpoint = compat_endpoint(&rd->arena, ev);
	ev->state = unfinished ? SC_UNFINISHED : SC_COMPLETE;
	ev->end_ns = ev->ts_ns + dur;
	return 0;
}

static int conv_signal(struct reader *rd, const struct jv *o, struct event *ev, struct arena *a)
{
	const char *si;
	size_t len;
	int64_t v = 0;

	memset(ev, 0, sizeof(*ev));
	ev->type = EV_SIGNAL;
	ev->nr = -1;
	if (o->type != JV_OBJ)
		return rec_err(rd, "field 'signals': objects expected, not %s", jv_kind(o));
	if (get_pid(rd, jv_get(o, "pid"), "pid", &ev->pid, OPT) < 0 ||
	    get_pid(rd, jv_get(o, "tid"), "tid", &ev->tid, OPT) < 0 ||
	    get_us(rd, jv_get(o, "ts_us"), "ts_us", &ev->ts_ns, OPT) < 0 ||
	    get_int(rd, jv_get(o, "lamport"), "lamport", &v, 0, INT64_MAX, OPT) < 0)
		return -1;
	ev->lamport = (uint64_t)v;
	if (!ev->tid)
		ev->tid = ev->pid;
	ev->end_ns = ev->ts_ns;
	if (get_signal(rd, jv_get(o, "signal"), "signal", &ev->signo) < 0)
		return -1;
	v = 0;
	if (get_int(rd, jv_get(o, "signo"), "signo", &v, 1, 1023, OPT) < 0)
		return -1;
	if (!ev->signo)
		ev->signo = (int)v;
	if (!ev->signo)
		return rec_err(rd, "missing field 'signal'");
	if (get_str(rd, jv_get(o, "siginfo"), "siginfo", &si, &len, NUL) < 0)
		return -1;
	if (si)
		ev->siginfo = text_val(a, NULL, si, len);
	return 0;
}

/* Exit status fields of a process record or a summary. */
static int conv_status(struct reader *rd, const struct jv *o, struct event *ev)
{
	int64_t v = 0;

	if (get_int(rd, jv_get(o, "exit_code"), "exit_code", &v, INT32_MIN, INT32_MAX, OPT) < 0 ||
	    get_signal(rd, jv_get(o, "signal"), "signal", &ev->term_signal) < 0 ||
	    get_bool(rd, jv_get(o, "core_dumped"), "core_dumped", &ev->core_dumped) < 0)
		return -1;
	ev->exit_code = (int)v;
	v = 0;
	if (get_int(rd, jv_get(o, "max_rss_kb"), "max_rss_kb", &v, 0, INT64_MAX, OPT) < 0)
		return -1;
	ev->max_rss_kb = (uint64_t)v;
	return 0;
}

/* A jsonl process record (process_start, process_exit, exec, detach). */
static int conv_proc_line(struct reader *rd, const struct jv *o, int type, struct event *ev)
{
	int64_t v = 0;

	memset(ev, 0, sizeof(*ev));
	ev->type = (uint8_t)type;
	ev->nr = -1;
	if (get_pid(rd, jv_get(o, "pid"), "pid", &ev->pid, REQ) < 0 ||
	    get_pid(rd, jv_get(o, "tid"), "tid", &ev->tid, OPT) < 0 ||
	    get_us(rd, jv_get(o, "ts_us"), "ts_us", &ev->ts_ns, OPT) < 0 ||
	    get_int(rd, jv_get(o, "lamport"), "lamport", &v, 0, INT64_MAX, OPT) < 0)
		return -1;
	ev->lamport = (uint64_t)v;
	ev->end_ns = ev->ts_ns;
	if (!ev->tid)
		ev->tid = ev->pid;
	switch (type) {
	case EV_PROC_START:
		if (get_pid(rd, jv_get(o, "ppid"), "ppid", &ev->ppid, OPT) < 0 ||
		    get_bool(rd, jv_get(o, "is_thread"), "is_thread", &ev->is_thread) < 0)
			return -1;
		break;
	case EV_PROC_EXIT:
		return conv_status(rd, o, ev);
	case EV_EXEC:
		return get_str(rd, jv_get(o, "path"), "path", &ev->exec_path, NULL, NUL) < 0 ? -1 : 0;
	}
	return 0;
}

/*
 * The counters of a summary or of one of its by_syscall rows (prefix
 * "by_syscall.NAME" names the row): integers >= 0 and times.  Checked,
 * not kept (readers count the records themselves).
 */
static int check_counts(struct reader *rd, const struct jv *o, const char *prefix)
{
	static const char *const ints[] = {
		"total_syscalls", "total_errors", "total_unfinished", "calls", "errors", "unfinished",
	};
	static const char *const times[] = { "total_time_us", "total_us" };
	struct strbuf key = STRBUF_INIT;
	int64_t v;
	uint64_t ns;
	int r = 0;

	for (size_t i = 0; i < ARRAY_SIZE(ints) && r >= 0; i++) {
		strbuf_reset(&key);
		strbuf_addf(&key, "%s%s%s", prefix, *prefix ? "." : "", ints[i]);
		r = get_int(rd, jv_get(o, ints[i]), key.buf, &v, 0, INT64_MAX, OPT);
	}
	for (size_t i = 0; i < ARRAY_SIZE(times) && r >= 0; i++) {
		strbuf_reset(&key);
		strbuf_addf(&key, "%s%s%s", prefix, *prefix ? "." : "", times[i]);
		r = get_us(rd, jv_get(o, times[i]), key.buf, &ns, OPT);
	}
	strbuf_release(&key);
	return r < 0 ? -1 : 0;
}

/* The summary's end facts. */
static int conv_summary(struct reader *rd, const struct jv *o, struct trace_end *te)
{
	struct event ev;
	const struct jv *by;
	uint64_t wall = 0;
	bool det = false;
	int r;

	memset(&ev, 0, sizeof(ev));
	if (o->type != JV_OBJ)
		return rec_err(rd, "field 'summary': object expected, not %s", jv_kind(o));
	if (conv_status(rd, o, &ev) < 0 ||
	    get_us(rd, jv_get(o, "wall_time_us"), "wall_time_us", &wall, OPT) < 0 ||
	    get_bool(rd, jv_get(o, "detached"), "detached", &det) < 0 ||
	    check_counts(rd, o, "") < 0)
		return -1;
	by = jv_get(o, "by_syscall");
	if ((r = get_obj(rd, by, "by_syscall", JV_OBJ, OPT)) < 0)
		return -1;
	for (uint32_t i = 0; r && i < by->n; i++) {
		const struct jv *row = &by->items[i];
		struct strbuf key = STRBUF_INIT;

		strbuf_addf(&key, "by_syscall.%s", esc(row->key));
		if (row->type != JV_OBJ)
			r = rec_err(rd, "field '%s': object expected, not %s", key.buf, jv_kind(row));
		else
			r = check_counts(rd, row, key.buf);
		strbuf_release(&key);
		if (r < 0)
			return -1;
	}
	te->exit_code = ev.exit_code;
	te->term_signal = ev.term_signal;
	te->wall_ns = wall;
	te->detached = det;
	return 0;
}

/* --- the header facts --- */

static struct member *member(struct reader *rd, const char *key)
{
	for (size_t i = 0; i < rd->nmembers; i++)
		if (!strcmp(rd->members[i].key, key))
			return &rd->members[i];
	return NULL;
}

/*
 * Where a field of the header lives: a document's top-level member (errors
 * point at its value, or at 1:1 when it is missing), or a member of the
 * jsonl header line (errors point at the line).
 */
static const struct jv *hfield(struct reader *rd, const struct jv *hdr, const char *key)
{
	struct member *m;

	if (!rd->in_doc)
		return jv_get(hdr, key);
	m = member(rd, key);
	rd->rline = m ? m->line : 1;
	rd->rcol = m ? m->col : 1;
	return m ? m->v : NULL;
}

/* The format of a trace: base ("renacer-json") with -v2 (typed values)
 * or -v1 (text only). */
static int check_format(struct reader *rd, const struct jv *hdr, const char *base)
{
	const struct jv *f = hfield(rd, hdr, "format");
	size_t n = strlen(base);

	if (!f)
		return rec_err(rd, "no \"format\" field: not a renacer trace");
	if (f->type != JV_STR)
		return rec_err(rd, "field 'format': string expected, not %s", jv_kind(f));
	if (f->n == n + 3 && !memcmp(f->s, base, n) && f->s[n] == '-' && f->s[n + 1] == 'v' &&
	    (f->s[n + 2] == '1' || f->s[n + 2] == '2')) {
		rd->fmt_version = f->s[n + 2] - '0';
		return 0;
	}
	return rec_err(rd, "unsupported format '%s' (expected %s-v2 or %s-v1)", escn(f->s, f->n),
		       base, base);
}

/* The "environment" member (sink/env.h); -1 on a malformed one. */
static int conv_env(struct reader *rd, const struct jv *e)
{
	static const char *const names[3] = { "stdin", "stdout", "stderr" };
	const struct jv *cwd, *stdio, *vars;

	if (e->type != JV_OBJ)
		return rec_err(rd, "field 'environment': object expected, not %s", jv_kind(e));
	cwd = jv_get(e, "cwd");
	stdio = jv_get(e, "stdio");
	vars = jv_get(e, "variables");
	if (cwd && cwd->type != JV_STR && cwd->type != JV_NULL)
		return rec_err(rd, "field 'environment.cwd': string or null expected, not %s",
			       jv_kind(cwd));
	if (stdio && stdio->type != JV_OBJ)
		return rec_err(rd, "field 'environment.stdio': object expected, not %s",
			       jv_kind(stdio));
	if (vars && vars->type != JV_OBJ)
		return rec_err(rd, "field 'environment.variables': object expected, not %s",
			       jv_kind(vars));
	if (cwd && cwd->type == JV_STR)
		rd->env.cwd = xstrdup(cwd->s);
	for (int i = 0; stdio && i < 3; i++) {
		const struct jv *k = jv_get(stdio, names[i]);
		int kind;
		if (!k)
			continue;
		if (k->type != JV_STR || (kind = stdio_kind_parse(k->s)) < 0)
			return rec_err(rd, "field 'environment.stdio.%s': unknown kind", names[i]);
		rd->env.stdio[i] = kind;
	}
	for (uint32_t i = 0; vars && i < vars->n; i++) {
		const struct jv *v = &vars->items[i];
		if (v->type != JV_STR && v->type != JV_NULL)
			return rec_err(rd, "field 'environment.variables.%s': string or null "
				       "expected, not %s", esc(v->key), jv_kind(v));
		trace_env_set_var(&rd->env, v->key, v->type == JV_STR ? v->s : NULL);
	}
	rd->ti.env = &rd->env;
	return 0;
}

/* Header facts shared by both formats: version, command, follow, start. */
static int conv_header(struct reader *rd, const struct jv *hdr)
{
	const struct jv *cmd, *env;
	const char *backend = NULL;
	int64_t start = 0;
	bool follow = false;

	/* --backend ebpf writes totals only: nothing to replay call by call */
	if (get_str(rd, hfield(rd, hdr, "backend"), "backend", &backend, NULL, OPT) < 0)
		return -1;
	if (backend && strcmp(backend, "ptrace"))
		return rec_err(rd, "a summary of the %s back end, without syscall records "
			       "(trace with --backend ptrace)", backend);

	if (get_str(rd, hfield(rd, hdr, "version"), "version", &rd->version, NULL, OPT) < 0 ||
	    get_int(rd, hfield(rd, hdr, "start_unix_ns"), "start_unix_ns", &start, 0,
		    INT64_MAX, OPT) < 0 ||
	    get_bool(rd, hfield(rd, hdr, "follow"), "follow", &follow) < 0)
		return -1;
	env = hfield(rd, hdr, "environment");
	if (env && conv_env(rd, env) < 0)
		return -1;
	cmd = hfield(rd, hdr, "command");
	if (get_obj(rd, cmd, "command", JV_ARR, NUL) < 0)
		return -1;
	if (!jv_null(cmd)) {
		rd->argv = xcalloc(cmd->n + 1, sizeof(char *));
		for (uint32_t i = 0; i < cmd->n; i++) {
			if (cmd->items[i].type != JV_STR)
				return rec_err(rd, "field 'command': strings expected, not %s",
					       jv_kind(&cmd->items[i]));
			rd->argv[i] = xstrdup(cmd->items[i].s);
		}
	}
	rd->ti.version = rd->version;
	rd->ti.argv = rd->argv;
	rd->ti.start_realtime_ns = (uint64_t)start;
	rd->ti.follow = follow;
	return 0;
}

/* The "timing" member of the object whose bytes are in rd->val, as jansson. */
static void keep_timing(struct reader *rd)
{
	json_t *o = json_loadb(rd->val.buf, rd->val.len, JSON_ALLOW_NUL, NULL);
	json_t *t = json_object_get(o, "timing");

	if (t && !json_is_null(t) && !rd->timing)
		rd->timing = json_incref(t);
	json_decref(o);
}

/* --- meta --- */

static void fill_meta(struct reader *rd)
{
	struct trace_meta *m = rd->meta;
	struct strbuf sb = STRBUF_INIT;

	if (!m)
		return;
	m->version = rd->version ? xstrdup(rd->version) : NULL;
	if (rd->argv) {
		for (size_t i = 0; rd->argv[i]; i++) {
			const char *a = rd->argv[i];
			if (i)
				strbuf_addch(&sb, ' ');
			if (*a && !a[strcspn(a, " \t\n'\"\\$`|&;<>()*?[]#~")]) {
				strbuf_addstr(&sb, a);
				continue;
			}
			strbuf_addch(&sb, '\'');
			for (; *a; a++) {
				if (*a == '\'')
					strbuf_addstr(&sb, "'\\''");
				else
					strbuf_addch(&sb, *a);
			}
			strbuf_addch(&sb, '\'');
		}
		m->command = strbuf_detach(&sb, NULL);
	}
	m->exit_code = rd->te.exit_code;
	m->term_signal = rd->te.term_signal;
	m->wall_ns = rd->te.wall_ns;
	m->timing = rd->timing;
	rd->timing = NULL;
}

void trace_meta_release(struct trace_meta *m)
{
	if (!m)
		return;
	free(m->version);
	free(m->command);
	json_decref((json_t *)m->timing);
	memset(m, 0, sizeof(*m));
}

/* --- events out --- */

/* Emits the side events due before a syscall that ended at t. */
static void emit_side_until(struct reader *rd, uint64_t t, bool all)
{
	while (rd->iside < rd->nside && (all || rd->side[rd->iside].ev.ts_ns <= t))
		sink_list_event(rd->sinks, &rd->side[rd->iside++].ev);
}

/* --- renacer-jsonl-v1 --- */

/*
 * Reads one line into rd->val (without the newline); *eof when there was
 * none, *nl when it ended in a newline.  A line longer than max is an error,
 * or with max_ok just cut there.
 */
static int read_line(struct reader *rd, bool *eof, bool *nl, size_t max, bool max_ok)
{
	struct src *s = &rd->src;

	val_reset(rd, max);
	*eof = *nl = false;
	for (;;) {
		unsigned char *p, *q;
		size_t n;

		if (s->pos == s->len && !src_fill(s)) {
			if (src_check(rd))
				return -1;
			*eof = rd->val.len == 0;
			return 0;
		}
		p = s->buf + s->pos;
		q = memchr(p, '\n', s->len - s->pos);
		n = q ? (size_t)(q - p) : s->len - s->pos;
		if (max_ok && rd->val.len + n > max)
			return 0;
		if (val_add(rd, &rd->val, p, n) < 0)
			return -1;
		s->pos += n;
		if (q) {
			src_get(s);
			*nl = true;
			return 0;
		}
	}
}

static bool blank(const struct strbuf *sb)
{
	for (size_t i = 0; i < sb->len; i++)
		if (!strchr(" \t\r", sb->buf[i]))
			return false;
	return true;
}

static int record_type(const char *t)
{
	static const struct { const char *name; int type; } types[] = {
		{ "syscall", EV_SYSCALL }, { "signal", EV_SIGNAL },
		{ "process_start", EV_PROC_START }, { "process_exit", EV_PROC_EXIT },
		{ "exec", EV_EXEC }, { "detach", EV_DETACH },
	};
	for (size_t i = 0; i < ARRAY_SIZE(types); i++)
		if (!strcmp(types[i].name, t))
			return types[i].type;
	return 0;
}

/* One jsonl record (not the header) at rd->rline; -1 on error. */
static int jsonl_record(struct reader *rd, const struct jv *o, bool *summary)
{
	const struct jv *t = jv_get(o, "type");
	struct event ev;
	int type;

	if (!t || t->type != JV_STR)
		return rec_err(rd, "record without a \"type\"");
	type = record_type(t->s);
	if (type == EV_SYSCALL) {
		if (conv_syscall(rd, o, &ev) < 0)
			return -1;
	} else if (type == EV_SIGNAL) {
		if (conv_signal(rd, o, &ev, &rd->arena) < 0)
			return -1;
	} else if (type) {
		if (conv_proc_line(rd, o, type, &ev) < 0)
			return -1;
	} else if (!strcmp(t->s, "summary")) {
		*summary = true;
		if (get_obj(rd, jv_get(o, "timing"), "timing", JV_OBJ, NUL) < 0)
			return -1;
		if (jv_get(o, "timing"))
			keep_timing(rd);
		return conv_summary(rd, o, &rd->te);
	} else if (!strcmp(t->s, "header")) {
		return rec_err(rd, "a second header");
	} else {
		return 0;        /* a record type from a newer writer: skipped */
	}
	sink_list_event(rd->sinks, &ev);
	return 0;
}

static int read_jsonl(struct reader *rd, const struct jv *header)
{
	const struct jv *t = jv_get(header, "type");
	bool eof, nl, summary = false;

	if (t->type != JV_STR || strcmp(t->s, "header"))
		return rec_err(rd, "the first record is not a \"header\"");
	if (check_format(rd, header, "renacer-jsonl") < 0 || conv_header(rd, header) < 0)
		return -1;
	if (sink_list_begin(rd->sinks, &rd->ti) < 0)
		return rd_err(rd, "a sink failed to start");
	for (;;) {
		unsigned long line = rd->src.line;
		struct jv *o;

		if (read_line(rd, &eof, &nl, TRACE_MAX_RECORD, false) < 0)
			return -1;
		if (eof)
			break;
		if (blank(&rd->val))
			continue;
		if (summary)
			return rd_err_at(rd, line, 1, "data after the summary line");
		arena_reset(&rd->arena);
		if (!nl) {
			struct jv_err je;
			if (!(o = jv_parse(&rd->arena, rd->val.buf, rd->val.len, MAX_DEPTH, &je)))
				return rd_err_at(rd, line, rd->val.len + 1,
						 "unexpected end of file (the last line is cut short)");
		} else if (!(o = parse_val(rd, &rd->arena, line, 1, 0))) {
			return -1;
		}
		rd->rline = line;
		rd->rcol = 1;
		if (count_record(rd) < 0 || jsonl_record(rd, o, &summary) < 0)
			return -1;
	}
	if (!summary)
		return pos_err(rd, "unexpected end of file (no summary line: truncated trace?)");
	fill_meta(rd);
	return sink_list_end(rd->sinks, &rd->te) < 0 ? rd_err(rd, "a sink failed") : 0;
}

/* --- renacer-json-v1 --- */

static int side_cmp(const void *pa, const void *pb)
{
	const struct side *a = pa, *b = pb;
	if (a->ev.ts_ns != b->ev.ts_ns)
		return a->ev.ts_ns < b->ev.ts_ns ? -1 : 1;
	return a->seq < b->seq ? -1 : a->seq > b->seq;
}

static struct event *side_new(struct reader *rd)
{
	struct side *s;

	ALLOC_GROW(rd->side, rd->nside + 1, rd->aside);
	s = &rd->side[rd->nside];
	memset(s, 0, sizeof(*s));
	s->seq = rd->nside++;
	return &s->ev;
}

/* One entry of "processes": start, execs and end as side events. */
static int conv_process(struct reader *rd, const struct jv *o)
{
	struct event base, *ev;
	const struct jv *ex;
	uint64_t ns;
	bool det = false;
	int r;

	memset(&base, 0, sizeof(base));
	base.nr = -1;
	if (o->type != JV_OBJ)
		return rec_err(rd, "field 'processes': objects expected, not %s", jv_kind(o));
	if (count_record(rd) < 0)
		return -1;
	if (get_pid(rd, jv_get(o, "pid"), "pid", &base.pid, REQ) < 0 ||
	    get_pid(rd, jv_get(o, "tid"), "tid", &base.tid, OPT) < 0 ||
	    get_pid(rd, jv_get(o, "ppid"), "ppid", &base.ppid, OPT) < 0 ||
	    get_bool(rd, jv_get(o, "is_thread"), "is_thread", &base.is_thread) < 0 ||
	    get_bool(rd, jv_get(o, "detached"), "detached", &det) < 0)
		return -1;
	if (!base.tid)
		base.tid = base.pid;
	if ((r = get_us(rd, jv_get(o, "start_us"), "start_us", &ns, NUL)) < 0)
		return -1;
	if (r) {
		ev = side_new(rd);
		*ev = base;
		ev->type = EV_PROC_START;
		ev->ts_ns = ev->end_ns = ns;
	}
	ex = jv_get(o, "exec");
	if (get_obj(rd, ex, "exec", JV_ARR, OPT) < 0)
		return -1;
	for (uint32_t i = 0; ex && ex->type == JV_ARR && i < ex->n; i++) {
		const struct jv *x = &ex->items[i];
		const char *path;

		if (x->type != JV_OBJ)
			return rec_err(rd, "field 'exec': objects expected, not %s", jv_kind(x));
		ns = 0;
		if (get_str(rd, jv_get(x, "path"), "exec.path", &path, NULL, NUL) < 0 ||
		    get_us(rd, jv_get(x, "ts_us"), "exec.ts_us", &ns, OPT) < 0)
			return -1;
		ev = side_new(rd);
		*ev = base;
		ev->type = EV_EXEC;
		ev->tid = base.pid;
		ev->exec_path = path;
		ev->ts_ns = ev->end_ns = ns;
	}
	if ((r = get_us(rd, jv_get(o, "end_us"), "end_us", &ns, NUL)) < 0)
		return -1;
	/* the exit facts are checked also when they are not used */
	if (!r || det) {
		struct event tmp;

		memset(&tmp, 0, sizeof(tmp));
		if (conv_status(rd, o, &tmp) < 0)
			return -1;
	}
	if (r) {
		ev = side_new(rd);
		*ev = base;
		ev->type = det ? EV_DETACH : EV_PROC_EXIT;
		ev->ts_ns = ev->end_ns = ns;
		if (!det && conv_status(rd, o, ev) < 0)
			return -1;
	}
	return 0;
}

/* Checks and converts everything of a document but its syscalls. */
static int conv_doc(struct reader *rd)
{
	const struct jv *arr, *x;

	rd->rline = rd->rcol = 1;
	if (check_format(rd, NULL, "renacer-json") < 0 || conv_header(rd, NULL) < 0)
		return -1;
	rd->rline = rd->rcol = 1;
	if (!rd->sys_line)
		return rec_err(rd, "no \"syscalls\" array");
	arr = hfield(rd, NULL, "processes");
	if (get_obj(rd, arr, "processes", JV_ARR, OPT) < 0)
		return -1;
	for (uint32_t i = 0; arr && arr->type == JV_ARR && i < arr->n; i++)
		if (conv_process(rd, &arr->items[i]) < 0)
			return -1;
	arr = hfield(rd, NULL, "signals");
	if (get_obj(rd, arr, "signals", JV_ARR, OPT) < 0)
		return -1;
	for (uint32_t i = 0; arr && arr->type == JV_ARR && i < arr->n; i++)
		if (count_record(rd) < 0 ||
		    conv_signal(rd, &arr->items[i], side_new(rd), &rd->keep) < 0)
			return -1;
	x = hfield(rd, NULL, "summary");
	if (x && conv_summary(rd, x, &rd->te) < 0)
		return -1;
	x = hfield(rd, NULL, "timing");
	if (get_obj(rd, x, "timing", JV_OBJ, NUL) < 0)
		return -1;
	/* stable: equal times keep the order of the file */
	if (rd->nside)
		QSORT(rd->side, rd->nside, side_cmp);
	return 0;
}

/*
 * The syscalls array at the stream's '['.  Pass 1 (emit_them false) only
 * checks brackets; pass 2 parses and emits each element, with the side
 * events merged in by time.
 */
static int walk_syscalls(struct reader *rd, bool emit_them)
{
	struct src *s = &rd->src;
	int c;
	size_t n = 0;

	src_get(s); /* '[' */
	for (;;) {
		unsigned long line, col;
		struct jv *o;
		struct event ev;

		skip_ws(s);
		c = src_peek(s);
		if (c == ']' && !n) {
			src_get(s);
			return 0;
		}
		line = s->line;
		col = src_col(s);
		val_reset(rd, TRACE_MAX_RECORD);
		if (scan_value(rd, emit_them ? &rd->val : NULL, 2) < 0)
			return -1;
		n++;
		if (emit_them) {
			arena_reset(&rd->arena);
			if (!(o = parse_val(rd, &rd->arena, line, col, 2)))
				return -1;
			rd->rline = line;
			rd->rcol = col;
			if (count_record(rd) < 0 || conv_syscall(rd, o, &ev) < 0)
				return -1;
			emit_side_until(rd, ev.end_ns, false);
			sink_list_event(rd->sinks, &ev);
		}
		skip_ws(s);
		c = src_peek(s);
		if (c == ']') {
			src_get(s);
			return 0;
		}
		if (c != ',')
			return unexpected(rd, "',' or ']'");
		src_get(s);
	}
}

/* Pass 1: every top-level member but "syscalls" into rd->members. */
static int read_doc_pass1(struct reader *rd)
{
	struct src *s = &rd->src;
	int c;

	src_get(s); /* '{' */
	for (size_t n = 0;; n++) {
		unsigned long line, col;
		struct jv *k, *v;

		skip_ws(s);
		c = src_peek(s);
		if (c == '}' && !n) {
			src_get(s);
			break;
		}
		if (c != '"')
			return unexpected(rd, "string or '}'");
		line = s->line;
		col = src_col(s);
		val_reset(rd, TRACE_MAX_MEMBER);
		if (scan_value(rd, &rd->val, 1) < 0 || !(k = parse_val(rd, &rd->keep, line, col, 1)))
			return -1;
		skip_ws(s);
		if (src_peek(s) != ':')
			return unexpected(rd, "':'");
		src_get(s);
		skip_ws(s);
		line = s->line;
		col = src_col(s);
		if (!strcmp(k->s, "syscalls") && src_peek(s) != '[')
			return unexpected(rd, "field 'syscalls': array");
		if (!strcmp(k->s, "syscalls")) {
			if (rd->sys_line)
				return rd_err_at(rd, line, col, "a second \"syscalls\" array");
			rd->sys_off = src_offset(s);
			rd->sys_line = line;
			rd->sys_col = col;
			if (walk_syscalls(rd, false) < 0)
				return -1;
		} else {
			struct member *m;
			val_reset(rd, TRACE_MAX_MEMBER);
			if (scan_value(rd, &rd->val, 1) < 0 ||
			    !(v = parse_val(rd, &rd->keep, line, col, 1)))
				return -1;
			if (!strcmp(k->s, "timing") && v->type != JV_NULL && !rd->timing) {
				json_t *t = json_loadb(rd->val.buf, rd->val.len,
						       JSON_DECODE_ANY | JSON_ALLOW_NUL, NULL);
				if (t)
					rd->timing = t;
			}
			if (!(m = member(rd, k->s))) {
				ALLOC_GROW(rd->members, rd->nmembers + 1, rd->amembers);
				m = &rd->members[rd->nmembers++];
			}
			m->key = k->s;
			m->v = v;
			m->line = line;
			m->col = col;
		}
		skip_ws(s);
		c = src_peek(s);
		if (c == '}') {
			src_get(s);
			break;
		}
		if (c != ',')
			return unexpected(rd, "',' or '}'");
		src_get(s);
	}
	skip_ws(s);
	if (src_peek(s) >= 0)
		return unexpected(rd, "end of file");
	return src_check(rd);
}

static int read_doc(struct reader *rd)
{
	rd->in_doc = true;
	if (read_doc_pass1(rd) < 0 || conv_doc(rd) < 0)
		return -1;
	src_close(&rd->src);
	if (src_open(&rd->src, rd->path) < 0)
		return rd_err(rd, "%s", strerror(errno));
	if (src_seek(rd, rd->sys_off, rd->sys_line, rd->sys_col) < 0)
		return -1;
	if (sink_list_begin(rd->sinks, &rd->ti) < 0)
		return rd_err(rd, "a sink failed to start");
	if (walk_syscalls(rd, true) < 0)
		return -1;
	emit_side_until(rd, 0, true);
	fill_meta(rd);
	return sink_list_end(rd->sinks, &rd->te) < 0 ? rd_err(rd, "a sink failed") : 0;
}

/*
 * Tells the two formats apart by the first line: a jsonl trace starts with
 * a complete {"type": "header", ...} object on one line.
 */
static int read_any(struct reader *rd)
{
	struct src *s = &rd->src;
	struct jv_err je;
	struct jv *first;
	bool eof, nl;
	int c;

	skip_ws(s);
	c = src_peek(s);
	if (c < 0) {
		if (src_check(rd))
			return -1;
		return rd_err_at(rd, s->line, src_col(s), "empty file");
	}
	if (c != '{')
		return unexpected(rd, "'{'");
	rd->rline = s->line;
	rd->rcol = 1;
	if (read_line(rd, &eof, &nl, 1u << 20, true) < 0)
		return -1;
	first = jv_parse(&rd->keep, rd->val.buf, rd->val.len, MAX_DEPTH, &je);
	if (first && first->type == JV_OBJ && jv_get(first, "type"))
		return read_jsonl(rd, first);
	src_close(s);
	if (src_open(s, rd->path) < 0)
		return rd_err(rd, "%s", strerror(errno));
	skip_ws(s);
	return read_doc(rd);
}

int trace_read(const char *path, struct sink_list *sinks, struct trace_meta *meta,
	       int *missing)
{
	return trace_read_limited(path, sinks, meta, missing, NULL);
}

int trace_read_limited(const char *path, struct sink_list *sinks, struct trace_meta *meta,
		       int *missing, const struct trace_limits *lim)
{
	struct reader rd;
	int ret;

	if (missing)
		*missing = 0;
	if (meta)
		memset(meta, 0, sizeof(*meta));
	memset(&rd, 0, sizeof(rd));
	rd.path = path;
	rd.sinks = sinks;
	rd.meta = meta;
	rd.lim.string_bytes = lim && lim->string_bytes ? lim->string_bytes : LIMIT_STRING_BYTES;
	rd.lim.records = lim && lim->records ? lim->records : LIMIT_TRACE_RECORDS;
	rd.val_max = TRACE_MAX_RECORD;
	strbuf_init(&rd.val, 4096);
	if (src_open(&rd.src, path) < 0) {
		if (missing && errno == ENOENT)
			*missing = ENOENT;
		ret = rd_err(&rd, "%s", strerror(errno));
		rd.src.fd = -1;
		goto out;
	}
	ret = read_any(&rd);
out:
	if (ret < 0 && meta)
		trace_meta_release(meta);
	src_close(&rd.src);
	strbuf_release(&rd.val);
	json_decref(rd.timing);
	arena_release(&rd.arena);
	arena_release(&rd.keep);
	free(rd.members);
	trace_env_release(&rd.env);
	free(rd.side);
	free(rd.errnames);
	if (rd.argv)
		for (size_t i = 0; rd.argv[i]; i++)
			free(rd.argv[i]);
	free(rd.argv);
	return ret;
}
