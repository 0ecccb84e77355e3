#!/bin/sh
# Block device ioctls (tests/progs/ioctl_block): numbers taken and returned,
# BLKPG's partition, BLKTRACESETUP, with -v, -X raw/verbose, failing calls
# (EBADF: output arguments show as addresses) and injected successes
# (their output structures decoded), against strace.
. "$TOP/tests/lib.sh"
. "$TOP/tests/lib_ioctl.sh"
need_strace
prog=$(need_prog ioctl_block) || exit 1
ioctl_compare "$prog"
