#!/bin/sh
# NETLINK_ROUTE beside links, addresses and routes against strace:
# tests/progs/netlinkroute sends crafted neighbour, rule, tc (stats,
# stats2, stab), netconf, nexthop, address label, dcb, mdb, RTM_*STATS,
# RTM_*NSID and link (IFLA_AF_SPEC, IFLA_PROTINFO, bridge and tun data)
# requests, tc actions, the less common link attributes (IFLA_XDP,
# IFLA_PORT_SELF, IFLA_VFINFO_LIST, ...), one cut short, one running into an unmapped page and one at an
# address that cannot be read (EFAULT), under each -X style, -v and small
# -s; then real tools in a namespace with a veth pair, a bridge, a
# neighbour, rules, an htb qdisc and class, an ingress filter, nexthops and
# an address label: ip neigh/rule/netconf/nexthop/addrlabel/ntable/stats,
# ip -d link, tc qdisc/class/filter show, bridge link/fdb/mdb/vlan.  The
# crafted requests also go through the eBPF recorder where it can run.
#
# Everything runs in a network namespace of its own (the script re-runs
# itself under unshare -n), with IPv6 off on the new links so that no
# traffic moves counters between the two runs; counters, timers and the
# kernel's own timestamps are masked all the same.
. "$TOP/tests/lib.sh"
need_strace
command -v ip >/dev/null 2>&1 || skip "ip (iproute2) is not installed"
if [ -z "${RENACER_NETNS:-}" ]; then
	command -v unshare >/dev/null 2>&1 || skip "unshare (util-linux) is not installed"
	unshare -n true 2>/dev/null || skip "cannot make a network namespace (unshare -n)"
	RENACER_NETNS=1 exec unshare -n sh "$0" "$@"
fi
prog=$(need_prog netlinkroute) || exit 1
ip=$(command -v ip)

MASK_EXTRA='s/nlmsg_seq=[0-9]+/nlmsg_seq=SEQ/g
s/(nlmsg_pid|nl_pid)=-?[0-9]+/\1=PID/g
s/\{rx_packets=[^}]*\}/{STATS}/g
s/((bytes|packets|drops|overlimits|requeues|qlen|backlog|bps|pps)=)[0-9]+/\1N/g
s/\[(BR_MCAST_DIR_(RX|TX)|IPSTATS_MIB_[A-Z0-9_]+|ICMP6_MIB_[A-Z0-9_]+|[0-9]+ \/\* (IPSTATS|ICMP6)_MIB_\?\?\? \*\/)\]=[0-9]+/[\1]=N/g
s/[0-9]+ \/\* [0-9]+\.[0-9]+ s \*\//CLOCK/g
s/(_TIMER)\}, [0-9]+/\1}, CLOCK/g
s/ndm_(confirmed|used|updated)=[0-9]+/ndm_\1=N/g
s/ndtc_last_(flush|rand)=[0-9]+/ndtc_last_\1=N/g
s/(NDTPA_REACHABLE_TIME\}, )[0-9]+/\1N/g
s/\{max_reasm_len=[^}]*\}/{INET6_CACHEINFO}/g
s/(IFLA_CARRIER_(CHANGES|UP_COUNT|DOWN_COUNT)\}, )[0-9]+/\1N/g'
export MASK_EXTRA

calls=sendto,recvfrom,sendmsg,recvmsg
rc=0
for opts in "" "-X raw" "-X verbose" "-v" "-s 4" "-s 0"; do
	# shellcheck disable=SC2086
	compare_with_strace $opts -e trace=$calls -- "$prog" || rc=1
done
# the oracle decoded what the test is meant to cover
compare_with_strace -e trace=$calls -- "$prog" >/dev/null 2>&1
for want in '{ndm_family=AF_INET, ndm_ifindex=if_nametoindex("lo")' 'NDA_CACHEINFO}, {ndm_confirmed=1' \
	'{family=AF_INET, dst_len=8' 'FRA_UID_RANGE}, {start=1000, end=2000}' \
	'{tcm_family=AF_UNSPEC' 'TCA_STATS_QUEUE}, {qlen=1' 'TCA_STAB_DATA}, [0, 3,' \
	'{ncm_family=AF_INET}' 'NHA_GROUP}, [{id=1, weight=0}' '{ifal_family=AF_INET6' \
	'cmd=DCB_CMD_GSTATE' 'MDBA_MDB_ENTRY_INFO}, {ifindex=' 'filter_mask=1<<IFLA_STATS_UNSPEC|1<<IFLA_STATS_LINK_64|0x400' \
	'igmp_v2queries=[[BR_MCAST_DIR_RX]=0, [BR_MCAST_DIR_TX]=3]' '{rtgen_family=AF_UNSPEC}' '[IPV4_DEVCONF_FORWARDING-1]=-1' \
	'IFLA_TUN_TYPE}, IFF_TAP' 'IFLA_BRPORT_COST}, 16' 'IFLA_ADDRESS}, 02]' \
	'{ndm_family=AF_INET6, ...}' 'EFAULT' 'TCA_ACT_KIND}, "gact"' \
	'IFLA_PORT_VSI_TYPE}, {vsi_mgr_id=1' 'NHA_RES_GROUP_BUCKETS}, 8' 'IFLA_EVENT}, IFLA_EVENT_REBOOT'; do
	grep -qF "$want" "$STRACE_OUT" || fail "strace's trace of netlinkroute lacks '$want'"
done

# the eBPF recorder prints what the tracer prints
if "$RENACER" --backend ebpf -o /dev/null true >/dev/null 2>&1; then
	for opts in "" "-X verbose" "-s 4"; do
		# shellcheck disable=SC2086
		RENACER_BACKEND=ebpf compare_with_strace $opts -e trace=$calls -- "$prog" || rc=1
	done
fi

# real tools on a veth pair, a bridge and the objects they list
for p in default all; do
	sysctl -qw "net.ipv6.conf.$p.disable_ipv6=1" 2>/dev/null
done
ip link set lo up
if ip link add v0 type veth peer name v1 2>/dev/null; then
	ip link add br0 type bridge 2>/dev/null && ip link set v1 master br0 && ip link set br0 up
	ip link set v0 up && ip link set v1 up
	ip addr add 10.0.0.1/24 dev v0
	ip neigh add 10.0.0.2 lladdr 00:11:22:33:44:55 dev v0
	ip nexthop add id 1 via 10.0.0.2 dev v0 2>/dev/null &&
		ip nexthop add id 2 group 1 2>/dev/null
	tc qdisc add dev v0 root handle 1: htb default 10 2>/dev/null &&
		tc class add dev v0 parent 1: classid 1:10 htb rate 1mbit 2>/dev/null
	tc qdisc add dev v0 ingress 2>/dev/null &&
		tc filter add dev v0 parent ffff: protocol ip prio 1 matchall action drop 2>/dev/null
fi
ip rule add from 10.1.0.0/16 table 100 pref 100
ip rule add fwmark 0x10/0xff table 200 pref 101 uidrange 1000-2000 ipproto tcp sport 100-200 2>/dev/null
ip addrlabel add prefix 2001:db8::/32 label 99 2>/dev/null
for args in neigh rule "-6 rule" netconf nexthop addrlabel ntable "-d link" "-s link" \
	"stats show dev lo" "stats show dev lo group offload"; do
	# shellcheck disable=SC2086
	compare_with_strace -e trace=$calls -- "$ip" $args || rc=1
done
for opts in "-X raw" "-X verbose" "-v"; do
	# shellcheck disable=SC2086
	compare_with_strace $opts -e trace=$calls -- "$ip" rule || rc=1
	# shellcheck disable=SC2086
	compare_with_strace $opts -e trace=$calls -- "$ip" -d link show dev lo || rc=1
done
compare_with_strace -e trace=$calls -- "$ip" rule >/dev/null 2>&1
grep -qF 'nlmsg_type=RTM_NEWRULE' "$STRACE_OUT" || fail "strace's trace of ip rule lacks RTM_NEWRULE"
if command -v tc >/dev/null 2>&1; then
	tc=$(command -v tc)
	for args in "qdisc show" "-s qdisc show" "-s class show dev v0" \
		"filter show dev v0 ingress" "actions ls action gact"; do
		# shellcheck disable=SC2086
		compare_with_strace -e trace=$calls -- "$tc" $args || rc=1
	done
	compare_with_strace -v -e trace=$calls -- "$tc" -s qdisc show || rc=1
fi
if command -v bridge >/dev/null 2>&1 && [ -d /sys/class/net/br0 ]; then
	bridge=$(command -v bridge)
	for args in link fdb mdb vlan; do
		# shellcheck disable=SC2086
		compare_with_strace -e trace=$calls -- "$bridge" $args || rc=1
	done
	compare_with_strace -v -e trace=$calls -- "$bridge" link || rc=1
	grep -qF 'NLA_F_NESTED|IFLA_PROTINFO}, [[' "$STRACE_OUT" ||
		fail "strace's trace of bridge link lacks IFLA_PROTINFO"
fi
exit $rc
