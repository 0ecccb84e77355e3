/*
 * Socket decoders: socket, socketpair, bind, connect, listen, accept(4),
 * getsockname/getpeername, sendto/recvfrom, sendmsg/recvmsg, shutdown,
 * setsockopt/getsockopt; and the shared decode_sockaddr (see decode.h).
 */
#include "sys/decode.h"

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
#include "xlat/inet_protocols.h"
#include "xlat/msg_flags.h"
#include "xlat/netlink_protocols.h"
#include "xlat/scmvals.h"
#include "xlat/shutdown_modes.h"
#include "xlat/sock_ip_options.h"
#include "xlat/sock_ipv6_options.h"
#include "xlat/sock_netlink_options.h"
#include "xlat/sock_options.h"
#include "xlat/sock_tcp_options.h"
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

static void str_field(struct dctx *c, struct val *v, const char *name,
		      const char *p, size_t len)
{
	val_set_str(c, v, name, p, len, false);
}

/* sin_addr=inet_addr("127.0.0.1") */
static void inet4_field(struct dctx *c, struct val *v, const char *name,
			const struct in_addr *a)
{
	char buf[INET_ADDRSTRLEN];
	struct val *it = val_new_array(c, 1);

	if (!inet_ntop(AF_INET, a, buf, sizeof(buf))) {
		val_set_str(c, v, name, (const char *)a, sizeof(*a), false);
		v->flags |= VF_HEXSTR;
		return;
	}
	str_field(c, it, NULL, buf, strlen(buf));
	val_set_call(c, v, name, "inet_addr", it, 1);
}

/* inet_pton(AF_INET6, "::1", &sin6_addr) printed without a name */
static void inet6_field(struct dctx *c, struct val *v, const char *var,
			const struct in6_addr *a)
{
	char buf[INET6_ADDRSTRLEN];
	struct val *it = val_new_array(c, 3);
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
	val_set_call(c, v, var, "inet_pton", it, 3);
	v->flags |= VF_EQ_ONLY;
}

/* strace's PRINT_FIELD_IFINDEX: if_nametoindex("lo") or the number */
static void ifindex_field(struct dctx *c, struct val *v, const char *name, unsigned idx)
{
	char ifname[IF_NAMESIZE + 1];

	if (idx && if_indextoname(idx, ifname)) {
		struct val *it = val_new_array(c, 1);

		str_field(c, it, NULL, ifname, strlen(ifname));
		val_set_call(c, v, name, "if_nametoindex", it, 1);
	} else {
		val_set_uint(v, name, idx);
	}
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

	val_set_call_u(c, field(f), "sin_port", "htons", ntohs(in->sin_port));
	inet4_field(c, field(f), "sin_addr", &in->sin_addr);
}

static void sa_inet6(struct dctx *c, struct fields *f, const char *buf, int len)
{
	const struct sockaddr_in6 *in6 = (const void *)buf;

	val_set_call_u(c, field(f), "sin6_port", "htons", ntohs(in6->sin6_port));
	val_set_call_u(c, field(f), "sin6_flowinfo", "htonl", ntohl(in6->sin6_flowinfo));
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
	default:
		val_set_uint(v, v->name, ev->raw[i]);   /* raw: see above */
		break;
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

static void cmsg_data(struct dctx *c, struct fields *f, int level, int type,
		      const char *data, size_t len)
{
	struct val *v = field(f);

	if (level == SOL_SOCKET) {
		val_set_enum(v, "cmsg_type", (uint32_t)type, scmvals);
		if (type == SCM_RIGHTS && len >= sizeof(int)) {
			unsigned n = (unsigned)(len / sizeof(int));
			struct val *it = val_new_array(c, n);

			for (unsigned i = 0; i < n; i++) {
				int fd;

				memcpy(&fd, data + i * sizeof(int), sizeof(fd));
				val_set_fd(c, &it[i], NULL, fd);
			}
			val_set_array(field(f), "cmsg_data", it, n, false);
		} else if (type == SCM_CREDENTIALS && len >= sizeof(struct ucred)) {
			struct ucred uc;
			struct val *it = val_new_array(c, 3);

			memcpy(&uc, data, sizeof(uc));
			val_set_int(&it[0], "pid", uc.pid);
			val_set_uint(&it[1], "uid", uc.uid);
			val_set_uint(&it[2], "gid", uc.gid);
			val_set_struct(field(f), "cmsg_data", it, 3, false);
		} else if (type == 3 /* SCM_SECURITY */ && len >= 1) {
			str_field(c, field(f), "cmsg_data", data, len);
		}
		return;
	}
	val_set_hex(v, "cmsg_type", (uint32_t)type);
}

static void decode_msg_control(struct dctx *c, struct fields *f, uint64_t addr, uint64_t len)
{
	const size_t hsz = sizeof(struct cmsghdr);
	size_t buf_len = len > 20480 ? 20480 : (size_t)len;
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
	max = (unsigned)(buf_len / hsz) + 1;
	items = val_new_array(c, max);
	p = buf;
	while (buf_len >= hsz && n < max) {
		struct cmsghdr h;
		struct fields cf = { val_new_array(c, 4), 0 };
		uint64_t clen;

		memcpy(&h, p, sizeof(h));
		clen = h.cmsg_len > buf_len ? buf_len : h.cmsg_len;
		val_set_uint(field(&cf), "cmsg_len", h.cmsg_len);
		val_set_enum(field(&cf), "cmsg_level", (uint32_t)h.cmsg_level, socketlayers);
		cmsg_data(c, &cf, h.cmsg_level, h.cmsg_type, p + hsz,
			  clen > hsz ? (size_t)(clen - hsz) : 0);
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
	val_set_array(v, "msg_control", items, n, buf_len != 0 || control_len < len);
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
};

static void mmsg_item(struct dctx *c, struct val *item, const void *elem, void *arg)
{
	struct mmsg_walk *w = arg;
	struct mmsghdr mm;
	struct val *f = val_new_array(c, 2);
	unsigned n = 0;

	memcpy(&mm, elem, sizeof(mm));
	msghdr_val(c, &f[n++], "msg_hdr", &mm.msg_hdr, -1,
		   w->use_len ? (int64_t)mm.msg_len : -1, w->fd);
	if (w->i++ < w->nlen)
		val_set_uint(&f[n++], "msg_len", mm.msg_len);
	val_set_struct(item, NULL, f, n, false);
}

/*
 * An mmsghdr vector of vlen elements, as decode_array:
 * [{msg_hdr={...}, msg_len=N}, ...]; msg_len for the first nlen elements;
 * use_len: each message's data is its msg_len (recvmmsg).
 */
static void decode_mmsgvec(struct dctx *c, struct val *v, const char *name, uint64_t addr,
			   uint64_t vlen, uint64_t nlen, bool use_len, int64_t fd)
{
	struct mmsg_walk w = { 0, nlen, use_len, fd };

	decode_array(c, v, name, addr, vlen, sizeof(struct mmsghdr), mmsg_item, &w);
}

/* sendmmsg(fd, msgvec, vlen, flags): the vector at exit, with msg_len of the
 * messages sent. */
SYS_FUNC(sendmmsg)
{
	struct val *v;

	if (!exiting) {
		arg_fd(ctx, ev, 0);
		arg_count(ev, 4);
		return RVAL_EXIT;
	}
	v = arg_slot(ctx, ev, 1);
	decode_mmsgvec(ctx, v, v->name, ev->karg[1], (uint32_t)ev->karg[2],
		       ev->err ? 0 : (uint64_t)ev->retval, false, (int)ev->karg[0]);
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
		arg_fd(ctx, ev, 0);
		v = arg_slot(ctx, ev, 4);
		decode_timespec(ctx, v, v->name, ev->karg[4]);
		return RVAL_EXIT;
	}
	v = arg_slot(ctx, ev, 1);
	if (ev->err)
		val_set_ptr(v, v->name, ev->karg[1]);
	else
		decode_mmsgvec(ctx, v, v->name, ev->karg[1], (uint64_t)ev->retval,
			       (uint64_t)ev->retval, true, (int)ev->karg[0]);
	v->flags |= VF_EXIT;
	arg_uint(ctx, ev, 2);
	ev->args[2].u = (uint32_t)ev->karg[2];
	arg_flags(ctx, ev, 3, msg_flags, NULL);
	if (ev->err)
		return RVAL_DONE;
	if (ev->retval == 0) {
		struct val *aux = arena_calloc(ctx->arena, sizeof(*aux));

		val_set_text(ctx, aux, NULL, "Timeout");
		ev->ret_aux = aux;
	} else if (ev->karg[4]) {
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

/* ---- socket options ------------------------------------------------------- */

static void arg_level_name(struct dctx *c, struct event *ev)
{
	struct val *v;
	uint32_t level = (uint32_t)ev->karg[1];
	uint32_t name = (uint32_t)ev->karg[2];

	arg_fd(c, ev, 0);
	arg_enum(c, ev, 1, socketlayers);
	ev->args[1].x.v = level;
	v = arg_slot(c, ev, 2);
	switch (level) {
	case SOL_SOCKET:
		val_set_enum(v, v->name, name, sock_options);
		break;
	case SOL_IP:
		val_set_enum(v, v->name, name, sock_ip_options);
		break;
	case SOL_IPV6:
		val_set_enum(v, v->name, name, sock_ipv6_options);
		break;
	case IPPROTO_TCP:
		val_set_enum(v, v->name, name, sock_tcp_options);
		break;
	case SOL_NETLINK:
		val_set_enum(v, v->name, name, sock_netlink_options);
		break;
	default:
		val_set_uint(v, v->name, name);
		break;
	}
}

/* SOL_SOCKET options strace prints as [int] (its "int-like" list). */
static bool int_like_option(uint32_t opt)
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

/* The option value at addr of len bytes, as strace's print_setsockopt /
 * print_getsockopt default and common cases. */
static void sockopt_val(struct dctx *c, struct val *v, const char *name, uint32_t level,
			uint32_t opt, uint64_t addr, int len, bool get)
{
	if (!addr) {
		val_set_ptr(v, name, addr);
		return;
	}
	if (level == SOL_SOCKET && opt == SO_LINGER) {
		struct linger lg = { 0, 0 };
		size_t n = get ? ((size_t)len > sizeof(lg) ? sizeof(lg) : (size_t)len) : sizeof(lg);
		struct val *it;

		if ((!get && len < (int)sizeof(lg)) || !tread(c, addr, &lg, n)) {
			val_set_ptr(v, name, addr);
			return;
		}
		it = val_new_array(c, 2);
		val_set_int(&it[0], "l_onoff", lg.l_onoff);
		val_set_int(&it[1], "l_linger", lg.l_linger);
		val_set_struct(v, name, it, n >= sizeof(lg) ? 2 : 1, false);
		return;
	}
	if (get && level == SOL_SOCKET && opt == SO_PEERCRED && len >= (int)sizeof(struct ucred)) {
		struct ucred uc;
		struct val *it;

		if (!tread(c, addr, &uc, sizeof(uc))) {
			val_set_ptr(v, name, addr);
			return;
		}
		it = val_new_array(c, 3);
		val_set_int(&it[0], "pid", uc.pid);
		val_set_uint(&it[1], "uid", uc.uid);
		val_set_uint(&it[2], "gid", uc.gid);
		val_set_struct(v, name, it, 3, false);
		return;
	}
	if (get && level == SOL_SOCKET && opt == SO_ERROR && len >= (int)sizeof(int)) {
		int e;
		struct val x;
		const char *en;

		if (!tread(c, addr, &e, sizeof(e))) {
			val_set_ptr(v, name, addr);
			return;
		}
		en = e ? errno_name(e) : NULL;
		if (en)
			val_set_text(c, &x, NULL, en);
		else
			val_set_uint(&x, NULL, (unsigned)e);
		val_set_boxed(c, v, name, &x);
		return;
	}
	if (level == SOL_SOCKET && int_like_option(opt)) {
		if (len >= (int)sizeof(int)) {
			val_read_int_boxed(c, v, name, addr);
		} else if (get && len > 0) {
			val_read_buf(c, v, name, addr, (uint64_t)len);
			if (v->kind == V_STR)
				v->flags |= VF_HEXSTR;
		} else {
			val_set_ptr(v, name, addr);
		}
		return;
	}
	if (len == (int)sizeof(int)) {
		val_read_int_boxed(c, v, name, addr);
		return;
	}
	if (len < 0 && get) {
		val_set_ptr(v, name, addr);
		return;
	}
	/* strace's printstrn takes a negative optlen as a huge size: the
	 * string limit of bytes and "..." */
	val_read_buf(c, v, name, addr, (uint64_t)(int64_t)len);
}

SYS_FUNC(setsockopt)
{
	struct val *v;

	arg_level_name(ctx, ev);
	v = arg_slot(ctx, ev, 3);
	sockopt_val(ctx, v, v->name, (uint32_t)ev->karg[1], (uint32_t)ev->karg[2], ev->karg[3],
		    (int)ev->karg[4], false);
	arg_int(ctx, ev, 4);
	return RVAL_DONE;
}

SYS_FUNC(getsockopt)
{
	struct val *v;
	int ulen, rlen;

	if (!exiting) {
		arg_level_name(ctx, ev);
		if (ev->karg[4] && tread(ctx, ev->karg[4], &ulen, sizeof(ulen))) {
			stash(ctx, ev, 3, ulen, true);
			arg_count(ev, 5);
			return RVAL_EXIT;
		}
		arg_ptr(ctx, ev, 3);
		arg_ptr(ctx, ev, 4);
		return RVAL_DONE;
	}
	if (!stashed(ev, 3, &ulen))
		return RVAL_DONE;
	v = arg_slot(ctx, ev, 3);
	if (!tread(ctx, ev->karg[4], &rlen, sizeof(rlen))) {
		val_set_ptr(v, v->name, ev->karg[3]);
		mark_exit(v);
		v = arg_slot(ctx, ev, 4);
		socklen_val(ctx, v, v->name, ulen, ulen);
	} else if (ev->err || ulen <= 0 || rlen <= 0) {
		val_set_ptr(v, v->name, ev->karg[3]);
		mark_exit(v);
		v = arg_slot(ctx, ev, 4);
		socklen_val(ctx, v, v->name, ulen, rlen);
	} else {
		sockopt_val(ctx, v, v->name, (uint32_t)ev->karg[1], (uint32_t)ev->karg[2],
			    ev->karg[3], rlen, true);
		mark_exit(v);
		v = arg_slot(ctx, ev, 4);
		socklen_val(ctx, v, v->name, ulen, rlen);
	}
	mark_exit(v);
	return RVAL_DONE;
}
