#!/bin/sh
# Loop device ioctls (tests/progs/ioctl_loop): loop_info, loop_info64,
# loop_config, descriptors and numbers, with -v, -X raw/verbose,
# failing calls and injected successes, against strace.
. "$TOP/tests/lib.sh"
. "$TOP/tests/lib_ioctl.sh"
need_strace
prog=$(need_prog ioctl_loop) || exit 1
ioctl_compare "$prog"
