/*
 * NETLINK_SOCK_DIAG payloads as strace 6.1 prints them: the requests
 * (NLM_F_REQUEST) and replies of inet_diag, unix_diag, netlink_diag,
 * packet_diag and smc_diag with their attributes, from the kernel's uapi
 * headers (SMC's states and decline codes from net/smc, which has none);
 * other address families print as {family=AF_..., data="..."}.
 */
#include "sys/netlink_proto.h"

#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/sysmacros.h>
#include <linux/filter.h>
#include <linux/inet_diag.h>
#include <linux/mptcp.h>
#include <linux/netlink.h>
#include <linux/netlink_diag.h>
#include <linux/packet_diag.h>
#include <linux/smc_diag.h>
#include <linux/sock_diag.h>
#include <linux/tcp.h>
#include <linux/tls.h>
#include <linux/unix_diag.h>

#include "sys/decode_extra.h"
#include "sys/net.h"
#include "xlat/addrfams.h"
#include "xlat/af_packet_versions.h"
#include "xlat/diag_socktypes.h"
#include "xlat/ethernet_protocols.h"
#include "xlat/inet_diag_attrs.h"
#include "xlat/inet_diag_bytecodes.h"
#include "xlat/inet_diag_extended_flags.h"
#include "xlat/inet_diag_req_attrs.h"
#include "xlat/inet_protocols.h"
#include "xlat/inet_ulp_info_attrs.h"
#include "xlat/mptcp_subflow_attrs.h"
#include "xlat/mptcp_subflow_flags.h"
#include "xlat/netlink_diag_attrs.h"
#include "xlat/netlink_diag_show.h"
#include "xlat/netlink_protocols.h"
#include "xlat/netlink_socket_flags.h"
#include "xlat/netlink_states.h"
#include "xlat/packet_diag_attrs.h"
#include "xlat/packet_diag_info_flags.h"
#include "xlat/packet_diag_show.h"
#include "xlat/sk_diag_bpf_storage_attrs.h"
#include "xlat/sk_diag_bpf_storage_rep_attrs.h"
#include "xlat/sk_meminfo.h"
#include "xlat/smc_decl_codes.h"
#include "xlat/smc_diag_attrs.h"
#include "xlat/smc_diag_extended_flags.h"
#include "xlat/smc_diag_modes.h"
#include "xlat/smc_link_group_roles.h"
#include "xlat/smc_states.h"
#include "xlat/sock_shutdown_flags.h"
#include "xlat/tcp_state_flags.h"
#include "xlat/tcp_states.h"
#include "xlat/tls_cipher_types.h"
#include "xlat/tls_info_attrs.h"
#include "xlat/tls_info_configs.h"
#include "xlat/tls_versions.h"
#include "xlat/unix_diag_attrs.h"
#include "xlat/unix_diag_show.h"
#include "util/xmalloc.h"
#include "util/banned.h"

/* ---- shared pieces -------------------------------------------------------- */

/* A struct of count u32 fields read whole from a payload of len bytes, or
 * false (a hex string) when len is shorter; hex[i] shows field i in hex. */
static bool u32_struct(const struct nlctx *n, struct val *v, uint64_t off, unsigned len,
		       unsigned count, const char *const *names, const bool *hex)
{
	uint32_t x[16];
	struct val *f;

	if (len < count * sizeof(x[0]) || count > 16)
		return false;
	if (!nl_fetch(n, off, x, count * sizeof(x[0]))) {
		nl_addr(n, v, NULL, off);
		return true;
	}
	f = val_new_array(n->c, count);
	for (unsigned i = 0; i < count; i++) {
		if (hex && hex[i])
			val_set_hex(&f[i], names[i], x[i]);
		else
			val_set_uint(&f[i], names[i], x[i]);
	}
	val_set_struct(v, NULL, f, count, false);
	return true;
}

/* name=[c0, c1]: a sock_diag cookie. */
static void cookie_val(struct dctx *c, struct val *v, const char *name, const uint32_t *ck)
{
	struct val *it = val_new_array(c, 2);

	val_set_uint(&it[0], NULL, ck[0]);
	val_set_uint(&it[1], NULL, ck[1]);
	val_set_array(v, name, it, 2, false);
}

/* [[SK_MEMINFO_RMEM_ALLOC]=1, ...]: an array of u32 indexed by sk_meminfo,
 * as many as len holds. */
static bool meminfo_attr(const struct nlctx *n, struct val *v, uint64_t off, unsigned len,
			 const void *o)
{
	unsigned count = len / 4, shown;
	struct val *it;
	uint32_t x;
	bool more;

	if (!count)
		return false;
	shown = (unsigned)decode_elem_limit(n->c, count);
	more = shown < count;
	it = val_new_array(n->c, shown);
	for (unsigned i = 0; i < shown; i++) {
		struct val *pair = val_new_array(n->c, 2), *idx = val_new_array(n->c, 1);

		if (!nl_fetch(n, off + 4 * i, &x, sizeof(x))) {
			nl_more_at(n, &it[i], off + 4 * i);
			val_set_array(v, NULL, it, i + 1, false);
			return true;
		}
		val_set_enum(idx, NULL, i, sk_meminfo);
		idx->flags |= VF_DECIMAL;
		val_set_array(&pair[0], NULL, idx, 1, false);
		val_set_uint(&pair[1], NULL, x);
		val_set_op(&it[i], NULL, pair, 2, "=");
	}
	val_set_array(v, NULL, it, shown, more);
	return true;
}

/* An inet_diag_sockid: {idiag_sport=htons(..), ..., idiag_cookie=[..]}. */
static void sockid_val(struct dctx *c, struct val *v, const char *name, int family,
		       const struct inet_diag_sockid *id)
{
	struct val *f = val_new_array(c, 6);

	net_port_val(c, &f[0], "idiag_sport", &id->idiag_sport);
	net_port_val(c, &f[1], "idiag_dport", &id->idiag_dport);
	net_inet_addr16_val(c, &f[2], "idiag_src", family, id->idiag_src);
	net_inet_addr16_val(c, &f[3], "idiag_dst", family, id->idiag_dst);
	net_ifindex_val(c, &f[4], "idiag_if", id->idiag_if);
	cookie_val(c, &f[5], "idiag_cookie", id->idiag_cookie);
	val_set_struct(v, name, f, 6, false);
}

/* The attributes after a fixed header of size bytes, if any. */
static void tail_attrs(const struct nlctx *n, struct vlist *l, uint64_t off, unsigned len,
		       size_t size, const struct xlat *types, const nla_fn *fns,
		       unsigned nfns, const void *opaque)
{
	if (len > NLMSG_ALIGN(size))
		nl_attrs(n, vl_add(n->c, l), off + NLMSG_ALIGN(size),
			 len - NLMSG_ALIGN(size), types, fns, nfns, opaque);
}

/* ---- inet_diag ------------------------------------------------------------ */

static void bc_op_val(struct dctx *c, struct val *v, const struct inet_diag_bc_op *op)
{
	struct val *f = val_new_array(c, 3);

	val_set_enum(&f[0], "code", op->code, inet_diag_bytecodes);
	val_set_uint(&f[1], "yes", op->yes);
	val_set_uint(&f[2], "no", op->no);
	val_set_struct(v, NULL, f, 3, false);
}

/* A host condition: {family=AF_INET, prefix_len=24, port=80,
 * addr=inet_addr("10.0.0.0")}; the address as far as len holds it. */
static void bc_hostcond(const struct nlctx *n, struct val *v, uint64_t off, unsigned len)
{
	struct inet_diag_hostcond hc;
	uint8_t addr[16];
	unsigned alen = len - sizeof(hc);
	struct vlist f = { 0 };

	if (!nl_fetch(n, off, &hc, sizeof(hc))) {
		nl_addr(n, v, NULL, off);
		return;
	}
	val_set_enum(vl_add(n->c, &f), "family", hc.family, addrfams);
	val_set_uint(vl_add(n->c, &f), "prefix_len", hc.prefix_len);
	val_set_uint(vl_add(n->c, &f), "port", (uint32_t)hc.port);
	if (alen) {
		unsigned need = hc.family == AF_INET ? 4 : hc.family == AF_INET6 ? 16 : 0;
		struct val *a = vl_add(n->c, &f);

		if (need && alen >= need && nl_fetch(n, off + sizeof(hc), addr, need))
			net_inet_addr_val(n->c, a, "addr", hc.family, addr);
		else
			nl_hexstr(n, a, "addr", off + sizeof(hc), alen);
	}
	val_set_struct(v, NULL, f.it, f.n, false);
}

/*
 * INET_DIAG_REQ_BYTECODE: the first inet_diag_bc_op and what its code
 * takes after it (a port comparison's second op, a host condition, an
 * interface, a mark), else the rest as a hex string; strace 6.1 shows no
 * further ops.
 */
static bool inet_bytecode(const struct nlctx *n, struct val *v, uint64_t off, unsigned len,
			  const void *o)
{
	struct inet_diag_bc_op op, op2;
	struct val *it;
	unsigned rest = len - sizeof(op);
	uint32_t x[2];

	if (len < sizeof(op))
		return false;
	if (!nl_fetch(n, off, &op, sizeof(op))) {
		nl_addr(n, v, NULL, off);
		return true;
	}
	if (!rest) {
		bc_op_val(n->c, v, &op);
		return true;
	}
	it = val_new_array(n->c, 2);
	bc_op_val(n->c, &it[0], &op);
	off += sizeof(op);
	switch (op.code) {
	case INET_DIAG_BC_S_GE:
	case INET_DIAG_BC_S_LE:
	case INET_DIAG_BC_D_GE:
	case INET_DIAG_BC_D_LE:
		if (rest < sizeof(op2))
			goto hex;
		if (!nl_fetch(n, off, &op2, sizeof(op2)))
			nl_addr(n, &it[1], NULL, off);
		else
			bc_op_val(n->c, &it[1], &op2);
		break;
	case INET_DIAG_BC_S_COND:
	case INET_DIAG_BC_D_COND:
		if (rest < sizeof(struct inet_diag_hostcond))
			goto hex;
		bc_hostcond(n, &it[1], off, rest);
		break;
	case INET_DIAG_BC_DEV_COND:
		if (rest < 4)
			goto hex;
		if (!nl_fetch(n, off, x, 4))
			nl_addr(n, &it[1], NULL, off);
		else
			net_ifindex_val(n->c, &it[1], NULL, x[0]);
		break;
	case INET_DIAG_BC_MARK_COND: {
		static const char *const names[] = { "mark", "mask" };

		if (!u32_struct(n, &it[1], off, rest, 2, names, NULL))
			goto hex;
		break;
	}
	default:
	hex:
		nl_hexstr(n, &it[1], NULL, off, rest);
		break;
	}
	val_set_op(v, NULL, it, 2, ", ");
	return true;
}

static bool inet_protocol_u32(const struct nlctx *n, struct val *v, uint64_t off,
			      unsigned len, const void *o)
{
	return nla_xval(n, v, off, len, 4, inet_protocols, false);
}


static bool inet_meminfo(const struct nlctx *n, struct val *v, uint64_t off, unsigned len,
			 const void *o)
{
	static const char *const names[] = { "idiag_rmem", "idiag_wmem", "idiag_fmem",
					     "idiag_tmem" };

	return u32_struct(n, v, off, len, 4, names, NULL);
}

static bool inet_vegasinfo(const struct nlctx *n, struct val *v, uint64_t off, unsigned len,
			   const void *o)
{
	static const char *const names[] = { "tcpv_enabled", "tcpv_rttcnt", "tcpv_rtt",
					     "tcpv_minrtt" };

	return u32_struct(n, v, off, len, 4, names, NULL);
}

static bool inet_dctcpinfo(const struct nlctx *n, struct val *v, uint64_t off, unsigned len,
			   const void *o)
{
	struct { uint16_t enabled, ce_state; uint32_t alpha, ab_ecn, ab_tot; } d;
	struct val *f;

	if (len < sizeof(d))
		return false;
	if (!nl_fetch(n, off, &d, sizeof(d))) {
		nl_addr(n, v, NULL, off);
		return true;
	}
	f = val_new_array(n->c, 5);
	val_set_uint(&f[0], "dctcp_enabled", d.enabled);
	val_set_uint(&f[1], "dctcp_ce_state", d.ce_state);
	val_set_uint(&f[2], "dctcp_alpha", d.alpha);
	val_set_uint(&f[3], "dctcp_ab_ecn", d.ab_ecn);
	val_set_uint(&f[4], "dctcp_ab_tot", d.ab_tot);
	val_set_struct(v, NULL, f, 5, false);
	return true;
}

static bool inet_bbrinfo(const struct nlctx *n, struct val *v, uint64_t off, unsigned len,
			 const void *o)
{
	static const char *const names[] = { "bbr_bw_lo", "bbr_bw_hi", "bbr_min_rtt",
					     "bbr_pacing_gain", "bbr_cwnd_gain" };
	static const bool hex[] = { true, true, false, false, false };

	return u32_struct(n, v, off, len, 5, names, hex);
}

/* INET_DIAG_SHUTDOWN: strace shows it in the verbose style whatever -X
 * says but raw: 0x3 / * RCV_SHUTDOWN|SEND_SHUTDOWN * / */
static bool inet_shutdown(const struct nlctx *n, struct val *v, uint64_t off, unsigned len,
			  const void *o)
{
	uint8_t x;
	struct val forms[3], num, text;
	const char *t;

	if (len < 1)
		return false;
	if (!nl_fetch(n, off, &x, 1)) {
		nl_addr(n, v, NULL, off);
		return true;
	}
	t = x ? xlat_flags_text(n->c, sock_shutdown_flags, x) : NULL;
	if (!t) {
		val_set_hex(v, NULL, x);
		return true;
	}
	val_set_hex(&num, NULL, x);
	val_set_text(n->c, &text, NULL, t);
	val_set_verbose_form(n->c, &forms[0], &num, &text);
	forms[1] = num;
	forms[2] = forms[0];
	val_set_xforms(n->c, v, NULL, &forms[0], &forms[1], &forms[2]);
	return true;
}

static bool inet_protocol_u8(const struct nlctx *n, struct val *v, uint64_t off,
			     unsigned len, const void *o)
{
	return nla_xval(n, v, off, len, 1, inet_protocols, false);
}

/* INET_DIAG_SOCKOPT: the bits of inet_diag_sockopt that are set. */
static bool inet_sockopt(const struct nlctx *n, struct val *v, uint64_t off, unsigned len,
			 const void *o)
{
	static const char *const names[] = {
		"recverr", "is_icsk", "freebind", "hdrincl", "mc_loop", "transparent",
		"mc_all", "nodefrag", "bind_address_no_port", "recverr_rfc4884",
		"defer_connect",
	};
	uint8_t b[2];
	unsigned bits, k = 0;
	struct val *f;

	if (len < sizeof(b))
		return false;
	if (!nl_fetch(n, off, b, sizeof(b))) {
		nl_addr(n, v, NULL, off);
		return true;
	}
	bits = b[0] | (unsigned)b[1] << 8;
	f = val_new_array(n->c, 12);
	/* all the bits with -v, else those that are set */
	for (unsigned i = 0; i < 11; i++)
		if ((bits & (1u << i)) || n->c->opts->verbose)
			val_set_uint(&f[k++], names[i], !!(bits & (1u << i)));
	if ((bits >> 11) || n->c->opts->verbose) {
		/* strace names the unused bits by their place in the byte */
		char buf[48];

		snprintf(buf, sizeof(buf), bits >> 11 ? "%#x /* bits 3..8 */" : "%u /* bits 3..8 */",
			 bits >> 11);
		val_set_text(n->c, &f[k++], "unused", buf);
	}
	val_set_struct(v, NULL, f, k, false);
	return true;
}

/* ---- INET_DIAG_ULP_INFO, INET_DIAG_SK_BPF_STORAGES, INET_DIAG_MD5SIG ----- */

NLA_XVAL_FN(tls_version, 2, tls_versions, false)

NLA_XVAL_FN(tls_cipher, 2, tls_cipher_types, false)

NLA_XVAL_FN(tls_conf, 2, tls_info_configs, false)

static const nla_fn tls_fns[] = {
	[TLS_INFO_VERSION] = tls_version,
	[TLS_INFO_CIPHER] = tls_cipher,
	[TLS_INFO_TXCONF] = tls_conf,
	[TLS_INFO_RXCONF] = tls_conf,
};

static bool ulp_tls(const struct nlctx *n, struct val *v, uint64_t off, unsigned len,
		    const void *o)
{
	nl_attrs(n, v, off, len, tls_info_attrs, tls_fns, ARRAY_SIZE(tls_fns), NULL);
	return true;
}

NLA_XVAL_FN(mptcp_flags, 4, mptcp_subflow_flags, true)

static const nla_fn mptcp_fns[] = {
	[MPTCP_SUBFLOW_ATTR_TOKEN_REM] = nla_x32,
	[MPTCP_SUBFLOW_ATTR_TOKEN_LOC] = nla_x32,
	[MPTCP_SUBFLOW_ATTR_RELWRITE_SEQ] = nla_u32,
	[MPTCP_SUBFLOW_ATTR_MAP_SEQ] = nla_u64,
	[MPTCP_SUBFLOW_ATTR_MAP_SFSEQ] = nla_u32,
	[MPTCP_SUBFLOW_ATTR_SSN_OFFSET] = nla_u32,
	[MPTCP_SUBFLOW_ATTR_MAP_DATALEN] = nla_u16,
	[MPTCP_SUBFLOW_ATTR_FLAGS] = mptcp_flags,
	[MPTCP_SUBFLOW_ATTR_ID_REM] = nla_u8,
	[MPTCP_SUBFLOW_ATTR_ID_LOC] = nla_u8,
};

static bool ulp_mptcp(const struct nlctx *n, struct val *v, uint64_t off, unsigned len,
		      const void *o)
{
	nl_attrs(n, v, off, len, mptcp_subflow_attrs, mptcp_fns, ARRAY_SIZE(mptcp_fns), NULL);
	return true;
}

static const nla_fn inet_ulp_fns[] = {
	[INET_ULP_INFO_NAME] = nla_str,
	[INET_ULP_INFO_TLS] = ulp_tls,
	[INET_ULP_INFO_MPTCP] = ulp_mptcp,
};

static bool inet_ulp_info(const struct nlctx *n, struct val *v, uint64_t off, unsigned len,
			  const void *o)
{
	nl_attrs(n, v, off, len, inet_ulp_info_attrs, inet_ulp_fns, ARRAY_SIZE(inet_ulp_fns),
		 NULL);
	return true;
}

static const nla_fn bpf_storage_fns[] = {
	[SK_DIAG_BPF_STORAGE_MAP_ID] = nla_u32,
	[SK_DIAG_BPF_STORAGE_MAP_VALUE] = nla_x32,
};

static bool bpf_storage(const struct nlctx *n, struct val *v, uint64_t off, unsigned len,
			const void *o)
{
	nl_attrs(n, v, off, len, sk_diag_bpf_storage_attrs, bpf_storage_fns,
		 ARRAY_SIZE(bpf_storage_fns), NULL);
	return true;
}

static const nla_fn bpf_storages_fns[] = {
	[SK_DIAG_BPF_STORAGE] = bpf_storage,
};

static bool inet_bpf_storages(const struct nlctx *n, struct val *v, uint64_t off,
			      unsigned len, const void *o)
{
	nl_attrs(n, v, off, len, sk_diag_bpf_storage_rep_attrs, bpf_storages_fns,
		 ARRAY_SIZE(bpf_storages_fns), NULL);
	return true;
}

/* INET_DIAG_MD5SIG: an array of tcp_diag_md5sig. */
static bool inet_md5sig(const struct nlctx *n, struct val *v, uint64_t off, unsigned len,
			const void *o)
{
	const unsigned size = sizeof(struct tcp_diag_md5sig);
	unsigned count = len / size, shown;
	struct val *it;

	if (!count)
		return false;
	shown = (unsigned)decode_elem_limit(n->c, count);
	it = val_new_array(n->c, shown);
	for (unsigned i = 0; i < shown; i++) {
		struct tcp_diag_md5sig md;
		struct val *f;
		unsigned klen;

		if (!nl_fetch(n, off + (uint64_t)size * i, &md, size)) {
			nl_more_at(n, &it[i], off + (uint64_t)size * i);
			val_set_array(v, NULL, it, i + 1, false);
			return true;
		}
		f = val_new_array(n->c, 5);
		val_set_enum(&f[0], "tcpm_family", md.tcpm_family, addrfams);
		val_set_uint(&f[1], "tcpm_prefixlen", md.tcpm_prefixlen);
		val_set_uint(&f[2], "tcpm_keylen", md.tcpm_keylen);
		net_inet_addr16_val(n->c, &f[3], "tcpm_addr", md.tcpm_family, md.tcpm_addr);
		klen = md.tcpm_keylen < sizeof(md.tcpm_key) ? md.tcpm_keylen : sizeof(md.tcpm_key);
		val_set_str(n->c, &f[4], "tcpm_key", (const char *)md.tcpm_key, klen, false);
		f[4].flags |= VF_HEXSTR;
		val_set_struct(&it[i], NULL, f, 5, false);
	}
	val_set_array(v, NULL, it, shown, shown < count);
	return true;
}

static const nla_fn inet_msg_fns[] = {
	[INET_DIAG_MEMINFO] = inet_meminfo,
	[INET_DIAG_VEGASINFO] = inet_vegasinfo,
	[INET_DIAG_CONG] = nla_str,
	[INET_DIAG_TOS] = nla_u8,
	[INET_DIAG_TCLASS] = nla_u8,
	[INET_DIAG_SKMEMINFO] = meminfo_attr,
	[INET_DIAG_SHUTDOWN] = inet_shutdown,
	[INET_DIAG_DCTCPINFO] = inet_dctcpinfo,
	[INET_DIAG_PROTOCOL] = inet_protocol_u8,
	[INET_DIAG_SKV6ONLY] = nla_u8,
	[INET_DIAG_MARK] = nla_u32,
	[INET_DIAG_BBRINFO] = inet_bbrinfo,
	[INET_DIAG_CLASS_ID] = nla_u32,
	[INET_DIAG_MD5SIG] = inet_md5sig,
	[INET_DIAG_ULP_INFO] = inet_ulp_info,
	[INET_DIAG_SK_BPF_STORAGES] = inet_bpf_storages,
	[INET_DIAG_CGROUP_ID] = nla_u64,
	[INET_DIAG_SOCKOPT] = inet_sockopt,
};

static const nla_fn inet_req_bc_fns[] = {
	[INET_DIAG_REQ_BYTECODE] = inet_bytecode,
	[INET_DIAG_REQ_PROTOCOL] = inet_protocol_u32,
};

static void inet_req_v2(const struct nlctx *n, struct vlist *l, uint8_t family, uint64_t off,
			unsigned len)
{
	struct inet_diag_req_v2 r = { .sdiag_family = family };
	struct vlist f = { 0 };

	if (!nl_fixed_head(n, l, off, len, sizeof(r), &r, "sdiag_family", &f))
		return;
	val_set_enum(vl_add(n->c, &f), "sdiag_protocol", r.sdiag_protocol, inet_protocols);
	val_set_flags(vl_add(n->c, &f), "idiag_ext", r.idiag_ext, inet_diag_extended_flags,
		      NULL);
	val_set_flags(vl_add(n->c, &f), "idiag_states", r.idiag_states, tcp_state_flags, NULL);
	sockid_val(n->c, vl_add(n->c, &f), "id", family, &r.id);
	val_set_struct(vl_add(n->c, l), NULL, f.it, f.n, false);
	tail_attrs(n, l, off, len, sizeof(r), inet_diag_req_attrs, inet_req_bc_fns,
		   ARRAY_SIZE(inet_req_bc_fns), NULL);
}

/* The old request of TCPDIAG_GETSOCK and DCCPDIAG_GETSOCK. */
static void inet_req_v1(const struct nlctx *n, struct vlist *l, uint8_t family, uint64_t off,
			unsigned len)
{
	struct inet_diag_req r = { .idiag_family = family };
	struct vlist f = { 0 };

	if (!nl_fixed_head(n, l, off, len, sizeof(r), &r, "idiag_family", &f))
		return;
	val_set_uint(vl_add(n->c, &f), "idiag_src_len", r.idiag_src_len);
	val_set_uint(vl_add(n->c, &f), "idiag_dst_len", r.idiag_dst_len);
	val_set_flags(vl_add(n->c, &f), "idiag_ext", r.idiag_ext, inet_diag_extended_flags,
		      NULL);
	sockid_val(n->c, vl_add(n->c, &f), "id", family, &r.id);
	val_set_flags(vl_add(n->c, &f), "idiag_states", r.idiag_states, tcp_state_flags, NULL);
	val_set_uint(vl_add(n->c, &f), "idiag_dbs", r.idiag_dbs);
	val_set_struct(vl_add(n->c, l), NULL, f.it, f.n, false);
	tail_attrs(n, l, off, len, sizeof(r), inet_diag_req_attrs, inet_req_bc_fns,
		   ARRAY_SIZE(inet_req_bc_fns), NULL);
}

static void inet_msg(const struct nlctx *n, struct vlist *l, uint8_t family, uint64_t off,
		     unsigned len)
{
	struct inet_diag_msg m = { .idiag_family = family };
	struct vlist f = { 0 };

	if (!nl_fixed_head(n, l, off, len, sizeof(m), &m, "idiag_family", &f))
		return;
	val_set_enum(vl_add(n->c, &f), "idiag_state", m.idiag_state, tcp_states);
	val_set_uint(vl_add(n->c, &f), "idiag_timer", m.idiag_timer);
	val_set_uint(vl_add(n->c, &f), "idiag_retrans", m.idiag_retrans);
	sockid_val(n->c, vl_add(n->c, &f), "id", family, &m.id);
	val_set_uint(vl_add(n->c, &f), "idiag_expires", m.idiag_expires);
	val_set_uint(vl_add(n->c, &f), "idiag_rqueue", m.idiag_rqueue);
	val_set_uint(vl_add(n->c, &f), "idiag_wqueue", m.idiag_wqueue);
	val_set_uint(vl_add(n->c, &f), "idiag_uid", m.idiag_uid);
	val_set_uint(vl_add(n->c, &f), "idiag_inode", m.idiag_inode);
	val_set_struct(vl_add(n->c, l), NULL, f.it, f.n, false);
	tail_attrs(n, l, off, len, sizeof(m), inet_diag_attrs, inet_msg_fns,
		   ARRAY_SIZE(inet_msg_fns), NULL);
}

/* ---- unix_diag ------------------------------------------------------------ */

static bool unix_vfs(const struct nlctx *n, struct val *v, uint64_t off, unsigned len,
		     const void *o)
{
	struct unix_diag_vfs vfs;
	struct val *f, num;
	char buf[64];

	if (len < sizeof(vfs))
		return false;
	if (!nl_fetch(n, off, &vfs, sizeof(vfs))) {
		nl_addr(n, v, NULL, off);
		return true;
	}
	f = val_new_array(n->c, 2);
	snprintf(buf, sizeof(buf), "makedev(%#x, %#x)", major(vfs.udiag_vfs_dev),
		 minor(vfs.udiag_vfs_dev));
	val_set_hex(&num, NULL, vfs.udiag_vfs_dev);
	val_set_num_text(n->c, &f[0], "udiag_vfs_dev", &num, buf);
	val_set_uint(&f[1], "udiag_vfs_ino", vfs.udiag_vfs_ino);
	val_set_struct(v, NULL, f, 2, false);
	return true;
}

/* UNIX_DIAG_ICONS: the inodes of the pending connections. */
static bool unix_icons(const struct nlctx *n, struct val *v, uint64_t off, unsigned len,
		       const void *o)
{
	unsigned count = len / 4, shown;
	struct val *it;
	uint32_t x;

	if (!count)
		return false;
	shown = (unsigned)decode_elem_limit(n->c, count);
	it = val_new_array(n->c, shown);
	for (unsigned i = 0; i < shown; i++) {
		if (!nl_fetch(n, off + 4 * i, &x, sizeof(x))) {
			nl_more_at(n, &it[i], off + 4 * i);
			val_set_array(v, NULL, it, i + 1, false);
			return true;
		}
		val_set_uint(&it[i], NULL, x);
	}
	val_set_array(v, NULL, it, shown, shown < count);
	return true;
}

static bool unix_rqlen(const struct nlctx *n, struct val *v, uint64_t off, unsigned len,
		       const void *o)
{
	static const char *const names[] = { "udiag_rqueue", "udiag_wqueue" };

	return u32_struct(n, v, off, len, 2, names, NULL);
}

static const nla_fn unix_fns[] = {
	[UNIX_DIAG_NAME] = nla_str,
	[UNIX_DIAG_VFS] = unix_vfs,
	[UNIX_DIAG_PEER] = nla_u32,
	[UNIX_DIAG_ICONS] = unix_icons,
	[UNIX_DIAG_RQLEN] = unix_rqlen,
	[UNIX_DIAG_MEMINFO] = meminfo_attr,
	[UNIX_DIAG_SHUTDOWN] = nla_u8,
	[UNIX_DIAG_UID] = nla_u32,
};

static void unix_req(const struct nlctx *n, struct vlist *l, uint8_t family, uint64_t off,
		     unsigned len)
{
	struct unix_diag_req r = { .sdiag_family = family };
	struct vlist f = { 0 };

	if (!nl_fixed_head(n, l, off, len, sizeof(r), &r, "sdiag_family", &f))
		return;
	val_set_uint(vl_add(n->c, &f), "sdiag_protocol", r.sdiag_protocol);
	val_set_flags(vl_add(n->c, &f), "udiag_states", r.udiag_states, tcp_state_flags, NULL);
	val_set_uint(vl_add(n->c, &f), "udiag_ino", r.udiag_ino);
	val_set_flags(vl_add(n->c, &f), "udiag_show", r.udiag_show, unix_diag_show, NULL);
	cookie_val(n->c, vl_add(n->c, &f), "udiag_cookie", r.udiag_cookie);
	val_set_struct(vl_add(n->c, l), NULL, f.it, f.n, false);
	}

static void unix_msg(const struct nlctx *n, struct vlist *l, uint8_t family, uint64_t off,
		     unsigned len)
{
	struct unix_diag_msg m = { .udiag_family = family };
	struct vlist f = { 0 };

	if (!nl_fixed_head(n, l, off, len, sizeof(m), &m, "udiag_family", &f))
		return;
	val_set_enum(vl_add(n->c, &f), "udiag_type", m.udiag_type, diag_socktypes);
	val_set_enum(vl_add(n->c, &f), "udiag_state", m.udiag_state, tcp_states);
	val_set_uint(vl_add(n->c, &f), "udiag_ino", m.udiag_ino);
	cookie_val(n->c, vl_add(n->c, &f), "udiag_cookie", m.udiag_cookie);
	val_set_struct(vl_add(n->c, l), NULL, f.it, f.n, false);
	tail_attrs(n, l, off, len, sizeof(m), unix_diag_attrs, unix_fns, ARRAY_SIZE(unix_fns),
		   NULL);
}

/* ---- netlink_diag --------------------------------------------------------- */

/* NETLINK_DIAG_GROUPS: an array of unsigned long in hex, zero-padded. */
static bool netlink_groups(const struct nlctx *n, struct val *v, uint64_t off, unsigned len,
			   const void *o)
{
	unsigned count = len / 8, shown;
	struct val *it;
	uint64_t x;

	if (!count)
		return false;
	shown = (unsigned)decode_elem_limit(n->c, count);
	it = val_new_array(n->c, shown);
	for (unsigned i = 0; i < shown; i++) {
		char buf[24];

		if (!nl_fetch(n, off + 8 * i, &x, sizeof(x))) {
			nl_more_at(n, &it[i], off + 8 * i);
			val_set_array(v, NULL, it, i + 1, false);
			return true;
		}
		snprintf(buf, sizeof(buf), "%#0*llx", 16, (unsigned long long)x);
		val_set_text(n->c, &it[i], NULL, buf);
	}
	val_set_array(v, NULL, it, shown, shown < count);
	return true;
}

static bool netlink_ring(const struct nlctx *n, struct val *v, uint64_t off, unsigned len,
			 const void *o)
{
	static const char *const names[] = { "ndr_block_size", "ndr_block_nr",
					     "ndr_frame_size", "ndr_frame_nr" };

	return u32_struct(n, v, off, len, 4, names, NULL);
}

static bool netlink_flags_attr(const struct nlctx *n, struct val *v, uint64_t off,
			       unsigned len, const void *o)
{
	return nla_xval(n, v, off, len, 4, netlink_socket_flags, true);
}

static const nla_fn netlink_fns[] = {
	[NETLINK_DIAG_MEMINFO] = meminfo_attr,
	[NETLINK_DIAG_GROUPS] = netlink_groups,
	[NETLINK_DIAG_RX_RING] = netlink_ring,
	[NETLINK_DIAG_TX_RING] = netlink_ring,
	[NETLINK_DIAG_FLAGS] = netlink_flags_attr,
};

static void netlink_req(const struct nlctx *n, struct vlist *l, uint8_t family, uint64_t off,
			unsigned len)
{
	struct netlink_diag_req r = { .sdiag_family = family };
	struct vlist f = { 0 };
	struct val *p;

	if (!nl_fixed_head(n, l, off, len, sizeof(r), &r, "sdiag_family", &f))
		return;
	p = vl_add(n->c, &f);
	if (r.sdiag_protocol == NDIAG_PROTO_ALL)
		val_set_named_num(n->c, p, "sdiag_protocol", r.sdiag_protocol,
				  "NDIAG_PROTO_ALL");
	else
		val_set_enum(p, "sdiag_protocol", r.sdiag_protocol, netlink_protocols);
	val_set_uint(vl_add(n->c, &f), "ndiag_ino", r.ndiag_ino);
	val_set_flags(vl_add(n->c, &f), "ndiag_show", r.ndiag_show, netlink_diag_show, NULL);
	cookie_val(n->c, vl_add(n->c, &f), "ndiag_cookie", r.ndiag_cookie);
	val_set_struct(vl_add(n->c, l), NULL, f.it, f.n, false);
	}

static void netlink_msg(const struct nlctx *n, struct vlist *l, uint8_t family, uint64_t off,
			unsigned len)
{
	struct netlink_diag_msg m = { .ndiag_family = family };
	struct vlist f = { 0 };

	if (!nl_fixed_head(n, l, off, len, sizeof(m), &m, "ndiag_family", &f))
		return;
	val_set_enum(vl_add(n->c, &f), "ndiag_type", m.ndiag_type, diag_socktypes);
	val_set_enum(vl_add(n->c, &f), "ndiag_protocol", m.ndiag_protocol, netlink_protocols);
	val_set_enum(vl_add(n->c, &f), "ndiag_state", m.ndiag_state, netlink_states);
	val_set_uint(vl_add(n->c, &f), "ndiag_portid", m.ndiag_portid);
	val_set_uint(vl_add(n->c, &f), "ndiag_dst_portid", m.ndiag_dst_portid);
	val_set_uint(vl_add(n->c, &f), "ndiag_dst_group", m.ndiag_dst_group);
	val_set_uint(vl_add(n->c, &f), "ndiag_ino", m.ndiag_ino);
	cookie_val(n->c, vl_add(n->c, &f), "ndiag_cookie", m.ndiag_cookie);
	val_set_struct(vl_add(n->c, l), NULL, f.it, f.n, false);
	tail_attrs(n, l, off, len, sizeof(m), netlink_diag_attrs, netlink_fns,
		   ARRAY_SIZE(netlink_fns), NULL);
}

/* ---- packet_diag ---------------------------------------------------------- */

static bool packet_info(const struct nlctx *n, struct val *v, uint64_t off, unsigned len,
			const void *o)
{
	struct packet_diag_info pi;
	struct val *f;

	if (len < sizeof(pi))
		return false;
	if (!nl_fetch(n, off, &pi, sizeof(pi))) {
		nl_addr(n, v, NULL, off);
		return true;
	}
	f = val_new_array(n->c, 6);
	net_ifindex_val(n->c, &f[0], "pdi_index", pi.pdi_index);
	val_set_enum(&f[1], "pdi_version", pi.pdi_version, af_packet_versions);
	val_set_uint(&f[2], "pdi_reserve", pi.pdi_reserve);
	val_set_uint(&f[3], "pdi_copy_thresh", pi.pdi_copy_thresh);
	val_set_uint(&f[4], "pdi_tstamp", pi.pdi_tstamp);
	val_set_flags(&f[5], "pdi_flags", pi.pdi_flags, packet_diag_info_flags, NULL);
	val_set_struct(v, NULL, f, 6, false);
	return true;
}

/* PACKET_DIAG_MCLIST: an array of packet_diag_mclist. */
static bool packet_mclist(const struct nlctx *n, struct val *v, uint64_t off, unsigned len,
			  const void *o)
{
	const unsigned size = sizeof(struct packet_diag_mclist);
	unsigned count = len / size, shown;
	struct val *it;

	if (!count)
		return false;
	shown = (unsigned)decode_elem_limit(n->c, count);
	it = val_new_array(n->c, shown);
	for (unsigned i = 0; i < shown; i++) {
		struct packet_diag_mclist mc;
		struct val *f;
		unsigned alen;

		if (!nl_fetch(n, off + (uint64_t)size * i, &mc, size)) {
			nl_more_at(n, &it[i], off + (uint64_t)size * i);
			val_set_array(v, NULL, it, i + 1, false);
			return true;
		}
		f = val_new_array(n->c, 5);
		net_ifindex_val(n->c, &f[0], "pdmc_index", mc.pdmc_index);
		val_set_uint(&f[1], "pdmc_count", mc.pdmc_count);
		val_set_uint(&f[2], "pdmc_type", mc.pdmc_type);
		val_set_uint(&f[3], "pdmc_alen", mc.pdmc_alen);
		/* all alen bytes, whatever the string limit */
		alen = mc.pdmc_alen < sizeof(mc.pdmc_addr) ? mc.pdmc_alen : sizeof(mc.pdmc_addr);
		val_set_str(n->c, &f[4], "pdmc_addr", (const char *)mc.pdmc_addr, alen, false);
		f[4].flags |= VF_HEXSTR;
		val_set_struct(&it[i], NULL, f, 5, false);
	}
	val_set_array(v, NULL, it, shown, shown < count);
	return true;
}

static bool packet_ring(const struct nlctx *n, struct val *v, uint64_t off, unsigned len,
			const void *o)
{
	static const char *const names[] = { "pdr_block_size", "pdr_block_nr",
					     "pdr_frame_size", "pdr_frame_nr",
					     "pdr_retire_tmo", "pdr_sizeof_priv",
					     "pdr_features" };

	return u32_struct(n, v, off, len, 7, names, NULL);
}

/* PACKET_DIAG_FILTER: the socket filter's instructions (with -v), else
 * their address. */
static bool packet_filter(const struct nlctx *n, struct val *v, uint64_t off, unsigned len,
			  const void *o)
{
	unsigned count = len / sizeof(struct sock_filter);

	if (!count || count > 0xffff)
		return false;
	decode_bpf_insns(n->c, v, NULL, n->addr + off, count, BPF_PROG_SOCKET);
	return true;
}

static const nla_fn packet_fns[] = {
	[PACKET_DIAG_INFO] = packet_info,
	[PACKET_DIAG_MCLIST] = packet_mclist,
	[PACKET_DIAG_RX_RING] = packet_ring,
	[PACKET_DIAG_TX_RING] = packet_ring,
	[PACKET_DIAG_FANOUT] = nla_u32,
	[PACKET_DIAG_UID] = nla_u32,
	[PACKET_DIAG_MEMINFO] = meminfo_attr,
	[PACKET_DIAG_FILTER] = packet_filter,
};

static void packet_req(const struct nlctx *n, struct vlist *l, uint8_t family, uint64_t off,
		       unsigned len)
{
	struct packet_diag_req r = { .sdiag_family = family };
	struct vlist f = { 0 };

	if (!nl_fixed_head(n, l, off, len, sizeof(r), &r, "sdiag_family", &f))
		return;
	val_set_hex(vl_add(n->c, &f), "sdiag_protocol", r.sdiag_protocol);
	val_set_uint(vl_add(n->c, &f), "pdiag_ino", r.pdiag_ino);
	val_set_flags(vl_add(n->c, &f), "pdiag_show", r.pdiag_show, packet_diag_show, NULL);
	cookie_val(n->c, vl_add(n->c, &f), "pdiag_cookie", r.pdiag_cookie);
	val_set_struct(vl_add(n->c, l), NULL, f.it, f.n, false);
	}

static void packet_msg(const struct nlctx *n, struct vlist *l, uint8_t family, uint64_t off,
		       unsigned len)
{
	struct packet_diag_msg m = { .pdiag_family = family };
	struct vlist f = { 0 };

	if (!nl_fixed_head(n, l, off, len, sizeof(m), &m, "pdiag_family", &f))
		return;
	val_set_enum(vl_add(n->c, &f), "pdiag_type", m.pdiag_type, diag_socktypes);
	val_set_enum(vl_add(n->c, &f), "pdiag_num", m.pdiag_num, ethernet_protocols);
	val_set_uint(vl_add(n->c, &f), "pdiag_ino", m.pdiag_ino);
	cookie_val(n->c, vl_add(n->c, &f), "pdiag_cookie", m.pdiag_cookie);
	val_set_struct(vl_add(n->c, l), NULL, f.it, f.n, false);
	tail_attrs(n, l, off, len, sizeof(m), packet_diag_attrs, packet_fns,
		   ARRAY_SIZE(packet_fns), NULL);
}

/* ---- smc_diag ------------------------------------------------------------- */

/* strace's PRINT_FIELD_0X of a byte: "%#04x"-like, 0 as "00" */
static void byte0x_val(struct dctx *c, struct val *v, const char *name, uint8_t x)
{
	char buf[8];

	snprintf(buf, sizeof(buf), "%#0*x", 2, x);
	val_set_text(c, v, name, buf);
}

static void smc_cursor_val(struct dctx *c, struct val *v, const char *name,
			   const struct smc_diag_cursor *cur)
{
	struct val *f = val_new_array(c, 3);

	val_set_uint(&f[0], "reserved", cur->reserved);
	val_set_uint(&f[1], "wrap", cur->wrap);
	val_set_uint(&f[2], "count", cur->count);
	val_set_struct(v, name, f, 3, false);
}

static bool smc_conninfo(const struct nlctx *n, struct val *v, uint64_t off, unsigned len,
			 const void *o)
{
	struct smc_diag_conninfo ci;
	struct val *f;

	if (len < sizeof(ci))
		return false;
	if (!nl_fetch(n, off, &ci, sizeof(ci))) {
		nl_addr(n, v, NULL, off);
		return true;
	}
	f = val_new_array(n->c, 15);
	val_set_uint(&f[0], "token", ci.token);
	val_set_uint(&f[1], "sndbuf_size", ci.sndbuf_size);
	val_set_uint(&f[2], "rmbe_size", ci.rmbe_size);
	val_set_uint(&f[3], "peer_rmbe_size", ci.peer_rmbe_size);
	smc_cursor_val(n->c, &f[4], "rx_prod", &ci.rx_prod);
	smc_cursor_val(n->c, &f[5], "rx_cons", &ci.rx_cons);
	smc_cursor_val(n->c, &f[6], "tx_prod", &ci.tx_prod);
	smc_cursor_val(n->c, &f[7], "tx_cons", &ci.tx_cons);
	byte0x_val(n->c, &f[8], "rx_prod_flags", ci.rx_prod_flags);
	byte0x_val(n->c, &f[9], "rx_conn_state_flags", ci.rx_conn_state_flags);
	byte0x_val(n->c, &f[10], "tx_prod_flags", ci.tx_prod_flags);
	byte0x_val(n->c, &f[11], "tx_conn_state_flags", ci.tx_conn_state_flags);
	smc_cursor_val(n->c, &f[12], "tx_prep", &ci.tx_prep);
	smc_cursor_val(n->c, &f[13], "tx_sent", &ci.tx_sent);
	smc_cursor_val(n->c, &f[14], "tx_fin", &ci.tx_fin);
	val_set_struct(v, NULL, f, 15, false);
	return true;
}

/* A NUL-terminated string in a fixed array of a structure. */
static void fixed_str(struct dctx *c, struct val *v, const char *name, const uint8_t *p,
		      size_t size)
{
	size_t len = strnlen((const char *)p, size);

	val_set_str(c, v, name, (const char *)p, len, len == size);
}

static bool smc_lgrinfo(const struct nlctx *n, struct val *v, uint64_t off, unsigned len,
			const void *o)
{
	struct smc_diag_lgrinfo lgr;
	const struct smc_diag_linkinfo *lk = &lgr.lnk[0];
	struct val *f, *lf, *arr;

	if (len < sizeof(lgr))
		return false;
	if (!nl_fetch(n, off, &lgr, sizeof(lgr))) {
		nl_addr(n, v, NULL, off);
		return true;
	}
	lf = val_new_array(n->c, 5);
	val_set_uint(&lf[0], "link_id", lk->link_id);
	fixed_str(n->c, &lf[1], "ibname", lk->ibname, sizeof(lk->ibname));
	val_set_uint(&lf[2], "ibport", lk->ibport);
	fixed_str(n->c, &lf[3], "gid", lk->gid, sizeof(lk->gid));
	fixed_str(n->c, &lf[4], "peer_gid", lk->peer_gid, sizeof(lk->peer_gid));
	arr = val_new_array(n->c, 1);
	val_set_struct(arr, NULL, lf, 5, false);
	f = val_new_array(n->c, 2);
	val_set_array(&f[0], "lnk", arr, 1, false);
	val_set_enum(&f[1], "role", lgr.role, smc_link_group_roles);
	val_set_struct(v, NULL, f, 2, false);
	return true;
}

NLA_XVAL_FN(smc_shutdown, 1, sock_shutdown_flags, true)

/* A decline code as strace shows it in every -X style but raw:
 * 0x3010000 / * SMC_CLC_DECL_PEERNOSMC * / */
static void decl_code_val(struct dctx *c, struct val *v, const char *name, uint32_t x)
{
	const char *t = xlat_name(smc_decl_codes, x);
	struct val forms[3], num, text;

	val_set_hex(&num, NULL, x);
	val_set_text(c, &text, NULL, t ? t : "SMC_CLC_DECL_???");
	val_set_verbose_form(c, &forms[0], &num, &text);
	forms[1] = num;
	forms[2] = forms[0];
	val_set_xforms(c, v, name, &forms[0], &forms[1], &forms[2]);
}

static bool smc_fallback(const struct nlctx *n, struct val *v, uint64_t off, unsigned len,
			 const void *o)
{
	struct smc_diag_fallback fb;
	struct val *f;

	if (len < sizeof(fb))
		return false;
	if (!nl_fetch(n, off, &fb, sizeof(fb))) {
		nl_addr(n, v, NULL, off);
		return true;
	}
	f = val_new_array(n->c, 2);
	decl_code_val(n->c, &f[0], "reason", fb.reason);
	decl_code_val(n->c, &f[1], "peer_diagnosis", fb.peer_diagnosis);
	val_set_struct(v, NULL, f, 2, false);
	return true;
}

static bool smc_dmbinfo(const struct nlctx *n, struct val *v, uint64_t off, unsigned len,
			const void *o)
{
	struct smcd_diag_dmbinfo d;
	struct val *f;

	if (len < sizeof(d))
		return false;
	if (!nl_fetch(n, off, &d, sizeof(d))) {
		nl_addr(n, v, NULL, off);
		return true;
	}
	f = val_new_array(n->c, 5);
	val_set_uint(&f[0], "linkid", d.linkid);
	val_set_hex(&f[1], "peer_gid", d.peer_gid);
	val_set_hex(&f[2], "my_gid", d.my_gid);
	val_set_hex(&f[3], "token", d.token);
	val_set_hex(&f[4], "peer_token", d.peer_token);
	val_set_struct(v, NULL, f, 5, false);
	return true;
}

static const nla_fn smc_fns[] = {
	[SMC_DIAG_CONNINFO] = smc_conninfo,
	[SMC_DIAG_LGRINFO] = smc_lgrinfo,
	[SMC_DIAG_SHUTDOWN] = smc_shutdown,
	[SMC_DIAG_DMBINFO] = smc_dmbinfo,
	[SMC_DIAG_FALLBACK] = smc_fallback,
};

static void smc_req(const struct nlctx *n, struct vlist *l, uint8_t family, uint64_t off,
		    unsigned len)
{
	struct smc_diag_req r = { .diag_family = family };
	struct vlist f = { 0 };

	if (!nl_fixed_head(n, l, off, len, sizeof(r), &r, "diag_family", &f))
		return;
	val_set_flags(vl_add(n->c, &f), "diag_ext", r.diag_ext, smc_diag_extended_flags, NULL);
	sockid_val(n->c, vl_add(n->c, &f), "id", AF_INET, &r.id);
	val_set_struct(vl_add(n->c, l), NULL, f.it, f.n, false);
}

static void smc_msg(const struct nlctx *n, struct vlist *l, uint8_t family, uint64_t off,
		    unsigned len)
{
	struct smc_diag_msg m = { .diag_family = family };
	struct vlist f = { 0 };

	if (!nl_fixed_head(n, l, off, len, sizeof(m), &m, "diag_family", &f))
		return;
	val_set_enum(vl_add(n->c, &f), "diag_state", m.diag_state, smc_states);
	val_set_enum(vl_add(n->c, &f), "diag_fallback", m.diag_mode, smc_diag_modes);
	val_set_uint(vl_add(n->c, &f), "diag_shutdown", m.diag_shutdown);
	sockid_val(n->c, vl_add(n->c, &f), "id", AF_INET, &m.id);
	val_set_uint(vl_add(n->c, &f), "diag_uid", m.diag_uid);
	val_set_uint(vl_add(n->c, &f), "diag_inode", m.diag_inode);
	val_set_struct(vl_add(n->c, l), NULL, f.it, f.n, false);
	tail_attrs(n, l, off, len, sizeof(m), smc_diag_attrs, smc_fns, ARRAY_SIZE(smc_fns), NULL);
}

/* ---- dispatch ------------------------------------------------------------- */

/* {family=AF_..., data="..."}: a family without a decoder. */
static void family_data(const struct nlctx *n, struct vlist *l, uint8_t family, uint64_t off,
			unsigned len)
{
	struct val *f = val_new_array(n->c, 2);
	unsigned k = 0;

	val_set_enum(&f[k++], "family", family, addrfams);
	if (len > 1)
		nl_hexstr(n, &f[k++], "data", off + 1, len - 1);
	val_set_struct(vl_add(n->c, l), NULL, f, k, false);
}

typedef void (*diag_fn)(const struct nlctx *n, struct vlist *l, uint8_t family, uint64_t off,
			unsigned len);

bool nl_decode_sock_diag(const struct nlctx *n, struct vlist *l, const struct nlmsghdr *hdr,
			 uint64_t off, unsigned len)
{
	bool req = hdr->nlmsg_flags & NLM_F_REQUEST;
	uint8_t family;
	diag_fn fn = family_data;

	if (hdr->nlmsg_type == NLMSG_DONE)
		return false;
	if (!nl_fetch(n, off, &family, 1)) {
		nl_addr(n, vl_add(n->c, l), NULL, off);
		return true;
	}
	switch (family) {
	case AF_UNIX:
		fn = req ? unix_req : unix_msg;
		break;
	case AF_INET:
	case AF_INET6:
		if (!req)
			fn = inet_msg;
		else if (hdr->nlmsg_type == TCPDIAG_GETSOCK || hdr->nlmsg_type == DCCPDIAG_GETSOCK)
			fn = inet_req_v1;
		else
			fn = inet_req_v2;
		break;
	case AF_NETLINK:
		fn = req ? netlink_req : netlink_msg;
		break;
	case AF_PACKET:
		fn = req ? packet_req : packet_msg;
		break;
	case AF_SMC:
		fn = req ? smc_req : smc_msg;
		break;
	}
	fn(n, l, family, off, len);
	return true;
}
