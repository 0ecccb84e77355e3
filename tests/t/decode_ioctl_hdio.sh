#!/bin/sh
# ATA disk ioctls (tests/progs/ioctl_hdio): geometry, HDIO_DRIVE_CMD's
# command and reply, identity, the long settings, with -v, -X raw/verbose,
# failing calls and injected successes, against strace.
. "$TOP/tests/lib.sh"
. "$TOP/tests/lib_ioctl.sh"
need_strace
prog=$(need_prog ioctl_hdio) || exit 1
ioctl_compare "$prog"
