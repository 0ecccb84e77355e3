/*
 * The smaller netlink protocols as strace 6.1 prints them: NETLINK_NETFILTER
 * (SUBSYS<<8|MSG types and nfgenmsg), NETLINK_SELINUX's two messages,
 * NETLINK_XFRM's request flags, the NETLINK_GENERIC family names and
 * NETLINK_KOBJECT_UEVENT buffers.
 */
#include "sys/netlink_proto.h"

#include <arpa/inet.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include <linux/genetlink.h>
#include <linux/netfilter/nfnetlink.h>
#include <linux/netlink.h>
#include <linux/selinux_netlink.h>

#include "sys/decode_extra.h"
#include "xlat/addrfams.h"
#include "xlat/netfilter_versions.h"
#include "xlat/netlink_delete_flags.h"
#include "xlat/netlink_get_flags.h"
#include "xlat/netlink_new_flags.h"
#include "xlat/nf_acct_msg_types.h"
#include "xlat/nf_compat_msg_types.h"
#include "xlat/nf_cthelper_msg_types.h"
#include "xlat/nf_ctnetlink_exp_msg_types.h"
#include "xlat/nf_ctnetlink_msg_types.h"
#include "xlat/nf_cttimeout_msg_types.h"
#include "xlat/nf_hook_msg_types.h"
#include "xlat/nf_ipset_msg_types.h"
#include "xlat/nf_nftables_msg_types.h"
#include "xlat/nf_osf_msg_types.h"
#include "xlat/nf_queue_msg_types.h"
#include "xlat/nf_ulog_msg_types.h"
#include "xlat/nl_netfilter_msg_types.h"
#include "xlat/nl_netfilter_subsys_ids.h"
#include "xlat/nl_xfrm_types.h"
#include "util/xmalloc.h"
#include "util/banned.h"

/* ---- NETLINK_NETFILTER ---------------------------------------------------- */

/* The message types of each subsystem, by subsystem id. */
static const struct xlat *const nf_msg_types[] = {
	[NFNL_SUBSYS_CTNETLINK] = nf_ctnetlink_msg_types,
	[NFNL_SUBSYS_CTNETLINK_EXP] = nf_ctnetlink_exp_msg_types,
	[NFNL_SUBSYS_QUEUE] = nf_queue_msg_types,
	[NFNL_SUBSYS_ULOG] = nf_ulog_msg_types,
	[NFNL_SUBSYS_OSF] = nf_osf_msg_types,
	[NFNL_SUBSYS_IPSET] = nf_ipset_msg_types,
	[NFNL_SUBSYS_ACCT] = nf_acct_msg_types,
	[NFNL_SUBSYS_CTNETLINK_TIMEOUT] = nf_cttimeout_msg_types,
	[NFNL_SUBSYS_CTHELPER] = nf_cthelper_msg_types,
	[NFNL_SUBSYS_NFTABLES] = nf_nftables_msg_types,
	[NFNL_SUBSYS_NFT_COMPAT] = nf_compat_msg_types,
	[NFNL_SUBSYS_HOOK] = nf_hook_msg_types,
};

void nl_netfilter_type(struct dctx *c, struct val *v, const char *name, uint16_t type)
{
	unsigned subsys = type >> 8, msg = type & 0xff;
	struct val *it;

	if (!subsys) {
		val_set_enum(v, name, type, nl_netfilter_msg_types);
		return;
	}
	it = val_new_array(c, 3);
	val_set_enum(&it[0], NULL, subsys, nl_netfilter_subsys_ids);
	val_set_text(c, &it[1], NULL, "<<8|");
	if (subsys < ARRAY_SIZE(nf_msg_types) && nf_msg_types[subsys])
		val_set_enum(&it[2], NULL, msg, nf_msg_types[subsys]);
	else
		val_set_hex(&it[2], NULL, msg);
	val_set_op(v, name, it, 3, "");
}

/* The request flags of a message type by its name: NEW, GET, DEL (and
 * DESTROY); strace 6.1 keeps the common flags for the others (UPD*,
 * FLUSH*, the *DEFAULT* messages), as a sweep of every type showed. */
static const struct xlat *flags_by_name(const char *s)
{
	if (!s || strstr(s, "DEFAULT"))
		return NULL;
	if (strstr(s, "_NEW"))
		return netlink_new_flags;
	if (strstr(s, "_GET"))
		return netlink_get_flags;
	if (strstr(s, "_DEL") || strstr(s, "_DESTROY"))
		return netlink_delete_flags;
	return NULL;
}

const struct xlat *nl_netfilter_flags(uint16_t type)
{
	unsigned subsys = type >> 8;

	switch (subsys) {
	case NFNL_SUBSYS_CTNETLINK:
	case NFNL_SUBSYS_CTNETLINK_EXP:
	case NFNL_SUBSYS_ACCT:
	case NFNL_SUBSYS_CTNETLINK_TIMEOUT:
	case NFNL_SUBSYS_CTHELPER:
	case NFNL_SUBSYS_NFTABLES:
	case NFNL_SUBSYS_NFT_COMPAT:
	case NFNL_SUBSYS_HOOK:
		return flags_by_name(xlat_name(nf_msg_types[subsys], type & 0xff));
	default:
		return NULL;
	}
}

const struct xlat *nl_xfrm_flags(uint16_t type)
{
	return flags_by_name(xlat_name(nl_xfrm_types, type));
}

/* {nfgen_family=AF_INET, version=NFNETLINK_V0, res_id=htons(10)}, then the
 * attributes with their types in hex. */
bool nl_decode_netfilter(const struct nlctx *n, struct vlist *l, const struct nlmsghdr *hdr,
			 uint64_t off, unsigned len)
{
	struct nfgenmsg nf;
	struct val *f;

	if (hdr->nlmsg_type == NLMSG_DONE || len < sizeof(nf))
		return false;
	if (!nl_fetch(n, off, &nf, sizeof(nf))) {
		nl_addr(n, vl_add(n->c, l), NULL, off);
		return true;
	}
	f = val_new_array(n->c, 3);
	val_set_enum(&f[0], "nfgen_family", nf.nfgen_family, addrfams);
	val_set_enum(&f[1], "version", nf.version, netfilter_versions);
	if (hdr->nlmsg_type >> 8 == NFNL_SUBSYS_NFTABLES &&
	    ntohs(nf.res_id) == NFNL_SUBSYS_NFTABLES)
		val_set_named_num(n->c, &f[2], "res_id", nf.res_id,
				  "htons(NFNL_SUBSYS_NFTABLES)");
	else
		val_set_call_u(n->c, &f[2], "res_id", "htons", ntohs(nf.res_id));
	val_set_struct(vl_add(n->c, l), NULL, f, 3, false);
	if (len > NLA_ALIGN(sizeof(nf)))
		nl_attrs(n, vl_add(n->c, l), off + NLA_ALIGN(sizeof(nf)),
			 len - NLA_ALIGN(sizeof(nf)), NULL, NULL, 0, NULL);
	return true;
}

/* ---- NETLINK_SELINUX ------------------------------------------------------ */

bool nl_decode_selinux(const struct nlctx *n, struct vlist *l, const struct nlmsghdr *hdr,
		       uint64_t off, unsigned len)
{
	uint32_t x;
	struct val *f, *v;

	if (hdr->nlmsg_type != SELNL_MSG_SETENFORCE && hdr->nlmsg_type != SELNL_MSG_POLICYLOAD)
		return false;
	if (len < sizeof(x))
		return false;
	v = vl_add(n->c, l);
	if (!nl_fetch(n, off, &x, sizeof(x))) {
		nl_addr(n, v, NULL, off);
		return true;
	}
	f = val_new_array(n->c, 1);
	if (hdr->nlmsg_type == SELNL_MSG_SETENFORCE)
		val_set_int(f, "val", (int32_t)x);
	else
		val_set_uint(f, "seqno", x);
	val_set_struct(v, NULL, f, 1, false);
	return true;
}

/* ---- NETLINK_GENERIC ------------------------------------------------------ */

/* Reads one CTRL_CMD_GETFAMILY reply's id and name into d; false when it
 * has none. */
static bool genl_family(const struct nlmsghdr *h, struct xlat_data *d)
{
	const char *p = (const char *)NLMSG_DATA(h) + GENL_HDRLEN;
	const char *end = (const char *)h + h->nlmsg_len;
	bool got_id = false;

	d->str = NULL;
	while (p + NLA_HDRLEN <= end) {
		const struct nlattr *a = (const struct nlattr *)p;
		size_t alen = a->nla_len;

		if (alen < NLA_HDRLEN || p + alen > end)
			break;
		if (a->nla_type == CTRL_ATTR_FAMILY_ID && alen >= NLA_HDRLEN + 2) {
			uint16_t id;

			memcpy(&id, p + NLA_HDRLEN, sizeof(id));
			d->val = id;
			got_id = true;
		} else if (a->nla_type == CTRL_ATTR_FAMILY_NAME && alen > NLA_HDRLEN) {
			d->str = xstrndup(p + NLA_HDRLEN, alen - NLA_HDRLEN);
		}
		p += NLA_ALIGN(alen);
	}
	return got_id && d->str;
}

/* Dumps the families into *out (n entries); false when the kernel cannot
 * be asked. */
static bool genl_dump(struct xlat_data **out, size_t *count)
{
	struct {
		struct nlmsghdr h;
		struct genlmsghdr g;
	} req = {
		.h = { .nlmsg_len = sizeof(req), .nlmsg_type = GENL_ID_CTRL,
		       .nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP, .nlmsg_seq = 1 },
		.g = { .cmd = CTRL_CMD_GETFAMILY, .version = 1 },
	};
	static char buf[32768] __attribute__((aligned(4)));
	struct xlat_data *d = NULL;
	size_t n = 0, cap = 0;
	bool done = false;
	int fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_GENERIC);

	if (fd < 0)
		return false;
	if (send(fd, &req, sizeof(req), 0) != (ssize_t)sizeof(req)) {
		close(fd);
		return false;
	}
	while (!done) {
		ssize_t r = recv(fd, buf, sizeof(buf), 0);
		struct nlmsghdr *h = (struct nlmsghdr *)buf;
		int left = (int)r;

		if (r <= 0)
			break;
		for (; NLMSG_OK(h, left); h = NLMSG_NEXT(h, left)) {
			if (h->nlmsg_type == NLMSG_DONE || h->nlmsg_type == NLMSG_ERROR) {
				done = true;
				break;
			}
			ALLOC_GROW(d, n + 1, cap);
			if (genl_family(h, &d[n]))
				n++;
		}
	}
	close(fd);
	*out = d;
	*count = n;
	return true;
}

const struct xlat *nl_genl_families(void)
{
	static struct xlat table;
	static bool asked, ok;

	if (!asked) {
		struct xlat_data *d;
		size_t n;

		asked = true;
		ok = genl_dump(&d, &n);
		if (ok) {
			table.data = d;
			table.size = (uint32_t)n;
			table.type = XT_ENUM;
			table.unknown = "GENERIC_FAMILY_???";
		}
	}
	return ok ? &table : NULL;
}

/* ---- NETLINK_KOBJECT_UEVENT ----------------------------------------------- */

/* udev's monitor header (libudev's struct udev_monitor_netlink_header). */
struct udev_hdr {
	char prefix[8];                 /* "libudev" */
	uint32_t magic;                 /* htonl(0xfeedcafe) */
	uint32_t header_size;
	uint32_t properties_off;
	uint32_t properties_len;
	uint32_t filter_subsystem_hash;
	uint32_t filter_devtype_hash;
	uint32_t filter_tag_bloom_hi;
	uint32_t filter_tag_bloom_lo;
};

static void htonl_val(struct dctx *c, struct val *v, const char *name, uint32_t x)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "htonl(%#x)", ntohl(x));
	val_set_text(c, v, name, buf);
}

void nl_decode_uevent(struct dctx *c, struct val *v, const char *name, uint64_t addr,
		      uint64_t len)
{
	struct udev_hdr h;
	struct val *f, *it;

	if (len < sizeof(h) || !tread(c, addr, &h, sizeof(h)) ||
	    memcmp(h.prefix, "libudev", 8)) {
		val_read_buf(c, v, name, addr, len);
		return;
	}
	f = val_new_array(c, 9);
	val_set_str(c, &f[0], "prefix", h.prefix, strlen(h.prefix), false);
	htonl_val(c, &f[1], "magic", h.magic);
	val_set_uint(&f[2], "header_size", h.header_size);
	val_set_uint(&f[3], "properties_off", h.properties_off);
	val_set_uint(&f[4], "properties_len", h.properties_len);
	htonl_val(c, &f[5], "filter_subsystem_hash", h.filter_subsystem_hash);
	htonl_val(c, &f[6], "filter_devtype_hash", h.filter_devtype_hash);
	htonl_val(c, &f[7], "filter_tag_bloom_hi", h.filter_tag_bloom_hi);
	htonl_val(c, &f[8], "filter_tag_bloom_lo", h.filter_tag_bloom_lo);
	if (len == sizeof(h)) {
		val_set_struct(v, name, f, 9, false);
		return;
	}
	it = val_new_array(c, 2);
	val_set_struct(&it[0], NULL, f, 9, false);
	val_read_buf(c, &it[1], NULL, addr + sizeof(h), len - sizeof(h));
	val_set_array(v, name, it, 2, false);
}
