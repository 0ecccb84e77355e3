#!/bin/sh
# btrfs ioctls (tests/progs/ioctl_btrfs): subvolume, balance, scrub,
# device, feature, quota, search, lookup, send and receive arguments,
# filled, short, NULL and unreadable, with -v, -X raw/verbose, failing
# calls and injected successes (the " => " parts), against strace.  The
# calls are made on a bad descriptor: no btrfs file system is needed.
. "$TOP/tests/lib.sh"
. "$TOP/tests/lib_ioctl.sh"
need_strace
prog=$(need_prog ioctl_btrfs) || exit 1
rc=0
ioctl_compare "$prog" || rc=1
# BTRFS_IOC_TREE_SEARCH_V2 failing with EOVERFLOW shows the size it needs
for opts in "" "-v" "-X verbose"; do
	# shellcheck disable=SC2086
	compare_with_strace -e trace=ioctl $opts -e inject=ioctl:error=EOVERFLOW -- "$prog" || rc=1
done
# a short string limit cuts names, paths and the search headers (strace
# shows limit + 1 of them)
compare_with_strace -e trace=ioctl -s 1 -v -e inject=ioctl:retval=0 -- "$prog" || rc=1
exit $rc
