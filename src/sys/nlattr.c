/* Netlink buffers and nlattr lists shared by the netlink decoders (see nlattr.h). */
#include "sys/nlattr.h"

#include <arpa/inet.h>
#include <net/if.h>
#include <stdio.h>
#include <string.h>
#include <linux/netlink.h>

#include "sys/net.h"
#include "sys/tmem.h"
#include "sys/decode_extra.h"
#include "xlat/addrfams.h"
#include "util/banned.h"

/* Bytes read from the tracee at a time when the window moves. */
#define NL_WINDOW 65536u

struct val *vl_add(struct dctx *c, struct vlist *l)
{
	if (l->n == l->cap) {
		unsigned cap = l->cap ? l->cap * 2 : 8;
		struct val *it = val_new_array(c, cap);

		if (l->n)
			memcpy(it, l->it, l->n * sizeof(*it));
		l->it = it;
		l->cap = cap;
	}
	return &l->it[l->n++];
}

const uint8_t *nl_peek(const struct nlctx *n, uint64_t off, size_t size)
{
	struct nlwin *w = n->win;
	uint64_t want;
	ssize_t r;

	if (off > n->len || size > n->len - off || !n->addr)
		return NULL;
	if (!size)
		return (const uint8_t *)"";
	if (off >= w->off && off - w->off <= w->got && size <= w->got - (off - w->off))
		return w->buf + (off - w->off);
	want = n->len - off < NL_WINDOW ? n->len - off : NL_WINDOW;
	if (want < size)
		want = size;
	if (want > w->cap) {
		w->buf = arena_alloc(n->c->arena, (size_t)want);
		w->cap = (size_t)want;
	}
	w->off = off;
	r = want ? tmem_read(n->c->tid, n->addr + off, w->buf, (size_t)want) : 0;
	w->got = r > 0 ? (uint64_t)r : 0;
	return size <= w->got ? w->buf : NULL;
}

bool nl_fetch(const struct nlctx *n, uint64_t off, void *dst, size_t size)
{
	const uint8_t *p = nl_peek(n, off, size);

	if (!p)
		return false;
	memcpy(dst, p, size);
	return true;
}

void nl_addr(const struct nlctx *n, struct val *v, const char *name, uint64_t off)
{
	val_set_ptr(v, name, n->addr + off);
}

void nl_hexstr(const struct nlctx *n, struct val *v, const char *name, uint64_t off,
	       uint64_t len)
{
	uint64_t limit = n->c->opts->string_limit;
	uint64_t need = len < limit + 1 ? len : limit + 1;
	uint64_t shown = len < limit ? len : limit;

	if (!(n->addr + off)) {
		val_set_ptr(v, name, 0);
		return;
	}
	const uint8_t *p;

	if (!(p = nl_peek(n, off, (size_t)need))) {
		nl_addr(n, v, name, off);
		return;
	}
	val_set_str(n->c, v, name, (const char *)p, (size_t)shown, len > limit);
	v->flags |= VF_HEXSTR;
}

void nl_more_at(const struct nlctx *n, struct val *v, uint64_t off)
{
	char buf[64];

	snprintf(buf, sizeof(buf), "... /* %#llx */", (unsigned long long)(n->addr + off));
	val_set_text(n->c, v, NULL, buf);
}

void nl_ifindex(const struct nlctx *n, struct val *v, const char *name, uint32_t idx)
{
	net_ifindex_val(n->c, v, name, idx);
}

void nl_inet_addr(const struct nlctx *n, struct val *v, uint64_t off, unsigned len,
		  int family)
{
	unsigned char a[16];
	char buf[INET6_ADDRSTRLEN];
	size_t size = family == AF_INET ? 4 : family == AF_INET6 ? 16 : 0;
	struct val *it, forms[3];

	if (!size || len < size) {
		nl_hexstr(n, v, NULL, off, len);
		return;
	}
	if (!nl_fetch(n, off, a, size)) {
		nl_addr(n, v, NULL, off);
		return;
	}
	if (!inet_ntop(family, a, buf, sizeof(buf))) {
		nl_hexstr(n, v, NULL, off, size);
		return;
	}
	if (family == AF_INET) {
		it = val_new_array(n->c, 1);
		val_set_str(n->c, it, NULL, buf, strlen(buf), false);
		val_set_call(n->c, &forms[0], NULL, "inet_addr", it, 1);
	} else {
		it = val_new_array(n->c, 2);
		val_set_text(n->c, &it[0], NULL, "AF_INET6");
		val_set_str(n->c, &it[1], NULL, buf, strlen(buf), false);
		val_set_call(n->c, &forms[0], NULL, "inet_pton", it, 2);
	}
	/* -X raw: the bytes; -X verbose: the bytes / * inet_addr("...") * / */
	val_set_str(n->c, &forms[1], NULL, (const char *)a, size, false);
	forms[1].flags |= VF_HEXSTR;
	val_set_verbose_form(n->c, &forms[2], &forms[1], &forms[0]);
	val_set_xforms(n->c, v, NULL, &forms[0], &forms[1], &forms[2]);
}

/* ---- attribute payloads --------------------------------------------------- */

#define NLA_INT(fn, type, set)							\
bool fn(const struct nlctx *n, struct val *v, uint64_t off, unsigned len,	\
	const void *o)								\
{										\
	type x;									\
										\
	if (len < sizeof(x))							\
		return false;							\
	if (!nl_fetch(n, off, &x, sizeof(x)))					\
		nl_addr(n, v, NULL, off);					\
	else									\
		set(v, NULL, x);						\
	return true;								\
}

NLA_INT(nla_u8, uint8_t, val_set_uint)
NLA_INT(nla_u16, uint16_t, val_set_uint)
NLA_INT(nla_u32, uint32_t, val_set_uint)
NLA_INT(nla_u64, uint64_t, val_set_uint)
NLA_INT(nla_s32, int32_t, val_set_int)
NLA_INT(nla_x32, uint32_t, val_set_hex)

bool nla_fd(const struct nlctx *n, struct val *v, uint64_t off, unsigned len, const void *o)
{
	int32_t fd;

	if (len < sizeof(fd))
		return false;
	if (!nl_fetch(n, off, &fd, sizeof(fd)))
		nl_addr(n, v, NULL, off);
	else
		val_set_fd(n->c, v, NULL, fd);
	return true;
}

bool nla_clock_t(const struct nlctx *n, struct val *v, uint64_t off, unsigned len,
		 const void *o)
{
	uint64_t x = 0;

	if (len != 4 && len != 8)
		return false;
	if (!nl_fetch(n, off, &x, len)) {
		nl_addr(n, v, NULL, off);
		return true;
	}
	if (len == 4)
		x = (uint32_t)x;
	val_set_clock_t(n->c, v, NULL, x);
	return true;
}

/* printstr_ex(QUOTE_OMIT_TRAILING_0 | QUOTE_EXPECT_TRAILING_0): the bytes
 * up to the string limit, a trailing NUL dropped; "..." when no NUL ends
 * what is shown. */
bool nla_str(const struct nlctx *n, struct val *v, uint64_t off, unsigned len,
	     const void *o)
{
	uint64_t limit = n->c->opts->string_limit;
	uint64_t need = len < limit + 1 ? len : limit + 1;
	uint64_t shown = len < limit ? len : limit;
	const char *s = (const char *)nl_peek(n, off, (size_t)need);
	bool nul;

	if (!s) {
		nl_addr(n, v, NULL, off);
		return true;
	}
	nul = shown && s[shown - 1] == '\0';
	val_set_str(n->c, v, NULL, s, (size_t)(nul ? shown - 1 : shown), len && !nul);
	return true;
}

bool nla_ifindex(const struct nlctx *n, struct val *v, uint64_t off, unsigned len,
		 const void *o)
{
	uint32_t x;

	if (len < sizeof(x))
		return false;
	if (!nl_fetch(n, off, &x, sizeof(x)))
		nl_addr(n, v, NULL, off);
	else
		nl_ifindex(n, v, NULL, x);
	return true;
}

bool nla_hwaddr(const struct nlctx *n, struct val *v, uint64_t off, unsigned len,
		const void *o)
{
	unsigned char a[32];

	if (len > sizeof(a))
		return false;
	if (!nl_fetch(n, off, a, len)) {
		nl_addr(n, v, NULL, off);
		return true;
	}
	val_set_mac(n->c, v, NULL, a, len);
	return true;
}

/* The address length of ARPHRD_* type (strace's hwaddr_sizes), 255 when
 * it has none; types above 255 never come from an address family. */
static unsigned hwaddr_size(unsigned type)
{
	switch (type) {
	case 0: /* ARPHRD_NETROM */
	case 3: /* ARPHRD_AX25 */
		return 7;
	case 1: /* ARPHRD_ETHER */
	case 6: /* ARPHRD_IEEE802 */
		return 6;
	case 7: /* ARPHRD_ARCNET */
		return 1;
	case 15: /* ARPHRD_DLCI */
		return 2;
	case 24: /* ARPHRD_IEEE1394 */
		return 16;
	case 27: /* ARPHRD_EUI64 */
		return 8;
	case 32: /* ARPHRD_INFINIBAND */
		return 20;
	default:
		return 255;
	}
}

bool nla_hwaddr_typed(const struct nlctx *n, struct val *v, uint64_t off, unsigned len,
		      unsigned type)
{
	unsigned char a[32];
	unsigned shown = hwaddr_size(type);
	struct val forms[3], *vb;
	char buf[3 * sizeof(a) + 1];
	size_t k = 0;

	if (len > sizeof(a))
		return false;
	if (!nl_fetch(n, off, a, len)) {
		nl_addr(n, v, NULL, off);
		return true;
	}
	if (shown > len)
		shown = len;
	buf[0] = '\0';
	for (unsigned i = 0; i < shown; i++)
		k += (size_t)snprintf(buf + k, sizeof(buf) - k, "%s%02x", i ? ":" : "", a[i]);
	val_set_text(n->c, &forms[0], NULL, buf);
	val_set_str(n->c, &forms[1], NULL, (const char *)a, len, false);
	forms[1].flags |= VF_HEXSTR;
	vb = val_new_array(n->c, 2);
	vb[0] = forms[1];
	val_set_comment(n->c, &vb[1], buf);
	val_set_op(&forms[2], NULL, vb, 2, " ");
	val_set_xforms(n->c, v, NULL, &forms[0], &forms[1], &forms[2]);
	return true;
}

bool nla_xval(const struct nlctx *n, struct val *v, uint64_t off, unsigned len,
	      unsigned size, const struct xlat *xl, bool flags)
{
	uint64_t x = 0;

	if (len > sizeof(x) || len < size)
		return false;
	if (!nl_fetch(n, off, &x, size ? (size < len ? size : len) : len)) {
		nl_addr(n, v, NULL, off);
		return true;
	}
	if (flags)
		val_set_flags(v, NULL, x, xl, NULL);
	else
		val_set_enum(v, NULL, x, xl);
	return true;
}

bool nl_indexed_array(const struct nlctx *n, struct val *v, uint64_t off, unsigned len,
		      unsigned size, bool is_signed, const struct xlat *idx)
{
	unsigned count = len / size, shown;
	struct vlist l = { 0 };

	if (!count)
		return false;
	shown = (unsigned)decode_elem_limit(n->c, count);
	for (unsigned i = 0; i < shown; i++) {
		uint64_t x = 0;
		struct val *p;

		if (!nl_fetch(n, off + (uint64_t)i * size, &x, size)) {
			if (!i) {
				nl_addr(n, v, NULL, off);
				return true;
			}
			nl_more_at(n, vl_add(n->c, &l), off + (uint64_t)i * size);
			shown = count;
			break;
		}
		p = val_new_array(n->c, 4);
		val_set_text(n->c, &p[0], NULL, "[");
		val_set_enum(&p[1], NULL, i, idx);
		p[1].flags |= VF_DECIMAL;
		val_set_text(n->c, &p[2], NULL, "]=");
		if (is_signed && size == 4)
			val_set_int(&p[3], NULL, (int32_t)x);
		else if (is_signed)
			val_set_int(&p[3], NULL, (int64_t)x);
		else
			val_set_uint(&p[3], NULL, x);
		val_set_op(vl_add(n->c, &l), NULL, p, 4, "");
	}
	val_set_array(v, NULL, l.it, l.n, shown < count);
	return true;
}

bool nl_uint_struct(const struct nlctx *n, struct val *v, uint64_t off, unsigned len,
		    unsigned count, unsigned size, const char *const *names)
{
	uint8_t raw[32 * 8];
	struct val *f;

	if (count > 32 || len < count * size)
		return false;
	if (!nl_fetch(n, off, raw, (size_t)count * size)) {
		nl_addr(n, v, NULL, off);
		return true;
	}
	f = val_new_array(n->c, count);
	for (unsigned i = 0; i < count; i++) {
		uint64_t x = 0;

		if (size == 8) {
			memcpy(&x, raw + i * 8, 8);
		} else if (size == 4) {
			uint32_t y;

			memcpy(&y, raw + i * 4, 4);
			x = y;
		} else {
			uint16_t y;

			memcpy(&y, raw + i * 2, 2);
			x = y;
		}
		val_set_uint(&f[i], names[i], x);
	}
	val_set_struct(v, NULL, f, count, false);
	return true;
}

/* ---- nlattr lists --------------------------------------------------------- */

static void nla_header(const struct nlctx *n, struct val *v, const struct nlattr *nla,
		       const struct xlat *types)
{
	struct val *f = val_new_array(n->c, 2);
	struct val *t = &f[1];
	uint16_t type = nla->nla_type & NLA_TYPE_MASK;

	val_set_uint(&f[0], "nla_len", nla->nla_len);
	if (nla->nla_type & (NLA_F_NESTED | NLA_F_NET_BYTEORDER)) {
		struct val *it = val_new_array(n->c, 3);
		unsigned k = 0;

		/* each part in the -X style: 0x8000|0x13 under -X raw */
		if (nla->nla_type & NLA_F_NESTED)
			val_set_named_num(n->c, &it[k++], NULL, NLA_F_NESTED, "NLA_F_NESTED");
		if (nla->nla_type & NLA_F_NET_BYTEORDER)
			val_set_named_num(n->c, &it[k++], NULL, NLA_F_NET_BYTEORDER,
					  "NLA_F_NET_BYTEORDER");
		val_set_enum(&it[k++], NULL, type, types);
		val_set_or(n->c, t, "nla_type", it, k);
	} else {
		val_set_enum(t, "nla_type", type, types);
	}
	val_set_struct(v, NULL, f, 2, false);
}

static void nla_with_data(const struct nlctx *n, struct val *v, const struct nlattr *nla,
			  uint64_t off, uint64_t len, const struct xlat *types,
			  const nla_fn *fns, unsigned nfns, const void *opaque)
{
	unsigned nla_len = nla->nla_len < len ? nla->nla_len : (unsigned)len;
	unsigned type = nla->nla_type & NLA_TYPE_MASK;
	struct val *it;
	nla_fn fn = NULL;

	if (nla_len <= NLA_HDRLEN) {
		nla_header(n, v, nla, types);
		return;
	}
	it = val_new_array(n->c, 2);
	nla_header(n, &it[0], nla, types);
	if (fns && !nfns)
		fn = fns[0], opaque = (const void *)(uintptr_t)nla->nla_type;
	else if (fns && type < nfns)
		fn = fns[type];
	if (!fn || !fn(n, &it[1], off + NLA_HDRLEN, nla_len - NLA_HDRLEN, opaque))
		nl_hexstr(n, &it[1], NULL, off + NLA_HDRLEN, nla_len - NLA_HDRLEN);
	val_set_array(v, NULL, it, 2, false);
}

void nl_attrs(const struct nlctx *n, struct val *v, uint64_t off, uint64_t len,
	      const struct xlat *types, const nla_fn *fns, unsigned nfns,
	      const void *opaque)
{
	struct vlist l = { 0 };
	bool is_array = false, more = false;

	for (unsigned elt = 0;; elt++) {
		struct nlattr nla;
		struct val *e = is_array ? vl_add(n->c, &l) : v;
		uint64_t nla_len, next_len = 0;
		bool next = false;

		if (len < sizeof(nla)) {
			nl_hexstr(n, e, NULL, off, len);
			break;
		}
		if (!nl_fetch(n, off, &nla, sizeof(nla))) {
			if (is_array)
				nl_more_at(n, e, off);
			else
				nl_addr(n, e, NULL, off);
			break;
		}
		if (elt == decode_elem_limit(n->c, UINT64_MAX) ||
		    (elt && decode_over_budget(n->c))) {
			if (is_array) {
				l.n--;
				more = true;
			} else {
				val_set_text(n->c, e, NULL, "...");
			}
			break;
		}
		nla_len = NLA_ALIGN((uint64_t)nla.nla_len);
		if (nla.nla_len >= NLA_HDRLEN) {
			next_len = len >= nla_len ? len - nla_len : 0;
			next = next_len != 0;
		}
		if (!is_array && next) {
			is_array = true;
			e = vl_add(n->c, &l);
		}
		nla_with_data(n, e, &nla, off, len, types, fns, nfns, opaque);
		if (!next)
			break;
		off += nla_len;
		len = next_len;
	}
	if (is_array)
		val_set_array(v, NULL, l.it, l.n, more);
}

bool nl_fixed_head(const struct nlctx *n, struct vlist *l, uint64_t off, unsigned len,
		   size_t size, void *buf, const char *family_name, struct vlist *f)
{
	uint8_t family;

	memcpy(&family, (const uint8_t *)buf, 1);
	val_set_enum(vl_add(n->c, f), family_name, family, addrfams);
	if (len < size) {
		val_set_struct(vl_add(n->c, l), NULL, f->it, f->n, true);
		return false;
	}
	if (!nl_fetch(n, off + 1, (uint8_t *)buf + 1, size - 1)) {
		nl_addr(n, vl_add(n->c, f), NULL, off + 1);
		val_set_struct(vl_add(n->c, l), NULL, f->it, f->n, false);
		return false;
	}
	return true;
}
