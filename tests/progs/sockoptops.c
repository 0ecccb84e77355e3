/*
 * Socket options and control messages for tests/t/decode_sockopt.sh:
 * SOL_SOCKET ints, linger, ucred and error with whole and cut lengths,
 * SO_TXREHASH, socket filters (SO_ATTACH_FILTER, SO_GET_FILTER), IP and
 * IPv6 multicast requests, packet rings, memberships and statistics, the
 * raw ICMP filter, netlink options, unknown levels and options, bad
 * pointers; sendmsg/recvmsg with SCM_RIGHTS, SCM_CREDENTIALS and
 * timestamps; recvmmsg with the caller's msg_namelen.  Calls that need
 * privileges this machine lacks fail, their arguments still decoded.
 */
#include <linux/filter.h>
#include <linux/icmp.h>
#include <linux/if_packet.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/un.h>
#include <unistd.h>

#ifndef SO_TXREHASH
# define SO_TXREHASH 74
#endif

static void sol_socket(int fd, char *bad)
{
	int x = 1, big[2] = { 0, 0 };
	socklen_t len;
	struct linger lg = { 1, 5 };
	struct ucred uc;
	struct sock_filter insns[] = {
		BPF_STMT(BPF_LD | BPF_B | BPF_ABS, SKF_AD_OFF + SKF_AD_PROTOCOL),
		BPF_JUMP(BPF_JMP | BPF_K | BPF_JEQ, 17, 0, 1),
		BPF_STMT(BPF_LD | BPF_H | BPF_ABS, SKF_NET_OFF + 2),
		BPF_STMT(BPF_RET | BPF_K, 0xffff),
		BPF_STMT(BPF_RET | BPF_K, 0),
	};
	struct sock_fprog prog = { 5, insns };

	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &x, sizeof(x));
	setsockopt(fd, SOL_SOCKET, SO_KEEPALIVE, &x, 2);
	setsockopt(fd, SOL_SOCKET, SO_PRIORITY, bad, sizeof(x));
	setsockopt(fd, SOL_SOCKET, SO_LINGER, &lg, sizeof(lg));
	setsockopt(fd, SOL_SOCKET, SO_LINGER, &lg, 4);
	setsockopt(fd, SOL_SOCKET, SO_TXREHASH, &x, sizeof(x));
	x = 7;
	setsockopt(fd, SOL_SOCKET, SO_TXREHASH, &x, sizeof(x));
	setsockopt(fd, SOL_SOCKET, SO_ATTACH_FILTER, &prog, sizeof(prog));
	setsockopt(fd, SOL_SOCKET, SO_ATTACH_FILTER, &prog, 3);
	setsockopt(fd, SOL_SOCKET, 99, big, sizeof(big));
	setsockopt(fd, SOL_SOCKET, SO_SNDBUF, NULL, 0);
	len = sizeof(x);
	getsockopt(fd, SOL_SOCKET, SO_SNDBUF, &x, &len);
	len = 2;
	getsockopt(fd, SOL_SOCKET, SO_TYPE, &x, &len);
	len = sizeof(lg);
	getsockopt(fd, SOL_SOCKET, SO_LINGER, &lg, &len);
	len = 6;
	getsockopt(fd, SOL_SOCKET, SO_LINGER, &lg, &len);
	len = sizeof(x);
	getsockopt(fd, SOL_SOCKET, SO_ERROR, &x, &len);
	len = sizeof(uc);
	getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &uc, &len);
	len = 7;
	getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &uc, &len);
	len = sizeof(x);
	getsockopt(fd, SOL_SOCKET, SO_DOMAIN, bad, &len);
	getsockopt(fd, SOL_SOCKET, SO_DOMAIN, &x, (socklen_t *)bad);
	len = 0;
	getsockopt(fd, SOL_SOCKET, SO_GET_FILTER, NULL, &len);
	len = sizeof(insns) / sizeof(insns[0]);
	getsockopt(fd, SOL_SOCKET, SO_GET_FILTER, insns, &len);
	len = sizeof(x);
	getsockopt(fd, SOL_SOCKET, SO_TXREHASH, &x, &len);
}

static void ip_levels(char *bad)
{
	int u = socket(AF_INET, SOCK_DGRAM, 0), u6 = socket(AF_INET6, SOCK_DGRAM, 0);
	int p = socket(AF_PACKET, SOCK_RAW, 0), r = socket(AF_INET, SOCK_RAW, IPPROTO_ICMP);
	struct ip_mreq m = { { htonl(0xe0000001) }, { htonl(INADDR_LOOPBACK) } };
	struct ipv6_mreq m6 = { IN6ADDR_LOOPBACK_INIT, 1 };
	struct group_req gr;
	struct sockaddr_in *gin = (struct sockaddr_in *)&gr.gr_group;
	struct tpacket_req tr = { 4096, 2, 2048, 4 };
	struct packet_mreq pm = { 1, PACKET_MR_PROMISC, 6, { 1, 2, 3, 4, 5, 6 } };
	struct tpacket_stats st;
	struct icmp_filter icf = { ~(1U << ICMP_ECHOREPLY) };
	socklen_t len;
	int x = 1;

	memset(&gr, 0, sizeof(gr));
	gr.gr_interface = 1;
	gin->sin_family = AF_INET;
	gin->sin_addr.s_addr = htonl(0xe0000002);
	setsockopt(u, SOL_IP, IP_ADD_MEMBERSHIP, &m, sizeof(m));
	setsockopt(u, SOL_IP, IP_DROP_MEMBERSHIP, &m, 4);
	setsockopt(u, SOL_IP, MCAST_JOIN_GROUP, &gr, sizeof(gr));
	setsockopt(u, SOL_IP, IP_TOS, &x, sizeof(x));
	setsockopt(u6, SOL_IPV6, IPV6_ADD_MEMBERSHIP, &m6, sizeof(m6));
	setsockopt(u6, SOL_IPV6, IPV6_JOIN_ANYCAST, bad, sizeof(m6));
	setsockopt(p, SOL_PACKET, PACKET_RX_RING, &tr, sizeof(tr));
	setsockopt(p, SOL_PACKET, PACKET_RX_RING, &tr, 8);
	setsockopt(p, SOL_PACKET, PACKET_ADD_MEMBERSHIP, &pm, sizeof(pm));
	len = sizeof(st);
	getsockopt(p, SOL_PACKET, PACKET_STATISTICS, &st, &len);
	setsockopt(r, SOL_RAW, ICMP_FILTER, &icf, sizeof(icf));
	len = sizeof(icf);
	getsockopt(r, SOL_RAW, ICMP_FILTER, &icf, &len);
	setsockopt(u, 12345, 6, &x, sizeof(x));
	close(u);
	close(u6);
	close(p);
	close(r);
}

static void messages(void)
{
	int sv[2], x = 1, fds[2] = { 0, 1 };
	char data[8] = "ping", cbuf[256], name[64];
	struct iovec iov = { data, 4 };
	struct msghdr mh;
	struct cmsghdr *cm;
	struct ucred uc = { getpid(), getuid(), getgid() };
	struct mmsghdr mm[2];
	struct iovec iov2[2] = { { data, 4 }, { data + 4, 4 } };

	if (socketpair(AF_UNIX, SOCK_DGRAM, 0, sv))
		return;
	setsockopt(sv[1], SOL_SOCKET, SO_PASSCRED, &x, sizeof(x));
	setsockopt(sv[1], SOL_SOCKET, SO_TIMESTAMP_OLD, &x, sizeof(x));
	memset(&mh, 0, sizeof(mh));
	mh.msg_iov = &iov;
	mh.msg_iovlen = 1;
	mh.msg_control = cbuf;
	mh.msg_controllen = CMSG_SPACE(sizeof(fds)) + CMSG_SPACE(sizeof(uc));
	cm = CMSG_FIRSTHDR(&mh);
	cm->cmsg_level = SOL_SOCKET;
	cm->cmsg_type = SCM_RIGHTS;
	cm->cmsg_len = CMSG_LEN(sizeof(fds));
	memcpy(CMSG_DATA(cm), fds, sizeof(fds));
	cm = CMSG_NXTHDR(&mh, cm);
	cm->cmsg_level = SOL_SOCKET;
	cm->cmsg_type = SCM_CREDENTIALS;
	cm->cmsg_len = CMSG_LEN(sizeof(uc));
	memcpy(CMSG_DATA(cm), &uc, sizeof(uc));
	sendmsg(sv[0], &mh, 0);
	/* the timestamp and credentials come back: shown without their
	 * values (they change), the fds as they arrive */
	memset(&mh, 0, sizeof(mh));
	mh.msg_iov = &iov;
	mh.msg_iovlen = 1;
	mh.msg_control = cbuf;
	mh.msg_controllen = sizeof(cbuf);
	recvmsg(sv[1], &mh, MSG_DONTWAIT);
	/* unknown levels and a cut header */
	memset(cbuf, 0, sizeof(cbuf));
	cm = (struct cmsghdr *)cbuf;
	cm->cmsg_level = 99;
	cm->cmsg_type = 7;
	cm->cmsg_len = CMSG_LEN(3);
	mh.msg_control = cbuf;
	mh.msg_controllen = CMSG_SPACE(3) + 4;
	sendmsg(-1, &mh, 0);
	/* recvmmsg: names shorter than the sender's */
	sendto(sv[0], "a", 1, 0, NULL, 0);
	memset(mm, 0, sizeof(mm));
	mm[0].msg_hdr.msg_name = name;
	mm[0].msg_hdr.msg_namelen = 1;
	mm[0].msg_hdr.msg_iov = &iov2[0];
	mm[0].msg_hdr.msg_iovlen = 1;
	mm[1].msg_hdr.msg_iov = &iov2[1];
	mm[1].msg_hdr.msg_iovlen = 1;
	recvmmsg(sv[1], mm, 2, MSG_DONTWAIT, NULL);
	sendmmsg(-1, mm, 2, 0);
	close(sv[0]);
	close(sv[1]);
}

int main(void)
{
	char *page = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	int fd = socket(AF_UNIX, SOCK_STREAM, 0);

	if (page == MAP_FAILED || fd < 0)
		return 1;
	munmap(page + 4096, 4096);
	sol_socket(fd, page + 4096);
	ip_levels(page + 4096);
	messages();
	return 0;
}
