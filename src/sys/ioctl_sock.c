/*
 * Socket ioctls (type 0x89, linux/sockios.h): struct ifreq of the network
 * interface requests, SIOCGIFCONF's list, the bridge requests, and the
 * ints of FIOSETOWN and friends.
 */
#include <net/if.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <linux/sockios.h>

#include "sys/ioc.h"
#include "xlat/arp_hardware_types.h"
#include "xlat/iffflags.h"

#include "util/banned.h"

/* Bytes of a hardware address of a device type, where the kernel knows
 * fewer than sa_data's 14 (ETH_ALEN and friends); 255: all of them. */
static unsigned hwaddr_size(unsigned type)
{
	switch (type) {
	case ARPHRD_NETROM: case ARPHRD_AX25: return 7;
	case ARPHRD_ETHER: case ARPHRD_IEEE802: case ARPHRD_LOOPBACK: case ARPHRD_FDDI:
	case ARPHRD_HIPPI: case ARPHRD_IEEE80211: case ARPHRD_IEEE80211_PRISM:
	case ARPHRD_IEEE80211_RADIOTAP:
		return 6;
	case ARPHRD_ARCNET: case ARPHRD_LOCALTLK: case ARPHRD_PHONET: case ARPHRD_PHONET_PIPE:
	case 290 /* ARPHRD_MCTP */:
		return 1;
	case ARPHRD_DLCI: return sizeof(short);
	case ARPHRD_IEEE1394: case ARPHRD_TUNNEL6: case ARPHRD_IP6GRE: return 16;
	case ARPHRD_EUI64: case ARPHRD_IEEE802154: case ARPHRD_IEEE802154_MONITOR:
	case ARPHRD_6LOWPAN:
		return 8;
	case ARPHRD_INFINIBAND: return 20;
	case ARPHRD_ROSE: return 5;
	case ARPHRD_TUNNEL: case ARPHRD_SIT: case ARPHRD_IPGRE: case ARPHRD_IRDA: return 4;
	case ARPHRD_SLIP: case ARPHRD_X25: case ARPHRD_CAN: case ARPHRD_PPP:
	case ARPHRD_RAWHDLC: case ARPHRD_RAWIP: case ARPHRD_IPDDP: case ARPHRD_PIMREG:
	case ARPHRD_CAIF: case ARPHRD_NETLINK: case ARPHRD_VSOCKMON:
		return 0;
	}
	return 255;
}

/* sa_data=00:11:22:33:44:55 (-X raw: the bytes "\x00..."; -X verbose: both) */
static void hwaddr(struct dctx *c, struct val *v, const char *name, const uint8_t *a,
		   size_t size, unsigned type)
{
	unsigned n = hwaddr_size(type);
	char text[14 * 3 + 1];
	size_t pos = 0;
	struct val ab, raw, vb;

	if (n > size)
		n = (unsigned)size;
	text[0] = '\0';
	for (unsigned i = 0; i < n; i++)
		pos += (size_t)snprintf(text + pos, sizeof(text) - pos, "%s%02x", i ? ":" : "",
					a[i]);
	val_set_text(c, &ab, NULL, text);
	ioc_set_hexstr(c, &raw, NULL, a, size);
	val_set_commented(c, &vb, NULL, &raw, text);
	ioc_set_xalt(c, v, name, &ab, &raw, &vb);
}

static void ifmap(struct dctx *c, struct val *v, const struct ifmap *m)
{
	struct val *f = val_new_array(c, 6);

	FLD_X(&f[0], *m, mem_start);
	FLD_X(&f[1], *m, mem_end);
	FLD_X(&f[2], *m, base_addr);
	FLD_X(&f[3], *m, irq);
	FLD_X(&f[4], *m, dma);
	FLD_X(&f[5], *m, port);
	val_set_struct(v, "ifr_map", f, 6, false);
}

static void sockaddr_field(struct dctx *c, struct val *v, const char *name,
			   const struct sockaddr *sa)
{
	decode_sockaddr_buf(c, v, name, sa, sizeof(*sa));
}

/* The request's field of struct ifreq; false when it has none. */
static bool ifreq_field(struct dctx *c, struct val *v, uint32_t code, const struct ifreq *r)
{
	struct val *f;

	switch (code) {
	case SIOCSIFADDR: case SIOCGIFADDR:
		sockaddr_field(c, v, "ifr_addr", &r->ifr_addr);
		return true;
	case SIOCSIFDSTADDR: case SIOCGIFDSTADDR:
		sockaddr_field(c, v, "ifr_dstaddr", &r->ifr_dstaddr);
		return true;
	case SIOCSIFBRDADDR: case SIOCGIFBRDADDR:
		sockaddr_field(c, v, "ifr_broadaddr", &r->ifr_broadaddr);
		return true;
	case SIOCSIFNETMASK: case SIOCGIFNETMASK:
		sockaddr_field(c, v, "ifr_netmask", &r->ifr_netmask);
		return true;
	case SIOCADDMULTI: case SIOCDELMULTI: case SIOCGIFHWADDR: case SIOCSIFHWADDR:
	case SIOCSIFHWBROADCAST:
		f = val_new_array(c, 2);
		val_set_enum(&f[0], "sa_family", r->ifr_hwaddr.sa_family, arp_hardware_types);
		hwaddr(c, &f[1], "sa_data", (const uint8_t *)r->ifr_hwaddr.sa_data,
		       sizeof(r->ifr_hwaddr.sa_data), r->ifr_hwaddr.sa_family);
		val_set_struct(v, "ifr_hwaddr", f, 2, false);
		return true;
	case SIOCSIFFLAGS: case SIOCGIFFLAGS:
		val_set_flags(v, "ifr_flags", (uint16_t)r->ifr_flags, iffflags, NULL);
		return true;
	case SIOCGIFINDEX:
		val_set_int(v, "ifr_ifindex", r->ifr_ifindex);
		return true;
	case SIOCSIFMETRIC: case SIOCGIFMETRIC:
		val_set_int(v, "ifr_metric", r->ifr_metric);
		return true;
	case SIOCSIFMTU: case SIOCGIFMTU:
		val_set_int(v, "ifr_mtu", r->ifr_mtu);
		return true;
	case SIOCSIFSLAVE: case SIOCGIFSLAVE:
		ioc_set_cstring(c, v, "ifr_slave", r->ifr_slave, sizeof(r->ifr_slave));
		return true;
	case SIOCSIFNAME:
		ioc_set_cstring(c, v, "ifr_newname", r->ifr_newname, sizeof(r->ifr_newname));
		return true;
	case SIOCGIFNAME:
		ioc_set_cstring(c, v, "ifr_name", r->ifr_name, sizeof(r->ifr_name));
		return true;
	case SIOCSIFTXQLEN: case SIOCGIFTXQLEN:
		val_set_int(v, "ifr_qlen", r->ifr_qlen);
		return true;
	case SIOCSIFMAP: case SIOCGIFMAP:
		ifmap(c, v, &r->ifr_map);
		return true;
	}
	return false;
}

/* ---- SIOCGIFCONF ------------------------------------------------------------ */

/* 80 / * 2 * sizeof(struct ifreq) * / */
static void ifc_len(struct dctx *c, struct val *v, int len)
{
	struct val x;
	unsigned n = (unsigned)len / sizeof(struct ifreq);

	val_set_int(&x, NULL, len);
	if (len > 0 && n * sizeof(struct ifreq) == (unsigned)len)
		val_set_commented(c, v, NULL, &x, ioc_printf(c, "%u * sizeof(struct ifreq)", n));
	else
		*v = x;
}

static void ifconf_elem(struct dctx *c, struct val *item, const void *elem, void *arg)
{
	const struct ifreq *r = elem;
	struct val *f = val_new_array(c, 2);

	ioc_set_cstring(c, &f[0], "ifr_name", r->ifr_name, sizeof(r->ifr_name));
	sockaddr_field(c, &f[1], "ifr_addr", &r->ifr_addr);
	val_set_struct(item, NULL, f, 2, false);
}

/*
 * Entry: "{ifc_len=N" (the length only when there is a buffer); exit: the
 * length again when it changed (" => N") or had no buffer, then the
 * buffer's entries, or its address when there was none or the call
 * failed.  The entry's ifc_len and ifc_buf are kept as items 2 and 3 of
 * the structure, beyond the shown ones.
 */
static int ifconf(struct ioc *io)
{
	struct dctx *c = io->c;
	struct ifconf ifc;
	struct val *v, *f, *len;
	int elen;
	uint64_t ebuf, buf;

	if (!io->exiting) {
		v = ioc_val(io);
		if (!tread(c, io->arg, &ifc, sizeof(ifc))) {
			val_set_ptr(v, v->name, io->arg);
			return IOC_DONE;
		}
		f = val_new_array(c, 4);
		f[0].name = "ifc_len";
		if (ifc.ifc_buf)
			ifc_len(c, &f[0], ifc.ifc_len);
		else
			val_set_text(c, &f[0], NULL, "");
		f[0].name = "ifc_len";
		val_set_int(&f[2], NULL, ifc.ifc_len);
		val_set_ptr(&f[3], NULL, (uint64_t)(uintptr_t)ifc.ifc_buf);
		val_set_struct(v, v->name, f, 1, false);
		v->flags |= VF_OPEN;
		return IOC_EXIT;
	}
	v = ioc_reopen(io);
	if (!v)
		return IOC_DONE;
	f = v->c.items;
	elen = (int)f[2].i;
	ebuf = f[3].u;
	if (!tread(c, io->arg, &ifc, sizeof(ifc))) {
		if (!ebuf)
			ifc_len(c, &f[0], elen);
		f[0].name = "ifc_len";
		val_set_ptr(&f[1], "ifc_buf", ebuf);
		v->c.n = 2;
		return IOC_DONE;
	}
	buf = (uint64_t)(uintptr_t)ifc.ifc_buf;
	len = val_new_array(c, 3);
	unsigned n = 0;

	if (ebuf) {
		len[n++] = f[0];
		len[n - 1].name = NULL;
	}
	if (ebuf && elen != ifc.ifc_len)
		val_set_text(c, &len[n++], NULL, " => ");
	if (!ebuf || elen != ifc.ifc_len)
		ifc_len(c, &len[n++], ifc.ifc_len);
	val_set_op(&f[0], "ifc_len", len, n, NULL);
	if (!ebuf || io->ev->err) {
		if (ebuf != buf) {
			struct val *p = val_new_array(c, 3);

			val_set_ptr(&p[0], NULL, ebuf);
			val_set_text(c, &p[1], NULL, " => ");
			val_set_ptr(&p[2], NULL, buf);
			val_set_op(&f[1], "ifc_buf", p, 3, NULL);
		} else {
			val_set_ptr(&f[1], "ifc_buf", ebuf);
		}
	} else {
		decode_array(c, &f[1], "ifc_buf", buf,
			     (uint64_t)(unsigned)ifc.ifc_len / sizeof(struct ifreq),
			     sizeof(struct ifreq), ifconf_elem, NULL);
	}
	v->c.n = 2;
	return IOC_DONE;
}

/* ifr_ifindex=if_nametoindex("lo"), or the number */
static void ifindex(struct dctx *c, struct val *v, const char *name, int idx)
{
	char ifname[IF_NAMESIZE + 1];

	if (idx > 0 && if_indextoname((unsigned)idx, ifname)) {
		/* -X raw: 1; -X verbose: 1 / * if_nametoindex("lo") * / */
		struct val *it = val_new_array(c, 1), ab, raw, vb, *vi = val_new_array(c, 2);

		val_set_str(c, it, NULL, ifname, strlen(ifname), false);
		val_set_call(c, &ab, NULL, "if_nametoindex", it, 1);
		val_set_uint(&raw, NULL, (unsigned)idx);
		vi[0] = raw;
		val_set_text(c, &vi[1], NULL, " /* ");
		val_set_op(&vb, NULL, vi, 2, NULL);
		{
			struct val *w = val_new_array(c, 3);

			w[0] = vb;
			w[1] = ab;
			val_set_text(c, &w[2], NULL, " */");
			val_set_op(&vb, NULL, w, 3, NULL);
		}
		ioc_set_xalt(c, v, name, &ab, &raw, &vb);
	} else {
		val_set_uint(v, name, (unsigned)idx);
	}
}

int ioctl_sock(struct ioc *io)
{
	struct dctx *c = io->c;
	struct ifreq r;
	struct val *v, *f;

	switch (io->code) {
	case SIOCGIFCONF:
		return ifconf(io);
	case SIOCBRADDBR: case SIOCBRDELBR:
		v = ioc_val(io);
		ioc_read_cstr_n(io, v, v->name, io->arg, sizeof(r.ifr_name), false);
		return IOC_DONE;
	case FIOGETOWN: case SIOCATMARK: case SIOCGIFENCAP: case SIOCGPGRP: case SIOCOUTQNSD:
		if (!io->exiting)
			return IOC_EXIT;
		/* fall through */
	case FIOSETOWN: case SIOCSIFENCAP: case SIOCSPGRP:
		return ioc_arg_num(io, sizeof(int), NUM_D);
	case SIOCBRADDIF: case SIOCBRDELIF:
		v = ioc_val(io);
		if (ioc_read(io, v, io->arg, &r, sizeof(r))) {
			f = val_new_array(c, 1);
			ifindex(c, &f[0], "ifr_ifindex", r.ifr_ifindex);
			val_set_struct(v, v->name, f, 1, false);
		}
		return IOC_DONE;
	case SIOCADDMULTI: case SIOCDELMULTI: case SIOCSIFADDR: case SIOCSIFBRDADDR:
	case SIOCSIFDSTADDR: case SIOCSIFFLAGS: case SIOCSIFHWADDR: case SIOCSIFHWBROADCAST:
	case SIOCSIFMAP: case SIOCSIFMETRIC: case SIOCSIFMTU: case SIOCSIFNAME:
	case SIOCSIFNETMASK: case SIOCSIFSLAVE: case SIOCSIFTXQLEN:
		v = ioc_val(io);
		if (ioc_read(io, v, io->arg, &r, sizeof(r))) {
			f = val_new_array(c, 2);
			ioc_set_cstring(c, &f[0], "ifr_name", r.ifr_name, sizeof(r.ifr_name));
			ifreq_field(c, &f[1], io->code, &r);
			val_set_struct(v, v->name, f, 2, false);
		}
		return IOC_DONE;
	case SIOCGIFADDR: case SIOCGIFBRDADDR: case SIOCGIFDSTADDR: case SIOCGIFFLAGS:
	case SIOCGIFHWADDR: case SIOCGIFINDEX: case SIOCGIFMAP: case SIOCGIFMETRIC:
	case SIOCGIFMTU: case SIOCGIFNAME: case SIOCGIFNETMASK: case SIOCGIFSLAVE:
	case SIOCGIFTXQLEN:
		if (!io->exiting) {
			v = ioc_val(io);
			if (!ioc_read(io, v, io->arg, &r, sizeof(r)))
				return IOC_DONE;
			f = val_new_array(c, 2);
			if (io->code == SIOCGIFNAME)
				val_set_int(&f[0], "ifr_ifindex", r.ifr_ifindex);
			else
				ioc_set_cstring(c, &f[0], "ifr_name", r.ifr_name,
						sizeof(r.ifr_name));
			val_set_struct(v, v->name, f, 1, false);
			v->flags |= VF_OPEN;
			return IOC_EXIT;
		}
		v = ioc_reopen(io);
		if (v && !io->ev->err && tread(c, io->arg, &r, sizeof(r)) &&
		    ifreq_field(c, &v->c.items[1], io->code, &r))
			v->c.n = 2;
		return IOC_DONE;
	case SIOCADDDLCI: case SIOCADDRT: case SIOCBONDCHANGEACTIVE: case SIOCBONDENSLAVE:
	case SIOCBONDINFOQUERY: case SIOCBONDRELEASE: case SIOCBONDSETHWADDR:
	case SIOCBONDSLAVEINFOQUERY: case SIOCDARP: case SIOCDELDLCI: case SIOCDELRT:
	case SIOCDIFADDR: case SIOCDRARP: case SIOCETHTOOL: case SIOCGARP: case SIOCGHWTSTAMP:
	case SIOCGIFBR: case SIOCGIFCOUNT: case SIOCGIFMEM: case SIOCGIFPFLAGS:
	case SIOCGIFVLAN: case SIOCGMIIPHY: case SIOCGMIIREG: case SIOCGRARP: case SIOCGSKNS:
	case SIOCGSTAMP_OLD: case SIOCGSTAMPNS_OLD: case SIOCGSTAMP_NEW: case SIOCGSTAMPNS_NEW:
	case SIOCRTMSG: case SIOCSARP:
	case SIOCSHWTSTAMP: case SIOCSIFBR: case SIOCSIFLINK: case SIOCSIFMEM:
	case SIOCSIFPFLAGS: case SIOCSIFVLAN: case SIOCSMIIREG: case SIOCSRARP:
	case SIOCWANDEV:
		return ioc_arg_ptr(io);
	}
	return IOC_DEFAULT;
}
