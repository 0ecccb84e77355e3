/*
 * ATA disk ioctls (type 0x03, linux/hdreg.h): geometry, HDIO_DRIVE_CMD's
 * command and reply, the settings read and written as longs.
 */
#include <errno.h>
#include <string.h>
#include <linux/hdreg.h>

#include "sys/ioc.h"
#include "xlat/hdio_busstates.h"
#include "xlat/hdio_drive_cmds.h"
#include "xlat/hdio_ide_nice.h"

#include "util/banned.h"

static int getgeo(struct ioc *io)
{
	struct val *v, *f;
	struct hd_geometry g;

	if (!io->exiting)
		return IOC_EXIT;
	v = ioc_val(io);
	if (ioc_read(io, v, io->arg, &g, sizeof(g))) {
		f = val_new_array(io->c, 4);
		FLD_U(&f[0], g, heads);
		FLD_U(&f[1], g, sectors);
		FLD_U(&f[2], g, cylinders);
		FLD_U(&f[3], g, start);
		val_set_struct(v, v->name, f, 4, false);
	}
	return IOC_DONE;
}

/* {command=..., sector_count=N} => {status=..., nsector=N, buf="\x.."} */
static int drive_cmd(struct ioc *io)
{
	struct dctx *c = io->c;
	struct { uint8_t command, sector_number, feature, sector_count; } h;
	struct { uint8_t status, error, nsector, sector_count; } r;
	struct val *v, *f, after;
	unsigned n = 0;

	if (!io->exiting) {
		v = ioc_val(io);
		if (!ioc_read(io, v, io->arg, &h, sizeof(h)))
			return IOC_DONE;
		f = val_new_array(c, 4);
		val_set_enum(&f[0], "command", h.command, hdio_drive_cmds);
		FLD_U(&f[1], h, sector_number);
		FLD_U(&f[2], h, feature);
		FLD_U(&f[3], h, sector_count);
		val_set_struct(v, v->name, f, 4, false);
		return IOC_EXIT;
	}
	if ((io->ev->err && io->ev->err != EIO) || !tread(c, io->arg, &r, sizeof(r)))
		return IOC_DONE;
	f = val_new_array(c, 4);
	FLD_X(&f[n++], r, status);
	FLD_U(&f[n++], r, error);
	FLD_U(&f[n++], r, nsector);
	if (r.sector_count) {
		val_read_buf(c, &f[n], "buf", io->arg + 4, (uint64_t)r.sector_count * 512);
		if (f[n].kind == V_STR)
			f[n].flags |= VF_HEXSTR;
		n++;
	}
	val_set_struct(&after, NULL, f, n, false);
	ioc_set_after(io, &after);
	return IOC_DONE;
}

static void hex32(struct dctx *c, struct val *item, const void *elem, void *arg)
{
	uint32_t x;

	memcpy(&x, elem, sizeof(x));
	val_set_hex(item, NULL, x);
}

/* a kernel long behind a pointer at exit: [N], a name or flags */
static int get_long(struct ioc *io, const struct xlat *xl, bool flags)
{
	struct val *v, in;
	unsigned long x;

	if (!io->exiting)
		return IOC_EXIT;
	v = ioc_val(io);
	if (!ioc_read(io, v, io->arg, &x, sizeof(x)))
		return IOC_DONE;
	if (!xl)
		val_set_uint(&in, NULL, x);
	else if (flags)
		val_set_flags(&in, NULL, x, xl, NULL);
	else
		val_set_enum(&in, NULL, x, xl);
	val_set_boxed(io->c, v, v->name, &in);
	return IOC_DONE;
}

int ioctl_hdio(struct ioc *io)
{
	struct val *v;

	switch (io->code) {
	case HDIO_GETGEO:
		return getgeo(io);
	case HDIO_DRIVE_CMD:
		return drive_cmd(io);
	case HDIO_DRIVE_RESET: case HDIO_SCAN_HWIF:
		v = ioc_val(io);
		decode_array(io->c, v, v->name, io->arg, 3, sizeof(uint32_t), hex32, NULL);
		return IOC_DONE;
	case HDIO_GET_32BIT: case HDIO_GET_ACOUSTIC: case HDIO_GET_ADDRESS: case HDIO_GET_DMA:
	case HDIO_GET_KEEPSETTINGS: case HDIO_GET_MULTCOUNT: case HDIO_GET_NOWERR:
	case HDIO_GET_UNMASKINTR: case HDIO_GET_WCACHE:
		return get_long(io, NULL, false);
	case HDIO_GET_BUSSTATE:
		return get_long(io, hdio_busstates, false);
	case HDIO_GET_NICE:
		return get_long(io, hdio_ide_nice, true);
	case HDIO_GET_IDENTITY: case HDIO_OBSOLETE_IDENTITY:
		if (!io->exiting)
			return IOC_EXIT;
		v = ioc_val(io);
		if (io->ev->err)
			val_set_ptr(v, v->name, io->arg);
		else
			val_read_buf(io->c, v, v->name, io->arg,
				     io->code == HDIO_GET_IDENTITY ? 512 : 142);
		return IOC_DONE;
	case HDIO_SET_32BIT: case HDIO_SET_ACOUSTIC: case HDIO_SET_ADDRESS: case HDIO_SET_DMA:
	case HDIO_SET_KEEPSETTINGS: case HDIO_SET_MULTCOUNT: case HDIO_SET_NOWERR:
	case HDIO_SET_PIO_MODE: case HDIO_SET_UNMASKINTR: case HDIO_SET_WCACHE:
	case HDIO_UNREGISTER_HWIF:
		return ioc_arg_val(io, NUM_U);
	case HDIO_SET_BUSSTATE:
		v = ioc_val(io);
		val_set_enum(v, v->name, io->arg, hdio_busstates);
		return IOC_DONE;
	case HDIO_SET_NICE:
		v = ioc_val(io);
		val_set_flags(v, v->name, io->arg, hdio_ide_nice, NULL);
		return IOC_DONE;
	}
	return IOC_DEFAULT;
}
