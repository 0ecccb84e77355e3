/*
 * Decoders of data transfer calls: read/write, the positioned and vector
 * variants, lseek, getrandom, fsync.  Buffers that the kernel fills are read
 * at exit, up to the returned length.
 */
#include <stdint.h>
#include <string.h>
#include <sys/uio.h>

#include "sys/decode.h"
#include "sys/pidns.h"
#include "xlat/getrandom_flags.h"
#include "xlat/rwf_flags.h"
#include "xlat/splice_flags.h"
#include "xlat/sync_file_range_flags.h"
#include "xlat/whence_codes.h"

#include "util/banned.h"

/* Buffer i filled by the kernel: retval bytes, or its address on failure. */
static void out_buf(struct dctx *c, struct event *ev, unsigned i)
{
	if (ev->err)
		arg_ptr(c, ev, i);
	else
		arg_buf(c, ev, i, (uint64_t)ev->retval);
}

SYS_FUNC(read)
{
	if (!exiting) {
		arg_fd(ctx, ev, 0);
		arg_count(ev, 3);
		return RVAL_EXIT;
	}
	out_buf(ctx, ev, 1);
	arg_uint(ctx, ev, 2);
	return RVAL_DONE;
}

SYS_FUNC(write)
{
	arg_fd(ctx, ev, 0);
	arg_buf(ctx, ev, 1, ev->karg[2]);
	arg_uint(ctx, ev, 2);
	return RVAL_DONE;
}

SYS_FUNC(pread64)
{
	if (!exiting) {
		arg_fd(ctx, ev, 0);
		arg_count(ev, 4);
		return RVAL_EXIT;
	}
	out_buf(ctx, ev, 1);
	arg_uint(ctx, ev, 2);
	arg_long(ctx, ev, 3);
	return RVAL_DONE;
}

SYS_FUNC(pwrite64)
{
	SYS_FUNC_NAME(write)(ctx, ev, exiting);
	arg_long(ctx, ev, 3);
	return RVAL_DONE;
}

static void iov_base_addr(struct dctx *c, struct val *v, uint64_t base, uint64_t shown, void *arg)
{
	val_set_ptr(v, "iov_base", base);
}

static void iov_base_buf(struct dctx *c, struct val *v, uint64_t base, uint64_t shown, void *arg)
{
	val_read_buf(c, v, "iov_base", base, shown);
}

struct iov_walk {
	int64_t data_size;   /* bytes left to show, or -1 for whole iov_lens */
	iov_base_fn fn;
	void *arg;
};

static void iov_item(struct dctx *c, struct val *item, const void *elem, void *arg)
{
	struct iov_walk *w = arg;
	struct iovec iov;
	struct val *f = val_new_array(c, 2);
	uint64_t shown;

	memcpy(&iov, elem, sizeof(iov));
	shown = iov.iov_len;
	if (w->data_size >= 0) {
		if (shown > (uint64_t)w->data_size)
			shown = (uint64_t)w->data_size;
		w->data_size -= (int64_t)shown;
	}
	w->fn(c, &f[0], (uint64_t)(uintptr_t)iov.iov_base, shown, w->arg);
	val_set_uint(&f[1], "iov_len", iov.iov_len);
	val_set_struct(item, NULL, f, 2, false);
}

void decode_iovec_with(struct dctx *c, struct val *v, const char *name, uint64_t addr,
		       uint64_t cnt, int64_t data_size, iov_base_fn fn, void *arg)
{
	struct iov_walk w = { data_size, fn, arg };

	decode_array(c, v, name, addr, cnt, sizeof(struct iovec), iov_item, &w);
}

void decode_iovec(struct dctx *c, struct val *v, const char *name, uint64_t addr,
		  uint64_t cnt, int64_t data_size, bool addr_only)
{
	decode_iovec_with(c, v, name, addr, cnt, data_size,
			  addr_only ? iov_base_addr : iov_base_buf, NULL);
}

/* The iovec argument 1 of readv-like calls at exit, of writev-like at entry. */
static void arg_iov(struct dctx *c, struct event *ev, bool out)
{
	struct val *v = arg_slot(c, ev, 1);

	if (out)
		decode_iovec(c, v, v->name, ev->karg[1], ev->karg[2],
			     ev->err ? 0 : ev->retval, ev->err != 0);
	else
		decode_iovec(c, v, v->name, ev->karg[1], ev->karg[2], -1, false);
	if (out)
		v->flags |= VF_EXIT;
}

SYS_FUNC(readv)
{
	if (!exiting) {
		arg_fd(ctx, ev, 0);
		arg_count(ev, 3);
		return RVAL_EXIT;
	}
	arg_iov(ctx, ev, true);
	arg_uint(ctx, ev, 2);
	return RVAL_DONE;
}

SYS_FUNC(writev)
{
	arg_fd(ctx, ev, 0);
	arg_iov(ctx, ev, false);
	arg_uint(ctx, ev, 2);
	return RVAL_DONE;
}

SYS_FUNC(preadv)
{
	if (!exiting) {
		arg_fd(ctx, ev, 0);
		arg_count(ev, 4);
		return RVAL_EXIT;
	}
	arg_iov(ctx, ev, true);
	arg_uint(ctx, ev, 2);
	arg_long(ctx, ev, 3);
	return RVAL_DONE;
}

SYS_FUNC(pwritev)
{
	SYS_FUNC_NAME(writev)(ctx, ev, exiting);
	arg_long(ctx, ev, 3);
	return RVAL_DONE;
}

/* preadv2/pwritev2's flags: the kernel takes the offset in two registers
 * (pos_l, pos_h) and the flags in the sixth; strace shows one offset and
 * the flags as the fifth argument. */
static void rwf_arg(struct dctx *c, struct event *ev)
{
	struct val *v = arg_slot(c, ev, 4);

	val_set_flags(v, "flags", ev->karg[5], rwf_flags, NULL);
	if (ev->type == EV_SYSCALL)
		v->flags |= VF_EXIT;
	ev->nargs = 5;
}

/* preadv2(fd, iov, iovcnt, offset, RWF_* flags): the buffers at exit */
SYS_FUNC(preadv2)
{
	if (!exiting) {
		arg_fd(ctx, ev, 0);
		arg_count(ev, 5);
		return RVAL_EXIT;
	}
	arg_iov(ctx, ev, true);
	arg_uint(ctx, ev, 2);
	arg_long(ctx, ev, 3);
	rwf_arg(ctx, ev);
	for (unsigned i = 2; i < 5; i++)
		ev->args[i].flags |= VF_EXIT;
	return RVAL_DONE;
}

SYS_FUNC(pwritev2)
{
	SYS_FUNC_NAME(writev)(ctx, ev, exiting);
	arg_long(ctx, ev, 3);
	rwf_arg(ctx, ev);
	return RVAL_DONE;
}

/* vmsplice(fd, iov, nr_segs, SPLICE_F_* flags) */
SYS_FUNC(vmsplice)
{
	arg_fd(ctx, ev, 0);
	arg_iov(ctx, ev, false);
	arg_uint(ctx, ev, 2);
	arg_flags(ctx, ev, 3, splice_flags, NULL);
	return RVAL_DONE;
}

SYS_FUNC(readahead)
{
	arg_fd(ctx, ev, 0);
	arg_long(ctx, ev, 1);
	arg_uint(ctx, ev, 2);
	return RVAL_DONE;
}

SYS_FUNC(sync_file_range)
{
	arg_fd(ctx, ev, 0);
	arg_long(ctx, ev, 1);
	arg_long(ctx, ev, 2);
	arg_flags(ctx, ev, 3, sync_file_range_flags, NULL);
	return RVAL_DONE;
}

SYS_FUNC(lseek)
{
	arg_fd(ctx, ev, 0);
	arg_long(ctx, ev, 1);
	arg_enum(ctx, ev, 2, whence_codes);
	return RVAL_DONE;
}

SYS_FUNC(getrandom)
{
	if (!exiting) {
		arg_count(ev, 3);
		return RVAL_EXIT;
	}
	out_buf(ctx, ev, 0);
	ev->args[0].flags |= VF_HEXSTR;
	arg_uint(ctx, ev, 1);
	arg_flags(ctx, ev, 2, getrandom_flags, NULL);
	return RVAL_DONE;
}

SYS_FUNC(fsync)
{
	arg_fd(ctx, ev, 0);
	return RVAL_DONE;
}

SYS_FUNC(fdatasync) { return SYS_FUNC_NAME(fsync)(ctx, ev, exiting); }
SYS_FUNC(syncfs) { return SYS_FUNC_NAME(fsync)(ctx, ev, exiting); }

/* process_vm_readv(pid, local_iov, liovcnt, remote_iov, riovcnt, flags):
 * the local buffers at exit with what was read, the remote ones by address */
SYS_FUNC(process_vm_readv)
{
	struct val *v;

	if (!exiting) {
		arg_pid(ctx, ev, 0, PT_TGID);
		arg_count(ev, 6);
		return RVAL_EXIT;
	}
	v = arg_slot(ctx, ev, 1);
	decode_iovec(ctx, v, v->name, ev->karg[1], ev->karg[2], ev->err ? 0 : ev->retval,
		     ev->err != 0);
	v->flags |= VF_EXIT;
	arg_uint(ctx, ev, 2);
	v = arg_slot(ctx, ev, 3);
	decode_iovec(ctx, v, v->name, ev->karg[3], ev->karg[4], -1, true);
	v->flags |= VF_EXIT;
	arg_uint(ctx, ev, 4);
	arg_uint(ctx, ev, 5);
	return RVAL_DONE;
}

SYS_FUNC(process_vm_writev)
{
	struct val *v;

	arg_pid(ctx, ev, 0, PT_TGID);
	v = arg_slot(ctx, ev, 1);
	decode_iovec(ctx, v, v->name, ev->karg[1], ev->karg[2], -1, false);
	arg_uint(ctx, ev, 2);
	v = arg_slot(ctx, ev, 3);
	decode_iovec(ctx, v, v->name, ev->karg[3], ev->karg[4], -1, true);
	arg_uint(ctx, ev, 4);
	arg_uint(ctx, ev, 5);
	return RVAL_DONE;
}
