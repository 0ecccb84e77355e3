/*
 * Input device ioctls ('E', linux/input.h): the parametrised request names
 * (EVIOCGBIT(EV_KEY, 96), EVIOCGABS(ABS_X)), bit sets of keys, axes, LEDs
 * ..., absinfo, keycodes, force feedback effects and multi-touch slots.
 */
#include <stddef.h>
#include <string.h>
#include <linux/input.h>

#include "sys/ioc.h"
#include "util/arena.h"
#include "xlat/evdev_abs.h"
#include "xlat/evdev_autorepeat.h"
#include "xlat/evdev_ev.h"
#include "xlat/evdev_ff_status.h"
#include "xlat/evdev_ff_types.h"
#include "xlat/evdev_keycode.h"
#include "xlat/evdev_leds.h"
#include "xlat/evdev_misc.h"
#include "xlat/evdev_mtslots.h"
#include "xlat/evdev_prop.h"
#include "xlat/evdev_relative_axes.h"
#include "xlat/evdev_snd.h"
#include "xlat/evdev_switch.h"

#include "util/banned.h"

/* ---- request names ---------------------------------------------------------- */

/*
 * A constant inside a request name: its name, or with no name "0xe / *
 * ABS_??? * /" (-X abbrev) and "0xe" (in -X verbose's comment).
 */
static const char *inner(struct dctx *c, const struct xlat *xl, unsigned x, bool abbrev)
{
	const char *name = xlat_name(xl, x);

	if (name)
		return name;
	if (abbrev)
		return ioc_printf(c, "%#x /* %s */", x, xl->unknown);
	return ioc_printf(c, "%#x", x);
}

/* The name's two texts: with -X abbrev and inside -X verbose's comment. */
static bool name_texts(struct dctx *c, uint32_t code, bool abbrev, const char **out)
{
	unsigned nr = _IOC_NR(code), size = _IOC_SIZE(code);
	static const struct { unsigned nr; const char *name; } sized[] = {
		{ 0x06, "EVIOCGNAME" }, { 0x07, "EVIOCGPHYS" }, { 0x08, "EVIOCGUNIQ" },
		{ 0x09, "EVIOCGPROP" }, { 0x0a, "EVIOCGMTSLOTS" }, { 0x18, "EVIOCGKEY" },
		{ 0x19, "EVIOCGLED" }, { 0x1a, "EVIOCGSND" }, { 0x1b, "EVIOCGSW" },
	};

	if (_IOC_DIR(code) == _IOC_WRITE) {
		if (nr >= 0xc0 && nr <= 0xc0 + ABS_MAX) {
			*out = ioc_printf(c, "EVIOCSABS(%s)",
					  inner(c, evdev_abs, nr - 0xc0, abbrev));
			return true;
		}
		return false;
	}
	if (_IOC_DIR(code) != _IOC_READ)
		return false;
	if (nr >= 0x20 && nr <= 0x20 + EV_MAX) {
		*out = ioc_printf(c, "EVIOCGBIT(%s, %u)",
				  nr == 0x20 ? "0" : inner(c, evdev_ev, nr - 0x20, abbrev), size);
		return true;
	}
	if (nr >= 0x40 && nr <= 0x40 + ABS_MAX) {
		*out = ioc_printf(c, "EVIOCGABS(%s)", inner(c, evdev_abs, nr - 0x40, abbrev));
		return true;
	}
	for (unsigned i = 0; i < sizeof(sized) / sizeof(sized[0]); i++) {
		if (sized[i].nr == nr) {
			*out = ioc_printf(c, "%s(%u)", sized[i].name, size);
			return true;
		}
	}
	return false;
}

bool ioctl_evdev_name(struct ioc *io, struct val *v, const char *more)
{
	struct dctx *c = io->c;
	const char *ab, *vb;
	struct val a, r, vv;

	if (!name_texts(c, io->code, true, &ab) || !name_texts(c, io->code, false, &vb))
		return false;
	if (more) {
		ab = ioc_printf(c, "%s or %s", ab, more);
		vb = ioc_printf(c, "%s or %s", vb, more);
	}
	val_set_text(c, &a, NULL, ab);
	val_set_hex(&r, NULL, io->code);
	val_set_commented(c, &vv, NULL, &r, vb);
	ioc_set_xalt(c, v, v->name, &a, &r, &vv);
	return true;
}

/* ---- arguments -------------------------------------------------------------- */

static int absinfo(struct ioc *io)
{
	const size_t orig_sz = offsetof(struct input_absinfo, resolution);
	const size_t res_sz = sizeof(struct input_absinfo);
	size_t sz = _IOC_SIZE(io->code);
	struct val *v = ioc_val(io), *f;
	struct input_absinfo a;
	unsigned n = 0;

	if (sz < orig_sz) {
		val_set_ptr(v, v->name, io->arg);
		return IOC_DONE;
	}
	if (!ioc_read(io, v, io->arg, &a, sz < sizeof(a) ? sz : sizeof(a)))
		return IOC_DONE;
	f = val_new_array(io->c, 7);
	FLD_U(&f[n++], a, value);
	FLD_U(&f[n++], a, minimum);
	if (ioc_abbrev(io)) {
		val_set_struct(v, v->name, f, n, true);
		return IOC_DONE;
	}
	FLD_U(&f[n++], a, maximum);
	FLD_U(&f[n++], a, fuzz);
	FLD_U(&f[n++], a, flat);
	if (sz > orig_sz && sz >= res_sz)
		FLD_U(&f[n++], a, resolution);
	val_set_struct(v, v->name, f, n, sz > orig_sz && sz != res_sz);
	return IOC_DONE;
}

static int keycode(struct ioc *io)
{
	struct val *v = ioc_val(io), *it;
	unsigned int k[2];

	if (ioc_read(io, v, io->arg, k, sizeof(k))) {
		it = val_new_array(io->c, 2);
		val_set_uint(&it[0], NULL, k[0]);
		val_set_enum(&it[1], NULL, k[1], evdev_keycode);
		val_set_array(v, v->name, it, 2, false);
	}
	return IOC_DONE;
}

static int keycode_v2(struct ioc *io)
{
	struct val *v = ioc_val(io), *f;
	struct input_keymap_entry k;

	if (!ioc_read(io, v, io->arg, &k, sizeof(k)))
		return IOC_DONE;
	f = val_new_array(io->c, 5);
	FLD_U(&f[0], k, flags);
	FLD_U(&f[1], k, len);
	if (ioc_abbrev(io)) {
		val_set_struct(v, v->name, f, 2, true);
		return IOC_DONE;
	}
	FLD_U(&f[2], k, index);
	val_set_enum(&f[3], "keycode", k.keycode, evdev_keycode);
	ioc_set_int_array(io->c, &f[4], "scancode", k.scancode, sizeof(k.scancode), 1, NUM_X);
	val_set_struct(v, v->name, f, 5, false);
	return IOC_DONE;
}

static int getid(struct ioc *io)
{
	struct val *v = ioc_val(io), *f;
	struct input_id id;

	if (ioc_read(io, v, io->arg, &id, sizeof(id))) {
		f = val_new_array(io->c, 4);
		FLD_U(&f[0], id, bustype);
		FLD_U(&f[1], id, vendor);
		FLD_U(&f[2], id, product);
		FLD_U(&f[3], id, version);
		val_set_struct(v, v->name, f, 4, false);
	}
	return IOC_DONE;
}

/* "[A B C]" of the set bits (with no -v: four, then "..."); -X raw: the
 * words ([0x460018]); -X verbose: both, the words as a comment. */
static int bitset(struct ioc *io, const struct xlat *xl, unsigned max_nr)
{
	struct dctx *c = io->c;
	struct val *v = ioc_val(io);
	uint64_t rv = (uint64_t)io->ev->retval;
	unsigned size_bits = rv > max_nr / 8 ? max_nr : (unsigned)rv * 8;
	unsigned size = (size_bits + 63) / 64 * 8;
	unsigned nwords = size / 8, nbits = 0, cap;
	struct val *names, *words, a, r, vb, *it, *vit;
	unsigned char *buf;

	if (io->ev->err || !size) {
		val_set_ptr(v, v->name, io->arg);
		return IOC_DONE;
	}
	buf = arena_alloc(c->arena, size);
	if (!ioc_read(io, v, io->arg, buf, size))
		return IOC_DONE;
	cap = size_bits + 1;
	names = val_new_array(c, cap);
	for (unsigned i = 0; i < size_bits; i++) {
		if (!(buf[i / 8] >> (i % 8) & 1))
			continue;
		if (ioc_abbrev(io) && nbits >= 4) {
			ioc_more(c, &names[nbits++]);
			break;
		}
		val_set_enum(&names[nbits++], NULL, i, xl);
	}
	/* [A B C] */
	it = val_new_array(c, 3);
	val_set_text(c, &it[0], NULL, "[");
	val_set_op(&it[1], NULL, names, nbits, " ");
	val_set_text(c, &it[2], NULL, "]");
	val_set_op(&a, NULL, it, 3, NULL);
	/* [0x460018] */
	words = val_new_array(c, nwords);
	for (unsigned i = 0; i < nwords; i++) {
		uint64_t w;

		memcpy(&w, buf + 8 * i, 8);
		val_set_hex(&words[i], NULL, w);
	}
	val_set_local_array(c, &r, NULL, words, nwords);
	vit = val_new_array(c, 4);
	vit[0] = a;
	val_set_text(c, &vit[1], NULL, " /* ");
	vit[2] = r;
	val_set_text(c, &vit[3], NULL, " */");
	val_set_op(&vb, NULL, vit, 4, NULL);
	ioc_set_xalt(c, v, v->name, &a, &r, &vb);
	return IOC_DONE;
}

static void int_elem(struct dctx *c, struct val *item, const void *elem, void *arg)
{
	int x;

	memcpy(&x, elem, sizeof(x));
	val_set_int(item, NULL, x);
}

static int mtslots(struct ioc *io)
{
	struct dctx *c = io->c;
	size_t n = _IOC_SIZE(io->code) / sizeof(int);
	struct val *v = ioc_val(io), *f;
	unsigned int code;

	if (!n) {
		val_set_ptr(v, v->name, io->arg);
		return IOC_DONE;
	}
	if (!ioc_read(io, v, io->arg, &code, sizeof(code)))
		return IOC_DONE;
	f = val_new_array(c, 2);
	val_set_enum(&f[0], "code", code, evdev_mtslots);
	decode_array(c, &f[1], "values", io->arg + sizeof(int), n - 1, sizeof(int), int_elem,
		     NULL);
	val_set_struct(v, v->name, f, 2, false);
	return IOC_DONE;
}

static int pair_u(struct ioc *io)
{
	struct val *v = ioc_val(io);
	unsigned int p[2];

	if (ioc_read(io, v, io->arg, p, sizeof(p)))
		ioc_set_int_array(io->c, v, v->name, p, 2, sizeof(int), NUM_U);
	return IOC_DONE;
}

static int bits(struct ioc *io, unsigned ev_nr)
{
	switch (ev_nr) {
	case 0: return bitset(io, evdev_ev, EV_MAX);
	case EV_KEY: return bitset(io, evdev_keycode, KEY_MAX);
	case EV_REL: return bitset(io, evdev_relative_axes, REL_MAX);
	case EV_ABS: return bitset(io, evdev_abs, ABS_MAX);
	case EV_MSC: return bitset(io, evdev_misc, MSC_MAX);
	case EV_SW: return bitset(io, evdev_switch, SW_MAX);
	case EV_LED: return bitset(io, evdev_leds, LED_MAX);
	case EV_SND: return bitset(io, evdev_snd, SND_MAX);
	case EV_REP: return bitset(io, evdev_autorepeat, REP_MAX);
	case EV_FF: return bitset(io, evdev_ff_types, FF_MAX);
	case EV_PWR: return ioc_arg_num(io, sizeof(int), NUM_D);
	case EV_FF_STATUS: return bitset(io, evdev_ff_status, FF_STATUS_MAX);
	}
	return ioc_arg_ptr(io);
}

static int read_ioctl(struct ioc *io)
{
	unsigned nr = _IOC_NR(io->code);
	struct val *v;

	switch (io->code) {
	case EVIOCGVERSION:
		return ioc_arg_num(io, sizeof(int), NUM_X);
	case EVIOCGEFFECTS:
		return ioc_arg_num(io, sizeof(int), NUM_U);
	case EVIOCGID:
		return getid(io);
	case EVIOCGREP:
		return pair_u(io);
	case EVIOCGKEYCODE:
		return keycode(io);
	case EVIOCGKEYCODE_V2:
		return keycode_v2(io);
	}
	switch (nr) {
	case _IOC_NR(EVIOCGMTSLOTS(0)):
		return mtslots(io);
	case _IOC_NR(EVIOCGNAME(0)):
	case _IOC_NR(EVIOCGPHYS(0)):
	case _IOC_NR(EVIOCGUNIQ(0)):
		v = ioc_val(io);
		if (io->ev->err)
			val_set_ptr(v, v->name, io->arg);
		else
			val_read_buf(io->c, v, v->name, io->arg, (uint64_t)io->ev->retval);
		return IOC_DONE;
	case _IOC_NR(EVIOCGPROP(0)):
		return bitset(io, evdev_prop, INPUT_PROP_MAX);
	case _IOC_NR(EVIOCGSND(0)):
		return bitset(io, evdev_snd, SND_MAX);
	case _IOC_NR(EVIOCGSW(0)):
		return bitset(io, evdev_switch, SW_MAX);
	case _IOC_NR(EVIOCGKEY(0)):
		return bitset(io, evdev_keycode, KEY_MAX);
	case _IOC_NR(EVIOCGLED(0)):
		return bitset(io, evdev_leds, LED_MAX);
	}
	if ((nr & ~ABS_MAX) == _IOC_NR(EVIOCGABS(0)))
		return absinfo(io);
	if ((nr & ~EV_MAX) == _IOC_NR(EVIOCGBIT(0, 0)))
		return bits(io, nr & EV_MAX);
	return ioc_arg_ptr(io);
}

/* ---- force feedback ----------------------------------------------------------- */

static void envelope(struct dctx *c, struct val *v, const struct ff_envelope *e)
{
	struct val *f = val_new_array(c, 4);

	FLD_U(&f[0], *e, attack_length);
	FLD_U(&f[1], *e, attack_level);
	FLD_U(&f[2], *e, fade_length);
	FLD_X(&f[3], *e, fade_level);
	val_set_struct(v, "envelope", f, 4, false);
}

static void effect_union(struct dctx *c, struct val *v, const struct ff_effect *e)
{
	struct val *f;

	switch (e->type) {
	case FF_CONSTANT:
		f = val_new_array(c, 2);
		FLD_D(&f[0], e->u.constant, level);
		envelope(c, &f[1], &e->u.constant.envelope);
		val_set_struct(v, "constant", f, 2, false);
		break;
	case FF_RAMP:
		f = val_new_array(c, 3);
		FLD_D(&f[0], e->u.ramp, start_level);
		FLD_D(&f[1], e->u.ramp, end_level);
		envelope(c, &f[2], &e->u.ramp.envelope);
		val_set_struct(v, "ramp", f, 3, false);
		break;
	case FF_PERIODIC:
		f = val_new_array(c, 8);
		FLD_U(&f[0], e->u.periodic, waveform);
		FLD_U(&f[1], e->u.periodic, period);
		FLD_D(&f[2], e->u.periodic, magnitude);
		FLD_D(&f[3], e->u.periodic, offset);
		FLD_U(&f[4], e->u.periodic, phase);
		envelope(c, &f[5], &e->u.periodic.envelope);
		FLD_U(&f[6], e->u.periodic, custom_len);
		val_set_ptr(&f[7], "custom_data", (uint64_t)(uintptr_t)e->u.periodic.custom_data);
		val_set_struct(v, "periodic", f, 8, false);
		break;
	case FF_RUMBLE:
		f = val_new_array(c, 2);
		FLD_U(&f[0], e->u.rumble, strong_magnitude);
		FLD_U(&f[1], e->u.rumble, weak_magnitude);
		val_set_struct(v, "rumble", f, 2, false);
		break;
	}
}

static int ff_effect(struct ioc *io)
{
	struct dctx *c = io->c;
	struct val *v = ioc_val(io), *f, *g;
	struct ff_effect e;
	unsigned n = 0;

	if (!ioc_read(io, v, io->arg, &e, sizeof(e)))
		return IOC_DONE;
	f = val_new_array(c, 6);
	val_set_enum(&f[n++], "type", e.type, evdev_ff_types);
	FLD_D(&f[n++], e, id);
	FLD_U(&f[n++], e, direction);
	if (ioc_abbrev(io)) {
		val_set_struct(v, v->name, f, n, true);
		return IOC_DONE;
	}
	g = val_new_array(c, 2);
	FLD_U(&g[0], e.trigger, button);
	FLD_U(&g[1], e.trigger, interval);
	val_set_struct(&f[n++], "trigger", g, 2, false);
	g = val_new_array(c, 2);
	FLD_U(&g[0], e.replay, length);
	FLD_U(&g[1], e.replay, delay);
	val_set_struct(&f[n++], "replay", g, 2, false);
	if (e.type == FF_CONSTANT || e.type == FF_RAMP || e.type == FF_PERIODIC ||
	    e.type == FF_RUMBLE)
		effect_union(c, &f[n++], &e);
	val_set_struct(v, v->name, f, n, false);
	return IOC_DONE;
}

static int write_ioctl(struct ioc *io)
{
	struct val *v;

	switch (io->code) {
	case EVIOCSREP:
		return pair_u(io);
	case EVIOCSKEYCODE:
		return keycode(io);
	case EVIOCSKEYCODE_V2:
		return keycode_v2(io);
	case EVIOCRMFF:
		v = ioc_val(io);
		val_set_int(v, v->name, (int)io->arg);
		return IOC_DONE;
	case EVIOCGRAB: case EVIOCREVOKE:
		return ioc_arg_val(io, NUM_U);
	case EVIOCSCLOCKID:
		return ioc_arg_num(io, sizeof(int), NUM_U);
	case EVIOCSFF:
		return ff_effect(io);
	}
	if ((_IOC_NR(io->code) & ~ABS_MAX) == _IOC_NR(EVIOCSABS(0)))
		return absinfo(io);
	return ioc_arg_ptr(io);
}

int ioctl_evdev(struct ioc *io)
{
	switch (_IOC_DIR(io->code)) {
	case _IOC_READ:
		if (!io->exiting)
			return IOC_EXIT;
		return read_ioctl(io);
	case _IOC_WRITE:
		return write_ioctl(io);
	}
	return IOC_DEFAULT;
}
