/*
 * futex(2): the operation's name (with _PRIVATE and FUTEX_CLOCK_REALTIME as
 * strace spells the combinations) and the arguments each operation uses.
 */
#include "sys/decode.h"

#include <linux/futex.h>
#include <string.h>

#include "sys/decode_extra.h"
#include "xlat/clocknames.h"
#include "xlat/futex_waitv_flags.h"
#include "xlat/futexbitset.h"
#include "xlat/futexwakecmps.h"
#include "xlat/futexwakeops.h"
#include "util/banned.h"

#define FX_PRIV 128
#define FX_RT 256

/* strace's futexops: whole op values, some named as an OR of two names, so
 * they cannot come from an xlat .in file (one C name per entry). */
static const struct xlat_data futex_ops_data[] = {
	{ 0, "FUTEX_WAIT" },
	{ 1, "FUTEX_WAKE" },
	{ 2, "FUTEX_FD" },
	{ 3, "FUTEX_REQUEUE" },
	{ 4, "FUTEX_CMP_REQUEUE" },
	{ 5, "FUTEX_WAKE_OP" },
	{ 6, "FUTEX_LOCK_PI" },
	{ 7, "FUTEX_UNLOCK_PI" },
	{ 8, "FUTEX_TRYLOCK_PI" },
	{ 9, "FUTEX_WAIT_BITSET" },
	{ 10, "FUTEX_WAKE_BITSET" },
	{ 11, "FUTEX_WAIT_REQUEUE_PI" },
	{ 12, "FUTEX_CMP_REQUEUE_PI" },
	{ 13, "FUTEX_LOCK_PI2" },
	{ 0 | FX_PRIV, "FUTEX_WAIT_PRIVATE" },
	{ 1 | FX_PRIV, "FUTEX_WAKE_PRIVATE" },
	{ 2 | FX_PRIV, "FUTEX_FD|FUTEX_PRIVATE_FLAG" },
	{ 3 | FX_PRIV, "FUTEX_REQUEUE_PRIVATE" },
	{ 4 | FX_PRIV, "FUTEX_CMP_REQUEUE_PRIVATE" },
	{ 5 | FX_PRIV, "FUTEX_WAKE_OP_PRIVATE" },
	{ 6 | FX_PRIV, "FUTEX_LOCK_PI_PRIVATE" },
	{ 7 | FX_PRIV, "FUTEX_UNLOCK_PI_PRIVATE" },
	{ 8 | FX_PRIV, "FUTEX_TRYLOCK_PI_PRIVATE" },
	{ 9 | FX_PRIV, "FUTEX_WAIT_BITSET_PRIVATE" },
	{ 10 | FX_PRIV, "FUTEX_WAKE_BITSET_PRIVATE" },
	{ 11 | FX_PRIV, "FUTEX_WAIT_REQUEUE_PI_PRIVATE" },
	{ 12 | FX_PRIV, "FUTEX_CMP_REQUEUE_PI_PRIVATE" },
	{ 13 | FX_PRIV, "FUTEX_LOCK_PI2_PRIVATE" },
	{ 0 | FX_RT, "FUTEX_WAIT|FUTEX_CLOCK_REALTIME" },
	{ 0 | FX_PRIV | FX_RT, "FUTEX_WAIT_PRIVATE|FUTEX_CLOCK_REALTIME" },
	{ 9 | FX_RT, "FUTEX_WAIT_BITSET|FUTEX_CLOCK_REALTIME" },
	{ 9 | FX_PRIV | FX_RT, "FUTEX_WAIT_BITSET_PRIVATE|FUTEX_CLOCK_REALTIME" },
	{ 11 | FX_RT, "FUTEX_WAIT_REQUEUE_PI|FUTEX_CLOCK_REALTIME" },
	{ 11 | FX_PRIV | FX_RT, "FUTEX_WAIT_REQUEUE_PI_PRIVATE|FUTEX_CLOCK_REALTIME" },
};
static const struct xlat futex_ops[1] = { {
	futex_ops_data, sizeof(futex_ops_data) / sizeof(futex_ops_data[0]), XT_ENUM, "FUTEX_???"
} };

/* Argument i shown in the next free position (strace skips unused ones). */
static struct val *next_arg(struct dctx *c, struct event *ev, unsigned *pos, unsigned i)
{
	struct val *v = arg_slot(c, ev, *pos);

	v->name = c->se->argnames && i < c->se->nargs ? c->se->argnames[i] : NULL;
	(*pos)++;
	return v;
}

static void put_u32(struct dctx *c, struct event *ev, unsigned *pos, unsigned i)
{
	struct val *v = next_arg(c, ev, pos, i);

	val_set_uint(v, v->name, (uint32_t)ev->karg[i]);
}

static void put_ptr(struct dctx *c, struct event *ev, unsigned *pos, unsigned i)
{
	struct val *v = next_arg(c, ev, pos, i);

	val_set_ptr(v, v->name, ev->karg[i]);
}

static void put_timeout(struct dctx *c, struct event *ev, unsigned *pos, unsigned i)
{
	struct val *v = next_arg(c, ev, pos, i);

	decode_timespec(c, v, v->name, ev->karg[i]);
}

static void put_bitset(struct dctx *c, struct event *ev, unsigned *pos, unsigned i)
{
	struct val *v = next_arg(c, ev, pos, i);
	uint32_t x = (uint32_t)ev->karg[i];

	if (xlat_name(futexbitset, x))
		val_set_enum(v, v->name, x, futexbitset);
	else
		val_set_hex(v, v->name, x);
}

/* a<<shift as one value; a is copied */
static void shifted(struct dctx *c, struct val *v, const struct val *a, unsigned shift)
{
	struct val *it = val_new_array(c, 2);

	it[0] = *a;
	val_set_uint(&it[1], NULL, shift);
	val_set_op(v, NULL, it, 2, "<<");
}

/* val3 of FUTEX_WAKE_OP: FUTEX_OP_SET<<28|0x1<<12|FUTEX_OP_CMP_GT<<24|0 */
static void put_wake_op(struct dctx *c, struct event *ev, unsigned *pos, unsigned i)
{
	struct val *v = next_arg(c, ev, pos, i);
	uint32_t x = (uint32_t)ev->karg[i];
	struct val *it = val_new_array(c, 6), t;
	unsigned n = 0;
	uint32_t op = (x >> 28) & 7, cmp = (x >> 24) & 0xf;

	if ((x >> 28) & FUTEX_OP_OPARG_SHIFT) {
		val_set_named_num(c, &t, NULL, FUTEX_OP_OPARG_SHIFT, "FUTEX_OP_OPARG_SHIFT");
		shifted(c, &it[n++], &t, 28);
	}
	if (xlat_name(futexwakeops, op)) {
		/* strace's printxval "fails" under -X raw: the number there
		 * gets the FUTEX_OP_??? comment too */
		struct val forms[3], *p = val_new_array(c, 2);

		val_set_enum(&t, NULL, op, futexwakeops);
		shifted(c, &forms[0], &t, 28);
		forms[2] = forms[0];
		val_set_hex(&t, NULL, op);
		shifted(c, &p[0], &t, 28);
		val_set_comment(c, &p[1], "FUTEX_OP_???");
		val_set_op(&forms[1], NULL, p, 2, " ");
		val_set_xforms(c, &it[n++], NULL, &forms[0], &forms[1], &forms[2]);
	} else {
		struct val *p = val_new_array(c, 2);

		val_set_hex(&t, NULL, op);
		shifted(c, &p[0], &t, 28);
		val_set_comment(c, &p[1], "FUTEX_OP_???");
		val_set_op(&it[n++], NULL, p, 2, " ");
	}
	val_set_hex(&t, NULL, (x >> 12) & 0xfff);
	shifted(c, &it[n++], &t, 12);
	if (xlat_name(futexwakecmps, cmp)) {
		struct val forms[3], *p = val_new_array(c, 2);

		val_set_enum(&t, NULL, cmp, futexwakecmps);
		shifted(c, &forms[0], &t, 24);
		forms[2] = forms[0];
		val_set_hex(&t, NULL, cmp);
		shifted(c, &p[0], &t, 24);
		val_set_comment(c, &p[1], "FUTEX_OP_CMP_???");
		val_set_op(&forms[1], NULL, p, 2, " ");
		val_set_xforms(c, &it[n++], NULL, &forms[0], &forms[1], &forms[2]);
	} else {
		struct val *p = val_new_array(c, 2);

		val_set_hex(&t, NULL, cmp);
		shifted(c, &p[0], &t, 24);
		val_set_comment(c, &p[1], "FUTEX_OP_CMP_???");
		val_set_op(&it[n++], NULL, p, 2, " ");
	}
	val_set_hex(&it[n++], NULL, x & 0xfff);
	val_set_op(v, v->name, it, n, "|");
}

/* futex(uaddr, op, val, timeout/val2, uaddr2, val3): decoded at entry. */
SYS_FUNC(futex)
{
	unsigned pos = 0;
	uint32_t op = (uint32_t)ev->karg[1];
	struct val *v;

	if (exiting) {
		restart_note(ctx, ev);
		return RVAL_DONE;
	}
	put_ptr(ctx, ev, &pos, 0);
	v = next_arg(ctx, ev, &pos, 1);
	val_set_enum(v, v->name, op, futex_ops);
	switch (op & 127) {
	case FUTEX_WAIT:
		put_u32(ctx, ev, &pos, 2);
		put_timeout(ctx, ev, &pos, 3);
		break;
	case FUTEX_LOCK_PI:
	case 13: /* FUTEX_LOCK_PI2 */
		put_timeout(ctx, ev, &pos, 3);
		break;
	case FUTEX_WAIT_BITSET:
		put_u32(ctx, ev, &pos, 2);
		put_timeout(ctx, ev, &pos, 3);
		put_bitset(ctx, ev, &pos, 5);
		break;
	case FUTEX_WAKE_BITSET:
		put_u32(ctx, ev, &pos, 2);
		put_bitset(ctx, ev, &pos, 5);
		break;
	case FUTEX_REQUEUE:
		put_u32(ctx, ev, &pos, 2);
		put_u32(ctx, ev, &pos, 3);
		put_ptr(ctx, ev, &pos, 4);
		break;
	case FUTEX_CMP_REQUEUE:
	case FUTEX_CMP_REQUEUE_PI:
		put_u32(ctx, ev, &pos, 2);
		put_u32(ctx, ev, &pos, 3);
		put_ptr(ctx, ev, &pos, 4);
		put_u32(ctx, ev, &pos, 5);
		break;
	case FUTEX_WAKE_OP:
		put_u32(ctx, ev, &pos, 2);
		put_u32(ctx, ev, &pos, 3);
		put_ptr(ctx, ev, &pos, 4);
		put_wake_op(ctx, ev, &pos, 5);
		break;
	case FUTEX_WAIT_REQUEUE_PI:
		put_u32(ctx, ev, &pos, 2);
		put_timeout(ctx, ev, &pos, 3);
		put_ptr(ctx, ev, &pos, 4);
		break;
	case FUTEX_FD:
	case FUTEX_WAKE:
		put_u32(ctx, ev, &pos, 2);
		break;
	case FUTEX_UNLOCK_PI:
	case FUTEX_TRYLOCK_PI:
		break;
	default: {
		put_u32(ctx, ev, &pos, 2);
		put_ptr(ctx, ev, &pos, 3);
		put_ptr(ctx, ev, &pos, 4);
		v = next_arg(ctx, ev, &pos, 5);
		val_set_hex(v, v->name, (uint32_t)ev->karg[5]);
		break;
	}
	}
	ev->nargs = (uint8_t)pos;
	/* at exit only to note an interrupted wait for restart_syscall */
	return RVAL_EXIT;
}

/* struct futex_waitv: {val=0x1, uaddr=0x..., flags=FUTEX_32} */
static void waitv_item(struct dctx *c, struct val *item, const void *elem, void *arg)
{
	struct { uint64_t val, uaddr; uint32_t flags, reserved; } w;
	struct val *f = val_new_array(c, 4);
	unsigned n = 0;

	memcpy(&w, elem, sizeof(w));
	val_set_hex(&f[n++], "val", w.val);
	val_set_ptr(&f[n++], "uaddr", w.uaddr);
	val_set_flags(&f[n++], "flags", w.flags, futex_waitv_flags, NULL);
	if (w.reserved)
		val_set_hex(&f[n++], "__reserved", w.reserved);
	val_set_struct(item, NULL, f, n, false);
}

/* futex_waitv(waiters, nr_futexes, flags, timeout, clockid) */
SYS_FUNC(futex_waitv)
{
	struct val *v;

	v = arg_slot(ctx, ev, 0);
	decode_array(ctx, v, v->name, ev->karg[0], (uint32_t)ev->karg[1], 24, waitv_item, NULL);
	arg_uint(ctx, ev, 1);
	arg_hex(ctx, ev, 2);
	v = arg_slot(ctx, ev, 3);
	decode_timespec(ctx, v, v->name, ev->karg[3]);
	arg_enum(ctx, ev, 4, clocknames);
	return RVAL_DONE;
}
