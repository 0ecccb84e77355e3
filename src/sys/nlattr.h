/*
 * Netlink buffers and nlattr lists for the netlink decoders (netlink.c and
 * the protocol decoders netlink_*.c): reading a buffer through a window of
 * the tracee's memory, building value lists, attribute lists with their
 * common payload decoders.
 */
#ifndef RENACER_NLATTR_H
#define RENACER_NLATTR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sys/decode.h"

/* The bytes of a netlink buffer read so far: a window of the tracee's
 * memory, refilled on demand, so that memory follows what is decoded and
 * not what the call claims.  Starts zeroed. */
struct nlwin {
	uint8_t *buf;       /* c->arena */
	size_t cap;
	uint64_t off;       /* buffer offset of buf[0] */
	uint64_t got;       /* bytes of buf that were read */
};

/* A netlink buffer of len bytes at addr in the tracee, read lazily through
 * win as strace reads it (umove by umove); offsets below are into it. */
struct nlctx {
	struct dctx *c;
	struct nlwin *win;
	uint64_t addr;
	uint64_t len;
	int family;
};

/* A growing list of values (an array or struct being built), in c->arena. */
struct vlist {
	struct val *it;
	unsigned n, cap;
};

/* Appends a zeroed value to l and returns it. */
struct val *vl_add(struct dctx *c, struct vlist *l);

/* Copies size bytes at off into dst; false when they are beyond len or
 * cannot all be read. */
bool nl_fetch(const struct nlctx *n, uint64_t off, void *dst, size_t size);
/* The size bytes at off, or NULL as nl_fetch fails; valid until the next
 * nl_peek or nl_fetch of n. */
const uint8_t *nl_peek(const struct nlctx *n, uint64_t off, size_t size);
/* v = the tracee address of offset off (strace's printaddr). */
void nl_addr(const struct nlctx *n, struct val *v, const char *name, uint64_t off);
/* v = "... / * 0xADDR * /" for offset off: strace's
 * tprint_more_data_follows + printaddr_comment. */
void nl_more_at(const struct nlctx *n, struct val *v, uint64_t off);
/* v = len bytes at off as a hex string (printstr_ex QUOTE_FORCE_HEX). */
void nl_hexstr(const struct nlctx *n, struct val *v, const char *name, uint64_t off,
	       uint64_t len);

/*
 * An attribute payload decoder: fills v from len bytes at off and returns
 * true, or returns false to have the payload shown as a hex string.
 * opaque: the decoder table's opaque data, or the nla_type for tables of
 * size 0 (one decoder for every type).
 */
typedef bool (*nla_fn)(const struct nlctx *n, struct val *v, uint64_t off, unsigned len,
		       const void *opaque);

/*
 * v = the nlattr list in len bytes at off (strace's decode_nlattr): types
 * named from the table types, payloads decoded by fns[type] (nfns entries;
 * nfns 0: fns[0] for every type, called with the type as opaque).
 */
void nl_attrs(const struct nlctx *n, struct val *v, uint64_t off, uint64_t len,
	      const struct xlat *types, const nla_fn *fns, unsigned nfns,
	      const void *opaque);

/* Common payload decoders (strace's decode_nla_*). */
bool nla_u8(const struct nlctx *n, struct val *v, uint64_t off, unsigned len, const void *o);
bool nla_u16(const struct nlctx *n, struct val *v, uint64_t off, unsigned len, const void *o);
bool nla_u32(const struct nlctx *n, struct val *v, uint64_t off, unsigned len, const void *o);
bool nla_u64(const struct nlctx *n, struct val *v, uint64_t off, unsigned len, const void *o);
bool nla_s32(const struct nlctx *n, struct val *v, uint64_t off, unsigned len, const void *o);
bool nla_x32(const struct nlctx *n, struct val *v, uint64_t off, unsigned len, const void *o);
/* A clock_t of 4 or 8 bytes in ticks: "1500 / * 15.00 s * /". */
bool nla_clock_t(const struct nlctx *n, struct val *v, uint64_t off, unsigned len,
		 const void *o);
/* A file descriptor of the tracee (printfd: -y paths and all). */
bool nla_fd(const struct nlctx *n, struct val *v, uint64_t off, unsigned len, const void *o);
bool nla_str(const struct nlctx *n, struct val *v, uint64_t off, unsigned len, const void *o);
bool nla_ifindex(const struct nlctx *n, struct val *v, uint64_t off, unsigned len,
		 const void *o);
/* A hardware address: 00:11:22:33:44:55. */
bool nla_hwaddr(const struct nlctx *n, struct val *v, uint64_t off, unsigned len,
		const void *o);
/* A hardware address whose colon form is cut to the address length of
 * ARPHRD_* type (strace's print_hwaddr); -X raw: the bytes. */
bool nla_hwaddr_typed(const struct nlctx *n, struct val *v, uint64_t off, unsigned len,
		      unsigned type);
/* An xlat value of size bytes (1, 2 or 4) printed with xl (enum) or as flags. */
bool nla_xval(const struct nlctx *n, struct val *v, uint64_t off, unsigned len,
	      unsigned size, const struct xlat *xl, bool flags);
/* Defines the nla_fn name: nla_xval() of size bytes named from xl. */
#define NLA_XVAL_FN(name, size, xl, flags)                                               \
	static bool name(const struct nlctx *n, struct val *v, uint64_t off, unsigned len, \
			 const void *o)                                                    \
	{                                                                                 \
		(void)o;                                                                  \
		return nla_xval(n, v, off, len, size, xl, flags);                         \
	}

/*
 * v = {names[0]=x, ...}: a structure of count unsigned fields of size bytes
 * (2, 4 or 8; count at most 32) at off; false when len is shorter.
 */
bool nl_uint_struct(const struct nlctx *n, struct val *v, uint64_t off, unsigned len,
		    unsigned count, unsigned size, const char *const *names);

/*
 * v = [[NAME]=x, ...]: the len / size integers of size bytes (4 or 8) at
 * off, indexed by names from idx (strace's print_array_ex with
 * PAF_PRINT_INDICES; indices in decimal in every -X style), cut at the
 * string limit unless -v; false when len holds no element.
 */
bool nl_indexed_array(const struct nlctx *n, struct val *v, uint64_t off, unsigned len,
		      unsigned size, bool is_signed, const struct xlat *idx);

/* inet_addr("1.2.3.4") / inet_pton(AF_INET6, "::1") for family, else a hex
 * string (strace's decode_inet_addr without a field name). */
void nl_inet_addr(const struct nlctx *n, struct val *v, uint64_t off, unsigned len,
		  int family);
/*
 * The fixed header of size bytes at off whose first byte, already in buf,
 * is an address family: appends family_name=AF_... to f; when len is
 * shorter than size, appends {family_name=..., ...} to l; when the rest
 * cannot be read, {family_name=..., 0xADDR}; both return false.  Else reads
 * the header into buf and returns true: the caller appends the other
 * fields to f and the struct to l (strace's decode of a family-led
 * message header).
 */
bool nl_fixed_head(const struct nlctx *n, struct vlist *l, uint64_t off, unsigned len,
		   size_t size, void *buf, const char *family_name, struct vlist *f);

/* if_nametoindex("lo") or the number (strace's print_ifindex). */
void nl_ifindex(const struct nlctx *n, struct val *v, const char *name, uint32_t idx);

#endif
