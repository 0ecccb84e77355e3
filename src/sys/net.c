/*
 * Socket decoders: socket, socketpair, bind, connect, listen, accept(4),
 * getsockname/getpeername, sendto/recvfrom, sendmsg/recvmsg, shutdown,
 * setsockopt/getsockopt; and the shared decode_sockaddr (see decode.h).
 */
#include "sys/decode.h"
#include "sys/net.h"
#include "sys/pidns.h"

#include <arpa/inet.h>
#include <net/if.h>
#include <netinet/in.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <linux/netlink.h>

#include "sys/decode_extra.h"
#include "sys/netlink.h"
#include "xlat/addrfams.h"
#include "util/strbuf.h"
#include "xlat/ethernet_protocols.h"
#include "xlat/ax25_protocols.h"
#include "xlat/bt_protocols.h"
#include "xlat/caif_protocols.h"
#include "xlat/can_protocols.h"
#include "xlat/irda_protocols.h"
#include "xlat/isdn_protocols.h"
#include "xlat/kcm_protocols.h"
#include "xlat/nfc_protocols.h"
#include "xlat/phonet_protocols.h"
#include "xlat/smc_protocols.h"
#include "xlat/inet_protocols.h"
#include "xlat/msg_flags.h"
#include "xlat/netlink_protocols.h"
#include "xlat/ip_cmsg_types.h"
#include "xlat/scmvals.h"
#include "xlat/shutdown_modes.h"
#include "xlat/sock_type_flags.h"
#include "xlat/socketlayers.h"
#include "xlat/socktypes.h"
#include "util/banned.h"


/* ---- sockaddr ------------------------------------------------------------- */

#define SA_FAMILY_SIZE 2

struct fields {
	struct val *it;
	unsigned n;
};

static struct val *field(struct fields *f)
{
	return &f->it[f->n++];
}

/* strace's PRINT_FIELD_ID: -1 as "-1", anything else unsigned */
static void uid_field(struct val *v, const char *name, uint32_t id)
{
	if (id == UINT32_MAX)
		val_set_int(v, name, -1);
	else
		val_set_uint(v, name, id);
}

static void str_field(struct dctx *c, struct val *v, const char *name,
		      const char *p, size_t len)
{
	val_set_str(c, v, name, p, len, false);
}

/* The three -X forms of an expression: abbrev, the raw bytes as a hex
 * string, and both ("\x7f\x00\x00\x01" / * inet_addr("127.0.0.1") * /);
 * raw_name: the field name the raw and verbose forms show (inet_pton's
 * abbreviated form names it inside the call instead). */
static void xforms_hex(struct dctx *c, struct val *v, const char *name, const struct val *abbrev,
		       const void *raw, size_t rawlen, const struct val *verbose_text)
{
	struct val forms[3];

	forms[0] = *abbrev;
	val_set_str(c, &forms[1], NULL, raw, rawlen, false);
	forms[1].flags |= VF_HEXSTR;
	/* "/ * text * /" around the abbreviated expression */
	val_set_verbose_form(c, &forms[2], &forms[1], verbose_text);
	val_set_xforms(c, v, name, &forms[0], &forms[1], &forms[2]);
}

/* sin_addr=inet_addr("127.0.0.1") (strace's print_inet_addr) */
static void inet4_field_n(struct dctx *c, struct val *v, const char *name,
			  const struct in_addr *a, size_t rawlen)
{
	char buf[INET_ADDRSTRLEN];
	struct val *it = val_new_array(c, 1), call;

	if (!inet_ntop(AF_INET, a, buf, sizeof(buf))) {
		val_set_str(c, v, name, (const char *)a, rawlen, false);
		v->flags |= VF_HEXSTR;
		return;
	}
	str_field(c, it, NULL, buf, strlen(buf));
	val_set_call(c, &call, NULL, "inet_addr", it, 1);
	xforms_hex(c, v, name, &call, a, rawlen, &call);
}

/* inet_pton(AF_INET6, "::1", &sin6_addr) printed without a name; under -X
 * raw/verbose sin6_addr="\x00..." (/ * inet_pton(AF_INET6, "::1") * /) */
static void inet4_field(struct dctx *c, struct val *v, const char *name,
			const struct in_addr *a)
{
	inet4_field_n(c, v, name, a, sizeof(*a));
}

static void inet6_field(struct dctx *c, struct val *v, const char *var,
			const struct in6_addr *a)
{
	char buf[INET6_ADDRSTRLEN];
	struct val *it = val_new_array(c, 3), *it2 = val_new_array(c, 2), call, call2;
	size_t n = strlen(var);
	char *ref = arena_alloc(c->arena, n + 2);

	if (!inet_ntop(AF_INET6, a, buf, sizeof(buf))) {
		val_set_str(c, v, var, (const char *)a, sizeof(*a), false);
		v->flags |= VF_HEXSTR;
		return;
	}
	ref[0] = '&';
	memcpy(ref + 1, var, n + 1);
	val_set_text(c, &it[0], NULL, "AF_INET6");
	str_field(c, &it[1], NULL, buf, strlen(buf));
	val_set_text(c, &it[2], NULL, ref);
	val_set_call(c, &call, NULL, "inet_pton", it, 3);
	it2[0] = it[0];
	it2[1] = it[1];
	val_set_call(c, &call2, NULL, "inet_pton", it2, 2);
	/* the abbreviated form has no "name=": it is shown as a value with
	 * the name inside the call */
	{
		struct val forms[3];
		struct val *named = val_new_array(c, 2);

		forms[0] = call;
		val_set_str(c, &named[0], NULL, (const char *)a, sizeof(*a), false);
		named[0].flags |= VF_HEXSTR;
		val_set_named(c, &forms[1], NULL, var, &named[0]);
		val_set_verbose_form(c, &forms[2], &forms[1], &call2);
		val_set_xforms(c, v, var, &forms[0], &forms[1], &forms[2]);
		v->flags |= VF_EQ_ONLY;
	}
}

/* strace's PRINT_FIELD_IFINDEX: if_nametoindex("lo") or the number
 * (-X raw: the number; -X verbose: 1 / * if_nametoindex("lo") * /) */
static void ifindex_field(struct dctx *c, struct val *v, const char *name, unsigned idx)
{
	char ifname[IF_NAMESIZE + 1];

	if (idx && if_indextoname(idx, ifname)) {
		char text[IF_NAMESIZE + 32];

		snprintf(text, sizeof(text), "if_nametoindex(\"%s\")", ifname);
		val_set_named_num(c, v, name, idx, text);
		v->flags |= VF_DECIMAL;
	} else {
		val_set_uint(v, name, idx);
	}
}

/* sin_port=htons(80) (-X raw: "\x00\x50"; -X verbose: both) */
static void port_field(struct dctx *c, struct val *v, const char *name, const uint16_t *p)
{
	struct val call;

	val_set_call_u(c, &call, NULL, "htons", ntohs(*p));
	xforms_hex(c, v, name, &call, p, sizeof(*p), &call);
}

/* strace's PRINT_VAL_0X: "%#0*x" with 2 * size digits */
static void hex0_field(struct dctx *c, struct val *v, const char *name, uint32_t x)
{
	char buf[24];

	snprintf(buf, sizeof(buf), "%#0*x", 8, x);
	val_set_text(c, v, name, buf);
}

static void sa_unix(struct dctx *c, struct fields *f, const char *buf, int len)
{
	const struct sockaddr_un *un = (const void *)buf;
	int un_len = len > (int)sizeof(*un) ? (int)sizeof(*un) : len;
	int path_len = un_len - SA_FAMILY_SIZE;
	struct val *v = field(f);

	if (un->sun_path[0]) {
		size_t n = strnlen(un->sun_path, (size_t)path_len + 1);

		str_field(c, v, "sun_path", un->sun_path, n);
	} else {
		struct val *it = val_new_array(c, 2);

		val_set_text(c, &it[0], NULL, "@");
		str_field(c, &it[1], NULL, un->sun_path + 1, (size_t)(path_len - 1));
		val_set_op(v, "sun_path", it, 2, NULL);
	}
}

static void sa_inet(struct dctx *c, struct fields *f, const char *buf, int len)
{
	const struct sockaddr_in *in = (const void *)buf;

	port_field(c, field(f), "sin_port", &in->sin_port);
	inet4_field(c, field(f), "sin_addr", &in->sin_addr);
}

static void sa_inet6(struct dctx *c, struct fields *f, const char *buf, int len)
{
	const struct sockaddr_in6 *in6 = (const void *)buf;

	port_field(c, field(f), "sin6_port", &in6->sin6_port);
	{
		struct val call;

		val_set_call_u(c, &call, NULL, "htonl", ntohl(in6->sin6_flowinfo));
		xforms_hex(c, field(f), "sin6_flowinfo", &call, &in6->sin6_flowinfo, 4, &call);
	}
	inet6_field(c, field(f), "sin6_addr", &in6->sin6_addr);
	if (len <= (int)offsetof(struct sockaddr_in6, sin6_scope_id))
		return;
	if (IN6_IS_ADDR_LINKLOCAL(&in6->sin6_addr) || IN6_IS_ADDR_MC_LINKLOCAL(&in6->sin6_addr))
		ifindex_field(c, field(f), "sin6_scope_id", in6->sin6_scope_id);
	else
		val_set_uint(field(f), "sin6_scope_id", in6->sin6_scope_id);
}

static void sa_netlink(struct dctx *c, struct fields *f, const char *buf, int len)
{
	const struct sockaddr_nl *nl = (const void *)buf;

	if (nl->nl_pad)
		val_set_hex(field(f), "nl_pad", nl->nl_pad);
	val_set_int(field(f), "nl_pid", (int32_t)nl->nl_pid);
	hex0_field(c, field(f), "nl_groups", nl->nl_groups);
}

static void sa_raw(struct dctx *c, struct fields *f, const char *buf, int len)
{
	str_field(c, field(f), "sa_data", buf + SA_FAMILY_SIZE, (size_t)(len - SA_FAMILY_SIZE));
}

/* ev->endpoint (event.h) from a sockaddr of len bytes, the first one the
 * call names. */
static void set_endpoint(struct dctx *c, const char *buf, int len)
{
	const struct sockaddr *sa = (const void *)buf;
	struct strbuf sb = STRBUF_INIT;
	char addr[INET6_ADDRSTRLEN];

	if (!c->ev || c->ev->endpoint)
		return;
	switch (sa->sa_family) {
	case AF_UNIX: {
		const struct sockaddr_un *un = (const void *)buf;
		int plen = len - SA_FAMILY_SIZE;
		if (plen > (int)sizeof(un->sun_path))
			plen = (int)sizeof(un->sun_path);
		strbuf_addstr(&sb, "unix:");
		if (plen > 0 && un->sun_path[0])
			strbuf_add(&sb, un->sun_path, strnlen(un->sun_path, (size_t)plen));
		else if (plen > 1) {
			strbuf_addch(&sb, '@');
			strbuf_add(&sb, un->sun_path + 1, (size_t)plen - 1);
		}
		break;
	}
	case AF_INET: {
		const struct sockaddr_in *in = (const void *)buf;
		if (len < (int)sizeof(*in) || !inet_ntop(AF_INET, &in->sin_addr, addr, sizeof(addr)))
			goto family;
		strbuf_addf(&sb, "inet:%s:%u", addr, ntohs(in->sin_port));
		break;
	}
	case AF_INET6: {
		const struct sockaddr_in6 *in6 = (const void *)buf;
		if (len < (int)offsetof(struct sockaddr_in6, sin6_scope_id) ||
		    !inet_ntop(AF_INET6, &in6->sin6_addr, addr, sizeof(addr)))
			goto family;
		strbuf_addf(&sb, "inet6:[%s]:%u", addr, ntohs(in6->sin6_port));
		break;
	}
	default:
	family: {
		const char *fam = NULL;
		for (uint32_t i = 0; i < addrfams->size; i++)
			if (addrfams->data[i].val == sa->sa_family)
				fam = addrfams->data[i].str;
		if (fam)
			strbuf_addstr(&sb, fam);
		else
			strbuf_addf(&sb, "AF_%u", (unsigned)sa->sa_family);
	}
	}
	c->ev->endpoint = arena_strndup(c->arena, sb.buf, sb.len);
	strbuf_release(&sb);
}

/* A sockaddr of len bytes already read into buf (zero-padded behind). */
static void sockaddr_val(struct dctx *c, struct val *v, const char *name,
			 const char *buf, int len)
{
	const struct sockaddr *sa = (const void *)buf;
	struct fields f = { val_new_array(c, 8), 0 };

	set_endpoint(c, buf, len);
	val_set_enum(field(&f), "sa_family", sa->sa_family, addrfams);
	if (len > SA_FAMILY_SIZE) {
		switch (sa->sa_family) {
		case AF_UNIX:
			sa_unix(c, &f, buf, len);
			break;
		case AF_INET:
			if (len >= (int)sizeof(struct sockaddr_in))
				sa_inet(c, &f, buf, len);
			else
				sa_raw(c, &f, buf, len);
			break;
		case AF_INET6:
			if (len >= (int)offsetof(struct sockaddr_in6, sin6_scope_id))
				sa_inet6(c, &f, buf, len);
			else
				sa_raw(c, &f, buf, len);
			break;
		case AF_NETLINK:
			if (len >= (int)sizeof(struct sockaddr_nl))
				sa_netlink(c, &f, buf, len);
			else
				sa_raw(c, &f, buf, len);
			break;
		default:
			sa_raw(c, &f, buf, len);
			break;
		}
	}
	val_set_struct(v, name, f.it, f.n, false);
}

void decode_sockaddr_buf(struct dctx *c, struct val *v, const char *name, const void *buf,
			 size_t len)
{
	char *copy = arena_calloc(c->arena, sizeof(struct sockaddr_storage) + 1);

	if (len > sizeof(struct sockaddr_storage))
		len = sizeof(struct sockaddr_storage);
	memcpy(copy, buf, len);
	sockaddr_val(c, v, name, copy, (int)len);
}

void decode_sockaddr(struct dctx *c, struct val *v, const char *name, uint64_t addr,
		     uint64_t len)
{
	int n = (int)len;
	char *buf;

	if (n < SA_FAMILY_SIZE) {
		val_set_ptr(v, name, addr);
		return;
	}
	if (n > (int)sizeof(struct sockaddr_storage))
		n = (int)sizeof(struct sockaddr_storage);
	buf = arena_calloc(c->arena, sizeof(struct sockaddr_storage) + 1);
	if (!tread(c, addr, buf, (size_t)n)) {
		val_set_ptr(v, name, addr);
		return;
	}
	sockaddr_val(c, v, name, buf, n);
}

/* ---- helpers -------------------------------------------------------------- */

static void mark_exit(struct val *v)
{
	v->flags |= VF_EXIT;
}

/* [ulen] or [ulen => rlen] */
static void socklen_val(struct dctx *c, struct val *v, const char *name, int ulen, int rlen)
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

/* Stashes an int between entry and exit in slot i (shown only at exit). */
static void stash(struct dctx *c, struct event *ev, unsigned i, int64_t x, bool ok)
{
	struct val *v = arg_slot(c, ev, i);

	v->kind = ok ? V_INT : V_NONE;
	v->i = x;
	v->flags = VF_EXIT;
}

static bool stashed(const struct event *ev, unsigned i, int *x)
{
	if (ev->args[i].kind != V_INT)
		return false;
	*x = (int)ev->args[i].i;
	return true;
}

static void arg_socktype(struct dctx *c, struct event *ev, unsigned i)
{
	struct val *v = arg_slot(c, ev, i);
	uint32_t type = (uint32_t)ev->karg[i];
	uint32_t rest = type & ~0xfU;

	if (xlat_name(socktypes, type & 0xf)) {
		struct val *it;

		if (!rest) {
			val_set_enum(v, v->name, type & 0xf, socktypes);
			return;
		}
		it = val_new_array(c, 2);
		val_set_enum(&it[0], NULL, type & 0xf, socktypes);
		val_set_flags(&it[1], NULL, rest, sock_type_flags, NULL);
		val_set_op(v, v->name, it, 2, "|");
		return;
	}
	val_set_flags(v, v->name, type, sock_type_flags, NULL);
}

/*
 * socket's protocol as strace 6.1 prints it: named for the families it
 * knows, chosen by all 64 bits of the domain register (raw: junk above an
 * AF_INET is no AF_INET to strace); otherwise every bit of the register in
 * decimal (raw: strace's PRINT_VAL_U of the whole register).
 */
/* The protocol names of the other families strace 6.1 knows. */
static const struct xlat *family_protocols(uint64_t family)
{
	switch (family) {
	case AF_BLUETOOTH: return bt_protocols;
	case AF_CAIF: return caif_protocols;
	case AF_CAN: return can_protocols;
	case AF_IRDA: return irda_protocols;
	case AF_ISDN: return isdn_protocols;
	case AF_KCM: return kcm_protocols;
	case AF_NFC: return nfc_protocols;
	case AF_PHONET: return phonet_protocols;
	case AF_SMC: return smc_protocols;
	default: return NULL;
	}
}

static void arg_protocol(struct dctx *c, struct event *ev, unsigned i, uint64_t family)
{
	struct val *v = arg_slot(c, ev, i);
	uint32_t proto = (uint32_t)ev->karg[i];

	switch (family) {
	case AF_INET:
	case AF_INET6:
		val_set_enum(v, v->name, proto, inet_protocols);
		break;
	case AF_NETLINK:
		val_set_enum(v, v->name, proto, netlink_protocols);
		break;
	case AF_PACKET: {
		struct val *it = val_new_array(c, 1);

		val_set_enum(it, NULL, ntohs((uint16_t)proto), ethernet_protocols);
		val_set_call(c, v, v->name, "htons", it, 1);
		break;
	}
	case AF_AX25: {
		/* "0x1 / * AX25_P_ROSE * /" whatever the -X style */
		const char *n = xlat_name(ax25_protocols, proto);
		char buf[64];

		if (proto)
			snprintf(buf, sizeof(buf), "%#x /* %s */", proto, n ? n : "AX25_P_???");
		else
			snprintf(buf, sizeof(buf), "0 /* %s */", n ? n : "AX25_P_???");
		val_set_text(c, v, v->name, buf);
		break;
	}
	case AF_RXRPC:   /* the protocol family of the transport */
		val_set_enum(v, v->name, proto, addrfams);
		break;
	default: {
		const struct xlat *xl = family_protocols(family);

		if (xl)
			val_set_enum(v, v->name, proto, xl);
		else
			val_set_uint(v, v->name, ev->raw[i]);   /* raw: see above */
		break;
	}
	}
}

/* ---- calls ---------------------------------------------------------------- */

SYS_FUNC(socket)
{
	if (!exiting) {
		arg_enum(ctx, ev, 0, addrfams);
		ev->args[0].x.v = (uint32_t)ev->karg[0];
		arg_socktype(ctx, ev, 1);
		arg_protocol(ctx, ev, 2, ev->raw[0]);   /* raw: strace switches on it whole */
		return RVAL_EXIT;
	}
	ret_set_fd(ctx, ev);
	return RVAL_DONE;
}

/* socketpair(domain, type, protocol, [fd0, fd1]) */
SYS_FUNC(socketpair)
{
	struct val *v;
	int sv[2];

	if (!exiting) {
		arg_enum(ctx, ev, 0, addrfams);
		ev->args[0].x.v = (uint32_t)ev->karg[0];
		arg_socktype(ctx, ev, 1);
		/* raw: strace prints socketpair's protocol as the whole register */
		arg_raw_uint(ctx, ev, 2);
		arg_count(ev, 4);
		return RVAL_EXIT;
	}
	v = arg_slot(ctx, ev, 3);
	if (ev->err || !tread(ctx, ev->karg[3], sv, sizeof(sv))) {
		val_set_ptr(v, v->name, ev->karg[3]);
	} else {
		struct val *it = val_new_array(ctx, 2);

		val_set_fd(ctx, &it[0], NULL, sv[0]);
		val_set_fd(ctx, &it[1], NULL, sv[1]);
		val_set_array(v, v->name, it, 2, false);
	}
	mark_exit(v);
	return RVAL_DONE;
}

/* bind/connect(fd, addr, addrlen) */
static int addr_in(struct dctx *c, struct event *ev)
{
	struct val *v;

	arg_fd(c, ev, 0);
	v = arg_slot(c, ev, 1);
	decode_sockaddr(c, v, v->name, ev->karg[1], (uint64_t)(int)ev->karg[2]);
	arg_int(c, ev, 2);
	return RVAL_DONE;
}

SYS_FUNC(bind) { return addr_in(ctx, ev); }
SYS_FUNC(connect) { return addr_in(ctx, ev); }

SYS_FUNC(listen)
{
	arg_fd(ctx, ev, 0);
	arg_int(ctx, ev, 1);
	return RVAL_DONE;
}

SYS_FUNC(shutdown)
{
	arg_fd(ctx, ev, 0);
	arg_enum(ctx, ev, 1, shutdown_modes);
	return RVAL_DONE;
}

/*
 * getsockname/getpeername/accept: fd, addr and [len] or [ulen => rlen] at
 * exit.  The caller's length is kept in slot 1 between the stops.
 */
static int sockname(struct dctx *c, struct event *ev, int exiting, unsigned nargs)
{
	struct val *v;
	int ulen, rlen;

	if (!exiting) {
		arg_fd(c, ev, 0);
		if (ev->karg[1] && ev->karg[2] && tread(c, ev->karg[2], &ulen, sizeof(ulen))) {
			stash(c, ev, 1, ulen, true);
			arg_count(ev, nargs);
			return RVAL_EXIT;
		}
		arg_ptr(c, ev, 1);
		arg_ptr(c, ev, 2);
		arg_count(ev, nargs);
		return RVAL_EXIT;
	}
	if (!stashed(ev, 1, &ulen))
		return RVAL_DONE;
	v = arg_slot(c, ev, 1);
	if (ev->err || !tread(c, ev->karg[2], &rlen, sizeof(rlen))) {
		val_set_ptr(v, v->name, ev->karg[1]);
		mark_exit(v);
		v = arg_slot(c, ev, 2);
		socklen_val(c, v, v->name, ulen, ulen);
	} else {
		decode_sockaddr(c, v, v->name, ev->karg[1], (uint64_t)(ulen > rlen ? rlen : ulen));
		mark_exit(v);
		v = arg_slot(c, ev, 2);
		socklen_val(c, v, v->name, ulen, rlen);
	}
	mark_exit(v);
	return RVAL_DONE;
}

SYS_FUNC(getsockname) { return sockname(ctx, ev, exiting, 3); }
SYS_FUNC(getpeername) { return sockname(ctx, ev, exiting, 3); }

SYS_FUNC(accept)
{
	int r = sockname(ctx, ev, exiting, 3);

	if (exiting)
		ret_set_fd(ctx, ev);
	return exiting ? RVAL_DONE : r;
}

SYS_FUNC(accept4)
{
	int r = sockname(ctx, ev, exiting, 4);

	if (exiting) {
		arg_flags(ctx, ev, 3, sock_type_flags, NULL);
		ret_set_fd(ctx, ev);
		return RVAL_DONE;
	}
	return r;
}

/* Argument 1, a buffer of len bytes: netlink messages on a netlink socket
 * (strace's decode_sockbuf), else a string. */
static void sockbuf(struct dctx *c, struct event *ev, uint64_t len)
{
	int family = netlink_fd_family(c, (int)ev->karg[0]);
	struct val *v;

	if (family == NL_NOT_NETLINK) {
		arg_buf(c, ev, 1, len);
		return;
	}
	v = arg_slot(c, ev, 1);
	decode_netlink(c, v, v->name, ev->karg[1], len, family);
	if (ev->type == EV_SYSCALL)
		v->flags |= VF_EXIT;
}

/* sendto(fd, buf, len, flags, addr, addrlen) */
SYS_FUNC(sendto)
{
	struct val *v;

	arg_fd(ctx, ev, 0);
	sockbuf(ctx, ev, ev->karg[2]);
	arg_uint(ctx, ev, 2);
	arg_flags(ctx, ev, 3, msg_flags, NULL);
	v = arg_slot(ctx, ev, 4);
	decode_sockaddr(ctx, v, v->name, ev->karg[4], (uint64_t)(int)ev->karg[5]);
	arg_int(ctx, ev, 5);
	return RVAL_DONE;
}

/* recvfrom(fd, buf, len, flags, addr, addrlen): all but fd at exit. */
SYS_FUNC(recvfrom)
{
	struct val *v;
	int ulen, rlen;

	if (!exiting) {
		arg_fd(ctx, ev, 0);
		if (ev->karg[4] && ev->karg[5] && tread(ctx, ev->karg[5], &ulen, sizeof(ulen)))
			stash(ctx, ev, 4, ulen, true);
		arg_count(ev, 6);
		return RVAL_EXIT;
	}
	if (ev->err)
		arg_ptr(ctx, ev, 1);
	else
		sockbuf(ctx, ev, (uint64_t)ev->retval < ev->karg[2] ? (uint64_t)ev->retval
								  : ev->karg[2]);
	arg_uint(ctx, ev, 2);
	arg_flags(ctx, ev, 3, msg_flags, NULL);
	if (!ev->karg[4] || !ev->karg[5] || !tread(ctx, ev->karg[5], &rlen, sizeof(rlen))) {
		arg_ptr(ctx, ev, 4);
		arg_ptr(ctx, ev, 5);
		return RVAL_DONE;
	}
	if (!stashed(ev, 4, &ulen))
		ulen = rlen;
	v = arg_slot(ctx, ev, 4);
	if (ev->err) {
		val_set_ptr(v, v->name, ev->karg[4]);
		mark_exit(v);
		v = arg_slot(ctx, ev, 5);
		socklen_val(ctx, v, v->name, ulen, ulen);
	} else {
		decode_sockaddr(ctx, v, v->name, ev->karg[4], (uint64_t)(ulen > rlen ? rlen : ulen));
		mark_exit(v);
		v = arg_slot(ctx, ev, 5);
		socklen_val(ctx, v, v->name, ulen, rlen);
	}
	mark_exit(v);
	return RVAL_DONE;
}

/* ---- msghdr --------------------------------------------------------------- */

/* A local array of n elements of size bytes in data, cut at the string
 * limit unless -v (strace's print_local_array_ex). */
static void cmsg_ints(struct dctx *c, struct val *v, const char *data, size_t len,
		      size_t size, bool fd, bool hex)
{
	unsigned n = (unsigned)(len / size);
	/* bounded by optmem_max: all of them with -v, as strace */
	unsigned shown = c->opts->verbose || n <= c->opts->string_limit ? n
			 : c->opts->string_limit;
	struct val *it = val_new_array(c, shown);

	for (unsigned i = 0; i < shown; i++) {
		uint32_t x = 0;

		memcpy(&x, data + i * size, size);
		if (fd)
			val_set_fd(c, &it[i], NULL, (int)x);
		else if (hex)
			val_set_hex(&it[i], NULL, x);
		else
			val_set_uint(&it[i], NULL, x);
	}
	val_set_array(v, "cmsg_data", it, shown, shown < n);
}

/* {tv_sec=N, tv_usec=N} / {tv_sec=N, tv_nsec=N} of 16 local bytes */
static void cmsg_time(struct dctx *c, struct val *v, const char *name, const char *data,
		      bool nsec)
{
	int64_t t[2];
	struct val *it = val_new_array(c, 2);

	memcpy(t, data, sizeof(t));
	val_set_int(&it[0], "tv_sec", t[0]);
	val_set_int(&it[1], nsec ? "tv_nsec" : "tv_usec", t[1]);
	val_set_struct(v, name, it, 2, false);
}

/* The cmsg_type and cmsg_data of one control message (strace's
 * print_cmsg_type_data); data_addr: where the data is in the tracee. */
static void cmsg_data(struct dctx *c, struct fields *f, int level, int type,
		      const char *data, size_t len, uint64_t data_addr)
{
	struct val *v = field(f);

	if (level == SOL_SOCKET) {
		val_set_enum(v, "cmsg_type", (uint32_t)type, scmvals);
		switch (type) {
		case SCM_RIGHTS:
			if (len >= sizeof(int))
				cmsg_ints(c, field(f), data, len, sizeof(int), true, false);
			return;
		case SCM_CREDENTIALS:
			if (len >= sizeof(struct ucred)) {
				struct ucred uc;
				struct val *it = val_new_array(c, 3);

				memcpy(&uc, data, sizeof(uc));
				val_set_pid(c, &it[0], "pid", uc.pid, PT_TGID);
				uid_field(&it[1], "uid", uc.uid);
				uid_field(&it[2], "gid", uc.gid);
				val_set_struct(field(f), "cmsg_data", it, 3, false);
			}
			return;
		case 3: /* SCM_SECURITY */
			if (len >= 1)
				str_field(c, field(f), "cmsg_data", data, len);
			return;
		case SO_TIMESTAMP_OLD:
		case SO_TIMESTAMPNS_OLD:
		case 63: /* SO_TIMESTAMP_NEW */
		case 64: /* SO_TIMESTAMPNS_NEW */
			if (!len)
				return;
			v = field(f);
			if (len < 16)
				val_set_text(c, v, "cmsg_data", "???");
			else
				cmsg_time(c, v, "cmsg_data", data,
					  type == SO_TIMESTAMPNS_OLD || type == 64);
			return;
		case SO_TIMESTAMPING_OLD:
		case 65: { /* SO_TIMESTAMPING_NEW */
			struct val *it;

			if (!len)
				return;
			v = field(f);
			if (len < 48) {
				val_set_text(c, v, "cmsg_data", "???");
				return;
			}
			it = val_new_array(c, 3);
			for (unsigned i = 0; i < 3; i++)
				cmsg_time(c, &it[i], NULL, data + 16 * i, true);
			val_set_array(v, "cmsg_data", it, 3, false);
			return;
		}
		}
		return;
	}
	if (level == SOL_IP) {
		val_set_enum(v, "cmsg_type", (uint32_t)type, ip_cmsg_types);
		switch (type) {
		case IP_PKTINFO:
			if (len >= sizeof(struct in_pktinfo)) {
				struct in_pktinfo pi;
				struct val *it = val_new_array(c, 3);

				memcpy(&pi, data, sizeof(pi));
				ifindex_field(c, &it[0], "ipi_ifindex", (unsigned)pi.ipi_ifindex);
				inet4_field(c, &it[1], "ipi_spec_dst", &pi.ipi_spec_dst);
				inet4_field(c, &it[2], "ipi_addr", &pi.ipi_addr);
				val_set_struct(field(f), "cmsg_data", it, 3, false);
			}
			return;
		case IP_TTL:
		case IP_CHECKSUM:
			if (len >= sizeof(unsigned))
				cmsg_ints(c, field(f), data, len, sizeof(unsigned), false, false);
			return;
		case IP_TOS:
		case IP_RECVOPTS:
		case IP_RETOPTS:
			if (len >= 1)
				cmsg_ints(c, field(f), data, len, 1, false, true);
			return;
		case IP_RECVERR:
			if (len >= 32) {
				uint32_t ee[4];
				const uint8_t *b = (const uint8_t *)data;
				struct val *it = val_new_array(c, 7);

				memcpy(ee, data, sizeof(ee));
				val_set_uint(&it[0], "ee_errno", ee[0]);
				val_set_uint(&it[1], "ee_origin", b[4]);
				val_set_uint(&it[2], "ee_type", b[5]);
				val_set_uint(&it[3], "ee_code", b[6]);
				val_set_uint(&it[4], "ee_info", ee[2]);
				val_set_uint(&it[5], "ee_data", ee[3]);
				decode_sockaddr(c, &it[6], "offender", data_addr + 16,
						sizeof(struct sockaddr_in));
				val_set_struct(field(f), "cmsg_data", it, 7, false);
			}
			return;
		case IP_ORIGDSTADDR:
			if (len >= sizeof(struct sockaddr_in))
				decode_sockaddr(c, field(f), "cmsg_data", data_addr,
						len > sizeof(struct sockaddr_storage) ?
						sizeof(struct sockaddr_storage) : len);
			return;
		case 3: /* SCM_SECURITY */
			if (len >= 1)
				str_field(c, field(f), "cmsg_data", data, len);
			return;
		}
		return;
	}
	val_set_hex(v, "cmsg_type", (uint32_t)type);
}

/* socketlayers with strace's msghdr default, "SOL_???" (its sockopt
 * levels say "SOL_??") */
static const struct xlat *cmsg_levels(void)
{
	static struct xlat xl;

	if (!xl.data) {
		xl = socketlayers[0];
		xl.unknown = "SOL_???";
	}
	return &xl;
}

/* strace's get_optmem_max: the most control data it reads */
static size_t optmem_max(void)
{
	static size_t max;

	if (!max) {
		FILE *fp = fopen("/proc/sys/net/core/optmem_max", "re");
		int x = 0;

		if (fp && fscanf(fp, "%d", &x) == 1 && x > 0)
			max = ((size_t)x + 7) & ~(size_t)7;
		else
			max = 8 * (2 * 1024 + 512);
		if (fp)
			fclose(fp);
	}
	return max;
}

static void decode_msg_control(struct dctx *c, struct fields *f, uint64_t addr, uint64_t len)
{
	const size_t hsz = sizeof(struct cmsghdr);
	size_t buf_len = len > optmem_max() ? optmem_max() : (size_t)len;
	size_t control_len = buf_len;
	char *buf, *p;
	struct val *items, *v;
	unsigned n = 0, max;

	if (!len)
		return;
	v = field(f);
	buf = buf_len >= hsz ? arena_alloc(c->arena, buf_len) : NULL;
	if (!buf || !tread(c, addr, buf, buf_len)) {
		val_set_ptr(v, "msg_control", addr);
		return;
	}
	max = (unsigned)(buf_len / hsz) + 2;
	items = val_new_array(c, max);
	p = buf;
	while (buf_len >= hsz && n + 1 < max) {
		struct cmsghdr h;
		struct fields cf = { val_new_array(c, 4), 0 };
		uint64_t clen;

		memcpy(&h, p, sizeof(h));
		clen = h.cmsg_len > buf_len ? buf_len : h.cmsg_len;
		val_set_uint(field(&cf), "cmsg_len", h.cmsg_len);
		val_set_enum(field(&cf), "cmsg_level", (uint32_t)h.cmsg_level, cmsg_levels());
		cmsg_data(c, &cf, h.cmsg_level, h.cmsg_type, p + hsz,
			  clen > hsz ? (size_t)(clen - hsz) : 0, addr + (uint64_t)(p - buf) + hsz);
		val_set_struct(&items[n++], NULL, cf.it, cf.n, false);
		if (clen < hsz) {
			buf_len -= hsz;
			break;
		}
		clen = (h.cmsg_len + sizeof(long) - 1) & ~(uint64_t)(sizeof(long) - 1);
		if (clen >= buf_len) {
			buf_len = 0;
			break;
		}
		p += clen;
		buf_len -= clen;
	}
	if (buf_len) {
		/* "... / * 0xADDR * /": the rest of the buffer */
		struct val *m = val_new_array(c, 2);
		char text[32];

		val_set_text(c, &m[0], NULL, "...");
		snprintf(text, sizeof(text), "%#llx",
			 (unsigned long long)(addr + (control_len - buf_len)));
		val_set_comment(c, &m[1], text);
		val_set_op(&items[n++], NULL, m, 2, " ");
	}
	val_set_array(v, "msg_control", items, n, !buf_len && control_len < len);
}

/* The msghdr at addr; user_namelen >= 0 is the caller's msg_namelen
 * (recvmsg); data_size as decode_iovec's. */
static void msghdr_val(struct dctx *c, struct val *v, const char *name,
		       const struct msghdr *mp, int user_namelen, int64_t data_size, int64_t fd)
{
	struct msghdr m = *mp;
	struct fields f = { val_new_array(c, 8), 0 };
	int namelen;

	namelen = user_namelen >= 0 && (int)m.msg_namelen > user_namelen
		? user_namelen : (int)m.msg_namelen;
	decode_sockaddr(c, field(&f), "msg_name", (uint64_t)(uintptr_t)m.msg_name,
			(uint64_t)namelen);
	if (user_namelen >= 0 && user_namelen != (int)m.msg_namelen) {
		struct val a, b;

		val_set_int(&a, NULL, user_namelen);
		val_set_int(&b, NULL, (int)m.msg_namelen);
		val_set_changed(c, field(&f), "msg_namelen", &a, &b);
	} else {
		val_set_int(field(&f), "msg_namelen", (int)m.msg_namelen);
	}
	if (f.it[0].kind == V_STRUCT && f.it[0].c.items[0].x.v == AF_NETLINK)
		decode_netlink_iovec(c, field(&f), "msg_iov", (uint64_t)(uintptr_t)m.msg_iov,
				     m.msg_iovlen, data_size, fd);
	else
		decode_iovec(c, field(&f), "msg_iov", (uint64_t)(uintptr_t)m.msg_iov,
			     m.msg_iovlen, data_size, false);
	val_set_uint(field(&f), "msg_iovlen", m.msg_iovlen);
	decode_msg_control(c, &f, (uint64_t)(uintptr_t)m.msg_control, m.msg_controllen);
	val_set_uint(field(&f), "msg_controllen", m.msg_controllen);
	val_set_flags(field(&f), "msg_flags", (uint32_t)m.msg_flags, msg_flags, NULL);
	val_set_struct(v, name, f.it, f.n, false);
}

static void decode_msghdr(struct dctx *c, struct val *v, const char *name, uint64_t addr,
			  int user_namelen, int64_t data_size, int64_t fd)
{
	struct msghdr m;

	if (!tread(c, addr, &m, sizeof(m))) {
		val_set_ptr(v, name, addr);
		return;
	}
	msghdr_val(c, v, name, &m, user_namelen, data_size, fd);
}

struct mmsg_walk {
	uint64_t i, nlen;
	bool use_len;
	int64_t fd;
	const struct val *namelen;  /* recvmmsg: each msg_namelen at entry */
	uint64_t nnamelen;
};

static void mmsg_item(struct dctx *c, struct val *item, const void *elem, void *arg)
{
	struct mmsg_walk *w = arg;
	struct mmsghdr mm;
	struct val *f = val_new_array(c, 2);
	unsigned n = 0;
	int user_namelen = w->namelen && w->i < w->nnamelen ? (int)w->namelen[w->i].i : -1;

	memcpy(&mm, elem, sizeof(mm));
	msghdr_val(c, &f[n++], "msg_hdr", &mm.msg_hdr, user_namelen,
		   w->use_len ? (int64_t)mm.msg_len : -1, w->fd);
	if (w->i++ < w->nlen)
		val_set_uint(&f[n++], "msg_len", mm.msg_len);
	val_set_struct(item, NULL, f, n, false);
}

/* strace shows at most IOV_MAX messages, then "..." */
#define MMSG_MAX 1024

/*
 * An mmsghdr vector of vlen elements, as decode_array:
 * [{msg_hdr={...}, msg_len=N}, ...]; msg_len for the first nlen elements;
 * use_len: each message's data is its msg_len (recvmmsg); namelen: the
 * msg_namelen of each message at entry (V_INT items, or NULL).
 */
static void decode_mmsgvec(struct dctx *c, struct val *v, const char *name, uint64_t addr,
			   uint64_t vlen, uint64_t nlen, bool use_len, int64_t fd,
			   const struct val *namelen, uint64_t nnamelen)
{
	struct mmsg_walk w = { 0, nlen, use_len, fd, namelen, nnamelen };
	uint64_t count = namelen ? nnamelen : MMSG_MAX;

	decode_array(c, v, name, addr, vlen < count ? vlen : count, sizeof(struct mmsghdr),
		     mmsg_item, &w);
	if (vlen > count && v->kind == V_ARRAY)
		v->flags |= VF_MORE;
}

/* sendmmsg(fd, msgvec, vlen, flags): the vector at exit, with msg_len of the
 * messages sent. */
SYS_FUNC(sendmmsg)
{
	struct val *v;

	if (!exiting) {
		arg_fd(ctx, ev, 0);
		if (ctx->opts->no_deref) {
			arg_ptr(ctx, ev, 1);
			arg_uint(ctx, ev, 2);
			ev->args[2].u = (uint32_t)ev->karg[2];
			arg_flags(ctx, ev, 3, msg_flags, NULL);
			return RVAL_DONE;
		}
		arg_count(ev, 4);
		return RVAL_EXIT;
	}
	v = arg_slot(ctx, ev, 1);
	decode_mmsgvec(ctx, v, v->name, ev->karg[1], (uint32_t)ev->karg[2],
		       ev->err ? 0 : (uint64_t)ev->retval, false, (int)ev->karg[0], NULL, 0);
	v->flags |= VF_EXIT;
	arg_uint(ctx, ev, 2);
	ev->args[2].u = (uint32_t)ev->karg[2];
	arg_flags(ctx, ev, 3, msg_flags, NULL);
	return RVAL_DONE;
}

/* recvmmsg(fd, msgvec, vlen, flags, timeout): the received messages and the
 * timeout as given at entry; "(left {...})" or "(Timeout)" after the result. */
SYS_FUNC(recvmmsg)
{
	struct val *v;

	if (!exiting) {
		uint64_t vlen = (uint32_t)ev->karg[2], n = 0;
		struct val *lens;

		arg_fd(ctx, ev, 0);
		if (ctx->opts->no_deref) {
			arg_ptr(ctx, ev, 1);
			arg_uint(ctx, ev, 2);
			arg_flags(ctx, ev, 3, msg_flags, NULL);
			v = arg_slot(ctx, ev, 4);
			decode_timespec(ctx, v, v->name, ev->karg[4]);
			return RVAL_EXIT;
		}
		/* each msg_namelen as given, kept in slot 1 until the exit stop
		 * (strace's save_mmsgvec_namelen, at most IOV_MAX) */
		if (vlen > MMSG_MAX)
			vlen = MMSG_MAX;
		lens = val_new_array(ctx, (unsigned)vlen);
		for (; n < vlen; n++) {
			struct mmsghdr mm;

			if (!tread(ctx, ev->karg[1] + n * sizeof(mm), &mm, sizeof(mm)))
				break;
			val_set_int(&lens[n], NULL, (int)mm.msg_hdr.msg_namelen);
		}
		v = arg_slot(ctx, ev, 1);
		val_set_array(v, v->name, lens, (unsigned)n, false);
		v->flags |= VF_EXIT;
		v = arg_slot(ctx, ev, 4);
		decode_timespec(ctx, v, v->name, ev->karg[4]);
		return RVAL_EXIT;
	}
	if (!ctx->opts->no_deref) {
		const struct val *lens = ev->args[1].c.items;
		uint64_t nlens = ev->args[1].kind == V_ARRAY ? ev->args[1].c.n : 0;

		v = arg_slot(ctx, ev, 1);
		if (ev->err)
			val_set_ptr(v, v->name, ev->karg[1]);
		else
			decode_mmsgvec(ctx, v, v->name, ev->karg[1], (uint64_t)ev->retval,
				       (uint64_t)ev->retval, true, (int)ev->karg[0], lens, nlens);
		v->flags |= VF_EXIT;
		arg_uint(ctx, ev, 2);
		ev->args[2].u = (uint32_t)ev->karg[2];
		arg_flags(ctx, ev, 3, msg_flags, NULL);
	}
	if (ev->err)
		return RVAL_DONE;
	if (ev->retval == 0) {
		struct val *aux = arena_calloc(ctx->arena, sizeof(*aux));

		val_set_text(ctx, aux, NULL, "Timeout");
		ev->ret_aux = aux;
	} else if (ev->karg[4] && !ctx->opts->no_deref) {
		struct val *aux = arena_calloc(ctx->arena, sizeof(*aux));

		decode_timespec(ctx, aux, "left", ev->karg[4]);
		ev->ret_aux = aux;
	}
	return RVAL_DONE;
}

SYS_FUNC(sendmsg)
{
	struct val *v;

	arg_fd(ctx, ev, 0);
	v = arg_slot(ctx, ev, 1);
	decode_msghdr(ctx, v, v->name, ev->karg[1], -1, -1, (int)ev->karg[0]);
	arg_flags(ctx, ev, 2, msg_flags, NULL);
	return RVAL_DONE;
}

SYS_FUNC(recvmsg)
{
	struct val *v;
	struct msghdr m;
	int namelen;

	if (!exiting) {
		arg_fd(ctx, ev, 0);
		if (ev->karg[1] && tread(ctx, ev->karg[1], &m, sizeof(m))) {
			stash(ctx, ev, 1, (int)m.msg_namelen, true);
			arg_count(ev, 3);
			return RVAL_EXIT;
		}
		arg_ptr(ctx, ev, 1);
		arg_count(ev, 3);
		return RVAL_EXIT;
	}
	if (stashed(ev, 1, &namelen)) {
		v = arg_slot(ctx, ev, 1);
		if (ev->err) {
			struct val *it = val_new_array(ctx, 1);

			val_set_int(it, "msg_namelen", namelen);
			val_set_struct(v, v->name, it, 1, false);
		} else {
			decode_msghdr(ctx, v, v->name, ev->karg[1], namelen, ev->retval,
				      (int)ev->karg[0]);
		}
		mark_exit(v);
	}
	arg_flags(ctx, ev, 2, msg_flags, NULL);
	return RVAL_DONE;
}

/* ---- shared helpers (net.h) ---------------------------------------------- */

void net_inet_addr_val(struct dctx *c, struct val *v, const char *name, int family,
		       const void *addr)
{
	if (family == AF_INET6)
		inet6_field(c, v, name, addr);
	else
		inet4_field(c, v, name, addr);
}

void net_ifindex_val(struct dctx *c, struct val *v, const char *name, unsigned idx)
{
	ifindex_field(c, v, name, idx);
}

void net_inet_addr16_val(struct dctx *c, struct val *v, const char *name, int family,
			 const void *addr)
{
	if (family == AF_INET6)
		inet6_field(c, v, name, addr);
	else
		inet4_field_n(c, v, name, addr, 16);
}

void net_port_val(struct dctx *c, struct val *v, const char *name, const void *port)
{
	port_field(c, v, name, port);
}
