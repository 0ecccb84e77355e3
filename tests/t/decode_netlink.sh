#!/bin/sh
# Netlink decoding against strace: getent ahosts localhost and ip addr/link/
# route talk NETLINK_ROUTE (RTM_GETADDR/GETLINK/GETROUTE dumps and their
# replies); tests/progs/netlinkops sends crafted requests (attributes,
# several messages in a buffer, truncated and malformed messages, a message
# running into an unmapped page, NLMSG_ERROR replies, sendmsg with and
# without a netlink msg_name, another netlink protocol).  Sequence numbers,
# port ids and counters that change between the two runs are masked.
. "$TOP/tests/lib.sh"
need_strace
command -v ip >/dev/null 2>&1 || skip "ip (iproute2) is not installed"
prog=$(need_prog netlinkops) || exit 1
ip=$(command -v ip)

MASK_EXTRA='s/nlmsg_seq=[0-9]+/nlmsg_seq=SEQ/g
s/(nlmsg_pid|nl_pid)=-?[0-9]+/\1=PID/g
s/\{rx_packets=[^}]*\}/{STATS}/g
s/\{rta_clntref=[^}]*\}/{RTA_CACHEINFO}/g
s/\{ifa_prefered=[^}]*\}/{IFA_CACHEINFO}/g
s/(IFLA_CARRIER_(CHANGES|UP_COUNT|DOWN_COUNT)\}, )[0-9]+/\1N/g'
export MASK_EXTRA

calls=socket,bind,sendto,recvfrom,sendmsg,recvmsg,setsockopt,getsockopt
rc=0
compare_with_strace -e trace=$calls -- "$prog" || rc=1
compare_with_strace -s 4 -e trace=$calls -- "$prog" || rc=1
compare_with_strace -v -e trace=$calls -- "$prog" || rc=1
for want in 'error=-ENODEV, msg=' 'NLA_F_NESTED|0x3e /\* IFLA_??? \*/' \
	'RTEXT_FILTER_VF|0x80000' 'nlmsg_type=NLMSG_DONE' 'NETLINK_EXT_ACK'; do
	grep -q "$want" "$STRACE_OUT" || fail "strace's trace of netlinkops lacks '$want'"
done

if command -v getent >/dev/null 2>&1; then
	compare_with_strace -e trace=$calls -- "$(command -v getent)" ahosts localhost || rc=1
	grep -q 'inet_addr("127.0.0.1")' "$STRACE_OUT" ||
		fail "strace's trace of getent lacks 'inet_addr(\"127.0.0.1\")'"
fi
for args in addr link route "-6 route"; do
	# shellcheck disable=SC2086
	compare_with_strace -e trace=$calls -- "$ip" $args || rc=1
done
compare_with_strace -s 8 -e trace=$calls -- "$ip" link || rc=1
grep -q 'nlmsg_type=RTM_NEWLINK' "$STRACE_OUT" ||
	fail "strace's trace of ip link lacks RTM_NEWLINK"
exit $rc
