#!/bin/sh
# Input device ioctls (tests/progs/ioctl_evdev): parametrised request names,
# bit sets, absinfo, keycodes, force feedback effects and slots, with -v,
# -X raw/verbose, failing calls and injected successes (16: the bit sets
# and names read 16 bytes), against strace.
. "$TOP/tests/lib.sh"
. "$TOP/tests/lib_ioctl.sh"
need_strace
prog=$(need_prog ioctl_evdev) || exit 1
IOCTL_RETVALS="0 16" ioctl_compare "$prog"
