/*
 * Console and keyboard ioctls ('K', linux/kd.h, linux/keyboard.h): sounds,
 * LEDs, modes, screen maps, keyboard entries (keysyms by name or as
 * K(type, value)), accents, fonts and colour maps.
 */
#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <linux/kd.h>
#include <linux/keyboard.h>

#include "sys/tmem.h"
#include "sys/ioc.h"
#include "xlat/kd_default_led_flags.h"
#include "xlat/kd_font_flags.h"
#include "xlat/kd_font_ops.h"
#include "xlat/kd_kbd_modes.h"
#include "xlat/kd_kbd_types.h"
#include "xlat/kd_key_ascii_keys.h"
#include "xlat/kd_key_brl_keys.h"
#include "xlat/kd_key_cur_keys.h"
#include "xlat/kd_key_dead_keys.h"
#include "xlat/kd_key_fn_keys.h"
#include "xlat/kd_key_lock_keys.h"
#include "xlat/kd_key_pad_keys.h"
#include "xlat/kd_key_shift_keys.h"
#include "xlat/kd_key_slock_keys.h"
#include "xlat/kd_key_spec_keys.h"
#include "xlat/kd_key_tables.h"
#include "xlat/kd_key_types.h"
#include "xlat/kd_keymap_flags.h"
#include "xlat/kd_led_flags.h"
#include "xlat/kd_meta_vals.h"
#include "xlat/kd_modes.h"

#include "util/banned.h"

enum { PIT_TICK_RATE = 1193182, KD_E_TABSZ = 256 };

/* "N / * comment * /", the comment not with -X raw */
static void with_comment(struct dctx *c, struct val *v, const char *name, const struct val *x,
			 const char *comment)
{
	struct val com;

	val_set_commented(c, &com, NULL, x, comment);
	ioc_set_xalt(c, v, name, &com, x, &com);
}

static int kiocsound(struct ioc *io)
{
	struct dctx *c = io->c;
	unsigned freq = io->arg ? (unsigned)(PIT_TICK_RATE / io->arg) : 0;
	struct val *v = ioc_val(io), x;

	val_set_uint(&x, NULL, io->arg);
	with_comment(c, v, v->name, &x, freq ? ioc_printf(c, "%u Hz", freq) : "off");
	return IOC_DONE;
}

static int mktone(struct ioc *io)
{
	struct dctx *c = io->c;
	unsigned arg = (unsigned)io->arg, ticks = arg >> 16, count = arg & 0xffff;
	unsigned freq = ticks && count ? PIT_TICK_RATE / count : 0;
	struct val *v = ioc_val(io), x;

	if (ticks)
		val_set_text(c, &x, NULL, ioc_printf(c, "%u<<16|%u", ticks, count));
	else
		val_set_uint(&x, NULL, count);
	with_comment(c, v, v->name, &x,
		     freq ? ioc_printf(c, "%u Hz, %u ms", freq, ticks) : "off");
	return IOC_DONE;
}

static int leds(struct ioc *io)
{
	bool get = io->code == KDGETLED || io->code == KDGKBLED;
	const struct xlat *xl = io->code == KDGKBLED || io->code == KDSKBLED
				? kd_default_led_flags : kd_led_flags;
	struct val *v, in;
	unsigned char x;

	if (get && !io->exiting)
		return IOC_EXIT;
	v = ioc_val(io);
	if (!get) {
		val_set_flags(v, v->name, (unsigned char)io->arg, xl, NULL);
		return IOC_DONE;
	}
	if (ioc_read(io, v, io->arg, &x, sizeof(x))) {
		val_set_flags(&in, NULL, x, xl, NULL);
		val_set_boxed(io->c, v, v->name, &in);
	}
	return IOC_DONE;
}

/* [NAME] of a value of size bytes read at exit */
static int get_enum(struct ioc *io, size_t size, const struct xlat *xl, bool decimal)
{
	struct val *v, in;
	uint64_t x = 0;

	if (!io->exiting)
		return IOC_EXIT;
	v = ioc_val(io);
	if (ioc_read(io, v, io->arg, &x, size)) {
		if (decimal) {
			val_set_enum(&in, NULL, (uint64_t)ioc_sx(x, size), xl);
			in.flags |= VF_DECIMAL;
		} else {
			val_set_enum(&in, NULL, x, xl);
		}
		val_set_boxed(io->c, v, v->name, &in);
	}
	return IOC_DONE;
}

static int kdio(struct ioc *io)
{
	enum { GPFIRST = 0x3b4, GPLAST = 0x3df };
	struct val *v = ioc_val(io), x;

	val_set_hex(&x, NULL, io->arg);
	if (io->arg >= GPFIRST && io->arg <= GPLAST)
		with_comment(io->c, v, v->name, &x,
			     ioc_printf(io->c, "GPFIRST + %llu",
					(unsigned long long)(io->arg - GPFIRST)));
	else
		*v = x, v->name = "arg";
	return IOC_DONE;
}

/* A byte buffer shown all in \x escapes, len bytes at most */
static void hexbuf(struct ioc *io, struct val *v, const char *name, uint64_t addr, uint64_t len)
{
	val_read_buf(io->c, v, name, addr, len);
	if (v->kind == V_STR)
		v->flags |= VF_HEXSTR;
}

static int screen_map(struct ioc *io, bool get)
{
	struct val *v;

	if (get && !io->exiting)
		return IOC_EXIT;
	v = ioc_val(io);
	if (io->exiting && io->ev->err)
		val_set_ptr(v, v->name, io->arg);
	else
		hexbuf(io, v, v->name, io->arg, KD_E_TABSZ);
	return IOC_DONE;
}

/* 0xf041 -> UNI_DIRECT_BASE+0x41 (-X raw: 0xf041; -X verbose: both) */
static void scrmap_elem(struct dctx *c, struct val *item, const void *elem, void *arg)
{
	uint16_t x;
	struct val raw, ab, vb;

	memcpy(&x, elem, sizeof(x));
	val_set_hex(&raw, NULL, x);
	if ((x & ~UNI_DIRECT_MASK) != UNI_DIRECT_BASE) {
		*item = raw;
		return;
	}
	const char *t = ioc_printf(c, "UNI_DIRECT_BASE+%#x", x & UNI_DIRECT_MASK);

	val_set_text(c, &ab, NULL, t);
	val_set_commented(c, &vb, NULL, &raw, t);
	ioc_set_xalt(c, item, NULL, &ab, &raw, &vb);
}

static int uni_screen_map(struct ioc *io, bool get)
{
	struct val *v;

	if (get && !io->exiting)
		return IOC_EXIT;
	v = ioc_val(io);
	if (ioc_failed(io))
		val_set_ptr(v, v->name, io->arg);
	else
		decode_array(io->c, v, v->name, io->arg, KD_E_TABSZ, sizeof(uint16_t), scrmap_elem,
			     NULL);
	return IOC_DONE;
}

/* ---- keyboard entries -------------------------------------------------------- */

static const struct xlat *key_table(unsigned type)
{
	switch (type) {
	case KT_FN: return kd_key_fn_keys;
	case KT_SPEC: return kd_key_spec_keys;
	case KT_PAD: return kd_key_pad_keys;
	case KT_DEAD: return kd_key_dead_keys;
	case KT_CUR: return kd_key_cur_keys;
	case KT_SHIFT: return kd_key_shift_keys;
	case KT_ASCII: return kd_key_ascii_keys;
	case KT_LOCK: return kd_key_lock_keys;
	case KT_SLOCK: return kd_key_slock_keys;
	case KT_BRL: return kd_key_brl_keys;
	}
	return NULL;
}

/* kb_value=0x101 / * K_F2 * / or / * K(KT_LATIN, 'a') * / (no comment with
 * -X raw) */
static void kb_value(struct dctx *c, struct val *v, uint16_t value)
{
	unsigned type = KTYP(value), val = KVAL(value);
	const struct xlat *xl = key_table(type);
	const char *name = xl ? xlat_name(xl, value) : NULL;
	struct val x;

	val_set_hex(&x, NULL, value);
	if (!name) {
		const char *tn = xlat_name(kd_key_types, type);
		char tbuf[16], vbuf[16];

		if (!tn) {
			snprintf(tbuf, sizeof(tbuf), "%#x", type);
			tn = tbuf;
		}
		if (type == KT_LATIN || type == KT_META || type == KT_LETTER || type == KT_DEAD2)
			ioc_char_text(vbuf, (unsigned char)val, true);
		else
			snprintf(vbuf, sizeof(vbuf), val ? "%#x" : "0", val);
		name = ioc_printf(c, "K(%s, %s)", tn, vbuf);
	}
	with_comment(c, v, "kb_value", &x, name);
}

static void kb_table(struct dctx *c, struct val *v, unsigned char table)
{
	if (xlat_name(kd_key_tables, table))
		val_set_enum(v, "kb_table", table, kd_key_tables);
	else
		val_set_flags(v, "kb_table", table, kd_keymap_flags, NULL);
}

static int kbd_entry(struct ioc *io, bool get)
{
	struct dctx *c = io->c;
	struct kbentry e;
	struct val *st;
	uint16_t value;

	if (!io->exiting) {
		st = ioc_val(io);
		if (!tread(c, io->arg, &e, offsetof(struct kbentry, kb_value))) {
			val_set_ptr(st, st->name, io->arg);
			return IOC_DONE;
		}
		st = ioc_open_struct(io, 3);
		kb_table(c, ioc_next(st), e.kb_table);
		FLD_U(ioc_next(st), e, kb_index);
		if (get)
			return IOC_EXIT;
	} else {
		st = ioc_reopen(io);
		if (!st || io->ev->err)
			return IOC_DONE;
	}
	if (!tread(c, io->arg + offsetof(struct kbentry, kb_value), &value, sizeof(value)))
		val_set_text(c, ioc_next(st), "kb_value", "???");
	else
		kb_value(c, ioc_next(st), value);
	return IOC_DONE;
}

/* The kb_func of struct kbsentry: KVAL(K_F1) */
static void kb_func(struct dctx *c, struct val *v, unsigned char func)
{
	static const struct xlat unknown[1] = { { NULL, 0, XT_ENUM, "KVAL(K_?\?\?)" } };
	const char *name = xlat_name(kd_key_fn_keys, K(KT_FN, func));

	if (name)
		val_set_enum(v, "kb_func", func, ioc_xlat1(c, func, ioc_printf(c, "KVAL(%s)", name)));
	else
		val_set_enum(v, "kb_func", func, unknown);
}

static int kbd_str_entry(struct ioc *io, bool get)
{
	struct dctx *c = io->c;
	unsigned char func;
	struct val *st, *s;
	char buf[sizeof(((struct kbsentry *)0)->kb_string) + 1];
	bool term = false;
	ssize_t n;

	if (!io->exiting) {
		st = ioc_val(io);
		if (!ioc_read(io, st, io->arg, &func, sizeof(func)))
			return IOC_DONE;
		st = ioc_open_struct(io, 2);
		kb_func(c, ioc_next(st), func);
		if (get)
			return IOC_EXIT;
	} else {
		st = ioc_reopen(io);
		if (!st || io->ev->err)
			return IOC_DONE;
	}
	s = ioc_next(st);
	n = c->opts->no_deref ? -1
	    : tmem_read_str(c->tid, io->arg + offsetof(struct kbsentry, kb_string), buf,
			    sizeof(buf) - 1, &term);
	if (n < 0 || (!term && (size_t)n < sizeof(buf) - 1)) {
		val_set_text(c, s, "kb_string", "???");
		return IOC_DONE;
	}
	/* the string and its NUL, or the whole buffer, to the string limit;
	 * "..." unless the NUL was within it */
	size_t total = term ? (size_t)n + 1 : sizeof(buf) - 1;
	size_t shown = total < c->opts->string_limit ? total : c->opts->string_limit;
	bool nul_last = term && shown == total;

	val_set_str(c, s, "kb_string", buf, nul_last ? shown - 1 : shown, !nul_last);
	return IOC_DONE;
}

static void char_field(struct dctx *c, struct val *v, const char *name, unsigned char ch)
{
	char b[8];

	val_set_text(c, v, name, ioc_char_text(b, ch, true));
}

static void diacr_elem(struct dctx *c, struct val *item, const void *elem, void *arg)
{
	const struct kbdiacr *d = elem;
	struct val *f = val_new_array(c, 3);

	char_field(c, &f[0], "diacr", d->diacr);
	char_field(c, &f[1], "base", d->base);
	char_field(c, &f[2], "result", d->result);
	val_set_struct(item, NULL, f, 3, false);
}

static void diacruc_elem(struct dctx *c, struct val *item, const void *elem, void *arg)
{
	const struct kbdiacruc *d = elem;
	struct val *f = val_new_array(c, 3);

	FLD_X(&f[0], *d, diacr);
	FLD_X(&f[1], *d, base);
	FLD_X(&f[2], *d, result);
	val_set_struct(item, NULL, f, 3, false);
}

static int diacr(struct ioc *io, bool get, bool uc)
{
	struct dctx *c = io->c;
	unsigned int cnt;
	struct val *v, *f;

	if (get && !io->exiting)
		return IOC_EXIT;
	v = ioc_val(io);
	if (!ioc_read(io, v, io->arg, &cnt, sizeof(cnt)))
		return IOC_DONE;
	f = val_new_array(c, 2);
	val_set_uint(&f[0], "kb_cnt", cnt);
	if (uc)
		decode_array(c, &f[1], "kbdiacruc", io->arg + offsetof(struct kbdiacrsuc, kbdiacruc),
			     cnt < MAX_DIACR ? cnt : MAX_DIACR, sizeof(struct kbdiacruc),
			     diacruc_elem, NULL);
	else
		decode_array(c, &f[1], "kbdiacr", io->arg + offsetof(struct kbdiacrs, kbdiacr),
			     cnt < MAX_DIACR ? cnt : MAX_DIACR, sizeof(struct kbdiacr), diacr_elem,
			     NULL);
	/* more accents than the kernel takes: "..." after them */
	if (cnt > MAX_DIACR && f[1].kind == V_ARRAY && !(f[1].flags & VF_MORE)) {
		struct val *last = f[1].c.n ? &f[1].c.items[f[1].c.n - 1] : NULL;

		if (!last || last->kind != V_OP)
			f[1].flags |= VF_MORE;
	}
	val_set_struct(v, v->name, f, 2, false);
	return IOC_DONE;
}

static int keycode(struct ioc *io, bool get)
{
	struct kbkeycode k;
	struct val *st;

	if (!io->exiting) {
		st = ioc_val(io);
		if (!ioc_read(io, st, io->arg, &k, sizeof(k)))
			return IOC_DONE;
		st = ioc_open_struct(io, 2);
		FLD_X(ioc_next(st), k, scancode);
		FLD_X(ioc_next(st), k, keycode);
		return get ? IOC_EXIT : IOC_DONE;
	}
	st = ioc_reopen(io);
	if (st && !io->ev->err &&
	    tread(io->c, io->arg + offsetof(struct kbkeycode, keycode), &k.keycode,
		  sizeof(k.keycode))) {
		struct val *kc = &st->c.items[1], *p = val_new_array(io->c, 3);

		p[0] = *kc;
		p[0].name = NULL;
		val_set_text(io->c, &p[1], NULL, " => ");
		val_set_hex(&p[2], NULL, k.keycode);
		val_set_op(kc, "keycode", p, 3, NULL);
	}
	return IOC_DONE;
}

static void kbd_repeat(struct dctx *c, struct val *v, const struct kbd_repeat *r)
{
	struct val *f = val_new_array(c, 2);

	FLD_D(&f[0], *r, delay);
	FLD_D(&f[1], *r, period);
	val_set_struct(v, v->name, f, 2, false);
}

static int kbdrep(struct ioc *io)
{
	struct kbd_repeat r;
	struct val *v, after = { .name = NULL };

	if (!io->exiting) {
		v = ioc_val(io);
		if (!ioc_read(io, v, io->arg, &r, sizeof(r)))
			return IOC_DONE;
		kbd_repeat(io->c, v, &r);
		return IOC_EXIT;
	}
	if (io->ev->err || !tread(io->c, io->arg, &r, sizeof(r)))
		return IOC_DONE;
	kbd_repeat(io->c, &after, &r);
	ioc_set_after(io, &after);
	return IOC_DONE;
}

static int font(struct ioc *io, bool get)
{
	struct val *v;

	if (get && !io->exiting)
		return IOC_EXIT;
	v = ioc_val(io);
	/* [GP]IO_FONT: 256 characters of 8x32 bits */
	if (io->exiting && io->ev->err)
		val_set_ptr(v, v->name, io->arg);
	else
		hexbuf(io, v, v->name, io->arg, 8192);
	return IOC_DONE;
}

static int kbmeta(struct ioc *io, bool get)
{
	struct val *v;

	if (get)
		return get_enum(io, sizeof(unsigned int), kd_meta_vals, false);
	v = ioc_val(io);
	val_set_enum(v, v->name, (unsigned int)io->arg, kd_meta_vals);
	return IOC_DONE;
}

static int unimapclr(struct ioc *io)
{
	struct unimapinit u;
	struct val *v = ioc_val(io), *f;

	if (ioc_read(io, v, io->arg, &u, sizeof(u))) {
		f = val_new_array(io->c, 3);
		FLD_U(&f[0], u, advised_hashsize);
		FLD_U(&f[1], u, advised_hashstep);
		FLD_U(&f[2], u, advised_hashlevel);
		val_set_struct(v, v->name, f, 3, false);
	}
	return IOC_DONE;
}

static int cmap(struct ioc *io, bool get)
{
	struct val *v;

	if (get && !io->exiting)
		return IOC_EXIT;
	v = ioc_val(io);
	if (io->exiting && io->ev->err)
		val_set_ptr(v, v->name, io->arg);
	else
		hexbuf(io, v, v->name, io->arg, 3 * 16);
	return IOC_DONE;
}

/* ---- unimap, fontx, font op ------------------------------------------------ */

static void unipair_elem(struct dctx *c, struct val *item, const void *elem, void *arg)
{
	const struct unipair *u = elem;
	struct val *f = val_new_array(c, 2);

	FLD_X(&f[0], *u, unicode);
	FLD_X(&f[1], *u, fontpos);
	val_set_struct(item, NULL, f, 2, false);
}

/*
 * {entry_ct=N, entries=[...]}; GIO_UNIMAP: {entry_ct=N at entry, then
 * " => M, entries=[...]}" (the entry's count of them) at exit.  The
 * entry's count is kept beyond the shown items.
 */
static int unimap(struct ioc *io, bool get)
{
	struct dctx *c = io->c;
	struct unimapdesc u;
	struct val *st, *ct;
	unsigned cnt;

	if (!io->exiting) {
		st = ioc_val(io);
		if (!ioc_read_ignore_err(io, st, io->arg, &u, sizeof(u)))
			return IOC_DONE;
		st = ioc_open_struct(io, 3);
		FLD_U(ioc_next(st), u, entry_ct);
		val_set_uint(&st->c.items[2], NULL, u.entry_ct);
		if (get)
			return IOC_EXIT;
		cnt = u.entry_ct;
	} else {
		st = ioc_reopen(io);
		if (!st || !tread(c, io->arg, &u, sizeof(u)))
			return IOC_DONE;
		ct = &st->c.items[0];
		struct val *p = val_new_array(c, 3);

		p[0] = *ct;
		p[0].name = NULL;
		val_set_text(c, &p[1], NULL, " => ");
		val_set_uint(&p[2], NULL, u.entry_ct);
		val_set_op(ct, "entry_ct", p, 3, NULL);
		if (io->ev->err && io->ev->err != ENOMEM) {
			val_set_ptr(ioc_next(st), "entries", (uint64_t)(uintptr_t)u.entries);
			return IOC_DONE;
		}
		cnt = (unsigned)st->c.items[2].u;
	}
	decode_array(c, ioc_next(st), "entries", (uint64_t)(uintptr_t)u.entries,
		     (uint16_t)cnt, sizeof(struct unipair), unipair_elem, NULL);
	return IOC_DONE;
}

static void fontdesc(struct ioc *io, struct val *v, const char *name,
		     const struct consolefontdesc *d, bool ptr_only)
{
	struct val *f = val_new_array(io->c, 3);
	unsigned cnt = d->charcount < 512 ? d->charcount : 512;

	FLD_U(&f[0], *d, charcount);
	FLD_U(&f[1], *d, charheight);
	if (ptr_only)
		val_set_ptr(&f[2], "chardata", (uint64_t)(uintptr_t)d->chardata);
	else
		hexbuf(io, &f[2], "chardata", (uint64_t)(uintptr_t)d->chardata, cnt * 32);
	val_set_struct(v, name, f, 3, false);
}

static int fontx(struct ioc *io, bool get)
{
	struct consolefontdesc d;
	struct val *v, after = { .name = NULL };

	if (!io->exiting) {
		v = ioc_val(io);
		if (!ioc_read(io, v, io->arg, &d, sizeof(d)))
			return IOC_DONE;
		fontdesc(io, v, v->name, &d, get);
		return get ? IOC_EXIT : IOC_DONE;
	}
	if (io->ev->err || !tread(io->c, io->arg, &d, sizeof(d)))
		return IOC_DONE;
	fontdesc(io, &after, NULL, &d, false);
	ioc_set_after(io, &after);
	return IOC_DONE;
}

static void font_op(struct ioc *io, struct val *v, const char *name,
		    const struct console_font_op *o)
{
	struct dctx *c = io->c;
	struct val *f = val_new_array(c, 7);
	unsigned n = 0, w = o->width < 32 ? o->width : 32, cnt = o->charcount < 512 ? o->charcount
										     : 512;

	if (!io->exiting) {
		val_set_enum(&f[n++], "op", o->op, kd_font_ops);
		if (o->op != KD_FONT_OP_SET_DEFAULT && o->op != KD_FONT_OP_COPY)
			val_set_flags(&f[n++], "flags", o->flags, kd_font_flags, NULL);
	}
	if (o->op != KD_FONT_OP_COPY)
		FLD_U(&f[n++], *o, width);
	FLD_U(&f[n++], *o, height);
	if (o->op != KD_FONT_OP_SET_DEFAULT && o->op != KD_FONT_OP_COPY)
		FLD_U(&f[n++], *o, charcount);
	switch (o->op) {
	case KD_FONT_OP_GET:
		if (!io->exiting) {
			val_set_ptr(&f[n++], "data", (uint64_t)(uintptr_t)o->data);
			break;
		}
		/* fall through */
	case KD_FONT_OP_SET:
		hexbuf(io, &f[n++], "data", (uint64_t)(uintptr_t)o->data,
		       (uint64_t)((w + 7) / 8) * 32 * cnt);
		break;
	case KD_FONT_OP_SET_DEFAULT:
		if (!io->exiting) {
			ioc_read_cstr_n(io, &f[n], "data", (uint64_t)(uintptr_t)o->data, 32, true);
			n++;
		}
		break;
	case KD_FONT_OP_COPY:
		break;
	default:
		val_set_ptr(&f[n++], "data", (uint64_t)(uintptr_t)o->data);
		break;
	}
	val_set_struct(v, name, f, n, false);
}

static int fontop(struct ioc *io)
{
	struct console_font_op o;
	struct val *v, after = { .name = NULL };

	if (!io->exiting) {
		v = ioc_val(io);
		if (!ioc_read(io, v, io->arg, &o, sizeof(o)))
			return IOC_DONE;
		font_op(io, v, v->name, &o);
		return o.op == KD_FONT_OP_SET || o.op == KD_FONT_OP_COPY ? IOC_DONE : IOC_EXIT;
	}
	if (io->ev->err || !tread(io->c, io->arg, &o, sizeof(o)))
		return IOC_DONE;
	font_op(io, &after, NULL, &o);
	ioc_set_after(io, &after);
	return IOC_DONE;
}

int ioctl_kd(struct ioc *io)
{
	struct val *v;

	switch (io->code) {
	case KIOCSOUND:
		return kiocsound(io);
	case KDMKTONE:
		return mktone(io);
	case KDGETLED: case KDSETLED: case KDGKBLED: case KDSKBLED:
		return leds(io);
	case KDGKBTYPE:
		return get_enum(io, 1, kd_kbd_types, false);
	case KDADDIO: case KDDELIO:
		return kdio(io);
	case KDSETMODE:
		v = ioc_val(io);
		val_set_enum(v, v->name, (unsigned int)io->arg, kd_modes);
		return IOC_DONE;
	case KDGETMODE:
		return get_enum(io, sizeof(unsigned int), kd_modes, false);
	case GIO_SCRNMAP: case PIO_SCRNMAP:
		return screen_map(io, io->code == GIO_SCRNMAP);
	case GIO_UNISCRNMAP: case PIO_UNISCRNMAP:
		return uni_screen_map(io, io->code == GIO_UNISCRNMAP);
	case KDGKBMODE:
		return get_enum(io, sizeof(unsigned int), kd_kbd_modes, true);
	case KDSKBMODE:
		v = ioc_val(io);
		/* strace's printxval_d: an unknown mode in signed decimal */
		val_set_enum(v, v->name, (uint64_t)(int64_t)(int)io->arg, kd_kbd_modes);
		v->flags |= VF_DECIMAL;
		return IOC_DONE;
	case KDGKBENT: case KDSKBENT:
		return kbd_entry(io, io->code == KDGKBENT);
	case KDGKBSENT: case KDSKBSENT:
		return kbd_str_entry(io, io->code == KDGKBSENT);
	case KDGKBDIACR: case KDSKBDIACR:
		return diacr(io, io->code == KDGKBDIACR, false);
	case KDGKBDIACRUC: case KDSKBDIACRUC:
		return diacr(io, io->code == KDGKBDIACRUC, true);
	case KDGETKEYCODE: case KDSETKEYCODE:
		return keycode(io, io->code == KDGETKEYCODE);
	case KDSIGACCEPT:
		v = ioc_val(io);
		if (io->arg < INT_MAX)
			val_set_signal(io->c, v, v->name, (int)io->arg);
		else
			val_set_uint(v, v->name, io->arg);
		return IOC_DONE;
	case KDKBDREP:
		return kbdrep(io);
	case GIO_FONT: case PIO_FONT:
		return font(io, io->code == GIO_FONT);
	case KDGKBMETA: case KDSKBMETA:
		return kbmeta(io, io->code == KDGKBMETA);
	case PIO_UNIMAPCLR:
		return unimapclr(io);
	case GIO_CMAP: case PIO_CMAP:
		return cmap(io, io->code == GIO_CMAP);
	case KDENABIO: case KDDISABIO: case KDMAPDISP: case KDUNMAPDISP: case PIO_FONTRESET:
		return ioc_none(io);
	case GIO_UNIMAP: case PIO_UNIMAP:
		return unimap(io, io->code == GIO_UNIMAP);
	case GIO_FONTX: case PIO_FONTX:
		return fontx(io, io->code == GIO_FONTX);
	case KDFONTOP:
		return fontop(io);
	}
	return IOC_DEFAULT;
}
