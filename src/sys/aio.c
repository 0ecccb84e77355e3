/*
 * Decoders of Linux native AIO: io_setup, io_destroy, io_submit (the iocbs
 * as strace prints them), io_cancel, io_getevents, io_pgetevents.  The
 * context id is shown as an address, as strace does.
 */
#include <linux/aio_abi.h>
#include <stdio.h>
#include <string.h>

#include "sys/decode.h"
#include "sys/decode_extra.h"
#include "xlat/aio_cmds.h"
#include "xlat/aio_iocb_flags.h"
#include "xlat/pollflags.h"
#include "xlat/rwf_flags.h"
#include "util/banned.h"

/* io_setup(nr_events, ctx_idp): the new context at exit */
SYS_FUNC(io_setup)
{
	struct val *v;
	uint64_t id;

	if (!exiting) {
		arg_uint(ctx, ev, 0);
		arg_count(ev, 2);
		return RVAL_EXIT;
	}
	v = arg_slot(ctx, ev, 1);
	if (ev->err || !tread(ctx, ev->karg[1], &id, sizeof(id))) {
		val_set_ptr(v, v->name, ev->karg[1]);
	} else {
		struct val x;

		val_set_ptr(&x, NULL, id);
		val_set_boxed(ctx, v, v->name, &x);
	}
	v->flags |= VF_EXIT;
	return RVAL_DONE;
}

SYS_FUNC(io_destroy)
{
	arg_ptr(ctx, ev, 0);
	return RVAL_DONE;
}

/* The fields of a struct iocb up to aio_fildes (strace's print_iocb_header),
 * from f[*n]. */
static void iocb_header(struct dctx *c, struct val *f, unsigned *n, const struct iocb *cb)
{
	const char *op = xlat_name(aio_cmds, cb->aio_lio_opcode);

	val_set_hex(&f[(*n)++], "aio_data", cb->aio_data);
	if (cb->aio_key)
		val_set_uint(&f[(*n)++], "aio_key", cb->aio_key);
	if (cb->aio_rw_flags)
		val_set_flags(&f[(*n)++], "aio_rw_flags", (uint32_t)cb->aio_rw_flags, rwf_flags, NULL);
	if (op) {
		val_set_text(c, &f[(*n)++], "aio_lio_opcode", op);
	} else {
		struct val x;

		val_set_uint(&x, NULL, cb->aio_lio_opcode);
		val_set_commented(c, &f[(*n)++], "aio_lio_opcode", &x, "IOCB_CMD_???");
	}
	if (cb->aio_flags & IOCB_FLAG_IOPRIO)
		val_set_ioprio(c, &f[(*n)++], "aio_reqprio", cb->aio_reqprio);
	else if (cb->aio_reqprio)
		val_set_int(&f[(*n)++], "aio_reqprio", (int16_t)cb->aio_reqprio);
	val_set_fd(c, &f[(*n)++], "aio_fildes", (int32_t)cb->aio_fildes);
}

static void iocb_common_flags(struct dctx *c, struct val *f, unsigned *n, const struct iocb *cb)
{
	if (cb->aio_flags)
		val_set_flags(&f[(*n)++], "aio_flags", cb->aio_flags, aio_iocb_flags, NULL);
	if (cb->aio_flags & IOCB_FLAG_RESFD)
		val_set_fd(c, &f[(*n)++], "aio_resfd", (int32_t)cb->aio_resfd);
	else if (cb->aio_resfd)
		val_set_hex(&f[(*n)++], "aio_resfd", cb->aio_resfd);
}

/* A struct iocb as strace's print_iocb. */
static void decode_iocb(struct dctx *c, struct val *v, const struct iocb *cb)
{
	struct val *f = val_new_array(c, 14);
	unsigned n = 0;
	bool valid = (int64_t)cb->aio_nbytes >= 0;

	iocb_header(c, f, &n, cb);
	switch (cb->aio_lio_opcode) {
	case IOCB_CMD_PREAD:
	case IOCB_CMD_PWRITE:
		if (cb->aio_lio_opcode == IOCB_CMD_PWRITE && valid)
			val_read_buf(c, &f[n++], "aio_buf", cb->aio_buf, cb->aio_nbytes);
		else
			val_set_hex(&f[n++], "aio_buf", cb->aio_buf);
		val_set_uint(&f[n++], "aio_nbytes", cb->aio_nbytes);
		val_set_int(&f[n++], "aio_offset", cb->aio_offset);
		iocb_common_flags(c, f, &n, cb);
		break;
	case IOCB_CMD_PREADV:
	case IOCB_CMD_PWRITEV:
		if (valid) {
			decode_iovec(c, &f[n++], "aio_buf", cb->aio_buf, cb->aio_nbytes, -1,
				     cb->aio_lio_opcode != IOCB_CMD_PWRITEV);
		} else {
			val_set_hex(&f[n++], "aio_buf", cb->aio_buf);
			val_set_uint(&f[n++], "aio_nbytes", cb->aio_nbytes);
		}
		val_set_int(&f[n++], "aio_offset", cb->aio_offset);
		iocb_common_flags(c, f, &n, cb);
		break;
	case IOCB_CMD_POLL:
		val_set_flags(&f[n++], "aio_buf", cb->aio_buf, pollflags, NULL);
		iocb_common_flags(c, f, &n, cb);
		break;
	}
	val_set_struct(v, NULL, f, n, false);
}

static void iocbp_item(struct dctx *c, struct val *item, const void *elem, void *arg)
{
	uint64_t addr;
	struct iocb cb;

	memcpy(&addr, elem, sizeof(addr));
	if (!tread(c, addr, &cb, sizeof(cb)))
		val_set_ptr(item, NULL, addr);
	else
		decode_iocb(c, item, &cb);
}

/* io_submit(ctx_id, nr, iocbpp) */
SYS_FUNC(io_submit)
{
	int64_t nr = (int64_t)ev->karg[1];
	struct val *v;

	arg_ptr(ctx, ev, 0);
	arg_long(ctx, ev, 1);
	v = arg_slot(ctx, ev, 2);
	if (nr < 0)
		val_set_ptr(v, v->name, ev->karg[2]);
	else
		decode_array(ctx, v, v->name, ev->karg[2], (uint64_t)nr, 8, iocbp_item, NULL);
	return RVAL_DONE;
}

static void io_event_item(struct dctx *c, struct val *item, const void *elem, void *arg)
{
	struct io_event e;
	struct val *f = val_new_array(c, 4);

	memcpy(&e, elem, sizeof(e));
	val_set_hex(&f[0], "data", e.data);
	val_set_hex(&f[1], "obj", e.obj);
	val_set_int(&f[2], "res", e.res);
	val_set_int(&f[3], "res2", e.res2);
	val_set_struct(item, NULL, f, 4, false);
}

/* io_cancel(ctx_id, iocb, result): the iocb's header at entry, the event
 * at exit */
SYS_FUNC(io_cancel)
{
	struct iocb cb;
	struct io_event e;
	struct val *v;

	if (!exiting) {
		arg_ptr(ctx, ev, 0);
		v = arg_slot(ctx, ev, 1);
		if (!tread(ctx, ev->karg[1], &cb, sizeof(cb))) {
			val_set_ptr(v, v->name, ev->karg[1]);
		} else {
			struct val *f = val_new_array(ctx, 8);
			unsigned n = 0;

			iocb_header(ctx, f, &n, &cb);
			val_set_struct(v, v->name, f, n, false);
		}
		arg_count(ev, 3);
		return RVAL_EXIT;
	}
	v = arg_slot(ctx, ev, 2);
	if (ev->err || !tread(ctx, ev->karg[2], &e, sizeof(e)))
		val_set_ptr(v, v->name, ev->karg[2]);
	else
		io_event_item(ctx, v, &e, NULL);
	v->name = ev->args[2].name;
	v->flags |= VF_EXIT;
	return RVAL_DONE;
}

/* io_getevents/io_pgetevents at exit: the events, then the timeout (and
 * the struct __aio_sigset) read whether the call failed or not. */
static int getevents(struct dctx *ctx, struct event *ev, int exiting, bool has_sig)
{
	struct val *v;

	if (!exiting) {
		arg_ptr(ctx, ev, 0);
		arg_long(ctx, ev, 1);
		arg_long(ctx, ev, 2);
		arg_count(ev, has_sig ? 6 : 5);
		return RVAL_EXIT;
	}
	v = arg_slot(ctx, ev, 3);
	/* strace passes the result, -1 on failure: a wrapping size, the address */
	decode_array(ctx, v, v->name, ev->karg[3], ev->err ? UINT64_MAX : (uint64_t)ev->retval,
		     sizeof(struct io_event), io_event_item, NULL);
	v->flags |= VF_EXIT;
	v = arg_slot(ctx, ev, 4);
	decode_timespec(ctx, v, v->name, ev->karg[4]);
	v->flags |= VF_EXIT;
	if (has_sig) {
		struct { uint64_t sigmask, sigsetsize; } s;

		v = arg_slot(ctx, ev, 5);
		if (!tread(ctx, ev->karg[5], &s, sizeof(s))) {
			val_set_ptr(v, v->name, ev->karg[5]);
		} else {
			struct val *f = val_new_array(ctx, 2);

			decode_sigset(ctx, &f[0], "sigmask", s.sigmask, s.sigsetsize);
			val_set_uint(&f[1], "sigsetsize", s.sigsetsize);
			val_set_struct(v, v->name, f, 2, false);
		}
		v->flags |= VF_EXIT;
	}
	return RVAL_DONE;
}

SYS_FUNC(io_getevents)
{
	return getevents(ctx, ev, exiting, false);
}

SYS_FUNC(io_pgetevents)
{
	return getevents(ctx, ev, exiting, true);
}
