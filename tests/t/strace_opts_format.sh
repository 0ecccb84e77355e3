#!/bin/sh
# strace's output-format and filtering options, each given with the same
# command line to strace and to renacer and the traces compared line for
# line (tests/progs/optprog): -a, -n, -i, -x, -xx, --strings-in-hex, -X,
# -e raw=, -e abbrev=, -e verbose=, -e read=, -e write=, -e signal=, -q,
# -e quiet=, -z, -Z, -P, -yy, -e decode-fds=, and the shapes of -r, -t and
# -T timestamps with their precisions.
. "$TOP/tests/lib.sh"
need_strace
prog=$(need_prog optprog) || exit 1
rc=0
# pids given to kill(), instruction pointers, socket inodes and ports
# differ between the two runs
base_mask='s/st_(ino|[amc]time|[amc]time_nsec)=[0-9]+( \/\* [^*]* \*\/)?/st_\1=N/g; s/kill\([0-9]+([^)]*\)) += /kill(PID\1 = /; s/^\[ *[0-9]+\] \[[0-9a-f]{16}\] /[NR] [IP] /; s/^\[[0-9a-f]{16}\] /[IP] /'
sock_mask='s/:\[[0-9]+/:[INO/g; s/->[0-9]+/->INO/g; s/:[0-9]+\]/:PORT]/g; s/:[0-9]+->/:PORT->/g; s/(htons\(|<pid:|pidfd_open\()[0-9]+/\1N/g; s/\) +=/) =/'
MASK_EXTRA=$base_mask
io=openat,read,write,readv,writev,close,lseek,fstat,newfstatat,symlink,unlink,access
io=$io,sendmsg,recvmsg,sendto,recvfrom,pipe2,socketpair,mmap,dup2,fsync

chk() { compare_with_strace "$@" || rc=1; }

# -a COLUMN / --columns
chk -a 0 -e trace=$io -- "$prog" io
chk -a 60 -e trace=$io -- "$prog" io
chk --columns=12 -e trace=$io -- "$prog" io
# -n, -i (every syscall stop, so the numbers on exit lines match)
chk -n -- "$prog" signals
chk -i -e trace=write,kill -- "$prog" signals
# -x, -xx, --strings-in-hex
chk -x -e trace=$io -- "$prog" io
chk -xx -e trace=write,openat -- "$prog" io
chk --strings-in-hex=non-ascii-chars -e trace=write -- "$prog" io
# -X raw / verbose: flags, enums, AT_FDCWD, open flags, signals, sets
chk -X raw -e trace=openat,mmap,rt_sigaction,kill,socketpair -- "$prog" signals
chk -X verbose -e trace=openat,mmap,rt_sigaction,kill,lseek -- "$prog" signals
# -e raw=, abbrev=, verbose=
chk -e raw=openat,read,write,mmap -e trace=$io -- "$prog" io
chk -e abbrev=none -e trace=$io -- "$prog" io
chk -v -e abbrev=openat -e trace=$io -- "$prog" io
chk -e verbose=none -- "$prog" io
chk -e verbose=!newfstatat -e trace=$io,rt_sigreturn -- "$prog" signals
# -e trace= with personalities: i386 calls of a 64-bit program by name
# and number (their arguments print undecoded: only calls without them
# here), @64/@32, and the "[ Process PID=N runs in 32 bit mode. ]" lines
MASK_EXTRA="$base_mask; s/PID=[0-9]+/PID=N/; s/= [0-9]+$/= N/"
chk -e trace=getpid,getppid -e quiet=none -- "$prog" int80
chk -e trace=getpid@32,getppid -e quiet=none -- "$prog" int80
chk -e trace=getpid@64,getppid -- "$prog" int80
chk -e trace=20@32,/^getppid -e quiet=personality -- "$prog" int80
MASK_EXTRA=$base_mask
# -e read= / -e write= hex dumps (plain buffers, iovecs, msghdr)
chk -e read=all -e write=all -e trace=$io -- "$prog" io
chk -e read=3 -e write=4,5 -e trace=$io -- "$prog" io
# -e signal=, -q, -qq, -qqq, -e quiet= (exit lines, killed-by lines)
chk -e signal=none -- "$prog" signals
chk -e signal=USR2 -e trace=kill -- "$prog" signals
chk -e signal=!SIGTERM,SIGUSR1 -- "$prog" signals
chk -qq -e trace=write -- "$prog" signals
chk -qqq -e trace=write -- "$prog" fork
chk -e quiet=exit -e trace=write -- "$prog" fork
# -z / -Z / --successful-only / --failed-only
chk -z -- "$prog" io
chk -Z -- "$prog" io
chk --failed-only -e trace=openat,access -- "$prog" io
# -P: through descriptors, through a symbolic link, a path that never exists
chk -P data.txt -- "$prog" io
chk -P link.txt -P missing.txt -- "$prog" io
chk -P /no/such/path -- "$prog" io
# -yy and -e decode-fds=
MASK_EXTRA="$base_mask; $sock_mask"
chk -yy -e trace=read,write,close,accept,connect,bind,getsockname,listen -- "$prog" sockets
chk -e decode-fds=socket -e trace=write,close,openat -- "$prog" sockets
chk -e decode-fds=dev,pidfd -e trace=close,openat -- "$prog" sockets

# timestamps: the prefix of every line has the same shape (digits as 9)
shape() {
	sed -E -e ':a' -e 's/^([ 9:.(+)]*)[0-8]/\19/' -e 'ta' \
		-e 's/ <[0-9.]+>$/ <&>/' -e 's/[0-8]/9/g' "$1" | cut -c1-40
}
for o in -r --relative-timestamps=ms --relative-timestamps=ns --relative-timestamps=s \
	-t -tt -ttt --absolute-timestamps=unix,ns --absolute-timestamps=format:time,precision:ms \
	--timestamps=unix -rt "-ttt -r" -T --syscall-times=ns --syscall-times=s; do
	# shellcheck disable=SC2086
	run_both $o -e trace=write,fsync -- "$prog" io
	shape "$STRACE_OUT" > "$STRACE_OUT.shape"
	shape "$RENACER_OUT" > "$RENACER_OUT.shape"
	if ! cmp -s "$STRACE_OUT.shape" "$RENACER_OUT.shape"; then
		echo "$o: timestamp shapes differ from strace:"
		diff "$STRACE_OUT.shape" "$RENACER_OUT.shape" | head -n 6
		rc=1
	fi
done
exit $rc
