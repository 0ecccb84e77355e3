/*
 * Block device ioctls (type 0x12, linux/fs.h, linux/blkpg.h,
 * linux/blkzoned.h, linux/blktrace_api.h): the numbers they take or
 * return, BLKPG's partition request and BLKTRACESETUP's setup.
 */
#include <linux/blkpg.h>
#include <linux/blktrace_api.h>
#include <linux/blkzoned.h>
#include <linux/fs.h>

#include "sys/ioc.h"
#include "sys/pidns.h"
#include "xlat/blkpg_ops.h"

#include "util/banned.h"

static int blkpg(struct ioc *io)
{
	struct dctx *c = io->c;
	struct val *v = ioc_val(io), *f, *pf;
	struct blkpg_ioctl_arg a;
	struct blkpg_partition p;

	if (!ioc_read(io, v, io->arg, &a, sizeof(a)))
		return IOC_DONE;
	f = val_new_array(c, 4);
	val_set_enum(&f[0], "op", (uint32_t)a.op, blkpg_ops);
	FLD_D(&f[1], a, flags);
	FLD_D(&f[2], a, datalen);
	f[3].name = "data";
	if (ioc_read(io, &f[3], (uint64_t)(uintptr_t)a.data, &p, sizeof(p))) {
		pf = val_new_array(c, 5);
		FLD_D(&pf[0], p, start);
		FLD_D(&pf[1], p, length);
		FLD_D(&pf[2], p, pno);
		ioc_set_cstring(c, &pf[3], "devname", p.devname, sizeof(p.devname));
		ioc_set_cstring(c, &pf[4], "volname", p.volname, sizeof(p.volname));
		val_set_struct(&f[3], "data", pf, 5, false);
	}
	val_set_struct(v, v->name, f, 4, false);
	return IOC_DONE;
}

/* {act_mask=..., pid=N at entry, then ", name=..."} at exit */
static int trace_setup(struct ioc *io)
{
	struct blk_user_trace_setup b;
	struct val *v, *f;

	if (!io->exiting) {
		v = ioc_val(io);
		if (!ioc_read(io, v, io->arg, &b, sizeof(b)))
			return IOC_DONE;
		f = val_new_array(io->c, 7);
		FLD_U(&f[0], b, act_mask);
		FLD_U(&f[1], b, buf_size);
		FLD_U(&f[2], b, buf_nr);
		FLD_U(&f[3], b, start_lba);
		FLD_U(&f[4], b, end_lba);
		val_set_pid(io->c, &f[5], "pid", (int)b.pid, PT_TGID);
		val_set_struct(v, v->name, f, 6, false);
		v->flags |= VF_OPEN;
		return IOC_EXIT;
	}
	v = ioc_reopen(io);
	if (v && !io->ev->err && tread(io->c, io->arg, &b, sizeof(b))) {
		ioc_set_cstring(io->c, &v->c.items[6], "name", b.name, sizeof(b.name));
		v->c.n = 7;
	}
	return IOC_DONE;
}

int ioctl_block(struct ioc *io)
{
	switch (io->code) {
	case BLKRASET: case BLKFRASET:
		return ioc_arg_val(io, NUM_U);
	case BLKSECTGET: case BLKROTATIONAL:
		if (!io->exiting)
			return IOC_EXIT;
		return ioc_arg_num(io, 2, NUM_U);
	case BLKROGET: case BLKBSZGET: case BLKSSZGET: case BLKALIGNOFF:
		if (!io->exiting)
			return IOC_EXIT;
		/* fall through */
	case BLKROSET: case BLKBSZSET:
		return ioc_arg_num(io, 4, NUM_D);
	case BLKPBSZGET: case BLKIOMIN: case BLKIOOPT: case BLKDISCARDZEROES:
	case BLKGETZONESZ: case BLKGETNRZONES:
		if (!io->exiting)
			return IOC_EXIT;
		return ioc_arg_num(io, 4, NUM_U);
	case BLKRAGET: case BLKFRAGET:
		if (!io->exiting)
			return IOC_EXIT;
		return ioc_arg_num(io, sizeof(long), NUM_D);
	case BLKGETSIZE:
		if (!io->exiting)
			return IOC_EXIT;
		return ioc_arg_num(io, sizeof(long), NUM_U);
	case BLKGETSIZE64: case BLKGETDISKSEQ:
		if (!io->exiting)
			return IOC_EXIT;
		return ioc_arg_num(io, 8, NUM_U);
	case BLKDISCARD: case BLKSECDISCARD: case BLKZEROOUT: {
		struct val *v = ioc_val(io);
		uint64_t pair[2];

		if (ioc_read(io, v, io->arg, pair, sizeof(pair)))
			ioc_set_int_array(io->c, v, v->name, pair, 2, 8, NUM_U);
		return IOC_DONE;
	}
	case BLKPG:
		return blkpg(io);
	case BLKTRACESETUP:
		return trace_setup(io);
	case BLKRRPART: case BLKFLSBUF: case BLKTRACESTART: case BLKTRACESTOP:
	case BLKTRACETEARDOWN:
		return ioc_none(io);
	}
	return IOC_DEFAULT;
}
