#!/bin/sh
# SCSI generic ioctls (tests/progs/ioctl_scsi): SG_IO v3 and v4 requests
# and responses, device ids, request tables, resets and settings, with -v,
# -X raw/verbose, failing calls and injected successes, against strace;
# an SG_IO line cut by another thread's ("{... <unfinished ...>" and
# "<... ioctl resumed>, status=...}").
. "$TOP/tests/lib.sh"
. "$TOP/tests/lib_ioctl.sh"
need_strace
prog=$(need_prog ioctl_scsi) || exit 1
rc=0
ioctl_compare "$prog" || rc=1
for inj in retval=0 error=EBADF; do
	compare_with_strace -f -e trace=ioctl,getppid \
		-e inject=ioctl:$inj:delay_enter=400000 -- "$prog" thread || rc=1
done
exit $rc
