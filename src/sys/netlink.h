/*
 * Netlink payloads as strace prints them: which sockets are netlink sockets
 * (and of which protocol), nlmsghdr chains, NLMSG_ERROR/NLMSG_DONE; the
 * protocol decoders (netlink_route.h) plug in below, and they and this file
 * share the buffer and nlattr helpers of nlattr.h.
 */
#ifndef RENACER_NETLINK_H
#define RENACER_NETLINK_H

#include <stdbool.h>
#include <stdint.h>

#include "sys/decode.h"
#include "sys/nlattr.h"

/* netlink_fd_family(): the fd is no netlink socket. */
#define NL_NOT_NETLINK (-2)

/*
 * Asks the kernel what fd of the tracee is (strace's getfdproto and
 * get_fd_nl_family): NL_NOT_NETLINK for anything but a netlink socket, else
 * its protocol (NETLINK_ROUTE, ...) or -1 when the protocol cannot be found.
 * Protocols are cached by socket inode only, so close/dup cannot make the
 * answer stale.
 */
int netlink_fd_family(struct dctx *c, int64_t fd);

/*
 * v = the netlink messages in len bytes at addr, as strace's decode_netlink:
 * [[{nlmsghdr}, payload], ...]; family as netlink_fd_family() gave it (-1:
 * unknown, generic decoding only).  Unreadable memory gives addresses, never
 * stale bytes; at most the string limit of messages and attributes are shown
 * unless opts->verbose.
 */
void decode_netlink(struct dctx *c, struct val *v, const char *name, uint64_t addr,
		    uint64_t len, int family);

/*
 * The iovec array of a msghdr whose msg_name is AF_NETLINK (strace's
 * IOV_DECODE_NETLINK): like decode_iovec (decode.h), but each iov_base is
 * decoded by decode_netlink with the family of fd.
 */
void decode_netlink_iovec(struct dctx *c, struct val *v, const char *name, uint64_t addr,
			  uint64_t cnt, int64_t data_size, int64_t fd);

#endif
