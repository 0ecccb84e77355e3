/*
 * MTD (raw flash) ioctls ('M', mtd/mtd-abi.h): erase regions, OOB buffers,
 * write requests, OTP, device information, ECC layouts and statistics.
 */
#include <mtd/mtd-abi.h>

#include "sys/ioc.h"
#include "xlat/mtd_file_mode_options.h"
#include "xlat/mtd_flags_options.h"
#include "xlat/mtd_mode_options.h"
#include "xlat/mtd_nandecc_options.h"
#include "xlat/mtd_otp_options.h"
#include "xlat/mtd_type_options.h"

#include "util/banned.h"

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

/* {start=0x.., length=0x..} of erase_info_user(64) */
static int start_length(struct ioc *io, bool wide)
{
	struct val *v = ioc_val(io), *f;
	struct erase_info_user64 e64;
	struct erase_info_user e;

	if (wide ? !ioc_read(io, v, io->arg, &e64, sizeof(e64))
		 : !ioc_read(io, v, io->arg, &e, sizeof(e)))
		return IOC_DONE;
	f = val_new_array(io->c, 2);
	if (wide) {
		FLD_X(&f[0], e64, start);
		FLD_X(&f[1], e64, length);
	} else {
		FLD_X(&f[0], e, start);
		FLD_X(&f[1], e, length);
	}
	val_set_struct(v, v->name, f, 2, false);
	return IOC_DONE;
}

static int oob_buf(struct ioc *io, bool wide)
{
	struct val *v = ioc_val(io), *f;
	struct mtd_oob_buf64 b64;
	struct mtd_oob_buf b;

	if (wide ? !ioc_read(io, v, io->arg, &b64, sizeof(b64))
		 : !ioc_read(io, v, io->arg, &b, sizeof(b)))
		return IOC_DONE;
	f = val_new_array(io->c, 3);
	if (wide) {
		FLD_X(&f[0], b64, start);
		FLD_X(&f[1], b64, length);
		val_set_ptr(&f[2], "usr_ptr", b64.usr_ptr);
	} else {
		FLD_X(&f[0], b, start);
		FLD_X(&f[1], b, length);
		val_set_ptr(&f[2], "ptr", (uint64_t)(uintptr_t)b.ptr);
	}
	val_set_struct(v, v->name, f, 3, false);
	return IOC_DONE;
}

static int write_req(struct ioc *io)
{
	struct val *v = ioc_val(io), *f;
	struct mtd_write_req r;

	if (ioc_read(io, v, io->arg, &r, sizeof(r))) {
		f = val_new_array(io->c, 6);
		FLD_X(&f[0], r, start);
		FLD_X(&f[1], r, len);
		FLD_X(&f[2], r, ooblen);
		val_set_ptr(&f[3], "usr_data", r.usr_data);
		val_set_ptr(&f[4], "usr_oob", r.usr_oob);
		val_set_enum(&f[5], "mode", r.mode, mtd_mode_options);
		val_set_struct(v, v->name, f, 6, false);
	}
	return IOC_DONE;
}

static int otp_info(struct ioc *io)
{
	struct val *v = ioc_val(io), *f;
	struct otp_info o;

	if (ioc_read(io, v, io->arg, &o, sizeof(o))) {
		f = val_new_array(io->c, 3);
		FLD_X(&f[0], o, start);
		FLD_X(&f[1], o, length);
		FLD_U(&f[2], o, locked);
		val_set_struct(v, v->name, f, 3, false);
	}
	return IOC_DONE;
}

static int info_user(struct ioc *io)
{
	struct val *v = ioc_val(io), *f;
	struct mtd_info_user m;

	if (ioc_read(io, v, io->arg, &m, sizeof(m))) {
		f = val_new_array(io->c, 7);
		val_set_enum(&f[0], "type", m.type, mtd_type_options);
		val_set_flags(&f[1], "flags", m.flags, mtd_flags_options, NULL);
		FLD_X(&f[2], m, size);
		FLD_X(&f[3], m, erasesize);
		FLD_X(&f[4], m, writesize);
		FLD_X(&f[5], m, oobsize);
		FLD_X(&f[6], m, padding);
		val_set_struct(v, v->name, f, 7, false);
	}
	return IOC_DONE;
}

static int oobinfo(struct ioc *io)
{
	struct dctx *c = io->c;
	struct val *v = ioc_val(io), *f, *pairs;
	struct nand_oobinfo n;

	if (!ioc_read(io, v, io->arg, &n, sizeof(n)))
		return IOC_DONE;
	f = val_new_array(c, 4);
	val_set_enum(&f[0], "useecc", n.useecc, mtd_nandecc_options);
	FLD_X(&f[1], n, eccbytes);
	pairs = val_new_array(c, NELEM(n.oobfree));
	for (unsigned i = 0; i < NELEM(n.oobfree); i++)
		ioc_set_local_array(io, &pairs[i], NULL, n.oobfree[i], 2, sizeof(int), NUM_X);
	val_set_local_array(c, &f[2], "oobfree", pairs, NELEM(n.oobfree));
	ioc_set_local_array(io, &f[3], "eccpos", n.eccpos, NELEM(n.eccpos), sizeof(n.eccpos[0]),
			    NUM_X);
	val_set_struct(v, v->name, f, 4, false);
	return IOC_DONE;
}

static int ecclayout(struct ioc *io)
{
	struct dctx *c = io->c;
	struct val *v = ioc_val(io), *f, *fr;
	struct nand_ecclayout_user l;

	if (!ioc_read(io, v, io->arg, &l, sizeof(l)))
		return IOC_DONE;
	f = val_new_array(c, 4);
	FLD_X(&f[0], l, eccbytes);
	ioc_set_local_array(io, &f[1], "eccpos", l.eccpos, NELEM(l.eccpos), sizeof(l.eccpos[0]),
			    NUM_X);
	FLD_X(&f[2], l, oobavail);
	fr = val_new_array(c, NELEM(l.oobfree));
	for (unsigned i = 0; i < NELEM(l.oobfree); i++) {
		struct val *g = val_new_array(c, 2);

		FLD_X(&g[0], l.oobfree[i], offset);
		FLD_X(&g[1], l.oobfree[i], length);
		val_set_struct(&fr[i], NULL, g, 2, false);
	}
	val_set_local_array(c, &f[3], "oobfree", fr, NELEM(l.oobfree));
	val_set_struct(v, v->name, f, 4, false);
	return IOC_DONE;
}

static int ecc_stats(struct ioc *io)
{
	struct val *v = ioc_val(io), *f;
	struct mtd_ecc_stats s;

	if (ioc_read(io, v, io->arg, &s, sizeof(s))) {
		f = val_new_array(io->c, 4);
		FLD_X(&f[0], s, corrected);
		FLD_X(&f[1], s, failed);
		FLD_X(&f[2], s, badblocks);
		FLD_X(&f[3], s, bbtblocks);
		val_set_struct(v, v->name, f, 4, false);
	}
	return IOC_DONE;
}

static int region_info(struct ioc *io)
{
	struct region_info_user r;
	struct val *st;

	if (!io->exiting) {
		st = ioc_val(io);
		if (!ioc_read(io, st, io->arg, &r, sizeof(r)))
			return IOC_DONE;
		st = ioc_open_struct(io, 4);
		FLD_X(ioc_next(st), r, regionindex);
		return IOC_EXIT;
	}
	st = ioc_reopen(io);
	if (st && !io->ev->err && tread(io->c, io->arg, &r, sizeof(r))) {
		FLD_X(ioc_next(st), r, offset);
		FLD_X(ioc_next(st), r, erasesize);
		FLD_X(ioc_next(st), r, numblocks);
	}
	return IOC_DONE;
}

/* the requests whose structure shows at exit */
static int at_exit(struct ioc *io, int (*fn)(struct ioc *))
{
	return io->exiting ? fn(io) : IOC_EXIT;
}

int ioctl_mtd(struct ioc *io)
{
	struct val *v, in;
	unsigned int x;

	switch (io->code) {
	case MEMERASE: case MEMLOCK: case MEMUNLOCK: case MEMISLOCKED:
		return start_length(io, false);
	case MEMERASE64:
		return start_length(io, true);
	case MEMWRITEOOB: case MEMREADOOB:
		return oob_buf(io, false);
	case MEMWRITEOOB64: case MEMREADOOB64:
		return oob_buf(io, true);
	case MEMWRITE:
		return write_req(io);
	case OTPGETREGIONINFO:
		return at_exit(io, otp_info);
	case OTPLOCK:
		return otp_info(io);
	case OTPSELECT:
		v = ioc_val(io);
		if (ioc_read(io, v, io->arg, &x, sizeof(x))) {
			val_set_enum(&in, NULL, x, mtd_otp_options);
			val_set_boxed(io->c, v, v->name, &in);
		}
		return IOC_DONE;
	case MTDFILEMODE:
		v = ioc_val(io);
		val_set_enum(v, v->name, io->arg, mtd_file_mode_options);
		return IOC_DONE;
	case MEMGETBADBLOCK: case MEMSETBADBLOCK:
		return ioc_arg_num(io, 8, NUM_U);
	case MEMGETINFO:
		return at_exit(io, info_user);
	case MEMGETOOBSEL:
		return at_exit(io, oobinfo);
	case ECCGETLAYOUT:
		return at_exit(io, ecclayout);
	case ECCGETSTATS:
		return at_exit(io, ecc_stats);
	case OTPGETREGIONCOUNT:
		if (!io->exiting)
			return IOC_EXIT;
		return ioc_arg_num(io, sizeof(int), NUM_U);
	case MEMGETREGIONCOUNT:
		if (!io->exiting)
			return IOC_EXIT;
		return ioc_arg_num(io, sizeof(int), NUM_D);
	case MEMGETREGIONINFO:
		return region_info(io);
	}
	return IOC_DEFAULT;
}
