#!/bin/sh
# Real-time clock ioctls (tests/progs/ioctl_rtc): times, alarms, PLL, voltage
# flags, parameters, with -v, -X raw/verbose,
# failing calls and injected successes, against strace.
. "$TOP/tests/lib.sh"
. "$TOP/tests/lib_ioctl.sh"
need_strace
prog=$(need_prog ioctl_rtc) || exit 1
ioctl_compare "$prog"
