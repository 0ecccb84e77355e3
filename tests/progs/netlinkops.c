/*
 * Netlink edge cases for the netlink decoder (tests/t/decode_netlink.sh):
 * requests with attributes, several messages in one buffer, truncated and
 * malformed messages, trailing bytes, a message running into an unmapped
 * page, NLMSG_ERROR replies, sendmsg with and without a netlink msg_name.
 */
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <linux/if_link.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

struct req {
	struct nlmsghdr h;
	struct ifinfomsg ifi;
	char attrs[64];
};

static void put_attr(struct req *r, unsigned short type, const void *data, unsigned len)
{
	struct rtattr *a = (struct rtattr *)((char *)r + NLMSG_ALIGN(r->h.nlmsg_len));

	a->rta_type = type;
	a->rta_len = (unsigned short)RTA_LENGTH(len);
	memcpy(RTA_DATA(a), data, len);
	r->h.nlmsg_len = NLMSG_ALIGN(r->h.nlmsg_len) + RTA_ALIGN(a->rta_len);
}

static void link_req(struct req *r, unsigned short flags, int ifindex)
{
	memset(r, 0, sizeof(*r));
	r->h.nlmsg_len = NLMSG_LENGTH(sizeof(r->ifi));
	r->h.nlmsg_type = RTM_GETLINK;
	r->h.nlmsg_flags = flags;
	r->h.nlmsg_seq = 1;
	r->ifi.ifi_index = ifindex;
}

int main(void)
{
	struct sockaddr_nl nl = { .nl_family = AF_NETLINK };
	char buf[8192];
	struct req r, two[2];
	uint32_t mask = RTEXT_FILTER_VF | 0x80000;
	int fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE);
	int one = 1;
	char *page;

	if (fd < 0)
		return 1;
	setsockopt(fd, SOL_NETLINK, NETLINK_EXT_ACK, &one, sizeof(one));
	setsockopt(fd, SOL_NETLINK, NETLINK_CAP_ACK, &one, sizeof(one));
	setsockopt(fd, SOL_NETLINK, 99, &one, sizeof(one));

	/* a request with attributes: a name, flags with unknown bits, a
	 * nested flag; answered by an error with the extended ACK */
	link_req(&r, NLM_F_REQUEST | NLM_F_ACK, 0x7ffffff0);
	put_attr(&r, IFLA_IFNAME, "nosuchdev0", 11);
	put_attr(&r, IFLA_EXT_MASK, &mask, sizeof(mask));
	put_attr(&r, NLA_F_NESTED | 0x3e, "", 0);
	sendto(fd, &r, r.h.nlmsg_len, 0, (struct sockaddr *)&nl, sizeof(nl));
	recvfrom(fd, buf, sizeof(buf), 0, NULL, NULL);

	/* the same without NETLINK_CAP_ACK: the reply echoes the request */
	one = 0;
	setsockopt(fd, SOL_NETLINK, NETLINK_CAP_ACK, &one, sizeof(one));
	sendto(fd, &r, r.h.nlmsg_len, 0, NULL, 0);
	recv(fd, buf, sizeof(buf), 0);

	/* an attribute string without its NUL, and one cut by nla_len */
	link_req(&r, NLM_F_REQUEST, 1);
	put_attr(&r, IFLA_IFNAME, "abcdefgh", 8);
	put_attr(&r, IFLA_QDISC, "xyz", 4);
	((struct rtattr *)r.attrs)->rta_len = 200;
	sendto(fd, &r, r.h.nlmsg_len, MSG_DONTWAIT, NULL, 0);

	/* two messages, then trailing bytes too short for a header */
	link_req(&two[0], NLM_F_REQUEST | NLM_F_DUMP, 0);
	link_req(&two[1], NLM_F_REQUEST | NLM_F_ECHO | 0x4000, 1);
	two[1].h.nlmsg_type = RTM_DELLINK;
	memcpy(buf, &two[0], two[0].h.nlmsg_len);
	memcpy(buf + two[0].h.nlmsg_len, &two[1], two[1].h.nlmsg_len);
	memset(buf + 2 * two[0].h.nlmsg_len, 0x7f, 6);
	sendto(fd, buf, 2 * two[0].h.nlmsg_len + 6, MSG_DONTWAIT, NULL, 0);

	/* a message longer than the buffer, one shorter than its header, an
	 * ifinfomsg cut short, unknown and control types, NLMSG_DONE */
	link_req(&r, NLM_F_REQUEST, 0);
	r.h.nlmsg_len = 1000;
	sendto(fd, &r, sizeof(r.h) + sizeof(r.ifi), MSG_DONTWAIT, NULL, 0);
	r.h.nlmsg_len = 8;
	sendto(fd, &r, sizeof(r.h) + sizeof(r.ifi), MSG_DONTWAIT, NULL, 0);
	link_req(&r, NLM_F_REQUEST, 0);
	r.h.nlmsg_len = sizeof(r.h) + 4;
	sendto(fd, &r, r.h.nlmsg_len, MSG_DONTWAIT, NULL, 0);
	r.h.nlmsg_type = 0x3ff;
	r.h.nlmsg_len = sizeof(r.h) + 4;
	sendto(fd, &r, r.h.nlmsg_len, MSG_DONTWAIT, NULL, 0);
	r.h.nlmsg_type = NLMSG_NOOP;
	sendto(fd, &r, r.h.nlmsg_len, MSG_DONTWAIT, NULL, 0);
	r.h.nlmsg_type = NLMSG_DONE;
	memcpy(&r.ifi, "\x05\0\0\0", 4);
	sendto(fd, &r, r.h.nlmsg_len, MSG_DONTWAIT, NULL, 0);
	sendto(fd, &r, 10, MSG_DONTWAIT, NULL, 0);

	/* messages that run into an unmapped page */
	page = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (page != MAP_FAILED) {
		munmap(page + 4096, 4096);
		link_req(&r, NLM_F_REQUEST, 0);
		memcpy(page + 4096 - 32, &r, 32);
		sendto(fd, page + 4096 - 32, 64, MSG_DONTWAIT, NULL, 0);
		memcpy(page + 4096 - 8, &r, 8);
		sendto(fd, page + 4096 - 8, 32, MSG_DONTWAIT, NULL, 0);
	}

	/* sendmsg with a netlink msg_name (decoded) and without (a string) */
	{
		struct iovec iov[2] = { { &two[0], two[0].h.nlmsg_len },
					{ &two[1], two[1].h.nlmsg_len } };
		struct msghdr m = { .msg_name = &nl, .msg_namelen = sizeof(nl),
				    .msg_iov = iov, .msg_iovlen = 2 };

		sendmsg(fd, &m, MSG_DONTWAIT);
		m.msg_name = NULL;
		m.msg_namelen = 0;
		sendmsg(fd, &m, MSG_DONTWAIT);
	}
	close(fd);

	/* a netlink socket of another protocol: generic decoding only */
	fd = socket(AF_NETLINK, SOCK_RAW, NETLINK_USERSOCK);
	if (fd >= 0) {
		link_req(&r, NLM_F_REQUEST | NLM_F_DUMP, 0);
		sendto(fd, &r, r.h.nlmsg_len, MSG_DONTWAIT, (struct sockaddr *)&nl, sizeof(nl));
		close(fd);
	}
	return 0;
}
