#!/bin/sh
# seccomp notification ioctls (tests/progs/ioctl_seccomp): notifications
# (syscall names of both personalities), responses, ids, added descriptors, with -v, -X raw/verbose,
# failing calls and injected successes, against strace.
. "$TOP/tests/lib.sh"
. "$TOP/tests/lib_ioctl.sh"
need_strace
prog=$(need_prog ioctl_seccomp) || exit 1
ioctl_compare "$prog"
