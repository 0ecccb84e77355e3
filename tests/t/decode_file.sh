#!/bin/sh
# File and descriptor decoders against strace: tests/progs/fileops makes the
# open/read/write/stat/dup/pipe/fcntl/ioctl/path calls (successes and
# failures); both tracers' lines must agree after masking, plain, with -y
# (paths beside fds) and with a short string limit.
. "$TOP/tests/lib.sh"
need_strace
prog=$(need_prog fileops) || exit 1

calls=open,openat,openat2,creat,close,read,write,pread64,pwrite64,readv,writev
calls=$calls,lseek,stat,lstat,fstat,newfstatat,statx,dup,dup2,dup3,pipe,pipe2
calls=$calls,fcntl,ioctl,access,faccessat,faccessat2,readlink,readlinkat,symlink
calls=$calls,mkdir,mkdirat,rename,renameat,renameat2,unlink,unlinkat,rmdir
calls=$calls,getcwd,chdir,fchdir,getdents64,getrandom

rc=0
compare_with_strace -e trace=$calls -- "$prog" || rc=1
compare_with_strace -y -e trace=$calls -- "$prog" || rc=1
compare_with_strace -s 5 -e trace=$calls -- "$prog" || rc=1
compare_with_strace -s 200 -e trace=$calls -- "$prog" || rc=1
# the whole trace, not only the selected calls, must contain these lines too
run_both -- "$prog"
syscall_lines $(echo $calls | tr , ' ') <"$STRACE_OUT" >"$STRACE_OUT.sel"
syscall_lines $(echo $calls | tr , ' ') <"$RENACER_OUT" >"$RENACER_OUT.sel"
[ -s "$STRACE_OUT.sel" ] || fail "no selected lines in strace's trace"
compare_traces "$STRACE_OUT.sel" "$RENACER_OUT.sel" "unfiltered trace, selected calls" || rc=1
# -X raw and -X verbose: every value in strace's other two styles
for x in "-X raw" "-X verbose"; do
	# shellcheck disable=SC2086
	compare_with_strace $x -e trace=$calls -- "$prog" || rc=1
done
exit $rc
