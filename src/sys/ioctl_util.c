/*
 * Helpers shared by the ioctl family decoders (src/sys/ioctl.h): the
 * argument slot, guarded reads in strace's umove_or_printaddr manner, and
 * value builders for the forms strace's ioctl decoders print.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/sysmacros.h>

#include "sys/ioc.h"
#include "sys/tmem.h"
#include "util/arena.h"

#include "util/banned.h"

struct val *ioc_val(struct ioc *io)
{
	struct val *v = arg_slot(io->c, io->ev, 2);

	if (io->exiting)
		v->flags |= VF_EXIT;
	return v;
}

void ioc_set_after(struct ioc *io, const struct val *after)
{
	struct val *v = arg_slot(io->c, io->ev, 3);
	struct val *it = val_new_array(io->c, 2);

	val_set_text(io->c, &it[0], NULL, " => ");
	it[1] = *after;
	it[1].name = NULL;
	val_set_op(v, NULL, it, 2, NULL);
	v->flags |= VF_EXIT | VF_CONT;
}

int ioc_none(struct ioc *io)
{
	io->noarg = true;
	if (io->ev->nargs > 2)
		io->ev->nargs = 2;
	return IOC_DONE;
}

static bool do_read(struct ioc *io, struct val *v, uint64_t addr, void *buf, size_t size,
		    bool ignore_err)
{
	const char *name = v->name;

	if (!addr) {
		val_set_ptr(v, name, 0);
		return false;
	}
	if ((!ignore_err && ioc_failed(io)) || !tread(io->c, addr, buf, size)) {
		val_set_ptr(v, name, addr);
		return false;
	}
	return true;
}

bool ioc_read(struct ioc *io, struct val *v, uint64_t addr, void *buf, size_t size)
{
	return do_read(io, v, addr, buf, size, false);
}

bool ioc_read_ignore_err(struct ioc *io, struct val *v, uint64_t addr, void *buf,
			 size_t size)
{
	return do_read(io, v, addr, buf, size, true);
}

void ioc_set_num(struct val *v, const char *name, uint64_t x, size_t size, int fmt)
{
	unsigned bits = (unsigned)size * 8;
	uint64_t mask = bits >= 64 ? UINT64_MAX : (UINT64_C(1) << bits) - 1;

	x &= mask;
	switch (fmt) {
	case NUM_D:
		if (bits < 64 && (x >> (bits - 1)) & 1)
			x |= ~mask;
		val_set_int(v, name, (int64_t)x);
		break;
	case NUM_X:
		val_set_hex(v, name, x);
		break;
	case NUM_O:
		val_set_oct(v, name, x);
		break;
	default:
		val_set_uint(v, name, x);
		break;
	}
}

void ioc_num(struct ioc *io, struct val *v, uint64_t addr, size_t size, int fmt)
{
	uint64_t x = 0;
	struct val in;

	if (!ioc_read(io, v, addr, &x, size))
		return;
	ioc_set_num(&in, NULL, x, size, fmt);
	val_set_boxed(io->c, v, v->name, &in);
}

int ioc_arg_num(struct ioc *io, size_t size, int fmt)
{
	ioc_num(io, ioc_val(io), io->arg, size, fmt);
	return IOC_DONE;
}

int ioc_arg_ptr(struct ioc *io)
{
	struct val *v = ioc_val(io);

	val_set_ptr(v, v->name, io->arg);
	return IOC_DONE;
}

int ioc_arg_val(struct ioc *io, int fmt)
{
	struct val *v = ioc_val(io);

	ioc_set_num(v, v->name, io->arg, 8, fmt);
	return IOC_DONE;
}

void ioc_more(struct dctx *c, struct val *v)
{
	val_set_text(c, v, NULL, "...");
}

void ioc_set_int_array(struct dctx *c, struct val *v, const char *name, const void *p,
		       unsigned n, size_t elem_size, int fmt)
{
	struct val *it = val_new_array(c, n);
	const unsigned char *b = p;

	for (unsigned i = 0; i < n; i++) {
		uint64_t x = 0;

		memcpy(&x, b + (size_t)i * elem_size, elem_size);
		ioc_set_num(&it[i], NULL, x, elem_size, fmt);
	}
	val_set_array(v, name, it, n, false);
}

void ioc_set_cstring(struct dctx *c, struct val *v, const char *name, const void *p,
		     size_t n)
{
	const char *s = p;
	size_t len = strnlen(s, n);

	/* the last byte is the NUL's place: n - 1 bytes show at most */
	if (len == n && n)
		val_set_str(c, v, name, s, n - 1, true);
	else
		val_set_str(c, v, name, s, len, false);
}

void ioc_set_cstring_sz(struct dctx *c, struct val *v, const char *name, const void *p,
			size_t n)
{
	const char *s = p;
	size_t len = strnlen(s, n);

	/* the last byte is the NUL's place: n - 1 bytes show at most */
	if (len == n && n)
		val_set_str(c, v, name, s, n - 1, true);
	else
		val_set_str(c, v, name, s, len, false);
}

void ioc_set_hexstr(struct dctx *c, struct val *v, const char *name, const void *p,
		    size_t n)
{
	val_set_str(c, v, name, p, n, false);
	v->flags |= VF_HEXSTR;
}

void ioc_set_xalt(struct dctx *c, struct val *v, const char *name, const struct val *abbrev,
		  const struct val *raw, const struct val *verbose)
{
	struct val *it = val_new_array(c, 3);

	it[0] = *abbrev;
	it[1] = *raw;
	it[2] = *verbose;
	for (int i = 0; i < 3; i++)
		it[i].name = NULL;
	val_set_op(v, name, it, 3, NULL);
	v->flags |= VF_XALT;
}

void ioc_val_comment(struct dctx *c, struct val *v, const char *name, const struct val *x,
		     const char *comment)
{
	val_set_commented(c, v, name, x, comment);
}

const struct xlat *ioc_xlat1(struct dctx *c, uint64_t x, const char *text)
{
	struct xlat_data *d = arena_alloc(c->arena, sizeof(*d));
	struct xlat *xl = arena_alloc(c->arena, sizeof(*xl));

	d->val = x;
	d->str = arena_strndup(c->arena, text, strlen(text));
	xl->data = d;
	xl->size = 1;
	xl->type = XT_ENUM;
	xl->unknown = NULL;
	return xl;
}

const char *ioc_printf(struct dctx *c, const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (n < 0)
		n = 0;
	if ((size_t)n >= sizeof(buf))
		n = sizeof(buf) - 1;
	return arena_strndup(c->arena, buf, (size_t)n);
}

bool ioc_array(struct ioc *io, struct val *v, const char *name, uint64_t addr, uint64_t nmemb,
	       size_t elem_size, uint64_t max, array_elem_fn fn, void *arg)
{
	bool cut = nmemb > max;
	struct val *last;

	/* strace's tfetch_mem reads nothing at the exit of a failed call */
	if (ioc_failed(io) && addr) {
		val_set_ptr(v, name, addr);
		return false;
	}

	/* one element more than is shown: strace reads it before it prints
	 * "..." in its place */
	decode_array(io->c, v, name, addr, cut ? max + 1 : nmemb, elem_size, fn, arg);
	if (v->kind != V_ARRAY || !nmemb)
		return false;   /* NULL, [] or the address: strace's print_array */
	last = v->c.n ? &v->c.items[v->c.n - 1] : NULL;
	if (last && last->kind == V_OP && last->c.n == 2 && last->c.items[1].kind == V_COMMENT)
		return false;   /* "... / * 0xADDR * /": an element could not be read */
	if (cut && v->c.n == max + 1) {
		v->c.n = (uint32_t)max;
		v->flags |= VF_MORE;
	}
	return true;
}

void ioc_set_flags_nz(struct dctx *c, struct val *v, const char *name, uint64_t x,
		      const struct xlat *xl)
{
	if (x)
		val_set_flags(v, name, x, xl, NULL);
	else
		val_set_text(c, v, name, "");
}

int ioc_changed(struct ioc *io, size_t size, ioc_struct_fn in, ioc_struct_fn out)
{
	void *buf = arena_alloc(io->c->arena, size ? size : 1);
	struct val *v, after = { .name = NULL };

	if (!io->exiting) {
		v = ioc_val(io);
		if (!ioc_read(io, v, io->arg, buf, size))
			return IOC_DONE;
		return in(io, v, buf) ? IOC_EXIT : IOC_DONE;
	}
	if (io->ev->err)
		return IOC_DONE;
	if (ioc_read(io, &after, io->arg, buf, size))
		out(io, &after, buf);
	ioc_set_after(io, &after);
	return IOC_DONE;
}

void ioc_set_local_array(struct ioc *io, struct val *v, const char *name, const void *p,
			 unsigned n, size_t elem_size, int fmt)
{
	struct dctx *c = io->c;
	struct val *it = val_new_array(c, n);
	const unsigned char *b = p;

	for (unsigned i = 0; i < n; i++) {
		uint64_t x = 0;

		memcpy(&x, b + (size_t)i * elem_size, elem_size);
		ioc_set_num(&it[i], NULL, x, elem_size, fmt);
	}
	val_set_local_array(c, v, name, it, n);
}

bool ioc_all_zero(const void *p, size_t n)
{
	const unsigned char *b = p;

	for (size_t i = 0; i < n; i++)
		if (b[i])
			return false;
	return true;
}

void ioc_set_dev(struct dctx *c, struct val *v, const char *name, uint64_t dev)
{
	const char *text = ioc_printf(c, "makedev(%#x, %#x)", major(dev), minor(dev));
	struct val ab, raw, vb;

	val_set_text(c, &ab, NULL, text);
	val_set_hex(&raw, NULL, dev);
	val_set_commented(c, &vb, NULL, &raw, text);
	ioc_set_xalt(c, v, name, &ab, &raw, &vb);
}

int ioc_read_cstr_n(struct ioc *io, struct val *v, const char *name, uint64_t addr,
		    uint64_t len, bool expect_nul)
{
	struct dctx *c = io->c;
	uint64_t limit = c->opts->string_limit;
	uint64_t fetch = limit + 1 < len ? limit + 1 : len;
	uint64_t shown;
	char *buf;
	bool term = false, next_nul;
	ssize_t n;

	if (!addr) {
		val_set_ptr(v, name, 0);
		return -1;
	}
	if (!fetch && !c->opts->no_deref) {   /* nothing to read: "" */
		val_set_str(c, v, name, "", 0, false);
		return 0;
	}
	buf = arena_alloc(c->arena, fetch + 1);
	n = c->opts->no_deref ? -1 : tmem_read_str(c->tid, addr, buf, fetch, &term);
	if (n < 0 || (!term && (uint64_t)n < fetch)) {
		val_set_ptr(v, name, addr);
		return -1;
	}
	shown = fetch < limit ? fetch : limit;
	if (expect_nul && shown == len && shown)
		shown--;
	if (term && (uint64_t)n < shown) {   /* the NUL is among the shown bytes */
		val_set_str(c, v, name, buf, (size_t)n, false);
		return (int)n + 1;
	}
	/* "..." unless the byte after the shown ones is the NUL */
	next_nul = shown < fetch && term && (uint64_t)n == shown;
	val_set_str(c, v, name, buf, (size_t)shown, !next_nul && len);
	return term ? (int)n + 1 : 0;
}

struct val *ioc_open_struct(struct ioc *io, unsigned cap)
{
	struct val *v = ioc_val(io);

	val_set_struct(v, v->name, val_new_array(io->c, cap), 0, false);
	v->flags |= VF_OPEN;
	return v;
}

struct val *ioc_reopen(struct ioc *io)
{
	struct val *v = &io->ev->args[2];

	if (v->kind != V_STRUCT)
		return NULL;
	if ((v->flags & VF_OPEN) && !io->open_snap) {
		io->open_n = v->c.n;
		io->open_snap = val_new_array(io->c, v->c.n ? v->c.n : 1);
		memcpy(io->open_snap, v->c.items, v->c.n * sizeof(*v->c.items));
	}
	return v;
}

void ioc_close_open(struct ioc *io)
{
	struct val *v = &io->ev->args[2], *tail, *items, *it;
	unsigned n0 = io->open_n, n, k = 0;

	if (v->kind != V_STRUCT || !(v->flags & VF_OPEN))
		return;
	if (!io->exiting) {
		/* decoded whole at entry */
		v->flags &= (uint16_t)~VF_OPEN;
		return;
	}
	n = io->open_snap && v->c.n >= n0 ? v->c.n - n0 : 0;
	items = val_new_array(io->c, n + 1);
	if (io->open_snap && n0 &&
	    memcmp(&v->c.items[n0 - 1], &io->open_snap[n0 - 1], sizeof(*v->c.items))) {
		/* the last entry field continued at exit ("x=1 => 2"): an op
		 * of the field as it was and what follows it */
		struct val was = io->open_snap[n0 - 1];

		was.name = NULL;
		it = &v->c.items[n0 - 1];
		if (it->kind != V_OP || !it->c.n || memcmp(&it->c.items[0], &was, sizeof(was))) {
			v->flags &= (uint16_t)~VF_OPEN;   /* shown whole */
			return;
		}
		if (it->c.n > 1) {
			val_set_op(&items[k], NULL, it->c.items + 1, it->c.n - 1, it->c.op);
			items[k++].flags |= VF_CONT;
		}
		v->c.items[n0 - 1] = io->open_snap[n0 - 1];
	}
	for (unsigned i = 0; i < n; i++)
		items[k++] = v->c.items[n0 + i];
	if (k && !n0)
		items[0].flags |= VF_CONT;
	if (io->open_snap)
		v->c.n = n0;
	/* before a " => ..." the exit put after the structure */
	if (io->ev->nargs > 3 && io->ev->nargs < EVENT_MAX_ARGS) {
		io->ev->args[4] = io->ev->args[3];
		io->ev->nargs = 5;
	}
	tail = arg_slot(io->c, io->ev, 3);
	val_set_struct(tail, NULL, items, k, false);
	tail->flags |= VF_TAIL | VF_EXIT | VF_CONT | (v->flags & VF_MORE);
	v->flags &= (uint16_t)~VF_MORE;
}

char *ioc_char_text(char *buf, unsigned char ch, bool esc_ws)
{
	static const char hex[] = "0123456789abcdef";
	char *p = buf;

	*p++ = '\'';
	if (ch >= ' ' && ch <= '~') {
		if (ch == '\'' || ch == '\\')
			*p++ = '\\';
		*p++ = (char)ch;
	} else if (esc_ws && ch >= '\t' && ch <= '\r') {
		*p++ = '\\';
		*p++ = "tnvfr"[ch - '\t'];
	} else {
		*p++ = '\\';
		*p++ = 'x';
		*p++ = hex[ch >> 4];
		*p++ = hex[ch & 15];
	}
	*p++ = '\'';
	*p = '\0';
	return buf;
}
