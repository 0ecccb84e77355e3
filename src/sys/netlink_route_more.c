/*
 * NETLINK_ROUTE payloads beside links, addresses and routes, as strace 6.1
 * prints them: neighbours (ndmsg), rules (fib_rule_hdr), qdiscs, classes,
 * filters and chains (tcmsg), netconf, nexthops (nhmsg), address labels,
 * dcbmsg, tc actions (tcamsg), neighbour tables (ndtmsg), mdb
 * (br_port_msg), RTM_*STATS (if_stats_msg) and the rtgenmsg of RTM_*NSID,
 * each with its attributes.
 */
#include "sys/netlink_route.h"

#include <endian.h>
#include <stdio.h>
#include <stddef.h>
#include <string.h>
#include <arpa/inet.h>
#include <sys/socket.h>
#include <linux/dcbnl.h>
#include <linux/fib_rules.h>
#include <linux/gen_stats.h>
#include <linux/if_addrlabel.h>
#include <linux/if_bridge.h>
#include <linux/if_link.h>
#include <linux/neighbour.h>
#include <linux/net_namespace.h>
#include <linux/netconf.h>
#include <linux/netlink.h>
#include <linux/nexthop.h>
#include <linux/pkt_sched.h>
#include <linux/rtnetlink.h>

#include "sys/decode_extra.h"
#include "xlat/addrfams.h"
#include "xlat/dcb_commands.h"
#include "xlat/fdb_notify_flags.h"
#include "xlat/fib_rule_actions.h"
#include "xlat/fib_rule_flags.h"
#include "xlat/ifstats_attr_flags.h"
#include "xlat/ifstats_attrs.h"
#include "xlat/ifstats_offload_attrs.h"
#include "xlat/ifstats_xstats_bridge_attrs.h"
#include "xlat/ifstats_xstats_bridge_mcast_indices.h"
#include "xlat/nl_bridge_vlan_flags.h"
#include "xlat/ifstats_xstats_type_attrs.h"
#include "xlat/inet_protocols.h"
#include "xlat/mdb_flags.h"
#include "xlat/mdb_states.h"
#include "xlat/multicast_router_types.h"
#include "xlat/nexthop_grp_types.h"
#include "xlat/ip_type_of_services.h"
#include "xlat/neighbor_cache_entry_ext_flags.h"
#include "xlat/neighbor_cache_entry_flags.h"
#include "xlat/neighbor_cache_entry_states.h"
#include "xlat/route_nexthop_flags.h"
#include "xlat/routing_protocols.h"
#include "xlat/routing_scopes.h"
#include "xlat/routing_table_ids.h"
#include "xlat/routing_types.h"
#include "xlat/rtnl_addrlabel_attrs.h"
#include "xlat/rtnl_dcb_attrs.h"
#include "xlat/rtnl_mdb_attrs.h"
#include "xlat/rtnl_mdba_mdb_attrs.h"
#include "xlat/rtnl_mdba_mdb_eattr_attrs.h"
#include "xlat/rtnl_mdba_mdb_entry_attrs.h"
#include "xlat/rtnl_mdba_router_attrs.h"
#include "xlat/rtnl_mdba_router_pattr_attrs.h"
#include "xlat/rtnl_neigh_attrs.h"
#include "xlat/rtnl_neigh_fdb_ext_attrs.h"
#include "xlat/rtnl_neightbl_attrs.h"
#include "xlat/rtnl_neightbl_parms_attrs.h"
#include "xlat/rtnl_netconf_attrs.h"
#include "xlat/lwtunnel_encap_types.h"
#include "xlat/rtnl_nexthop_attrs.h"
#include "xlat/rtnl_nha_res_bucket_attrs.h"
#include "xlat/rtnl_nha_res_group_attrs.h"
#include "xlat/rtnl_tc_action_attrs.h"
#include "xlat/rtnl_tca_act_flags.h"
#include "xlat/rtnl_tca_act_hw_stats.h"
#include "xlat/rtnl_nsid_attrs.h"
#include "xlat/rtnl_rule_attrs.h"
#include "xlat/rtnl_tc_attrs.h"
#include "xlat/rtnl_tca_stab_attrs.h"
#include "xlat/rtnl_tca_stats_attrs.h"
#include "util/xmalloc.h"
#include "util/banned.h"

/* The attributes after a fixed header of size bytes, if any. */
static void tail_attrs(const struct nlctx *n, struct vlist *l, uint64_t off, unsigned len,
		       size_t size, const struct xlat *types, const nla_fn *fns,
		       unsigned nfns, const void *opaque)
{
	if (len > NLMSG_ALIGN(size))
		nl_attrs(n, vl_add(n->c, l), off + NLMSG_ALIGN(size),
			 len - NLMSG_ALIGN(size), types, fns, nfns, opaque);
}

/* A payload address of the family of the message header (its first byte). */
static bool family_addr(const struct nlctx *n, struct val *v, uint64_t off, unsigned len,
			const void *o)
{
	nl_inet_addr(n, v, off, len, *(const uint8_t *)o);
	return true;
}

static bool nla_be16(const struct nlctx *n, struct val *v, uint64_t off, unsigned len,
		     const void *o)
{
	uint16_t x;

	if (len < sizeof(x))
		return false;
	if (!nl_fetch(n, off, &x, sizeof(x)))
		nl_addr(n, v, NULL, off);
	else
		val_set_call_u(n->c, v, NULL, "htons", ntohs(x));
	return true;
}

static bool nla_be64(const struct nlctx *n, struct val *v, uint64_t off, unsigned len,
		     const void *o)
{
	uint64_t x;

	if (len < sizeof(x))
		return false;
	if (!nl_fetch(n, off, &x, sizeof(x)))
		nl_addr(n, v, NULL, off);
	else
		val_set_call_u(n->c, v, NULL, "htobe64", be64toh(x));
	return true;
}

NLA_XVAL_FN(nla_ip_proto, 1, inet_protocols, false)

NLA_XVAL_FN(nla_rt_proto, 1, routing_protocols, false)

NLA_XVAL_FN(nla_rt_class, 4, routing_table_ids, false)

/* ---- ndmsg ---------------------------------------------------------------- */

static bool nda_cacheinfo(const struct nlctx *n, struct val *v, uint64_t off, unsigned len,
			  const void *o)
{
	static const char *const names[] = {
		"ndm_confirmed", "ndm_used", "ndm_updated", "ndm_refcnt",
	};

	return nl_uint_struct(n, v, off, len, 4, 4, names);
}

NLA_XVAL_FN(fdb_notify, 1, fdb_notify_flags, true)

static const nla_fn nfea_fns[] = {
	[NFEA_ACTIVITY_NOTIFY] = fdb_notify,
};

static bool nda_fdb_ext(const struct nlctx *n, struct val *v, uint64_t off, unsigned len,
			const void *o)
{
	nl_attrs(n, v, off, len, rtnl_neigh_fdb_ext_attrs, nfea_fns, ARRAY_SIZE(nfea_fns), o);
	return true;
}

NLA_XVAL_FN(nda_ext_flags, 4, neighbor_cache_entry_ext_flags, true)

NLA_XVAL_FN(nda_states, 2, neighbor_cache_entry_states, true)

NLA_XVAL_FN(nda_flags, 1, neighbor_cache_entry_flags, true)

static const nla_fn nda_fns[] = {
	[NDA_DST] = family_addr,
	[NDA_LLADDR] = nla_hwaddr,
	[NDA_CACHEINFO] = nda_cacheinfo,
	[NDA_PROBES] = nla_u32,
	[NDA_VLAN] = nla_u16,
	[NDA_PORT] = nla_be16,
	[NDA_VNI] = nla_u32,
	[NDA_IFINDEX] = nla_ifindex,
	[NDA_MASTER] = nla_ifindex,
	[NDA_LINK_NETNSID] = nla_u32,
	[NDA_SRC_VNI] = nla_u32,
	[NDA_PROTOCOL] = nla_ip_proto,
	[NDA_NH_ID] = nla_u32,
	[NDA_FDB_EXT_ATTRS] = nda_fdb_ext,
	[NDA_FLAGS_EXT] = nda_ext_flags,
	[NDA_NDM_STATE_MASK] = nda_states,
	[NDA_NDM_FLAGS_MASK] = nda_flags,
};

static void ndmsg_val(const struct nlctx *n, struct vlist *l, uint8_t family, uint64_t off,
		      unsigned len)
{
	struct ndmsg nd = { .ndm_family = family };
	struct vlist f = { 0 };

	if (!nl_fixed_head(n, l, off, len, sizeof(nd), &nd, "ndm_family", &f))
		return;
	nl_ifindex(n, vl_add(n->c, &f), "ndm_ifindex", (uint32_t)nd.ndm_ifindex);
	val_set_flags(vl_add(n->c, &f), "ndm_state", nd.ndm_state, neighbor_cache_entry_states,
		      "NUD_NONE");
	val_set_flags(vl_add(n->c, &f), "ndm_flags", nd.ndm_flags, neighbor_cache_entry_flags,
		      NULL);
	val_set_enum(vl_add(n->c, &f), "ndm_type", nd.ndm_type, routing_types);
	val_set_struct(vl_add(n->c, l), NULL, f.it, f.n, false);
	tail_attrs(n, l, off, len, sizeof(nd), rtnl_neigh_attrs, nda_fns, ARRAY_SIZE(nda_fns),
		   &nd);
}

/* ---- ndtmsg (RTM_*NEIGHTBL) ------------------------------------------------ */

static bool ndt_config(const struct nlctx *n, struct val *v, uint64_t off, unsigned len,
		       const void *o)
{
	struct ndt_config c;
	struct vlist f = { 0 };
	char mask[32];

	if (len < sizeof(c))
		return false;
	if (!nl_fetch(n, off, &c, sizeof(c))) {
		nl_addr(n, v, NULL, off);
		return true;
	}
	val_set_uint(vl_add(n->c, &f), "ndtc_key_len", c.ndtc_key_len);
	val_set_uint(vl_add(n->c, &f), "ndtc_entry_size", c.ndtc_entry_size);
	val_set_uint(vl_add(n->c, &f), "ndtc_entries", c.ndtc_entries);
	val_set_uint(vl_add(n->c, &f), "ndtc_last_flush", c.ndtc_last_flush);
	val_set_uint(vl_add(n->c, &f), "ndtc_last_rand", c.ndtc_last_rand);
	val_set_uint(vl_add(n->c, &f), "ndtc_hash_rnd", c.ndtc_hash_rnd);
	/* PRINT_FIELD_0X: zero-padded to the field's width, 0x included */
	snprintf(mask, sizeof(mask), "%#0*x", (int)(2 * sizeof(c.ndtc_hash_mask)),
		 c.ndtc_hash_mask);
	val_set_text(n->c, vl_add(n->c, &f), "ndtc_hash_mask", mask);
	val_set_uint(vl_add(n->c, &f), "ndtc_hash_chain_gc", c.ndtc_hash_chain_gc);
	val_set_uint(vl_add(n->c, &f), "ndtc_proxy_qlen", c.ndtc_proxy_qlen);
	val_set_struct(v, NULL, f.it, f.n, false);
	return true;
}

static bool ndt_stats(const struct nlctx *n, struct val *v, uint64_t off, unsigned len,
		      const void *o)
{
	static const char *const names[] = {
		"ndts_allocs", "ndts_destroys", "ndts_hash_grows", "ndts_res_failed",
		"ndts_lookups", "ndts_hits", "ndts_rcv_probes_mcast", "ndts_rcv_probes_ucast",
		"ndts_periodic_gc_runs", "ndts_forced_gc_runs", "ndts_table_fulls",
	};

	return nl_uint_struct(n, v, off, len, 11, 8, names);
}

static const nla_fn ndtpa_fns[] = {
	[NDTPA_IFINDEX] = nla_ifindex,
	[NDTPA_REFCNT] = nla_u32,
	[NDTPA_REACHABLE_TIME] = nla_u64,
	[NDTPA_BASE_REACHABLE_TIME] = nla_u64,
	[NDTPA_RETRANS_TIME] = nla_u64,
	[NDTPA_GC_STALETIME] = nla_u64,
	[NDTPA_DELAY_PROBE_TIME] = nla_u64,
	[NDTPA_QUEUE_LEN] = nla_u32,
	[NDTPA_APP_PROBES] = nla_u32,
	[NDTPA_UCAST_PROBES] = nla_u32,
	[NDTPA_MCAST_PROBES] = nla_u32,
	[NDTPA_ANYCAST_DELAY] = nla_u64,
	[NDTPA_PROXY_DELAY] = nla_u64,
	[NDTPA_PROXY_QLEN] = nla_u32,
	[NDTPA_LOCKTIME] = nla_u64,
	[NDTPA_QUEUE_LENBYTES] = nla_u32,
	[NDTPA_MCAST_REPROBES] = nla_u32,
	[NDTPA_INTERVAL_PROBE_TIME_MS] = nla_u64,
};

static bool ndta_parms(const struct nlctx *n, struct val *v, uint64_t off, unsigned len,
		       const void *o)
{
	nl_attrs(n, v, off, len, rtnl_neightbl_parms_attrs, ndtpa_fns, ARRAY_SIZE(ndtpa_fns),
		 NULL);
	return true;
}

static const nla_fn ndta_fns[] = {
	[NDTA_NAME] = nla_str,
	[NDTA_THRESH1] = nla_u32,
	[NDTA_THRESH2] = nla_u32,
	[NDTA_THRESH3] = nla_u32,
	[NDTA_CONFIG] = ndt_config,
	[NDTA_PARMS] = ndta_parms,
	[NDTA_STATS] = ndt_stats,
	[NDTA_GC_INTERVAL] = nla_u64,
};

/* ---- fib_rule_hdr --------------------------------------------------------- */

static bool fra_range(const struct nlctx *n, struct val *v, uint64_t off, unsigned len,
		      const void *o)
{
	static const char *const names[] = { "start", "end" };

	return nl_uint_struct(n, v, off, len, 2, 4, names);
}

static bool fra_port_range(const struct nlctx *n, struct val *v, uint64_t off, unsigned len,
			   const void *o)
{
	static const char *const names[] = { "start", "end" };

	return nl_uint_struct(n, v, off, len, 2, 2, names);
}

static const nla_fn fra_fns[] = {
	[FRA_DST] = family_addr,
	[FRA_SRC] = family_addr,
	[FRA_IIFNAME] = nla_str,
	[FRA_GOTO] = nla_u32,
	[FRA_PRIORITY] = nla_u32,
	[FRA_FWMARK] = nla_u32,
	[FRA_FLOW] = nla_u32,
	[FRA_TUN_ID] = nla_be64,
	[FRA_SUPPRESS_IFGROUP] = nla_u32,
	[FRA_SUPPRESS_PREFIXLEN] = nla_u32,
	[FRA_TABLE] = nla_rt_class,
	[FRA_FWMASK] = nla_u32,
	[FRA_OIFNAME] = nla_str,
	[FRA_L3MDEV] = nla_u8,
	[FRA_UID_RANGE] = fra_range,
	[FRA_PROTOCOL] = nla_rt_proto,
	[FRA_IP_PROTO] = nla_ip_proto,
	[FRA_SPORT_RANGE] = fra_port_range,
	[FRA_DPORT_RANGE] = fra_port_range,
};

/* fib_rule_hdr's table: routing_table_ids with strace's RT_TABLE_??? */
static const struct xlat rule_tables[1] = {
	{ routing_table_ids_data, ARRAY_SIZE(routing_table_ids_data), XT_ENUM, "RT_TABLE_???" }
};

static void fib_rule_val(const struct nlctx *n, struct vlist *l, uint8_t family, uint64_t off,
			 unsigned len)
{
	struct fib_rule_hdr h = { .family = family };
	struct vlist f = { 0 };

	if (!nl_fixed_head(n, l, off, len, sizeof(h), &h, "family", &f))
		return;
	val_set_uint(vl_add(n->c, &f), "dst_len", h.dst_len);
	val_set_uint(vl_add(n->c, &f), "src_len", h.src_len);
	val_set_flags(vl_add(n->c, &f), "tos", h.tos, ip_type_of_services, NULL);
	val_set_enum(vl_add(n->c, &f), "table", h.table, rule_tables);
	val_set_enum(vl_add(n->c, &f), "action", h.action, fib_rule_actions);
	val_set_flags(vl_add(n->c, &f), "flags", h.flags, fib_rule_flags, NULL);
	val_set_struct(vl_add(n->c, l), NULL, f.it, f.n, false);
	tail_attrs(n, l, off, len, sizeof(h), rtnl_rule_attrs, fra_fns, ARRAY_SIZE(fra_fns), &h);
}

/* ---- tcmsg ---------------------------------------------------------------- */

/* struct tc_stats up to backlog: bytes is a __u64, the rest __u32. */
static bool tca_stats(const struct nlctx *n, struct val *v, uint64_t off, unsigned len,
		      const void *o)
{
	static const char *const names[] = {
		"packets", "drops", "overlimits", "bps", "pps", "qlen", "backlog",
	};
	const size_t size = offsetof(struct tc_stats, backlog) + sizeof(uint32_t);
	struct tc_stats st;
	struct val *f;
	uint32_t x[7];

	if (len < size)
		return false;
	if (!nl_fetch(n, off, &st, size)) {
		nl_addr(n, v, NULL, off);
		return true;
	}
	memcpy(x, &st.packets, sizeof(x));
	f = val_new_array(n->c, 8);
	val_set_uint(&f[0], "bytes", st.bytes);
	for (unsigned i = 0; i < 7; i++)
		val_set_uint(&f[i + 1], names[i], x[i]);
	val_set_struct(v, NULL, f, 8, false);
	return true;
}

static bool tca_rate(const struct nlctx *n, struct val *v, uint64_t off, unsigned len,
		     const void *o)
{
	struct tc_estimator est;
	struct val *f;

	if (len < sizeof(est))
		return false;
	if (!nl_fetch(n, off, &est, sizeof(est))) {
		nl_addr(n, v, NULL, off);
		return true;
	}
	f = val_new_array(n->c, 2);
	val_set_int(&f[0], "interval", est.interval);
	val_set_uint(&f[1], "ewma_log", est.ewma_log);
	val_set_struct(v, NULL, f, 2, false);
	return true;
}

static bool gnet_basic(const struct nlctx *n, struct val *v, uint64_t off, unsigned len,
		       const void *o)
{
	struct gnet_stats_basic sb;
	const size_t size = offsetof(struct gnet_stats_basic, packets) + sizeof(sb.packets);
	struct val *f;

	if (len < size)
		return false;
	if (!nl_fetch(n, off, &sb, size)) {
		nl_addr(n, v, NULL, off);
		return true;
	}
	f = val_new_array(n->c, 2);
	val_set_uint(&f[0], "bytes", sb.bytes);
	val_set_uint(&f[1], "packets", sb.packets);
	val_set_struct(v, NULL, f, 2, false);
	return true;
}

static bool gnet_rate_est(const struct nlctx *n, struct val *v, uint64_t off, unsigned len,
			  const void *o)
{
	static const char *const names[] = { "bps", "pps" };

	return nl_uint_struct(n, v, off, len, 2, 4, names);
}

static bool gnet_queue(const struct nlctx *n, struct val *v, uint64_t off, unsigned len,
		       const void *o)
{
	static const char *const names[] = {
		"qlen", "backlog", "drops", "requeues", "overlimits",
	};

	return nl_uint_struct(n, v, off, len, 5, 4, names);
}

static bool gnet_rate_est64(const struct nlctx *n, struct val *v, uint64_t off, unsigned len,
			    const void *o)
{
	static const char *const names[] = { "bps", "pps" };

	return nl_uint_struct(n, v, off, len, 2, 8, names);
}

static const nla_fn tca_stats_fns[] = {
	[TCA_STATS_BASIC] = gnet_basic,
	[TCA_STATS_RATE_EST] = gnet_rate_est,
	[TCA_STATS_QUEUE] = gnet_queue,
	[TCA_STATS_RATE_EST64] = gnet_rate_est64,
	[TCA_STATS_BASIC_HW] = gnet_basic,
	[TCA_STATS_PKT64] = nla_u64,
};

static bool tca_stats2(const struct nlctx *n, struct val *v, uint64_t off, unsigned len,
		       const void *o)
{
	nl_attrs(n, v, off, len, rtnl_tca_stats_attrs, tca_stats_fns, ARRAY_SIZE(tca_stats_fns),
		 o);
	return true;
}

static bool stab_base(const struct nlctx *n, struct val *v, uint64_t off, unsigned len,
		      const void *o)
{
	struct tc_sizespec s;
	struct val *f;

	if (len < sizeof(s))
		return false;
	if (!nl_fetch(n, off, &s, sizeof(s))) {
		nl_addr(n, v, NULL, off);
		return true;
	}
	f = val_new_array(n->c, 8);
	val_set_uint(&f[0], "cell_log", s.cell_log);
	val_set_uint(&f[1], "size_log", s.size_log);
	val_set_int(&f[2], "cell_align", s.cell_align);
	val_set_int(&f[3], "overhead", s.overhead);
	val_set_uint(&f[4], "linklayer", s.linklayer);
	val_set_uint(&f[5], "mpu", s.mpu);
	val_set_uint(&f[6], "mtu", s.mtu);
	val_set_uint(&f[7], "tsize", s.tsize);
	val_set_struct(v, NULL, f, 8, false);
	return true;
}

/* TCA_STAB_DATA: [u16, ...] as strace's print_array: cut at the string
 * limit, an unreadable element ends it with its address. */
static bool stab_data(const struct nlctx *n, struct val *v, uint64_t off, unsigned len,
		      const void *o)
{
	unsigned count = len / 2, shown;
	struct vlist l = { 0 };

	if (!count)
		return false;
	shown = (unsigned)decode_elem_limit(n->c, count);
	for (unsigned i = 0; i < shown; i++) {
		uint16_t x;

		if (!nl_fetch(n, off + 2 * i, &x, 2)) {
			if (i)
				nl_more_at(n, vl_add(n->c, &l), off + 2 * i);
			else
				nl_addr(n, v, NULL, off);
			if (!i)
				return true;
			break;
		}
		val_set_uint(vl_add(n->c, &l), NULL, x);
	}
	val_set_array(v, NULL, l.it, l.n, shown < count);
	return true;
}

static const nla_fn stab_fns[] = {
	[TCA_STAB_BASE] = stab_base,
	[TCA_STAB_DATA] = stab_data,
};

static bool tca_stab(const struct nlctx *n, struct val *v, uint64_t off, unsigned len,
		     const void *o)
{
	nl_attrs(n, v, off, len, rtnl_tca_stab_attrs, stab_fns, ARRAY_SIZE(stab_fns), o);
	return true;
}

static const nla_fn tca_fns[] = {
	[TCA_KIND] = nla_str,
	[TCA_STATS] = tca_stats,
	[TCA_RATE] = tca_rate,
	[TCA_FCNT] = nla_u32,
	[TCA_STATS2] = tca_stats2,
	[TCA_STAB] = tca_stab,
	[TCA_CHAIN] = nla_u32,
	[TCA_HW_OFFLOAD] = nla_u8,
	[TCA_INGRESS_BLOCK] = nla_u32,
	[TCA_EGRESS_BLOCK] = nla_u32,
	[TCA_DUMP_FLAGS] = nla_u32,
	[16 /* TCA_EXT_WARN_MSG */] = nla_str,
};

static void tcmsg_val(const struct nlctx *n, struct vlist *l, uint8_t family, uint64_t off,
		      unsigned len)
{
	struct tcmsg tc = { .tcm_family = family };
	struct vlist f = { 0 };

	if (!nl_fixed_head(n, l, off, len, sizeof(tc), &tc, "tcm_family", &f))
		return;
	nl_ifindex(n, vl_add(n->c, &f), "tcm_ifindex", (uint32_t)tc.tcm_ifindex);
	val_set_uint(vl_add(n->c, &f), "tcm_handle", tc.tcm_handle);
	val_set_uint(vl_add(n->c, &f), "tcm_parent", tc.tcm_parent);
	val_set_uint(vl_add(n->c, &f), "tcm_info", tc.tcm_info);
	val_set_struct(vl_add(n->c, l), NULL, f.it, f.n, false);
	tail_attrs(n, l, off, len, sizeof(tc), rtnl_tc_attrs, tca_fns, ARRAY_SIZE(tca_fns), NULL);
}

/* ---- tcamsg (RTM_*ACTION) ------------------------------------------------- */

NLA_XVAL_FN(tca_act_flags, 4, rtnl_tca_act_flags, true)

NLA_XVAL_FN(tca_act_hw_stats, 4, rtnl_tca_act_hw_stats, true)

static const nla_fn tca_act_fns[] = {
	[TCA_ACT_KIND] = nla_str,
	[TCA_ACT_INDEX] = nla_u32,
	[TCA_ACT_STATS] = tca_stats2,
	[TCA_ACT_FLAGS] = tca_act_flags,
	[TCA_ACT_HW_STATS] = tca_act_hw_stats,
	[TCA_ACT_USED_HW_STATS] = tca_act_hw_stats,
	[TCA_ACT_IN_HW_COUNT] = nla_u32,
};

/* ---- nhmsg ---------------------------------------------------------------- */

/* NHA_GROUP: [{id=1, weight=0}, ...], the reserved fields when set. */
static bool nha_group(const struct nlctx *n, struct val *v, uint64_t off, unsigned len,
		      const void *o)
{
	unsigned count = len / sizeof(struct nexthop_grp), shown;
	struct vlist l = { 0 };

	if (!count)
		return false;
	shown = (unsigned)decode_elem_limit(n->c, count);
	for (unsigned i = 0; i < shown; i++) {
		uint64_t at = off + (uint64_t)i * sizeof(struct nexthop_grp);
		struct nexthop_grp g;
		struct vlist f = { 0 };

		if (!nl_fetch(n, at, &g, sizeof(g))) {
			if (!i) {
				nl_addr(n, v, NULL, off);
				return true;
			}
			nl_more_at(n, vl_add(n->c, &l), at);
			shown = count;
			break;
		}
		val_set_uint(vl_add(n->c, &f), "id", g.id);
		val_set_uint(vl_add(n->c, &f), "weight", g.weight);
		/* byte 5: resvd1 in the uapi strace 6.1 was built with */
		if (((const uint8_t *)&g)[5])
			val_set_hex(vl_add(n->c, &f), "resvd1", ((const uint8_t *)&g)[5]);
		if (g.resvd2)
			val_set_hex(vl_add(n->c, &f), "resvd2", g.resvd2);
		val_set_struct(vl_add(n->c, &l), NULL, f.it, f.n, false);
	}
	val_set_array(v, NULL, l.it, l.n, shown < count);
	return true;
}

NLA_XVAL_FN(nha_group_type, 2, nexthop_grp_types, false)

NLA_XVAL_FN(nha_encap_type, 2, lwtunnel_encap_types, false)

static const nla_fn res_group_fns[] = {
	[NHA_RES_GROUP_BUCKETS] = nla_u16,
	[NHA_RES_GROUP_IDLE_TIMER] = nla_clock_t,
	[NHA_RES_GROUP_UNBALANCED_TIMER] = nla_clock_t,
	[NHA_RES_GROUP_UNBALANCED_TIME] = nla_clock_t,
};

static bool nha_res_group(const struct nlctx *n, struct val *v, uint64_t off, unsigned len,
			  const void *o)
{
	nl_attrs(n, v, off, len, rtnl_nha_res_group_attrs, res_group_fns,
		 ARRAY_SIZE(res_group_fns), NULL);
	return true;
}

static const nla_fn res_bucket_fns[] = {
	[NHA_RES_BUCKET_INDEX] = nla_u16,
	[NHA_RES_BUCKET_IDLE_TIME] = nla_clock_t,
	[NHA_RES_BUCKET_NH_ID] = nla_u32,
};

static bool nha_res_bucket(const struct nlctx *n, struct val *v, uint64_t off, unsigned len,
			   const void *o)
{
	nl_attrs(n, v, off, len, rtnl_nha_res_bucket_attrs, res_bucket_fns,
		 ARRAY_SIZE(res_bucket_fns), NULL);
	return true;
}

static const nla_fn nha_fns[] = {
	[NHA_ID] = nla_u32,
	[NHA_GROUP] = nha_group,
	[NHA_GROUP_TYPE] = nha_group_type,
	[NHA_BLACKHOLE] = nla_u32,
	[NHA_OIF] = nla_ifindex,
	[NHA_GATEWAY] = family_addr,
	[NHA_GROUPS] = nla_u32,
	[NHA_MASTER] = nla_ifindex,
	[NHA_FDB] = nla_u32,
	[NHA_ENCAP_TYPE] = nha_encap_type,
	[NHA_RES_GROUP] = nha_res_group,
	[NHA_RES_BUCKET] = nha_res_bucket,
};

static void nhmsg_val(const struct nlctx *n, struct vlist *l, uint8_t family, uint64_t off,
		      unsigned len)
{
	struct nhmsg nh = { .nh_family = family };
	struct vlist f = { 0 };

	if (!nl_fixed_head(n, l, off, len, sizeof(nh), &nh, "nh_family", &f))
		return;
	val_set_enum(vl_add(n->c, &f), "nh_scope", nh.nh_scope, routing_scopes);
	val_set_enum(vl_add(n->c, &f), "nh_protocol", nh.nh_protocol, routing_protocols);
	if (nh.resvd)
		val_set_hex(vl_add(n->c, &f), "resvd", nh.resvd);
	val_set_flags(vl_add(n->c, &f), "nh_flags", nh.nh_flags, route_nexthop_flags, NULL);
	val_set_struct(vl_add(n->c, l), NULL, f.it, f.n, false);
	tail_attrs(n, l, off, len, sizeof(nh), rtnl_nexthop_attrs, nha_fns, ARRAY_SIZE(nha_fns),
		   &nh);
}

/* ---- netconfmsg, rtgenmsg (RTM_*NSID) -------------------------------------- */

static const nla_fn netconfa_fns[] = {
	[NETCONFA_IFINDEX] = nla_ifindex,
	[NETCONFA_FORWARDING] = nla_s32,
	[NETCONFA_RP_FILTER] = nla_s32,
	[NETCONFA_MC_FORWARDING] = nla_s32,
	[NETCONFA_PROXY_NEIGH] = nla_s32,
	[NETCONFA_IGNORE_ROUTES_WITH_LINKDOWN] = nla_s32,
	[NETCONFA_INPUT] = nla_s32,
	[NETCONFA_BC_FORWARDING] = nla_s32,
};

static const nla_fn netnsa_fns[] = {
	[NETNSA_NSID] = nla_s32,
	[NETNSA_PID] = nla_u32,
	[NETNSA_FD] = nla_fd,
	[NETNSA_TARGET_NSID] = nla_s32,
	[NETNSA_CURRENT_NSID] = nla_s32,
};

/* {name=AF_...} and the attributes after the 4-byte aligned family. */
static void family_only_val(const struct nlctx *n, struct vlist *l, uint8_t family,
			    uint64_t off, unsigned len, const char *name,
			    const struct xlat *types, const nla_fn *fns, unsigned nfns)
{
	struct val *f = val_new_array(n->c, 1);

	val_set_enum(f, name, family, addrfams);
	val_set_struct(vl_add(n->c, l), NULL, f, 1, false);
	tail_attrs(n, l, off, len, 1, types, fns, nfns, NULL);
}

/* ---- ifaddrlblmsg, dcbmsg -------------------------------------------------- */

static const nla_fn ifal_fns[] = {
	[IFAL_ADDRESS] = family_addr,
	[IFAL_LABEL] = nla_u32,
};

static void ifaddrlbl_val(const struct nlctx *n, struct vlist *l, uint8_t family,
			  uint64_t off, unsigned len)
{
	struct ifaddrlblmsg m = { .ifal_family = family };
	struct vlist f = { 0 };

	if (!nl_fixed_head(n, l, off, len, sizeof(m), &m, "ifal_family", &f))
		return;
	val_set_uint(vl_add(n->c, &f), "ifal_prefixlen", m.ifal_prefixlen);
	val_set_uint(vl_add(n->c, &f), "ifal_flags", m.ifal_flags);
	nl_ifindex(n, vl_add(n->c, &f), "ifal_index", m.ifal_index);
	val_set_uint(vl_add(n->c, &f), "ifal_seq", m.ifal_seq);
	val_set_struct(vl_add(n->c, l), NULL, f.it, f.n, false);
	tail_attrs(n, l, off, len, sizeof(m), rtnl_addrlabel_attrs, ifal_fns,
		   ARRAY_SIZE(ifal_fns), &m);
}

static void dcbmsg_val(const struct nlctx *n, struct vlist *l, uint8_t family, uint64_t off,
		       unsigned len)
{
	struct dcbmsg m = { .dcb_family = family };
	struct vlist f = { 0 };

	if (!nl_fixed_head(n, l, off, len, sizeof(m), &m, "dcb_family", &f))
		return;
	val_set_enum(vl_add(n->c, &f), "cmd", m.cmd, dcb_commands);
	val_set_struct(vl_add(n->c, l), NULL, f.it, f.n, false);
	tail_attrs(n, l, off, len, sizeof(m), rtnl_dcb_attrs, NULL, 0, NULL);
}

/* ---- br_port_msg (RTM_*MDB) ------------------------------------------------ */

static const nla_fn mdb_eattr_fns[] = {
	[MDBA_MDB_EATTR_TIMER] = nla_clock_t,
};

/* br_mdb_entry, then ", [attributes]" (no brackets around the two, as
 * strace): addr.u as a hex string (proto is an ethertype, which
 * strace 6.1 matches against the address families and never finds), the
 * attributes after it. */
static bool mdb_entry_info(const struct nlctx *n, struct val *v, uint64_t off, unsigned len,
			   const void *o)
{
	struct br_mdb_entry e;
	struct vlist f = { 0 }, a = { 0 };
	struct val *it, *proto;
	char buf[64];

	if (len < sizeof(e))
		return false;
	if (!nl_fetch(n, off, &e, sizeof(e))) {
		nl_addr(n, v, NULL, off);
	} else {
		nl_ifindex(n, vl_add(n->c, &f), "ifindex", e.ifindex);
		val_set_enum(vl_add(n->c, &f), "state", e.state, mdb_states);
		val_set_flags(vl_add(n->c, &f), "flags", e.flags, mdb_flags, NULL);
		val_set_uint(vl_add(n->c, &f), "vid", e.vid);
		val_set_str(n->c, vl_add(n->c, &a), "u", (const char *)&e.addr.u,
			    sizeof(e.addr.u), false);
		a.it[0].flags |= VF_HEXSTR;
		proto = val_new_array(n->c, 1);
		snprintf(buf, sizeof(buf), "%#x", ntohs(e.addr.proto));
		val_set_enum(proto, NULL, ntohs(e.addr.proto), addrfams);
		val_set_call(n->c, vl_add(n->c, &a), "proto", "htons", proto, 1);
		val_set_struct(vl_add(n->c, &f), "addr", a.it, a.n, false);
	}
	if (len <= NLMSG_ALIGN(sizeof(e))) {
		if (f.n)
			val_set_struct(v, NULL, f.it, f.n, false);
		return true;
	}
	it = val_new_array(n->c, 2);
	if (f.n)
		val_set_struct(&it[0], NULL, f.it, f.n, false);
	else
		it[0] = *v;
	nl_attrs(n, &it[1], off + NLMSG_ALIGN(sizeof(e)), len - NLMSG_ALIGN(sizeof(e)),
		 rtnl_mdba_mdb_eattr_attrs, mdb_eattr_fns, ARRAY_SIZE(mdb_eattr_fns), NULL);
	val_set_op(v, NULL, it, 2, ", ");
	return true;
}

static const nla_fn mdb_entry_fns[] = { [MDBA_MDB_ENTRY_INFO] = mdb_entry_info };

static bool mdba_mdb_entry(const struct nlctx *n, struct val *v, uint64_t off, unsigned len,
			   const void *o)
{
	nl_attrs(n, v, off, len, rtnl_mdba_mdb_entry_attrs, mdb_entry_fns,
		 ARRAY_SIZE(mdb_entry_fns), NULL);
	return true;
}

static const nla_fn mdb_mdb_fns[] = { [MDBA_MDB_ENTRY] = mdba_mdb_entry };

static bool mdba_mdb(const struct nlctx *n, struct val *v, uint64_t off, unsigned len,
		     const void *o)
{
	nl_attrs(n, v, off, len, rtnl_mdba_mdb_attrs, mdb_mdb_fns, ARRAY_SIZE(mdb_mdb_fns), NULL);
	return true;
}

NLA_XVAL_FN(mdb_router_type, 1, multicast_router_types, false)

static const nla_fn mdb_pattr_fns[] = {
	[MDBA_ROUTER_PATTR_TIMER] = nla_clock_t,
	[MDBA_ROUTER_PATTR_TYPE] = mdb_router_type,
	[MDBA_ROUTER_PATTR_INET_TIMER] = nla_clock_t,
	[MDBA_ROUTER_PATTR_INET6_TIMER] = nla_clock_t,
};

/* MDBA_ROUTER_PORT: the ifindex, then ", [attributes]" when more follows. */
static bool mdb_router_port(const struct nlctx *n, struct val *v, uint64_t off, unsigned len,
			    const void *o)
{
	struct val *it;

	if (len < 4)
		return false;
	if (len <= 4)
		return nla_ifindex(n, v, off, len, o);
	it = val_new_array(n->c, 2);
	nla_ifindex(n, &it[0], off, 4, o);
	nl_attrs(n, &it[1], off + 4, len - 4, rtnl_mdba_router_pattr_attrs, mdb_pattr_fns,
		 ARRAY_SIZE(mdb_pattr_fns), NULL);
	val_set_op(v, NULL, it, 2, ", ");
	return true;
}

static const nla_fn mdb_router_fns[] = { [MDBA_ROUTER_PORT] = mdb_router_port };

static bool mdba_router(const struct nlctx *n, struct val *v, uint64_t off, unsigned len,
			const void *o)
{
	nl_attrs(n, v, off, len, rtnl_mdba_router_attrs, mdb_router_fns,
		 ARRAY_SIZE(mdb_router_fns), NULL);
	return true;
}

static const nla_fn mdba_fns[] = {
	[MDBA_MDB] = mdba_mdb,
	[MDBA_ROUTER] = mdba_router,
};

static void br_port_val(const struct nlctx *n, struct vlist *l, uint8_t family, uint64_t off,
			unsigned len)
{
	struct br_port_msg m = { .family = family };
	struct vlist f = { 0 };

	if (!nl_fixed_head(n, l, off, len, sizeof(m), &m, "family", &f))
		return;
	nl_ifindex(n, vl_add(n->c, &f), "ifindex", m.ifindex);
	val_set_struct(vl_add(n->c, l), NULL, f.it, f.n, false);
	tail_attrs(n, l, off, len, sizeof(m), rtnl_mdb_attrs, mdba_fns, ARRAY_SIZE(mdba_fns),
		   NULL);
}

/* ---- if_stats_msg (RTM_*STATS) --------------------------------------------- */

static bool bridge_stp(const struct nlctx *n, struct val *v, uint64_t off, unsigned len,
		       const void *o)
{
	static const char *const names[] = {
		"transition_blk", "transition_fwd", "rx_bpdu", "tx_bpdu", "rx_tcn", "tx_tcn",
	};
	const unsigned size = sizeof(struct bridge_stp_xstats);
	struct val *it;

	if (len < size)
		return false;
	if (len == size)
		return nl_uint_struct(n, v, off, len, 6, 8, names);
	it = val_new_array(n->c, 2);
	nl_uint_struct(n, &it[0], off, size, 6, 8, names);
	nl_hexstr(n, &it[1], NULL, off + size, len - size);
	val_set_op(v, NULL, it, 2, ", ");
	return true;
}

/* v = the struct in f, then ", "hex"" for bytes past size (strace's way
 * with the bridge's xstats). */
static void struct_then_rest(const struct nlctx *n, struct val *v, struct vlist *f,
			     uint64_t off, unsigned len, unsigned size)
{
	struct val *it;

	if (len == size) {
		val_set_struct(v, NULL, f->it, f->n, false);
		return;
	}
	it = val_new_array(n->c, 2);
	val_set_struct(&it[0], NULL, f->it, f->n, false);
	nl_hexstr(n, &it[1], NULL, off + size, len - size);
	val_set_op(v, NULL, it, 2, ", ");
}

static bool bridge_vlan(const struct nlctx *n, struct val *v, uint64_t off, unsigned len,
			const void *o)
{
	struct bridge_vlan_xstats st;
	struct vlist f = { 0 };

	if (len < sizeof(st))
		return false;
	if (!nl_fetch(n, off, &st, sizeof(st))) {
		nl_addr(n, v, NULL, off);
		return true;
	}
	val_set_uint(vl_add(n->c, &f), "rx_bytes", st.rx_bytes);
	val_set_uint(vl_add(n->c, &f), "rx_packets", st.rx_packets);
	val_set_uint(vl_add(n->c, &f), "tx_bytes", st.tx_bytes);
	val_set_uint(vl_add(n->c, &f), "tx_packets", st.tx_packets);
	val_set_uint(vl_add(n->c, &f), "vid", st.vid);
	val_set_flags(vl_add(n->c, &f), "flags", st.flags, nl_bridge_vlan_flags, NULL);
	if (st.pad2)
		val_set_hex(vl_add(n->c, &f), "pad2", st.pad2);
	struct_then_rest(n, v, &f, off, len, sizeof(st));
	return true;
}

/* [[BR_MCAST_DIR_RX]=1, [BR_MCAST_DIR_TX]=2] (PRINT_FIELD_ARRAY_INDEXED) */
static void mcast_pair(struct dctx *c, struct val *v, const char *name, const uint64_t *x)
{
	struct val *it = val_new_array(c, BR_MCAST_DIR_SIZE);

	for (unsigned i = 0; i < BR_MCAST_DIR_SIZE; i++) {
		struct val *p = val_new_array(c, 4);

		val_set_text(c, &p[0], NULL, "[");
		val_set_enum(&p[1], NULL, i, ifstats_xstats_bridge_mcast_indices);
		p[1].flags |= VF_DECIMAL;
		val_set_text(c, &p[2], NULL, "]=");
		val_set_uint(&p[3], NULL, x[i]);
		val_set_op(&it[i], NULL, p, 4, "");
	}
	val_set_array(v, name, it, BR_MCAST_DIR_SIZE, false);
}

static bool bridge_mcast(const struct nlctx *n, struct val *v, uint64_t off, unsigned len,
			 const void *o)
{
	static const struct {
		const char *name;
		size_t off;
		bool pair;
	} fields[] = {
#define PAIR(f) { #f, offsetof(struct br_mcast_stats, f), true }
#define ONE(f) { #f, offsetof(struct br_mcast_stats, f), false }
		PAIR(igmp_v1queries), PAIR(igmp_v2queries), PAIR(igmp_v3queries),
		PAIR(igmp_leaves), PAIR(igmp_v1reports), PAIR(igmp_v2reports),
		PAIR(igmp_v3reports), ONE(igmp_parse_errors), PAIR(mld_v1queries),
		PAIR(mld_v2queries), PAIR(mld_leaves), PAIR(mld_v1reports),
		PAIR(mld_v2reports), ONE(mld_parse_errors), PAIR(mcast_bytes),
		PAIR(mcast_packets),
#undef PAIR
#undef ONE
	};
	struct br_mcast_stats st;
	struct vlist f = { 0 };

	if (len < sizeof(st))
		return false;
	if (!nl_fetch(n, off, &st, sizeof(st))) {
		nl_addr(n, v, NULL, off);
		return true;
	}
	for (unsigned i = 0; i < ARRAY_SIZE(fields); i++) {
		const uint64_t *x = (const uint64_t *)((const char *)&st + fields[i].off);

		if (fields[i].pair)
			mcast_pair(n->c, vl_add(n->c, &f), fields[i].name, x);
		else
			val_set_uint(vl_add(n->c, &f), fields[i].name, *x);
	}
	struct_then_rest(n, v, &f, off, len, sizeof(st));
	return true;
}

static const nla_fn bridge_xstats_fns[] = {
	[BRIDGE_XSTATS_VLAN] = bridge_vlan,
	[BRIDGE_XSTATS_MCAST] = bridge_mcast,
	[BRIDGE_XSTATS_STP] = bridge_stp,
};

static bool xstats_bridge(const struct nlctx *n, struct val *v, uint64_t off, unsigned len,
			  const void *o)
{
	nl_attrs(n, v, off, len, ifstats_xstats_bridge_attrs, bridge_xstats_fns,
		 ARRAY_SIZE(bridge_xstats_fns), o);
	return true;
}

static const nla_fn xstats_fns[] = {
	[LINK_XSTATS_TYPE_BRIDGE] = xstats_bridge,
};

static bool ifstats_xstats(const struct nlctx *n, struct val *v, uint64_t off, unsigned len,
			   const void *o)
{
	nl_attrs(n, v, off, len, ifstats_xstats_type_attrs, xstats_fns, ARRAY_SIZE(xstats_fns),
		 o);
	return true;
}

static const nla_fn offload_fns[] = {
	[IFLA_OFFLOAD_XSTATS_CPU_HIT] = nla_link_stats64,
};

static bool ifstats_offload(const struct nlctx *n, struct val *v, uint64_t off, unsigned len,
			    const void *o)
{
	nl_attrs(n, v, off, len, ifstats_offload_attrs, offload_fns, ARRAY_SIZE(offload_fns), o);
	return true;
}

/* IFLA_STATS_AF_SPEC: attributes typed by address family, their payloads
 * hex strings (strace 6.1 decodes AF_MPLS's only, which no kernel here
 * has). */
static bool ifstats_af_spec(const struct nlctx *n, struct val *v, uint64_t off, unsigned len,
			    const void *o)
{
	nl_attrs(n, v, off, len, addrfams, NULL, 0, NULL);
	return true;
}

static const nla_fn ifstats_fns[] = {
	[IFLA_STATS_LINK_64] = nla_link_stats64,
	[IFLA_STATS_LINK_XSTATS] = ifstats_xstats,
	[IFLA_STATS_LINK_XSTATS_SLAVE] = ifstats_xstats,
	[IFLA_STATS_LINK_OFFLOAD_XSTATS] = ifstats_offload,
	[IFLA_STATS_AF_SPEC] = ifstats_af_spec,
};

static void ifstats_val(const struct nlctx *n, struct vlist *l, uint8_t family, uint64_t off,
			unsigned len)
{
	struct if_stats_msg m = { .family = family };
	struct vlist f = { 0 };

	if (!nl_fixed_head(n, l, off, len, sizeof(m), &m, "family", &f))
		return;
	if (m.pad1)
		val_set_hex(vl_add(n->c, &f), "pad1", m.pad1);
	if (m.pad2)
		val_set_hex(vl_add(n->c, &f), "pad2", m.pad2);
	nl_ifindex(n, vl_add(n->c, &f), "ifindex", m.ifindex);
	val_set_flags(vl_add(n->c, &f), "filter_mask", m.filter_mask, ifstats_attr_flags, NULL);
	val_set_struct(vl_add(n->c, l), NULL, f.it, f.n, false);
	tail_attrs(n, l, off, len, sizeof(m), ifstats_attrs, ifstats_fns, ARRAY_SIZE(ifstats_fns),
		   &m);
}

/* ---- dispatch ------------------------------------------------------------- */

bool nl_decode_route_more(const struct nlctx *n, struct vlist *l, uint16_t type,
			  uint8_t family, uint64_t off, unsigned len)
{
	switch (type) {
	case RTM_NEWNEIGH: case RTM_DELNEIGH: case RTM_GETNEIGH:
		ndmsg_val(n, l, family, off, len);
		return true;
	case RTM_NEWRULE: case RTM_DELRULE: case RTM_GETRULE:
		fib_rule_val(n, l, family, off, len);
		return true;
	case RTM_NEWQDISC: case RTM_DELQDISC: case RTM_GETQDISC:
	case RTM_NEWTCLASS: case RTM_DELTCLASS: case RTM_GETTCLASS:
	case RTM_NEWTFILTER: case RTM_DELTFILTER: case RTM_GETTFILTER:
	case RTM_NEWCHAIN: case RTM_DELCHAIN: case RTM_GETCHAIN:
		tcmsg_val(n, l, family, off, len);
		return true;
	case RTM_NEWACTION: case RTM_DELACTION: case RTM_GETACTION:
		family_only_val(n, l, family, off, len, "tca_family", rtnl_tc_action_attrs,
				tca_act_fns, ARRAY_SIZE(tca_act_fns));
		return true;
	case RTM_NEWNEXTHOP: case RTM_DELNEXTHOP: case RTM_GETNEXTHOP:
		nhmsg_val(n, l, family, off, len);
		return true;
	case RTM_NEWNEIGHTBL: case RTM_GETNEIGHTBL: case RTM_SETNEIGHTBL:
		family_only_val(n, l, family, off, len, "ndtm_family", rtnl_neightbl_attrs,
				ndta_fns, ARRAY_SIZE(ndta_fns));
		return true;
	case RTM_NEWNETCONF: case RTM_DELNETCONF: case RTM_GETNETCONF:
		family_only_val(n, l, family, off, len, "ncm_family", rtnl_netconf_attrs,
				netconfa_fns, ARRAY_SIZE(netconfa_fns));
		return true;
	case RTM_NEWNSID: case RTM_DELNSID: case RTM_GETNSID:
		family_only_val(n, l, family, off, len, "rtgen_family", rtnl_nsid_attrs,
				netnsa_fns, ARRAY_SIZE(netnsa_fns));
		return true;
	case RTM_NEWADDRLABEL: case RTM_DELADDRLABEL: case RTM_GETADDRLABEL:
		ifaddrlbl_val(n, l, family, off, len);
		return true;
	case RTM_NEWMDB: case RTM_DELMDB: case RTM_GETMDB:
		br_port_val(n, l, family, off, len);
		return true;
	case RTM_NEWSTATS: case RTM_GETSTATS:
		ifstats_val(n, l, family, off, len);
		return true;
	case RTM_GETDCB: case RTM_SETDCB:
		dcbmsg_val(n, l, family, off, len);
		return true;
	default:
		return false;
	}
}
