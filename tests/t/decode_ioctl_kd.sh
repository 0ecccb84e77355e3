#!/bin/sh
# Console and keyboard ioctls (tests/progs/ioctl_kd): sounds, LEDs, modes,
# screen maps, keyboard entries and strings, accents, fonts, colour maps,
# with -v, -X raw/verbose, failing calls and injected successes, against
# strace.
. "$TOP/tests/lib.sh"
. "$TOP/tests/lib_ioctl.sh"
need_strace
prog=$(need_prog ioctl_kd) || exit 1
ioctl_compare "$prog"
