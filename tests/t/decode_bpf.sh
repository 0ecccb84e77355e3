#!/bin/sh
# bpf(2) against strace: tests/progs/bpfops makes each command strace 6.1
# decodes; as root an array map, a socket filter program and the map's
# BPF_OBJ_GET_INFO_BY_FD succeed, the rest fail, which still shows how
# their attributes decode.  "size" passes sizes below and past the union
# (extra nonzero bytes: "..." and with -v extra_data=), NULL and unreadable
# attrs, an unknown command, and every command at every size with all its
# bytes 0x10.  "insns" an eBPF program of every instruction class and
# code (-v shows them), "info" a map's BPF_OBJ_GET_INFO_BY_FD at every
# info_len (-v shows struct bpf_map_info at exit), "query" a program
# attached to a cgroup v2 directory and BPF_PROG_QUERY (prog_ids and
# prog_cnt at exit) when cgroup2 can be mounted here.  Under -X raw and
# verbose, -v, -y and -s 8.
. "$TOP/tests/lib.sh"
need_strace
prog=$(need_prog bpfops) || exit 1
# without root every call fails (EPERM): the traces still compare, the
# checks of what succeeds are left out
root=0
[ "$(id -u)" = 0 ] && root=1
# ids the kernel hands out change run to run
# (and a program's load time, the date of the run)
# With -v, BPF_OBJ_GET_INFO_BY_FD's info is a map's or a program's by what
# /proc/PID/fdinfo says of bpf_fd at the call, and -y names descriptors
# inside the attributes (BPF_PROG_QUERY's target_fd) that calls not traced
# here opened: the eBPF recorder has neither once the process is gone
# (docs/architecture.md), so those runs are ptrace's whatever
# RENACER_BACKEND asks; t/ebpf_opts compares the rest of them between the
# engines.
engine=${RENACER_BACKEND:-}
ptrace_only() { RENACER_BACKEND=ptrace; export RENACER_BACKEND; }
engine_back() { if [ -n "$engine" ]; then RENACER_BACKEND=$engine; else unset RENACER_BACKEND; fi; }
MASK_EXTRA='s/(map_id=|next_id=0 => |[ {]id=|prog_ids=\[)[0-9]+/\1ID/g
s/(load_time=)[0-9]+( \/\* [-0-9T:]+\+0000 \*\/)?/\1LT/g'
export MASK_EXTRA
rc=0
compare_with_strace -e trace=bpf -- "$prog" || rc=1
for want in 'map_name="rmap"' 'kern_version=KERNEL_VERSION(5, 10, 0)' \
	'batch={in_batch=NULL' 'iter_info=[{map={map_fd=' \
	'attach_flags=BPF_F_ALLOW_MULTI|BPF_F_REPLACE' 'key=0xADDR, ...}'; do
	mask_trace <"$STRACE_OUT" | grep -qF "$want" ||
		fail "strace's trace of bpfops lacks '$want'"
done
[ $root = 0 ] || mask_trace <"$STRACE_OUT" | grep -qF 'next_id=0 => ID' ||
	fail "strace's trace of bpfops lacks a next id"
for x in "-X raw" "-X verbose" "-y" "-s 8"; do
	[ "$x" = "-y" ] && ptrace_only
	# shellcheck disable=SC2086
	compare_with_strace $x -e trace=bpf -- "$prog" || rc=1
	engine_back
done
# with -v the bytes past a command's structure hold stack addresses
mask=$MASK_EXTRA
MASK_EXTRA="$mask
"'s/extra_data="[^"]*"/extra_data="BYTES"/'
ptrace_only
for x in "-v" "-v -X verbose"; do
	# shellcheck disable=SC2086
	compare_with_strace $x -e trace=bpf -- "$prog" || rc=1
done
engine_back
MASK_EXTRA=$mask
for x in "" "-X raw" "-X verbose" "-v"; do
	# shellcheck disable=SC2086
	compare_with_strace $x -e trace=bpf -- "$prog" size || rc=1
done
mask_trace <"$STRACE_OUT" | grep -qF 'map_extra=0, extra_data="\x00' ||
	fail "strace -v shows no extra_data"
compare_with_strace -v -e trace=bpf -- "$prog" insns || rc=1
grep -qF 'code=BPF_JMP32|0x18 /* BPF_??? */' "$STRACE_OUT" ||
	fail "strace -v shows no eBPF instructions"
for x in "-v -X raw" "-v -X verbose" "-s 5"; do
	# shellcheck disable=SC2086
	compare_with_strace $x -e trace=bpf -- "$prog" insns || rc=1
done
for x in "" "-v" "-v -X raw" "-v -X verbose" "-v -y"; do
	[ -n "$x" ] && ptrace_only
	# shellcheck disable=SC2086
	compare_with_strace $x -e trace=bpf -- "$prog" info || rc=1
	engine_back
done
if [ $root = 1 ]; then
	mask_trace <"$STRACE_OUT" | grep -qF 'info={type=BPF_MAP_TYPE_HASH, id=ID, key_size=4' ||
		fail "strace -v shows no struct bpf_map_info"
	mask_trace <"$STRACE_OUT" | grep -qF 'xlated_prog_len=0 => ' ||
		fail "strace -v shows no struct bpf_prog_info"
fi
cg="$TMPDIR/cg2"
if [ $root = 1 ] && mkdir -p "$cg" && mount -t cgroup2 none "$cg" 2>/dev/null; then
	trap 'rmdir "$cg/renacer-bpf" 2>/dev/null; umount "$cg" 2>/dev/null' EXIT
	mkdir "$cg/renacer-bpf"
	for x in "" "-X raw" "-X verbose" "-y"; do
		[ "$x" = "-y" ] && ptrace_only
		# shellcheck disable=SC2086
		compare_with_strace $x -e trace=bpf -- "$prog" query "$cg/renacer-bpf" || rc=1
		engine_back
	done
	mask_trace <"$STRACE_OUT" | grep -qF 'prog_ids=[ID], prog_cnt=4 => 1}' ||
		{ echo "strace shows no program attached to the cgroup"; rc=1; }
else
	echo "note: cannot mount cgroup2 here: BPF_PROG_QUERY's success not compared"
fi
exit $rc
