#!/bin/sh
# statfs/fstatfs, xattrs, fadvise64, copy_file_range, sendfile, utimensat,
# flock, fallocate, memfd_create, eventfd2, mknodat, close_range, inotify_*
# against strace
# (tests/progs/fsops).  Free block/inode counts change between runs: masked.
. "$TOP/tests/lib.sh"
need_strace
prog=$(need_prog fsops) || exit 1
MASK_EXTRA='s/(f_bfree|f_bavail|f_ffree)=[0-9]+/\1=N/g'
calls=openat,write,close,unlink,lseek,statfs,fstatfs,setxattr,lsetxattr,fsetxattr
calls=$calls,getxattr,lgetxattr,fgetxattr,listxattr,llistxattr,flistxattr
calls=$calls,removexattr,lremovexattr,fremovexattr,fadvise64,copy_file_range
calls=$calls,sendfile,utimensat,flock,fallocate,memfd_create,eventfd2,mknodat
calls=$calls,close_range,inotify_init,inotify_init1,inotify_add_watch,inotify_rm_watch
rc=0
compare_with_strace -e trace=$calls -- "$prog" || rc=1
compare_with_strace -y -s 4 -e trace=$calls -- "$prog" || rc=1
# -X raw and -X verbose: every value in strace's other two styles
for x in "-X raw" "-X verbose"; do
	# shellcheck disable=SC2086
	compare_with_strace $x -e trace=$calls -- "$prog" || rc=1
done
exit $rc
