/*
 * Socket ioctls (type 0x89) on a real socket (SIOCGIFCONF, SIOCGIFNAME,
 * SIOCGIFFLAGS of lo) and on a bad descriptor, with filled, short and bad
 * arguments, for tests/t/decode_ioctl_sock.sh.
 */
#include <net/if.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <linux/sockios.h>

#include "ioctl_test.h"

int main(void)
{
	int s = socket(AF_INET, SOCK_DGRAM, 0);
	struct ifreq *r = TAIL(struct ifreq);
	struct ifconf *ifc = TAIL(struct ifconf);
	struct ifreq *buf = tail_alloc(2 * sizeof(struct ifreq));
	int *pi = TAIL(int);
	char *name = tail_alloc(16);

	ifc->ifc_len = 2 * sizeof(struct ifreq);
	ifc->ifc_buf = NULL;
	ioctl(s, SIOCGIFCONF, ifc);
	ifc->ifc_buf = (char *)buf;
	ifc->ifc_len = sizeof(struct ifreq);
	ioctl(s, SIOCGIFCONF, ifc);
	ifc->ifc_len = 2 * sizeof(struct ifreq) + 3;
	ioctl(s, SIOCGIFCONF, ifc);
	ioctl(s, SIOCGIFCONF, NULL);
	ifc->ifc_buf = BAD_PTR;
	ioctl(s, SIOCGIFCONF, ifc);

	memset(r, 0, sizeof(*r));
	r->ifr_ifindex = 1;
	ioctl(s, SIOCGIFNAME, r);
	strcpy(r->ifr_name, "lo");
	ioctl(s, SIOCGIFFLAGS, r);
	ioctl(s, SIOCGIFINDEX, r);
	ioctl(s, SIOCGIFMTU, r);
	ioctl(s, SIOCGIFADDR, r);
	ioctl(s, SIOCGIFHWADDR, r);
	strcpy(r->ifr_name, "nosuchif0");
	ioctl(s, SIOCGIFFLAGS, r);

	memset(r, 0, sizeof(*r));
	strcpy(r->ifr_name, "eth9");
	r->ifr_flags = IFF_UP | IFF_LOOPBACK;
	IOC(SIOCSIFFLAGS, r);
	r->ifr_mtu = 1500;
	IOC(SIOCSIFMTU, r);
	r->ifr_addr.sa_family = AF_INET;
	((struct sockaddr_in *)&r->ifr_addr)->sin_addr.s_addr = htonl(0x7f000001);
	IOC(SIOCSIFADDR, r);
	IOC(SIOCSIFNETMASK, r);
	r->ifr_hwaddr.sa_family = 1;   /* ARPHRD_ETHER */
	memcpy(r->ifr_hwaddr.sa_data, "\x00\x11\x22\x33\x44\x55", 6);
	IOC(SIOCSIFHWADDR, r);
	r->ifr_hwaddr.sa_family = 0xfffe;
	IOC(SIOCADDMULTI, r);
	strcpy(r->ifr_newname, "new0");
	IOC(SIOCSIFNAME, r);
	r->ifr_map.mem_start = 1;
	IOC(SIOCSIFMAP, r);
	IOC(SIOCSIFTXQLEN, r);
	IOC(SIOCSIFMAP, (char *)r + 1);
	r->ifr_ifindex = 1;
	IOC(SIOCBRADDIF, r);
	r->ifr_ifindex = 999999;
	IOC(SIOCBRDELIF, r);
	memcpy(name, "0123456789abcdef", 16);
	IOC(SIOCBRADDBR, name);
	IOC(SIOCBRDELBR, "br0");
	*pi = 42;
	IOC(FIOSETOWN, pi);
	IOC(SIOCSPGRP, pi);
	IOC(FIOGETOWN, pi);
	IOC(SIOCATMARK, NULL);
	IOC(SIOCGSTAMP_OLD, pi);
	IOC(SIOCETHTOOL, NULL);
	return 0;
}
