/*
 * Memory decoders: mmap, munmap, mprotect, brk, mremap, madvise, msync,
 * mlock family, mincore, and the NUMA policy calls (set_mempolicy,
 * get_mempolicy, mbind, migrate_pages, move_pages, set_mempolicy_home_node),
 * process_madvise.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "sys/decode.h"
#include "sys/pidns.h"

#include "sys/decode_extra.h"
#include "xlat/get_mempolicy_flags.h"
#include "xlat/madvise_cmds.h"
#include "xlat/mbind_flags.h"
#include "xlat/move_pages_flags.h"
#include "xlat/mlock_flags.h"
#include "xlat/mlockall_flags.h"
#include "xlat/mmap_flags.h"
#include "xlat/mmap_prot.h"
#include "xlat/mmap_type.h"
#include "xlat/mpol_mode_flags.h"
#include "xlat/mpol_modes.h"
#include "xlat/mremap_flags.h"
#include "xlat/msync_flags.h"
#include "util/banned.h"

#define MAP_TYPE_MASK 0xfULL
#define HUGE_SHIFT 26
#define HUGE_MASK 0x3fULL

static void arg_prot(struct dctx *c, struct event *ev, unsigned i)
{
	arg_flags(c, ev, i, mmap_prot, "PROT_NONE");
}

/* mmap flags as strace: TYPE|FLAG|...|N<<MAP_HUGE_SHIFT.  x86_64's mmap
 * takes them as an unsigned long; strace 6.1 shows the low 32 bits. */
static void arg_mmap_flags(struct dctx *c, struct event *ev, unsigned i)
{
	struct val *v = arg_slot(c, ev, i);
	uint64_t f = (uint32_t)ev->karg[i];
	uint64_t huge = (f >> HUGE_SHIFT) & HUGE_MASK;
	uint64_t rest = f & ~MAP_TYPE_MASK & ~(HUGE_MASK << HUGE_SHIFT);
	struct val *it = val_new_array(c, 3);
	unsigned n = 0;

	val_set_enum(&it[n++], NULL, f & MAP_TYPE_MASK, mmap_type);
	/* other bits without a name: plain hex, as strace 6.1 after the type */
	if (rest && xlat_flags_named(mmap_flags, rest))
		val_set_flags(&it[n++], NULL, rest, mmap_flags, NULL);
	else if (rest)
		val_set_hex(&it[n++], NULL, rest);
	if (huge) {
		/* a named number, so that -X raw/verbose show the whole word */
		char text[48];

		snprintf(text, sizeof(text), "%llu<<MAP_HUGE_SHIFT", (unsigned long long)huge);
		val_set_named_num(c, &it[n++], NULL, huge << HUGE_SHIFT, text);
	}
	/* one "|" expression even for a lone type: -X verbose shows the
	 * number and the whole abbreviated form ("0xf / * 0xf / * MAP_??? * / * /") */
	val_set_op(v, v->name, it, n, "|");
}

/* mmap(addr, length, prot, flags, fd, offset) = address */
SYS_FUNC(mmap)
{
	if (exiting) {
		ev->rv_fmt = RV_HEX;
		return RVAL_DONE;
	}
	arg_ptr(ctx, ev, 0);
	arg_uint(ctx, ev, 1);
	arg_prot(ctx, ev, 2);
	arg_mmap_flags(ctx, ev, 3);
	arg_fd(ctx, ev, 4);
	arg_hex(ctx, ev, 5);
	return RVAL_EXIT;
}

SYS_FUNC(munmap)
{
	arg_ptr(ctx, ev, 0);
	arg_uint(ctx, ev, 1);
	return RVAL_DONE;
}

SYS_FUNC(mprotect)
{
	arg_ptr(ctx, ev, 0);
	arg_uint(ctx, ev, 1);
	arg_prot(ctx, ev, 2);
	return RVAL_DONE;
}

SYS_FUNC(pkey_mprotect)
{
	arg_ptr(ctx, ev, 0);
	arg_uint(ctx, ev, 1);
	arg_prot(ctx, ev, 2);
	arg_int(ctx, ev, 3);
	return RVAL_DONE;
}

SYS_FUNC(brk)
{
	if (exiting) {
		ev->rv_fmt = RV_HEX;
		return RVAL_DONE;
	}
	arg_ptr(ctx, ev, 0);
	return RVAL_EXIT;
}

/* remap_file_pages(start, size, prot, pgoff, flags) */
SYS_FUNC(remap_file_pages)
{
	arg_ptr(ctx, ev, 0);
	arg_uint(ctx, ev, 1);
	arg_prot(ctx, ev, 2);
	arg_uint(ctx, ev, 3);
	arg_mmap_flags(ctx, ev, 4);
	return RVAL_DONE;
}

/* mremap(old, old_size, new_size, flags[, new_address]) = address */
SYS_FUNC(mremap)
{
	if (exiting) {
		ev->rv_fmt = RV_HEX;
		return RVAL_DONE;
	}
	arg_ptr(ctx, ev, 0);
	arg_uint(ctx, ev, 1);
	arg_uint(ctx, ev, 2);
	arg_flags(ctx, ev, 3, mremap_flags, NULL);
	if ((ev->karg[3] & 3) == 3)
		arg_ptr(ctx, ev, 4);
	else
		ev->nargs = 4;
	return RVAL_EXIT;
}

SYS_FUNC(madvise)
{
	arg_ptr(ctx, ev, 0);
	arg_uint(ctx, ev, 1);
	arg_enum(ctx, ev, 2, madvise_cmds);
	ev->args[2].x.v = (uint32_t)ev->karg[2];
	return RVAL_DONE;
}

SYS_FUNC(msync)
{
	arg_ptr(ctx, ev, 0);
	arg_uint(ctx, ev, 1);
	arg_flags(ctx, ev, 2, msync_flags, NULL);
	return RVAL_DONE;
}

SYS_FUNC(mlock)
{
	arg_ptr(ctx, ev, 0);
	arg_uint(ctx, ev, 1);
	return RVAL_DONE;
}

SYS_FUNC(munlock)
{
	arg_ptr(ctx, ev, 0);
	arg_uint(ctx, ev, 1);
	return RVAL_DONE;
}

SYS_FUNC(mlock2)
{
	arg_ptr(ctx, ev, 0);
	arg_uint(ctx, ev, 1);
	arg_flags(ctx, ev, 2, mlock_flags, NULL);
	return RVAL_DONE;
}

SYS_FUNC(mlockall)
{
	arg_flags(ctx, ev, 0, mlockall_flags, NULL);
	return RVAL_DONE;
}

/* One page's byte of mincore's vector: its residency bit, as strace. */
static void mincore_elem(struct dctx *c, struct val *item, const void *elem, void *arg)
{
	val_set_uint(item, NULL, *(const unsigned char *)elem & 1);
}

/* mincore(addr, length, vec): vec at exit, one 0/1 per page, as strace's
 * print_array (cut at the string limit, all with -v). */
SYS_FUNC(mincore)
{
	uint64_t pages;
	struct val *v;

	if (!exiting) {
		arg_ptr(ctx, ev, 0);
		arg_uint(ctx, ev, 1);
		arg_count(ev, 3);
		return RVAL_EXIT;
	}
	pages = ev->karg[1] / 4096 + ((ev->karg[1] & 4095) ? 1 : 0);
	v = arg_slot(ctx, ev, 2);
	if (ev->err)
		val_set_ptr(v, v->name, ev->karg[2]);
	else
		decode_array(ctx, v, v->name, ev->karg[2], pages, 1, mincore_elem, NULL);
	v->flags |= VF_EXIT;
	return RVAL_DONE;
}

/* ---- NUMA memory policy ------------------------------------------------- */

#define MPOL_FLAG_BITS 0xe000u   /* MPOL_F_STATIC_NODES|RELATIVE_NODES|NUMA_BALANCING */

/* A policy mode as strace prints it: MPOL_BIND, MPOL_BIND|MPOL_F_STATIC_NODES;
 * an unknown mode alone as hex with an MPOL_??? comment, an unknown mode
 * with mode flags as a flag set (MPOL_F_STATIC_NODES|0x6). */
static void val_set_mpol_mode(struct dctx *c, struct val *v, const char *name, uint32_t arg)
{
	uint32_t mode = arg & ~MPOL_FLAG_BITS, flags = arg & MPOL_FLAG_BITS;
	struct val *it;

	if (!xlat_name(mpol_modes, mode)) {
		if (flags)
			val_set_flags(v, name, arg, mpol_mode_flags, NULL);
		else
			val_set_enum(v, name, arg, mpol_modes);
		return;
	}
	if (!flags) {
		val_set_enum(v, name, mode, mpol_modes);
		return;
	}
	it = val_new_array(c, 2);
	val_set_enum(&it[0], NULL, mode, mpol_modes);
	val_set_flags(&it[1], NULL, flags, mpol_mode_flags, NULL);
	val_set_op(v, name, it, 2, "|");
}

static void node_word_item(struct dctx *c, struct val *item, const void *elem, void *arg)
{
	uint64_t w;
	char buf[24];

	memcpy(&w, elem, sizeof(w));
	snprintf(buf, sizeof(buf), "%#0*" PRIx64, 16, w);
	val_set_text(c, item, NULL, buf);
}

/* A node mask of maxnode bits: [0x00000000000001, 0000000000000000, ...]
 * (strace's "%#0*lx" of width 16, so zero has no 0x), one word per 64
 * nodes, as decode_array (strace's print_nodemask). */
static void val_read_nodemask(struct dctx *c, struct val *v, const char *name,
			      uint64_t addr, uint64_t maxnode)
{
	uint64_t words = (maxnode + 62) / 64;

	if (words < maxnode / 64 || (maxnode && !words)) {
		val_set_ptr(v, name, addr);
		return;
	}
	decode_array(c, v, name, addr, words, 8, node_word_item, NULL);
}

/* set_mempolicy(mode, nodemask, maxnode) */
SYS_FUNC(set_mempolicy)
{
	struct val *v = arg_slot(ctx, ev, 0);

	val_set_mpol_mode(ctx, v, v->name, (uint32_t)ev->karg[0]);
	v = arg_slot(ctx, ev, 1);
	val_read_nodemask(ctx, v, v->name, ev->karg[1], ev->karg[2]);
	arg_uint(ctx, ev, 2);
	return RVAL_DONE;
}

/* get_mempolicy([mode], nodemask, maxnode, addr, flags): all at exit; the
 * addresses when the call failed. */
SYS_FUNC(get_mempolicy)
{
	struct val *v;
	int mode;

	if (!exiting) {
		arg_count(ev, 5);
		return RVAL_EXIT;
	}
	v = arg_slot(ctx, ev, 0);
	if (!ev->err && ev->karg[0] && tread(ctx, ev->karg[0], &mode, sizeof(mode))) {
		struct val *m = val_new_array(ctx, 1);

		val_set_enum(m, NULL, (uint32_t)mode, mpol_modes);
		val_set_array(v, v->name, m, 1, false);
	} else {
		val_set_ptr(v, v->name, ev->karg[0]);
	}
	v = arg_slot(ctx, ev, 1);
	if (ev->err)
		val_set_ptr(v, v->name, ev->karg[1]);
	else
		val_read_nodemask(ctx, v, v->name, ev->karg[1], ev->karg[2]);
	arg_uint(ctx, ev, 2);
	arg_ptr(ctx, ev, 3);
	arg_flags(ctx, ev, 4, get_mempolicy_flags, NULL);
	for (unsigned i = 0; i < 5; i++)
		ev->args[i].flags |= VF_EXIT;
	return RVAL_DONE;
}

/* mbind(addr, len, mode, nodemask, maxnode, flags) */
SYS_FUNC(mbind)
{
	struct val *v;

	arg_ptr(ctx, ev, 0);
	arg_uint(ctx, ev, 1);
	v = arg_slot(ctx, ev, 2);
	val_set_mpol_mode(ctx, v, v->name, (uint32_t)ev->karg[2]);
	v = arg_slot(ctx, ev, 3);
	val_read_nodemask(ctx, v, v->name, ev->karg[3], ev->karg[4]);
	arg_uint(ctx, ev, 4);
	arg_flags(ctx, ev, 5, mbind_flags, NULL);
	return RVAL_DONE;
}

/* migrate_pages(pid, maxnode, old_nodes, new_nodes) */
SYS_FUNC(migrate_pages)
{
	struct val *v;

	arg_pid(ctx, ev, 0, PT_TGID);
	arg_uint(ctx, ev, 1);
	for (unsigned i = 2; i < 4; i++) {
		v = arg_slot(ctx, ev, i);
		val_read_nodemask(ctx, v, v->name, ev->karg[i], ev->karg[1]);
	}
	return RVAL_DONE;
}

/* process_madvise(pidfd, iovec, vlen, advice, flags) */
SYS_FUNC(process_madvise)
{
	struct val *v;

	arg_fd(ctx, ev, 0);
	v = arg_slot(ctx, ev, 1);
	decode_iovec(ctx, v, v->name, ev->karg[1], ev->karg[2], -1, true);
	arg_uint(ctx, ev, 2);
	arg_enum(ctx, ev, 3, madvise_cmds);
	arg_hex(ctx, ev, 4);
	return RVAL_DONE;
}

SYS_FUNC(set_mempolicy_home_node)
{
	arg_ptr(ctx, ev, 0);
	arg_uint(ctx, ev, 1);
	arg_uint(ctx, ev, 2);
	arg_hex(ctx, ev, 3);
	return RVAL_DONE;
}

static void page_addr_item(struct dctx *c, struct val *item, const void *elem, void *arg)
{
	uint64_t a;

	memcpy(&a, elem, sizeof(a));
	val_set_ptr(item, NULL, a);
}

static void int_item(struct dctx *c, struct val *item, const void *elem, void *arg)
{
	int x;

	memcpy(&x, elem, sizeof(x));
	val_set_int(item, NULL, x);
}

/* move_pages's status: a node number, or -ENOENT etc. (strace's print_err) */
static void status_item(struct dctx *c, struct val *item, const void *elem, void *arg)
{
	int x;
	const char *e;

	memcpy(&x, elem, sizeof(x));
	if (x < 0 && (e = errno_name(-x))) {
		char buf[48];

		struct val num;

		snprintf(buf, sizeof(buf), "-%s", e);
		val_set_int(&num, NULL, x);
		val_set_num_text(c, item, NULL, &num, buf);
	} else {
		val_set_int(item, NULL, x);
	}
}

/* move_pages(pid, count, pages, nodes, status, flags): status at exit */
SYS_FUNC(move_pages)
{
	uint64_t n = ev->karg[1];
	struct val *v;

	if (!exiting) {
		arg_pid(ctx, ev, 0, PT_TGID);
		arg_uint(ctx, ev, 1);
		v = arg_slot(ctx, ev, 2);
		decode_array(ctx, v, v->name, ev->karg[2], n, 8, page_addr_item, NULL);
		v = arg_slot(ctx, ev, 3);
		decode_array(ctx, v, v->name, ev->karg[3], n, 4, int_item, NULL);
		arg_count(ev, 6);
		return RVAL_EXIT;
	}
	v = arg_slot(ctx, ev, 4);
	if (ev->err)   /* the kernel may not have written it: the address */
		val_set_ptr(v, v->name, ev->karg[4]);
	else
		decode_array(ctx, v, v->name, ev->karg[4], n, 4, status_item, NULL);
	v->flags |= VF_EXIT;
	arg_flags(ctx, ev, 5, move_pages_flags, NULL);
	return RVAL_DONE;
}
