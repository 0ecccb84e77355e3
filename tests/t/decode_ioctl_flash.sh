#!/bin/sh
# Flash memory ioctls, MTD and UBI (tests/progs/ioctl_{mtd,ubi}): erase,
# OOB and write requests, device, region and ECC information, volume
# requests, with -v, -X raw/verbose, failing calls and injected successes,
# against strace.
. "$TOP/tests/lib.sh"
. "$TOP/tests/lib_ioctl.sh"
need_strace
rc=0
for f in mtd ubi; do
	prog=$(need_prog ioctl_$f) || exit 1
	ioctl_compare "$prog" || rc=1
done
exit $rc
