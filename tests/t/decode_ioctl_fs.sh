#!/bin/sh
# File system ioctls of linux/fs.h (tests/progs/ioctl_fs): inode flags,
# FS_IOC_FIEMAP's map, FITRIM, fsxattr, FICLONE*, FIDEDUPERANGE and labels,
# with -v, -X raw/verbose, failing calls and injected successes, against
# strace.
. "$TOP/tests/lib.sh"
. "$TOP/tests/lib_ioctl.sh"
need_strace
prog=$(need_prog ioctl_fs) || exit 1
ioctl_compare "$prog"
