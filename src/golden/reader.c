/*
 * Reads saved traces back into events (see reader.h and
 * docs/trace-format.md): renacer-json-v1 documents and renacer-jsonl-v1
 * streams, plain or zstd-compressed, without holding the syscalls in memory.
 */
#include "golden/reader.h"
#include "util/arena.h"
#include "util/error.h"
#include "util/strbuf.h"
#include "util/xmalloc.h"

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
#define MAX_DEPTH 32            /* nesting allowed anywhere in a document */
#define MAX_LINE (64u << 20)    /* longest jsonl line */
#define MAX_US 9.2e15           /* microseconds that fit int64 nanoseconds */
#define JFLAGS (JSON_ALLOW_NUL)

/* A byte stream from a plain or zstd-compressed file, with its position. */
struct src {
	int fd;
	ZSTD_DStream *z;         /* NULL for a plain file */
	unsigned char *zin;
	size_t zin_len, zin_pos;
	size_t zret;             /* last ZSTD_decompressStream result */
	unsigned char *buf;
	size_t len, pos;
	uint64_t off;            /* bytes consumed before buf */
	unsigned long line, col; /* of the next byte, 1-based */
	int err;                 /* errno of a failed read */
	const char *zerr;        /* zstd error */
	bool eof;
};

struct errname;

struct side {                /* a process or signal event of a .json document */
	struct event ev;
	size_t seq;
};

struct reader {
	const char *path;
	struct src src;
	struct sink_list *sinks;
	struct trace_meta *meta;
	struct arena arena;      /* per event */
	struct arena keep;       /* side events, for the whole read */
	struct strbuf val;       /* bytes of the value being scanned */
	unsigned long rline, rcol; /* position of the record being converted */
	json_t *top;             /* members of a document other than syscalls */
	uint64_t sys_off;        /* byte offset of the syscalls '[' */
	unsigned long sys_line, sys_col;
	struct side *side;
	size_t nside, aside, iside;
	char **argv;
	const char *version;
	struct trace_info ti;
	struct trace_end te;
	bool reported;           /* an error was printed */
	struct errname *errnames; /* sorted, for errno_by_name() */
	size_t nerrnames;
	json_t *where;           /* top-level member name -> [line, column] */
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
	error("cannot read trace '%s': line %lu column %lu: %s", rd->path, line, col, sb.buf);
	strbuf_release(&sb);
	return -1;
}

/* An error in the record being converted. */
#define rec_err(rd, ...) rd_err_at((rd), (rd)->rline, (rd)->rcol, __VA_ARGS__)
/* An error at the stream's position. */
#define pos_err(rd, ...) rd_err_at((rd), (rd)->src.line, (rd)->src.col, __VA_ARGS__)

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
	error("cannot read trace '%s': %s", rd->path, sb.buf);
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
	s->line = s->col = 1;
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
	if (n == 4 && magic[0] == 0x28 && magic[1] == 0xb5 && magic[2] == 0x2f &&
	    magic[3] == 0xfd) {
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
			return true;
		}
	}
}

static inline int src_peek(struct src *s)
{
	if (s->pos == s->len && !src_fill(s))
		return -1;
	return s->buf[s->pos];
}

static inline void src_advance(struct src *s, int c)
{
	s->pos++;
	if (c == '\n') {
		s->line++;
		s->col = 1;
	} else if ((c & 0xc0) != 0x80) {
		s->col++;        /* columns count characters, as jansson does */
	}
}

static inline int src_get(struct src *s)
{
	int c = src_peek(s);
	if (c >= 0)
		src_advance(s, c);
	return c;
}

static uint64_t src_offset(const struct src *s)
{
	return s->off + s->pos;
}

/* Reports a read or decompression error, if one happened. */
static int src_check(struct reader *rd)
{
	if (rd->src.err)
		return rd_err(rd, "%s", strerror(rd->src.err));
	if (rd->src.zerr)
		return pos_err(rd, "%s", rd->src.zerr);
	return 0;
}

/* Skips forward to byte offset off (which is at line/col). */
static int src_seek(struct reader *rd, uint64_t off, unsigned long line, unsigned long col)
{
	struct src *s = &rd->src;

	if (!s->z && lseek(s->fd, (off_t)off, SEEK_SET) == (off_t)off) {
		s->off = off;
		s->len = s->pos = 0;
	} else {
		while (src_offset(s) < off) {
			if (s->pos == s->len && !src_fill(s))
				return src_check(rd) ? -1 : pos_err(rd, "unexpected end of file");
			size_t step = s->len - s->pos;
			if (step > off - src_offset(s))
				step = (size_t)(off - src_offset(s));
			s->pos += step;
		}
	}
	s->line = line;
	s->col = col;
	return 0;
}

/* --- scanning --- */

static void skip_ws(struct src *s)
{
	int c;
	while ((c = src_peek(s)) == ' ' || c == '\n' || c == '\t' || c == '\r')
		src_advance(s, c);
}

/* Up to 20 characters of what comes next, for "near '...'" messages. */
static void near_text(struct src *s, struct strbuf *sb)
{
	int c;
	for (int i = 0; i < 20 && (c = src_peek(s)) >= 0; i++) {
		if (c == '\n' || c == '\r' || (i && (c == ',' || c == ':')))
			break;
		strbuf_addch(sb, c < 0x20 || c >= 0x7f ? '?' : c);
		src_advance(s, c);
	}
}

static int unexpected(struct reader *rd, const char *what)
{
	struct strbuf near = STRBUF_INIT;
	unsigned long l = rd->src.line, c = rd->src.col;
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

/*
 * Copies the bytes of one JSON value at the stream's position into out (or
 * skips them when out is NULL), checking only its brackets and strings;
 * jansson checks the rest.  depth is the nesting around the value.
 */
static int scan_value(struct reader *rd, struct strbuf *out, int depth)
{
	struct src *s = &rd->src;
	int c = src_peek(s), d = 0;
	bool str = false;

	if (c < 0)
		return unexpected(rd, "a value");
	if (c == ',' || c == ':' || c == ']' || c == '}')
		return unexpected(rd, "a value");
	if (c != '{' && c != '[' && c != '"') {
		/* a scalar: let jansson judge the token */
		while ((c = src_peek(s)) >= 0 && c != ',' && c != ']' && c != '}' &&
		       c != ' ' && c != '\n' && c != '\t' && c != '\r' && c != ':') {
			if (out)
				strbuf_addch(out, c);
			src_advance(s, c);
		}
		return src_check(rd);
	}
	for (;;) {
		unsigned long line = s->line, col = s->col;

		c = src_get(s);
		if (c < 0)
			return src_check(rd) ? -1 : pos_err(rd, "unexpected end of file");
		if (out)
			strbuf_addch(out, c);
		if (str) {
			if (c == '\\') {
				c = src_get(s);
				if (c < 0)
					return src_check(rd) ? -1 : pos_err(rd, "unexpected end of file");
				if (out)
					strbuf_addch(out, c);
			} else if (c == '"') {
				str = false;
				if (!d)
					return 0;
			}
			continue;
		}
		if (c == '"') {
			str = true;
		} else if (c == '{' || c == '[') {
			if (depth + ++d > MAX_DEPTH)
				return rd_err_at(rd, line, col, "too deeply nested (more than %d levels)",
						 MAX_DEPTH);
		} else if (c == '}' || c == ']') {
			if (!--d)
				return 0;
		}
	}
}

/* Parses the bytes in rd->val, which began at line/col, with jansson. */
static json_t *parse_val(struct reader *rd, unsigned long line, unsigned long col)
{
	json_error_t je;
	json_t *j = json_loadb(rd->val.buf, rd->val.len, JFLAGS | JSON_DECODE_ANY, &je);

	if (!j) {
		unsigned long l = line, c = col;
		if (je.line > 1) {
			l = line + (unsigned long)je.line - 1;
			c = (unsigned long)(je.column > 0 ? je.column : 1);
		} else if (je.column > 0) {
			c = col + (unsigned long)je.column - 1;
		}
		rd_err_at(rd, l, c, "%s", je.text);
	}
	return j;
}

/* --- field access (errors name the record's position) --- */

enum { OPT = 0, REQ = 1 };

static int get_int(struct reader *rd, json_t *o, const char *key, int64_t *out,
		   int64_t min, int64_t max, int req)
{
	json_t *v = json_object_get(o, key);

	if (!v || json_is_null(v)) {
		if (req)
			return rec_err(rd, "missing field '%s'", key);
		return 0;
	}
	if (!json_is_integer(v))
		return rec_err(rd, "field '%s': integer expected", key);
	if (json_integer_value(v) < min || json_integer_value(v) > max)
		return rec_err(rd, "field '%s': %" JSON_INTEGER_FORMAT " out of range", key,
			       json_integer_value(v));
	*out = json_integer_value(v);
	return 1;
}

static int get_pid(struct reader *rd, json_t *o, const char *key, pid_t *out, int req)
{
	int64_t v = 0;
	int r = get_int(rd, o, key, &v, 0, INT32_MAX, req);
	if (r > 0)
		*out = (pid_t)v;
	return r;
}

/* A time in microseconds (integer or fraction) as ns; 0 when absent. */
static int get_us(struct reader *rd, json_t *o, const char *key, uint64_t *ns, int req)
{
	json_t *v = json_object_get(o, key);
	double d;

	if (!v || json_is_null(v)) {
		if (req)
			return rec_err(rd, "missing field '%s'", key);
		return 0;
	}
	if (!json_is_number(v))
		return rec_err(rd, "field '%s': number expected", key);
	if (json_is_integer(v)) {
		json_int_t i = json_integer_value(v);
		if (i < 0 || i > (json_int_t)MAX_US)
			return rec_err(rd, "field '%s': %" JSON_INTEGER_FORMAT " out of range", key, i);
		*ns = (uint64_t)i * 1000u;
		return 1;
	}
	d = json_real_value(v);
	if (!(d >= 0 && d <= MAX_US))
		return rec_err(rd, "field '%s': %g out of range", key, d);
	*ns = (uint64_t)llround(d * 1000.0);
	return 1;
}

/* A string (or null when allow_null); *out points into the json value. */
static int get_str(struct reader *rd, json_t *o, const char *key, const char **out,
		   size_t *len, int req)
{
	json_t *v = json_object_get(o, key);

	*out = NULL;
	if (len)
		*len = 0;
	if (!v || json_is_null(v)) {
		if (req)
			return rec_err(rd, "missing field '%s'", key);
		return 0;
	}
	if (!json_is_string(v))
		return rec_err(rd, "field '%s': string expected", key);
	*out = json_string_value(v);
	if (len)
		*len = json_string_length(v);
	return 1;
}

static int get_bool(struct reader *rd, json_t *o, const char *key, bool *out)
{
	json_t *v = json_object_get(o, key);

	if (!v || json_is_null(v))
		return 0;
	if (!json_is_boolean(v))
		return rec_err(rd, "field '%s': true or false expected", key);
	*out = json_is_true(v);
	return 1;
}

/* A signal given as a name ("SIGKILL") or a number. */
static int get_signal(struct reader *rd, json_t *o, const char *key, int *out)
{
	json_t *v = json_object_get(o, key);

	if (!v || json_is_null(v))
		return 0;
	if (json_is_integer(v) && json_integer_value(v) > 0 && json_integer_value(v) < 1024) {
		*out = (int)json_integer_value(v);
		return 1;
	}
	if (json_is_string(v)) {
		int s = signal_by_name(json_string_value(v));
		if (s > 0) {
			*out = s;
			return 1;
		}
		return rec_err(rd, "field '%s': unknown signal '%s'", key, json_string_value(v));
	}
	return rec_err(rd, "field '%s': signal name expected", key);
}

struct errname {
	const char *name;
	int err;
};

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
		qsort(rd->errnames, rd->nerrnames, sizeof(*rd->errnames), errname_cmp);
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

static int rv_fmt_by_name(const char *s)
{
	static const char *const names[] = { "dec", "hex", "oct", "fd", "none" };
	for (size_t i = 0; i < ARRAY_SIZE(names); i++)
		if (!strcmp(names[i], s))
			return (int)i;
	return -1;
}

static int conv_frames(struct reader *rd, json_t *o, struct event *ev)
{
	json_t *st = json_object_get(o, "stack");
	struct frame *fr;
	size_t i;
	json_t *f;

	if (!st || json_is_null(st))
		return 0;
	if (!json_is_array(st))
		return rec_err(rd, "field 'stack': array expected");
	if (!json_array_size(st))
		return 0;
	fr = arena_calloc(&rd->arena, json_array_size(st) * sizeof(*fr));
	json_array_foreach(st, i, f) {
		const char *pc = NULL;
		int64_t line = 0;
		char *end;

		if (!json_is_object(f))
			return rec_err(rd, "field 'stack': objects expected");
		if (get_str(rd, f, "pc", &pc, NULL, OPT) < 0 ||
		    get_str(rd, f, "function", &fr[i].function, NULL, OPT) < 0 ||
		    get_str(rd, f, "file", &fr[i].file, NULL, OPT) < 0 ||
		    get_str(rd, f, "module", &fr[i].module, NULL, OPT) < 0 ||
		    get_int(rd, f, "line", &line, 0, UINT32_MAX, OPT) < 0)
			return -1;
		fr[i].line = (uint32_t)line;
		if (pc) {
			errno = 0;
			fr[i].pc = strtoull(pc, &end, 16);
			if (errno || *end || end == pc)
				return rec_err(rd, "field 'pc': hex address expected");
		}
	}
	ev->frames = fr;
	ev->nframes = (uint32_t)json_array_size(st);
	return 0;
}

/* A syscall record to an EV_SYSCALL event (strings point into o). */
static int conv_syscall(struct reader *rd, json_t *o, struct event *ev)
{
	json_t *args = json_object_get(o, "args"), *a;
	int64_t v = 0;
	uint64_t dur = 0;
	const char *s;
	size_t i;
	bool unfinished = false;

	memset(ev, 0, sizeof(*ev));
	ev->type = EV_SYSCALL;
	ev->nr = -1;
	if (!json_is_object(o))
		return rec_err(rd, "syscall record: object expected");
	if (get_str(rd, o, "name", &ev->name, NULL, REQ) < 0)
		return -1;
	if (args && !json_is_null(args)) {
		if (!json_is_array(args))
			return rec_err(rd, "field 'args': array expected");
		if (json_array_size(args) > EVENT_MAX_ARGS)
			return rec_err(rd, "field 'args': more than %d arguments", EVENT_MAX_ARGS);
		json_array_foreach(args, i, a) {
			json_t *n = json_array_get(a, 0), *t = json_array_get(a, 1);
			if (!json_is_array(a) || json_array_size(a) != 2 ||
			    !(json_is_string(n) || json_is_null(n)) || !json_is_string(t))
				return rec_err(rd, "field 'args': [name, text] pairs expected");
			ev->args[i].kind = V_TEXT;
			ev->args[i].name = json_string_value(n);
			ev->args[i].s.p = json_string_value(t);
			ev->args[i].s.len = (uint32_t)json_string_length(t);
		}
		ev->nargs = (uint8_t)json_array_size(args);
	}
	if (get_bool(rd, o, "unfinished", &unfinished) < 0)
		return -1;
	ev->state = unfinished ? SC_UNFINISHED : SC_COMPLETE;
	if (get_int(rd, o, "result", &v, INT64_MIN, INT64_MAX, OPT) < 0)
		return -1;
	ev->retval = v;
	{
		json_t *e = json_object_get(o, "errno");
		if (json_is_string(e)) {
			int n = errno_by_name(rd, json_string_value(e));
			if (n < 0)
				return rec_err(rd, "field 'errno': unknown error '%s'",
					       json_string_value(e));
			ev->err = n;
		} else if (json_is_integer(e) && json_integer_value(e) > 0 &&
			   json_integer_value(e) < 4096) {
			ev->err = (int)json_integer_value(e);
		} else if (e && !json_is_null(e)) {
			return rec_err(rd, "field 'errno': error name expected");
		}
	}
	if (get_pid(rd, o, "pid", &ev->pid, OPT) < 0 || get_pid(rd, o, "tid", &ev->tid, OPT) < 0)
		return -1;
	if (!ev->tid)
		ev->tid = ev->pid;
	v = -1;
	if (get_int(rd, o, "nr", &v, -1, INT32_MAX, OPT) < 0)
		return -1;
	ev->nr = (long)v;
	if (get_us(rd, o, "ts_us", &ev->ts_ns, OPT) < 0 ||
	    get_us(rd, o, "duration_us", &dur, OPT) < 0)
		return -1;
	ev->end_ns = ev->ts_ns + dur;
	v = 0;
	if (get_int(rd, o, "lamport", &v, 0, INT64_MAX, OPT) < 0)
		return -1;
	ev->lamport = (uint64_t)v;
	if (get_str(rd, o, "rv_fmt", &s, NULL, OPT) < 0)
		return -1;
	if (s) {
		int f = rv_fmt_by_name(s);
		if (f < 0)
			return rec_err(rd, "field 'rv_fmt': unknown format '%s'", s);
		ev->rv_fmt = (uint8_t)f;
	}
	{
		json_t *ra = json_object_get(o, "ret_aux");
		json_t *n = json_array_get(ra, 0), *t = json_array_get(ra, 1);
		if (ra && !json_is_null(ra)) {
			if (!json_is_array(ra) || json_array_size(ra) != 2 ||
			    !(json_is_string(n) || json_is_null(n)) || !json_is_string(t))
				return rec_err(rd, "field 'ret_aux': [name, text] expected");
			ev->ret_aux = text_val(&rd->arena, json_string_value(n),
					       json_string_value(t), json_string_length(t));
		}
	}
	if (get_str(rd, o, "ret_path", &ev->ret_path, NULL, OPT) < 0)
		return -1;
	return conv_frames(rd, o, ev);
}

static int conv_signal(struct reader *rd, json_t *o, struct event *ev, struct arena *a)
{
	const char *si;
	size_t len;
	int64_t v = 0;

	memset(ev, 0, sizeof(*ev));
	ev->type = EV_SIGNAL;
	ev->nr = -1;
	if (!json_is_object(o))
		return rec_err(rd, "signal record: object expected");
	if (get_pid(rd, o, "pid", &ev->pid, OPT) < 0 || get_pid(rd, o, "tid", &ev->tid, OPT) < 0 ||
	    get_us(rd, o, "ts_us", &ev->ts_ns, OPT) < 0 ||
	    get_int(rd, o, "lamport", &v, 0, INT64_MAX, OPT) < 0)
		return -1;
	ev->lamport = (uint64_t)v;
	if (!ev->tid)
		ev->tid = ev->pid;
	ev->end_ns = ev->ts_ns;
	if (get_signal(rd, o, "signal", &ev->signo) < 0)
		return -1;
	if (!ev->signo && get_signal(rd, o, "signo", &ev->signo) < 0)
		return -1;
	if (!ev->signo)
		return rec_err(rd, "missing field 'signal'");
	if (get_str(rd, o, "siginfo", &si, &len, OPT) < 0)
		return -1;
	if (si)
		ev->siginfo = text_val(a, NULL, si, len);
	return 0;
}

/* Exit status fields of a process record or a summary. */
static int conv_status(struct reader *rd, json_t *o, struct event *ev)
{
	int64_t v = 0;

	if (get_int(rd, o, "exit_code", &v, INT32_MIN, INT32_MAX, OPT) < 0 ||
	    get_signal(rd, o, "signal", &ev->term_signal) < 0 ||
	    get_bool(rd, o, "core_dumped", &ev->core_dumped) < 0)
		return -1;
	ev->exit_code = (int)v;
	v = 0;
	if (get_int(rd, o, "max_rss_kb", &v, 0, INT64_MAX, OPT) < 0)
		return -1;
	ev->max_rss_kb = (uint64_t)v;
	return 0;
}

/* A jsonl process record (process_start, process_exit, exec, detach). */
static int conv_proc_line(struct reader *rd, json_t *o, int type, struct event *ev)
{
	int64_t v = 0;

	memset(ev, 0, sizeof(*ev));
	ev->type = (uint8_t)type;
	ev->nr = -1;
	if (get_pid(rd, o, "pid", &ev->pid, REQ) < 0 || get_pid(rd, o, "tid", &ev->tid, OPT) < 0 ||
	    get_us(rd, o, "ts_us", &ev->ts_ns, OPT) < 0 ||
	    get_int(rd, o, "lamport", &v, 0, INT64_MAX, OPT) < 0)
		return -1;
	ev->lamport = (uint64_t)v;
	ev->end_ns = ev->ts_ns;
	if (!ev->tid)
		ev->tid = ev->pid;
	switch (type) {
	case EV_PROC_START:
		if (get_pid(rd, o, "ppid", &ev->ppid, OPT) < 0 ||
		    get_bool(rd, o, "is_thread", &ev->is_thread) < 0)
			return -1;
		break;
	case EV_PROC_EXIT:
		return conv_status(rd, o, ev);
	case EV_EXEC:
		return get_str(rd, o, "path", &ev->exec_path, NULL, OPT) < 0 ? -1 : 0;
	}
	return 0;
}

/* The summary's end facts. */
static int conv_summary(struct reader *rd, json_t *o, struct trace_end *te)
{
	struct event ev;
	uint64_t wall = 0;
	bool det = false;

	memset(&ev, 0, sizeof(ev));
	if (!json_is_object(o))
		return rec_err(rd, "field 'summary': object expected");
	if (conv_status(rd, o, &ev) < 0 || get_us(rd, o, "wall_time_us", &wall, OPT) < 0 ||
	    get_bool(rd, o, "detached", &det) < 0)
		return -1;
	te->exit_code = ev.exit_code;
	te->term_signal = ev.term_signal;
	te->wall_ns = wall;
	te->detached = det;
	return 0;
}

/*
 * In a document, makes errors point at the value of a top-level member (at
 * 1:1 when there is none); a jsonl record keeps its line.
 */
static void at_member(struct reader *rd, const char *key)
{
	json_t *w = json_object_get(rd->where, key);

	if (!rd->where)
		return;
	rd->rline = rd->rcol = 1;
	if (w) {
		rd->rline = (unsigned long)json_integer_value(json_array_get(w, 0));
		rd->rcol = (unsigned long)json_integer_value(json_array_get(w, 1));
	}
}

/* Header facts shared by both formats: version, command, follow, start. */
static int conv_header(struct reader *rd, json_t *o)
{
	json_t *cmd = json_object_get(o, "command"), *a;
	int64_t start = 0;
	bool follow = false;
	size_t i;

	at_member(rd, "version");
	if (get_str(rd, o, "version", &rd->version, NULL, OPT) < 0)
		return -1;
	at_member(rd, "start_unix_ns");
	if (get_int(rd, o, "start_unix_ns", &start, 0, INT64_MAX, OPT) < 0)
		return -1;
	at_member(rd, "follow");
	if (get_bool(rd, o, "follow", &follow) < 0)
		return -1;
	at_member(rd, "command");
	if (cmd && !json_is_null(cmd)) {
		if (!json_is_array(cmd))
			return rec_err(rd, "field 'command': array expected");
		rd->argv = xcalloc(json_array_size(cmd) + 1, sizeof(char *));
		json_array_foreach(cmd, i, a) {
			if (!json_is_string(a))
				return rec_err(rd, "field 'command': strings expected");
			rd->argv[i] = xstrdup(json_string_value(a));
		}
	}
	rd->ti.version = rd->version;
	rd->ti.argv = rd->argv;
	rd->ti.start_realtime_ns = (uint64_t)start;
	rd->ti.follow = follow;
	return 0;
}

static int check_format(struct reader *rd, json_t *o, const char *want)
{
	json_t *f = json_object_get(o, "format");

	if (!f)
		return rec_err(rd, "no \"format\" field: not a renacer trace");
	if (!json_is_string(f) || strcmp(json_string_value(f), want))
		return rec_err(rd, "unsupported format %s%s%s (expected %s)",
			       json_is_string(f) ? "'" : "",
			       json_is_string(f) ? json_string_value(f) : "of wrong type",
			       json_is_string(f) ? "'" : "", want);
	return 0;
}

/* --- meta --- */

static void fill_meta(struct reader *rd, json_t *timing)
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
	if (timing && !json_is_null(timing))
		m->timing = json_incref(timing);
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

static void emit(struct reader *rd, const struct event *ev)
{
	sink_list_event(rd->sinks, ev);
}

/* Emits the side events due before a syscall that ended at t. */
static void emit_side_until(struct reader *rd, uint64_t t, bool all)
{
	while (rd->iside < rd->nside && (all || rd->side[rd->iside].ev.ts_ns <= t))
		emit(rd, &rd->side[rd->iside++].ev);
}

/* --- renacer-jsonl-v1 --- */

/*
 * Reads one line into rd->val (without the newline); *eof when there was
 * none.  A line longer than max is an error, or with max_ok just cut there.
 */
static int read_line(struct reader *rd, bool *eof, bool *nl_seen, size_t max, bool max_ok)
{
	struct src *s = &rd->src;

	strbuf_reset(&rd->val);
	*eof = false;
	*nl_seen = false;
	for (;;) {
		if (s->pos == s->len && !src_fill(s)) {
			if (src_check(rd))
				return -1;
			*eof = rd->val.len == 0;
			for (size_t i = 0; i < rd->val.len; i++)   /* column of the end */
				if ((rd->val.buf[i] & 0xc0) != 0x80)
					s->col++;
			return 0;
		}
		unsigned char *p = s->buf + s->pos;
		unsigned char *nl = memchr(p, '\n', s->len - s->pos);
		size_t n = nl ? (size_t)(nl - p) : s->len - s->pos;

		if (rd->val.len + n > max) {
			if (max_ok)
				return 0;
			return pos_err(rd, "line longer than %zu bytes", max);
		}
		strbuf_add(&rd->val, p, n);
		s->pos += n;
		if (nl) {
			s->pos++;
			s->line++;
			s->col = 1;
			*nl_seen = true;
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

static int read_jsonl(struct reader *rd, json_t *header)
{
	json_t *summary = NULL;
	int ret = -1;
	bool eof, nl;

	if (check_format(rd, header, "renacer-jsonl-v1") < 0 || conv_header(rd, header) < 0)
		return -1;
	if (sink_list_begin(rd->sinks, &rd->ti) < 0)
		return rd_err(rd, "a sink failed to start");
	for (;;) {
		unsigned long line = rd->src.line;
		json_t *o, *t;
		const char *type;
		struct event ev;
		int r = 0;

		if (read_line(rd, &eof, &nl, MAX_LINE, false) < 0)
			goto out;
		if (eof)
			break;
		if (blank(&rd->val))
			continue;
		if (summary) {
			rd_err_at(rd, line, 1, "data after the summary line");
			goto out;
		}
		if (!nl && !(o = json_loadb(rd->val.buf, rd->val.len, JFLAGS, NULL))) {
			pos_err(rd, "unexpected end of file (the last line is cut short)");
			goto out;
		}
		if (nl && !(o = parse_val(rd, line, 1)))
			goto out;
		rd->rline = line;
		rd->rcol = 1;
		t = json_object_get(o, "type");
		type = json_is_string(t) ? json_string_value(t) : NULL;
		arena_reset(&rd->arena);
		if (!json_is_object(o) || !type) {
			r = rec_err(rd, "record without a \"type\"");
		} else if (!strcmp(type, "syscall")) {
			if ((r = conv_syscall(rd, o, &ev)) == 0)
				emit(rd, &ev);
		} else if (!strcmp(type, "signal")) {
			if ((r = conv_signal(rd, o, &ev, &rd->arena)) == 0)
				emit(rd, &ev);
		} else if (!strcmp(type, "process_start") || !strcmp(type, "process_exit") ||
			   !strcmp(type, "exec") || !strcmp(type, "detach")) {
			int et = type[0] == 'e' ? EV_EXEC : type[0] == 'd' ? EV_DETACH :
				 type[8] == 's' ? EV_PROC_START : EV_PROC_EXIT;
			if ((r = conv_proc_line(rd, o, et, &ev)) == 0)
				emit(rd, &ev);
		} else if (!strcmp(type, "summary")) {
			r = conv_summary(rd, o, &rd->te);
			summary = o;
			o = NULL;
		} else if (!strcmp(type, "header")) {
			r = rec_err(rd, "a second header");
		}
		/* other types: from a newer writer; skipped */
		json_decref(o);
		if (r < 0)
			goto out;
	}
	if (!summary) {
		pos_err(rd, "unexpected end of file (no summary line: truncated trace?)");
		goto out;
	}
	fill_meta(rd, json_object_get(summary, "timing"));
	ret = sink_list_end(rd->sinks, &rd->te) < 0 ? rd_err(rd, "a sink failed") : 0;
out:
	json_decref(summary);
	return ret;
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
static int conv_process(struct reader *rd, json_t *o)
{
	struct event base, *ev;
	json_t *ex, *x;
	uint64_t ns;
	bool det = false;
	int r;
	size_t i;

	memset(&base, 0, sizeof(base));
	base.nr = -1;
	if (!json_is_object(o))
		return rec_err(rd, "field 'processes': objects expected");
	if (get_pid(rd, o, "pid", &base.pid, REQ) < 0 || get_pid(rd, o, "tid", &base.tid, OPT) < 0 ||
	    get_pid(rd, o, "ppid", &base.ppid, OPT) < 0 ||
	    get_bool(rd, o, "is_thread", &base.is_thread) < 0 ||
	    get_bool(rd, o, "detached", &det) < 0)
		return -1;
	if (!base.tid)
		base.tid = base.pid;
	if ((r = get_us(rd, o, "start_us", &ns, OPT)) < 0)
		return -1;
	if (r) {
		ev = side_new(rd);
		*ev = base;
		ev->type = EV_PROC_START;
		ev->ts_ns = ev->end_ns = ns;
	}
	ex = json_object_get(o, "exec");
	if (ex && !json_is_null(ex) && !json_is_array(ex))
		return rec_err(rd, "field 'exec': array expected");
	json_array_foreach(ex, i, x) {
		const char *path;
		if (!json_is_object(x))
			return rec_err(rd, "field 'exec': objects expected");
		ns = 0;
		if (get_str(rd, x, "path", &path, NULL, OPT) < 0 || get_us(rd, x, "ts_us", &ns, OPT) < 0)
			return -1;
		ev = side_new(rd);
		*ev = base;
		ev->type = EV_EXEC;
		ev->tid = base.pid;
		ev->exec_path = path;
		ev->ts_ns = ev->end_ns = ns;
	}
	if ((r = get_us(rd, o, "end_us", &ns, OPT)) < 0)
		return -1;
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
	json_t *o = rd->top, *arr, *x;
	size_t i;

	at_member(rd, "format");
	if (check_format(rd, o, "renacer-json-v1") < 0 || conv_header(rd, o) < 0)
		return -1;
	rd->rline = rd->rcol = 1;
	if (!rd->sys_line)
		return rec_err(rd, "no \"syscalls\" array");
	at_member(rd, "processes");
	arr = json_object_get(o, "processes");
	if (arr && !json_is_null(arr) && !json_is_array(arr))
		return rec_err(rd, "field 'processes': array expected");
	json_array_foreach(arr, i, x)
		if (conv_process(rd, x) < 0)
			return -1;
	at_member(rd, "signals");
	arr = json_object_get(o, "signals");
	if (arr && !json_is_null(arr) && !json_is_array(arr))
		return rec_err(rd, "field 'signals': array expected");
	json_array_foreach(arr, i, x)
		if (conv_signal(rd, x, side_new(rd), &rd->keep) < 0)
			return -1;
	at_member(rd, "summary");
	x = json_object_get(o, "summary");
	if (x && conv_summary(rd, x, &rd->te) < 0)
		return -1;
	/* stable: equal times keep the order of the file */
	qsort(rd->side, rd->nside, sizeof(*rd->side), side_cmp);
	return 0;
}

/*
 * Walks the top-level object.  Pass 1 keeps every member but "syscalls"
 * (whose elements are only checked for brackets) in rd->top; pass 2 seeks to
 * the syscalls array and emits each element.
 */
static int walk_syscalls(struct reader *rd, bool emit_them)
{
	struct src *s = &rd->src;
	int c;
	size_t n = 0;

	src_get(s); /* '[' */
	for (;;) {
		unsigned long line, col;
		json_t *o;
		struct event ev;

		skip_ws(s);
		c = src_peek(s);
		if (c == ']' && !n) {
			src_get(s);
			return 0;
		}
		line = s->line;
		col = s->col;
		strbuf_reset(&rd->val);
		if (scan_value(rd, emit_them ? &rd->val : NULL, 2) < 0)
			return -1;
		n++;
		if (emit_them) {
			if (!(o = parse_val(rd, line, col)))
				return -1;
			rd->rline = line;
			rd->rcol = col;
			arena_reset(&rd->arena);
			if (conv_syscall(rd, o, &ev) < 0) {
				json_decref(o);
				return -1;
			}
			emit_side_until(rd, ev.end_ns, false);
			emit(rd, &ev);
			json_decref(o);
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

static int read_doc_pass1(struct reader *rd)
{
	struct src *s = &rd->src;
	int c;

	rd->top = json_object();
	rd->where = json_object();
	src_get(s); /* '{' */
	for (size_t n = 0;; n++) {
		unsigned long line, col;
		json_t *k, *v;

		skip_ws(s);
		c = src_peek(s);
		if (c == '}' && !n) {
			src_get(s);
			break;
		}
		if (c != '"')
			return unexpected(rd, "string or '}'");
		line = s->line;
		col = s->col;
		strbuf_reset(&rd->val);
		if (scan_value(rd, &rd->val, 1) < 0 || !(k = parse_val(rd, line, col)))
			return -1;
		skip_ws(s);
		if (src_peek(s) != ':') {
			json_decref(k);
			return unexpected(rd, "':'");
		}
		src_get(s);
		skip_ws(s);
		line = s->line;
		col = s->col;
		if (!strcmp(json_string_value(k), "syscalls") && src_peek(s) == '[') {
			if (rd->sys_line) {
				json_decref(k);
				return rd_err_at(rd, line, col, "a second \"syscalls\" array");
			}
			rd->sys_off = src_offset(s);
			rd->sys_line = line;
			rd->sys_col = col;
			if (walk_syscalls(rd, false) < 0) {
				json_decref(k);
				return -1;
			}
		} else {
			strbuf_reset(&rd->val);
			if (scan_value(rd, &rd->val, 1) < 0 || !(v = parse_val(rd, line, col))) {
				json_decref(k);
				return -1;
			}
			json_object_set_new(rd->top, json_string_value(k), v);
			json_object_set_new(rd->where, json_string_value(k),
					    json_pack("[II]", (json_int_t)line, (json_int_t)col));
		}
		json_decref(k);
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
	fill_meta(rd, json_object_get(rd->top, "timing"));
	return sink_list_end(rd->sinks, &rd->te) < 0 ? rd_err(rd, "a sink failed") : 0;
}

/*
 * Tells the two formats apart by the first line: a jsonl trace starts with
 * a complete {"type": "header", ...} object.
 */
static int read_any(struct reader *rd)
{
	struct src *s = &rd->src;
	json_t *first;
	bool eof, nl;
	int c;

	skip_ws(s);
	c = src_peek(s);
	if (c < 0) {
		if (src_check(rd))
			return -1;
		return rd_err_at(rd, s->line, s->col, "empty file");
	}
	if (c != '{')
		return unexpected(rd, "'{'");
	{
		unsigned long line = s->line;
		json_error_t je;

		if (read_line(rd, &eof, &nl, 1u << 20, true) < 0)
			return -1;
		first = json_loadb(rd->val.buf, rd->val.len, JFLAGS, &je);
		if (first && json_is_string(json_object_get(first, "type"))) {
			int r;
			rd->rline = line;
			rd->rcol = 1;
			r = read_jsonl(rd, first);
			json_decref(first);
			return r;
		}
		json_decref(first);
	}
	src_close(s);
	if (src_open(s, rd->path) < 0)
		return rd_err(rd, "%s", strerror(errno));
	skip_ws(s);
	return read_doc(rd);
}

int trace_read(const char *path, struct sink_list *sinks, struct trace_meta *meta,
	       int *missing)
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
	json_decref(rd.top);
	json_decref(rd.where);
	arena_release(&rd.arena);
	arena_release(&rd.keep);
	free(rd.side);
	free(rd.errnames);
	if (rd.argv)
		for (size_t i = 0; rd.argv[i]; i++)
			free(rd.argv[i]);
	free(rd.argv);
	return ret;
}
