#!/bin/sh
# GPIO ioctls (tests/progs/ioctl_gpio): v1 chip/line information, handle
# and event requests, values and configs, v2 line information, requests
# (attributes, padding), configs and values, with -v, -X raw/verbose,
# failing calls and injected successes, against strace.
. "$TOP/tests/lib.sh"
. "$TOP/tests/lib_ioctl.sh"
need_strace
prog=$(need_prog ioctl_gpio) || exit 1
ioctl_compare "$prog"
