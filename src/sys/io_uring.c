/*
 * Decoders of io_uring_setup (the parameters in, the rings' offsets out),
 * io_uring_enter and io_uring_register (buffer and file arrays; the other
 * opcodes' argument by address), as strace 6.1.
 */
#include <linux/io_uring.h>
#include <string.h>

#include "sys/decode.h"
#include "sys/decode_extra.h"
#include "xlat/uring_enter_flags.h"
#include "xlat/uring_register_opcodes.h"
#include "xlat/uring_setup_features.h"
#include "xlat/uring_setup_flags.h"
#include "util/banned.h"

static void sq_off_val(struct dctx *c, struct val *v, const struct io_sqring_offsets *p)
{
	struct val *f = val_new_array(c, 9);
	unsigned n = 0;

	val_set_uint(&f[n++], "head", p->head);
	val_set_uint(&f[n++], "tail", p->tail);
	val_set_uint(&f[n++], "ring_mask", p->ring_mask);
	val_set_uint(&f[n++], "ring_entries", p->ring_entries);
	val_set_uint(&f[n++], "flags", p->flags);
	val_set_uint(&f[n++], "dropped", p->dropped);
	val_set_uint(&f[n++], "array", p->array);
	if (p->resv1)
		val_set_hex(&f[n++], "resv1", p->resv1);
	if (p->resv2)
		val_set_hex(&f[n++], "resv2", p->resv2);
	val_set_struct(v, "sq_off", f, n, false);
}

static void cq_off_val(struct dctx *c, struct val *v, const struct io_cqring_offsets *p)
{
	struct val *f = val_new_array(c, 9);
	unsigned n = 0;

	val_set_uint(&f[n++], "head", p->head);
	val_set_uint(&f[n++], "tail", p->tail);
	val_set_uint(&f[n++], "ring_mask", p->ring_mask);
	val_set_uint(&f[n++], "ring_entries", p->ring_entries);
	val_set_uint(&f[n++], "overflow", p->overflow);
	val_set_uint(&f[n++], "cqes", p->cqes);
	val_set_uint(&f[n++], "flags", p->flags);
	if (p->resv1)
		val_set_hex(&f[n++], "resv1", p->resv1);
	if (p->resv2)
		val_set_hex(&f[n++], "resv2", p->resv2);
	val_set_struct(v, "cq_off", f, n, false);
}

/* io_uring_setup(entries, params): the parameters read at entry, the
 * kernel's answer appended at exit when the call succeeded */
SYS_FUNC(io_uring_setup)
{
	struct io_uring_params p;
	struct val *v = arg_slot(ctx, ev, 1), *f;
	unsigned n = 0;

	if (!exiting) {
		arg_uint(ctx, ev, 0);
		v = arg_slot(ctx, ev, 1);
		if (!tread(ctx, ev->karg[1], &p, sizeof(p))) {
			val_set_ptr(v, v->name, ev->karg[1]);
			ev->rv_fmt = RV_FD;
			return ctx->opts->decode_fds ? RVAL_EXIT : RVAL_DONE;
		}
		f = val_new_array(ctx, 12);
		val_set_flags(&f[n++], "flags", p.flags, uring_setup_flags, NULL);
		val_set_hex(&f[n++], "sq_thread_cpu", p.sq_thread_cpu);
		val_set_uint(&f[n++], "sq_thread_idle", p.sq_thread_idle);
		if (p.flags & IORING_SETUP_ATTACH_WQ)
			val_set_fd(ctx, &f[n++], "wq_fd", (int32_t)p.wq_fd);
		if (p.resv[0] || p.resv[1] || p.resv[2]) {
			struct val *r = val_new_array(ctx, 3);

			for (unsigned i = 0; i < 3; i++)
				val_set_hex(&r[i], NULL, p.resv[i]);
			val_set_array(&f[n++], "resv", r, 3, false);
		}
		val_set_struct(v, v->name, f, n, false);
		return RVAL_EXIT;
	}
	ev->rv_fmt = RV_FD;
	if (!ev->err)
		ret_set_fd(ctx, ev);
	if (v->kind != V_STRUCT || ev->err || !tread(ctx, ev->karg[1], &p, sizeof(p)))
		return RVAL_DONE;
	/* the entry's fields, then the output ones (the entry slot is
	 * rewritten whole: this call shows as one line) */
	f = val_new_array(ctx, v->c.n + 5);
	memcpy(f, v->c.items, v->c.n * sizeof(*f));
	n = v->c.n;
	val_set_uint(&f[n++], "sq_entries", p.sq_entries);
	val_set_uint(&f[n++], "cq_entries", p.cq_entries);
	val_set_flags(&f[n++], "features", p.features, uring_setup_features, NULL);
	sq_off_val(ctx, &f[n++], &p.sq_off);
	cq_off_val(ctx, &f[n++], &p.cq_off);
	val_set_struct(v, v->name, f, n, false);
	return RVAL_DONE;
}

SYS_FUNC(io_uring_enter)
{
	struct val *v;

	arg_fd(ctx, ev, 0);
	arg_uint(ctx, ev, 1);
	arg_uint(ctx, ev, 2);
	arg_flags(ctx, ev, 3, uring_enter_flags, NULL);
	v = arg_slot(ctx, ev, 4);
	decode_sigset_min(ctx, v, v->name, ev->karg[4], ev->karg[5], 1);
	arg_uint(ctx, ev, 5);
	return RVAL_DONE;
}

static void fd_item(struct dctx *c, struct val *item, const void *elem, void *arg)
{
	int fd;

	memcpy(&fd, elem, sizeof(fd));
	val_set_fd(c, item, NULL, fd);
}

/* io_uring_register(fd, opcode, arg, nr_args) */
SYS_FUNC(io_uring_register)
{
	uint32_t op = (uint32_t)ev->karg[1];
	uint32_t nr = (uint32_t)ev->karg[3];
	struct val *v;

	arg_fd(ctx, ev, 0);
	arg_enum(ctx, ev, 1, uring_register_opcodes);
	v = arg_slot(ctx, ev, 2);
	switch (op) {
	case IORING_REGISTER_BUFFERS:
		decode_iovec(ctx, v, v->name, ev->karg[2], nr, -1, true);
		break;
	case IORING_REGISTER_FILES:
	case IORING_REGISTER_EVENTFD:
	case IORING_REGISTER_EVENTFD_ASYNC:
		decode_array(ctx, v, v->name, ev->karg[2], nr, sizeof(int), fd_item, NULL);
		break;
	default:
		val_set_ptr(v, v->name, ev->karg[2]);
		break;
	}
	arg_uint(ctx, ev, 3);
	return RVAL_DONE;
}
