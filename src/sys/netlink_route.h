/* The NETLINK_ROUTE payloads (netlink_route.c), below netlink.c's dispatch. */
#ifndef RENACER_NETLINK_ROUTE_H
#define RENACER_NETLINK_ROUTE_H

#include <stdbool.h>
#include <stdint.h>

#include "sys/nlattr.h"

/*
 * A protocol's payload decoder: appends the payload of the message hdr (len
 * bytes at off) to l and returns true, or returns false for the generic
 * decoding.  netlink_route.c.
 */
struct nlmsghdr;
bool nl_decode_route(const struct nlctx *n, struct vlist *l, const struct nlmsghdr *hdr,
		     uint64_t off, unsigned len);

/*
 * The NETLINK_ROUTE messages beside links, addresses and routes
 * (netlink_route_more.c): appends the payload of a message of type (len
 * bytes at off, whose first byte, family, was read) to l and returns true,
 * or returns false for a type it does not decode.
 */
bool nl_decode_route_more(const struct nlctx *n, struct vlist *l, uint16_t type,
			  uint8_t family, uint64_t off, unsigned len);

/* An rtnl_link_stats64 attribute payload ({rx_packets=..., ...}), for
 * IFLA_STATS64 and the stats of RTM_*STATS; nla_fn's contract (nlattr.h). */
bool nla_link_stats64(const struct nlctx *n, struct val *v, uint64_t off, unsigned len,
		      const void *o);

#endif
