#!/bin/sh
# PTP clock ioctls (tests/progs/ioctl_ptp): capabilities, requests, pin
# functions, offsets (dates as comments), with -v, -X raw/verbose,
# failing calls and injected successes, against strace.
. "$TOP/tests/lib.sh"
. "$TOP/tests/lib_ioctl.sh"
need_strace
prog=$(need_prog ioctl_ptp) || exit 1
ioctl_compare "$prog"
