/*
 * 'X' ioctls of linux/fs.h: FITRIM's range, the fsxattr structure,
 * FIFREEZE and FITHAW.
 */
#include <linux/fs.h>

#include "sys/ioc.h"
#include "xlat/fs_xflags.h"

#include "util/banned.h"

static int fstrim(struct ioc *io)
{
	struct val *v = ioc_val(io), *f;
	struct fstrim_range r;

	if (ioc_read(io, v, io->arg, &r, sizeof(r))) {
		f = val_new_array(io->c, 3);
		FLD_X(&f[0], r, start);
		FLD_U(&f[1], r, len);
		FLD_U(&f[2], r, minlen);
		val_set_struct(v, v->name, f, 3, false);
	}
	return IOC_DONE;
}

static int fsxattr(struct ioc *io, bool get)
{
	struct val *v = ioc_val(io), *f;
	struct fsxattr x;
	unsigned n = 0;

	if (ioc_read(io, v, io->arg, &x, sizeof(x))) {
		f = val_new_array(io->c, 5);
		val_set_flags(&f[n++], "fsx_xflags", x.fsx_xflags, fs_xflags, NULL);
		FLD_U(&f[n++], x, fsx_extsize);
		if (get)
			FLD_U(&f[n++], x, fsx_nextents);
		FLD_X(&f[n++], x, fsx_projid);
		FLD_U(&f[n++], x, fsx_cowextsize);
		val_set_struct(v, v->name, f, n, false);
	}
	return IOC_DONE;
}

int ioctl_fs_x(struct ioc *io)
{
	switch (io->code) {
	case FITRIM:
		return fstrim(io);
	case FS_IOC_FSGETXATTR:
		if (!io->exiting)
			return IOC_EXIT;
		return fsxattr(io, true);
	case FS_IOC_FSSETXATTR:
		return fsxattr(io, false);
	case FIFREEZE: case FITHAW:
		return ioc_none(io);
	}
	return IOC_DEFAULT;
}
