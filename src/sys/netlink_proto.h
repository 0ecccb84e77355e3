/*
 * The netlink protocol payload decoders beside NETLINK_ROUTE's
 * (netlink_route.h), below netlink.c's dispatch: NETLINK_SOCK_DIAG
 * (netlink_sock_diag.c), NETLINK_NETFILTER, NETLINK_SELINUX, the
 * NETLINK_GENERIC family names and NETLINK_KOBJECT_UEVENT
 * (netlink_misc.c).
 */
#ifndef RENACER_NETLINK_PROTO_H
#define RENACER_NETLINK_PROTO_H

#include <stdbool.h>
#include <stdint.h>

#include "sys/nlattr.h"

struct nlmsghdr;

/*
 * Payload decoders as nl_decode_route (netlink_route.h): each appends the
 * payload of hdr (len bytes at off) to l and returns true, or returns
 * false for the generic decoding.
 */
bool nl_decode_sock_diag(const struct nlctx *n, struct vlist *l, const struct nlmsghdr *hdr,
			 uint64_t off, unsigned len);
bool nl_decode_netfilter(const struct nlctx *n, struct vlist *l, const struct nlmsghdr *hdr,
			 uint64_t off, unsigned len);
bool nl_decode_selinux(const struct nlctx *n, struct vlist *l, const struct nlmsghdr *hdr,
		       uint64_t off, unsigned len);

/*
 * nlmsg_type of a NETLINK_NETFILTER message: SUBSYS<<8|MSG in every -X
 * style (strace's decode_nlmsg_type_netfilter).
 */
void nl_netfilter_type(struct dctx *c, struct val *v, const char *name, uint16_t type);
/* The NLM_F_* table of a NETLINK_NETFILTER / NETLINK_XFRM message type
 * (NULL: the common flags only). */
const struct xlat *nl_netfilter_flags(uint16_t type);
const struct xlat *nl_xfrm_flags(uint16_t type);

/*
 * The names of the generic netlink families as nlmsg_type values
 * ("nlctrl"), asked of the kernel once by a CTRL_CMD_GETFAMILY dump in
 * renacer's own network namespace, as strace does; NULL when the kernel
 * cannot be asked.  The table lives until the process ends.
 */
const struct xlat *nl_genl_families(void);

/*
 * v = a buffer of len bytes at addr sent or received on a
 * NETLINK_KOBJECT_UEVENT socket (strace's decode_netlink_kobject_uevent):
 * [{prefix="libudev", magic=htonl(0xfeedcafe), ...}, "properties"] when it
 * starts with libudev's monitor header, else a string ("add@/devices...").
 * Unreadable memory gives the address.
 */
void nl_decode_uevent(struct dctx *c, struct val *v, const char *name, uint64_t addr,
		      uint64_t len);

#endif
