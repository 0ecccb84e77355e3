/*
 * userfaultfd ioctls (type 0xaa, linux/userfaultfd.h): the API handshake,
 * ranges registered and woken, copies and zero pages.  Structures whose
 * results the kernel writes back are shown open at entry and completed at
 * exit ("{dst=..., mode=0, copy=4096}").
 */
#include <linux/userfaultfd.h>

#include "sys/ioc.h"
#include "xlat/uffd_api_features.h"
#include "xlat/uffd_api_flags.h"
#include "xlat/uffd_copy_flags.h"
#include "xlat/uffd_register_ioctl_flags.h"
#include "xlat/uffd_register_mode_flags.h"
#include "xlat/uffd_zeropage_flags.h"

#include "util/banned.h"

static void range(struct dctx *c, struct val *v, const char *name, const struct uffdio_range *r)
{
	struct val *f = val_new_array(c, 2);

	FLD_X(&f[0], *r, start);
	FLD_X(&f[1], *r, len);
	val_set_struct(v, name, f, 2, false);
}

/* The entry part's structure, to be completed at exit (room for one more
 * item), or NULL when the entry showed an address. */
static struct val *open_struct(struct ioc *io)
{
	return ioc_reopen(io);
}

static int api(struct ioc *io)
{
	struct dctx *c = io->c;
	struct uffdio_api ua;
	struct val *v, *f;

	if (!io->exiting) {
		v = ioc_val(io);
		if (!ioc_read(io, v, io->arg, &ua, sizeof(ua)))
			return IOC_DONE;
		f = val_new_array(c, 3);
		FLD_X(&f[0], ua, api);
		val_set_flags(&f[1], "features", ua.features, uffd_api_features, NULL);
		val_set_struct(v, v->name, f, 2, false);
		v->flags |= VF_OPEN;
		return IOC_EXIT;
	}
	v = open_struct(io);
	if (!v || io->ev->err || !tread(c, io->arg, &ua, sizeof(ua)))
		return IOC_DONE;
	f = v->c.items;
	if (f[1].kind != V_FLAGS || f[1].x.v != ua.features) {
		/* features=A => features=B */
		struct val *ch = val_new_array(c, 3);

		ch[0] = f[1];
		ch[0].name = NULL;
		val_set_text(c, &ch[1], NULL, " => features=");
		val_set_flags(&ch[2], NULL, ua.features, uffd_api_features, NULL);
		val_set_op(&f[1], "features", ch, 3, NULL);
	}
	val_set_flags(&f[2], "ioctls", ua.ioctls, uffd_api_flags, NULL);
	v->c.n = 3;
	return IOC_DONE;
}

static int copy(struct ioc *io)
{
	struct uffdio_copy uc;
	struct val *v, *f;

	if (!io->exiting) {
		v = ioc_val(io);
		if (!ioc_read(io, v, io->arg, &uc, sizeof(uc)))
			return IOC_DONE;
		f = val_new_array(io->c, 5);
		FLD_X(&f[0], uc, dst);
		FLD_X(&f[1], uc, src);
		FLD_X(&f[2], uc, len);
		val_set_flags(&f[3], "mode", uc.mode, uffd_copy_flags, NULL);
		val_set_struct(v, v->name, f, 4, false);
		v->flags |= VF_OPEN;
		return IOC_EXIT;
	}
	v = open_struct(io);
	if (v && !io->ev->err && tread(io->c, io->arg, &uc, sizeof(uc))) {
		FLD_X(&v->c.items[4], uc, copy);
		v->c.n = 5;
	}
	return IOC_DONE;
}

static int reg(struct ioc *io)
{
	struct uffdio_register ur;
	struct val *v, *f;

	if (!io->exiting) {
		v = ioc_val(io);
		if (!ioc_read(io, v, io->arg, &ur, sizeof(ur)))
			return IOC_DONE;
		f = val_new_array(io->c, 3);
		range(io->c, &f[0], "range", &ur.range);
		val_set_flags(&f[1], "mode", ur.mode, uffd_register_mode_flags, NULL);
		val_set_struct(v, v->name, f, 2, false);
		v->flags |= VF_OPEN;
		return IOC_EXIT;
	}
	v = open_struct(io);
	if (v && !io->ev->err && tread(io->c, io->arg, &ur, sizeof(ur))) {
		val_set_flags(&v->c.items[2], "ioctls", ur.ioctls, uffd_register_ioctl_flags,
			      NULL);
		v->c.n = 3;
	}
	return IOC_DONE;
}

static int zeropage(struct ioc *io)
{
	struct uffdio_zeropage uz;
	struct val *v, *f;

	if (!io->exiting) {
		v = ioc_val(io);
		if (!ioc_read(io, v, io->arg, &uz, sizeof(uz)))
			return IOC_DONE;
		f = val_new_array(io->c, 3);
		range(io->c, &f[0], "range", &uz.range);
		val_set_flags(&f[1], "mode", uz.mode, uffd_zeropage_flags, NULL);
		val_set_struct(v, v->name, f, 2, false);
		v->flags |= VF_OPEN;
		return IOC_EXIT;
	}
	v = open_struct(io);
	if (v && !io->ev->err && tread(io->c, io->arg, &uz, sizeof(uz))) {
		FLD_X(&v->c.items[2], uz, zeropage);
		v->c.n = 3;
	}
	return IOC_DONE;
}

int ioctl_uffdio(struct ioc *io)
{
	struct uffdio_range r;
	struct val *v;

	switch (io->code) {
	case UFFDIO_API:
		return api(io);
	case UFFDIO_COPY:
		return copy(io);
	case UFFDIO_REGISTER:
		return reg(io);
	case UFFDIO_UNREGISTER: case UFFDIO_WAKE:
		v = ioc_val(io);
		if (ioc_read(io, v, io->arg, &r, sizeof(r)))
			range(io->c, v, v->name, &r);
		return IOC_DONE;
	case UFFDIO_ZEROPAGE:
		return zeropage(io);
	}
	return IOC_DEFAULT;
}
