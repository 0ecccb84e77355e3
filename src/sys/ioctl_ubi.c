/*
 * UBI ioctls ('o' for the control and device nodes, 'O' for volumes;
 * mtd/ubi-user.h): volume creation, resizing, renaming, attaching and the
 * logical eraseblock requests.
 */
#include <mtd/ubi-user.h>

#include "sys/ioc.h"
#include "xlat/ubi_data_types.h"
#include "xlat/ubi_volume_flags.h"
#include "xlat/ubi_volume_props.h"
#include "xlat/ubi_volume_types.h"

#include "util/banned.h"

/* name="..." of name_len + 1 bytes at most (the array's size) */
static void name_field(struct dctx *c, struct val *v, const char *name, int16_t len, size_t size)
{
	int n = len < 0 ? 0 : len > (int)size - 1 ? (int)size - 1 : len;

	ioc_set_cstring(c, v, "name", name, (size_t)n + 1);
}

/* " => [N]" at the exit of a successful call (the number the kernel
 * chose) */
static void result_int(struct ioc *io)
{
	struct val after = { .name = NULL };

	if (io->ev->err)
		return;
	ioc_num(io, &after, io->arg, sizeof(int), NUM_D);
	ioc_set_after(io, &after);
}

static int mkvol(struct ioc *io)
{
	struct dctx *c = io->c;
	struct ubi_mkvol_req m;
	struct val *v, *f;

	if (io->exiting) {
		result_int(io);
		return IOC_DONE;
	}
	v = ioc_val(io);
	if (!ioc_read(io, v, io->arg, &m, sizeof(m)))
		return IOC_DONE;
	f = val_new_array(c, 7);
	FLD_D(&f[0], m, vol_id);
	FLD_D(&f[1], m, alignment);
	FLD_D(&f[2], m, bytes);
	val_set_enum(&f[3], "vol_type", (uint8_t)m.vol_type, ubi_volume_types);
	val_set_flags(&f[4], "flags", (uint8_t)m.flags, ubi_volume_flags, NULL);
	FLD_D(&f[5], m, name_len);
	name_field(c, &f[6], m.name, m.name_len, sizeof(m.name));
	val_set_struct(v, v->name, f, 7, false);
	return IOC_EXIT;
}

static int attach(struct ioc *io)
{
	struct ubi_attach_req a;
	struct val *v, *f;

	if (io->exiting) {
		result_int(io);
		return IOC_DONE;
	}
	v = ioc_val(io);
	if (!ioc_read(io, v, io->arg, &a, sizeof(a)))
		return IOC_DONE;
	f = val_new_array(io->c, 4);
	FLD_D(&f[0], a, ubi_num);
	FLD_D(&f[1], a, mtd_num);
	FLD_D(&f[2], a, vid_hdr_offset);
	FLD_D(&f[3], a, max_beb_per1024);
	val_set_struct(v, v->name, f, 4, false);
	return IOC_EXIT;
}

static int rsvol(struct ioc *io)
{
	struct ubi_rsvol_req r;
	struct val *v = ioc_val(io), *f;

	if (ioc_read(io, v, io->arg, &r, sizeof(r))) {
		f = val_new_array(io->c, 2);
		FLD_D(&f[0], r, bytes);
		FLD_D(&f[1], r, vol_id);
		val_set_struct(v, v->name, f, 2, false);
	}
	return IOC_DONE;
}

static int rnvol(struct ioc *io)
{
	struct dctx *c = io->c;
	struct ubi_rnvol_req r;
	struct val *v = ioc_val(io), *f, *it;
	unsigned n;

	if (!ioc_read(io, v, io->arg, &r, sizeof(r)))
		return IOC_DONE;
	n = r.count < 0 ? 0 : (unsigned)r.count;
	if (n > UBI_MAX_RNVOL)
		n = UBI_MAX_RNVOL;
	it = val_new_array(c, n);
	for (unsigned i = 0; i < n; i++) {
		struct val *g = val_new_array(c, 3);

		FLD_D(&g[0], r.ents[i], vol_id);
		FLD_D(&g[1], r.ents[i], name_len);
		name_field(c, &g[2], r.ents[i].name, r.ents[i].name_len, sizeof(r.ents[i].name));
		val_set_struct(&it[i], NULL, g, 3, false);
	}
	f = val_new_array(c, 2);
	FLD_D(&f[0], r, count);
	val_set_local_array(c, &f[1], "ents", it, n);
	val_set_struct(v, v->name, f, 2, false);
	return IOC_DONE;
}

static int ebch(struct ioc *io)
{
	struct ubi_leb_change_req l;
	struct val *v = ioc_val(io), *f;

	if (ioc_read(io, v, io->arg, &l, sizeof(l))) {
		f = val_new_array(io->c, 3);
		FLD_D(&f[0], l, lnum);
		FLD_D(&f[1], l, bytes);
		val_set_enum(&f[2], "dtype", l.dtype, ubi_data_types);
		val_set_struct(v, v->name, f, 3, false);
	}
	return IOC_DONE;
}

static int ebmap(struct ioc *io)
{
	struct ubi_map_req m;
	struct val *v = ioc_val(io), *f;

	if (ioc_read(io, v, io->arg, &m, sizeof(m))) {
		f = val_new_array(io->c, 2);
		FLD_D(&f[0], m, lnum);
		val_set_enum(&f[1], "dtype", m.dtype, ubi_data_types);
		val_set_struct(v, v->name, f, 2, false);
	}
	return IOC_DONE;
}

static int setvolprop(struct ioc *io)
{
	struct ubi_set_vol_prop_req p;
	struct val *v = ioc_val(io), *f;

	if (ioc_read(io, v, io->arg, &p, sizeof(p))) {
		f = val_new_array(io->c, 2);
		val_set_enum(&f[0], "property", p.property, ubi_volume_props);
		FLD_X(&f[1], p, value);
		val_set_struct(v, v->name, f, 2, false);
	}
	return IOC_DONE;
}

int ioctl_ubi(struct ioc *io)
{
	switch (io->code) {
	case UBI_IOCATT:
		return attach(io);
	case UBI_IOCEBCH:
		return ebch(io);
	case UBI_IOCEBMAP:
		return ebmap(io);
	case UBI_IOCMKVOL:
		return mkvol(io);
	case UBI_IOCRNVOL:
		return rnvol(io);
	case UBI_IOCRSVOL:
		return rsvol(io);
	case UBI_IOCSETVOLPROP:
		return setvolprop(io);
	case UBI_IOCVOLUP:
		return ioc_arg_num(io, 8, NUM_D);
	case UBI_IOCDET: case UBI_IOCEBER: case UBI_IOCEBISMAP: case UBI_IOCEBUNMAP:
	case UBI_IOCRMVOL: case UBI_IOCRPEB: case UBI_IOCSPEB:
		return ioc_arg_num(io, sizeof(int), NUM_D);
	case UBI_IOCVOLCRBLK: case UBI_IOCVOLRMBLK:
		return ioc_none(io);
	}
	return IOC_DEFAULT;
}
