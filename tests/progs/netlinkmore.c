/*
 * Netlink protocols beside NETLINK_ROUTE for tests/t/decode_netlink_more.sh:
 * sock_diag requests and replies of every family strace decodes (inet,
 * unix, netlink, packet, smc) with their attributes, real dumps of this
 * process's own sockets, and messages of NETLINK_GENERIC, NETLINK_AUDIT,
 * NETLINK_SELINUX, NETLINK_KOBJECT_UEVENT, NETLINK_NETFILTER and NETLINK_XFRM
 * (not NETLINK_CRYPTO, which renacer does not decode), an extended ACK;
 * truncated messages and messages running into an unmapped page.  Replies
 * are faked by sending messages without NLM_F_REQUEST, which the decoders
 * take for replies as strace does.
 */
#include <arpa/inet.h>
#include <linux/genetlink.h>
#include <linux/if_link.h>
#include <linux/inet_diag.h>
#include <linux/mptcp.h>
#include <linux/netfilter/nfnetlink.h>
#include <linux/netlink.h>
#include <linux/netlink_diag.h>
#include <linux/rtnetlink.h>
#include <linux/packet_diag.h>
#include <linux/selinux_netlink.h>
#include <linux/smc_diag.h>
#include <linux/sock_diag.h>
#include <linux/tcp.h>
#include <linux/tls.h>
#include <linux/unix_diag.h>
#include <linux/audit.h>
#include <linux/xfrm.h>
#include <netinet/in.h>
#include <stddef.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#ifndef SOCK_DESTROY
#define SOCK_DESTROY 21
#endif

static union {
	struct nlmsghdr h;
	char b[4096];
} msg;
static char rbuf[65536];

/* Starts a message of type and flags with len bytes of payload p. */
static void start(uint16_t type, uint16_t flags, const void *p, size_t len)
{
	memset(&msg, 0, sizeof(msg));
	msg.h.nlmsg_len = NLMSG_LENGTH(len);
	msg.h.nlmsg_type = type;
	msg.h.nlmsg_flags = flags;
	msg.h.nlmsg_seq = 7;
	if (len)
		memcpy(NLMSG_DATA(&msg.h), p, len);
}

/* Appends an attribute of type with len bytes of data. */
static void attr(uint16_t type, const void *data, size_t len)
{
	struct nlattr *a = (struct nlattr *)(msg.b + NLMSG_ALIGN(msg.h.nlmsg_len));

	a->nla_type = type;
	a->nla_len = (uint16_t)(NLA_HDRLEN + len);
	if (len)
		memcpy((char *)a + NLA_HDRLEN, data, len);
	msg.h.nlmsg_len = (uint32_t)(NLMSG_ALIGN(msg.h.nlmsg_len) + NLA_ALIGN(a->nla_len));
}

static void attr32(uint16_t type, uint32_t x)
{
	attr(type, &x, sizeof(x));
}

static void attr8(uint16_t type, uint8_t x)
{
	attr(type, &x, sizeof(x));
}

static void send_len(int fd, size_t len)
{
	sendto(fd, &msg, len, MSG_DONTWAIT, NULL, 0);
}

/* Reads what the kernel answered to a request: the kernel answers while
 * the send is made (a dump's later parts as they are read), so reading
 * until EAGAIN gives the same calls every run. */
static void drain(int fd, uint16_t flags)
{
	if (!(flags & NLM_F_REQUEST))
		return;
	for (int i = 0; i < 256; i++)
		if (recv(fd, rbuf, sizeof(rbuf), MSG_DONTWAIT) <= 0)
			break;
}

static void ask_len(int fd, size_t len)
{
	uint16_t flags = msg.h.nlmsg_flags;

	send_len(fd, len);
	drain(fd, flags);
}

/* Sends the message, then reads the kernel's answers. */
static void ask(int fd)
{
	ask_len(fd, msg.h.nlmsg_len);
}

/* A netlink socket of proto, bound: an unbound socket is in no table the
 * tracer can look it up in until its first send binds it. */
static int nlsock(int proto)
{
	struct sockaddr_nl nl = { .nl_family = AF_NETLINK };
	int fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, proto);

	if (fd >= 0)
		bind(fd, (struct sockaddr *)&nl, sizeof(nl));
	return fd;
}

static void inet_id(struct inet_diag_sockid *id, int family)
{
	id->idiag_sport = htons(4321);
	id->idiag_dport = htons(80);
	if (family == AF_INET6) {
		inet_pton(AF_INET6, "fe80::1", id->idiag_src);
		inet_pton(AF_INET6, "::1", id->idiag_dst);
	} else {
		inet_pton(AF_INET, "127.0.0.1", id->idiag_src);
		inet_pton(AF_INET, "10.1.2.3", id->idiag_dst);
	}
	id->idiag_if = 1;
	id->idiag_cookie[0] = 0xdeadbeef;
	id->idiag_cookie[1] = 5;
}

/* Appends an attribute to a nested list being built in buf (*len bytes). */
static void nest(char *buf, size_t *len, uint16_t type, const void *data, size_t dlen)
{
	struct nlattr *a = (struct nlattr *)(buf + *len);

	a->nla_type = type;
	a->nla_len = (uint16_t)(NLA_HDRLEN + dlen);
	if (dlen)
		memcpy((char *)a + NLA_HDRLEN, data, dlen);
	*len += NLA_ALIGN(a->nla_len);
}

/* A bytecode of one op and the data its code takes. */
static void bytecode(uint8_t code, const void *data, size_t dlen)
{
	char bc[64];
	struct inet_diag_bc_op op = { code, (uint8_t)(4 + dlen), 0 };

	memcpy(bc, &op, sizeof(op));
	memcpy(bc + sizeof(op), data, dlen);
	attr(INET_DIAG_REQ_BYTECODE, bc, sizeof(op) + dlen);
}

/* inet_diag's nested and array attributes, and the bytecode of requests. */
static void inet_more(int fd)
{
	struct inet_diag_req_v2 r = { .sdiag_family = AF_INET6, .sdiag_protocol = IPPROTO_TCP };
	struct inet_diag_msg m = { .idiag_family = AF_INET, .idiag_state = 1 };
	struct tcp_diag_md5sig md[2];
	uint64_t v = 0x0102030405060708ULL;
	char ulp[512], tls[64], mp[256], st[64], sts[64];
	size_t ulen = 0, tlen = 0, mlen = 0, slen = 0, sslen = 0;
	struct { struct inet_diag_hostcond hc; uint8_t a[16]; } hc;
	struct inet_diag_bc_op op2 = { INET_DIAG_BC_NOP, 0, 1000 };
	struct inet_diag_markcond mark = { 5, 0xff };
	uint32_t ifindex = 1, fdv = 3;

	/* no stack garbage in the padding after prefix_len */
	memset(&hc, 0, sizeof(hc));
	hc.hc.family = AF_INET6;
	hc.hc.prefix_len = 64;
	hc.hc.port = -1;
	start(SOCK_DIAG_BY_FAMILY, NLM_F_REQUEST, &r, sizeof(r));
	inet_pton(AF_INET6, "fe80::2", hc.a);
	bytecode(INET_DIAG_BC_S_COND, &hc, sizeof(hc));
	hc.hc.family = AF_INET;
	bytecode(INET_DIAG_BC_D_COND, &hc, sizeof(hc.hc) + 2);
	hc.hc.family = AF_UNIX;
	bytecode(INET_DIAG_BC_S_COND, &hc, sizeof(hc.hc) + 4);
	bytecode(INET_DIAG_BC_D_COND, &hc, sizeof(hc.hc));
	bytecode(INET_DIAG_BC_S_COND, &hc, 6);
	bytecode(INET_DIAG_BC_S_GE, &op2, sizeof(op2));
	bytecode(INET_DIAG_BC_D_LE, &op2, 2);
	bytecode(INET_DIAG_BC_DEV_COND, &ifindex, sizeof(ifindex));
	bytecode(INET_DIAG_BC_DEV_COND, &ifindex, 3);
	bytecode(INET_DIAG_BC_MARK_COND, &mark, sizeof(mark));
	bytecode(INET_DIAG_BC_MARK_COND, &mark, 4);
	bytecode(INET_DIAG_BC_S_EQ, &v, sizeof(v));
	bytecode(INET_DIAG_BC_JMP, NULL, 0);
	nest(sts, &sslen, SK_DIAG_BPF_STORAGE_REQ_MAP_FD, &fdv, sizeof(fdv));
	attr(INET_DIAG_REQ_SK_BPF_STORAGES, sts, sslen);
	ask(fd);

	memset(md, 0, sizeof(md));
	md[0].tcpm_family = AF_INET;
	md[0].tcpm_prefixlen = 32;
	md[0].tcpm_keylen = 3;
	inet_pton(AF_INET, "1.2.3.4", md[0].tcpm_addr);
	memcpy(md[0].tcpm_key, "abc", 3);
	md[1].tcpm_family = AF_INET6;
	md[1].tcpm_prefixlen = 64;
	md[1].tcpm_keylen = 2;
	inet_pton(AF_INET6, "fe80::1", md[1].tcpm_addr);
	for (uint16_t t = TLS_INFO_VERSION; t <= TLS_INFO_RXCONF; t++)
		nest(tls, &tlen, t, &v, 2);
	nest(tls, &tlen, TLS_INFO_ZC_RO_TX, NULL, 0);
	{
		uint16_t x = TLS_1_3_VERSION;

		nest(tls, &tlen, TLS_INFO_VERSION, &x, sizeof(x));
		x = TLS_CIPHER_AES_GCM_256;
		nest(tls, &tlen, TLS_INFO_CIPHER, &x, sizeof(x));
		x = TLS_CONF_SW;
		nest(tls, &tlen, TLS_INFO_TXCONF, &x, sizeof(x));
	}
	for (uint16_t t = MPTCP_SUBFLOW_ATTR_TOKEN_REM; t <= MPTCP_SUBFLOW_ATTR_PAD + 1; t++)
		nest(mp, &mlen, t, &v, t % 2 ? 8 : 4);
	nest(ulp, &ulen, INET_ULP_INFO_TLS | NLA_F_NESTED, tls, tlen);
	nest(ulp, &ulen, INET_ULP_INFO_MPTCP, mp, mlen);
	nest(ulp, &ulen, INET_ULP_INFO_NAME, "mptcp", 6);
	nest(st, &slen, SK_DIAG_BPF_STORAGE_MAP_ID, &fdv, sizeof(fdv));
	nest(st, &slen, SK_DIAG_BPF_STORAGE_MAP_VALUE, "\1\2\3\4", 4);
	nest(st, &slen, SK_DIAG_BPF_STORAGE_PAD, NULL, 0);
	nest(sts, &sslen, SK_DIAG_BPF_STORAGE, st, slen);
	start(SOCK_DIAG_BY_FAMILY, NLM_F_MULTI, &m, sizeof(m));
	attr(INET_DIAG_MD5SIG, md, sizeof(md));
	attr(INET_DIAG_MD5SIG, md, 50);
	attr(INET_DIAG_ULP_INFO, ulp, ulen);
	attr(INET_DIAG_SK_BPF_STORAGES | NLA_F_NESTED, sts + 8, sslen - 8);
	attr(INET_DIAG_PAD, &v, 4);
	ask(fd);
}

/* An NLMSG_ERROR with an extended ACK (NETLINK_EXT_ACK): the kernel's
 * message follows the echoed request. */
static void extack(void)
{
	int fd = nlsock(NETLINK_ROUTE), one = 1;
	struct ifinfomsg ifi = { .ifi_family = AF_UNSPEC };
	char info[32];
	size_t ilen = 0;

	if (fd < 0)
		return;
	setsockopt(fd, SOL_NETLINK, NETLINK_EXT_ACK, &one, sizeof(one));
	nest(info, &ilen, IFLA_INFO_KIND, "nosuchk0", 9);
	start(RTM_NEWLINK, NLM_F_REQUEST | NLM_F_ACK | NLM_F_CREATE | NLM_F_EXCL, &ifi, sizeof(ifi));
	attr(IFLA_LINKINFO | NLA_F_NESTED, info, ilen);
	ask(fd);
	setsockopt(fd, SOL_NETLINK, NETLINK_CAP_ACK, &one, sizeof(one));
	ask(fd);
	close(fd);
}

/* A TCP socket listening on port 4321 of every address: the test runs in
 * a network namespace of its own, where the dumps show only this
 * process's sockets and the port is free. */
static int listener(void)
{
	struct sockaddr_in sin = { .sin_family = AF_INET, .sin_port = htons(4321) };
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, IPPROTO_TCP);

	if (fd >= 0 && (bind(fd, (struct sockaddr *)&sin, sizeof(sin)) || listen(fd, 3))) {
		close(fd);
		fd = -1;
	}
	return fd;
}

/* "serve": sockets for ss to list (a TCP listener, a named unix listener,
 * a unix pair), kept open until the test kills this process. */
static int serve(void)
{
	struct sockaddr_un sun = { .sun_family = AF_UNIX, .sun_path = "\0renacer-nl" };
	int ufd = socket(AF_UNIX, SOCK_STREAM, 0);
	int sv[2];

	if (listener() < 0 || ufd < 0 ||
	    bind(ufd, (struct sockaddr *)&sun, offsetof(struct sockaddr_un, sun_path) + 11) ||
	    listen(ufd, 2) || socketpair(AF_UNIX, SOCK_DGRAM, 0, sv))
		return 1;
	if (write(1, "ready\n", 6) != 6)
		return 1;
	for (;;)
		pause();
}

static void sock_diag(char *page)
{
	int fd = nlsock(NETLINK_SOCK_DIAG);
	int lfd = listener();
	int pfd = socket(AF_PACKET, SOCK_RAW | SOCK_CLOEXEC, 0);
	int sv[2] = { -1, -1 };

	if (fd < 0)
		return;
	/* a unix socket pair and a packet socket for the dumps */
	socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv);

	/* inet_diag_req_v2: a dump of listening TCP sockets with all the
	 * extensions, and crafted requests with every field set */
	{
		struct inet_diag_req_v2 r = { .sdiag_family = AF_INET,
					      .sdiag_protocol = IPPROTO_TCP,
					      .idiag_ext = 0xff,
					      .idiag_states = 1 << 10 };

		start(SOCK_DIAG_BY_FAMILY, NLM_F_REQUEST | NLM_F_DUMP, &r, sizeof(r));
		ask(fd);
		r.idiag_ext = 0;
		r.idiag_states = 0xffffffff;
		inet_id(&r.id, AF_INET);
		start(SOCK_DIAG_BY_FAMILY, NLM_F_REQUEST, &r, sizeof(r));
		attr(INET_DIAG_REQ_BYTECODE, "\x01\x02\x03\x04\x05", 5);
		attr32(INET_DIAG_REQ_PROTOCOL, IPPROTO_MPTCP);
		attr(INET_DIAG_REQ_SK_BPF_STORAGES, "", 0);
		attr(0x7f, "x", 1);
		ask(fd);
		r.sdiag_family = AF_INET6;
		r.sdiag_protocol = 0xfe;
		r.idiag_ext = 0x81;
		r.idiag_states = 0;
		r.pad = 3;
		inet_id(&r.id, AF_INET6);
		r.id.idiag_if = 0x7ffff;
		start(SOCK_DIAG_BY_FAMILY, NLM_F_REQUEST, &r, sizeof(r));
		ask(fd);
		/* SOCK_DESTROY, a short request, one cut by the end of the
		 * buffer, one into an unmapped page */
		start(SOCK_DESTROY, NLM_F_REQUEST | NLM_F_ACK, &r, sizeof(r));
		ask(fd);
		start(SOCK_DIAG_BY_FAMILY, NLM_F_REQUEST, &r, 6);
		ask(fd);
		start(SOCK_DIAG_BY_FAMILY, NLM_F_REQUEST, &r, sizeof(r));
		ask_len(fd, NLMSG_HDRLEN + 20);
		if (page) {
			memcpy(page + 4096 - NLMSG_HDRLEN - 8, &msg, NLMSG_HDRLEN + 8);
			sendto(fd, page + 4096 - NLMSG_HDRLEN - 8, msg.h.nlmsg_len,
			       MSG_DONTWAIT, NULL, 0);
		}
	}

	/* the old inet_diag_req of TCPDIAG_GETSOCK/DCCPDIAG_GETSOCK */
	{
		struct inet_diag_req r = { .idiag_family = AF_INET, .idiag_src_len = 8,
					   .idiag_dst_len = 16, .idiag_ext = 2,
					   .idiag_states = 6, .idiag_dbs = 9 };

		inet_id(&r.id, AF_INET);
		start(TCPDIAG_GETSOCK, NLM_F_REQUEST, &r, sizeof(r));
		attr(INET_DIAG_REQ_BYTECODE, "\x02\x08\x0c\x00\x00\x00\xe8\x03", 8);
		ask(fd);
		r.idiag_family = AF_INET6;
		inet_id(&r.id, AF_INET6);
		start(DCCPDIAG_GETSOCK, NLM_F_REQUEST | NLM_F_ROOT, &r, sizeof(r));
		ask(fd);
	}

	/* inet_diag_msg replies with every attribute */
	{
		struct inet_diag_msg m = { .idiag_family = AF_INET, .idiag_state = 1,
					   .idiag_timer = 2, .idiag_retrans = 3,
					   .idiag_expires = 4, .idiag_rqueue = 5,
					   .idiag_wqueue = 6, .idiag_uid = 7, .idiag_inode = 8 };
		struct inet_diag_meminfo mi = { 1, 2, 3, 4 };
		uint32_t skmem[10] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 };
		uint64_t cg = 0x123456789;
		uint16_t sockopt = 0x0355;
		uint8_t info[40] = { 1, 2, 3 };

		inet_id(&m.id, AF_INET);
		start(SOCK_DIAG_BY_FAMILY, NLM_F_MULTI, &m, sizeof(m));
		attr(INET_DIAG_MEMINFO, &mi, sizeof(mi));
		attr(INET_DIAG_INFO, info, sizeof(info));
		attr(INET_DIAG_VEGASINFO, info, 16);
		attr(INET_DIAG_CONG, "cubic", 6);
		attr8(INET_DIAG_TOS, 0x10);
		attr8(INET_DIAG_TCLASS, 0x20);
		attr(INET_DIAG_SKMEMINFO, skmem, sizeof(skmem));
		attr8(INET_DIAG_SHUTDOWN, 3);
		ask(fd);
		start(SOCK_DIAG_BY_FAMILY, NLM_F_MULTI, &m, sizeof(m));
		attr(INET_DIAG_DCTCPINFO, info, 16);
		attr8(INET_DIAG_PROTOCOL, IPPROTO_TCP);
		attr8(INET_DIAG_SKV6ONLY, 1);
		attr(INET_DIAG_LOCALS, info, 8);
		attr32(INET_DIAG_MARK, 0x42);
		attr(INET_DIAG_BBRINFO, info, 20);
		attr32(INET_DIAG_CLASS_ID, 0x10001);
		attr(INET_DIAG_MD5SIG, info, 12);
		{
			/* INET_ULP_INFO_NAME "tls" nested in INET_DIAG_ULP_INFO */
			uint8_t ulp[8] = { 8, 0, INET_ULP_INFO_NAME, 0, 't', 'l', 's', 0 };

			attr(INET_DIAG_ULP_INFO | NLA_F_NESTED, ulp, sizeof(ulp));
		}
		attr(INET_DIAG_CGROUP_ID, &cg, sizeof(cg));
		attr(INET_DIAG_SOCKOPT, &sockopt, sizeof(sockopt));
		attr(0x40, "zz", 2);
		ask(fd);
		m.idiag_family = AF_INET6;
		m.idiag_state = 0xee;
		m.idiag_timer = 0xdd;
		inet_id(&m.id, AF_INET6);
		start(SOCK_DIAG_BY_FAMILY, 0, &m, sizeof(m));
		attr(INET_DIAG_MEMINFO, &mi, 8);
		attr(INET_DIAG_SKMEMINFO, skmem, 6);
		attr(INET_DIAG_SOCKOPT, &sockopt, 1);
		attr8(INET_DIAG_SHUTDOWN, 0xff);
		ask(fd);
		/* attributes running into an unmapped page: the second one's
		 * header, then the first one's payload */
		if (page) {
			size_t keep = NLMSG_HDRLEN + sizeof(m) + 8 + 4;

			memcpy(page + 4096 - keep, &msg, keep);
			sendto(fd, page + 4096 - keep, msg.h.nlmsg_len, MSG_DONTWAIT, NULL, 0);
			keep = NLMSG_HDRLEN + sizeof(m) + 6;
			memcpy(page + 4096 - keep, &msg, keep);
			sendto(fd, page + 4096 - keep, msg.h.nlmsg_len, MSG_DONTWAIT, NULL, 0);
		}
		start(SOCK_DIAG_BY_FAMILY, 0, &m, 10);
		ask(fd);
	}

	/* unix_diag: a dump of our socket pair with everything shown, a
	 * crafted request and replies */
	{
		struct unix_diag_req r = { .sdiag_family = AF_UNIX, .udiag_states = ~0u,
					   .udiag_show = 0x7f };
		struct unix_diag_msg m = { .udiag_family = AF_UNIX, .udiag_type = SOCK_DGRAM,
					   .udiag_state = 7, .udiag_ino = 99,
					   .udiag_cookie = { 1, 2 } };
		struct unix_diag_vfs vfs = { 12, 0x801 };
		struct unix_diag_rqlen rq = { 3, 4 };
		uint32_t icons[3] = { 5, 6, 7 };
		uint32_t meminfo[9] = { 1, 2, 3, 4, 5, 6, 7, 8, 9 };

		start(SOCK_DIAG_BY_FAMILY, NLM_F_REQUEST | NLM_F_DUMP, &r, sizeof(r));
		ask(fd);
		r.sdiag_protocol = 1;
		r.pad = 2;
		r.udiag_ino = 1234;
		r.udiag_show = 0x80000011;
		r.udiag_cookie[0] = 1;
		r.udiag_cookie[1] = 0xffffffff;
		start(SOCK_DIAG_BY_FAMILY, NLM_F_REQUEST, &r, sizeof(r));
		attr(5, "abc", 3);
		ask(fd);
		start(SOCK_DIAG_BY_FAMILY, 0, &m, sizeof(m));
		attr(UNIX_DIAG_NAME, "/tmp/sock", 9);
		attr(UNIX_DIAG_VFS, &vfs, sizeof(vfs));
		attr32(UNIX_DIAG_PEER, 77);
		attr(UNIX_DIAG_ICONS, icons, sizeof(icons));
		attr(UNIX_DIAG_RQLEN, &rq, sizeof(rq));
		attr(UNIX_DIAG_MEMINFO, meminfo, sizeof(meminfo));
		attr8(UNIX_DIAG_SHUTDOWN, 2);
		attr32(UNIX_DIAG_UID, 1000);
		attr(9, "q", 1);
		ask(fd);
		start(SOCK_DIAG_BY_FAMILY, 0, &m, sizeof(m));
		attr(UNIX_DIAG_NAME, "\0abstract", 9);
		attr(UNIX_DIAG_VFS, &vfs, 4);
		attr(UNIX_DIAG_ICONS, icons, 6);
		ask(fd);
		start(SOCK_DIAG_BY_FAMILY, NLM_F_REQUEST, &r, 10);
		ask(fd);
	}

	/* netlink_diag */
	{
		/* the dump asks for NETLINK_USERSOCK sockets only: tracers have
		 * netlink sockets of their own in this namespace */
		struct netlink_diag_req r = { .sdiag_family = AF_NETLINK,
					      .sdiag_protocol = NETLINK_USERSOCK,
					      .ndiag_show = 0xf };
		int ufd = nlsock(NETLINK_USERSOCK);
		struct netlink_diag_msg m = { .ndiag_family = AF_NETLINK,
					      .ndiag_type = SOCK_RAW,
					      .ndiag_protocol = NETLINK_ROUTE,
					      .ndiag_state = 7, .ndiag_portid = 11,
					      .ndiag_dst_portid = 12, .ndiag_dst_group = 13,
					      .ndiag_ino = 14, .ndiag_cookie = { 15, 16 } };
		uint32_t groups[3] = { 0x11, 0, 0x80000000 };
		struct netlink_diag_ring ring = { 1, 2, 3, 4 };
		uint32_t meminfo[9] = { 1, 2, 3, 4, 5, 6, 7, 8, 9 };

		start(SOCK_DIAG_BY_FAMILY, NLM_F_REQUEST | NLM_F_DUMP, &r, sizeof(r));
		ask(fd);
		if (ufd >= 0)
			close(ufd);
		r.sdiag_protocol = NDIAG_PROTO_ALL;
		start(SOCK_DIAG_BY_FAMILY, NLM_F_REQUEST, &r, sizeof(r));
		ask(fd);
		r.sdiag_protocol = NETLINK_AUDIT;
		r.ndiag_ino = 5;
		r.ndiag_show = 0x30;
		r.ndiag_cookie[0] = 6;
		start(SOCK_DIAG_BY_FAMILY, NLM_F_REQUEST, &r, sizeof(r));
		attr(1, "abc", 3);
		ask(fd);
		start(SOCK_DIAG_BY_FAMILY, 0, &m, sizeof(m));
		attr(NETLINK_DIAG_MEMINFO, meminfo, sizeof(meminfo));
		attr(NETLINK_DIAG_GROUPS, groups, sizeof(groups));
		attr(NETLINK_DIAG_RX_RING, &ring, sizeof(ring));
		attr(NETLINK_DIAG_TX_RING, &ring, sizeof(ring));
		attr32(NETLINK_DIAG_FLAGS, 0x41);
		ask(fd);
		m.ndiag_protocol = 0x33;
		m.ndiag_type = 0x44;
		start(SOCK_DIAG_BY_FAMILY, 0, &m, sizeof(m));
		attr(NETLINK_DIAG_RX_RING, &ring, 6);
		attr(NETLINK_DIAG_GROUPS, groups, 6);
		ask(fd);
	}

	/* packet_diag */
	{
		struct packet_diag_req r = { .sdiag_family = AF_PACKET,
					     .sdiag_protocol = 0, .pdiag_show = 0x3f };
		struct packet_diag_msg m = { .pdiag_family = AF_PACKET,
					     .pdiag_type = SOCK_RAW, .pdiag_num = htons(3),
					     .pdiag_ino = 4, .pdiag_cookie = { 5, 6 } };
		struct packet_diag_info info = { 1, 2, 3, 4, 5, 0x1f };
		struct packet_diag_mclist mc[2] = {
			{ 1, 2, 3, 6, { 0, 1, 2, 3, 4, 5 } },
			{ 0x7ff, 0, 0x7fff, 2, { 0xaa, 0xbb } },
		};
		struct packet_diag_ring ring = { 1, 2, 3, 4, 5, 6, 7 };
		uint16_t fanout[2] = { 1, 0x8003 };
		uint32_t meminfo[9] = { 1, 2, 3, 4, 5, 6, 7, 8, 9 };
		struct { uint16_t code; uint8_t jt, jf; uint32_t k; } filter[2] = {
			{ 0x28, 0, 0, 12 }, { 0x6, 0, 0, 0xffff },
		};

		start(SOCK_DIAG_BY_FAMILY, NLM_F_REQUEST | NLM_F_DUMP, &r, sizeof(r));
		ask(fd);
		r.sdiag_protocol = 0x81;
		r.pad = 1;
		r.pdiag_ino = 2;
		r.pdiag_show = 0x41;
		start(SOCK_DIAG_BY_FAMILY, NLM_F_REQUEST, &r, sizeof(r));
		attr(1, "abc", 3);
		ask(fd);
		start(SOCK_DIAG_BY_FAMILY, 0, &m, sizeof(m));
		attr(PACKET_DIAG_INFO, &info, sizeof(info));
		attr(PACKET_DIAG_MCLIST, mc, sizeof(mc));
		attr(PACKET_DIAG_RX_RING, &ring, sizeof(ring));
		attr(PACKET_DIAG_TX_RING, &ring, sizeof(ring));
		attr32(PACKET_DIAG_FANOUT, fanout[0] | (uint32_t)fanout[1] << 16);
		attr32(PACKET_DIAG_UID, 1000);
		attr(PACKET_DIAG_MEMINFO, meminfo, sizeof(meminfo));
		attr(PACKET_DIAG_FILTER, filter, sizeof(filter));
		ask(fd);
	}

	/* smc_diag */
	{
		struct smc_diag_req r = { .diag_family = AF_SMC, .diag_ext = 0x7 };
		struct smc_diag_msg m = { .diag_family = AF_SMC, .diag_state = 1,
					  .diag_mode = 1, .diag_shutdown = 3,
					  .diag_uid = 5, .diag_inode = 6 };
		struct smc_diag_conninfo ci = { 1, 2, 3, 4, { 5, 6, 7 }, { 8, 9, 10 }, { 1, 1, 1 },
						{ 2, 2, 2 }, 1, 2, 3, 4, { 0 }, { 0 }, { 0 } };
		struct smc_diag_lgrinfo lgr = { { { 1, "mlx4_0", 2, "fe80::1", "fe80::2" } }, 1 };
		struct smc_diag_fallback fb = { 0x03010000, 0x03020000 };
		uint8_t sh = 2;

		inet_id(&r.id, AF_INET);
		start(SOCK_DIAG_BY_FAMILY, NLM_F_REQUEST | NLM_F_DUMP, &r, sizeof(r));
		ask(fd);
		inet_id(&m.id, AF_INET);
		start(SOCK_DIAG_BY_FAMILY, 0, &m, sizeof(m));
		attr(SMC_DIAG_CONNINFO, &ci, sizeof(ci));
		attr(SMC_DIAG_LGRINFO, &lgr, sizeof(lgr));
		attr(SMC_DIAG_SHUTDOWN, &sh, 1);
		attr(SMC_DIAG_FALLBACK, &fb, sizeof(fb));
		fb.reason = 0x99990002;
		fb.peer_diagnosis = 0x99990006;
		attr(SMC_DIAG_FALLBACK, &fb, sizeof(fb));
		attr(SMC_DIAG_DMBINFO, &ci, 36);
		ask(fd);
		{
			struct smcd_diag_dmbinfo dmb = { 1, 2, 3, 4, 5 };

			start(SOCK_DIAG_BY_FAMILY, 0, &m, sizeof(m));
			attr(SMC_DIAG_DMBINFO, &dmb, sizeof(dmb));
			ask(fd);
		}
	}

	inet_more(fd);

	/* a family without a decoder, and a byte-long payload */
	{
		uint8_t b[12] = { AF_BLUETOOTH, 1, 2, 3 };

		start(SOCK_DIAG_BY_FAMILY, NLM_F_REQUEST, b, sizeof(b));
		ask(fd);
		start(SOCK_DIAG_BY_FAMILY, 0, b, sizeof(b));
		ask(fd);
		start(SOCK_DIAG_BY_FAMILY, NLM_F_REQUEST, b, 1);
		ask(fd);
		start(0x3f, NLM_F_REQUEST, b, sizeof(b));
		ask(fd);
	}
	close(fd);
	if (lfd >= 0)
		close(lfd);
	if (pfd >= 0)
		close(pfd);
	close(sv[0]);
	close(sv[1]);
}

static void generic(void)
{
	int fd = nlsock(NETLINK_GENERIC);
	struct genlmsghdr g = { .cmd = CTRL_CMD_GETFAMILY, .version = 1 };

	if (fd < 0)
		return;
	start(GENL_ID_CTRL, NLM_F_REQUEST | NLM_F_ACK, &g, sizeof(g));
	attr(CTRL_ATTR_FAMILY_NAME, "nlctrl", 7);
	ask(fd);
	start(GENL_ID_CTRL, NLM_F_REQUEST | NLM_F_DUMP, &g, sizeof(g));
	ask(fd);
	start(0x7ff0, NLM_F_REQUEST, &g, sizeof(g));
	ask(fd);
	close(fd);
}

static void audit(void)
{
	int fd = nlsock(NETLINK_AUDIT);
	uint32_t x = 0;

	if (fd < 0)
		return;
	/* the audit replies come from a kernel thread: read the one answer
	 * blocking, with no ACK to race it */
	start(AUDIT_GET, NLM_F_REQUEST, NULL, 0);
	send_len(fd, msg.h.nlmsg_len);
	recv(fd, rbuf, sizeof(rbuf), 0);
	start(AUDIT_USER, NLM_F_REQUEST, "hello", 6);
	ask(fd);
	start(AUDIT_SET_FEATURE, NLM_F_REQUEST | NLM_F_REPLACE, &x, sizeof(x));
	ask(fd);
	start(0x7777, NLM_F_REQUEST | NLM_F_CREATE, &x, sizeof(x));
	ask(fd);
	close(fd);
}

static void selinux(void)
{
	int fd = nlsock(NETLINK_SELINUX);
	struct selnl_msg_setenforce se = { 1 };
	struct selnl_msg_policyload pl = { 7 };

	if (fd < 0)
		return;
	start(SELNL_MSG_SETENFORCE, 0, &se, sizeof(se));
	ask(fd);
	start(SELNL_MSG_POLICYLOAD, 0, &pl, sizeof(pl));
	ask(fd);
	start(SELNL_MSG_POLICYLOAD, 0, &pl, 2);
	ask(fd);
	start(0x30, NLM_F_REQUEST, &pl, sizeof(pl));
	ask(fd);
	close(fd);
}

static void uevent(void)
{
	int fd = nlsock(NETLINK_KOBJECT_UEVENT);
	static const char plain[] = "add@/devices/virtual/net/lo\0ACTION=add\0SEQNUM=1";
	struct {
		char prefix[8];
		uint32_t magic, header_size, properties_off, properties_len;
		uint32_t filter_subsystem_hash, filter_devtype_hash;
		uint32_t filter_tag_bloom_hi, filter_tag_bloom_lo;
		char props[16];
	} udev = { "libudev", htonl(0xfeedcafe), 40, 40, 16, 1, 2, 3, 4,
		   "ACTION=add\0X=1" };

	if (fd < 0)
		return;
	sendto(fd, plain, sizeof(plain), MSG_DONTWAIT, NULL, 0);
	sendto(fd, &udev, sizeof(udev), MSG_DONTWAIT, NULL, 0);
	sendto(fd, &udev, 20, MSG_DONTWAIT, NULL, 0);
	udev.magic = 1;
	sendto(fd, &udev, sizeof(udev), MSG_DONTWAIT, NULL, 0);
	close(fd);
}

static void netfilter(void)
{
	int fd = nlsock(NETLINK_NETFILTER);
	struct nfgenmsg nf = { .nfgen_family = AF_INET, .version = NFNETLINK_V0,
			       .res_id = htons(10) };
	static const uint16_t types[] = {
		NFNL_MSG_BATCH_BEGIN, NFNL_MSG_BATCH_END, 1 << 8 | 1, 1 << 8 | 0x3f,
		2 << 8 | 0, 3 << 8 | 2, 4 << 8 | 1, 5 << 8 | 0, 6 << 8 | 1, 7 << 8 | 3,
		8 << 8 | 1, 9 << 8 | 1, 10 << 8 | 7, 11 << 8 | 1, 12 << 8 | 2,
		13 << 8 | 0, 0x20 << 8 | 1, 10 << 8 | 1,
	};

	if (fd < 0)
		return;
	for (unsigned i = 0; i < sizeof(types) / sizeof(types[0]); i++) {
		start(types[i], NLM_F_REQUEST | (i & 1 ? NLM_F_DUMP : NLM_F_CREATE), &nf,
		      sizeof(nf));
		if (i == 3)
			attr32(1, 5);
		ask(fd);
	}
	nf.nfgen_family = AF_UNSPEC;
	nf.version = 3;
	start(1 << 8 | 1, NLM_F_REQUEST, &nf, sizeof(nf));
	ask(fd);
	start(1 << 8 | 1, NLM_F_REQUEST, &nf, 2);
	ask(fd);
	close(fd);
}

static void xfrm(void)
{
	int fd = nlsock(NETLINK_XFRM);
	uint8_t b[16] = { 1, 2 };

	if (fd < 0)
		return;
	start(XFRM_MSG_GETSA, NLM_F_REQUEST | NLM_F_DUMP, b, sizeof(b));
	ask(fd);
	start(XFRM_MSG_NEWPOLICY, NLM_F_REQUEST | NLM_F_CREATE, b, sizeof(b));
	ask(fd);
	start(XFRM_MSG_DELSA, NLM_F_REQUEST | NLM_F_NONREC, b, sizeof(b));
	ask(fd);
	start(0x7f, NLM_F_REQUEST, b, sizeof(b));
	ask(fd);
	close(fd);
}

/* "sweep PROTO FIRST LAST": a message of each type from FIRST to LAST with
 * every request flag above NLM_F_DUMP_INTR set, so each type's name and
 * flag table show. */
static int sweep(char **argv)
{
	int fd = nlsock(atoi(argv[2]));
	long first = strtol(argv[3], NULL, 0), last = strtol(argv[4], NULL, 0);
	uint8_t payload[8] = { AF_INET };

	if (fd < 0)
		return 1;
	for (long t = first; t <= last; t++) {
		start((uint16_t)t, 0x0f00, payload, sizeof(payload));
		send_len(fd, msg.h.nlmsg_len);
	}
	return 0;
}

int main(int argc, char **argv)
{
	char *page = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
			  -1, 0);
	int fd;

	if (argc > 1 && !strcmp(argv[1], "serve"))
		return serve();
	if (argc > 4 && !strcmp(argv[1], "sweep"))
		return sweep(argv);
	fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_AUDIT);
	if (page == MAP_FAILED)
		page = NULL;
	else
		munmap(page + 4096, 4096);
	/* the first send of an unbound socket: no protocol known yet */
	if (fd >= 0) {
		start(AUDIT_GET, NLM_F_REQUEST, NULL, 0);
		send_len(fd, msg.h.nlmsg_len);
		recv(fd, rbuf, sizeof(rbuf), 0);
		close(fd);
	}
	sock_diag(page);
	extack();
	generic();
	audit();
	selinux();
	uevent();
	netfilter();
	xfrm();
	return 0;
}
