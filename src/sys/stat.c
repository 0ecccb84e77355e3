/*
 * Decoders of the stat family (stat, lstat, fstat, newfstatat, statx).  The
 * structures are read at exit and shown abbreviated as strace does without
 * -v: {st_mode=S_IFREG|0644, st_size=3052, ...}.
 */
#include <linux/stat.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "sys/decode.h"
#include "sys/decode_extra.h"
#include "xlat/at_flags.h"
#include "xlat/at_statx_sync_types.h"
#include "xlat/modetypes.h"
#include "xlat/statx_attrs.h"
#include "xlat/statx_masks.h"

#include "util/banned.h"

void val_set_mode(struct dctx *c, struct val *v, const char *name, uint32_t mode)
{
	static const struct { uint32_t bit; const char *name; } special[] = {
		{ S_ISUID, "S_ISUID" }, { S_ISGID, "S_ISGID" }, { S_ISVTX, "S_ISVTX" },
	};
	uint32_t fmt = mode & S_IFMT;
	uint32_t extra = mode & (S_ISUID | S_ISGID | S_ISVTX);
	struct val *items;
	unsigned n = 0;
	bool known = false;

	for (uint32_t i = 0; i < modetypes->size && fmt && !known; i++)
		known = modetypes->data[i].val == fmt;
	/* an unknown file type, or none and no special bits: plain octal */
	if ((fmt && !known) || (!fmt && !extra)) {
		val_set_oct(v, name, mode);
		return;
	}
	items = val_new_array(c, 5);
	if (fmt)
		val_set_enum(&items[n++], NULL, fmt, modetypes);
	for (unsigned i = 0; i < 3; i++)
		if (mode & special[i].bit)
			val_set_text(c, &items[n++], NULL, special[i].name);
	val_set_oct(&items[n++], NULL, mode & ~(uint32_t)(S_IFMT | S_ISUID | S_ISGID | S_ISVTX));
	val_set_op(v, name, items, n, "|");
}

/* makedev(0x1, 0x3), as strace prints device numbers. */
static void val_set_dev(struct dctx *c, struct val *v, const char *name, uint64_t dev)
{
	char buf[64];
	unsigned ma = major(dev), mi = minor(dev);

	struct val num;

	snprintf(buf, sizeof(buf), "makedev(%#x, %#x)", ma, mi);
	val_set_hex(&num, NULL, dev);
	val_set_num_text(c, v, name, &num, buf);
}

/* st_atime=1795242849 / * 2026-11-21T06:34:09.129397824+0000 * / */
static void set_stat_time(struct dctx *c, struct val *v, const char *name,
			  int64_t sec, uint64_t nsec)
{
	struct val t;

	val_set_int(&t, NULL, sec);
	val_set_commented(c, v, name, &t, time_text(c, sec, nsec));
}

static void set_stat(struct dctx *c, struct val *v, const char *name, uint64_t addr)
{
	struct stat st;
	struct val *f;
	bool dev = false;
	unsigned n = 0;

	if (!tread(c, addr, &st, sizeof(st))) {
		val_set_ptr(v, name, addr);
		return;
	}
	dev = S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode);
	if (!c->opts->verbose) {
		f = val_new_array(c, 2);
		val_set_mode(c, &f[0], "st_mode", st.st_mode);
		if (dev)
			val_set_dev(c, &f[1], "st_rdev", st.st_rdev);
		else
			val_set_uint(&f[1], "st_size", (uint64_t)st.st_size);
		val_set_struct(v, name, f, 2, true);
		return;
	}
	f = val_new_array(c, 15);
	val_set_dev(c, &f[n++], "st_dev", st.st_dev);
	val_set_uint(&f[n++], "st_ino", st.st_ino);
	val_set_mode(c, &f[n++], "st_mode", st.st_mode);
	val_set_uint(&f[n++], "st_nlink", st.st_nlink);
	val_set_uint(&f[n++], "st_uid", st.st_uid);
	val_set_uint(&f[n++], "st_gid", st.st_gid);
	val_set_uint(&f[n++], "st_blksize", (uint64_t)st.st_blksize);
	val_set_uint(&f[n++], "st_blocks", (uint64_t)st.st_blocks);
	if (dev)
		val_set_dev(c, &f[n++], "st_rdev", st.st_rdev);
	else
		val_set_uint(&f[n++], "st_size", (uint64_t)st.st_size);
	set_stat_time(c, &f[n++], "st_atime", st.st_atim.tv_sec, (uint64_t)st.st_atim.tv_nsec);
	val_set_uint(&f[n++], "st_atime_nsec", (uint64_t)st.st_atim.tv_nsec);
	set_stat_time(c, &f[n++], "st_mtime", st.st_mtim.tv_sec, (uint64_t)st.st_mtim.tv_nsec);
	val_set_uint(&f[n++], "st_mtime_nsec", (uint64_t)st.st_mtim.tv_nsec);
	set_stat_time(c, &f[n++], "st_ctime", st.st_ctim.tv_sec, (uint64_t)st.st_ctim.tv_nsec);
	val_set_uint(&f[n++], "st_ctime_nsec", (uint64_t)st.st_ctim.tv_nsec);
	val_set_struct(v, name, f, n, false);
}

SYS_FUNC(stat)
{
	if (!exiting) {
		arg_path(ctx, ev, 0);
		arg_count(ev, 2);
		return RVAL_EXIT;
	}
	arg_out(ctx, ev, 1, set_stat);
	return RVAL_DONE;
}

SYS_FUNC(lstat) { return SYS_FUNC_NAME(stat)(ctx, ev, exiting); }

SYS_FUNC(fstat)
{
	if (!exiting) {
		arg_fd(ctx, ev, 0);
		arg_count(ev, 2);
		return RVAL_EXIT;
	}
	arg_out(ctx, ev, 1, set_stat);
	return RVAL_DONE;
}

SYS_FUNC(newfstatat)
{
	if (!exiting) {
		arg_dirfd(ctx, ev, 0);
		arg_path(ctx, ev, 1);
		arg_count(ev, 4);
		return RVAL_EXIT;
	}
	arg_out(ctx, ev, 2, set_stat);
	arg_flags(ctx, ev, 3, at_flags, NULL);
	return RVAL_DONE;
}

/* stx_atime={tv_sec=..., tv_nsec=...} / * date * / */
static void set_statx_time(struct dctx *c, struct val *v, const char *name,
			   const struct statx_timestamp *ts)
{
	struct val t, *f = val_new_array(c, 2);

	val_set_int(&f[0], "tv_sec", ts->tv_sec);
	val_set_uint(&f[1], "tv_nsec", ts->tv_nsec);
	val_set_struct(&t, NULL, f, 2, false);
	val_set_commented(c, v, name, &t, time_text(c, ts->tv_sec, ts->tv_nsec));
}

static void set_statx(struct dctx *c, struct val *v, const char *name, uint64_t addr)
{
	static const struct { uint32_t bit; const char *name; size_t off; } times[] = {
		{ STATX_ATIME, "stx_atime", offsetof(struct statx, stx_atime) },
		{ STATX_BTIME, "stx_btime", offsetof(struct statx, stx_btime) },
		{ STATX_CTIME, "stx_ctime", offsetof(struct statx, stx_ctime) },
		{ STATX_MTIME, "stx_mtime", offsetof(struct statx, stx_mtime) },
	};
	struct statx sx;
	struct val *f;
	unsigned n = 0;

	if (!tread(c, addr, &sx, sizeof(sx))) {
		val_set_ptr(v, name, addr);
		return;
	}
	if (!c->opts->verbose) {
		f = val_new_array(c, 4);
		val_set_flags(&f[0], "stx_mask", sx.stx_mask, statx_masks, NULL);
		val_set_flags(&f[1], "stx_attributes", sx.stx_attributes, statx_attrs, NULL);
		val_set_mode(c, &f[2], "stx_mode", sx.stx_mode);
		val_set_uint(&f[3], "stx_size", sx.stx_size);
		val_set_struct(v, name, f, 4, true);
		return;
	}
	f = val_new_array(c, 24);
	val_set_flags(&f[n++], "stx_mask", sx.stx_mask, statx_masks, NULL);
	val_set_uint(&f[n++], "stx_blksize", sx.stx_blksize);
	val_set_flags(&f[n++], "stx_attributes", sx.stx_attributes, statx_attrs, NULL);
	val_set_uint(&f[n++], "stx_nlink", sx.stx_nlink);
	val_set_uint(&f[n++], "stx_uid", sx.stx_uid);
	val_set_uint(&f[n++], "stx_gid", sx.stx_gid);
	val_set_mode(c, &f[n++], "stx_mode", sx.stx_mode);
	val_set_uint(&f[n++], "stx_ino", sx.stx_ino);
	val_set_uint(&f[n++], "stx_size", sx.stx_size);
	val_set_uint(&f[n++], "stx_blocks", sx.stx_blocks);
	val_set_flags(&f[n++], "stx_attributes_mask", sx.stx_attributes_mask, statx_attrs, NULL);
	for (unsigned i = 0; i < 4; i++)
		if (sx.stx_mask & times[i].bit)
			set_statx_time(c, &f[n++], times[i].name,
				       (const struct statx_timestamp *)((const char *)&sx + times[i].off));
	val_set_uint(&f[n++], "stx_rdev_major", sx.stx_rdev_major);
	val_set_uint(&f[n++], "stx_rdev_minor", sx.stx_rdev_minor);
	val_set_uint(&f[n++], "stx_dev_major", sx.stx_dev_major);
	val_set_uint(&f[n++], "stx_dev_minor", sx.stx_dev_minor);
	if (sx.stx_mask & 0x1000 /* STATX_MNT_ID */)
		val_set_hex(&f[n++], "stx_mnt_id", sx.stx_mnt_id);
	if (sx.stx_mask & 0x2000 /* STATX_DIOALIGN */) {
		val_set_uint(&f[n++], "stx_dio_mem_align", sx.stx_dio_mem_align);
		val_set_uint(&f[n++], "stx_dio_offset_align", sx.stx_dio_offset_align);
	}
	val_set_struct(v, name, f, n, false);
}

SYS_FUNC(statx)
{
	uint64_t flags = ev->karg[2];
	struct val *v;

	if (exiting) {
		arg_out(ctx, ev, 4, set_statx);
		return RVAL_DONE;
	}
	arg_dirfd(ctx, ev, 0);
	arg_path(ctx, ev, 1);
	v = arg_slot(ctx, ev, 2);
	{
		/* strace's two printflags: the sync type (nothing at all for 0
		 * under -X raw), then the other flags, each in its own style */
		struct val items[2], forms[3];
		uint64_t sync = flags & AT_STATX_SYNC_TYPE;
		unsigned n = 0;

		val_set_flags(&forms[0], NULL, sync, at_statx_sync_types, "AT_STATX_SYNC_AS_STAT");
		forms[2] = forms[0];
		if (sync)
			forms[1] = forms[0];
		else
			val_set_text(ctx, &forms[1], NULL, "");
		val_set_xforms(ctx, &items[n++], NULL, &forms[0], &forms[1], &forms[2]);
		/* the other flags; bits without a name in plain hex */
		if (flags & ~(uint64_t)AT_STATX_SYNC_TYPE) {
			uint64_t rest = flags & ~(uint64_t)AT_STATX_SYNC_TYPE;

			if (xlat_flags_named(at_flags, rest))
				val_set_flags(&items[n++], NULL, rest, at_flags, NULL);
			else
				val_set_hex(&items[n++], NULL, rest);
		}
		if (n == 1)
			arg_put(ctx, ev, 2, &items[0]);
		else
			val_set_or(ctx, v, v->name, items, n);
	}
	arg_flags(ctx, ev, 3, statx_masks, NULL);
	arg_count(ev, 5);
	return RVAL_EXIT;
}
