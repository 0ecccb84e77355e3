#!/bin/sh
# TEE ioctls (tests/progs/ioctl_tee): sessions, invocations, supplicant
# requests and their parameters, results after a successful call, shared
# memory, the version, with -v, -X raw/verbose, -y, failing calls and
# injected successes, against strace.
. "$TOP/tests/lib.sh"
. "$TOP/tests/lib_ioctl.sh"
need_strace
prog=$(need_prog ioctl_tee) || exit 1
rc=0
ioctl_compare "$prog" || rc=1
compare_with_strace -y -e trace=ioctl -e inject=ioctl:retval=0 -- "$prog" || rc=1
exit $rc
