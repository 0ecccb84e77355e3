/*
 * NETLINK_ROUTE payloads as strace 6.1 prints them: ifinfomsg (RTM_*LINK),
 * ifaddrmsg (RTM_*ADDR) and rtmsg (RTM_*ROUTE) with their attributes; the
 * other types netlink_route_more.c decodes, the rest print as
 * {family=AF_..., data="..."}.
 */
#include "sys/netlink_route.h"

#include <stddef.h>
#include <arpa/inet.h>
#include <string.h>
#include <sys/socket.h>
#include <linux/if_addr.h>
#include <linux/if_link.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>

#include "xlat/addrfams.h"
#include "xlat/br_boolopt_flags.h"
#include "xlat/ethernet_protocols.h"
#include "xlat/rtnl_ifla_brport_attrs.h"
#include "xlat/rtnl_ifla_events.h"
#include "xlat/rtnl_ifla_port_attrs.h"
#include "xlat/rtnl_ifla_proto_down_reason_attrs.h"
#include "xlat/rtnl_ifla_vf_port_attrs.h"
#include "xlat/rtnl_ifla_vf_info_attrs.h"
#include "xlat/rtnl_ifla_vfinfo_list_attrs.h"
#include "xlat/xdp_flags.h"
#include "xlat/rtnl_ifla_info_data_bridge_attrs.h"
#include "xlat/rtnl_ifla_info_data_tun_attrs.h"
#include "xlat/tun_device_types.h"
#include "xlat/in6_addr_gen_mode.h"
#include "xlat/inet6_devconf_indices.h"
#include "xlat/inet6_if_flags.h"
#include "xlat/inet_devconf_indices.h"
#include "xlat/rtnl_ifla_af_spec_inet6_attrs.h"
#include "xlat/rtnl_ifla_af_spec_inet_attrs.h"
#include "xlat/snmp_icmp6_stats.h"
#include "xlat/snmp_ip_stats.h"
#include "xlat/arp_hardware_types.h"
#include "xlat/ifaddrflags.h"
#include "xlat/iffflags.h"
#include "xlat/routing_flags.h"
#include "xlat/routing_protocols.h"
#include "xlat/routing_scopes.h"
#include "xlat/routing_table_ids.h"
#include "xlat/routing_types.h"
#include "xlat/rtnl_addr_attrs.h"
#include "xlat/rtnl_ifla_ext_filter.h"
#include "xlat/rtnl_link_attrs.h"
#include "xlat/rtnl_route_attrs.h"
#include "sys/decode_extra.h"
#include "util/xmalloc.h"
#include "util/banned.h"

/* ---- ifinfomsg ------------------------------------------------------------ */

static const char *const link_stats_names[] = {
	"rx_packets", "tx_packets", "rx_bytes", "tx_bytes", "rx_errors", "tx_errors",
	"rx_dropped", "tx_dropped", "multicast", "collisions", "rx_length_errors",
	"rx_over_errors", "rx_crc_errors", "rx_frame_errors", "rx_fifo_errors",
	"rx_missed_errors", "tx_aborted_errors", "tx_carrier_errors", "tx_fifo_errors",
	"tx_heartbeat_errors", "tx_window_errors", "rx_compressed", "tx_compressed",
	"rx_nohandler", "rx_otherhost_dropped",
};

/* rtnl_link_stats (32-bit counters, strace shows up to rx_nohandler) and
 * rtnl_link_stats64 (up to rx_otherhost_dropped): the full structure, or
 * the old one ending at tx_compressed when that is the exact length. */
static bool link_stats(const struct nlctx *n, struct val *v, uint64_t off, unsigned len,
		       unsigned size, unsigned full)
{
	unsigned min = 23;

	if (len >= full * size)
		return nl_uint_struct(n, v, off, len, full, size, link_stats_names);
	if (len == min * size)
		return nl_uint_struct(n, v, off, len, min, size, link_stats_names);
	return false;
}

static bool ifla_stats(const struct nlctx *n, struct val *v, uint64_t off, unsigned len,
		       const void *o)
{
	return link_stats(n, v, off, len, 4, 24);
}

bool nla_link_stats64(const struct nlctx *n, struct val *v, uint64_t off, unsigned len,
		      const void *o)
{
	return link_stats(n, v, off, len, 8, 25);
}

static bool ifla_map(const struct nlctx *n, struct val *v, uint64_t off, unsigned len,
		     const void *o)
{
	struct rtnl_link_ifmap m;
	const size_t size = offsetof(struct rtnl_link_ifmap, port) + sizeof(m.port);
	struct val *f;

	if (len < size)
		return false;
	if (!nl_fetch(n, off, &m, size)) {
		nl_addr(n, v, NULL, off);
		return true;
	}
	f = val_new_array(n->c, 6);
	val_set_hex(&f[0], "mem_start", m.mem_start);
	val_set_hex(&f[1], "mem_end", m.mem_end);
	val_set_hex(&f[2], "base_addr", m.base_addr);
	val_set_uint(&f[3], "irq", m.irq);
	val_set_uint(&f[4], "dma", m.dma);
	val_set_uint(&f[5], "port", m.port);
	val_set_struct(v, NULL, f, 6, false);
	return true;
}

NLA_XVAL_FN(ifla_ext_mask, 4, rtnl_ifla_ext_filter, true)

/* The kinds an IFLA_LINKINFO names before its data (strace's
 * ifla_linkinfo_ctx): what IFLA_INFO_DATA and IFLA_INFO_SLAVE_DATA hold. */
struct linkinfo_ctx {
	char kind[16];       /* IFLA_INFO_KIND, "" when unread or unterminated */
	char slave_kind[16]; /* IFLA_INFO_SLAVE_KIND */
};

/* Reads up to sizeof(kind) bytes of a kind string: "" unless a NUL ends
 * it within them (umovestr). */
static void read_kind(const struct nlctx *n, char *kind, size_t size, uint64_t off,
		      unsigned len)
{
	size_t got = len < size ? len : size;

	memset(kind, 0, size);
	if (!nl_fetch(n, off, kind, got) || !memchr(kind, '\0', got))
		memset(kind, 0, size);
}

/* IFLA_INFO_KIND: printstr_ex(QUOTE_0_TERMINATED): up to the first NUL. */
static bool info_kind(const struct nlctx *n, struct val *v, uint64_t off, unsigned len,
		      const void *o)
{
	struct linkinfo_ctx *ctx = (struct linkinfo_ctx *)(uintptr_t)o;
	uint64_t limit = n->c->opts->string_limit;
	uint64_t need = len < limit + 1 ? len : limit + 1;
	const char *s;
	size_t slen;

	read_kind(n, ctx->kind, sizeof(ctx->kind), off, len);
	s = (const char *)nl_peek(n, off, (size_t)need);
	if (!s) {
		nl_addr(n, v, NULL, off);
		return true;
	}
	slen = strnlen(s, (size_t)need);
	if (slen > limit)
		val_set_str(n->c, v, NULL, s, (size_t)limit, true);
	else
		val_set_str(n->c, v, NULL, s, slen, slen == need);
	return true;
}

static bool info_slave_kind(const struct nlctx *n, struct val *v, uint64_t off, unsigned len,
			    const void *o)
{
	struct linkinfo_ctx *ctx = (struct linkinfo_ctx *)(uintptr_t)o;

	read_kind(n, ctx->slave_kind, sizeof(ctx->slave_kind), off, len);
	return nla_str(n, v, off, len, NULL);
}

static const struct xlat_data ifla_info_data[] = {
	{ IFLA_INFO_UNSPEC, "IFLA_INFO_UNSPEC" }, { IFLA_INFO_KIND, "IFLA_INFO_KIND" },
	{ IFLA_INFO_DATA, "IFLA_INFO_DATA" }, { IFLA_INFO_XSTATS, "IFLA_INFO_XSTATS" },
	{ IFLA_INFO_SLAVE_KIND, "IFLA_INFO_SLAVE_KIND" },
	{ IFLA_INFO_SLAVE_DATA, "IFLA_INFO_SLAVE_DATA" },
};
static const struct xlat ifla_info_attrs[1] = {
	{ ifla_info_data, ARRAY_SIZE(ifla_info_data), XT_ENUM, "IFLA_INFO_???" }
};

static bool nla_x16(const struct nlctx *n, struct val *v, uint64_t off, unsigned len,
		    const void *o)
{
	uint16_t x;

	if (len < sizeof(x))
		return false;
	if (!nl_fetch(n, off, &x, sizeof(x)))
		nl_addr(n, v, NULL, off);
	else
		val_set_hex(v, NULL, x);
	return true;
}

/* ifla_bridge_id: {prio=[128, 0], addr=aa:bb:cc:dd:ee:ff} */
static bool bridge_id(const struct nlctx *n, struct val *v, uint64_t off, unsigned len,
		      const void *o)
{
	struct ifla_bridge_id id;
	struct val *f, *p;

	if (len < sizeof(id))
		return false;
	if (!nl_fetch(n, off, &id, sizeof(id))) {
		nl_addr(n, v, NULL, off);
		return true;
	}
	f = val_new_array(n->c, 2);
	p = val_new_array(n->c, 2);
	val_set_uint(&p[0], NULL, id.prio[0]);
	val_set_uint(&p[1], NULL, id.prio[1]);
	val_set_array(&f[0], "prio", p, 2, false);
	val_set_mac(n->c, &f[1], "addr", id.addr, sizeof(id.addr));
	val_set_struct(v, NULL, f, 2, false);
	return true;
}

/* decode_nla_ether_proto: htons(ETH_P_...) */
static bool ether_proto(const struct nlctx *n, struct val *v, uint64_t off, unsigned len,
			const void *o)
{
	uint16_t x;
	struct val *it;

	if (len < sizeof(x))
		return false;
	if (!nl_fetch(n, off, &x, sizeof(x))) {
		nl_addr(n, v, NULL, off);
		return true;
	}
	it = val_new_array(n->c, 1);
	val_set_enum(it, NULL, ntohs(x), ethernet_protocols);
	val_set_call(n->c, v, NULL, "htons", it, 1);
	return true;
}

static bool br_multi_boolopt(const struct nlctx *n, struct val *v, uint64_t off, unsigned len,
			     const void *o)
{
	struct br_boolopt_multi b;
	struct val *f;

	if (len < sizeof(b))
		return false;
	if (!nl_fetch(n, off, &b, sizeof(b))) {
		nl_addr(n, v, NULL, off);
		return true;
	}
	f = val_new_array(n->c, 2);
	val_set_flags(&f[0], "optval", b.optval, br_boolopt_flags, NULL);
	val_set_flags(&f[1], "optmask", b.optmask, br_boolopt_flags, NULL);
	val_set_struct(v, NULL, f, 2, false);
	return true;
}

static const nla_fn br_fns[] = {
	[IFLA_BR_FORWARD_DELAY] = nla_clock_t,
	[IFLA_BR_HELLO_TIME] = nla_clock_t,
	[IFLA_BR_MAX_AGE] = nla_clock_t,
	[IFLA_BR_AGEING_TIME] = nla_clock_t,
	[IFLA_BR_STP_STATE] = nla_u32,
	[IFLA_BR_PRIORITY] = nla_u16,
	[IFLA_BR_VLAN_FILTERING] = nla_u8,
	[IFLA_BR_VLAN_PROTOCOL] = ether_proto,
	[IFLA_BR_GROUP_FWD_MASK] = nla_x16,
	[IFLA_BR_ROOT_ID] = bridge_id,
	[IFLA_BR_BRIDGE_ID] = bridge_id,
	[IFLA_BR_ROOT_PORT] = nla_u16,
	[IFLA_BR_ROOT_PATH_COST] = nla_u32,
	[IFLA_BR_TOPOLOGY_CHANGE] = nla_u8,
	[IFLA_BR_TOPOLOGY_CHANGE_DETECTED] = nla_u8,
	[IFLA_BR_HELLO_TIMER] = nla_clock_t,
	[IFLA_BR_TCN_TIMER] = nla_clock_t,
	[IFLA_BR_TOPOLOGY_CHANGE_TIMER] = nla_clock_t,
	[IFLA_BR_GC_TIMER] = nla_clock_t,
	[IFLA_BR_GROUP_ADDR] = nla_hwaddr,
	[IFLA_BR_MCAST_ROUTER] = nla_u8,
	[IFLA_BR_MCAST_SNOOPING] = nla_u8,
	[IFLA_BR_MCAST_QUERY_USE_IFADDR] = nla_u8,
	[IFLA_BR_MCAST_QUERIER] = nla_u8,
	[IFLA_BR_MCAST_HASH_ELASTICITY] = nla_u32,
	[IFLA_BR_MCAST_HASH_MAX] = nla_u32,
	[IFLA_BR_MCAST_LAST_MEMBER_CNT] = nla_u32,
	[IFLA_BR_MCAST_STARTUP_QUERY_CNT] = nla_u32,
	[IFLA_BR_MCAST_LAST_MEMBER_INTVL] = nla_clock_t,
	[IFLA_BR_MCAST_MEMBERSHIP_INTVL] = nla_clock_t,
	[IFLA_BR_MCAST_QUERIER_INTVL] = nla_clock_t,
	[IFLA_BR_MCAST_QUERY_INTVL] = nla_clock_t,
	[IFLA_BR_MCAST_QUERY_RESPONSE_INTVL] = nla_clock_t,
	[IFLA_BR_MCAST_STARTUP_QUERY_INTVL] = nla_clock_t,
	[IFLA_BR_NF_CALL_IPTABLES] = nla_u8,
	[IFLA_BR_NF_CALL_IP6TABLES] = nla_u8,
	[IFLA_BR_NF_CALL_ARPTABLES] = nla_u8,
	[IFLA_BR_VLAN_DEFAULT_PVID] = nla_u16,
	[IFLA_BR_VLAN_STATS_ENABLED] = nla_u8,
	[IFLA_BR_MCAST_STATS_ENABLED] = nla_u8,
	[IFLA_BR_MCAST_IGMP_VERSION] = nla_u8,
	[IFLA_BR_MCAST_MLD_VERSION] = nla_u8,
	[IFLA_BR_VLAN_STATS_PER_PORT] = nla_u8,
	[IFLA_BR_MULTI_BOOLOPT] = br_multi_boolopt,
};

NLA_XVAL_FN(tun_type, 1, tun_device_types, false)

static const nla_fn tun_fns[] = {
	[IFLA_TUN_OWNER] = nla_u32,
	[IFLA_TUN_GROUP] = nla_u32,
	[IFLA_TUN_TYPE] = tun_type,
	[IFLA_TUN_PI] = nla_u8,
	[IFLA_TUN_VNET_HDR] = nla_u8,
	[IFLA_TUN_PERSIST] = nla_u8,
	[IFLA_TUN_MULTI_QUEUE] = nla_u8,
	[IFLA_TUN_NUM_QUEUES] = nla_u32,
	[IFLA_TUN_NUM_DISABLED_QUEUES] = nla_u32,
};

static const nla_fn brport_fns[] = {
	[IFLA_BRPORT_STATE] = nla_u8,
	[IFLA_BRPORT_PRIORITY] = nla_u16,
	[IFLA_BRPORT_COST] = nla_u32,
	[IFLA_BRPORT_MODE] = nla_u8,
	[IFLA_BRPORT_GUARD] = nla_u8,
	[IFLA_BRPORT_PROTECT] = nla_u8,
	[IFLA_BRPORT_FAST_LEAVE] = nla_u8,
	[IFLA_BRPORT_LEARNING] = nla_u8,
	[IFLA_BRPORT_UNICAST_FLOOD] = nla_u8,
	[IFLA_BRPORT_PROXYARP] = nla_u8,
	[IFLA_BRPORT_LEARNING_SYNC] = nla_u8,
	[IFLA_BRPORT_PROXYARP_WIFI] = nla_u8,
	[IFLA_BRPORT_ROOT_ID] = bridge_id,
	[IFLA_BRPORT_BRIDGE_ID] = bridge_id,
	[IFLA_BRPORT_DESIGNATED_PORT] = nla_u16,
	[IFLA_BRPORT_DESIGNATED_COST] = nla_u16,
	[IFLA_BRPORT_ID] = nla_u16,
	[IFLA_BRPORT_NO] = nla_u16,
	[IFLA_BRPORT_TOPOLOGY_CHANGE_ACK] = nla_u8,
	[IFLA_BRPORT_CONFIG_PENDING] = nla_u8,
	[IFLA_BRPORT_MESSAGE_AGE_TIMER] = nla_clock_t,
	[IFLA_BRPORT_FORWARD_DELAY_TIMER] = nla_clock_t,
	[IFLA_BRPORT_HOLD_TIMER] = nla_clock_t,
	[IFLA_BRPORT_MULTICAST_ROUTER] = nla_u8,
	[IFLA_BRPORT_MCAST_FLOOD] = nla_u8,
	[IFLA_BRPORT_MCAST_TO_UCAST] = nla_u8,
	[IFLA_BRPORT_VLAN_TUNNEL] = nla_u8,
	[IFLA_BRPORT_BCAST_FLOOD] = nla_u8,
	[IFLA_BRPORT_GROUP_FWD_MASK] = nla_u16,
	[IFLA_BRPORT_NEIGH_SUPPRESS] = nla_u8,
	[IFLA_BRPORT_ISOLATED] = nla_u8,
	[IFLA_BRPORT_BACKUP_PORT] = nla_ifindex,
	[IFLA_BRPORT_MRP_RING_OPEN] = nla_u8,
	[IFLA_BRPORT_MRP_IN_OPEN] = nla_u8,
	[IFLA_BRPORT_MCAST_EHT_HOSTS_LIMIT] = nla_u32,
	[IFLA_BRPORT_MCAST_EHT_HOSTS_CNT] = nla_u32,
	[IFLA_BRPORT_LOCKED] = nla_u8,
};

/* A bridge port's slave data: IFLA_BRPORT_* */
static bool ifla_brport(const struct nlctx *n, struct val *v, uint64_t off, unsigned len,
			const void *o)
{
	nl_attrs(n, v, off, len, rtnl_ifla_brport_attrs, brport_fns, ARRAY_SIZE(brport_fns),
		 NULL);
	return true;
}

/* IFLA_INFO_DATA by IFLA_INFO_KIND: a bridge's IFLA_BR_*, a tun's IFLA_TUN_* */
static bool info_data(const struct nlctx *n, struct val *v, uint64_t off, unsigned len,
		      const void *o)
{
	const struct linkinfo_ctx *ctx = o;

	if (!strcmp(ctx->kind, "bridge"))
		nl_attrs(n, v, off, len, rtnl_ifla_info_data_bridge_attrs, br_fns,
			 ARRAY_SIZE(br_fns), NULL);
	else if (!strcmp(ctx->kind, "tun"))
		nl_attrs(n, v, off, len, rtnl_ifla_info_data_tun_attrs, tun_fns,
			 ARRAY_SIZE(tun_fns), NULL);
	else
		return false;
	return true;
}

/* IFLA_INFO_SLAVE_DATA by IFLA_INFO_SLAVE_KIND: a bridge port's IFLA_BRPORT_* */
static bool info_slave_data(const struct nlctx *n, struct val *v, uint64_t off, unsigned len,
			    const void *o)
{
	const struct linkinfo_ctx *ctx = o;

	if (strcmp(ctx->slave_kind, "bridge"))
		return false;
	return ifla_brport(n, v, off, len, NULL);
}

static const nla_fn linkinfo_fns[] = {
	[IFLA_INFO_KIND] = info_kind,
	[IFLA_INFO_DATA] = info_data,
	[IFLA_INFO_SLAVE_KIND] = info_slave_kind,
	[IFLA_INFO_SLAVE_DATA] = info_slave_data,
};

static bool ifla_linkinfo(const struct nlctx *n, struct val *v, uint64_t off, unsigned len,
			  const void *o)
{
	struct linkinfo_ctx ctx = { "", "" };

	nl_attrs(n, v, off, len, ifla_info_attrs, linkinfo_fns, ARRAY_SIZE(linkinfo_fns), &ctx);
	return true;
}

static const struct xlat_data xdp_attrs_data[] = {
	{ IFLA_XDP_UNSPEC, "IFLA_XDP_UNSPEC" }, { IFLA_XDP_FD, "IFLA_XDP_FD" },
	{ IFLA_XDP_ATTACHED, "IFLA_XDP_ATTACHED" }, { IFLA_XDP_FLAGS, "IFLA_XDP_FLAGS" },
	{ IFLA_XDP_PROG_ID, "IFLA_XDP_PROG_ID" },
	{ IFLA_XDP_DRV_PROG_ID, "IFLA_XDP_DRV_PROG_ID" },
	{ IFLA_XDP_SKB_PROG_ID, "IFLA_XDP_SKB_PROG_ID" },
	{ IFLA_XDP_HW_PROG_ID, "IFLA_XDP_HW_PROG_ID" },
	{ IFLA_XDP_EXPECTED_FD, "IFLA_XDP_EXPECTED_FD" },
};
static const struct xlat xdp_attrs[1] = {
	{ xdp_attrs_data, ARRAY_SIZE(xdp_attrs_data), XT_ENUM, "IFLA_XDP_???" }
};
static const struct xlat_data xdp_attached_data[] = {
	{ XDP_ATTACHED_NONE, "XDP_ATTACHED_NONE" }, { XDP_ATTACHED_DRV, "XDP_ATTACHED_DRV" },
	{ XDP_ATTACHED_SKB, "XDP_ATTACHED_SKB" }, { XDP_ATTACHED_HW, "XDP_ATTACHED_HW" },
	{ XDP_ATTACHED_MULTI, "XDP_ATTACHED_MULTI" },
};
static const struct xlat xdp_attached[1] = {
	{ xdp_attached_data, ARRAY_SIZE(xdp_attached_data), XT_ENUM, "XDP_ATTACHED_???" }
};

static bool xdp_attached_fn(const struct nlctx *n, struct val *v, uint64_t off,
			    unsigned len, const void *o)
{
	return nla_xval(n, v, off, len, 1, xdp_attached, false);
}

NLA_XVAL_FN(xdp_flags_fn, 4, xdp_flags, true)

static const nla_fn xdp_fns[] = {
	[IFLA_XDP_FD] = nla_fd,
	[IFLA_XDP_ATTACHED] = xdp_attached_fn,
	[IFLA_XDP_FLAGS] = xdp_flags_fn,
	[IFLA_XDP_EXPECTED_FD] = nla_fd,
	[IFLA_XDP_PROG_ID] = nla_u32,
	[IFLA_XDP_DRV_PROG_ID] = nla_u32,
	[IFLA_XDP_SKB_PROG_ID] = nla_u32,
	[IFLA_XDP_HW_PROG_ID] = nla_u32,
};

static bool ifla_xdp(const struct nlctx *n, struct val *v, uint64_t off, unsigned len,
		     const void *o)
{
	nl_attrs(n, v, off, len, xdp_attrs, xdp_fns, ARRAY_SIZE(xdp_fns), NULL);
	return true;
}

NLA_XVAL_FN(ifla_event, 4, rtnl_ifla_events, false)

static const nla_fn proto_down_reason_fns[] = {
	[IFLA_PROTO_DOWN_REASON_MASK] = nla_x32,
	[IFLA_PROTO_DOWN_REASON_VALUE] = nla_x32,
};

static bool ifla_proto_down_reason(const struct nlctx *n, struct val *v, uint64_t off,
				   unsigned len, const void *o)
{
	nl_attrs(n, v, off, len, rtnl_ifla_proto_down_reason_attrs, proto_down_reason_fns,
		 ARRAY_SIZE(proto_down_reason_fns), NULL);
	return true;
}

/* IFLA_VF_INFO: IFLA_VF_* attributes, their payloads hex strings (strace
 * 6.1 decodes the ifla_vf_* structures; no SR-IOV device here to check
 * them against) */
static bool ifla_vf_info(const struct nlctx *n, struct val *v, uint64_t off, unsigned len,
			 const void *o)
{
	nl_attrs(n, v, off, len, rtnl_ifla_vf_info_attrs, NULL, 0, NULL);
	return true;
}

static const nla_fn vfinfo_list_fns[] = { [IFLA_VF_INFO] = ifla_vf_info };

static bool ifla_vfinfo_list(const struct nlctx *n, struct val *v, uint64_t off, unsigned len,
			     const void *o)
{
	nl_attrs(n, v, off, len, rtnl_ifla_vfinfo_list_attrs, vfinfo_list_fns,
		 ARRAY_SIZE(vfinfo_list_fns), NULL);
	return true;
}

/* IFLA_PORT_VSI_TYPE: {vsi_mgr_id=.., vsi_type_id="\x..", vsi_type_version=..} */
static bool port_vsi(const struct nlctx *n, struct val *v, uint64_t off, unsigned len,
		     const void *o)
{
	struct ifla_port_vsi vsi;
	struct vlist f = { 0 };

	if (len < sizeof(vsi))
		return false;
	if (!nl_fetch(n, off, &vsi, sizeof(vsi))) {
		nl_addr(n, v, NULL, off);
		return true;
	}
	val_set_uint(vl_add(n->c, &f), "vsi_mgr_id", vsi.vsi_mgr_id);
	val_set_str(n->c, vl_add(n->c, &f), "vsi_type_id", (const char *)vsi.vsi_type_id,
		    sizeof(vsi.vsi_type_id), false);
	f.it[f.n - 1].flags |= VF_HEXSTR;
	val_set_uint(vl_add(n->c, &f), "vsi_type_version", vsi.vsi_type_version);
	if (vsi.pad[0] || vsi.pad[1] || vsi.pad[2]) {
		struct val *p = val_new_array(n->c, 3);

		for (unsigned i = 0; i < 3; i++)
			val_set_hex(&p[i], NULL, vsi.pad[i]);
		val_set_array(vl_add(n->c, &f), "pad", p, 3, false);
	}
	val_set_struct(v, NULL, f.it, f.n, false);
	return true;
}

static const nla_fn port_fns[] = {
	[IFLA_PORT_VF] = nla_u32,
	[IFLA_PORT_PROFILE] = nla_str,
	[IFLA_PORT_VSI_TYPE] = port_vsi,
	[IFLA_PORT_REQUEST] = nla_u8,
	[IFLA_PORT_RESPONSE] = nla_u16,
};

static bool ifla_port(const struct nlctx *n, struct val *v, uint64_t off, unsigned len,
		      const void *o)
{
	nl_attrs(n, v, off, len, rtnl_ifla_port_attrs, port_fns, ARRAY_SIZE(port_fns), NULL);
	return true;
}

static const nla_fn vf_port_fns[] = { [IFLA_VF_PORT] = ifla_port };

static bool ifla_vf_ports(const struct nlctx *n, struct val *v, uint64_t off, unsigned len,
			  const void *o)
{
	nl_attrs(n, v, off, len, rtnl_ifla_vf_port_attrs, vf_port_fns, ARRAY_SIZE(vf_port_fns),
		 NULL);
	return true;
}

/* IFLA_PROP_LIST: only IFLA_ALT_IFNAME is decoded inside. */
static bool prop_list_attr(const struct nlctx *n, struct val *v, uint64_t off,
			   unsigned len, const void *o)
{
	if (((uintptr_t)o & NLA_TYPE_MASK) == IFLA_ALT_IFNAME)
		return nla_str(n, v, off, len, NULL);
	return false;
}

static const nla_fn prop_list_fns[] = { prop_list_attr };

static bool ifla_prop_list(const struct nlctx *n, struct val *v, uint64_t off, unsigned len,
			   const void *o)
{
	nl_attrs(n, v, off, len, rtnl_link_attrs, prop_list_fns, 0, NULL);
	return true;
}

/* ---- IFLA_AF_SPEC: [{nla_type=AF_INET}, [IFLA_INET_*]], AF_INET6 ------- */

static bool inet_conf(const struct nlctx *n, struct val *v, uint64_t off, unsigned len,
		      const void *o)
{
	return nl_indexed_array(n, v, off, len, 4, true, inet_devconf_indices);
}

static const nla_fn inet_fns[] = { [IFLA_INET_CONF] = inet_conf };

NLA_XVAL_FN(inet6_flags, 4, inet6_if_flags, true)

static bool inet6_conf(const struct nlctx *n, struct val *v, uint64_t off, unsigned len,
		       const void *o)
{
	return nl_indexed_array(n, v, off, len, 4, true, inet6_devconf_indices);
}

static bool inet6_stats(const struct nlctx *n, struct val *v, uint64_t off, unsigned len,
			const void *o)
{
	return nl_indexed_array(n, v, off, len, 8, false, snmp_ip_stats);
}

static bool inet6_icmp6_stats(const struct nlctx *n, struct val *v, uint64_t off,
			      unsigned len, const void *o)
{
	return nl_indexed_array(n, v, off, len, 8, false, snmp_icmp6_stats);
}

static bool inet6_cacheinfo(const struct nlctx *n, struct val *v, uint64_t off, unsigned len,
			    const void *o)
{
	static const char *const names[] = {
		"max_reasm_len", "tstamp", "reachable_time", "retrans_time",
	};

	if (len < 16)
		return false;
	return nl_uint_struct(n, v, off, len, 4, 4, names);
}

/* decode_nla_in6_addr: inet_pton(AF_INET6, "...") of 16 bytes or more */
static bool inet6_token(const struct nlctx *n, struct val *v, uint64_t off, unsigned len,
			const void *o)
{
	if (len < 16)
		return false;
	nl_inet_addr(n, v, off, 16, AF_INET6);
	return true;
}

NLA_XVAL_FN(inet6_agm, 1, in6_addr_gen_mode, false)

static const nla_fn inet6_fns[] = {
	[IFLA_INET6_FLAGS] = inet6_flags,
	[IFLA_INET6_CONF] = inet6_conf,
	[IFLA_INET6_STATS] = inet6_stats,
	[IFLA_INET6_CACHEINFO] = inet6_cacheinfo,
	[IFLA_INET6_ICMP6STATS] = inet6_icmp6_stats,
	[IFLA_INET6_TOKEN] = inet6_token,
	[IFLA_INET6_ADDR_GEN_MODE] = inet6_agm,
};

/* One address family's attributes; other families are hex strings. */
static bool af_spec_family(const struct nlctx *n, struct val *v, uint64_t off, unsigned len,
			   const void *o)
{
	switch ((uintptr_t)o & NLA_TYPE_MASK) {
	case AF_INET:
		nl_attrs(n, v, off, len, rtnl_ifla_af_spec_inet_attrs, inet_fns,
			 ARRAY_SIZE(inet_fns), NULL);
		return true;
	case AF_INET6:
		nl_attrs(n, v, off, len, rtnl_ifla_af_spec_inet6_attrs, inet6_fns,
			 ARRAY_SIZE(inet6_fns), NULL);
		return true;
	default:
		return false;
	}
}

static const nla_fn af_spec_fns[] = { af_spec_family };

static bool ifla_af_spec(const struct nlctx *n, struct val *v, uint64_t off, unsigned len,
			 const void *o)
{
	nl_attrs(n, v, off, len, addrfams, af_spec_fns, 0, NULL);
	return true;
}

/* IFLA_ADDRESS and the like: strace 6.1 takes ifi_family for the hardware
 * type, whose address length caps the colon form (AF_BRIDGE is
 * ARPHRD_ARCNET's 1 byte: "02"). */
static bool ifla_hwaddr(const struct nlctx *n, struct val *v, uint64_t off, unsigned len,
			const void *o)
{
	return nla_hwaddr_typed(n, v, off, len, ((const struct ifinfomsg *)o)->ifi_family);
}

/* IFLA_PROTINFO: IFLA_BRPORT_* in an AF_BRIDGE message, else a hex string
 * (as strace 6.1) */
static bool ifla_protinfo(const struct nlctx *n, struct val *v, uint64_t off, unsigned len,
			  const void *o)
{
	if (((const struct ifinfomsg *)o)->ifi_family != AF_BRIDGE)
		return false;
	return ifla_brport(n, v, off, len, NULL);
}

static const nla_fn ifla_fns[] = {
	[IFLA_ADDRESS] = ifla_hwaddr,
	[IFLA_BROADCAST] = ifla_hwaddr,
	[IFLA_PROTINFO] = ifla_protinfo,
	[IFLA_IFNAME] = nla_str,
	[IFLA_MTU] = nla_u32,
	[IFLA_LINK] = nla_u32,
	[IFLA_QDISC] = nla_str,
	[IFLA_STATS] = ifla_stats,
	[IFLA_MASTER] = nla_u32,
	[IFLA_TXQLEN] = nla_u32,
	[IFLA_MAP] = ifla_map,
	[IFLA_WEIGHT] = nla_u32,
	[IFLA_OPERSTATE] = nla_u8,
	[IFLA_LINKMODE] = nla_u8,
	[IFLA_LINKINFO] = ifla_linkinfo,
	[IFLA_NET_NS_PID] = nla_u32,
	[IFLA_IFALIAS] = nla_str,
	[IFLA_NUM_VF] = nla_u32,
	[IFLA_VFINFO_LIST] = ifla_vfinfo_list,
	[IFLA_VF_PORTS] = ifla_vf_ports,
	[IFLA_PORT_SELF] = ifla_port,
	[IFLA_NET_NS_FD] = nla_fd,
	[IFLA_STATS64] = nla_link_stats64,
	[IFLA_AF_SPEC] = ifla_af_spec,
	[IFLA_GROUP] = nla_u32,
	[IFLA_EXT_MASK] = ifla_ext_mask,
	[IFLA_PROMISCUITY] = nla_u32,
	[IFLA_NUM_TX_QUEUES] = nla_u32,
	[IFLA_NUM_RX_QUEUES] = nla_u32,
	[IFLA_CARRIER] = nla_u8,
	[IFLA_CARRIER_CHANGES] = nla_u32,
	[IFLA_LINK_NETNSID] = nla_s32,
	[IFLA_PHYS_PORT_NAME] = nla_str,
	[IFLA_PROTO_DOWN] = nla_u8,
	[IFLA_GSO_MAX_SEGS] = nla_u32,
	[IFLA_GSO_MAX_SIZE] = nla_u32,
	[IFLA_XDP] = ifla_xdp,
	[IFLA_EVENT] = ifla_event,
	[IFLA_NEW_NETNSID] = nla_s32,
	[IFLA_IF_NETNSID] = nla_s32,
	[IFLA_CARRIER_UP_COUNT] = nla_u32,
	[IFLA_CARRIER_DOWN_COUNT] = nla_u32,
	[IFLA_NEW_IFINDEX] = nla_ifindex,
	[IFLA_MIN_MTU] = nla_u32,
	[IFLA_MAX_MTU] = nla_u32,
	[IFLA_PROP_LIST] = ifla_prop_list,
	[IFLA_ALT_IFNAME] = nla_str,
	[IFLA_PERM_ADDRESS] = ifla_hwaddr,
	[IFLA_PROTO_DOWN_REASON] = ifla_proto_down_reason,
	[IFLA_PARENT_DEV_NAME] = nla_str,
	[IFLA_PARENT_DEV_BUS_NAME] = nla_str,
	[IFLA_GRO_MAX_SIZE] = nla_u32,
	[IFLA_TSO_MAX_SIZE] = nla_u32,
	[IFLA_TSO_MAX_SEGS] = nla_u32,
	[IFLA_ALLMULTI] = nla_u32,
};

static void ifinfomsg_val(const struct nlctx *n, struct vlist *l, uint8_t family,
			  uint64_t off, unsigned len)
{
	struct ifinfomsg ifi = { .ifi_family = family };
	struct vlist f = { 0 };

	if (!nl_fixed_head(n, l, off, len, sizeof(ifi), &ifi, "ifi_family", &f))
		return;
	val_set_enum(vl_add(n->c, &f), "ifi_type", ifi.ifi_type, arp_hardware_types);
	nl_ifindex(n, vl_add(n->c, &f), "ifi_index", (uint32_t)ifi.ifi_index);
	val_set_flags(vl_add(n->c, &f), "ifi_flags", ifi.ifi_flags, iffflags, NULL);
	val_set_hex(vl_add(n->c, &f), "ifi_change", ifi.ifi_change);
	val_set_struct(vl_add(n->c, l), NULL, f.it, f.n, false);
	if (len > NLMSG_ALIGN(sizeof(ifi)))
		nl_attrs(n, vl_add(n->c, l), off + NLMSG_ALIGN(sizeof(ifi)),
			 len - NLMSG_ALIGN(sizeof(ifi)), rtnl_link_attrs, ifla_fns,
			 ARRAY_SIZE(ifla_fns), &ifi);
}

/* ---- ifaddrmsg ------------------------------------------------------------ */

static bool ifa_address(const struct nlctx *n, struct val *v, uint64_t off, unsigned len,
			const void *o)
{
	nl_inet_addr(n, v, off, len, ((const struct ifaddrmsg *)o)->ifa_family);
	return true;
}

static bool ifa_cacheinfo(const struct nlctx *n, struct val *v, uint64_t off, unsigned len,
			  const void *o)
{
	static const char *const names[] = { "ifa_prefered", "ifa_valid", "cstamp", "tstamp" };

	if (len < sizeof(struct ifa_cacheinfo))
		return false;
	return nl_uint_struct(n, v, off, len, 4, 4, names);
}

NLA_XVAL_FN(ifa_flags, 4, ifaddrflags, true)

static const nla_fn ifa_fns[] = {
	[IFA_ADDRESS] = ifa_address,
	[IFA_LOCAL] = ifa_address,
	[IFA_LABEL] = nla_str,
	[IFA_BROADCAST] = ifa_address,
	[IFA_ANYCAST] = ifa_address,
	[IFA_CACHEINFO] = ifa_cacheinfo,
	[IFA_MULTICAST] = ifa_address,
	[IFA_FLAGS] = ifa_flags,
	[IFA_RT_PRIORITY] = nla_u32,
	[IFA_TARGET_NETNSID] = nla_s32,
};

static void ifaddrmsg_val(const struct nlctx *n, struct vlist *l, uint8_t family,
			  uint64_t off, unsigned len)
{
	struct ifaddrmsg ifa = { .ifa_family = family };
	struct vlist f = { 0 };

	if (!nl_fixed_head(n, l, off, len, sizeof(ifa), &ifa, "ifa_family", &f))
		return;
	val_set_uint(vl_add(n->c, &f), "ifa_prefixlen", ifa.ifa_prefixlen);
	val_set_flags(vl_add(n->c, &f), "ifa_flags", ifa.ifa_flags, ifaddrflags, NULL);
	val_set_enum(vl_add(n->c, &f), "ifa_scope", ifa.ifa_scope, routing_scopes);
	nl_ifindex(n, vl_add(n->c, &f), "ifa_index", ifa.ifa_index);
	val_set_struct(vl_add(n->c, l), NULL, f.it, f.n, false);
	if (len > NLMSG_ALIGN(sizeof(ifa)))
		nl_attrs(n, vl_add(n->c, l), off + NLMSG_ALIGN(sizeof(ifa)),
			 len - NLMSG_ALIGN(sizeof(ifa)), rtnl_addr_attrs, ifa_fns,
			 ARRAY_SIZE(ifa_fns), &ifa);
}

/* ---- rtmsg ---------------------------------------------------------------- */

static bool rta_addr(const struct nlctx *n, struct val *v, uint64_t off, unsigned len,
		     const void *o)
{
	nl_inet_addr(n, v, off, len, ((const struct rtmsg *)o)->rtm_family);
	return true;
}

NLA_XVAL_FN(rta_table, 4, routing_table_ids, false)

static bool rta_cacheinfo(const struct nlctx *n, struct val *v, uint64_t off, unsigned len,
			  const void *o)
{
	static const char *const names[] = {
		"rta_clntref", "rta_lastuse", "rta_expires", "rta_error", "rta_used",
		"rta_id", "rta_ts", "rta_tsage",
	};

	if (len < sizeof(struct rta_cacheinfo))
		return false;
	nl_uint_struct(n, v, off, len, 8, 4, names);
	if (v->kind == V_STRUCT)
		val_set_hex(&v->c.items[5], "rta_id", v->c.items[5].u);
	return true;
}

static const struct xlat_data rtax_data[] = {
	{ RTAX_UNSPEC, "RTAX_UNSPEC" }, { RTAX_LOCK, "RTAX_LOCK" }, { RTAX_MTU, "RTAX_MTU" },
	{ RTAX_WINDOW, "RTAX_WINDOW" }, { RTAX_RTT, "RTAX_RTT" },
	{ RTAX_RTTVAR, "RTAX_RTTVAR" }, { RTAX_SSTHRESH, "RTAX_SSTHRESH" },
	{ RTAX_CWND, "RTAX_CWND" }, { RTAX_ADVMSS, "RTAX_ADVMSS" },
	{ RTAX_REORDERING, "RTAX_REORDERING" }, { RTAX_HOPLIMIT, "RTAX_HOPLIMIT" },
	{ RTAX_INITCWND, "RTAX_INITCWND" }, { RTAX_FEATURES, "RTAX_FEATURES" },
	{ RTAX_RTO_MIN, "RTAX_RTO_MIN" }, { RTAX_INITRWND, "RTAX_INITRWND" },
	{ RTAX_QUICKACK, "RTAX_QUICKACK" }, { RTAX_CC_ALGO, "RTAX_CC_ALGO" },
	{ RTAX_FASTOPEN_NO_COOKIE, "RTAX_FASTOPEN_NO_COOKIE" },
};
static const struct xlat rtax_attrs[1] = {
	{ rtax_data, ARRAY_SIZE(rtax_data), XT_ENUM, "RTAX_???" }
};

static const nla_fn rtax_fns[] = {
	[RTAX_LOCK] = nla_u32, [RTAX_MTU] = nla_u32, [RTAX_WINDOW] = nla_u32,
	[RTAX_RTT] = nla_u32, [RTAX_RTTVAR] = nla_u32, [RTAX_SSTHRESH] = nla_u32,
	[RTAX_CWND] = nla_u32, [RTAX_ADVMSS] = nla_u32, [RTAX_REORDERING] = nla_u32,
	[RTAX_HOPLIMIT] = nla_u32, [RTAX_INITCWND] = nla_u32, [RTAX_FEATURES] = nla_u32,
	[RTAX_RTO_MIN] = nla_u32, [RTAX_INITRWND] = nla_u32, [RTAX_QUICKACK] = nla_u32,
	[RTAX_CC_ALGO] = nla_str,
};

static bool rta_metrics(const struct nlctx *n, struct val *v, uint64_t off, unsigned len,
			const void *o)
{
	nl_attrs(n, v, off, len, rtax_attrs, rtax_fns, ARRAY_SIZE(rtax_fns), o);
	return true;
}

static bool rta_multipath(const struct nlctx *n, struct val *v, uint64_t off, unsigned len,
			  const void *o);

static const nla_fn rta_fns[] = {
	[RTA_DST] = rta_addr,
	[RTA_SRC] = rta_addr,
	[RTA_IIF] = nla_ifindex,
	[RTA_OIF] = nla_ifindex,
	[RTA_GATEWAY] = rta_addr,
	[RTA_PRIORITY] = nla_u32,
	[RTA_PREFSRC] = rta_addr,
	[RTA_METRICS] = rta_metrics,
	[RTA_MULTIPATH] = rta_multipath,
	[RTA_PROTOINFO] = nla_u32,
	[RTA_FLOW] = nla_u32,
	[RTA_CACHEINFO] = rta_cacheinfo,
	[RTA_MP_ALGO] = nla_u32,
	[RTA_TABLE] = rta_table,
	[RTA_MARK] = nla_u32,
	[RTA_NEWDST] = rta_addr,
	[RTA_PREF] = nla_u8,
	[RTA_EXPIRES] = nla_u64,
	[RTA_UID] = nla_u32,
	[RTA_TTL_PROPAGATE] = nla_u8,
	[RTA_IP_PROTO] = nla_u8,
	[RTA_SPORT] = nla_u16,
	[RTA_DPORT] = nla_u16,
	[RTA_NH_ID] = nla_u32,
};

/* RTA_MULTIPATH: [[{rtnh_len=..., ...}, [RTA_* attributes]], ...] */
static bool rta_multipath(const struct nlctx *n, struct val *v, uint64_t off, unsigned len,
			  const void *o)
{
	const uint64_t hsz = RTNH_ALIGN(sizeof(struct rtnexthop));
	struct vlist l = { 0 };
	uint64_t cur = off, left = len;
	bool is_array = false;

	if (len < sizeof(struct rtnexthop))
		return false;
	for (;;) {
		struct rtnexthop nh;
		struct val *e, *f;
		uint64_t rtnh_len;

		if (!nl_fetch(n, cur, &nh, sizeof(nh))) {
			nl_addr(n, is_array ? vl_add(n->c, &l) : v, NULL, cur);
			break;
		}
		rtnh_len = nh.rtnh_len < left ? nh.rtnh_len : left;
		if (cur == off && nh.rtnh_len < len)
			is_array = true;
		e = is_array ? vl_add(n->c, &l) : v;
		f = val_new_array(n->c, 4);
		val_set_uint(&f[0], "rtnh_len", nh.rtnh_len);
		val_set_hex(&f[1], "rtnh_flags", nh.rtnh_flags);
		val_set_uint(&f[2], "rtnh_hops", nh.rtnh_hops);
		nl_ifindex(n, &f[3], "rtnh_ifindex", (uint32_t)nh.rtnh_ifindex);
		if (rtnh_len > hsz) {
			struct val *it = val_new_array(n->c, 2);

			val_set_struct(&it[0], NULL, f, 4, false);
			nl_attrs(n, &it[1], cur + hsz, rtnh_len - hsz, rtnl_route_attrs, rta_fns,
				 ARRAY_SIZE(rta_fns), o);
			val_set_array(e, NULL, it, 2, false);
		} else {
			val_set_struct(e, NULL, f, 4, false);
		}
		if (RTNH_ALIGN(rtnh_len) >= left)
			break;
		/* a zero rtnh_len never moves on: strace loops for ever, we
		 * stop after DECODE_MAX_ELEMS entries */
		if (l.n >= DECODE_MAX_ELEMS || decode_over_budget(n->c)) {
			val_set_text(n->c, vl_add(n->c, &l), NULL, "...");
			break;
		}
		cur += RTNH_ALIGN(rtnh_len);
		left -= RTNH_ALIGN(rtnh_len);
	}
	if (is_array)
		val_set_array(v, NULL, l.it, l.n, false);
	return true;
}

static void rtmsg_val(const struct nlctx *n, struct vlist *l, uint8_t family, uint64_t off,
		      unsigned len)
{
	struct rtmsg rtm = { .rtm_family = family };
	struct vlist f = { 0 };

	if (!nl_fixed_head(n, l, off, len, sizeof(rtm), &rtm, "rtm_family", &f))
		return;
	val_set_uint(vl_add(n->c, &f), "rtm_dst_len", rtm.rtm_dst_len);
	val_set_uint(vl_add(n->c, &f), "rtm_src_len", rtm.rtm_src_len);
	val_set_hex(vl_add(n->c, &f), "rtm_tos", rtm.rtm_tos);
	val_set_enum(vl_add(n->c, &f), "rtm_table", rtm.rtm_table, routing_table_ids);
	val_set_enum(vl_add(n->c, &f), "rtm_protocol", rtm.rtm_protocol, routing_protocols);
	val_set_enum(vl_add(n->c, &f), "rtm_scope", rtm.rtm_scope, routing_scopes);
	val_set_enum(vl_add(n->c, &f), "rtm_type", rtm.rtm_type, routing_types);
	val_set_flags(vl_add(n->c, &f), "rtm_flags", rtm.rtm_flags, routing_flags, NULL);
	val_set_struct(vl_add(n->c, l), NULL, f.it, f.n, false);
	if (len > NLMSG_ALIGN(sizeof(rtm)))
		nl_attrs(n, vl_add(n->c, l), off + NLMSG_ALIGN(sizeof(rtm)),
			 len - NLMSG_ALIGN(sizeof(rtm)), rtnl_route_attrs, rta_fns,
			 ARRAY_SIZE(rta_fns), &rtm);
}

/* ---- dispatch ------------------------------------------------------------- */

/* {family=AF_INET, data="\x..."}: message types without a decoder. */
static void family_val(const struct nlctx *n, struct vlist *l, uint8_t family, uint64_t off,
		       unsigned len)
{
	struct val *f = val_new_array(n->c, 2);
	unsigned k = 0;

	val_set_enum(&f[k++], "family", family, addrfams);
	if (len > 1)
		nl_hexstr(n, &f[k++], "data", off + 1, len - 1);
	val_set_struct(vl_add(n->c, l), NULL, f, k, false);
}

bool nl_decode_route(const struct nlctx *n, struct vlist *l, const struct nlmsghdr *hdr,
		     uint64_t off, unsigned len)
{
	uint8_t family;

	if (hdr->nlmsg_type == NLMSG_DONE)
		return false;
	if (!nl_fetch(n, off, &family, 1)) {
		nl_addr(n, vl_add(n->c, l), NULL, off);
		return true;
	}
	switch (hdr->nlmsg_type) {
	case RTM_GETNEIGH:
		/* a bridge's fdb dump asks with an ifinfomsg */
		if (family != AF_BRIDGE) {
			nl_decode_route_more(n, l, hdr->nlmsg_type, family, off, len);
			break;
		}
		/* fall through */
	case RTM_NEWLINK: case RTM_DELLINK: case RTM_GETLINK: case RTM_SETLINK:
		ifinfomsg_val(n, l, family, off, len);
		break;
	case RTM_NEWADDR: case RTM_DELADDR: case RTM_GETADDR:
	case RTM_GETANYCAST: case RTM_GETMULTICAST:
		ifaddrmsg_val(n, l, family, off, len);
		break;
	case RTM_NEWROUTE: case RTM_DELROUTE: case RTM_GETROUTE:
		rtmsg_val(n, l, family, off, len);
		break;
	default:
		if (!nl_decode_route_more(n, l, hdr->nlmsg_type, family, off, len))
			family_val(n, l, family, off, len);
		break;
	}
	return true;
}
