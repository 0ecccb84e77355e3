/*
 * Netlink decoding shared by all protocols (see netlink.h): socket protocol
 * lookup, nlmsghdr chains, NLMSG_ERROR; the protocols' payloads are
 * decoded below (netlink_route.c) with the helpers of nlattr.c.
 */
#include "sys/netlink.h"
#include "sys/netlink_proto.h"
#include "sys/netlink_route.h"

#include <arpa/inet.h>
#include <net/if.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <sys/xattr.h>
#include <linux/netlink.h>

#include "sys/tmem.h"
#include "sys/decode_extra.h"
#include "xlat/netlink_ack_flags.h"
#include "xlat/netlink_delete_flags.h"
#include "xlat/netlink_flags.h"
#include "xlat/netlink_get_flags.h"
#include "xlat/netlink_new_flags.h"
#include "xlat/netlink_types.h"
#include "xlat/nl_audit_types.h"
#include "xlat/nl_route_types.h"
#include "xlat/nl_selinux_types.h"
#include "xlat/nl_sock_diag_types.h"
#include "xlat/nl_xfrm_types.h"
#include "xlat/nlmsgerr_attrs.h"
#include "util/xmalloc.h"
#include "util/banned.h"

/* Most bytes of one buffer copied from the tracee. */

/* ---- which socket --------------------------------------------------------- */

static struct {
	uint64_t ino;
	int family;
} nl_cache[32];
static unsigned nl_cache_next;

/* The protocol of the netlink socket with inode ino, from the tracee's
 * network namespace (/proc/PID/net/netlink), or -1. */
static int family_by_inode(pid_t pid, uint64_t ino)
{
	char path[64], line[512];
	FILE *f;
	int family = -1;

	for (unsigned i = 0; i < ARRAY_SIZE(nl_cache); i++)
		if (nl_cache[i].ino == ino)
			return nl_cache[i].family;
	snprintf(path, sizeof(path), "/proc/%d/net/netlink", (int)pid);
	f = fopen(path, "re");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		int proto;
		unsigned long long inode;

		if (sscanf(line, "%*s %d %*s %*s %*s %*s %*s %*s %*s %llu", &proto, &inode) == 2 &&
		    inode == ino) {
			family = proto;
			break;
		}
	}
	fclose(f);
	if (family >= 0) {
		nl_cache[nl_cache_next].ino = ino;
		nl_cache[nl_cache_next].family = family;
		nl_cache_next = (nl_cache_next + 1) % ARRAY_SIZE(nl_cache);
	}
	return family;
}

int netlink_fd_family(struct dctx *c, int64_t fd)
{
	char path[64], proto[32];
	struct stat st;
	ssize_t n;

	int fam, nlproto;

	if (fd < 0 || fd > INT32_MAX)
		return NL_NOT_NETLINK;
	/* a recorded call: its socket as the recorder saw it (sys/tmem.h) */
	if (tmem_fd_socket(c->tid, fd, &fam, &nlproto) == 0)
		return fam == 16 /* AF_NETLINK */ ? nlproto : NL_NOT_NETLINK;
	snprintf(path, sizeof(path), "/proc/%d/fd/%d", (int)c->tid, (int)fd);
	n = getxattr(path, "system.sockprotoname", proto, sizeof(proto) - 1);
	if (n <= 0)
		return NL_NOT_NETLINK;
	proto[n] = '\0';
	if (strcmp(proto, "NETLINK"))
		return NL_NOT_NETLINK;
	if (stat(path, &st))
		return -1;
	return family_by_inode(c->pid, (uint64_t)st.st_ino);
}

/* ---- nlmsghdr ------------------------------------------------------------- */

static const struct xlat *type_table(int family)
{
	switch (family) {
	case NETLINK_ROUTE:
		return nl_route_types;
	case NETLINK_SOCK_DIAG:
		return nl_sock_diag_types;
	case NETLINK_AUDIT:
		return nl_audit_types;
	case NETLINK_SELINUX:
		return nl_selinux_types;
	case NETLINK_XFRM:
		return nl_xfrm_types;
	case NETLINK_GENERIC:
		return nl_genl_families();
	default:
		return NULL;
	}
}

/* The NLM_F_* table for type (strace's decode_nlmsg_flags): the common
 * flags, then the GET/NEW/DEL request flags the protocol uses. */
static const struct xlat *flags_table(uint16_t type, int family)
{
	if (type < NLMSG_MIN_TYPE)
		return type == NLMSG_ERROR ? netlink_ack_flags : netlink_flags;
	switch (family) {
	case NETLINK_ROUTE:
		if (type == 49 /* RTM_DELACTION */)
			return netlink_get_flags;
		switch (type & 3) {
		case 0:
			return netlink_new_flags;
		case 1:
			return netlink_delete_flags;
		case 2:
			return netlink_get_flags;
		}
		return netlink_flags;
	case NETLINK_SOCK_DIAG:
		return netlink_get_flags;
	case NETLINK_NETFILTER:
		return nl_netfilter_flags(type) ? nl_netfilter_flags(type) : netlink_flags;
	case NETLINK_XFRM:
		return nl_xfrm_flags(type) ? nl_xfrm_flags(type) : netlink_flags;
	default:
		return netlink_flags;
	}
}

static void nlmsghdr_val(const struct nlctx *n, struct val *v, const struct nlmsghdr *h)
{
	struct val *f = val_new_array(n->c, 5);
	const struct xlat *types = netlink_types;

	if (h->nlmsg_type >= NLMSG_MIN_TYPE && type_table(n->family))
		types = type_table(n->family);
	val_set_uint(&f[0], "nlmsg_len", h->nlmsg_len);
	if (h->nlmsg_type >= NLMSG_MIN_TYPE && n->family == NETLINK_NETFILTER)
		nl_netfilter_type(n->c, &f[1], "nlmsg_type", h->nlmsg_type);
	else
		val_set_enum(&f[1], "nlmsg_type", h->nlmsg_type, types);
	val_set_flags(&f[2], "nlmsg_flags", h->nlmsg_flags,
		      flags_table(h->nlmsg_type, n->family), NULL);
	val_set_uint(&f[3], "nlmsg_seq", h->nlmsg_seq);
	val_set_int(&f[4], "nlmsg_pid", (int32_t)h->nlmsg_pid);
	val_set_struct(v, NULL, f, 5, false);
}

static void nlmsg_with_payload(const struct nlctx *n, struct val *v,
			       const struct nlmsghdr *h, uint64_t off, uint64_t len);

static bool nlmsgerr_str(const struct nlctx *n, struct val *v, uint64_t off, unsigned len,
			 const void *o)
{
	return nla_str(n, v, off, len, o);
}

static const nla_fn nlmsgerr_fns[] = {
	[NLMSGERR_ATTR_MSG] = nlmsgerr_str,
	[NLMSGERR_ATTR_OFFS] = nla_u32,
};

/* {error=-EINVAL, msg={...}}, or [{error=..., msg=...}, attributes] when
 * bytes follow the echoed message (strace's decode_nlmsgerr) */
static void nlmsgerr_val(const struct nlctx *n, struct val *v, uint64_t off, uint64_t len,
			 bool capped)
{
	struct vlist f = { 0 };
	int32_t err;
	struct nlmsghdr msg;
	struct val *e;
	const char *en;

	if (len < sizeof(err)) {
		nl_hexstr(n, v, NULL, off, len);
		return;
	}
	if (!nl_fetch(n, off, &err, sizeof(err))) {
		nl_addr(n, v, NULL, off);
		return;
	}
	e = vl_add(n->c, &f);
	en = err < 0 && err > -4096 ? errno_name(-err) : NULL;
	if (en) {
		char buf[64];
		struct val num;

		/* -ENOENT; -X raw: -2; -X verbose: -2 / * -ENOENT * / */
		snprintf(buf, sizeof(buf), "-%s", en);
		val_set_int(&num, NULL, err);
		val_set_num_text(n->c, e, "error", &num, buf);
	} else {
		val_set_int(e, "error", err);
	}
	off += sizeof(err);
	len -= sizeof(err);
	if (len) {
		e = vl_add(n->c, &f);
		if (len < sizeof(msg)) {
			nl_hexstr(n, e, "msg", off, len);
		} else if (!nl_fetch(n, off, &msg, sizeof(msg))) {
			nl_addr(n, e, "msg", off);
		} else {
			uint64_t payload = capped ? sizeof(msg) : msg.nlmsg_len;

			if (payload > len)
				payload = len;
			nlmsg_with_payload(n, e, &msg, off, payload);
			e->name = "msg";
			if (len > payload) {
				/* [{error=..., msg=...}, attributes] */
				struct val *it = val_new_array(n->c, 2);

				val_set_struct(&it[0], NULL, f.it, f.n, false);
				nl_attrs(n, &it[1], off + payload, len - payload, nlmsgerr_attrs,
					 nlmsgerr_fns, ARRAY_SIZE(nlmsgerr_fns), NULL);
				val_set_array(v, NULL, it, 2, false);
				return;
			}
		}
	}
	val_set_struct(v, NULL, f.it, f.n, false);
}

typedef bool (*payload_fn)(const struct nlctx *n, struct vlist *l, const struct nlmsghdr *h,
			   uint64_t off, unsigned len);

/* The payload decoder of a protocol, or NULL (strace's netlink_decoders). */
static payload_fn payload_decoder(int family)
{
	switch (family) {
	case NETLINK_ROUTE:
		return nl_decode_route;
	case NETLINK_SOCK_DIAG:
		return nl_decode_sock_diag;
	case NETLINK_NETFILTER:
		return nl_decode_netfilter;
	case NETLINK_SELINUX:
		return nl_decode_selinux;
	default:
		return NULL;
	}
}

/* Appends the payload of message h (len bytes at off) to l. */
static void payload_val(const struct nlctx *n, struct vlist *l, const struct nlmsghdr *h,
			uint64_t off, uint64_t len)
{
	int32_t num;

	if (h->nlmsg_type == NLMSG_ERROR) {
		nlmsgerr_val(n, vl_add(n->c, l), off, len, h->nlmsg_flags & NLM_F_CAPPED);
		return;
	}
	if ((h->nlmsg_type >= NLMSG_MIN_TYPE || h->nlmsg_type == NLMSG_DONE) &&
	    payload_decoder(n->family) && payload_decoder(n->family)(n, l, h, off, (unsigned)len))
		return;
	if (h->nlmsg_type == NLMSG_DONE && len == sizeof(num)) {
		struct val *v = vl_add(n->c, l);

		if (nl_fetch(n, off, &num, sizeof(num)))
			val_set_int(v, NULL, num);
		else
			nl_addr(n, v, NULL, off);
		return;
	}
	nl_hexstr(n, vl_add(n->c, l), NULL, off, len);
}

static void nlmsg_with_payload(const struct nlctx *n, struct val *v,
			       const struct nlmsghdr *h, uint64_t off, uint64_t len)
{
	uint64_t nlmsg_len = h->nlmsg_len < len ? h->nlmsg_len : len;
	struct vlist l = { 0 };

	if (nlmsg_len <= NLMSG_HDRLEN) {
		nlmsghdr_val(n, v, h);
		return;
	}
	nlmsghdr_val(n, vl_add(n->c, &l), h);
	payload_val(n, &l, h, off + NLMSG_HDRLEN, nlmsg_len - NLMSG_HDRLEN);
	val_set_array(v, NULL, l.it, l.n, false);
}

void decode_netlink(struct dctx *c, struct val *v, const char *name, uint64_t addr,
		    uint64_t len, int family)
{
	struct nlwin win = { NULL, 0, 0, 0 };
	struct nlctx n = { c, &win, addr, len, family };
	struct vlist l = { 0 };
	uint64_t off = 0;
	bool is_array = false, more = false;

	if (family == NETLINK_KOBJECT_UEVENT) {
		nl_decode_uevent(c, v, name, addr, len);
		return;
	}
	if (!addr || len < sizeof(struct nlmsghdr)) {
		nl_hexstr(&n, v, name, 0, len);
		return;
	}
	for (unsigned elt = 0;; elt++) {
		struct nlmsghdr h;
		struct val *e = is_array ? vl_add(c, &l) : v;
		uint64_t nlmsg_len, next_len = 0;
		bool next = false;

		if (len < sizeof(h)) {
			nl_hexstr(&n, e, NULL, off, len);
			break;
		}
		if (!nl_fetch(&n, off, &h, sizeof(h))) {
			if (is_array)
				nl_more_at(&n, e, off);
			else
				nl_addr(&n, e, NULL, off);
			break;
		}
		if (elt == decode_elem_limit(c, UINT64_MAX) || (elt && decode_over_budget(c))) {
			if (is_array) {
				l.n--;
				more = true;
			} else {
				val_set_text(c, e, NULL, "...");
			}
			break;
		}
		nlmsg_len = NLMSG_ALIGN((uint64_t)h.nlmsg_len);
		if (h.nlmsg_len >= NLMSG_HDRLEN) {
			next_len = len >= nlmsg_len ? len - nlmsg_len : 0;
			next = next_len != 0;
		}
		if (!is_array && next) {
			is_array = true;
			e = vl_add(c, &l);
		}
		nlmsg_with_payload(&n, e, &h, off, len);
		if (!next)
			break;
		off += nlmsg_len;
		len = next_len;
	}
	if (is_array)
		val_set_array(v, NULL, l.it, l.n, more);
	v->name = name;
}

static void nl_iov_base(struct dctx *c, struct val *v, uint64_t base, uint64_t shown, void *arg)
{
	decode_netlink(c, v, "iov_base", base, shown, *(const int *)arg);
}

void decode_netlink_iovec(struct dctx *c, struct val *v, const char *name, uint64_t addr,
			  uint64_t cnt, int64_t data_size, int64_t fd)
{
	int family = netlink_fd_family(c, fd);

	if (family == NL_NOT_NETLINK)
		family = -1;
	decode_iovec_with(c, v, name, addr, cnt, data_size, nl_iov_base, &family);
}
