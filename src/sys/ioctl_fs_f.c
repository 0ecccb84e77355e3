/*
 * 'f' ioctls of linux/fs.h: inode flags (FS_IOC_GETFLAGS ...) and
 * FS_IOC_FIEMAP's extent map.
 */
#include <stddef.h>
#include <linux/fiemap.h>
#include <linux/fs.h>

#include "sys/ioc.h"
#include "xlat/fiemap_extent_flags.h"
#include "xlat/fiemap_flags.h"
#include "xlat/fs_ioc_flags.h"

#include "util/banned.h"

static void extent(struct dctx *c, struct val *item, const void *elem, void *arg)
{
	const struct fiemap_extent *fe = elem;
	struct val *f = val_new_array(c, 4);

	FLD_U(&f[0], *fe, fe_logical);
	FLD_U(&f[1], *fe, fe_physical);
	FLD_U(&f[2], *fe, fe_length);
	val_set_flags(&f[3], "fe_flags", fe->fe_flags, fiemap_extent_flags, NULL);
	val_set_struct(item, NULL, f, 4, false);
}

/* {fm_start=..., fm_extent_count=N} => {fm_flags=..., fm_mapped_extents=N, ...} */
static int fiemap(struct ioc *io)
{
	struct dctx *c = io->c;
	struct fiemap a;
	struct val *v, *f;

	if (!io->exiting) {
		v = ioc_val(io);
		if (!ioc_read(io, v, io->arg, &a, sizeof(a)))
			return IOC_DONE;
		f = val_new_array(c, 4);
		FLD_U(&f[0], a, fm_start);
		FLD_U(&f[1], a, fm_length);
		val_set_flags(&f[2], "fm_flags", a.fm_flags, fiemap_flags, NULL);
		FLD_U(&f[3], a, fm_extent_count);
		val_set_struct(v, v->name, f, 4, false);
		return IOC_EXIT;
	}
	if (io->ev->err)
		return IOC_DONE;
	struct val after = { .name = NULL };

	if (ioc_read(io, &after, io->arg, &a, sizeof(a))) {
		f = val_new_array(c, 3);
		val_set_flags(&f[0], "fm_flags", a.fm_flags, fiemap_flags, NULL);
		FLD_U(&f[1], a, fm_mapped_extents);
		if (ioc_abbrev(io)) {
			val_set_struct(&after, NULL, f, 2, true);
		} else {
			decode_array(c, &f[2], "fm_extents",
				     io->arg + offsetof(struct fiemap, fm_extents),
				     a.fm_mapped_extents, sizeof(struct fiemap_extent), extent,
				     NULL);
			val_set_struct(&after, NULL, f, 3, false);
		}
	}
	ioc_set_after(io, &after);
	return IOC_DONE;
}

static int flags(struct ioc *io)
{
	struct val *v = ioc_val(io), in;
	unsigned int x;

	if (ioc_read(io, v, io->arg, &x, sizeof(x))) {
		val_set_flags(&in, NULL, x, fs_ioc_flags, NULL);
		val_set_boxed(io->c, v, v->name, &in);
	}
	return IOC_DONE;
}

int ioctl_fs_f(struct ioc *io)
{
	switch (io->code) {
	case FS_IOC_FIEMAP:
		return fiemap(io);
	case FS_IOC_GETFLAGS: case FS_IOC32_GETFLAGS:
		if (!io->exiting)
			return IOC_EXIT;
		/* fall through */
	case FS_IOC_SETFLAGS: case FS_IOC32_SETFLAGS:
		return flags(io);
	}
	return IOC_DEFAULT;
}
