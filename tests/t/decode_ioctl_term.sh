#!/bin/sh
# Terminal ioctls (tests/progs/ioctl_term): termios, termios2, termio,
# winsize, modem lines (TIOCM*), int and no-argument requests, with -v,
# -X raw/verbose, failing calls and injected successes, against strace.
. "$TOP/tests/lib.sh"
. "$TOP/tests/lib_ioctl.sh"
need_strace
prog=$(need_prog ioctl_term) || exit 1
ioctl_compare "$prog"
