/*
 * Memory decoders: mmap, munmap, mprotect, brk, mremap, madvise, msync,
 * mlock family.  All decoded at entry (mmap/brk/mremap return addresses).
 */
#include "sys/decode.h"

#include "sys/decode_extra.h"
#include "xlat/madvise_cmds.h"
#include "xlat/mlock_flags.h"
#include "xlat/mlockall_flags.h"
#include "xlat/mmap_flags.h"
#include "xlat/mmap_prot.h"
#include "xlat/mmap_type.h"
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

/* mmap flags as strace: TYPE|FLAG|...|N<<MAP_HUGE_SHIFT */
static void arg_mmap_flags(struct dctx *c, struct event *ev, unsigned i)
{
	struct val *v = arg_slot(c, ev, i);
	uint64_t f = ev->raw[i];
	uint64_t huge = (f >> HUGE_SHIFT) & HUGE_MASK;
	uint64_t rest = f & ~MAP_TYPE_MASK & ~(HUGE_MASK << HUGE_SHIFT);
	struct val *it = val_new_array(c, 3);
	unsigned n = 0;

	val_set_enum(&it[n++], NULL, f & MAP_TYPE_MASK, mmap_type);
	if (rest)
		val_set_flags(&it[n++], NULL, rest, mmap_flags, NULL);
	if (huge) {
		struct val *h = val_new_array(c, 2);

		val_set_uint(&h[0], NULL, huge);
		val_set_text(c, &h[1], NULL, "MAP_HUGE_SHIFT");
		val_set_op(&it[n++], NULL, h, 2, "<<");
	}
	if (n == 1) {
		*v = it[0];
		v->name = c->se->argnames && i < c->se->nargs ? c->se->argnames[i] : NULL;
		return;
	}
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
	if ((ev->raw[3] & 3) == 3)
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
	ev->args[2].x.v = (uint32_t)ev->raw[2];
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

/* mincore(addr, length, vec): vec at exit, one 0/1 per page, cut at the
 * string limit. */
SYS_FUNC(mincore)
{
	uint64_t pages, shown;
	unsigned char *vec;
	struct val *v, *it;

	if (!exiting) {
		arg_ptr(ctx, ev, 0);
		arg_uint(ctx, ev, 1);
		arg_count(ev, 3);
		return RVAL_EXIT;
	}
	pages = ev->raw[1] / 4096 + ((ev->raw[1] & 4095) ? 1 : 0);
	shown = pages < ctx->opts->string_limit ? pages : ctx->opts->string_limit;
	v = arg_slot(ctx, ev, 2);
	vec = arena_alloc(ctx->arena, shown ? (size_t)shown : 1);
	if (ev->err || !ev->raw[2] || (shown && !tread(ctx, ev->raw[2], vec, (size_t)shown))) {
		val_set_ptr(v, v->name, ev->raw[2]);
	} else {
		it = val_new_array(ctx, (unsigned)shown);
		for (uint64_t i = 0; i < shown; i++)
			val_set_uint(&it[i], NULL, vec[i] & 1);
		val_set_array(v, v->name, it, (unsigned)shown, pages > shown);
	}
	v->flags |= VF_EXIT;
	return RVAL_DONE;
}
