/*
 * -yy and -e decode-fds=socket,dev,pidfd: what strace 6.1 shows inside
 * <...> beside a descriptor instead of (or after) its path:
 *   sockets   UNIX-STREAM:[INO->PEER,"path"], TCP:[1.2.3.4:80->5.6.7.8:9],
 *             TCPv6:[[::1]:80], NETLINK:[ROUTE:PORTID], or PROTO:[INO]
 *   devices   /dev/null<char 1:3>
 *   pidfds    pid:1234
 * Unix peers come from NETLINK_SOCK_DIAG (unix_diag), the other sockets
 * from /proc/PID/net/{tcp,udp,tcp6,udp6,netlink} of the tracee's network
 * namespace.  The path of -y itself (fd_path) is here too: decode.c and the
 * decoders call down into this file, never the other way.
 */
#include "sys/decode.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <linux/sock_diag.h>
#include <linux/unix_diag.h>
#include <linux/inet_diag.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "sys/tmem.h"
#include "util/squote.h"
#include "util/strbuf.h"
#include "util/xmalloc.h"
#include "xlat/netlink_protocols.h"
#include "util/banned.h"

/* unix_diag by inode: peer inode and bound path; false when unknown. */
static bool unix_diag(uint64_t ino, uint32_t *peer, char *path, size_t *plen)
{
	struct {
		struct nlmsghdr nlh;
		struct unix_diag_req udr;
	} req;
	union {
		struct nlmsghdr nlh;
		char buf[8192];
	} resp;
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };
	bool found = false;
	ssize_t n;
	int fd = socket(AF_NETLINK, SOCK_DGRAM | SOCK_CLOEXEC, NETLINK_SOCK_DIAG);

	*peer = 0;
	*plen = 0;
	if (fd < 0)
		return false;
	memset(&req, 0, sizeof(req));
	req.nlh.nlmsg_len = sizeof(req);
	req.nlh.nlmsg_type = SOCK_DIAG_BY_FAMILY;
	req.nlh.nlmsg_flags = NLM_F_REQUEST;
	req.udr.sdiag_family = AF_UNIX;
	req.udr.udiag_states = (uint32_t)-1;
	req.udr.udiag_ino = (uint32_t)ino;
	req.udr.udiag_show = UDIAG_SHOW_NAME | UDIAG_SHOW_PEER;
	req.udr.udiag_cookie[0] = req.udr.udiag_cookie[1] = (uint32_t)-1;
	if (sendto(fd, &req, sizeof(req), 0, (struct sockaddr *)&sa, sizeof(sa)) < 0)
		goto out;
	n = recv(fd, &resp, sizeof(resp), 0);
	if (n < (ssize_t)sizeof(struct nlmsghdr))
		goto out;
	for (struct nlmsghdr *h = &resp.nlh; NLMSG_OK(h, (size_t)n); h = NLMSG_NEXT(h, n)) {
		struct unix_diag_msg *m = NLMSG_DATA(h);
		struct rtattr *a;
		int alen;

		if (h->nlmsg_type != SOCK_DIAG_BY_FAMILY ||
		    h->nlmsg_len < NLMSG_LENGTH(sizeof(*m)) || m->udiag_ino != (uint32_t)ino)
			continue;
		alen = (int)(h->nlmsg_len - NLMSG_LENGTH(sizeof(*m)));
		for (a = (struct rtattr *)(m + 1); RTA_OK(a, alen); a = RTA_NEXT(a, alen)) {
			size_t l = RTA_PAYLOAD(a);
			if (a->rta_type == UNIX_DIAG_PEER && l >= 4) {
				memcpy(peer, RTA_DATA(a), 4);
			} else if (a->rta_type == UNIX_DIAG_NAME && l) {
				if (l > 108)
					l = 108;
				memcpy(path, RTA_DATA(a), l);
				*plen = l;
			}
		}
		/* strace: neither a peer nor a name is nothing found */
		found = *peer || *plen;
		break;
	}
out:
	close(fd);
	return found;
}

/* strace's endpoints of an inet socket: "src:port->dst:port", or
 * "src:port" when there is no peer (addresses of 4 or 16 bytes by
 * family); false when an address cannot be written. */
static bool inet_text(struct strbuf *sb, int family, const void *src, unsigned sport,
		      const void *dst, unsigned dport)
{
	static const unsigned char zero[16];
	char s[INET6_ADDRSTRLEN], d[INET6_ADDRSTRLEN];
	const char *ob = family == AF_INET6 ? "[" : "", *cb = family == AF_INET6 ? "]" : "";
	size_t alen = family == AF_INET6 ? 16 : 4;

	if (!inet_ntop(family, src, s, sizeof(s)))
		return false;
	if (dport || memcmp(zero, dst, alen)) {
		if (!inet_ntop(family, dst, d, sizeof(d)))
			return false;
		strbuf_addf(sb, "%s%s%s:%u->%s%s%s:%u", ob, s, cb, sport, ob, d, cb, dport);
	} else {
		strbuf_addf(sb, "%s%s%s:%u", ob, s, cb, sport);
	}
	return true;
}

/*
 * TCP, UDP, ... by inet_diag (a dump of the family and protocol, every
 * state, as strace asks): "src->dst", or "src" when there is no peer.
 */
static bool inet_info(struct strbuf *sb, int family, int protocol, uint64_t ino)
{
	struct {
		struct nlmsghdr nlh;
		struct inet_diag_req_v2 idr;
	} req;
	static union {
		struct nlmsghdr nlh;
		char buf[16384];
	} resp;
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };
	bool found = false, done = false;
	int fd = socket(AF_NETLINK, SOCK_DGRAM | SOCK_CLOEXEC, NETLINK_SOCK_DIAG);

	if (fd < 0)
		return false;
	memset(&req, 0, sizeof(req));
	req.nlh.nlmsg_len = sizeof(req);
	req.nlh.nlmsg_type = SOCK_DIAG_BY_FAMILY;
	req.nlh.nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP;
	req.idr.sdiag_family = (uint8_t)family;
	req.idr.sdiag_protocol = (uint8_t)protocol;
	req.idr.idiag_states = (uint32_t)-1;
	if (sendto(fd, &req, sizeof(req), 0, (struct sockaddr *)&sa, sizeof(sa)) < 0)
		goto out;
	while (!found && !done) {
		ssize_t n = recv(fd, &resp, sizeof(resp), 0);
		if (n <= 0)
			break;
		for (struct nlmsghdr *h = &resp.nlh; NLMSG_OK(h, (size_t)n); h = NLMSG_NEXT(h, n)) {
			struct inet_diag_msg *m = NLMSG_DATA(h);

			if (h->nlmsg_type != SOCK_DIAG_BY_FAMILY) {
				done = true;      /* NLMSG_DONE or an error */
				break;
			}
			if (h->nlmsg_len < NLMSG_LENGTH(sizeof(*m)) || m->idiag_inode != ino)
				continue;
			found = inet_text(sb, family, m->id.idiag_src, ntohs(m->id.idiag_sport),
					  m->id.idiag_dst, ntohs(m->id.idiag_dport));
			break;
		}
	}
out:
	close(fd);
	return found;
}

/* "ROUTE:PORTID" of a bound netlink socket (the protocol's number when
 * it has no name). */
static void netlink_text(struct strbuf *sb, unsigned proto, unsigned long portid)
{
	const char *name = NULL;

	for (uint32_t i = 0; i < netlink_protocols->size; i++)
		if (netlink_protocols->data[i].val == proto)
			name = netlink_protocols->data[i].str;
	if (name && !strncmp(name, "NETLINK_", 8))
		strbuf_addf(sb, "%s:%lu", name + 8, portid);
	else
		strbuf_addf(sb, "%u", proto);
}

/* NETLINK: "ROUTE:PORTID" from /proc/PID/net/netlink (bound sockets). */
static bool netlink_info(struct strbuf *sb, pid_t pid, uint64_t ino)
{
	char path[64], line[512];
	FILE *f;
	bool found = false;

	snprintf(path, sizeof(path), "/proc/%d/net/netlink", (int)pid);
	f = fopen(path, "re");
	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f)) {
		unsigned proto;
		unsigned long portid;
		unsigned long long inode;

		if (sscanf(line, "%*s %u %lu %*s %*s %*s %*s %*s %*s %llu",
			   &proto, &portid, &inode) != 3 || inode != ino || !portid)
			continue;
		netlink_text(sb, proto, portid);
		found = true;
	}
	fclose(f);
	return found;
}

/* strace's inet protocols. */
static const struct {
	const char *name;
	int family, protocol;
} inet_protos[] = {
	{ "TCP", AF_INET, IPPROTO_TCP }, { "UDP", AF_INET, IPPROTO_UDP },
	{ "UDPLITE", AF_INET, IPPROTO_UDPLITE }, { "DCCP", AF_INET, IPPROTO_DCCP },
	{ "SCTP", AF_INET, IPPROTO_SCTP }, { "L2TP/IP", AF_INET, 115 /* IPPROTO_L2TP */ },
	{ "PING", AF_INET, IPPROTO_ICMP }, { "RAW", AF_INET, IPPROTO_RAW },
	{ "TCPv6", AF_INET6, IPPROTO_TCP }, { "UDPv6", AF_INET6, IPPROTO_UDP },
	{ "UDPLITEv6", AF_INET6, IPPROTO_UDPLITE }, { "DCCPv6", AF_INET6, IPPROTO_DCCP },
	{ "SCTPv6", AF_INET6, IPPROTO_SCTP }, { "L2TP/IPv6", AF_INET6, 115 /* IPPROTO_L2TP */ },
	{ "PINGv6", AF_INET6, IPPROTO_ICMP }, { "RAWv6", AF_INET6, IPPROTO_RAW },
};

/*
 * strace keeps the first details found for a socket inode in a cache of
 * 1024 slots (by inode) and shows them from then on, even after the
 * connection is gone (a socket reset by its peer still shows its
 * endpoints); details not found are not cached.  The same here.
 */
#define SOCK_CACHE 1024u
static struct {
	unsigned long long ino;
	char *details;
} sock_cache[SOCK_CACHE];

static const char *cache_get(unsigned long long ino)
{
	unsigned k = (unsigned)(ino & (SOCK_CACHE - 1));
	return sock_cache[k].ino == ino ? sock_cache[k].details : NULL;
}

static void cache_put(unsigned long long ino, const char *details)
{
	unsigned k = (unsigned)(ino & (SOCK_CACHE - 1));

	free(sock_cache[k].details);
	sock_cache[k].ino = ino;
	sock_cache[k].details = xstrdup(details);
}

/* strace's printsocket: "PROTO:[...]" for socket:[INO]; NULL when the
 * protocol cannot be read (the plain path shows then).  known: what a
 * recording saw of the socket (tmem_fd_link()); else read from link. */
static const char *socket_detail(struct dctx *c, const char *link, const char *target,
				 const struct tmem_fdlink *known)
{
	char proto[64];
	struct strbuf sb = STRBUF_INIT;
	unsigned long long ino;
	ssize_t n;
	const char *ret;

	if (sscanf(target, "socket:[%llu]", &ino) != 1)
		return NULL;
	if ((ret = cache_get(ino)))
		return ret;
	if (known->proto && *known->proto) {
		snprintf(proto, sizeof(proto), "%s", known->proto);
	} else {
		n = getxattr(link, "system.sockprotoname", proto, sizeof(proto) - 1);
		if (n <= 0)
			return NULL;
		proto[n] = '\0';
	}
	strbuf_addf(&sb, "%s:[", proto);
	size_t open = sb.len;
	bool found = false;
	if (!strncmp(proto, "UNIX", 4)) {
		uint32_t peer;
		char path[109];
		size_t plen;

		strbuf_addf(&sb, "%llu", ino);
		if (known->unix_known) {
			/* as recorded with the call (the socket may be gone) */
			peer = known->unix_peer;
			plen = known->unix_plen < sizeof(path) ? known->unix_plen : sizeof(path);
			memcpy(path, known->unix_path, plen);
			found = peer || plen;
		} else {
			found = unix_diag(ino, &peer, path, &plen);
		}
		if (found) {
			if (peer)
				strbuf_addf(&sb, "->%" PRIu32, peer);
			if (plen) {
				size_t l = strnlen(path + (path[0] == '\0'), plen - (path[0] == '\0'));
				strbuf_addch(&sb, ',');
				if (path[0] == '\0') {
					strbuf_addch(&sb, '@');
					render_quoted(&sb, path + 1, l, NULL);
				} else {
					render_quoted(&sb, path, l, NULL);
				}
			}
		}
	} else if (!strcmp(proto, "NETLINK")) {
		if (known->nl_known)
			/* as recorded with the call */
			found = known->nl_portid && (netlink_text(&sb, known->nl_proto,
								  known->nl_portid), true);
		else
			found = netlink_info(&sb, c->pid, ino);
		if (!found)
			strbuf_addf(&sb, "%llu", ino);
	} else {
		int k = -1;
		for (size_t i = 0; i < sizeof(inet_protos) / sizeof(inet_protos[0]); i++)
			if (!strcmp(proto, inet_protos[i].name))
				k = (int)i;
		/* a protocol strace does not know: the plain socket:[INO] */
		if (k < 0) {
			strbuf_release(&sb);
			return NULL;
		}
		if (known->inet_known && known->inet_family == inet_protos[k].family)
			/* as recorded with the call; a socket with no port is in
			 * no table inet_diag dumps */
			found = known->inet_sport &&
				inet_text(&sb, known->inet_family, known->inet_saddr,
					  known->inet_sport, known->inet_daddr, known->inet_dport);
		else
			found = inet_info(&sb, inet_protos[k].family, inet_protos[k].protocol, ino);
		if (!found) {
			strbuf_setlen(&sb, open);
			strbuf_addf(&sb, "%llu", ino);
		}
	}
	strbuf_addch(&sb, ']');
	if (found)
		cache_put(ino, sb.buf);
	ret = arena_strndup(c->arena, sb.buf, sb.len);
	strbuf_release(&sb);
	return ret;
}

/* strace's printpidfd: "pid:N" from /proc/PID/fdinfo/FD (a recording's:
 * as recorded with the call, in known). */
static const char *pidfd_detail(struct dctx *c, int64_t fd, const struct tmem_fdlink *known)
{
	char path[64], line[256];
	FILE *f;
	const char *ret = NULL;

	if (known->pidfd_known) {
		if (known->pidfd_pid <= 0)
			return NULL;
		snprintf(line, sizeof(line), "pid:%d", known->pidfd_pid);
		return arena_strndup(c->arena, line, strlen(line));
	}
	snprintf(path, sizeof(path), "/proc/%d/fdinfo/%d", (int)c->pid, (int)fd);
	f = fopen(path, "re");
	if (!f)
		return NULL;
	while (fgets(line, sizeof(line), f)) {
		int pid;
		if (sscanf(line, "Pid:\t%d", &pid) == 1) {
			if (pid > 0) {
				snprintf(line, sizeof(line), "pid:%d", pid);
				ret = arena_strndup(c->arena, line, strlen(line));
			}
			break;
		}
	}
	fclose(f);
	return ret;
}

/* strace's printdev: "<char 1:3>" for a character or block device path. */
static const char *dev_detail(struct dctx *c, const char *target)
{
	struct stat st;
	char buf[64];

	if (target[0] != '/' || stat(target, &st) < 0 ||
	    (!S_ISCHR(st.st_mode) && !S_ISBLK(st.st_mode)))
		return NULL;
	snprintf(buf, sizeof(buf), "<%s %u:%u>", S_ISBLK(st.st_mode) ? "block" : "char",
		 major(st.st_rdev), minor(st.st_rdev));
	return arena_strndup(c->arena, buf, strlen(buf));
}

/* fd_path(), and *info what a recording knew beyond the path (see
 * tmem_fd_link()) */
static const char *fd_path_info(struct dctx *c, int64_t fd, struct tmem_fdlink *info)
{
	char target[PATH_MAX];
	ssize_t n;

	memset(info, 0, sizeof(*info));
	if (!c->opts || !c->opts->decode_fds || (fd < 0 && fd != AT_FDCWD))
		return NULL;
	/* -e decode-fds= without path: AT_FDCWD shows no directory */
	if (fd == AT_FDCWD && c->opts->fd_details && !(c->opts->fd_details & DECODE_FD_PATH))
		return NULL;
	n = tmem_fd_link(c->tid, fd, target, sizeof(target), info);
	if (n <= 0)
		return NULL;
	info->target = NULL;     /* (target is ours) */
	return arena_strndup(c->arena, target, (size_t)n);
}

const char *fd_path(struct dctx *c, int64_t fd)
{
	struct tmem_fdlink info;

	return fd_path_info(c, fd, &info);
}

void fd_describe(struct dctx *c, int64_t fd, const char **path, const char **detail)
{
	unsigned d = c->opts ? c->opts->fd_details : 0;
	struct tmem_fdlink info;
	char link[64];

	*detail = NULL;
	*path = fd_path_info(c, fd, &info);
	if (!*path || fd < 0)
		return;
	if (!d)
		return;          /* -y alone (or no decode-fds mask): the path */
	snprintf(link, sizeof(link), "/proc/%d/fd/%d", (int)c->tid, (int)fd);
	if ((d & DECODE_FD_SOCKET) && (*detail = socket_detail(c, link, *path, &info))) {
		*path = NULL;
		return;
	}
	if ((d & DECODE_FD_DEV) && (*detail = dev_detail(c, *path)))
		return;
	if ((d & DECODE_FD_PIDFD) && !strcmp(*path, "anon_inode:[pidfd]") &&
	    (*detail = pidfd_detail(c, fd, &info))) {
		*path = NULL;
		return;
	}
	if (!(d & DECODE_FD_PATH))
		*path = NULL;
}
