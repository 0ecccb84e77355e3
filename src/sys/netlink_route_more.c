/*
 * NETLINK_ROUTE payloads beside links, addresses and routes, as strace 6.1
 * prints them: neighbours (ndmsg), rules (fib_rule_hdr), qdiscs, classes,
 * filters and chains (tcmsg), netconf, nexthops (nhmsg), address labels,
 * dcbmsg and the rtgenmsg of RTM_*NSID, each with its attributes.
 */
#include "sys/netlink_route.h"

#include <endian.h>
#include <stddef.h>
#include <string.h>
#include <arpa/inet.h>
#include <sys/socket.h>
#include <linux/dcbnl.h>
#include <linux/fib_rules.h>
#include <linux/gen_stats.h>
#include <linux/if_addrlabel.h>
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
#include "xlat/inet_protocols.h"
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
#include "xlat/rtnl_neigh_attrs.h"
#include "xlat/rtnl_neigh_fdb_ext_attrs.h"
#include "xlat/rtnl_netconf_attrs.h"
#include "xlat/rtnl_nexthop_attrs.h"
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

static bool nla_ip_proto(const struct nlctx *n, struct val *v, uint64_t off, unsigned len,
			 const void *o)
{
	return nla_xval(n, v, off, len, 1, inet_protocols, false);
}

static bool nla_rt_proto(const struct nlctx *n, struct val *v, uint64_t off, unsigned len,
			 const void *o)
{
	return nla_xval(n, v, off, len, 1, routing_protocols, false);
}

static bool nla_rt_class(const struct nlctx *n, struct val *v, uint64_t off, unsigned len,
			 const void *o)
{
	return nla_xval(n, v, off, len, 4, routing_table_ids, false);
}

/* {name0=.., name1=..}: count unsigned fields of size bytes (a struct of
 * __u32 or __u64 only), or false when len is short. */
static bool uints(const struct nlctx *n, struct val *v, uint64_t off, unsigned len,
		  unsigned count, unsigned size, const char *const *names)
{
	uint8_t raw[16 * 8];
	struct val *f;

	if (len < count * size)
		return false;
	if (!nl_fetch(n, off, raw, (size_t)count * size)) {
		nl_addr(n, v, NULL, off);
		return true;
	}
	f = val_new_array(n->c, count);
	for (unsigned i = 0; i < count; i++) {
		uint64_t x = 0;

		if (size == 8) {
			memcpy(&x, raw + i * 8, 8);
		} else if (size == 4) {
			uint32_t y;

			memcpy(&y, raw + i * 4, 4);
			x = y;
		} else {
			uint16_t y;

			memcpy(&y, raw + i * 2, 2);
			x = y;
		}
		val_set_uint(&f[i], names[i], x);
	}
	val_set_struct(v, NULL, f, count, false);
	return true;
}

/* ---- ndmsg ---------------------------------------------------------------- */

static bool nda_cacheinfo(const struct nlctx *n, struct val *v, uint64_t off, unsigned len,
			  const void *o)
{
	static const char *const names[] = {
		"ndm_confirmed", "ndm_used", "ndm_updated", "ndm_refcnt",
	};

	return uints(n, v, off, len, 4, 4, names);
}

static bool fdb_notify(const struct nlctx *n, struct val *v, uint64_t off, unsigned len,
		       const void *o)
{
	return nla_xval(n, v, off, len, 1, fdb_notify_flags, true);
}

static const nla_fn nfea_fns[] = {
	[NFEA_ACTIVITY_NOTIFY] = fdb_notify,
};

static bool nda_fdb_ext(const struct nlctx *n, struct val *v, uint64_t off, unsigned len,
			const void *o)
{
	nl_attrs(n, v, off, len, rtnl_neigh_fdb_ext_attrs, nfea_fns, ARRAY_SIZE(nfea_fns), o);
	return true;
}

static bool nda_ext_flags(const struct nlctx *n, struct val *v, uint64_t off, unsigned len,
			  const void *o)
{
	return nla_xval(n, v, off, len, 4, neighbor_cache_entry_ext_flags, true);
}

static bool nda_states(const struct nlctx *n, struct val *v, uint64_t off, unsigned len,
		       const void *o)
{
	return nla_xval(n, v, off, len, 2, neighbor_cache_entry_states, true);
}

static bool nda_flags(const struct nlctx *n, struct val *v, uint64_t off, unsigned len,
		      const void *o)
{
	return nla_xval(n, v, off, len, 1, neighbor_cache_entry_flags, true);
}

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

/* ---- fib_rule_hdr --------------------------------------------------------- */

static bool fra_range(const struct nlctx *n, struct val *v, uint64_t off, unsigned len,
		      const void *o)
{
	static const char *const names[] = { "start", "end" };

	return uints(n, v, off, len, 2, 4, names);
}

static bool fra_port_range(const struct nlctx *n, struct val *v, uint64_t off, unsigned len,
			   const void *o)
{
	static const char *const names[] = { "start", "end" };

	return uints(n, v, off, len, 2, 2, names);
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
	val_set_enum(vl_add(n->c, &f), "table", h.table, routing_table_ids);
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

	return uints(n, v, off, len, 2, 4, names);
}

static bool gnet_queue(const struct nlctx *n, struct val *v, uint64_t off, unsigned len,
		       const void *o)
{
	static const char *const names[] = {
		"qlen", "backlog", "drops", "requeues", "overlimits",
	};

	return uints(n, v, off, len, 5, 4, names);
}

static bool gnet_rate_est64(const struct nlctx *n, struct val *v, uint64_t off, unsigned len,
			    const void *o)
{
	static const char *const names[] = { "bps", "pps" };

	return uints(n, v, off, len, 2, 8, names);
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

/* ---- nhmsg ---------------------------------------------------------------- */

static const nla_fn nha_fns[] = {
	[NHA_ID] = nla_u32,
	[NHA_BLACKHOLE] = nla_u32,
	[NHA_OIF] = nla_ifindex,
	[NHA_GATEWAY] = family_addr,
	[NHA_GROUPS] = nla_u32,
	[NHA_MASTER] = nla_ifindex,
	[NHA_FDB] = nla_u32,
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

static bool nla_fd(const struct nlctx *n, struct val *v, uint64_t off, unsigned len,
		   const void *o)
{
	int32_t fd;

	if (len < sizeof(fd))
		return false;
	if (!nl_fetch(n, off, &fd, sizeof(fd)))
		nl_addr(n, v, NULL, off);
	else
		val_set_fd(n->c, v, NULL, fd);
	return true;
}

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
	case RTM_NEWNEXTHOP: case RTM_DELNEXTHOP: case RTM_GETNEXTHOP:
		nhmsg_val(n, l, family, off, len);
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
	case RTM_GETDCB: case RTM_SETDCB:
		dcbmsg_val(n, l, family, off, len);
		return true;
	default:
		return false;
	}
}
