#!/bin/sh
# poll/ppoll/select/pselect6/epoll_* decoders against strace
# (tests/progs/pollops), plain and with -y.
. "$TOP/tests/lib.sh"
need_strace
prog=$(need_prog pollops) || exit 1

calls=poll,ppoll,select,pselect6,epoll_create,epoll_create1,epoll_ctl,epoll_wait
calls=$calls,epoll_pwait,pipe2,write,read

rc=0
compare_with_strace -e trace=$calls -- "$prog" || rc=1
compare_with_strace -y -e trace=$calls -- "$prog" || rc=1
compare_with_strace -s 1 -e trace=$calls -- "$prog" || rc=1
exit $rc
