#!/bin/sh
# Device mapper ioctls (tests/progs/ioctl_dm): headers and payloads in and
# out, bad versions, sizes and offsets, with -v, -X raw/verbose, failing
# calls and injected successes, against strace.
. "$TOP/tests/lib.sh"
. "$TOP/tests/lib_ioctl.sh"
need_strace
prog=$(need_prog ioctl_dm) || exit 1
ioctl_compare "$prog"
