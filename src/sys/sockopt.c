/*
 * getsockopt/setsockopt as strace 6.1 prints them: the level and the
 * option by name, the value by option (SOL_SOCKET ints, linger, ucred,
 * error, SO_TXREHASH, socket filters; IP/IPv6 multicast requests; packet
 * rings, memberships and statistics; the raw ICMP filter; netlink group
 * lists), the length as [ulen => rlen].  Partial structures returned by
 * getsockopt show the fields they cover and the rest of a cut field in hex.
 */
#include "sys/decode.h"

#include <linux/filter.h>
#include <linux/icmp.h>
#include <linux/if_packet.h>
#include <linux/netlink.h>
#include <netinet/in.h>
#include <stddef.h>
#include <string.h>
#include <sys/socket.h>

#include "sys/decode_extra.h"
#include "sys/net.h"
#include "sys/pidns.h"
#include "xlat/getsock_options.h"
#include "xlat/icmp_filter_flags.h"
#include "xlat/packet_mreq_type.h"
#include "xlat/setsock_options.h"
#include "xlat/sock_ax25_options.h"
#include "xlat/sock_bluetooth_options.h"
#include "xlat/sock_caif_options.h"
#include "xlat/sock_can_raw_options.h"
#include "xlat/sock_dccp_options.h"
#include "xlat/sock_ip_get_options.h"
#include "xlat/sock_ip_set_options.h"
#include "xlat/sock_ipv6_get_options.h"
#include "xlat/sock_ipv6_set_options.h"
#include "xlat/sock_ipx_options.h"
#include "xlat/sock_irda_options.h"
#include "xlat/sock_iucv_options.h"
#include "xlat/sock_kcm_options.h"
#include "xlat/sock_llc_options.h"
#include "xlat/sock_nfc_options.h"
#include "xlat/sock_pnp_options.h"
#include "xlat/sock_pppol2tp_options.h"
#include "xlat/sock_rds_options.h"
#include "xlat/sock_rxrpc_options.h"
#include "xlat/sock_sctp_options.h"
#include "xlat/sock_tipc_options.h"
#include "xlat/sock_alg_options.h"
#include "xlat/sock_ip_options.h"
#include "xlat/sock_ipv6_options.h"
#include "xlat/sock_netlink_options.h"
#include "xlat/sock_options.h"
#include "xlat/sock_packet_options.h"
#include "xlat/sock_raw_options.h"
#include "xlat/sock_tcp_options.h"
#include "xlat/sock_tls_options.h"
#include "xlat/sock_udp_options.h"
#include "xlat/sock_vsock_options.h"
#include "xlat/sock_xdp_options.h"
#include "xlat/sockopt_txrehash_vals.h"
#include "xlat/socketlayers.h"
#include "util/banned.h"

#ifndef SO_TXREHASH
# define SO_TXREHASH 74
#endif
#ifndef SO_RCVMARK
# define SO_RCVMARK 75
#endif
#ifndef SOL_TLS
# define SOL_TLS 282
#endif
#ifndef SOL_XDP
# define SOL_XDP 283
#endif
#ifndef SOL_ALG
# define SOL_ALG 279
#endif
#define AF_VSOCK_LEVEL 40   /* AF_VSOCK: vsock uses its family as the level */

/* The option name table of a level (strace's print_sockopt_fd_level_name). */
static const struct xlat *level_names(uint32_t level, uint32_t name, bool get)
{
	switch (level) {
	case SOL_SOCKET:
		if (name == 26)   /* SO_GET_FILTER / SO_ATTACH_FILTER */
			return get ? getsock_options : setsock_options;
		return sock_options;
	case SOL_IP: return sock_ip_options;
	case SOL_IPV6: return sock_ipv6_options;
	case 6: return sock_tcp_options;     /* SOL_TCP */
	case 17: return sock_udp_options;    /* SOL_UDP */
	case SOL_PACKET: return sock_packet_options;
	case SOL_RAW: return sock_raw_options;
	case SOL_NETLINK: return sock_netlink_options;
	case SOL_TLS: return sock_tls_options;
	case SOL_XDP: return sock_xdp_options;
	case SOL_ALG: return sock_alg_options;
	case AF_VSOCK_LEVEL: return sock_vsock_options;
	case 101: return sock_can_raw_options;     /* SOL_CAN_RAW */
	case 132: return sock_sctp_options;        /* SOL_SCTP */
	case 256: return sock_ipx_options;         /* SOL_IPX */
	case 257: return sock_ax25_options;        /* SOL_AX25 */
	case 266: return sock_irda_options;        /* SOL_IRDA */
	case 268: return sock_llc_options;         /* SOL_LLC */
	case 269: return sock_dccp_options;        /* SOL_DCCP */
	case 271: return sock_tipc_options;        /* SOL_TIPC */
	case 272: return sock_rxrpc_options;       /* SOL_RXRPC */
	case 273: return sock_pppol2tp_options;    /* SOL_PPPOL2TP */
	case 274: return sock_bluetooth_options;   /* SOL_BLUETOOTH */
	case 275: return sock_pnp_options;         /* SOL_PNPIPE */
	case 276: return sock_rds_options;         /* SOL_RDS */
	case 277: return sock_iucv_options;        /* SOL_IUCV */
	case 278: return sock_caif_options;        /* SOL_CAIF */
	case 280: return sock_nfc_options;         /* SOL_NFC */
	case 281: return sock_kcm_options;         /* SOL_KCM */
	default: return NULL;
	}
}

/* The x_tables, arptables and ebtables options of SOL_IP and SOL_IPV6,
 * which differ between getsockopt and setsockopt, or NULL. */
static const struct xlat *level_names_dir(uint32_t level, bool get)
{
	switch (level) {
	case SOL_IP: return get ? sock_ip_get_options : sock_ip_set_options;
	case SOL_IPV6: return get ? sock_ipv6_get_options : sock_ipv6_set_options;
	default: return NULL;
	}
}

static void arg_level_name(struct dctx *c, struct event *ev, bool get)
{
	uint32_t level = (uint32_t)ev->karg[1], name = (uint32_t)ev->karg[2];
	const struct xlat *xl = level_names(level, name, get);
	const struct xlat *dir = level_names_dir(level, get);
	struct val *v;

	arg_fd(c, ev, 0);
	arg_enum(c, ev, 1, socketlayers);
	ev->args[1].x.v = level;
	v = arg_slot(c, ev, 2);
	if (dir && xlat_name(dir, name))
		val_set_enum(v, v->name, name, dir);
	else if (xl)
		val_set_enum(v, v->name, name, xl);
	else
		val_set_uint(v, v->name, name);
}

/* SOL_SOCKET options whose value is an int (strace's "int-like" list). */
static bool int_like(uint32_t opt)
{
	static const uint8_t ints[] = {
		1, 2, 5, 6, 7, 8, 9, 10, 11, 12, 14, 15, 16, 18, 19, 27, 29, 30,
		32, 33, 34, 35, 36, 37, 40, 41, 42, 43, 44, 45, 46, 49, 53, 56,
		60, 63, 64, 65, 68, 69, 70, 73, 75,
	};

	for (size_t i = 0; i < sizeof(ints); i++)
		if (ints[i] == opt)
			return true;
	return false;
}

/* strace's printstr_ex(addr, len, QUOTE_FORCE_HEX) */
static void hexbuf(struct dctx *c, struct val *v, const char *name, uint64_t addr, int len)
{
	val_read_buf(c, v, name, addr, (uint64_t)(int64_t)len);
	if (v->kind == V_STR)
		v->flags |= VF_HEXSTR;
}

/* A structure of which len bytes came back (strace's MAYBE_PRINT_FIELD_LEN):
 * the fields it covers, then the covered part of a cut field in hex. */
struct partial {
	struct dctx *c;
	const uint8_t *buf;
	unsigned len;
	struct val *it;
	unsigned n;
};

static struct val *pfield(struct partial *p, const char *name, unsigned off, unsigned size)
{
	if (p->len <= off)
		return NULL;
	if (p->len < off + size) {
		val_set_str(p->c, &p->it[p->n], name, (const char *)p->buf + off, p->len - off,
			    false);
		p->it[p->n++].flags |= VF_HEXSTR;
		return NULL;
	}
	return &p->it[p->n++];
}

static void get_linger(struct dctx *c, struct val *v, const char *name, uint64_t addr,
		       unsigned len)
{
	struct linger lg;
	struct partial p = { c, (const uint8_t *)&lg, 0, NULL, 0 };
	struct val *f;

	if (len > sizeof(lg))
		len = sizeof(lg);
	if (!tread(c, addr, &lg, len)) {
		val_set_ptr(v, name, addr);
		return;
	}
	p.len = len;
	p.it = val_new_array(c, 2);
	if ((f = pfield(&p, "l_onoff", offsetof(struct linger, l_onoff), 4)))
		val_set_int(f, "l_onoff", lg.l_onoff);
	if ((f = pfield(&p, "l_linger", offsetof(struct linger, l_linger), 4)))
		val_set_int(f, "l_linger", lg.l_linger);
	val_set_struct(v, name, p.it, p.n, false);
}

/* strace's printuid: -1 as "-1", anything else unsigned */
static void id_val(struct val *v, const char *name, uint32_t id)
{
	if (id == UINT32_MAX)
		val_set_int(v, name, -1);
	else
		val_set_uint(v, name, id);
}

static void get_ucred(struct dctx *c, struct val *v, const char *name, uint64_t addr,
		      unsigned len)
{
	struct ucred uc;
	struct partial p = { c, (const uint8_t *)&uc, 0, NULL, 0 };
	struct val *f;

	if (len > sizeof(uc))
		len = sizeof(uc);
	if (!tread(c, addr, &uc, len)) {
		val_set_ptr(v, name, addr);
		return;
	}
	p.len = len;
	p.it = val_new_array(c, 3);
	if ((f = pfield(&p, "pid", offsetof(struct ucred, pid), 4)))
		val_set_pid(c, f, "pid", uc.pid, PT_TGID);
	if ((f = pfield(&p, "uid", offsetof(struct ucred, uid), 4)))
		id_val(f, "uid", uc.uid);
	if ((f = pfield(&p, "gid", offsetof(struct ucred, gid), 4)))
		id_val(f, "gid", uc.gid);
	val_set_struct(v, name, p.it, p.n, false);
}

/* [ECONNREFUSED]: strace's print_err (a name, or the number) */
static void get_error(struct dctx *c, struct val *v, const char *name, uint64_t addr,
		      unsigned len)
{
	uint32_t e;
	const char *en;
	struct val t;

	if (len < sizeof(e)) {
		hexbuf(c, v, name, addr, (int)len);
		return;
	}
	if (!tread(c, addr, &e, sizeof(e))) {
		val_set_ptr(v, name, addr);
		return;
	}
	en = errno_name((int)e);
	if (en) {
		val_set_named_num(c, &t, NULL, e, en);
		t.flags |= VF_DECIMAL;
	} else {
		val_set_int(&t, NULL, (int)e);
	}
	val_set_boxed(c, v, name, &t);
}

/* [SOCK_TXREHASH_ENABLED]: a length below an int shows the bytes at exit,
 * the address at entry */
static void txrehash(struct dctx *c, struct val *v, const char *name, uint64_t addr,
		     int len, bool get)
{
	int x;
	struct val t;

	if (len < (int)sizeof(x)) {
		if (get)
			hexbuf(c, v, name, addr, len);
		else
			val_set_ptr(v, name, addr);
		return;
	}
	if (!tread(c, addr, &x, sizeof(x))) {
		val_set_ptr(v, name, addr);
		return;
	}
	val_set_enum(&t, NULL, (uint32_t)x, sockopt_txrehash_vals);
	t.x.v = (uint64_t)(int64_t)x;
	t.flags |= VF_DECIMAL;
	val_set_boxed(c, v, name, &t);
}

static void tpacket_stats(struct dctx *c, struct val *v, const char *name, uint64_t addr,
			  unsigned len)
{
	uint32_t st[3];
	struct partial p = { c, (const uint8_t *)st, 0, NULL, 0 };
	static const char *const names[] = { "tp_packets", "tp_drops", "tp_freeze_q_cnt" };
	struct val *f;

	if (len > sizeof(st))
		len = sizeof(st);
	if (!tread(c, addr, st, len)) {
		val_set_ptr(v, name, addr);
		return;
	}
	p.len = len;
	p.it = val_new_array(c, 3);
	for (unsigned i = 0; i < 3; i++)
		if ((f = pfield(&p, names[i], 4 * i, 4)))
			val_set_uint(f, names[i], st[i]);
	val_set_struct(v, name, p.it, p.n, false);
}

/* ~[ICMP_ECHO]: the ICMP types of the filter (the complement when more
 * than half of the 32 bits are set) */
static void icmp_filter(struct dctx *c, struct val *v, const char *name, uint64_t addr, int len)
{
	uint32_t data = ~0U;
	struct val *items, *parts;
	unsigned n = 0, k = 0;
	bool inv;

	if (len > (int)sizeof(data))
		len = sizeof(data);
	else if (len <= 0) {
		val_set_ptr(v, name, addr);
		return;
	}
	if (!tread(c, addr, &data, (size_t)len)) {
		val_set_ptr(v, name, addr);
		return;
	}
	inv = __builtin_popcount(data) > 16;
	if (inv)
		data = ~data;
	items = val_new_array(c, 32);
	for (unsigned i = 0; i < 32; i++)
		if (data & (1U << i))
			val_set_enum(&items[n++], NULL, i, icmp_filter_flags);
	parts = val_new_array(c, 4);
	if (inv)
		val_set_text(c, &parts[k++], NULL, "~");
	val_set_text(c, &parts[k++], NULL, "[");
	val_set_op(&parts[k++], NULL, items, n, " ");
	val_set_text(c, &parts[k++], NULL, "]");
	val_set_op(v, name, parts, k, NULL);
}

/* [N] of the int at addr (printnum_int), or the address */
static void num_int(struct dctx *c, struct val *v, const char *name, uint64_t addr)
{
	val_read_int_boxed(c, v, name, addr);
}

static void u32_item(struct dctx *c, struct val *item, const void *elem, void *arg)
{
	uint32_t x;

	memcpy(&x, elem, sizeof(x));
	val_set_uint(item, NULL, x);
}

/* The value of getsockopt, rlen bytes of ulen (strace's print_getsockopt). */
static void get_val(struct dctx *c, struct val *v, const char *name, uint32_t level,
		    uint32_t opt, uint64_t addr, int ulen, int rlen)
{
	if (ulen <= 0 || rlen <= 0) {
		val_set_ptr(v, name, addr);
		return;
	}
	if (addr && !c->opts->no_deref) {
		switch (level) {
		case SOL_SOCKET:
			switch (opt) {
			case SO_LINGER:
				get_linger(c, v, name, addr, (unsigned)rlen);
				return;
			case SO_PEERCRED:
				get_ucred(c, v, name, addr, (unsigned)rlen);
				return;
			case 26: /* SO_GET_FILTER */
				if ((unsigned short)rlen == (unsigned)rlen)
					decode_bpf_insns(c, v, name, addr, (unsigned)rlen,
							 BPF_PROG_SOCKET);
				else
					val_set_ptr(v, name, addr);
				return;
			case SO_ERROR:
				get_error(c, v, name, addr, (unsigned)rlen);
				return;
			case SO_TXREHASH:
				txrehash(c, v, name, addr, rlen, true);
				return;
			}
			if (int_like(opt)) {
				if (rlen >= (int)sizeof(int))
					num_int(c, v, name, addr);
				else
					hexbuf(c, v, name, addr, rlen);
				return;
			}
			break;
		case SOL_PACKET:
			if (opt == PACKET_STATISTICS) {
				tpacket_stats(c, v, name, addr, (unsigned)rlen);
				return;
			}
			break;
		case SOL_RAW:
			if (opt == ICMP_FILTER) {
				icmp_filter(c, v, name, addr, rlen);
				return;
			}
			break;
		case SOL_NETLINK:
			if (opt == NETLINK_LIST_MEMBERSHIPS)
				decode_array(c, v, name, addr,
					     (uint64_t)(ulen < rlen ? ulen : rlen) / 4, 4,
					     u32_item, NULL);
			else
				num_int(c, v, name, addr);
			return;
		}
	}
	if (!c->opts->no_deref) {
		if (rlen == (int)sizeof(int))
			num_int(c, v, name, addr);
		else
			val_read_buf(c, v, name, addr, (uint64_t)(int64_t)rlen);
	} else {
		val_set_ptr(v, name, addr);
	}
}

/* {imr_multiaddr=inet_addr("..."), imr_interface=inet_addr("...")} */
static void set_mreq(struct dctx *c, struct val *v, const char *name, uint64_t addr, int len)
{
	struct ip_mreq m;
	struct val *f;

	if (len < (int)sizeof(m) || !tread(c, addr, &m, sizeof(m))) {
		val_set_ptr(v, name, addr);
		return;
	}
	f = val_new_array(c, 2);
	net_inet_addr_val(c, &f[0], "imr_multiaddr", AF_INET, &m.imr_multiaddr);
	net_inet_addr_val(c, &f[1], "imr_interface", AF_INET, &m.imr_interface);
	val_set_struct(v, name, f, 2, false);
}

static void set_mreq6(struct dctx *c, struct val *v, const char *name, uint64_t addr, int len)
{
	struct ipv6_mreq m;
	struct val *f;

	if (len < (int)sizeof(m) || !tread(c, addr, &m, sizeof(m))) {
		val_set_ptr(v, name, addr);
		return;
	}
	f = val_new_array(c, 2);
	net_inet_addr_val(c, &f[0], "ipv6mr_multiaddr", AF_INET6, &m.ipv6mr_multiaddr);
	net_ifindex_val(c, &f[1], "ipv6mr_interface", m.ipv6mr_ifindex);
	val_set_struct(v, name, f, 2, false);
}

/* {gr_interface=if_nametoindex("lo"), gr_group={sa_family=AF_INET, ...}} */
static void set_group_req(struct dctx *c, struct val *v, const char *name, uint64_t addr,
			  int len)
{
	struct group_req g;
	struct val *f;

	if (len < (int)sizeof(g) || !tread(c, addr, &g, sizeof(g))) {
		val_set_ptr(v, name, addr);
		return;
	}
	f = val_new_array(c, 2);
	net_ifindex_val(c, &f[0], "gr_interface", g.gr_interface);
	decode_sockaddr(c, &f[1], "gr_group", addr + offsetof(struct group_req, gr_group),
			sizeof(g.gr_group));
	val_set_struct(v, name, f, 2, false);
}

static void set_tpacket_req(struct dctx *c, struct val *v, const char *name, uint64_t addr,
			    int len)
{
	struct tpacket_req r;
	struct val *f;

	if (len != (int)sizeof(r) || !tread(c, addr, &r, sizeof(r))) {
		val_set_ptr(v, name, addr);
		return;
	}
	f = val_new_array(c, 4);
	val_set_uint(&f[0], "tp_block_size", r.tp_block_size);
	val_set_uint(&f[1], "tp_block_nr", r.tp_block_nr);
	val_set_uint(&f[2], "tp_frame_size", r.tp_frame_size);
	val_set_uint(&f[3], "tp_frame_nr", r.tp_frame_nr);
	val_set_struct(v, name, f, 4, false);
}

static void set_packet_mreq(struct dctx *c, struct val *v, const char *name, uint64_t addr,
			    int len)
{
	struct packet_mreq m;
	struct val *f;

	if (len != (int)sizeof(m) || !tread(c, addr, &m, sizeof(m))) {
		val_set_ptr(v, name, addr);
		return;
	}
	f = val_new_array(c, 4);
	net_ifindex_val(c, &f[0], "mr_ifindex", (unsigned)m.mr_ifindex);
	val_set_enum(&f[1], "mr_type", m.mr_type, packet_mreq_type);
	val_set_uint(&f[2], "mr_alen", m.mr_alen);
	val_set_mac(c, &f[3], "mr_address", m.mr_address,
		    m.mr_alen < sizeof(m.mr_address) ? m.mr_alen : sizeof(m.mr_address));
	val_set_struct(v, name, f, 4, false);
}

/* The value of setsockopt, len bytes (strace's print_setsockopt). */
static void set_val(struct dctx *c, struct val *v, const char *name, uint32_t level,
		    uint32_t opt, uint64_t addr, int len)
{
	if (addr && !c->opts->no_deref) {
		switch (level) {
		case SOL_SOCKET:
			switch (opt) {
			case SO_LINGER: {
				struct linger lg;
				struct val *f;

				if (len < (int)sizeof(lg) || !tread(c, addr, &lg, sizeof(lg))) {
					val_set_ptr(v, name, addr);
					return;
				}
				f = val_new_array(c, 2);
				val_set_int(&f[0], "l_onoff", lg.l_onoff);
				val_set_int(&f[1], "l_linger", lg.l_linger);
				val_set_struct(v, name, f, 2, false);
				return;
			}
			case 26: /* SO_ATTACH_FILTER */
			case SO_ATTACH_REUSEPORT_CBPF:
				if (len == 16)   /* sizeof(struct sock_fprog) */
					decode_bpf_fprog(c, v, name, addr, BPF_PROG_SOCKET);
				else
					val_set_ptr(v, name, addr);
				return;
			case SO_TXREHASH:
				txrehash(c, v, name, addr, len, false);
				return;
			}
			if (int_like(opt)) {
				if (len < (int)sizeof(int))
					val_set_ptr(v, name, addr);
				else
					num_int(c, v, name, addr);
				return;
			}
			break;
		case SOL_IP:
			switch (opt) {
			case IP_ADD_MEMBERSHIP:
			case IP_DROP_MEMBERSHIP:
				set_mreq(c, v, name, addr, len);
				return;
			case MCAST_JOIN_GROUP:
			case MCAST_LEAVE_GROUP:
				set_group_req(c, v, name, addr, len);
				return;
			}
			break;
		case SOL_IPV6:
			switch (opt) {
			case IPV6_ADD_MEMBERSHIP:
			case IPV6_DROP_MEMBERSHIP:
			case IPV6_JOIN_ANYCAST:
			case IPV6_LEAVE_ANYCAST:
				set_mreq6(c, v, name, addr, len);
				return;
			case MCAST_JOIN_GROUP:
			case MCAST_LEAVE_GROUP:
				set_group_req(c, v, name, addr, len);
				return;
			}
			break;
		case SOL_PACKET:
			switch (opt) {
			case PACKET_RX_RING:
			case PACKET_TX_RING:
				set_tpacket_req(c, v, name, addr, len);
				return;
			case PACKET_ADD_MEMBERSHIP:
			case PACKET_DROP_MEMBERSHIP:
				set_packet_mreq(c, v, name, addr, len);
				return;
			}
			break;
		case SOL_RAW:
			if (opt == ICMP_FILTER) {
				icmp_filter(c, v, name, addr, len);
				return;
			}
			break;
		case SOL_NETLINK:
			if (len < (int)sizeof(int))
				val_set_ptr(v, name, addr);
			else
				num_int(c, v, name, addr);
			return;
		}
	}
	if (!c->opts->no_deref) {
		if (len == (int)sizeof(int))
			num_int(c, v, name, addr);
		else
			/* a negative optlen is a huge size: the string limit
			 * of bytes and "..." */
			val_read_buf(c, v, name, addr, (uint64_t)(int64_t)len);
	} else {
		val_set_ptr(v, name, addr);
	}
}

SYS_FUNC(setsockopt)
{
	struct val *v;

	arg_level_name(ctx, ev, false);
	v = arg_slot(ctx, ev, 3);
	set_val(ctx, v, v->name, (uint32_t)ev->karg[1], (uint32_t)ev->karg[2], ev->karg[3],
		(int)ev->karg[4]);
	arg_int(ctx, ev, 4);
	return RVAL_DONE;
}

/* [ulen] or [ulen => rlen] */
static void optlen_val(struct dctx *c, struct val *v, const char *name, int ulen, int rlen)
{
	struct val a, b, t;

	val_set_int(&a, NULL, ulen);
	if (ulen == rlen) {
		val_set_boxed(c, v, name, &a);
		return;
	}
	val_set_int(&b, NULL, rlen);
	val_set_changed(c, &t, NULL, &a, &b);
	val_set_boxed(c, v, name, &t);
}

SYS_FUNC(getsockopt)
{
	struct val *v;
	int ulen, rlen;

	if (!exiting) {
		arg_level_name(ctx, ev, true);
		if (ev->karg[4] && tread(ctx, ev->karg[4], &ulen, sizeof(ulen))) {
			/* ulen is kept in slot 3 until the exit stop */
			v = arg_slot(ctx, ev, 3);
			v->kind = V_INT;
			v->i = ulen;
			v->flags = VF_EXIT;
			arg_count(ev, 5);
			return RVAL_EXIT;
		}
		arg_ptr(ctx, ev, 3);
		arg_ptr(ctx, ev, 4);
		return RVAL_DONE;
	}
	if (ev->args[3].kind != V_INT)
		return RVAL_DONE;
	ulen = (int)ev->args[3].i;
	v = arg_slot(ctx, ev, 3);
	if (ev->err || !tread(ctx, ev->karg[4], &rlen, sizeof(rlen))) {
		val_set_ptr(v, v->name, ev->karg[3]);
		rlen = ulen;
	} else {
		get_val(ctx, v, v->name, (uint32_t)ev->karg[1], (uint32_t)ev->karg[2],
			ev->karg[3], ulen, rlen);
	}
	v->flags |= VF_EXIT;
	v = arg_slot(ctx, ev, 4);
	optlen_val(ctx, v, v->name, ulen, rlen);
	v->flags |= VF_EXIT;
	return RVAL_DONE;
}
