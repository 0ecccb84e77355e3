#!/bin/sh
# -v (no abbreviation): whole stat/statx structures with their date comments
# and getdents64's entries, against strace -v (tests/progs/fileops).  Inode
# numbers, times and directory offsets change from run to run: masked.
. "$TOP/tests/lib.sh"
need_strace
prog=$(need_prog fileops) || exit 1
MASK_EXTRA='s/(st_ino|stx_ino|d_ino|d_off|_time|_nsec|tv_sec|tv_nsec|st_atime|st_mtime|st_ctime)=[0-9]+/\1=N/g; s|/\* [0-9]{4}-[0-9]{2}-[0-9]{2}T[^*]*\*/|/* DATE */|g'
compare_with_strace -v -e trace=stat,lstat,fstat,newfstatat,statx,getdents64,openat -- "$prog"
