#!/bin/sh
# Netlink protocols beside NETLINK_ROUTE against strace: tests/progs/
# netlinkmore sends sock_diag requests and replies of every family
# (inet, unix, netlink, packet, smc) with their attributes, dumps its own
# sockets, and messages of NETLINK_GENERIC, NETLINK_AUDIT, NETLINK_SELINUX,
# NETLINK_KOBJECT_UEVENT, NETLINK_NETFILTER and NETLINK_XFRM, truncated
# ones and one running into an unmapped page; then ss lists the sockets of
# "netlinkmore serve" and genl lists the generic families.  Each -X style,
# -v and a small -s.
#
# Everything runs in a network namespace of its own (the script re-runs
# itself under unshare -n): the dumps then show only the test's sockets,
# the same in both runs, and tracer and tracee see the same netlink sockets
# (strace looks a socket's protocol up in its own namespace).  Inode
# numbers, socket cookies, port ids and the kernel's tcp_info are masked.
. "$TOP/tests/lib.sh"
need_strace
if [ -z "${RENACER_NETNS:-}" ]; then
	command -v unshare >/dev/null 2>&1 || skip "unshare (util-linux) is not installed"
	unshare -n true 2>/dev/null || skip "cannot make a network namespace (unshare -n)"
	RENACER_NETNS=1 exec unshare -n sh "$0" "$@"
fi
prog=$(need_prog netlinkmore) || exit 1

MASK_EXTRA='s/nlmsg_seq=[0-9]+/nlmsg_seq=SEQ/g
s/(nlmsg_pid|nl_pid|ndiag_portid)=-?[0-9]+/\1=PID/g
s/((idiag|udiag|ndiag|pdiag)_cookie)=\[[0-9]+, 0\]/\1=COOKIE/g
s/(idiag_inode|udiag_ino|ndiag_ino|pdiag_ino)=[0-9]+/\1=INO/g
# (the cgroup the socket was made in: the recorder runs the command in one of its own)
s/(nla_type=(INET_DIAG_CGROUP_ID|0x15|0x15 \/\* INET_DIAG_CGROUP_ID \*\/)\}, )[0-9]+/\1ID/g
s/(nla_type=(UNIX_DIAG_PEER|0x2|0x2 \/\* UNIX_DIAG_PEER \*\/)\}, )[0-9]{4,}/\1INO/g
s/(UNIX_DIAG_ICONS( \*\/)?\}, )\[[0-9, ]*\]/\1[INO]/g
s/(nla_type=(INET_DIAG_INFO|0x2|0x2 \/\* INET_DIAG_INFO \*\/)\}, )"[^"]*"(\.\.\.)?/\1INFO/g'
export MASK_EXTRA

calls=sendto,recvfrom,sendmsg,recvmsg
rc=0
for opts in "" "-X raw" "-X verbose" "-v" "-s 4"; do
	# shellcheck disable=SC2086
	compare_with_strace $opts -e trace=$calls -- "$prog" || rc=1
done
# the oracle saw what the test is meant to cover
compare_with_strace -e trace=$calls -- "$prog" >/dev/null 2>&1
for want in 'idiag_states=1<<TCP_ESTABLISHED' 'udiag_show=UDIAG_SHOW_NAME' \
	'nla_type=UNIX_DIAG_VFS}, {udiag_vfs_dev=makedev(' 'ndiag_show=NDIAG_SHOW_MEMINFO' \
	'pdi_version=TPACKET_V3' 'diag_state=SMC_ACTIVE' 'nlmsg_type=nlctrl' \
	'nlmsg_type=AUDIT_USER' '{val=1}' 'prefix="libudev"' \
	'NFNL_SUBSYS_CTNETLINK<<8|IPCTNL_MSG_CT_GET' 'nlmsg_type=XFRM_MSG_GETSA' \
	'{idiag_family=AF_INET, idiag_state=TCP_LISTEN'; do
	grep -qF "$want" "$STRACE_OUT" || fail "strace's trace of netlinkmore lacks '$want'"
done

# every message type of each protocol, with every request flag: the names
# and flag tables (NETLINK_NETFILTER's subsystems, NETLINK_XFRM, the audit
# numbers, NETLINK_SELINUX, NETLINK_SOCK_DIAG, the generic families)
for sweep in "12 0x100 0xdff" "6 0x10 0x40" "9 1000 2999" "7 0x10 0x20" "4 0x10 0x28" \
	"16 0x10 0x30"; do
	# shellcheck disable=SC2086
	compare_with_strace -e trace=sendto -- "$prog" sweep $sweep || rc=1
done
compare_with_strace -X verbose -e trace=sendto -- "$prog" sweep 12 0x100 0x1ff || rc=1

# real programs: ss asks sock_diag for the sockets of "netlinkmore serve"
"$prog" serve > "$TMPDIR/serve.out" &
server=$!
i=0
while ! grep -q ready "$TMPDIR/serve.out" 2>/dev/null && [ $i -lt 50 ]; do
	sleep 0.1
	i=$((i + 1))
done
if command -v ss >/dev/null 2>&1; then
	ss=$(command -v ss)
	for args in -tn -tan -tanie -xan -uan -0an "-tan sport = :4321"; do
		# shellcheck disable=SC2086
		compare_with_strace -e trace=$calls -- "$ss" $args || rc=1
	done
	compare_with_strace -X verbose -e trace=$calls -- "$ss" -xan || rc=1
	grep -q 'UNIX_DIAG_NAME' "$STRACE_OUT" ||
		fail "strace's trace of ss -xan lacks UNIX_DIAG_NAME"
fi
kill "$server" 2>/dev/null
wait "$server" 2>/dev/null
if command -v genl >/dev/null 2>&1; then
	compare_with_strace -e trace=$calls -- "$(command -v genl)" ctrl list || rc=1
	grep -q 'nlmsg_type=nlctrl' "$STRACE_OUT" ||
		fail "strace's trace of genl ctrl list lacks nlctrl"
fi
exit $rc
