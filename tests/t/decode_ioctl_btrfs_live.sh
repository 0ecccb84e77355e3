#!/bin/sh
# btrfs ioctls that succeed (tests/progs/ioctl_btrfs_live) on a small btrfs
# file system made with mkfs.btrfs and mounted read-only on a loop device,
# against strace, as is, with -v and -X verbose.  Skipped where mkfs.btrfs,
# the btrfs module or loop mounts are missing (t/decode_ioctl_btrfs covers
# the decoding without them).
. "$TOP/tests/lib.sh"
need_strace
prog=$(need_prog ioctl_btrfs_live) || exit 1
command -v mkfs.btrfs >/dev/null 2>&1 || skip "mkfs.btrfs is not installed"
[ "$(id -u)" = 0 ] || skip "mounting a loop device needs root"
dir=$(mktemp -d "$TMPDIR/btrfs.XXXXXX") || fail "mktemp"
trap 'umount "$dir/mnt" 2>/dev/null; rm -rf "$dir"' EXIT
truncate -s 128M "$dir/img" || fail "truncate"
mkfs.btrfs -q "$dir/img" >/dev/null 2>&1 || skip "mkfs.btrfs failed"
mkdir "$dir/mnt"
mount -o loop,ro "$dir/img" "$dir/mnt" 2>/dev/null || skip "cannot mount a btrfs loop device"
rc=0
for opts in "" "-v" "-X verbose"; do
	# shellcheck disable=SC2086
	compare_with_strace -e trace=ioctl $opts -- "$prog" "$dir/mnt" || rc=1
done
exit $rc
