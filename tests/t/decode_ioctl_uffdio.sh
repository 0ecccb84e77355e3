#!/bin/sh
# userfaultfd ioctls (tests/progs/ioctl_uffdio): the API handshake, copies,
# registrations, ranges, zero pages, with -v, -X raw/verbose,
# failing calls and injected successes, against strace.
. "$TOP/tests/lib.sh"
. "$TOP/tests/lib_ioctl.sh"
need_strace
prog=$(need_prog ioctl_uffdio) || exit 1
ioctl_compare "$prog"
