/*
 * SCSI generic ioctls ('"', scsi/sg.h, linux/bsg.h): SG_IO with its v3
 * (interface 'S', struct sg_io_hdr) and v4 (guard 'Q', struct sg_io_v4)
 * requests and responses, the device id, the request table and the int
 * settings.
 */
#include <stddef.h>
#include <string.h>
#include <scsi/sg.h>
#include <linux/bsg.h>

#include "sys/ioc.h"
#include "util/arena.h"
#include "xlat/bsg_flags.h"
#include "xlat/bsg_protocol.h"
#include "xlat/bsg_subprotocol.h"
#include "xlat/sg_io_dxfer_direction.h"
#include "xlat/sg_io_flags.h"
#include "xlat/sg_io_info.h"
#include "xlat/sg_scsi_reset.h"

#include "util/banned.h"

#ifndef SG_GET_ACCESS_COUNT
# define SG_GET_ACCESS_COUNT 0x2289   /* the kernel's scsi/sg.h; not glibc's */
#endif
#ifndef SG_SCSI_RESET_NO_ESCALATE
# define SG_SCSI_RESET_NO_ESCALATE 0x100
#endif

/* A data buffer: an iovec array when count says so, else hex bytes. */
static void buffer(struct ioc *io, struct val *v, const char *name, uint64_t addr, uint32_t size,
		   uint32_t iovec_count)
{
	if (iovec_count) {
		decode_iovec(io->c, v, name, addr, iovec_count, size, false);
		return;
	}
	val_read_buf(io->c, v, name, addr, size);
	if (v->kind == V_STR)
		v->flags |= VF_HEXSTR;
}

/* The entry's structure kept beyond the shown items (for the exit). */
static void keep(struct ioc *io, struct val *st, unsigned slot, const void *p, size_t size)
{
	val_set_ptr(&st->c.items[slot], NULL,
		    (uint64_t)(uintptr_t)arena_memdup(io->c->arena, p, size));
}

static const void *kept(struct val *st, unsigned slot)
{
	return (const void *)(uintptr_t)st->c.items[slot].u;
}

/* " => name=N" after the last shown item */
static void changed_field(struct dctx *c, struct val *st, const char *name, uint64_t x)
{
	struct val *last = &st->c.items[st->c.n - 1], *p = val_new_array(c, 2);

	p[0] = *last;
	p[0].name = NULL;
	val_set_text(c, &p[1], NULL, ioc_printf(c, " => %s=%llu", name, (unsigned long long)x));
	val_set_op(last, last->name, p, 2, NULL);
}

enum { CAP = 32, KEEP = 31 };

static int v3_request(struct ioc *io, struct val *st)
{
	struct dctx *c = io->c;
	const size_t skip = offsetof(struct sg_io_hdr, dxfer_direction);
	struct sg_io_hdr h;
	struct val *x;

	val_set_text(c, ioc_next(st), "interface_id", "'S'");
	x = ioc_next(st);
	x->name = NULL;
	if (!ioc_read(io, x, io->arg + skip, (char *)&h + skip, sizeof(h) - skip))
		return IOC_DONE;
	st->c.n--;
	val_set_enum(ioc_next(st), "dxfer_direction", (uint64_t)(int64_t)h.dxfer_direction,
		     sg_io_dxfer_direction);
	FLD_U(ioc_next(st), h, cmd_len);
	buffer(io, ioc_next(st), "cmdp", (uint64_t)(uintptr_t)h.cmdp, h.cmd_len, 0);
	FLD_U(ioc_next(st), h, mx_sb_len);
	FLD_U(ioc_next(st), h, iovec_count);
	FLD_U(ioc_next(st), h, dxfer_len);
	FLD_U(ioc_next(st), h, timeout);
	val_set_flags(ioc_next(st), "flags", h.flags, sg_io_flags, NULL);
	if (h.dxfer_direction == SG_DXFER_TO_DEV || h.dxfer_direction == SG_DXFER_TO_FROM_DEV)
		buffer(io, ioc_next(st), "dxferp", (uint64_t)(uintptr_t)h.dxferp, h.dxfer_len,
		       h.iovec_count);
	h.interface_id = 'S';
	keep(io, st, KEEP, &h, sizeof(h));
	return IOC_EXIT;
}

static void v3_response(struct ioc *io, struct val *st)
{
	const struct sg_io_hdr *e = kept(st, KEEP);
	struct sg_io_hdr h;

	if (!tread(io->c, io->arg, &h, sizeof(h))) {
		if (e->dxfer_direction == SG_DXFER_FROM_DEV)
			val_set_ptr(ioc_next(st), "dxferp", (uint64_t)(uintptr_t)e->dxferp);
		val_set_ptr(ioc_next(st), "sbp", (uint64_t)(uintptr_t)e->sbp);
		return;
	}
	if (h.interface_id != e->interface_id) {
		changed_field(io->c, st, "interface_id", (unsigned)h.interface_id);
		return;
	}
	if (h.dxfer_direction == SG_DXFER_FROM_DEV || h.dxfer_direction == SG_DXFER_TO_FROM_DEV) {
		uint32_t din = h.dxfer_len;

		if (h.resid > 0 && (unsigned)h.resid <= din)
			din -= h.resid;
		if (h.dxfer_direction == SG_DXFER_FROM_DEV) {
			buffer(io, ioc_next(st), "dxferp", (uint64_t)(uintptr_t)h.dxferp, din,
			       h.iovec_count);
		} else if (din) {
			/* ..., dxferp=... => dxferp=... */
			struct val *last = &st->c.items[st->c.n - 1], *p = val_new_array(io->c, 3);

			p[0] = *last;
			p[0].name = NULL;
			val_set_text(io->c, &p[1], NULL, " => dxferp=");
			buffer(io, &p[2], NULL, (uint64_t)(uintptr_t)h.dxferp, din, h.iovec_count);
			val_set_op(last, last->name, p, 3, NULL);
		}
	}
	FLD_X(ioc_next(st), h, status);
	FLD_X(ioc_next(st), h, masked_status);
	FLD_X(ioc_next(st), h, msg_status);
	FLD_U(ioc_next(st), h, sb_len_wr);
	buffer(io, ioc_next(st), "sbp", (uint64_t)(uintptr_t)h.sbp, h.sb_len_wr, 0);
	FLD_X(ioc_next(st), h, host_status);
	FLD_X(ioc_next(st), h, driver_status);
	FLD_D(ioc_next(st), h, resid);
	FLD_U(ioc_next(st), h, duration);
	val_set_flags(ioc_next(st), "info", h.info, sg_io_info, NULL);
}

static int v4_request(struct ioc *io, struct val *st)
{
	struct dctx *c = io->c;
	const size_t skip = offsetof(struct sg_io_v4, protocol);
	struct sg_io_v4 h;
	struct val *x;

	val_set_text(c, ioc_next(st), "guard", "'Q'");
	x = ioc_next(st);
	x->name = NULL;
	if (!ioc_read(io, x, io->arg + skip, (char *)&h + skip, sizeof(h) - skip))
		return IOC_DONE;
	st->c.n--;
	val_set_enum(ioc_next(st), "protocol", h.protocol, bsg_protocol);
	val_set_enum(ioc_next(st), "subprotocol", h.subprotocol, bsg_subprotocol);
	FLD_U(ioc_next(st), h, request_len);
	buffer(io, ioc_next(st), "request", h.request, h.request_len, 0);
	FLD_X(ioc_next(st), h, request_tag);
	FLD_U(ioc_next(st), h, request_attr);
	FLD_U(ioc_next(st), h, request_priority);
	FLD_U(ioc_next(st), h, request_extra);
	FLD_U(ioc_next(st), h, max_response_len);
	FLD_U(ioc_next(st), h, dout_iovec_count);
	FLD_U(ioc_next(st), h, dout_xfer_len);
	FLD_U(ioc_next(st), h, din_iovec_count);
	FLD_U(ioc_next(st), h, din_xfer_len);
	buffer(io, ioc_next(st), "dout_xferp", h.dout_xferp, h.dout_xfer_len, h.dout_iovec_count);
	FLD_U(ioc_next(st), h, timeout);
	val_set_flags(ioc_next(st), "flags", h.flags, bsg_flags, NULL);
	FLD_X(ioc_next(st), h, usr_ptr);
	h.guard = 'Q';
	keep(io, st, KEEP, &h, sizeof(h));
	return IOC_EXIT;
}

static void v4_response(struct ioc *io, struct val *st)
{
	const struct sg_io_v4 *e = kept(st, KEEP);
	struct sg_io_v4 h;
	uint32_t din;

	if (!tread(io->c, io->arg, &h, sizeof(h))) {
		FLD_X(ioc_next(st), *e, response);
		FLD_X(ioc_next(st), *e, din_xferp);
		return;
	}
	if (h.guard != e->guard) {
		changed_field(io->c, st, "guard", (unsigned)h.guard);
		return;
	}
	FLD_U(ioc_next(st), h, response_len);
	buffer(io, ioc_next(st), "response", h.response, h.response_len, 0);
	din = h.din_xfer_len;
	if (h.din_resid > 0 && (unsigned)h.din_resid <= din)
		din -= h.din_resid;
	buffer(io, ioc_next(st), "din_xferp", h.din_xferp, din, h.din_iovec_count);
	FLD_X(ioc_next(st), h, driver_status);
	FLD_X(ioc_next(st), h, transport_status);
	FLD_X(ioc_next(st), h, device_status);
	FLD_U(ioc_next(st), h, retry_delay);
	val_set_flags(ioc_next(st), "info", h.info, sg_io_info, NULL);
	FLD_U(ioc_next(st), h, duration);
	FLD_U(ioc_next(st), h, response_len);
	FLD_D(ioc_next(st), h, din_resid);
	FLD_D(ioc_next(st), h, dout_resid);
	FLD_X(ioc_next(st), h, generated_tag);
}

/* SG_IO: the interface id picks the structure; another id shows as [N] */
static int sg_io(struct ioc *io)
{
	struct val *st, in;
	uint32_t iid;

	if (!io->exiting) {
		st = ioc_val(io);
		if (!ioc_read(io, st, io->arg, &iid, sizeof(iid)))
			return IOC_DONE;
		if (iid != 'S' && iid != 'Q') {
			val_set_uint(&in, NULL, iid);
			val_set_boxed(io->c, st, st->name, &in);
			return IOC_DONE;
		}
		st = ioc_open_struct(io, CAP);
		return iid == 'S' ? v3_request(io, st) : v4_request(io, st);
	}
	st = ioc_reopen(io);
	if (!st || !st->c.items[KEEP].u)
		return IOC_DONE;
	if (*(const int32_t *)kept(st, KEEP) == 'S')
		v3_response(io, st);
	else
		v4_response(io, st);
	return IOC_DONE;
}

static int scsi_id(struct ioc *io)
{
	struct sg_scsi_id id;
	struct val *v, *f;

	if (!io->exiting)
		return IOC_EXIT;
	v = ioc_val(io);
	if (ioc_read(io, v, io->arg, &id, sizeof(id))) {
		f = val_new_array(io->c, 7);
		FLD_D(&f[0], id, host_no);
		FLD_D(&f[1], id, channel);
		FLD_X(&f[2], id, scsi_id);
		FLD_D(&f[3], id, lun);
		FLD_X(&f[4], id, scsi_type);
		FLD_D(&f[5], id, h_cmd_per_lun);
		FLD_D(&f[6], id, d_queue_depth);
		val_set_struct(v, v->name, f, 7, false);
	}
	return IOC_DONE;
}

static int req_info(struct ioc *io)
{
	struct sg_req_info r;
	struct val *v, *f;

	if (!io->exiting)
		return IOC_EXIT;
	v = ioc_val(io);
	if (ioc_read(io, v, io->arg, &r, sizeof(r))) {
		f = val_new_array(io->c, 7);
		FLD_D(&f[0], r, req_state);
		FLD_D(&f[1], r, orphan);
		FLD_D(&f[2], r, sg_io_owned);
		FLD_D(&f[3], r, problem);
		FLD_D(&f[4], r, pack_id);
		val_set_ptr(&f[5], "usr_ptr", (uint64_t)(uintptr_t)r.usr_ptr);
		FLD_U(&f[6], r, duration);
		val_set_struct(v, v->name, f, 7, false);
	}
	return IOC_DONE;
}

/* [SG_SCSI_RESET_NO_ESCALATE|SG_SCSI_RESET_DEVICE] */
static int scsi_reset(struct ioc *io)
{
	struct val *v = ioc_val(io), *p, in;
	unsigned int x;
	unsigned n = 0;

	if (!ioc_read(io, v, io->arg, &x, sizeof(x)))
		return IOC_DONE;
	p = val_new_array(io->c, 3);
	if (x & SG_SCSI_RESET_NO_ESCALATE) {
		val_set_enum(&p[n++], NULL, SG_SCSI_RESET_NO_ESCALATE, sg_scsi_reset);
		val_set_text(io->c, &p[n++], NULL, "|");
	}
	val_set_enum(&p[n++], NULL, x & ~SG_SCSI_RESET_NO_ESCALATE, sg_scsi_reset);
	val_set_op(&in, NULL, p, n, NULL);
	val_set_boxed(io->c, v, v->name, &in);
	return IOC_DONE;
}

int ioctl_scsi(struct ioc *io)
{
	struct val *v;

	switch (io->code) {
	case SG_IO:
		return sg_io(io);
	case SG_GET_SCSI_ID:
		return scsi_id(io);
	case SG_GET_REQUEST_TABLE:
		return req_info(io);
	case SG_SCSI_RESET:
		return scsi_reset(io);
	case SG_NEXT_CMD_LEN: case SG_SET_COMMAND_Q: case SG_SET_DEBUG:
	case SG_SET_FORCE_LOW_DMA: case SG_SET_FORCE_PACK_ID: case SG_SET_KEEP_ORPHAN:
	case SG_SET_RESERVED_SIZE: case SG_SET_TIMEOUT:
		return ioc_arg_num(io, sizeof(int), NUM_D);
	case SG_EMULATED_HOST: case SG_GET_ACCESS_COUNT: case SG_GET_COMMAND_Q:
	case SG_GET_KEEP_ORPHAN: case SG_GET_LOW_DMA: case SG_GET_NUM_WAITING:
	case SG_GET_PACK_ID: case SG_GET_RESERVED_SIZE: case SG_GET_SG_TABLESIZE:
	case SG_GET_TRANSFORM: case SG_GET_VERSION_NUM:
		if (!io->exiting)
			return IOC_EXIT;
		return ioc_arg_num(io, sizeof(int), NUM_D);
	case SG_SET_TRANSFORM:
		v = ioc_val(io);
		val_set_hex(v, v->name, (unsigned int)io->arg);
		return IOC_DONE;
	case SG_GET_TIMEOUT:
		return ioc_none(io);
	}
	return IOC_DEFAULT;
}
