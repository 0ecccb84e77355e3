/*
 * File system ioctls of linux/fs.h ('f', 'X' and 0x94: inode flags,
 * FS_IOC_FIEMAP, FITRIM, fsxattr, FICLONE*, FIDEDUPERANGE, labels) with
 * filled, short and bad arguments on a bad descriptor, for
 * tests/t/decode_ioctl_fs.sh.
 */
#include <linux/fiemap.h>
#include <linux/fs.h>
#include <stdlib.h>

#include "ioctl_test.h"

int main(void)
{
	static const unsigned long flags[] = {
		FS_IOC_GETFLAGS, FS_IOC32_GETFLAGS, FS_IOC_SETFLAGS, FS_IOC32_SETFLAGS,
	};
	unsigned *fl = TAIL(unsigned);
	size_t fmsz = sizeof(struct fiemap) + 3 * sizeof(struct fiemap_extent);
	struct fiemap *fm = tail_alloc(fmsz);
	struct fstrim_range *tr = TAIL(struct fstrim_range);
	struct fsxattr *xa = TAIL(struct fsxattr);
	struct file_clone_range *cr = TAIL(struct file_clone_range);
	size_t ddsz = sizeof(struct file_dedupe_range) + 4 * sizeof(struct file_dedupe_range_info);
	struct file_dedupe_range *dd = tail_alloc(ddsz);
	char *label = tail_alloc(FSLABEL_MAX);

	*fl = FS_APPEND_FL | FS_NOATIME_FL | FS_INDEX_FL | 0x01000000;
	for (unsigned i = 0; i < sizeof(flags) / sizeof(flags[0]); i++) {
		IOC(flags[i], fl);
		IOC(flags[i], (char *)fl + 1);
	}
	*fl = 0x01000000;
	IOC(FS_IOC_SETFLAGS, fl);

	fill(fm, fmsz, 0x10);
	fm->fm_flags = FIEMAP_FLAG_SYNC | 0x80;
	fm->fm_extent_count = 3;
	fm->fm_mapped_extents = 2;
	fm->fm_extents[0].fe_flags = FIEMAP_EXTENT_LAST | FIEMAP_EXTENT_SHARED;
	fm->fm_extents[1].fe_flags = 0x40000000;
	IOC(FS_IOC_FIEMAP, fm);
	fm->fm_mapped_extents = 5;  /* runs into the unmapped page */
	IOC(FS_IOC_FIEMAP, fm);
	IOC(FS_IOC_FIEMAP, (char *)fm + fmsz - 8);
	IOC(FS_IOC_FIEMAP, NULL);

	fill(tr, sizeof(*tr), 0x20);
	IOC(FITRIM, tr);
	IOC(FITRIM, (char *)tr + 1);
	fill(xa, sizeof(*xa), 0x30);
	xa->fsx_xflags = FS_XFLAG_APPEND | FS_XFLAG_DAX | 0x20000;
	IOC(FS_IOC_FSGETXATTR, xa);
	IOC(FS_IOC_FSSETXATTR, xa);
	IOC(FS_IOC_FSSETXATTR, NULL);
	IOC(FIFREEZE, 0);
	IOC(FITHAW, 0);

	IOC(FICLONE, 0xfffffffe);
	fill(cr, sizeof(*cr), 0x40);
	cr->src_fd = 0;
	IOC(FICLONERANGE, cr);
	IOC(FICLONERANGE, (char *)cr + 4);
	fill(dd, ddsz, 0x50);
	dd->dest_count = 4;
	for (int i = 0; i < 4; i++)
		dd->info[i].dest_fd = i;
	IOC(FIDEDUPERANGE, dd);
	dd->dest_count = 2;
	IOC(FIDEDUPERANGE, dd);
	dd->dest_count = 9;
	IOC(FIDEDUPERANGE, dd);
	IOC(FIDEDUPERANGE, BAD_PTR);

	memset(label, 'L', FSLABEL_MAX);
	IOC(FS_IOC_SETFSLABEL, label);
	label[3] = 0;
	IOC(FS_IOC_SETFSLABEL, label);
	IOC(FS_IOC_GETFSLABEL, label);
	IOC(FS_IOC_GETFSLABEL, label + 1);
	return 0;
}
