/*
 * Helpers for syscall decoders (see decode.h): typed argument slots, value
 * builders, guarded reads of tracee memory, fd paths and the default decoder.
 */
#include "sys/decode.h"

#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "sys/tmem.h"
#include "util/xmalloc.h"
#include "util/banned.h"

/* Arguments set at the exit stop are output arguments (see event_entry_split). */
static inline void mark_exit(const struct event *ev, struct val *v)
{
	if (ev->type == EV_SYSCALL)
		v->flags |= VF_EXIT;
}

struct val *arg_slot(struct dctx *c, struct event *ev, unsigned i)
{
	struct val *v = &ev->args[i];

	v->name = (c->se->argnames && i < c->se->nargs) ? c->se->argnames[i] : NULL;
	v->flags = 0;
	if (ev->nargs <= i)
		ev->nargs = (uint8_t)(i + 1);
	return v;
}

void arg_int(struct dctx *c, struct event *ev, unsigned i)
{
	struct val *v = arg_slot(c, ev, i);

	v->kind = V_INT;
	v->i = (int)ev->karg[i];
	mark_exit(ev, v);
}

void arg_long(struct dctx *c, struct event *ev, unsigned i)
{
	struct val *v = arg_slot(c, ev, i);

	v->kind = V_INT;
	v->i = karg_s(c, ev, i);
	mark_exit(ev, v);
}

void arg_uint(struct dctx *c, struct event *ev, unsigned i)
{
	struct val *v = arg_slot(c, ev, i);

	v->kind = V_UINT;
	v->u = ev->karg[i];
	mark_exit(ev, v);
}

void arg_raw_uint(struct dctx *c, struct event *ev, unsigned i)
{
	struct val *v = arg_slot(c, ev, i);

	v->kind = V_UINT;
	v->u = ev->raw[i];   /* raw: the whole register, as strace prints it */
	mark_exit(ev, v);
}

void arg_raw_hex(struct dctx *c, struct event *ev, unsigned i)
{
	struct val *v = arg_slot(c, ev, i);

	v->kind = V_HEX;
	v->u = ev->raw[i];   /* raw: the whole register, as strace prints it */
	mark_exit(ev, v);
}

void arg_hex(struct dctx *c, struct event *ev, unsigned i)
{
	struct val *v = arg_slot(c, ev, i);

	v->kind = V_HEX;
	v->u = ev->karg[i];
	mark_exit(ev, v);
}

void arg_oct(struct dctx *c, struct event *ev, unsigned i)
{
	struct val *v = arg_slot(c, ev, i);

	v->kind = V_OCT;
	v->u = ev->karg[i];
	mark_exit(ev, v);
}

void arg_ptr(struct dctx *c, struct event *ev, unsigned i)
{
	struct val *v = arg_slot(c, ev, i);

	v->kind = V_PTR;
	v->u = ev->karg[i];
	mark_exit(ev, v);
}

void arg_fd(struct dctx *c, struct event *ev, unsigned i)
{
	struct val *v = arg_slot(c, ev, i);

	val_set_fd(c, v, v->name, (int)ev->karg[i]);
	mark_exit(ev, v);
}

void arg_dirfd(struct dctx *c, struct event *ev, unsigned i)
{
	struct val *v = arg_slot(c, ev, i);
	int fd = (int)ev->karg[i];

	if (fd == AT_FDCWD) {
		v->kind = V_FD;
		v->fd.fd = AT_FDCWD;
		v->fd.path = fd_path(c, AT_FDCWD);
		mark_exit(ev, v);
		return;
	}
	val_set_fd(c, v, v->name, fd);
	mark_exit(ev, v);
}

void arg_flags(struct dctx *c, struct event *ev, unsigned i, const struct xlat *xl,
	       const char *zero_name)
{
	struct val *v = arg_slot(c, ev, i);

	val_set_flags(v, v->name, ev->karg[i], xl, zero_name);
	mark_exit(ev, v);
}

void arg_enum(struct dctx *c, struct event *ev, unsigned i, const struct xlat *xl)
{
	struct val *v = arg_slot(c, ev, i);

	val_set_enum(v, v->name, ev->karg[i], xl);
	mark_exit(ev, v);
}

void arg_path(struct dctx *c, struct event *ev, unsigned i)
{
	struct val *v = arg_slot(c, ev, i);

	val_read_path(c, v, v->name, ev->karg[i]);
	mark_exit(ev, v);
}

void arg_cstr(struct dctx *c, struct event *ev, unsigned i)
{
	struct val *v = arg_slot(c, ev, i);

	val_read_cstr(c, v, v->name, ev->karg[i], c->opts->string_limit);
	mark_exit(ev, v);
}

void arg_buf(struct dctx *c, struct event *ev, unsigned i, uint64_t len)
{
	struct val *v = arg_slot(c, ev, i);

	val_read_buf(c, v, v->name, ev->karg[i], len);
	mark_exit(ev, v);
}

struct val *val_new_array(struct dctx *c, unsigned n)
{
	return arena_calloc(c->arena, (n ? n : 1) * sizeof(struct val));
}

static inline void val_clear(struct val *v, const char *name, uint8_t kind)
{
	v->kind = kind;
	v->flags = 0;
	v->name = name;
	v->text = NULL;
	v->text_len = 0;
}

void val_set_int(struct val *v, const char *name, int64_t x)
{
	val_clear(v, name, V_INT);
	v->i = x;
}

void val_set_uint(struct val *v, const char *name, uint64_t x)
{
	val_clear(v, name, V_UINT);
	v->u = x;
}

void val_set_hex(struct val *v, const char *name, uint64_t x)
{
	val_clear(v, name, V_HEX);
	v->u = x;
}

void val_set_oct(struct val *v, const char *name, uint64_t x)
{
	val_clear(v, name, V_OCT);
	v->u = x;
}

void val_set_ptr(struct val *v, const char *name, uint64_t x)
{
	val_clear(v, name, V_PTR);
	v->u = x;
}

void val_set_flags(struct val *v, const char *name, uint64_t x,
		   const struct xlat *xl, const char *zero_name)
{
	val_clear(v, name, V_FLAGS);
	v->x.v = x;
	v->x.xl = xl;
	v->x.dflt = zero_name;
	v->x.sym = NULL;
}

void val_set_enum(struct val *v, const char *name, uint64_t x, const struct xlat *xl)
{
	val_clear(v, name, V_ENUM);
	v->x.v = x;
	v->x.xl = xl;
	v->x.dflt = NULL;
	v->x.sym = NULL;
}

void val_set_fd(struct dctx *c, struct val *v, const char *name, int64_t fd)
{
	/* A negative number is no descriptor: strace prints it as a number
	 * (close(-100) is not close(AT_FDCWD)). */
	if (fd < 0) {
		val_set_int(v, name, fd);
		return;
	}
	val_clear(v, name, V_FD);
	v->fd.fd = fd;
	fd_describe(c, fd, &v->fd.path, &v->fd.detail);
}

void val_set_str(struct dctx *c, struct val *v, const char *name,
		 const char *p, size_t len, bool truncated)
{
	val_clear(v, name, V_STR);
	if (len > UINT32_MAX)
		len = UINT32_MAX;
	v->s.p = arena_memdup(c->arena, p, len);
	v->s.len = (uint32_t)len;
	if (truncated)
		v->flags |= VF_TRUNC;
}

void val_set_struct(struct val *v, const char *name, struct val *items,
		    unsigned n, bool more)
{
	val_clear(v, name, V_STRUCT);
	v->c.items = items;
	v->c.n = n;
	v->c.op = NULL;
	if (more)
		v->flags |= VF_MORE;
}

void val_set_array(struct val *v, const char *name, struct val *items,
		   unsigned n, bool more)
{
	val_clear(v, name, V_ARRAY);
	v->c.items = items;
	v->c.n = n;
	v->c.op = NULL;
	if (more)
		v->flags |= VF_MORE;
}

void val_set_local_array(struct dctx *c, struct val *v, const char *name,
			 struct val *items, unsigned n)
{
	unsigned shown = n;

	if (!c->opts->verbose && c->opts->string_limit < n)
		shown = c->opts->string_limit;
	val_set_array(v, name, items, shown, shown < n);
}

void val_set_op(struct val *v, const char *name, struct val *items,
		unsigned n, const char *op)
{
	val_clear(v, name, V_OP);
	v->c.items = items;
	v->c.n = n;
	v->c.op = op;
}

void val_set_sigset(struct val *v, const char *name, uint64_t mask)
{
	val_clear(v, name, V_SIGSET);
	v->sig.mask = mask;
	/* strace prints the complement when more than half the set is on */
	if (__builtin_popcountll(mask) > 32)
		v->flags |= VF_SIGSET_NOT;
}

void val_set_comment(struct dctx *c, struct val *v, const char *text)
{
	size_t n = strlen(text);

	val_clear(v, NULL, V_COMMENT);
	v->s.p = arena_strndup(c->arena, text, n);
	v->s.len = (uint32_t)n;
}

void val_set_named_num(struct dctx *c, struct val *v, const char *name, uint64_t x,
		       const char *text)
{
	struct xlat_data *d = arena_alloc(c->arena, sizeof(*d));
	struct xlat *xl = arena_calloc(c->arena, sizeof(*xl));

	d->val = x;
	d->str = arena_strndup(c->arena, text, strlen(text));
	xl->data = d;
	xl->size = 1;
	xl->type = XT_ENUM;
	val_set_enum(v, name, x, xl);
}

void val_set_or(struct dctx *c, struct val *v, const char *name, const struct val *items,
		unsigned n)
{
	struct val *it = val_new_array(c, n ? 2 * n - 1 : 1);
	unsigned k = 0;

	for (unsigned i = 0; i < n; i++) {
		if (i)
			val_set_text(c, &it[k++], NULL, "|");
		it[k] = items[i];
		it[k++].name = NULL;
	}
	val_set_op(v, name, it, k, NULL);
}

void val_set_xforms(struct dctx *c, struct val *v, const char *name, const struct val *abbrev,
		    const struct val *raw, const struct val *verbose)
{
	struct val *it = val_new_array(c, 3);

	it[0] = *abbrev;
	it[1] = *raw;
	it[2] = *verbose;
	for (unsigned i = 0; i < 3; i++)
		it[i].name = NULL;
	val_set_op(v, name, it, 3, NULL);
	v->flags |= VF_XALT;
}

void val_set_verbose_form(struct dctx *c, struct val *v, const struct val *raw,
			  const struct val *comment)
{
	struct val *vb = val_new_array(c, 2), *cm = val_new_array(c, 3);

	vb[0] = *raw;
	vb[0].name = NULL;
	val_set_text(c, &cm[0], NULL, "/* ");
	cm[1] = *comment;
	cm[1].name = NULL;
	val_set_text(c, &cm[2], NULL, " */");
	val_set_op(&vb[1], NULL, cm, 3, NULL);
	val_set_op(v, NULL, vb, 2, " ");
}

void val_set_num_expr(struct dctx *c, struct val *v, const char *name, const struct val *num,
		      const struct val *expr)
{
	struct val forms[3];

	forms[0] = *expr;
	forms[1] = *num;
	val_set_verbose_form(c, &forms[2], num, expr);
	val_set_xforms(c, v, name, &forms[0], &forms[1], &forms[2]);
}

void val_set_num_text(struct dctx *c, struct val *v, const char *name, const struct val *num,
		      const char *text)
{
	struct val t;

	val_set_text(c, &t, NULL, text);
	val_set_num_expr(c, v, name, num, &t);
}

void val_set_mac(struct dctx *c, struct val *v, const char *name, const uint8_t *a, size_t n)
{
	struct val forms[3], *vb;
	char buf[32 * 3 + 1];
	size_t k = 0;

	val_set_str(c, &forms[1], NULL, (const char *)a, n, false);
	forms[1].flags |= VF_HEXSTR;
	if (n > 32) {
		*v = forms[1];
		v->name = name;
		return;
	}
	buf[0] = '\0';
	for (size_t i = 0; i < n; i++)
		k += (size_t)snprintf(buf + k, sizeof(buf) - k, "%s%02x", i ? ":" : "", a[i]);
	val_set_text(c, &forms[0], NULL, buf);
	vb = val_new_array(c, 2);
	vb[0] = forms[1];
	val_set_comment(c, &vb[1], buf);
	val_set_op(&forms[2], NULL, vb, 2, " ");
	val_set_xforms(c, v, name, &forms[0], &forms[1], &forms[2]);
}

void val_set_text(struct dctx *c, struct val *v, const char *name, const char *text)
{
	size_t n = strlen(text);

	val_clear(v, name, V_TEXT);
	v->s.p = arena_strndup(c->arena, text, n);
	v->s.len = (uint32_t)n;
}

/* A buffer of at least n bytes reused by the string readers, so that a
 * string takes its length in the arena and not its limit (a -s 4096 argv of
 * short strings); kept between calls, grown when a larger limit asks. */
static char *read_scratch(size_t n)
{
	static _Thread_local char *buf;
	static _Thread_local size_t cap;

	if (n > cap) {
		buf = xrealloc(buf, n);
		cap = n;
	}
	return buf;
}

/* A NUL-terminated string of at most max bytes; the arena keeps the bytes
 * shown (and a NUL), not max. */
static void read_str(struct dctx *c, struct val *v, const char *name, uint64_t addr,
		     size_t max, uint8_t cut_flag)
{
	char *buf;
	bool term;
	ssize_t n;
	size_t len;

	if (!addr) {
		val_set_ptr(v, name, 0);
		return;
	}
	/* as strace's umovestr, one byte more than is shown, to know whether
	 * the string goes on: a string that runs into unreadable memory
	 * before its NUL or those max + 1 bytes is shown by its address */
	buf = read_scratch(max + 3);
	n = tmem_read_str(c->tid, addr, buf, max + 1, &term);
	if (n < 0 || (!term && (size_t)n < max + 1)) {
		val_set_ptr(v, name, addr);
		return;
	}
	len = (size_t)n > max ? max : (size_t)n;
	val_clear(v, name, V_STR);
	v->s.p = arena_strndup(c->arena, buf, len);
	v->s.len = (uint32_t)len;
	if (!term || (size_t)n > max)
		v->flags |= cut_flag;
}

void val_read_cstr(struct dctx *c, struct val *v, const char *name, uint64_t addr,
		   unsigned limit)
{
	read_str(c, v, name, addr, limit, VF_TRUNC);
}

void val_read_cstr_n(struct dctx *c, struct val *v, const char *name, uint64_t addr,
		     uint64_t len)
{
	uint64_t limit = c->opts->string_limit;
	uint64_t size = len < limit + 1 ? len : limit + 1;
	char *buf;
	bool term = false;
	ssize_t n = 0;
	size_t shown;

	if (!addr) {
		val_set_ptr(v, name, 0);
		return;
	}
	buf = read_scratch((size_t)size + 2);
	if (size) {
		n = tmem_read_str(c->tid, addr, buf, (size_t)size, &term);
		if (n < 0 || (!term && (uint64_t)n < size)) {
			val_set_ptr(v, name, addr);
			return;
		}
	}
	shown = (size_t)n < limit ? (size_t)n : (size_t)limit;
	val_clear(v, name, V_STR);
	v->s.p = arena_strndup(c->arena, buf, shown);
	v->s.len = (uint32_t)shown;
	/* no NUL among the bytes shown */
	if (len && !(term && (uint64_t)n < size && (size_t)n <= shown))
		v->flags |= VF_TRUNC;
}

void val_read_path(struct dctx *c, struct val *v, const char *name, uint64_t addr)
{
	read_str(c, v, name, addr, PATH_MAX - 1, VF_STR_UNTERM);
}

void arg_out(struct dctx *c, struct event *ev, unsigned i, val_decode_fn decode)
{
	struct val *v = arg_slot(c, ev, i);

	if (ev->err)
		val_set_ptr(v, v->name, ev->karg[i]);
	else
		decode(c, v, v->name, ev->karg[i]);
	v->flags |= VF_EXIT;
}

void val_read_buf(struct dctx *c, struct val *v, const char *name, uint64_t addr,
		  uint64_t len)
{
	uint64_t limit = c->opts->string_limit;
	uint64_t n = len < limit ? len : limit;
	uint64_t fetch = len < limit + 1 ? len : limit + 1;
	char *buf;

	if (!addr) {
		val_set_ptr(v, name, 0);
		return;
	}
	buf = arena_alloc(c->arena, fetch ? fetch : 1);
	/* as strace's printstr_ex: it fetches one byte more than it shows
	 * (when there is one), and a buffer that cannot be read whole is
	 * shown by its address */
	if (fetch && tmem_read(c->tid, addr, buf, fetch) != (ssize_t)fetch) {
		val_set_ptr(v, name, addr);
		return;
	}
	val_clear(v, name, V_STR);
	v->s.p = buf;
	v->s.len = (uint32_t)n;
	if (len > n)
		v->flags |= VF_TRUNC;
}

bool tread(struct dctx *c, uint64_t addr, void *buf, size_t size)
{
	/* -e verbose= leaves this call out: structures show as addresses,
	 * as strace's umove_or_printaddr() when !verbose(tcp) */
	if (!addr || c->opts->no_deref)
		return false;
	return tmem_read(c->tid, addr, buf, size) == (ssize_t)size;
}

const char *time_text(struct dctx *c, int64_t sec, uint64_t nsec)
{
	char buf[96];
	struct tm tm;
	time_t t = (time_t)sec;
	size_t pos;

	if ((sec == 0 && nsec == 0) || nsec > 999999999 || !localtime_r(&t, &tm))
		return NULL;
	pos = strftime(buf, sizeof(buf), "%FT%T", &tm);
	if (!pos)
		return NULL;
	if (nsec)
		pos += (size_t)snprintf(buf + pos, sizeof(buf) - pos, ".%09llu",
					(unsigned long long)nsec);
	if (pos >= sizeof(buf) || !strftime(buf + pos, sizeof(buf) - pos, "%z", &tm))
		return NULL;
	return arena_strndup(c->arena, buf, strlen(buf));
}

void val_set_commented(struct dctx *c, struct val *v, const char *name,
		       const struct val *x, const char *comment)
{
	struct val *items;

	if (!comment) {
		*v = *x;
		v->name = name;
		return;
	}
	items = val_new_array(c, 2);
	items[0] = *x;
	items[0].name = NULL;
	val_set_comment(c, &items[1], comment);
	val_set_op(v, name, items, 2, " ");
}

void ret_set_fd(struct dctx *c, struct event *ev)
{
	ev->rv_fmt = RV_FD;
	if (ev->retval >= 0 && !ev->err)
		fd_describe(c, ev->retval, &ev->ret_path, &ev->ret_detail);
}

bool val_nonzero_bytes(struct dctx *c, struct val *v, uint64_t addr, uint64_t start,
		       uint64_t total)
{
	uint64_t size;
	struct val *parts;
	char text[64];
	bool cut = false;
	char *buf;

	if (total > 4096)
		total = 4096;   /* strace's callers look at a page at most */
	if (start >= total)
		return false;
	size = total - start;
	buf = arena_alloc(c->arena, (size_t)size);
	if (tmem_read(c->tid, addr + start, buf, (size_t)size) != (ssize_t)size) {
		val_set_text(c, v, NULL, "???");
		return true;
	}
	for (uint64_t i = 0; i < size; i++)
		if (buf[i])
			goto show;
	return false;
show:
	/* the first string-limit bytes of them, then "..." */
	if (size > c->opts->string_limit) {
		size = c->opts->string_limit;
		cut = true;
	}
	parts = val_new_array(c, 2);
	snprintf(text, sizeof(text), "bytes %llu..%llu", (unsigned long long)start,
		 (unsigned long long)(total - 1));
	val_set_comment(c, &parts[0], text);
	val_clear(&parts[1], NULL, V_STR);
	parts[1].s.p = buf;
	parts[1].s.len = (uint32_t)size;
	parts[1].flags |= VF_HEXSTR;
	if (cut)
		parts[1].flags |= VF_TRUNC;
	val_set_op(v, NULL, parts, 2, " ");
	return true;
}

unsigned decode_elem_limit(const struct dctx *c, uint64_t n)
{
	uint64_t lim = c->opts->verbose ? DECODE_MAX_ELEMS : c->opts->string_limit;

	if (lim > DECODE_MAX_ELEMS)
		lim = DECODE_MAX_ELEMS;
	return (unsigned)(n < lim ? n : lim);
}

bool decode_over_budget(const struct dctx *c)
{
	return c->arena->used >= DECODE_MAX_EVENT_BYTES;
}

size_t tread_words(struct dctx *c, uint64_t addr, uint64_t *buf, size_t n)
{
	size_t done = 0;

	if (!addr || c->opts->no_deref)
		return 0;
	while (done < n) {
		uint64_t cur = addr + done * sizeof(*buf);
		uint64_t room = (4096 - (cur & 4095)) / sizeof(*buf);
		size_t want = n - done;
		ssize_t got;

		if (cur < addr)
			break;   /* wrapped around */
		if (!room)   /* a word across the page end */
			room = 1;
		if (want > room)
			want = (size_t)room;
		got = tmem_read(c->tid, cur, buf + done, want * sizeof(*buf));
		if (got <= 0)
			break;
		done += (size_t)got / sizeof(*buf);
		if ((size_t)got < want * sizeof(*buf))
			break;
	}
	return done;
}

void decode_array(struct dctx *c, struct val *v, const char *name, uint64_t addr,
		  uint64_t nmemb, size_t elem_size, array_elem_fn fn, void *arg)
{
	uint64_t shown, i;
	struct val *items;
	unsigned char elem[64];
	bool more = false;

	if (!addr) {
		val_set_ptr(v, name, 0);
		return;
	}
	if (!nmemb) {
		val_set_array(v, name, NULL, 0, false);
		return;
	}
	if (elem_size > sizeof(elem) || nmemb > UINT64_MAX / elem_size ||
	    addr + nmemb * elem_size <= addr) {
		val_set_ptr(v, name, addr);
		return;
	}
	shown = decode_elem_limit(c, nmemb);
	more = shown < nmemb;
	items = val_new_array(c, (unsigned)shown + 1);
	for (i = 0; i < shown; i++) {
		uint64_t cur = addr + i * elem_size;

		if (i && decode_over_budget(c)) {
			more = true;
			break;
		}

		if (!tread(c, cur, elem, elem_size)) {
			struct val *it;
			char text[32];

			if (!i) {
				val_set_ptr(v, name, addr);
				return;
			}
			it = val_new_array(c, 2);
			val_set_text(c, &it[0], NULL, "...");
			snprintf(text, sizeof(text), "%#llx", (unsigned long long)cur);
			val_set_comment(c, &it[1], text);
			val_set_op(&items[i++], NULL, it, 2, " ");
			more = false;
			break;
		}
		fn(c, &items[i], elem, arg);
		items[i].name = NULL;
	}
	/* strace reads the element after the last one shown before it
	 * prints "...": an unreadable one is "... / * 0xADDR * /" */
	if (more && i == shown && !tread(c, addr + i * elem_size, elem, elem_size) &&
	    shown < nmemb) {
		struct val *it = val_new_array(c, 2);

		if (!i) {   /* -s 0 and nothing readable: the address */
			val_set_ptr(v, name, addr);
			return;
		}
		char text[32];

		val_set_text(c, &it[0], NULL, "...");
		snprintf(text, sizeof(text), "%#llx", (unsigned long long)(addr + i * elem_size));
		val_set_comment(c, &it[1], text);
		val_set_op(&items[i++], NULL, it, 2, " ");
		more = false;
	}
	val_set_array(v, name, items, (unsigned)i, more);
}

int decode_default(struct dctx *c, struct event *ev, int exiting)
{
	unsigned n = c->se->nargs;

	if (exiting)
		return RVAL_DONE;
	if (n > EVENT_MAX_ARGS)
		n = EVENT_MAX_ARGS;
	for (unsigned i = 0; i < n; i++)
		arg_raw_hex(c, ev, i);   /* strace's printargs: whole registers */
	ev->nargs = (uint8_t)n;
	return RVAL_DONE;
}
