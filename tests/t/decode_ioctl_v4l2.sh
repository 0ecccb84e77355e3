#!/bin/sh
# Video4Linux2 ioctls (tests/progs/ioctl_v4l2): formats of every buffer
# type, buffers, parameters, controls, tuners, crops, enumerations, with
# -v, -X raw/verbose, failing calls and injected successes, against strace.
. "$TOP/tests/lib.sh"
. "$TOP/tests/lib_ioctl.sh"
need_strace
prog=$(need_prog ioctl_v4l2) || exit 1
ioctl_compare "$prog"
