#!/bin/sh
# The eBPF recorder (--backend ebpf) serves the options that once kept a
# trace under ptrace, printing what the ptrace engine prints (the oracle,
# run beside it): -y and -yy (what each descriptor referred to at the
# call: the kernel walks its path with the call, the process may have
# closed it or exited before the record is decoded), -P (the same paths,
# filtered on the user side), -Y and --pidns-translation (commands from
# the kernel's fork and exec events), -e read=/-e write= (the whole data
# a call moved, sent by the kernel in chunks; -s past what a record holds
# the same way), -p (the tree of a running process).  Traces are compared per process
# after masking what differs from run to run (pids, addresses, inodes).
# test: slow
set -u
. "$TOP/tests/lib.sh"
. "$TOP/tests/lib_proc.sh"
export LC_ALL=C LANG=C
"$RENACER" --backend ebpf -o /dev/null true 2> "$TMPDIR/probe"
rc=$?
[ $rc = 6 ] && skip "eBPF back end unavailable here: $(cat "$TMPDIR/probe")"
[ $rc = 0 ] || fail "--backend ebpf true: exit $rc: $(cat "$TMPDIR/probe")"
fails=0
bad() { echo "FAIL: $*"; fails=$((fails + 1)); }

# a pipe's or socket's inode is new each run
MASK_EXTRA='s/(pipe|socket|UNIX-STREAM|TCP|NETLINK):\[[0-9]{5,}(->[0-9]+)?/\1:[INO/g
s/(127\.0\.0\.1:)[0-9]+/\1PORT/g; s/htons\([0-9]+\)/htons(PORT)/g
s/NETLINK:\[ROUTE:[0-9]+\]/NETLINK:[ROUTE:PORTID]/g; s/nl_pid=[0-9]+/nl_pid=N/g; s/nlmsg_pid=[0-9]+/nlmsg_pid=N/g
s/(tv_n?sec)=[0-9]+/\1=N/g; s/<pid:[0-9]+>/<pid:N>/g; s/renacer-netops-[0-9]+/renacer-netops-N/g; s/\{pid=[0-9]+,/{pid=N,/g; s/^pidfd_open\([0-9]+/pidfd_open(N/'
export MASK_EXTRA

# both OPTS... -- CMD...: the two engines' traces of CMD, each run in a
# fresh empty directory of the same name; sets P and E (the traces)
n=0
both() {
	n=$((n + 1))
	P="$TMPDIR/p.$n" E="$TMPDIR/e.$n"
	rm -rf "$TMPDIR/w" && mkdir "$TMPDIR/w"
	(cd "$TMPDIR/w" && "$RENACER" --backend ptrace -o "$P" "$@") > /dev/null 2>&1 < /dev/null
	PRC=$?
	rm -rf "$TMPDIR/w" && mkdir "$TMPDIR/w"
	(cd "$TMPDIR/w" && "$RENACER" --backend ebpf -o "$E" "$@") > /dev/null 2> "$E.err" < /dev/null
	ERC=$?
	[ "$PRC" = "$ERC" ] || bad "$*: exit status: ptrace $PRC, ebpf $ERC: $(head -c 300 "$E.err")"
	grep '^renacer' "$E.err" | grep -v '^renacer: eBPF: loaded' && bad "$*: a message from renacer"
}
same() { # LABEL: P and E the same per process after masking
	# (where a SIGCHLD lands among the parent's calls is the scheduler's)
	sed -i '/--- SIGCHLD/d' "$P" "$E"
	compare_norm "$P" "$E" "$1 (- ptrace, + ebpf)" || bad "$1: the traces differ"
}
has() { # LABEL REGEX: E has a line matching REGEX (the option did something)
	grep -Eq "$2" "$E" || bad "$1: no line matching '$2' in the recorder's trace"
}

F=$(need_prog ebpf_fds)

# 1. -y, -yy: files, a pipe inherited by a child that exits before its
# record is read, a descriptor closed, a number reused, a file deleted
# while open, the working directory (AT_FDCWD), /dev/null's device
for opts in "-y" "-yy"; do
	# shellcheck disable=SC2086
	both -f $opts -- "$F" files
	same "files $opts"
	has "files $opts" '^[0-9]+ +close\(9</etc/passwd>\) += 0'
	has "files $opts" '^[0-9]+ +close\(9\) += -1 EBADF'
	has "files $opts" '^[0-9]+ +write\([0-9]+<pipe:\[[0-9]+\]>, "child", 5\)'
	has "files $opts" '</[^>]*/w/made>\(deleted\), "gone"'
	has "files $opts" '^[0-9]+ +openat\(AT_FDCWD</[^>]*/w>, "\."'
done
has "files -yy" '1</dev/null<char 1:3>>|[0-9]</dev/null<char 1:3>>'
both -f -y -- "$F" sockets
same "sockets -y"
has "sockets -y" 'socketpair\(AF_UNIX, SOCK_STREAM, 0, \[[0-9]+<socket:\[[0-9]+\]>, [0-9]+<socket:'
# -yy: a unix socket's peer and bound path, as they were at the call
both -f -yy -- "$F" sockets
same "sockets -yy"
has "sockets -yy" 'socketpair\(AF_UNIX, SOCK_STREAM, 0, \[[0-9]+<UNIX-STREAM:\[[0-9]+->[0-9]+\]>'
has "sockets -yy" '^[0-9]+ +accept\([0-9]+<UNIX-STREAM:\[[0-9]+,"sock"\]>, NULL, NULL\) += [0-9]+<UNIX-STREAM:\[[0-9]+->[0-9]+,"sock"\]>'
has "sockets -yy" '^[0-9]+ +write\([0-9]+<TCP:\[127\.0\.0\.1:[0-9]+->127\.0\.0\.1:[0-9]+\]>, "t", 1\)'
has "sockets -yy" '^[0-9]+ +getsockname\([0-9]+<NETLINK:\[ROUTE:[0-9]+\]>'

# descriptors inherited and named by no call before one inside a
# structure names them (the command's are renacer's)
both -y -e trace=poll -- "$F" stdio
same "stdio -y"
has "stdio -y" '^poll\(\[\{fd=0</dev/null>, events=POLLIN\}, \{fd=1</dev/null>'
both -P /dev/null -e trace=poll -- "$F" stdio
same "stdio -P"
has "stdio -P" '^poll\('

# a path of about 400 bytes is recorded whole; one of 800, longer than a
# record holds, is not cut short (a path cut short names another file)
deep() { # DIR LEN: a directory under DIR whose path is LEN bytes or more
	p=$1
	while [ ${#p} -lt "$2" ]; do p=$p/ddddddddddddddddddddddddddddddddddddddddddddddd; done
	mkdir -p "$p" && echo hi > "$p/file" && echo "$p"
}
d400=$(deep "$TMPDIR/deep" 400)
both -y -e trace=read -- cat "$d400/file"
same "cat of a 400-byte path -y"
has "cat of a 400-byte path -y" "^read\\(3<$d400/file>, \"hi"
d800=$(deep "$TMPDIR/deep" 800)
both -y -e trace=read -- cat "$d800/file"
grep -q "^read(3<$d800/file>, \"hi\|^read(3, \"hi" "$E" ||
	bad "cat of an 800-byte path -y: $(grep '"hi' "$E" | cut -c1-200)"

# 2. -P: the calls that name a path or a descriptor open on it (the
# descriptor as it was at the call: closed and reused numbers)
both -f -P /etc/passwd -P /dev/null -- "$F" files
same "files -P"
has "files -P" '^[0-9]+ +read\([0-9]+, "root", 4\)'
grep -q 'poll(\|pipe' "$E" && bad "files -P: calls on other descriptors: $(grep 'poll(\|pipe' "$E")"

# 3. -Y, --pidns-translation: commands as they were at the call (a child
# shows its creator's until its exec, also once it has exited)
for opts in "-Y" "--decode-pids=comm,pidns"; do
	# shellcheck disable=SC2086
	both -f $opts -- sh -c '/bin/true; kill -0 $$'
	# (a vfork returns while the child execs: whether its command is
	# the new one yet is a race, which ptrace's slower reader loses)
	# (nor is whether its SIGCHLD's handler runs before the wait4)
	sed -E -i '/vfork/ s/(= [0-9]+)<[^>]*>$/\1/; /rt_sigreturn\(/d' "$P" "$E"
	same "sh $opts"
	has "sh $opts" '^[0-9]+ +getppid\(\) += [0-9]+<renacer>'
	has "sh $opts" '^[0-9]+ +kill\([0-9]+<sh>, 0\)'
	both -f $opts -- "$F" files
	same "files $opts"
	has "files $opts" '^[0-9]+ +clone\(.*\) += [0-9]+<ebpf_fds>$'
	has "files $opts" '^[0-9]+ +getpid\(\) += [0-9]+<renamed>$'
done

# 4. -e read=, -e write=: the whole data of each call, far past the
# string limit (the kernel sends it in chunks before the call's record)
for opts in "-e read=3 -e write=4,5,6" "-e read=all -e write=all"; do
	# shellcheck disable=SC2086
	both $opts -e trace=read,write,readv,writev,sendmsg,recvmsg -- "$F" io
	same "io $opts"
done
# the last write: 1 MiB to /dev/null, dumped whole (65536 lines of 16 bytes)
has "io dumps" '^ \| fffe0  '
[ "$(grep -c '^ | ' "$E")" -gt 70000 ] || bad "io dumps: $(grep -c '^ | ' "$E") dump lines"

# pages of a private anonymous mapping never touched: zeros, as the
# kernel (and a ptrace tracer) reads them, between pages that were
both -e trace=write -e write=1 -- "$F" zeros
same "zeros -e write=1"
has "zeros -e write=1" '^ \| 01f90 .* 77 72 69 74  \.+writ \|$'
[ "$(grep -c '^ | ' "$E")" = 1268 ] || bad "zeros -e write=1: $(grep -c '^ | ' "$E") dump lines"

# -s past what one record holds (8189): the data of reads and writes comes
# as the dumps' does, each buffer up to the limit
both -s 20000 -e trace=read,write,readv,writev,sendmsg,recvmsg -- "$F" io
same "io -s 20000"
[ "$(awk '/^write\(4, / && length($0) > 20000 { n++ } END { print n + 0 }' "$E")" -ge 1 ] ||
	bad "io -s 20000: no write of 20000 bytes shown: $(cut -c1-100 "$E" | head -3)"

# 5. -p PID -f: a running process (blocked in a read when renacer
# attaches: the call shows whole from its exit, as ptrace shows its
# restart) and the child it makes afterwards, with -y
attach() { # BACKEND OUT: OUT is the trace of ebpf_fds wait, attached
	rm -f "$TMPDIR/fifo" "$TMPDIR/apid" && mkfifo "$TMPDIR/fifo"
	(cd "$TMPDIR" && exec "$F" wait < "$TMPDIR/fifo" > "$TMPDIR/apid") &
	tp=$!
	exec 3> "$TMPDIR/fifo"
	i=0
	while [ ! -s "$TMPDIR/apid" ] && [ $i -lt 200 ]; do sleep 0.05; i=$((i + 1)); done
	"$RENACER" --backend "$1" -f -y -p "$tp" -o "$2" 2> "$2.err" &
	rp=$!
	i=0
	while ! grep -q attached "$2.err" 2> /dev/null && [ $i -lt 200 ]; do
		sleep 0.05
		i=$((i + 1))
	done
	sleep 0.3
	echo x >&3
	exec 3>&-
	wait $rp
	arc=$?
	wait $tp
	[ $arc = 0 ] || bad "-p under $1: exit $arc: $(cat "$2.err")"
	grep -q "Process $tp attached" "$2.err" || bad "-p under $1: no attach message: $(cat "$2.err")"
}
P="$TMPDIR/p.attach" E="$TMPDIR/e.attach"
attach ptrace "$P"
attach ebpf "$E"
same "-p -f -y"
has "-p -f -y" '^[0-9]+ +read\(0<[^>]*/fifo>, "x", 1\) += 1$'
has "-p -f -y" '^[0-9]+ +write\([0-9]+<pipe:\[[0-9]+\]>, "child", 5\)'

# 6. -y of descriptors no path names: memfd_create's and memfd_secret's
# pseudo files ("/memfd:NAME (deleted)"), namespaces ("uts:[INO]"), the
# ones ioctl and fcntl return, fsconfig's aux (a directory); a netlink
# socket a sendto binds prints its message undecoded, as under ptrace
# (its protocol is unknown there until it is bound)
EA=$(need_prog edgeargs)
both -s 4 -y -e trace=memfd_secret,fsconfig -- "$EA" mem
same "edgeargs mem -y"
has "edgeargs mem -y" '^memfd_secret\(0\) += [0-9]+</secretmem>\(deleted\)$'
both -s 4 -y -e trace=memfd_secret,fsconfig -- "$EA" new
same "edgeargs new -y"
has "edgeargs new -y" '^fsconfig\(-1, FSCONFIG_SET_PATH, "key", "/", AT_FDCWD</[^>]*/w>\)'
both -y -e trace=memfd_create,close -- "$(need_prog fsops)"
same "fsops -y"
has "fsops -y" '^memfd_create\(.*\) += [0-9]+</memfd:[^>]*>\(deleted\)$'
both -y -e trace=ioctl -- "$(need_prog ioctl_nsfs)"
same "ioctl_nsfs -y"
has "ioctl_nsfs -y" 'NS_GET_USERNS\) += [0-9]+<user:\[[0-9]+\]>$'
both -y -e trace=fcntl,openat -- "$F" files
same "files fcntl -y"
has "files fcntl -y" '^fcntl\([0-9]+</[^>]*/w>, F_DUPFD_CLOEXEC, 20\) += 2[0-9]+</[^>]*/w>$'
both -e trace=sendto,recvfrom -- "$(need_prog netlinkops)"
same "netlinkops"
has "netlinkops" '^sendto\(3, \[\{nlmsg_len=[0-9]+, nlmsg_type=0x12 /\* NLMSG_\?\?\? \*/'
has "netlinkops" '^sendto\(3, \[\{nlmsg_len=[0-9]+, nlmsg_type=RTM_GETLINK'
# an ioctl argument that ends in the array its first word counts (struct
# kvm_cpuid2), which _IOC_SIZE leaves out
both -v -e trace=ioctl -- "$(need_prog ioctl_kvm)"
same "ioctl_kvm -v"
has "ioctl_kvm -v" '^ioctl\(-1, KVM_SET_CPUID2, \{nent=40, entries=\[\{function=0x'

# ioctl arguments larger than their number says (LOOP_SET_STATUS says
# nothing, struct dm_ioctl's data), and memory behind their pointer fields
# (BLKPG's partition, a TEE buffer, a console font's glyphs), a level down
# (SG_IO's iovecs, v4l2 controls' strings)
for p in ioctl_loop ioctl_dm ioctl_tee ioctl_block ioctl_kd ioctl_scsi ioctl_v4l2; do
	both -e trace=ioctl -- "$(need_prog $p)"
	same "$p"
	case $p in
	ioctl_block) has "$p" '^ioctl\(-1, BLKPG, \{op=BLKPG_ADD_PARTITION, flags=1, datalen=152, data=\{start=' ;;
	ioctl_kd) has "$p" '^ioctl\(-1, PIO_FONTX, \{charcount=1, charheight=16, chardata="\\x33' ;;
	ioctl_scsi) has "$p" 'iovec_count=2, .*dxferp=\[\{iov_base="' ;;
	ioctl_v4l2) has "$p" 'VIDIOC_S_EXT_CTRLS, .*string="vol!"' ;;
	esac
done

# btrfs ioctls: a struct btrfs_qgroup_inherit behind vol_args_v2's pointer
# (SNAP_CREATE_V2, SUBVOL_CREATE_V2: one ioc_ptrs row), SEND's clone sources
both -v -e trace=ioctl -- "$(need_prog ioctl_btrfs)"
same "ioctl_btrfs -v"
has "ioctl_btrfs -v" '^ioctl\(-1, BTRFS_IOC_SUBVOL_CREATE_V2, \{.*qgroup_inherit=\{flags=BTRFS_QGROUP_INHERIT_SET_LIMITS, num_qgroups=4, .*qgroups=\[5, 256, '
has "ioctl_btrfs -v" '^ioctl\(-1, BTRFS_IOC_SEND, \{send_fd=1, clone_sources_count=3, clone_sources=\[BTRFS_FS_TREE_OBJECTID, 300, '

# bpf(2): union bpf_attr read at the entry too (what the kernel writes
# back shows as "A => B"), and its pointer fields by command (ioc_ptrs
# rows keyed on it): a program's instructions, license and log, pin paths,
# a tracepoint's name, BTF, a task's buffer, iterator and kprobe arrays.
# (ids the kernel hands out are new each run; with -v the info of
# BPF_OBJ_GET_INFO_BY_FD is a map's or a program's by /proc/PID/fdinfo at
# the call, which the recorder has not: those lines are left out)
BP=$(need_prog bpfops)
bpfmask() { # OPTS
	case $1 in -v*) drop='/BPF_OBJ_GET_INFO_BY_FD/d' ;; *) drop= ;; esac
	sed -i -E 's/(map_id=|next_id=0 => |[ {]id=|prog_ids=\[)[0-9]+/\1ID/g
s/(next_id=)[0-9]+ => [0-9]+/\1ID => ID/g; s/extra_data="[^"]*"/extra_data="BYTES"/g
s/(load_time=)[0-9]+( \/\* [-0-9T:]+\+0000 \*\/)?/\1LT/g
'"$drop" "$P" "$E"
}
for opts in "" "-v"; do
	# shellcheck disable=SC2086
	both $opts -e trace=bpf -- "$BP"
	bpfmask "$opts"
	same "bpfops $opts"
	has "bpfops $opts" '^bpf\(BPF_PROG_LOAD, \{.*license="GPL", log_level=1, log_size=64, log_buf="'
	has "bpfops $opts" '^bpf\(BPF_OBJ_PIN, \{pathname="/sys/fs/bpf/nonexistent/x"'
	has "bpfops $opts" '^bpf\(BPF_RAW_TRACEPOINT_OPEN, \{raw_tracepoint=\{name="sys_enter"'
	has "bpfops $opts" '^bpf\(BPF_BTF_LOAD, \{btf="\\1\\2'
	has "bpfops $opts" 'iter_info=\[\{map=\{map_fd=1\}\}'
	has "bpfops $opts" 'kprobe_multi=\{.*addrs=\[0x1234, '
done
both -v -e trace=bpf -- "$BP" insns
bpfmask -v
same "bpfops insns -v"
has "bpfops insns -v" 'insns=\[\{code=BPF_'

# keyctl's iovecs (KEYCTL_INSTANTIATE_IOV) and struct keyctl_kdf_params'
# strings (KEYCTL_DH_COMPUTE); clone3's bytes past struct clone_args
SG=$(need_prog sysgaps)
both -v -e trace=keyctl -- "$SG" keys
# (a keyring's serial is new each run)
sed -i -E 's/^(keyctl\(KEYCTL_GET_KEYRING_ID, .*\) += )[0-9]+$/\1N/' "$P" "$E"
same "sysgaps keys -v"
has "sysgaps keys -v" 'KEYCTL_DH_COMPUTE, .*\{hashname="sha256", otherinfo="payload", otherinfolen=7\}'
has "sysgaps keys -v" '^keyctl\(KEYCTL_INSTANTIATE_IOV, KEY_SPEC_THREAD_KEYRING, \[(\{iov_base=[^}]*\}, ){200}'
both -e trace=clone3 -- "$SG" more
same "sysgaps more"
has "sysgaps more" '^clone3\(\{flags=0, .*/\* bytes 88\.\.95 \*/ "\\x05'

# descriptors received (SCM_RIGHTS): what the kernel installed, recorded
# with the recvmsg (the process has closed them, or exited, by the time
# the record is read)
both -y -e trace=recvmsg -- "$(need_prog netops)"
same "netops -y"
has "netops -y" 'cmsg_type=SCM_RIGHTS, cmsg_data=\[[0-9]+<socket:\[[0-9]+\]>\]'

# decode-fds=pidfd: a pidfd's process as it was at the call
both -e decode-fds=dev,pidfd -e trace=close,pidfd_open -- "$(need_prog optprog)" sockets
same "optprog pidfd"
has "optprog pidfd" '^close\(3<pid:[0-9]+>\) += 0$'

[ $fails = 0 ] || exit 1
exit 0
