#!/bin/sh
# Socket ioctls (tests/progs/ioctl_sock): SIOCGIFCONF and interface
# requests on a real socket (lo), ifreq fields, bridges, owner ints, with
# -v, failing calls and injected successes, against strace.  Not with -X
# raw/verbose: a sockaddr inside (ifr_addr) does not show strace's -X forms
# yet (src/sys/net.c; see the man page).
. "$TOP/tests/lib.sh"
need_strace
prog=$(need_prog ioctl_sock) || exit 1
rc=0
for opts in "" "-v" "-e inject=ioctl:retval=0" "-v -e inject=ioctl:retval=0"; do
	# shellcheck disable=SC2086
	compare_with_strace -e trace=ioctl $opts -- "$prog" || rc=1
done
# -X verbose of the requests without a sockaddr (the bridge ifindex)
MASK_EXTRA='/ifr_addr=|ifr_netmask=|ifr_hwaddr=|SIOCGIFCONF|0x8912/d' \
	compare_with_strace -X verbose -e trace=ioctl -- "$prog" || rc=1
exit $rc
