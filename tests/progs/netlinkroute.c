/*
 * NETLINK_ROUTE messages beside links, addresses and routes for the netlink
 * decoder (tests/t/decode_netlink_route_more.sh): neighbours, rules, tc
 * messages with their stats, netconf, nexthops, address labels, dcbmsg,
 * mdb, RTM_*STATS and RTM_*NSID, link attributes (IFLA_AF_SPEC,
 * IFLA_PROTINFO, a tun's IFLA_INFO_DATA), each with attributes of every
 * decoded type and unknown ones; messages cut short, one running into an
 * unmapped page, a call that fails.  All sent with MSG_DONTWAIT and the
 * kernel's answers never read: only the requests are compared.
 */
#include <linux/dcbnl.h>
#include <linux/fib_rules.h>
#include <linux/gen_stats.h>
#include <linux/if_addrlabel.h>
#include <linux/if_bridge.h>
#include <linux/if_link.h>
#include <linux/if_tun.h>
#include <linux/neighbour.h>
#include <linux/net_namespace.h>
#include <linux/netconf.h>
#include <linux/netlink.h>
#include <linux/nexthop.h>
#include <linux/pkt_cls.h>
#include <linux/pkt_sched.h>
#include <linux/rtnetlink.h>
#include <arpa/inet.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>

static union {
	struct nlmsghdr h;
	char buf[4096];
} m;
static unsigned nest[8], depth;
static int fd;

static void begin(unsigned short type, const void *hdr, unsigned len)
{
	memset(&m, 0, sizeof(m));
	m.h.nlmsg_len = NLMSG_LENGTH(len);
	m.h.nlmsg_type = type;
	m.h.nlmsg_flags = NLM_F_REQUEST;
	m.h.nlmsg_seq = 1;
	memcpy(NLMSG_DATA(&m.h), hdr, len);
	m.h.nlmsg_len = NLMSG_ALIGN(m.h.nlmsg_len);
}

static void attr(unsigned short type, const void *data, unsigned len)
{
	struct nlattr *a = (struct nlattr *)(m.buf + m.h.nlmsg_len);

	a->nla_type = type;
	a->nla_len = (unsigned short)(NLA_HDRLEN + len);
	if (len)
		memcpy((char *)a + NLA_HDRLEN, data, len);
	m.h.nlmsg_len += NLA_ALIGN(a->nla_len);
}

static void attr32(unsigned short type, uint32_t x)
{
	attr(type, &x, sizeof(x));
}

static void open_nest(unsigned short type)
{
	nest[depth++] = m.h.nlmsg_len;
	attr(type | NLA_F_NESTED, NULL, 0);
}

static void close_nest(void)
{
	unsigned at = nest[--depth];

	((struct nlattr *)(m.buf + at))->nla_len = (unsigned short)(m.h.nlmsg_len - at);
}

static void send_msg(void)
{
	sendto(fd, &m, m.h.nlmsg_len, MSG_DONTWAIT, NULL, 0);
}

static void neigh(void)
{
	struct ndmsg nd = { .ndm_family = AF_INET, .ndm_ifindex = 1,
			    .ndm_state = NUD_REACHABLE | NUD_PERMANENT,
			    .ndm_flags = NTF_SELF | NTF_ROUTER, .ndm_type = RTN_UNICAST };
	struct nda_cacheinfo ci = { 1, 2, 3, 4 };
	uint8_t mac[6] = { 0, 0x11, 0x22, 0x33, 0x44, 0x55 };
	uint16_t port = htons(4789), vlan = 10, states = NUD_STALE | 0x300;
	uint8_t proto = 6, notify = 3, flags = NTF_USE;
	struct in_addr a = { htonl(0x0a000002) };

	begin(RTM_NEWNEIGH, &nd, sizeof(nd));
	attr(NDA_DST, &a, sizeof(a));
	attr(NDA_LLADDR, mac, sizeof(mac));
	attr(NDA_CACHEINFO, &ci, sizeof(ci));
	attr32(NDA_PROBES, 3);
	attr(NDA_VLAN, &vlan, sizeof(vlan));
	attr(NDA_PORT, &port, sizeof(port));
	attr32(NDA_VNI, 42);
	attr32(NDA_IFINDEX, 1);
	attr32(NDA_MASTER, 1);
	attr(NDA_PROTOCOL, &proto, 1);
	open_nest(NDA_FDB_EXT_ATTRS);
	attr(NFEA_ACTIVITY_NOTIFY, &notify, 1);
	attr(NFEA_DONT_REFRESH, NULL, 0);
	close_nest();
	attr32(NDA_FLAGS_EXT, 3);
	attr(NDA_NDM_STATE_MASK, &states, sizeof(states));
	attr(NDA_NDM_FLAGS_MASK, &flags, 1);
	attr32(0x40, 7);
	send_msg();

	/* IPv6, a short cacheinfo, a dump request of the bridge's fdb (an
	 * ifinfomsg) and a header cut short */
	nd.ndm_family = AF_INET6;
	nd.ndm_state = 0;
	nd.ndm_flags = 0;
	begin(RTM_DELNEIGH, &nd, sizeof(nd));
	attr(NDA_DST, "\xfe\x80\0\0\0\0\0\0\0\0\0\0\0\0\0\x02", 16);
	attr(NDA_CACHEINFO, &ci, 8);
	send_msg();
	{
		struct ifinfomsg ifi = { .ifi_family = AF_BRIDGE, .ifi_index = 1 };

		begin(RTM_GETNEIGH, &ifi, sizeof(ifi));
		m.h.nlmsg_flags |= NLM_F_DUMP;
		send_msg();
	}
	begin(RTM_GETNEIGH, &nd, 4);
	send_msg();
}

static void rule(void)
{
	struct fib_rule_hdr h = { .family = AF_INET, .dst_len = 8, .src_len = 16,
				  .tos = 0x10, .table = 100, .action = FR_ACT_GOTO,
				  .flags = FIB_RULE_INVERT | 0x100000 };
	struct fib_rule_uid_range uid = { 1000, 2000 };
	struct fib_rule_port_range ports = { 80, 443 };
	uint64_t tun = 0x0102030405060708ULL;
	uint8_t one = 1, proto = 4, ipproto = 17;
	struct in_addr a = { htonl(0x0a010000) };

	begin(RTM_NEWRULE, &h, sizeof(h));
	attr(FRA_DST, &a, sizeof(a));
	attr(FRA_SRC, &a, 3);
	attr(FRA_IIFNAME, "lo", 3);
	attr32(FRA_GOTO, 200);
	attr32(FRA_PRIORITY, 100);
	attr32(FRA_FWMARK, 0x10);
	attr32(FRA_FLOW, 5);
	attr(FRA_TUN_ID, &tun, sizeof(tun));
	attr32(FRA_SUPPRESS_IFGROUP, 1);
	attr32(FRA_SUPPRESS_PREFIXLEN, 0xffffffff);
	attr32(FRA_TABLE, RT_TABLE_MAIN);
	attr32(FRA_FWMASK, 0xff);
	attr(FRA_OIFNAME, "eth0", 4);
	attr(FRA_L3MDEV, &one, 1);
	attr(FRA_UID_RANGE, &uid, sizeof(uid));
	attr(FRA_PROTOCOL, &proto, 1);
	attr(FRA_IP_PROTO, &ipproto, 1);
	attr(FRA_SPORT_RANGE, &ports, sizeof(ports));
	attr(FRA_DPORT_RANGE, &ports, sizeof(ports));
	attr32(0x30, 1);
	send_msg();
	h.family = AF_INET6;
	h.table = RT_TABLE_LOCAL;
	h.action = 0x55;
	h.flags = 0;
	begin(RTM_GETRULE, &h, sizeof(h));
	attr(FRA_DST, "\x20\x01\x0d\xb8\0\0\0\0\0\0\0\0\0\0\0\x01", 16);
	send_msg();
}

static void tc(void)
{
	struct tcmsg t = { .tcm_family = AF_UNSPEC, .tcm_ifindex = 1,
			   .tcm_handle = 0x10000, .tcm_parent = 0xffffffff, .tcm_info = 7 };
	struct tc_stats st = { 100, 2, 3, 4, 5, 6, 7, 8 };
	struct tc_estimator est = { -2, 3 };
	struct gnet_stats_basic basic = { 1000, 10 };
	struct gnet_stats_rate_est rate = { 11, 12 };
	struct gnet_stats_queue q = { 1, 2, 3, 4, 5 };
	struct gnet_stats_rate_est64 rate64 = { 13, 14 };
	struct tc_sizespec sz = { 1, 2, -3, -4, 5, 6, 7, 8 };
	uint16_t data[40];
	uint64_t pkts = 99;
	uint8_t hw = 1;

	for (unsigned i = 0; i < 40; i++)
		data[i] = (uint16_t)(i * 3);
	begin(RTM_NEWQDISC, &t, sizeof(t));
	attr(TCA_KIND, "htb", 4);
	attr(TCA_OPTIONS, "\1\2\3\4", 4);
	attr(TCA_STATS, &st, sizeof(st));
	attr(TCA_RATE, &est, sizeof(est));
	attr32(TCA_FCNT, 3);
	open_nest(TCA_STATS2);
	attr(TCA_STATS_BASIC, &basic, 12);
	attr(TCA_STATS_RATE_EST, &rate, sizeof(rate));
	attr(TCA_STATS_QUEUE, &q, sizeof(q));
	attr(TCA_STATS_APP, "\0\0\0\0", 4);
	attr(TCA_STATS_RATE_EST64, &rate64, sizeof(rate64));
	attr(TCA_STATS_BASIC_HW, &basic, 16);
	attr(TCA_STATS_PKT64, &pkts, sizeof(pkts));
	close_nest();
	open_nest(TCA_STAB);
	attr(TCA_STAB_BASE, &sz, sizeof(sz));
	attr(TCA_STAB_DATA, data, sizeof(data));
	close_nest();
	attr32(TCA_CHAIN, 0);
	attr(TCA_HW_OFFLOAD, &hw, 1);
	attr32(TCA_INGRESS_BLOCK, 1);
	attr32(TCA_EGRESS_BLOCK, 2);
	attr32(TCA_DUMP_FLAGS, 1);
	attr(0x40, "x", 1);
	send_msg();
	begin(RTM_GETTCLASS, &t, sizeof(t));
	attr(TCA_STATS, &st, 20);
	send_msg();
	begin(RTM_DELTFILTER, &t, sizeof(t) - 4);
	send_msg();
	begin(RTM_GETCHAIN, &t, sizeof(t));
	attr32(TCA_CHAIN, 3);
	send_msg();
}

static void others(void)
{
	struct netconfmsg ncm = { .ncm_family = AF_INET };
	struct nhmsg nh = { .nh_family = AF_INET, .nh_scope = RT_SCOPE_LINK,
			    .nh_protocol = RTPROT_STATIC, .nh_flags = RTNH_F_ONLINK | 0x400 };
	struct nexthop_grp grp[3] = { { 1, 0, 0, 0 }, { 2, 5, 1, 0 }, { 3, 0, 0, 7 } };
	struct ifaddrlblmsg lbl = { .ifal_family = AF_INET6, .ifal_prefixlen = 32,
				    .ifal_index = 1, .ifal_seq = 9 };
	struct dcbmsg dcb = { .dcb_family = AF_UNSPEC, .cmd = DCB_CMD_GSTATE };
	struct rtgenmsg gen = { .rtgen_family = AF_UNSPEC };
	uint16_t grp_type = NEXTHOP_GRP_TYPE_MPATH;
	struct in_addr gw = { htonl(0x0a000001) };

	begin(RTM_NEWNETCONF, &ncm, sizeof(ncm));
	attr32(NETCONFA_IFINDEX, 1);
	attr32(NETCONFA_FORWARDING, 1);
	attr32(NETCONFA_RP_FILTER, 2);
	attr32(NETCONFA_MC_FORWARDING, 0);
	attr32(NETCONFA_PROXY_NEIGH, 0);
	attr32(NETCONFA_IGNORE_ROUTES_WITH_LINKDOWN, 1);
	attr32(NETCONFA_INPUT, 1);
	attr32(NETCONFA_BC_FORWARDING, (uint32_t)-1);
	send_msg();

	begin(RTM_NEWNEXTHOP, &nh, sizeof(nh));
	attr32(NHA_ID, 7);
	attr32(NHA_OIF, 1);
	attr(NHA_GATEWAY, &gw, sizeof(gw));
	attr(NHA_GROUP, grp, sizeof(grp));
	attr(NHA_GROUP_TYPE, &grp_type, sizeof(grp_type));
	attr(NHA_BLACKHOLE, NULL, 0);
	attr32(NHA_MASTER, 1);
	attr32(0x30, 1);
	send_msg();

	begin(RTM_NEWADDRLABEL, &lbl, sizeof(lbl));
	attr(IFAL_ADDRESS, "\x20\x01\x0d\xb8\0\0\0\0\0\0\0\0\0\0\0\0", 16);
	attr32(IFAL_LABEL, 99);
	send_msg();

	begin(RTM_GETDCB, &dcb, sizeof(dcb));
	attr(DCB_ATTR_IFNAME, "lo", 3);
	send_msg();

	begin(RTM_NEWNSID, &gen, sizeof(gen));
	attr32(NETNSA_NSID, (uint32_t)-1);
	attr32(NETNSA_PID, 1);
	attr32(NETNSA_FD, 0);
	attr32(NETNSA_TARGET_NSID, 3);
	send_msg();
}

static void mdb_stats(void)
{
	struct br_port_msg bpm = { .family = AF_BRIDGE, .ifindex = 1 };
	struct br_mdb_entry e = { .ifindex = 1, .state = MDB_PERMANENT,
				  .flags = MDB_FLAGS_OFFLOAD, .vid = 5 };
	struct if_stats_msg ism = { .family = AF_UNSPEC, .ifindex = 1,
				    .filter_mask = IFLA_STATS_FILTER_BIT(IFLA_STATS_LINK_64) |
						   IFLA_STATS_FILTER_BIT(IFLA_STATS_LINK_XSTATS) |
						   0x400 };
	struct bridge_stp_xstats stp = { 1, 2, 3, 4, 5, 6 };
	struct bridge_vlan_xstats vx = { 1, 2, 3, 4, 10, BRIDGE_VLAN_INFO_PVID, 0 };
	struct br_mcast_stats mc;
	uint64_t timer = 25000;
	uint8_t rtr = MDB_RTR_TYPE_PERM;

	e.addr.u.ip4 = htonl(0xe0000001);
	e.addr.proto = htons(0x0800);
	begin(RTM_NEWMDB, &bpm, sizeof(bpm));
	open_nest(MDBA_MDB);
	open_nest(MDBA_MDB_ENTRY);
	m.h.nlmsg_len -= NLA_HDRLEN;
	{
		char info[sizeof(e) + 4 + 12];
		struct nlattr *a = (struct nlattr *)(info + NLMSG_ALIGN(sizeof(e)));

		memset(info, 0, sizeof(info));
		memcpy(info, &e, sizeof(e));
		a->nla_len = 12;
		a->nla_type = MDBA_MDB_EATTR_TIMER;
		memcpy(a + 1, &timer, sizeof(timer));
		m.h.nlmsg_len += NLA_HDRLEN;
		attr(MDBA_MDB_ENTRY_INFO, info, NLMSG_ALIGN(sizeof(e)) + 12);
	}
	close_nest();
	close_nest();
	open_nest(MDBA_ROUTER);
	{
		char port[4 + 5 + 3];
		struct nlattr *a = (struct nlattr *)(port + 4);
		uint32_t idx = 1;

		memset(port, 0, sizeof(port));
		memcpy(port, &idx, 4);
		a->nla_len = 5;
		a->nla_type = MDBA_ROUTER_PATTR_TYPE;
		memcpy(a + 1, &rtr, 1);
		attr(MDBA_ROUTER_PORT, port, 9);
	}
	close_nest();
	send_msg();

	memset(&mc, 0, sizeof(mc));
	mc.igmp_v2queries[1] = 3;
	mc.mcast_bytes[0] = 77;
	begin(RTM_NEWSTATS, &ism, sizeof(ism));
	open_nest(IFLA_STATS_LINK_XSTATS);
	open_nest(LINK_XSTATS_TYPE_BRIDGE);
	attr(BRIDGE_XSTATS_STP, &stp, sizeof(stp));
	attr(BRIDGE_XSTATS_VLAN, &vx, sizeof(vx));
	attr(BRIDGE_XSTATS_MCAST, &mc, sizeof(mc));
	close_nest();
	close_nest();
	open_nest(IFLA_STATS_AF_SPEC);
	attr(AF_INET, "\1\2\3\4", 4);
	close_nest();
	send_msg();
	begin(RTM_GETSTATS, &ism, 8);
	send_msg();
}

static void links(void)
{
	struct ifinfomsg ifi = { .ifi_family = AF_UNSPEC, .ifi_index = 1 };
	int conf[40];
	uint64_t stats[40];
	uint32_t flags = 0x80000000 | 0x10;
	uint8_t mode = 1, tun_type = IFF_TAP, state = 3;
	uint16_t prio = 32;
	struct ifla_bridge_id id = { { 0x80, 0 }, { 2, 4, 6, 8, 10, 12 } };

	for (unsigned i = 0; i < 40; i++) {
		conf[i] = (int)i - 1;
		stats[i] = i * 1000;
	}
	begin(RTM_NEWLINK, &ifi, sizeof(ifi));
	attr(IFLA_ADDRESS, "\x02\x11\x22\x33\x44\x55", 6);
	open_nest(IFLA_AF_SPEC);
	open_nest(AF_INET);
	attr(IFLA_INET_CONF, conf, 4 * 33);
	close_nest();
	open_nest(AF_INET6);
	attr32(IFLA_INET6_FLAGS, flags);
	attr(IFLA_INET6_CONF, conf, sizeof(conf));
	attr(IFLA_INET6_STATS, stats, 8 * 38);
	attr(IFLA_INET6_ICMP6STATS, stats, 8 * 7);
	attr(IFLA_INET6_TOKEN, "\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\x09", 16);
	attr(IFLA_INET6_ADDR_GEN_MODE, &mode, 1);
	close_nest();
	open_nest(AF_PACKET);
	attr32(1, 2);
	close_nest();
	close_nest();
	open_nest(IFLA_LINKINFO);
	attr(IFLA_INFO_KIND, "tun", 4);
	open_nest(IFLA_INFO_DATA);
	attr32(IFLA_TUN_OWNER, 1000);
	attr32(IFLA_TUN_GROUP, 1000);
	attr(IFLA_TUN_TYPE, &tun_type, 1);
	attr(IFLA_TUN_PI, &mode, 1);
	attr32(IFLA_TUN_NUM_QUEUES, 4);
	close_nest();
	attr(IFLA_INFO_SLAVE_KIND, "bridge", 7);
	open_nest(IFLA_INFO_SLAVE_DATA);
	attr(IFLA_BRPORT_STATE, &state, 1);
	attr(IFLA_BRPORT_PRIORITY, &prio, 2);
	attr(IFLA_BRPORT_ROOT_ID, &id, sizeof(id));
	close_nest();
	close_nest();
	open_nest(IFLA_PROTINFO);
	attr(IFLA_BRPORT_COST, "\x10\0\0\0", 4);
	attr(IFLA_BRPORT_BRIDGE_ID, &id, sizeof(id));
	close_nest();
	send_msg();

	/* AF_BRIDGE: the address family read as a hardware type (1 byte),
	 * IFLA_PROTINFO decoded (a hex string above) */
	ifi.ifi_family = AF_BRIDGE;
	begin(RTM_SETLINK, &ifi, sizeof(ifi));
	attr(IFLA_ADDRESS, "\x02\x11\x22\x33\x44\x55", 6);
	open_nest(IFLA_LINKINFO);
	attr(IFLA_INFO_KIND, "bridge", 7);
	open_nest(IFLA_INFO_DATA);
	attr32(IFLA_BR_FORWARD_DELAY, 1500);
	attr(IFLA_BR_BRIDGE_ID, &id, sizeof(id));
	attr(IFLA_BR_GROUP_ADDR, "\x01\x80\xc2\0\0\0", 6);
	{
		struct br_boolopt_multi bo = { 1, 7 | 0x20 };
		uint16_t proto = htons(0x8100);

		attr(IFLA_BR_MULTI_BOOLOPT, &bo, sizeof(bo));
		attr(IFLA_BR_VLAN_PROTOCOL, &proto, 2);
	}
	close_nest();
	close_nest();
	open_nest(IFLA_PROTINFO);
	attr(IFLA_BRPORT_COST, "\x10\0\0\0", 4);
	attr(IFLA_BRPORT_BRIDGE_ID, &id, sizeof(id));
	close_nest();
	send_msg();
}

/* the less common link, nexthop and tc action attributes */
static void extras(void)
{
	struct ifinfomsg ifi = { .ifi_family = AF_UNSPEC };
	struct nhmsg nh = { .nh_family = AF_INET, .resvd = 3 };
	struct tcamsg tca = { .tca_family = AF_UNSPEC };
	struct ifla_port_vsi vsi = { 1, { 2, 3, 4 }, 5, { 0, 0, 0 } };
	struct gnet_stats_basic basic = { 5, 6 };
	uint16_t encap = 1, buckets = 8;
	uint64_t idle = 120;
	uint32_t x = 1;

	begin(RTM_NEWLINK, &ifi, sizeof(ifi));
	attr32(IFLA_EVENT, 1);
	attr32(IFLA_NET_NS_FD, 0);
	open_nest(IFLA_VFINFO_LIST);
	open_nest(IFLA_VF_INFO);
	attr32(1, 7);
	close_nest();
	close_nest();
	attr(IFLA_PHYS_PORT_ID, "ab", 2);
	open_nest(IFLA_XDP);
	attr32(IFLA_XDP_FD, 0);
	attr32(IFLA_XDP_FLAGS, XDP_FLAGS_SKB_MODE | 0x100);
	attr32(IFLA_XDP_EXPECTED_FD, 2);
	close_nest();
	open_nest(IFLA_PROTO_DOWN_REASON);
	attr32(IFLA_PROTO_DOWN_REASON_MASK, 0xff);
	attr32(IFLA_PROTO_DOWN_REASON_VALUE, 1);
	close_nest();
	open_nest(IFLA_PORT_SELF);
	attr32(IFLA_PORT_VF, 1);
	attr(IFLA_PORT_PROFILE, "prof", 5);
	attr(IFLA_PORT_VSI_TYPE, &vsi, sizeof(vsi));
	attr(IFLA_PORT_HOST_UUID, "0123456789abcdef", 16);
	close_nest();
	open_nest(IFLA_VF_PORTS);
	open_nest(IFLA_VF_PORT);
	attr(IFLA_PORT_RESPONSE, &encap, 2);
	close_nest();
	close_nest();
	send_msg();

	begin(RTM_NEWNEXTHOP, &nh, sizeof(nh));
	attr(NHA_ENCAP_TYPE, &encap, sizeof(encap));
	attr(NHA_FDB, NULL, 0);
	open_nest(NHA_RES_GROUP);
	attr(NHA_RES_GROUP_BUCKETS, &buckets, sizeof(buckets));
	attr(NHA_RES_GROUP_IDLE_TIMER, &idle, sizeof(idle));
	close_nest();
	open_nest(NHA_RES_BUCKET);
	attr(NHA_RES_BUCKET_INDEX, &buckets, sizeof(buckets));
	attr(NHA_RES_BUCKET_IDLE_TIME, &idle, sizeof(idle));
	attr32(NHA_RES_BUCKET_NH_ID, 3);
	close_nest();
	send_msg();

	begin(RTM_GETACTION, &tca, sizeof(tca));
	attr(TCA_ACT_KIND, "gact", 5);
	attr32(TCA_ACT_INDEX, 1);
	open_nest(TCA_ACT_STATS);
	attr(TCA_STATS_BASIC, &basic, 12);
	close_nest();
	attr(TCA_ACT_COOKIE, "\1\2", 2);
	attr32(TCA_ACT_FLAGS, 3);
	attr(TCA_ACT_HW_STATS, &x, 4);
	attr32(TCA_ACT_USED_HW_STATS, 2);
	attr32(TCA_ACT_IN_HW_COUNT, 0);
	send_msg();
}

int main(void)
{
	char *page;

	struct sockaddr_nl nl = { .nl_family = AF_NETLINK };

	/* bound first: strace finds an unbound netlink socket's protocol in
	 * no sock_diag dump and would print the first request undecoded */
	fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE);
	if (fd < 0 || bind(fd, (struct sockaddr *)&nl, sizeof(nl)))
		return 1;
	neigh();
	rule();
	tc();
	others();
	mdb_stats();
	links();
	extras();

	/* a message running into an unmapped page, one at a bad address */
	page = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (page != MAP_FAILED) {
		struct ndmsg nd = { .ndm_family = AF_INET, .ndm_ifindex = 1 };

		munmap(page + 4096, 4096);
		begin(RTM_NEWNEIGH, &nd, sizeof(nd));
		attr32(NDA_PROBES, 1);
		attr32(NDA_VNI, 2);
		m.h.nlmsg_len += 16;
		memcpy(page + 4096 - 40, &m, 40);
		sendto(fd, page + 4096 - 40, m.h.nlmsg_len, MSG_DONTWAIT, NULL, 0);
		sendto(fd, page + 4096, 64, MSG_DONTWAIT, NULL, 0);
	}
	close(fd);
	return 0;
}
