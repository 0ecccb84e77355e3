#!/bin/sh
# Socket options and control messages against strace: tests/progs/sockoptops
# sets and gets SOL_SOCKET, IP, IPv6, packet, raw and unknown options (whole
# and cut lengths, filters, bad pointers) and sends and receives control
# messages (SCM_RIGHTS, SCM_CREDENTIALS, timestamps, an unknown level, a cut
# header) and recvmmsg names; -v, -X raw and -X verbose too.  Timestamps
# and the sender's pid in SCM_CREDENTIALS differ between the runs.
. "$TOP/tests/lib.sh"
need_strace
prog=$(need_prog sockoptops) || exit 1
MASK_EXTRA='s/tv_sec=[0-9]+, tv_usec=[0-9]+/tv_sec=S, tv_usec=U/g
s/tv_sec=[0-9]+, tv_nsec=[0-9]+/tv_sec=S, tv_nsec=N/g
s/\{pid=[0-9]+/{pid=PID/g'
export MASK_EXTRA
rc=0
for x in "" "-v" "-X raw" "-X verbose" "-s 4"; do
	# shellcheck disable=SC2086
	compare_with_strace $x -e trace=%network -- "$prog" || rc=1
done
compare_with_strace -e trace=%network -e verbose=none -- "$prog" || rc=1
compare_with_strace -e trace=%network -- "$prog" || rc=1
for want in 'SO_ATTACH_FILTER, {len=5, filter=0xADDR}' 'cmsg_type=SCM_RIGHTS, cmsg_data=[0, 1]' \
	'PACKET_ADD_MEMBERSHIP, {mr_ifindex=if_nametoindex("lo"), mr_type=PACKET_MR_PROMISC' \
	'msg_namelen=1 => '; do
	mask_trace <"$STRACE_OUT" | grep -qF "$want" ||
		fail "strace's trace of sockoptops lacks '$want'"
done
exit $rc
