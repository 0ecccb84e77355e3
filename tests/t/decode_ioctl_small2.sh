#!/bin/sh
# More small ioctl families, one program each (tests/progs/ioctl_{random,
# counter,lirc}): their arguments, with -v, -X raw/verbose, failing calls
# and injected successes, against strace.
. "$TOP/tests/lib.sh"
. "$TOP/tests/lib_ioctl.sh"
need_strace
rc=0
for f in random counter lirc; do
	prog=$(need_prog ioctl_$f) || exit 1
	ioctl_compare "$prog" || rc=1
done
exit $rc
