#!/bin/sh
# Small ioctl families, one program each (tests/progs/ioctl_{inotify,nsfs,
# watchdog,nbd}): their arguments, with -v, -X raw/verbose, failing calls
# and injected successes, against strace; nsfs also on a real namespace
# file (the descriptor returned, with -y its path).
. "$TOP/tests/lib.sh"
. "$TOP/tests/lib_ioctl.sh"
need_strace
rc=0
for f in inotify nsfs watchdog nbd; do
	prog=$(need_prog ioctl_$f) || exit 1
	ioctl_compare "$prog" || rc=1
done
compare_with_strace -y -e trace=ioctl -- "$(need_prog ioctl_nsfs)" || rc=1
exit $rc
