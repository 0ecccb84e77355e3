#!/bin/sh
# Real programs nobody here wrote (coreutils, tar, find, git, python3, a
# shell running commands one after the other): the lines of the
# file/descriptor/poll syscalls must be strace's, after masking, plain and
# with -y.  Concurrent processes (pipelines) interleave differently from run
# to run and are left to other tests; signal lines are other decoders'.
. "$TOP/tests/lib.sh"
need_strace

calls=open,openat,creat,close,read,write,pread64,pwrite64,readv,writev,lseek
calls=$calls,stat,lstat,fstat,newfstatat,statx,dup,dup2,dup3,pipe,pipe2,fcntl
calls=$calls,ioctl,access,faccessat,faccessat2,readlink,readlinkat,symlink,mkdir
calls=$calls,mkdirat,rename,renameat,renameat2,unlink,unlinkat,rmdir,getcwd,chdir
calls=$calls,fchdir,getdents64,getrandom,poll,ppoll,select,pselect6,epoll_create1
calls=$calls,epoll_ctl,epoll_wait,epoll_pwait

fx="$TMPDIR/fixture"
mkdir -p "$fx/sub/deeper" || fail "cannot create '$fx'"
printf 'hello\nworld\n' >"$fx/a.txt"
printf '\000\001\002binary\377' >"$fx/b.bin"
ln -s a.txt "$fx/link"
touch -d '2020-01-01 00:00:00' "$fx/a.txt" "$fx/b.bin" "$fx/sub" "$fx/sub/deeper" "$fx"

rc=0
check() {   # check LABEL CMD... (CMD runs in a fresh work directory)
	for y in "" -y; do
		compare_with_strace $y -f -e trace=$calls -- "$@" || { echo "(in: $y $*)"; rc=1; }
	done
}
export LC_ALL=C
MASK_EXTRA='/--- SIG/d'

check /bin/cat "$fx/a.txt" "$fx/b.bin"
check /bin/ls -la "$fx"
check /bin/ls -R "$fx"
check /usr/bin/stat "$fx/a.txt"
check /usr/bin/find "$fx"
check /bin/sh -c "cp $fx/a.txt x && mv x y && ln -s y z && readlink z && rm y z && mkdir d && rmdir d"
check /bin/tar -cf out.tar -C "$fx" .
check /usr/bin/du -s "$fx"
if command -v git >/dev/null 2>&1; then
	check git --version
fi
if [ -x /usr/bin/python3 ]; then
	check /usr/bin/python3 -S -c 'import os; print(os.listdir("."))'
fi
exit $rc
