/*
 * Makes the socket syscalls renacer decodes over loopback and AF_UNIX only:
 * socket (families, types with flags, protocols), bind/connect/listen/
 * accept4 over TCP/IPv4, UDP over IPv6, AF_UNIX paths and abstract names,
 * netlink; getsockname/getpeername, sendto/recvfrom, sendmsg/recvmsg with
 * names, iovecs and SCM_RIGHTS/SCM_CREDENTIALS, socket options, shutdown,
 * socketpair, and failures (bad pointers, short lengths, unknown families).
 * Run in an empty scratch directory.  Prints nothing, exits 0.
 */
#include <arpa/inet.h>
#include <linux/netlink.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

int main(void)
{
	struct sockaddr_in a4, p4;
	struct sockaddr_in6 a6;
	struct sockaddr_un un, ab, from;
	struct sockaddr_nl nl;
	struct linger lg = { 1, 0 };
	struct iovec iov[2], riov;
	struct msghdr mh, rm;
	struct ucred uc;
	socklen_t l;
	char buf[64], cbuf[CMSG_SPACE(sizeof(int)) + CMSG_SPACE(sizeof(struct ucred))];
	int one = 1, v, s, c, d, u, u2, sv[2], s6, n, abl;

	/* TCP over IPv4 loopback */
	s = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, IPPROTO_TCP);
	setsockopt(s, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	memset(&a4, 0, sizeof(a4));
	a4.sin_family = AF_INET;
	a4.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	bind(s, (struct sockaddr *)&a4, sizeof(a4));
	l = sizeof(a4);
	getsockname(s, (struct sockaddr *)&a4, &l);
	listen(s, 5);
	c = socket(AF_INET, SOCK_STREAM, 0);
	connect(c, (struct sockaddr *)&a4, sizeof(a4));
	l = sizeof(p4);
	d = accept4(s, (struct sockaddr *)&p4, &l, SOCK_NONBLOCK | SOCK_CLOEXEC);
	l = 4;
	getpeername(c, (struct sockaddr *)&p4, &l);
	l = sizeof(p4) + 8;
	getpeername(c, (struct sockaddr *)&p4, &l);
	sendto(c, "hello", 5, 0, NULL, 0);
	recvfrom(d, buf, sizeof(buf), 0, NULL, NULL);
	sendto(c, "x", 1, MSG_NOSIGNAL | MSG_DONTWAIT, NULL, 0);
	recvfrom(d, buf, sizeof(buf), MSG_PEEK, NULL, NULL);
	recvfrom(d, buf, sizeof(buf), 0, NULL, NULL);
	recvfrom(d, buf, sizeof(buf), 0, NULL, NULL);
	l = sizeof(v);
	getsockopt(c, SOL_SOCKET, SO_ERROR, &v, &l);
	getsockopt(c, SOL_SOCKET, SO_TYPE, &v, &l);
	l = 8;
	getsockopt(c, SOL_SOCKET, SO_REUSEADDR, &v, &l);
	setsockopt(c, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	setsockopt(c, SOL_SOCKET, SO_LINGER, &lg, sizeof(lg));
	l = sizeof(lg);
	getsockopt(c, SOL_SOCKET, SO_LINGER, &lg, &l);
	setsockopt(c, SOL_SOCKET, SO_KEEPALIVE, &one, 2);
	setsockopt(c, SOL_IP, IP_TOS, &one, sizeof(one));
	setsockopt(c, 999, 1, &one, sizeof(one));
	setsockopt(c, SOL_SOCKET, SO_REUSEADDR, (void *)8, sizeof(one));
	shutdown(c, SHUT_WR);
	shutdown(c, 7);
	accept(c, NULL, NULL);
	close(c);
	close(d);
	close(s);

	/* AF_UNIX datagrams: a path and an abstract name */
	u = socket(AF_UNIX, SOCK_DGRAM, 0);
	memset(&un, 0, sizeof(un));
	un.sun_family = AF_UNIX;
	memcpy(un.sun_path, "sock", 5);
	bind(u, (struct sockaddr *)&un, sizeof(un));
	u2 = socket(AF_UNIX, SOCK_DGRAM | SOCK_NONBLOCK, 0);
	memset(&ab, 0, sizeof(ab));
	ab.sun_family = AF_UNIX;
	abl = snprintf(ab.sun_path + 1, sizeof(ab.sun_path) - 1, "renacer-netops-%08d", (int)getpid());
	bind(u2, (struct sockaddr *)&ab, offsetof(struct sockaddr_un, sun_path) + 1 + abl);
	sendto(u2, "dgram", 5, 0, (struct sockaddr *)&un, sizeof(un));
	l = sizeof(from);
	recvfrom(u, buf, sizeof(buf), 0, (struct sockaddr *)&from, &l);
	iov[0].iov_base = "ab";
	iov[0].iov_len = 2;
	iov[1].iov_base = "cdef";
	iov[1].iov_len = 4;
	memset(&mh, 0, sizeof(mh));
	mh.msg_name = &un;
	mh.msg_namelen = offsetof(struct sockaddr_un, sun_path) + 5;
	mh.msg_iov = iov;
	mh.msg_iovlen = 2;
	sendmsg(u2, &mh, 0);
	riov.iov_base = buf;
	riov.iov_len = 3;
	memset(&rm, 0, sizeof(rm));
	rm.msg_name = &from;
	rm.msg_namelen = sizeof(from);
	rm.msg_iov = &riov;
	rm.msg_iovlen = 1;
	recvmsg(u, &rm, 0);
	rm.msg_namelen = sizeof(from);
	recvmsg(u2, &rm, MSG_DONTWAIT);
	recvmsg(u2, (void *)8, 0);
	unlink("sock");

	/* socketpair with a descriptor and credentials */
	socketpair(AF_UNIX, SOCK_STREAM, 0, sv);
	setsockopt(sv[1], SOL_SOCKET, SO_PASSCRED, &one, sizeof(one));
	memset(cbuf, 0, sizeof(cbuf));
	memset(&mh, 0, sizeof(mh));
	iov[0].iov_base = "z";
	iov[0].iov_len = 1;
	mh.msg_iov = iov;
	mh.msg_iovlen = 1;
	mh.msg_control = cbuf;
	mh.msg_controllen = CMSG_SPACE(sizeof(int));
	{
		struct cmsghdr *cm = CMSG_FIRSTHDR(&mh);

		cm->cmsg_level = SOL_SOCKET;
		cm->cmsg_type = SCM_RIGHTS;
		cm->cmsg_len = CMSG_LEN(sizeof(int));
		memcpy(CMSG_DATA(cm), &sv[0], sizeof(int));
	}
	sendmsg(sv[0], &mh, 0);
	memset(&rm, 0, sizeof(rm));
	riov.iov_base = buf;
	riov.iov_len = sizeof(buf);
	rm.msg_iov = &riov;
	rm.msg_iovlen = 1;
	rm.msg_control = cbuf;
	rm.msg_controllen = sizeof(cbuf);
	recvmsg(sv[1], &rm, MSG_CMSG_CLOEXEC);
	l = sizeof(uc);
	getsockopt(sv[0], SOL_SOCKET, SO_PEERCRED, &uc, &l);
	socketpair(AF_INET, SOCK_STREAM, 0, sv);
	syscall(SYS_socketpair, AF_UNIX, SOCK_STREAM, 0, 8);

	/* several messages at once */
	{
		struct mmsghdr mm[2], rmm[2];
		struct iovec io[2], ri[2];
		char b1[8], b2[8];
		struct timespec to = { 1, 0 };
		int dp[2];

		socketpair(AF_UNIX, SOCK_DGRAM, 0, dp);
		memset(mm, 0, sizeof(mm));
		io[0].iov_base = "a";
		io[0].iov_len = 1;
		io[1].iov_base = "bc";
		io[1].iov_len = 2;
		mm[0].msg_hdr.msg_iov = &io[0];
		mm[0].msg_hdr.msg_iovlen = 1;
		mm[1].msg_hdr.msg_iov = &io[1];
		mm[1].msg_hdr.msg_iovlen = 1;
		sendmmsg(dp[0], mm, 2, MSG_NOSIGNAL);
		memset(rmm, 0, sizeof(rmm));
		ri[0].iov_base = b1;
		ri[0].iov_len = sizeof(b1);
		ri[1].iov_base = b2;
		ri[1].iov_len = sizeof(b2);
		rmm[0].msg_hdr.msg_iov = &ri[0];
		rmm[0].msg_hdr.msg_iovlen = 1;
		rmm[1].msg_hdr.msg_iov = &ri[1];
		rmm[1].msg_hdr.msg_iovlen = 1;
		recvmmsg(dp[1], rmm, 2, MSG_DONTWAIT, &to);
		recvmmsg(dp[1], rmm, 2, MSG_DONTWAIT, NULL);
		sendmmsg(dp[0], (void *)8, 2, 0);
		close(dp[0]);
		close(dp[1]);
	}

	/* UDP over IPv6 loopback */
	s6 = socket(AF_INET6, SOCK_DGRAM, IPPROTO_UDP);
	memset(&a6, 0, sizeof(a6));
	a6.sin6_family = AF_INET6;
	a6.sin6_addr = in6addr_loopback;
	bind(s6, (struct sockaddr *)&a6, sizeof(a6));
	l = sizeof(a6);
	getsockname(s6, (struct sockaddr *)&a6, &l);
	connect(s6, (struct sockaddr *)&a6, sizeof(a6));
	send(s6, "six", 3, 0);
	l = sizeof(a6);
	recvfrom(s6, buf, sizeof(buf), 0, (struct sockaddr *)&a6, &l);
	a6.sin6_addr.s6_addr[0] = 0xfe;
	a6.sin6_addr.s6_addr[1] = 0x80;
	a6.sin6_scope_id = 1;
	connect(s6, (struct sockaddr *)&a6, sizeof(a6));
	connect(s6, (struct sockaddr *)&a6, 24);

	/* netlink */
	n = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE);
	memset(&nl, 0, sizeof(nl));
	nl.nl_family = AF_NETLINK;
	nl.nl_groups = 1;
	bind(n, (struct sockaddr *)&nl, sizeof(nl));
	l = sizeof(nl);
	getsockname(n, (struct sockaddr *)&nl, &l);

	/* failures */
	socket(99, SOCK_STREAM, 0);
	socket(AF_INET, 77, 0);
	socket(AF_INET, SOCK_DGRAM | 0x100000, 0);
	socket(AF_UNIX, SOCK_SEQPACKET, 5);
	connect(s6, (struct sockaddr *)8, 16);
	memset(&a4, 0, sizeof(a4));
	a4.sin_family = AF_INET;
	connect(s6, (struct sockaddr *)&a4, 8);
	connect(s6, (struct sockaddr *)&a4, 1);
	a4.sin_family = 250;
	connect(s6, (struct sockaddr *)&a4, sizeof(a4));
	bind(u, (struct sockaddr *)&un, 2);
	listen(-1, 0);
	sendto(s6, "q", 1, 0, (struct sockaddr *)&un, sizeof(un));
	l = 8;
	getsockname(s6, (struct sockaddr *)&a6, &l);
	getsockname(s6, NULL, &l);
	getsockname(99, (struct sockaddr *)&a6, &l);
	return 0;
}
