#!/bin/sh
# Socket decoders against strace: tests/progs/netops talks to itself over
# TCP/IPv4 and UDP/IPv6 loopback, AF_UNIX paths, abstract names and a
# socketpair (SCM_RIGHTS and SCM_CREDENTIALS), binds a netlink socket, sets
# and gets options, and makes failing calls (bad pointers, short lengths,
# unknown families, types and levels).  Ephemeral ports, pids and the pid in
# the abstract name differ between the runs and are masked.
. "$TOP/tests/lib.sh"
need_strace
prog=$(need_prog netops) || exit 1

MASK_EXTRA='s/htons\([0-9]{4,5}\)/htons(PORT)/g
s/(pid|nl_pid)=[0-9]+/\1=N/g
s/renacer-netops-[0-9]+/renacer-netops-N/g
s/\(left \{tv_sec=[0-9]+, tv_nsec=[0-9]+\}\)/(left {tv_sec=N, tv_nsec=N})/
/(getpeername|getsockname)\(.*, \[[0-9]+ => (16|28)\]\)/ s/sa_data="([^"\\]|\\.)*"/sa_data="PORT"/'
export MASK_EXTRA

calls=socket,socketpair,bind,connect,listen,accept,accept4,getsockname
calls=$calls,getpeername,sendto,recvfrom,sendmsg,recvmsg,shutdown,setsockopt
calls=$calls,getsockopt,sendmmsg,recvmmsg

rc=0
compare_with_strace -- "$prog" || rc=1
compare_with_strace -e trace=$calls -- "$prog" || rc=1
compare_with_strace -e trace=%network -- "$prog" || rc=1
compare_with_strace -y -e trace=$calls -- "$prog" || rc=1
compare_with_strace -s 4 -e trace=$calls -- "$prog" || rc=1
for want in 'sun_path=@"renacer-netops' 'SCM_CREDENTIALS' 'inet_pton(AF_INET6, "::1"' \
	'msg_namelen=110 => 26' 'nl_groups=0x000001'; do
	grep -q "$want" "$STRACE_OUT" || fail "strace's trace of netops lacks '$want'"
done
exit $rc
