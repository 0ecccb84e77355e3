/*
 * Decoders of io_uring_setup (the parameters in, the rings' offsets out),
 * io_uring_enter and io_uring_register (each opcode's argument that strace
 * 6.1 decodes: buffers, files, their updates and tags, the probe, the
 * restrictions, the io-wq affinity and worker limits, ring fds, buffer
 * rings), as strace 6.1.
 */
#include <linux/io_uring.h>
#include <stdio.h>
#include <string.h>

#include "sys/decode.h"
#include "sys/decode_extra.h"
#include "xlat/uring_enter_flags.h"
#include "xlat/uring_iowq_acct.h"
#include "xlat/uring_op_flags.h"
#include "xlat/uring_ops.h"
#include "xlat/uring_register_opcodes.h"
#include "xlat/uring_restriction_opcodes.h"
#include "xlat/uring_rsrc_flags.h"
#include "xlat/uring_sqe_flags.h"
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

static void u64_item(struct dctx *c, struct val *item, const void *elem, void *arg)
{
	uint64_t x;

	memcpy(&x, elem, sizeof(x));
	val_set_uint(item, NULL, x);
}

/* resv=[...] of n 32- or 64-bit words when any is set */
static bool resv_words(struct dctx *c, struct val *v, const char *name, const void *p,
		       unsigned n, size_t width)
{
	struct val *r = val_new_array(c, n);
	bool any = false;

	for (unsigned i = 0; i < n; i++) {
		uint64_t x = 0;

		memcpy(&x, (const char *)p + i * width, width);
		any |= x != 0;
		val_set_hex(&r[i], NULL, x);
	}
	if (any)
		val_set_array(v, name, r, n, false);
	return any;
}

/* struct io_uring_files_update: {offset=N, resv=0xN, fds=[...]} (nr fds) */
static void files_update_val(struct dctx *c, struct val *v, uint64_t addr, uint32_t nr)
{
	struct io_uring_files_update u;
	struct val *f;
	unsigned n = 0;

	if (!tread(c, addr, &u, sizeof(u))) {
		val_set_ptr(v, v->name, addr);
		return;
	}
	f = val_new_array(c, 3);
	val_set_uint(&f[n++], "offset", u.offset);
	if (u.resv)
		val_set_hex(&f[n++], "resv", u.resv);
	decode_array(c, &f[n++], "fds", u.fds, nr, sizeof(int), fd_item, NULL);
	val_set_struct(v, v->name, f, n, false);
}

static void probe_op_item(struct dctx *c, struct val *item, const void *elem, void *arg)
{
	struct io_uring_probe_op o;
	struct val *f = val_new_array(c, 4);
	unsigned n = 0;

	memcpy(&o, elem, sizeof(o));
	val_set_enum(&f[n], "op", o.op, uring_ops);
	f[n++].flags |= VF_DECIMAL;
	if (o.resv)
		val_set_hex(&f[n++], "resv", o.resv);
	val_set_flags(&f[n++], "flags", o.flags, uring_op_flags, NULL);
	if (o.resv2)
		val_set_hex(&f[n++], "resv2", o.resv2);
	val_set_struct(item, NULL, f, n, false);
}

/* struct io_uring_probe with nr ops; false when it cannot be read (or nr
 * is past the kernel's limit of 256) */
static bool probe_val(struct dctx *c, struct val *v, uint64_t addr, uint32_t nr, bool *zero)
{
	size_t size = sizeof(struct io_uring_probe) + (size_t)nr * sizeof(struct io_uring_probe_op);
	struct io_uring_probe *p;
	struct val *f;
	unsigned n = 0;

	if (nr > 256 || !(p = arena_alloc(c->arena, size)) || !tread(c, addr, p, size))
		return false;
	if (zero) {
		*zero = true;
		for (size_t i = 0; i < size; i++)
			if (((const unsigned char *)p)[i])
				*zero = false;
	}
	f = val_new_array(c, 5);
	val_set_enum(&f[n], "last_op", p->last_op, uring_ops);
	f[n++].flags |= VF_DECIMAL;
	val_set_uint(&f[n++], "ops_len", p->ops_len);
	if (p->resv)
		val_set_hex(&f[n++], "resv", p->resv);
	if (resv_words(c, &f[n], "resv2", p->resv2, 3, sizeof(p->resv2[0])))
		n++;
	decode_array(c, &f[n++], "ops", addr + sizeof(*p), nr, sizeof(struct io_uring_probe_op),
		     probe_op_item, NULL);
	val_set_struct(v, v->name, f, n, false);
	return true;
}

static void restriction_item(struct dctx *c, struct val *item, const void *elem, void *arg)
{
	struct io_uring_restriction r;
	struct val *f = val_new_array(c, 4);
	unsigned n = 0;

	memcpy(&r, elem, sizeof(r));
	switch (r.opcode) {
	case IORING_RESTRICTION_REGISTER_OP:
		val_set_enum(&f[n++], "opcode", r.opcode, uring_restriction_opcodes);
		val_set_enum(&f[n++], "register_op", r.register_op, uring_register_opcodes);
		break;
	case IORING_RESTRICTION_SQE_OP:
		val_set_enum(&f[n++], "opcode", r.opcode, uring_restriction_opcodes);
		val_set_enum(&f[n++], "sqe_op", r.sqe_op, uring_ops);
		break;
	case IORING_RESTRICTION_SQE_FLAGS_ALLOWED:
	case IORING_RESTRICTION_SQE_FLAGS_REQUIRED:
		val_set_enum(&f[n++], "opcode", r.opcode, uring_restriction_opcodes);
		val_set_flags(&f[n++], "sqe_flags", r.sqe_flags, uring_sqe_flags, NULL);
		break;
	default: {
		/* the union's byte as a comment: "0x4 / * ... * / / * op: 0x7f * /" */
		struct val *parts = val_new_array(c, 2);
		char text[32];

		val_set_enum(&parts[0], NULL, r.opcode, uring_restriction_opcodes);
		snprintf(text, sizeof(text), r.register_op ? "op: %#x" : "op: %u", r.register_op);
		val_set_comment(c, &parts[1], text);
		val_set_op(&f[n++], "opcode", parts, 2, " ");
		break;
	}
	}
	if (r.resv)
		val_set_hex(&f[n++], "resv", r.resv);
	if (resv_words(c, &f[n], "resv2", r.resv2, 3, sizeof(r.resv2[0])))
		n++;
	val_set_struct(item, NULL, f, n, false);
}

/* [[IO_WQ_BOUND]=N, ...]: the index in the current -X style */
static void max_workers_item(struct dctx *c, struct val *item, const void *elem, void *arg)
{
	unsigned *idx = arg;
	struct val *parts = val_new_array(c, 4);
	uint32_t x;

	memcpy(&x, elem, sizeof(x));
	val_set_text(c, &parts[0], NULL, "[");
	val_set_enum(&parts[1], NULL, (*idx)++, uring_iowq_acct);
	parts[1].flags |= VF_DECIMAL;
	val_set_text(c, &parts[2], NULL, "]=");
	val_set_uint(&parts[3], NULL, x);
	val_set_op(item, NULL, parts, 4, "");
}

static void max_workers_val(struct dctx *c, struct val *v, const char *name, uint64_t addr,
			    uint32_t nr)
{
	unsigned idx = 0;

	decode_array(c, v, name, addr, nr, sizeof(uint32_t), max_workers_item, &idx);
}

/* struct io_uring_rsrc_update: {offset=N, resv=0xN, data=...}; data is the
 * descriptor to register (arg non-NULL), else the registered index */
static void rsrc_update_item(struct dctx *c, struct val *item, const void *elem, void *arg)
{
	struct io_uring_rsrc_update u;
	struct val *f = val_new_array(c, 3);
	unsigned n = 0;

	memcpy(&u, elem, sizeof(u));
	val_set_uint(&f[n++], "offset", u.offset);
	if (u.resv)
		val_set_hex(&f[n++], "resv", u.resv);
	if (arg)
		val_set_fd(c, &f[n++], "data", (int)u.data);
	else
		val_set_hex(&f[n++], "data", u.data);
	val_set_struct(item, NULL, f, n, false);
}

/* the data array of IORING_REGISTER_FILES2/BUFFERS2 and their updates:
 * descriptors or iovecs */
static void rsrc_data_val(struct dctx *c, struct val *v, uint64_t addr, uint32_t nr, bool bufs)
{
	if (bufs)
		decode_iovec(c, v, "data", addr, nr, -1, true);
	else
		decode_array(c, v, "data", addr, nr, sizeof(int), fd_item, NULL);
}

static void rsrc_register_val(struct dctx *c, struct val *v, uint64_t addr, bool bufs)
{
	struct io_uring_rsrc_register r;
	struct val *f;
	unsigned n = 0;

	if (!tread(c, addr, &r, sizeof(r))) {
		val_set_ptr(v, v->name, addr);
		return;
	}
	f = val_new_array(c, 5);
	val_set_uint(&f[n++], "nr", r.nr);
	val_set_flags(&f[n++], "flags", r.flags, uring_rsrc_flags, NULL);
	if (r.resv2)
		val_set_hex(&f[n++], "resv2", r.resv2);
	rsrc_data_val(c, &f[n++], r.data, r.nr, bufs);
	decode_array(c, &f[n++], "tags", r.tags, r.nr, sizeof(uint64_t), u64_item, NULL);
	val_set_struct(v, v->name, f, n, false);
}

static void rsrc_update2_val(struct dctx *c, struct val *v, uint64_t addr, bool bufs)
{
	struct io_uring_rsrc_update2 u;
	struct val *f;
	unsigned n = 0;

	if (!tread(c, addr, &u, sizeof(u))) {
		val_set_ptr(v, v->name, addr);
		return;
	}
	f = val_new_array(c, 6);
	val_set_uint(&f[n++], "offset", u.offset);
	if (u.resv)
		val_set_hex(&f[n++], "resv", u.resv);
	rsrc_data_val(c, &f[n++], u.data, u.nr, bufs);
	decode_array(c, &f[n++], "tags", u.tags, u.nr, sizeof(uint64_t), u64_item, NULL);
	val_set_uint(&f[n++], "nr", u.nr);
	if (u.resv2)
		val_set_hex(&f[n++], "resv2", u.resv2);
	val_set_struct(v, v->name, f, n, false);
}

static void buf_reg_val(struct dctx *c, struct val *v, uint64_t addr)
{
	struct io_uring_buf_reg r;
	struct val *f;
	unsigned n = 0;

	if (!tread(c, addr, &r, sizeof(r))) {
		val_set_ptr(v, v->name, addr);
		return;
	}
	f = val_new_array(c, 5);
	val_set_ptr(&f[n++], "ring_addr", r.ring_addr);
	val_set_uint(&f[n++], "ring_entries", r.ring_entries);
	val_set_uint(&f[n++], "bgid", r.bgid);
	if (r.pad)
		val_set_hex(&f[n++], "pad", r.pad);
	if (resv_words(c, &f[n], "resv", r.resv, 3, sizeof(r.resv[0])))
		n++;
	val_set_struct(v, v->name, f, n, false);
}

/* io_uring_register(fd, opcode, arg, nr_args) */
SYS_FUNC(io_uring_register)
{
	uint32_t op = (uint32_t)ev->karg[1];
	uint32_t nr = (uint32_t)ev->karg[3];
	uint64_t addr = ev->karg[2];
	struct val *v;

	if (exiting) {
		v = arg_slot(ctx, ev, 2);
		if (op == IORING_REGISTER_PROBE) {
			/* the probe the kernel filled (nothing was shown at entry) */
			if (ev->err || !probe_val(ctx, v, addr, nr, NULL))
				val_set_ptr(v, v->name, addr);
			v->flags |= VF_EXIT;
		} else {
			/* IORING_REGISTER_IOWQ_MAX_WORKERS: the old limits */
			struct val a = *v, b;

			if (ev->err)
				val_set_ptr(&b, NULL, addr);
			else
				max_workers_val(ctx, &b, NULL, addr, nr);
			val_set_changed(ctx, v, v->name, &a, &b);
		}
		arg_uint(ctx, ev, 3);
		return RVAL_DONE;
	}
	arg_fd(ctx, ev, 0);
	arg_enum(ctx, ev, 1, uring_register_opcodes);
	v = arg_slot(ctx, ev, 2);
	switch (op) {
	case IORING_REGISTER_BUFFERS:
		decode_iovec(ctx, v, v->name, addr, nr, -1, true);
		break;
	case IORING_REGISTER_FILES:
	case IORING_REGISTER_EVENTFD:
	case IORING_REGISTER_EVENTFD_ASYNC:
		decode_array(ctx, v, v->name, addr, nr, sizeof(int), fd_item, NULL);
		break;
	case IORING_REGISTER_FILES_UPDATE:
		files_update_val(ctx, v, addr, nr);
		break;
	case IORING_REGISTER_PROBE: {
		bool zero = false;

		if (!probe_val(ctx, v, addr, nr, &zero)) {
			val_set_ptr(v, v->name, addr);
			break;
		}
		if (!zero)
			break;
		/* an empty probe is the kernel's to fill: shown at exit */
		arg_count(ev, 4);
		return RVAL_EXIT;
	}
	case IORING_REGISTER_RESTRICTIONS:
		decode_array(ctx, v, v->name, addr, nr, sizeof(struct io_uring_restriction),
			     restriction_item, NULL);
		break;
	case IORING_REGISTER_FILES2:
	case IORING_REGISTER_BUFFERS2:
		if (nr != sizeof(struct io_uring_rsrc_register))
			val_set_ptr(v, v->name, addr);
		else
			rsrc_register_val(ctx, v, addr, op == IORING_REGISTER_BUFFERS2);
		break;
	case IORING_REGISTER_FILES_UPDATE2:
	case IORING_REGISTER_BUFFERS_UPDATE:
		if (nr != sizeof(struct io_uring_rsrc_update2))
			val_set_ptr(v, v->name, addr);
		else
			rsrc_update2_val(ctx, v, addr, op == IORING_REGISTER_BUFFERS_UPDATE);
		break;
	case IORING_REGISTER_IOWQ_AFF:
		if (addr && !nr)
			val_set_text(ctx, v, v->name, "[]");
		else
			decode_cpuset(ctx, v, v->name, addr, nr);
		break;
	case IORING_REGISTER_IOWQ_MAX_WORKERS:
		max_workers_val(ctx, v, v->name, addr, nr);
		/* the kernel writes back the old limits: shown after " => "
		 * when the whole array could be read */
		if (nr && nr <= 1024 && v->kind == V_ARRAY &&
		    tread(ctx, addr, arena_alloc(ctx->arena, nr * 4u), nr * 4u)) {
			arg_count(ev, 4);
			return RVAL_EXIT;
		}
		break;
	case IORING_REGISTER_RING_FDS:
	case IORING_UNREGISTER_RING_FDS:
		decode_array(ctx, v, v->name, addr, nr, sizeof(struct io_uring_rsrc_update),
			     rsrc_update_item, op == IORING_REGISTER_RING_FDS ? v : NULL);
		break;
	case IORING_REGISTER_PBUF_RING:
	case IORING_UNREGISTER_PBUF_RING:
		buf_reg_val(ctx, v, addr);
		break;
	default:
		val_set_ptr(v, v->name, addr);
		break;
	}
	arg_uint(ctx, ev, 3);
	return RVAL_DONE;
}
