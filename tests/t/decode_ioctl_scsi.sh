#!/bin/sh
# SCSI generic ioctls (tests/progs/ioctl_scsi): SG_IO v3 and v4 requests
# and responses, device ids, request tables, resets and settings, with -v,
# -X raw/verbose, failing calls and injected successes, against strace.
. "$TOP/tests/lib.sh"
. "$TOP/tests/lib_ioctl.sh"
need_strace
prog=$(need_prog ioctl_scsi) || exit 1
ioctl_compare "$prog"
