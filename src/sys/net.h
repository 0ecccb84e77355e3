/*
 * Socket helpers shared by the socket decoders (net.c, sockopt.c, the
 * netlink and cmsg decoders): addresses and interfaces as strace's
 * PRINT_FIELD_INET_ADDR and PRINT_FIELD_IFINDEX show them.
 */
#ifndef RENACER_NET_H
#define RENACER_NET_H

#include "sys/decode.h"

/* v = name=inet_addr("1.2.3.4") for AF_INET, or inet_pton(AF_INET6,
 * "::1", &name) for AF_INET6 (shown without "name="); addr points to a
 * struct in_addr / in6_addr. */
void net_inet_addr_val(struct dctx *c, struct val *v, const char *name, int family,
		       const void *addr);

/* v = if_nametoindex("lo") for a known interface, else the number. */
void net_ifindex_val(struct dctx *c, struct val *v, const char *name, unsigned idx);

/* As net_inet_addr_val for an address field of 16 bytes whatever the
 * family (inet_diag_sockid's idiag_src): -X raw shows all 16 bytes. */
void net_inet_addr16_val(struct dctx *c, struct val *v, const char *name, int family,
			 const void *addr);

/* v = name=htons(80) for the big-endian 16-bit port at port (-X raw: the
 * two bytes as a hex string). */
void net_port_val(struct dctx *c, struct val *v, const char *name, const void *port);

#endif
