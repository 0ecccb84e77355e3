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
# (a file, whose paths BTRFS_IOC_INO_PATHS finds)
mkdir "$dir/root" && echo data >"$dir/root/f" || fail "cannot make the file system's file"
mkfs.btrfs -q -r "$dir/root" "$dir/img" >/dev/null 2>&1 || skip "mkfs.btrfs failed"
mkdir "$dir/mnt"
mount -o loop,ro "$dir/img" "$dir/mnt" 2>/dev/null || skip "cannot mount a btrfs loop device"
rc=0
for opts in "" "-v" "-X verbose"; do
	# shellcheck disable=SC2086
	compare_with_strace -e trace=ioctl $opts -- "$prog" "$dir/mnt" || rc=1
	# (-v shows the paths)
	[ "$opts" != "-v" ] || grep -qF 'val=["f"]' "$RENACER_OUT" ||
		{ echo "no path of the file from BTRFS_IOC_INO_PATHS"; rc=1; }
done
# the eBPF recorder (where it runs) copies the result buffer the argument
# points to, whatever RENACER_BACKEND asks
"$RENACER" --backend ebpf -v -e trace=ioctl -o "$dir/ebpf.txt" -- "$prog" "$dir/mnt" \
	>/dev/null 2>"$dir/ebpf.err" </dev/null
erc=$?
if [ $erc = 0 ]; then
	grep -qF 'val=["f"]' "$dir/ebpf.txt" ||
		{ echo "eBPF recorder: no path of the file from BTRFS_IOC_INO_PATHS"; rc=1; }
elif [ $erc != 6 ]; then
	echo "--backend ebpf: exit $erc: $(head -c 300 "$dir/ebpf.err")"
	rc=1
fi
exit $rc
