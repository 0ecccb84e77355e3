#!/bin/sh
# ioctl request names, _IOC(...) forms of unknown requests and the argument
# forms (none, NULL, hex) against strace (tests/progs/ioctls).
. "$TOP/tests/lib.sh"
need_strace
prog=$(need_prog ioctls) || exit 1
compare_with_strace -e trace=ioctl -- "$prog"
