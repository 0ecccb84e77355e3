/*
 * Decoders of more file system calls: statfs/fstatfs, the xattr family,
 * fadvise64, fallocate, flock, copy_file_range, sendfile, utimensat,
 * mknod/mknodat, memfd_create, eventfd2, and the mount API (open_tree,
 * move_mount, fsopen, fsconfig, fsmount, fspick, mount_setattr), fanotify.
 */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/time.h>
#include <time.h>

#include "sys/decode.h"
#include "sys/decode_extra.h"
#include "xlat/advise.h"
#include "xlat/at_flags.h"
#include "xlat/close_range_flags.h"
#include "xlat/mount_flags.h"
#include "xlat/splice_flags.h"
#include "xlat/umount_flags.h"
#include "xlat/inotify_flags.h"
#include "xlat/inotify_init_flags.h"
#include "xlat/efd_flags.h"
#include "xlat/falloc_flags.h"
#include "xlat/flockcmds.h"
#include "xlat/fsmagic.h"
#include "xlat/memfd_create_flags.h"
#include "xlat/statfs_flags.h"
#include "xlat/xattrflags.h"
#include "xlat/fan_classes.h"
#include "xlat/fan_event_flags.h"
#include "xlat/fan_init_flags.h"
#include "xlat/fan_mark_flags.h"
#include "xlat/fsconfig_cmds.h"
#include "xlat/fsmount_flags.h"
#include "xlat/fsopen_flags.h"
#include "xlat/fspick_flags.h"
#include "xlat/mount_attr_attr.h"
#include "xlat/mount_attr_flags.h"
#include "xlat/mount_attr_propagation.h"
#include "xlat/mount_setattr_flags.h"
#include "xlat/move_mount_flags.h"
#include "xlat/open_tree_flags.h"

#include "util/banned.h"

static int ret_fd(struct dctx *c, struct event *ev, int exiting)
{
	if (exiting) {
		ret_set_fd(c, ev);
		return RVAL_DONE;
	}
	ev->rv_fmt = RV_FD;
	return c->opts->decode_fds ? RVAL_EXIT : RVAL_DONE;
}

/* struct statfs argument i at exit: {f_type=EXT2_SUPER_MAGIC, ...}. */
static void out_statfs(struct dctx *c, struct event *ev, unsigned i)
{
	struct val *v = arg_slot(c, ev, i), *f, *fsid, *ids;
	struct statfs sf;
	uint32_t idv[2];

	v->flags |= VF_EXIT;
	if (ev->err || !tread(c, ev->karg[i], &sf, sizeof(sf))) {
		val_set_ptr(v, v->name, ev->karg[i]);
		v->flags |= VF_EXIT;
		return;
	}
	f = val_new_array(c, 11);
	val_set_enum(&f[0], "f_type", (uint64_t)sf.f_type, fsmagic);
	val_set_uint(&f[1], "f_bsize", (uint64_t)sf.f_bsize);
	val_set_uint(&f[2], "f_blocks", sf.f_blocks);
	val_set_uint(&f[3], "f_bfree", sf.f_bfree);
	val_set_uint(&f[4], "f_bavail", sf.f_bavail);
	val_set_uint(&f[5], "f_files", sf.f_files);
	val_set_uint(&f[6], "f_ffree", sf.f_ffree);
	memcpy(idv, &sf.f_fsid, sizeof(idv));
	ids = val_new_array(c, 2);
	val_set_hex(&ids[0], NULL, idv[0]);
	val_set_hex(&ids[1], NULL, idv[1]);
	fsid = val_new_array(c, 1);
	val_set_array(&fsid[0], "val", ids, 2, false);
	val_set_struct(&f[7], "f_fsid", fsid, 1, false);
	val_set_uint(&f[8], "f_namelen", (uint64_t)sf.f_namelen);
	val_set_uint(&f[9], "f_frsize", (uint64_t)sf.f_frsize);
	val_set_flags(&f[10], "f_flags", (uint64_t)sf.f_flags, statfs_flags, NULL);
	val_set_struct(v, v->name, f, 11, false);
	v->flags |= VF_EXIT;
}

SYS_FUNC(statfs)
{
	if (!exiting) {
		arg_path(ctx, ev, 0);
		arg_count(ev, 2);
		return RVAL_EXIT;
	}
	out_statfs(ctx, ev, 1);
	return RVAL_DONE;
}

SYS_FUNC(fstatfs)
{
	if (!exiting) {
		arg_fd(ctx, ev, 0);
		arg_count(ev, 2);
		return RVAL_EXIT;
	}
	out_statfs(ctx, ev, 1);
	return RVAL_DONE;
}

/* setxattr(path|fd, name, value, size, flags): all at entry. */
static int set_xattr(struct dctx *c, struct event *ev, bool fd)
{
	if (fd)
		arg_fd(c, ev, 0);
	else
		arg_path(c, ev, 0);
	arg_cstr(c, ev, 1);
	arg_buf(c, ev, 2, ev->karg[3]);
	arg_uint(c, ev, 3);
	arg_flags(c, ev, 4, xattrflags, NULL);
	return RVAL_DONE;
}

SYS_FUNC(setxattr) { return set_xattr(ctx, ev, false); }
SYS_FUNC(lsetxattr) { return set_xattr(ctx, ev, false); }
SYS_FUNC(fsetxattr) { return set_xattr(ctx, ev, true); }

/* The value buffer i filled by the kernel (getxattr, listxattr). */
static void out_xattr_buf(struct dctx *c, struct event *ev, unsigned i)
{
	if (ev->err || !ev->karg[i + 1])
		arg_ptr(c, ev, i);
	else
		arg_buf(c, ev, i, (uint64_t)ev->retval);
}

/* getxattr(path|fd, name, value, size): the value at exit. */
static int get_xattr(struct dctx *c, struct event *ev, int exiting, bool fd)
{
	if (!exiting) {
		if (fd)
			arg_fd(c, ev, 0);
		else
			arg_path(c, ev, 0);
		arg_cstr(c, ev, 1);
		arg_count(ev, 4);
		return RVAL_EXIT;
	}
	out_xattr_buf(c, ev, 2);
	arg_uint(c, ev, 3);
	return RVAL_DONE;
}

SYS_FUNC(getxattr) { return get_xattr(ctx, ev, exiting, false); }
SYS_FUNC(lgetxattr) { return get_xattr(ctx, ev, exiting, false); }
SYS_FUNC(fgetxattr) { return get_xattr(ctx, ev, exiting, true); }

/* listxattr(path|fd, list, size): the NUL-separated list at exit. */
static int list_xattr(struct dctx *c, struct event *ev, int exiting, bool fd)
{
	if (!exiting) {
		if (fd)
			arg_fd(c, ev, 0);
		else
			arg_path(c, ev, 0);
		arg_count(ev, 3);
		return RVAL_EXIT;
	}
	out_xattr_buf(c, ev, 1);
	arg_uint(c, ev, 2);
	return RVAL_DONE;
}

SYS_FUNC(listxattr) { return list_xattr(ctx, ev, exiting, false); }
SYS_FUNC(llistxattr) { return list_xattr(ctx, ev, exiting, false); }
SYS_FUNC(flistxattr) { return list_xattr(ctx, ev, exiting, true); }

static int remove_xattr(struct dctx *c, struct event *ev, bool fd)
{
	if (fd)
		arg_fd(c, ev, 0);
	else
		arg_path(c, ev, 0);
	arg_cstr(c, ev, 1);
	return RVAL_DONE;
}

SYS_FUNC(removexattr) { return remove_xattr(ctx, ev, false); }
SYS_FUNC(lremovexattr) { return remove_xattr(ctx, ev, false); }
SYS_FUNC(fremovexattr) { return remove_xattr(ctx, ev, true); }

SYS_FUNC(fadvise64)
{
	arg_fd(ctx, ev, 0);
	arg_long(ctx, ev, 1);
	arg_long(ctx, ev, 2);
	arg_enum(ctx, ev, 3, advise);
	return RVAL_DONE;
}

SYS_FUNC(fallocate)
{
	arg_fd(ctx, ev, 0);
	arg_flags(ctx, ev, 1, falloc_flags, NULL);
	arg_long(ctx, ev, 2);
	arg_long(ctx, ev, 3);
	return RVAL_DONE;
}

/* close_range(fd, max_fd, flags): both bounds as unsigned ints (strace
 * shows no paths beside them, even with -y). */
SYS_FUNC(close_range)
{
	for (unsigned i = 0; i < 2; i++) {
		arg_uint(ctx, ev, i);
		ev->args[i].u = (uint32_t)ev->karg[i];
	}
	arg_flags(ctx, ev, 2, close_range_flags, NULL);
	return RVAL_DONE;
}

SYS_FUNC(flock)
{
	arg_fd(ctx, ev, 0);
	arg_flags(ctx, ev, 1, flockcmds, NULL);
	return RVAL_DONE;
}

/* [N]: a 64-bit integer behind a pointer, NULL, or the address. */
static void val_set_int64p(struct dctx *c, struct val *v, const char *name, uint64_t addr)
{
	int64_t x;
	struct val *it;

	if (!addr || !tread(c, addr, &x, sizeof(x))) {
		val_set_ptr(v, name, addr);
		return;
	}
	it = val_new_array(c, 1);
	val_set_int(it, NULL, x);
	val_set_array(v, name, it, 1, false);
}

/* (fd_in, [off_in], fd_out, [off_out], len): copy_file_range and splice */
static void fd_off_pair_args(struct dctx *c, struct event *ev)
{
	struct val *v;

	arg_fd(c, ev, 0);
	v = arg_slot(c, ev, 1);
	val_set_int64p(c, v, v->name, ev->karg[1]);
	arg_fd(c, ev, 2);
	v = arg_slot(c, ev, 3);
	val_set_int64p(c, v, v->name, ev->karg[3]);
	arg_uint(c, ev, 4);
}

SYS_FUNC(copy_file_range)
{
	fd_off_pair_args(ctx, ev);
	arg_uint(ctx, ev, 5);
	return RVAL_DONE;
}

/* splice(fd_in, [off_in], fd_out, [off_out], len, flags) */
SYS_FUNC(splice)
{
	fd_off_pair_args(ctx, ev);
	arg_flags(ctx, ev, 5, splice_flags, NULL);
	return RVAL_DONE;
}

SYS_FUNC(tee)
{
	arg_fd(ctx, ev, 0);
	arg_fd(ctx, ev, 1);
	arg_uint(ctx, ev, 2);
	arg_flags(ctx, ev, 3, splice_flags, NULL);
	return RVAL_DONE;
}

#define MS_MGC_MASK_ 0xffff0000u
#define MS_MGC_VAL_  0xc0ed0000u
/* bind (4096), move (8192) and propagation changes (unbindable, private,
 * slave, shared: bits 17-20) take no file system type or data; remount (32)
 * takes data but no type.  Numbers, not <sys/mount.h>: glibc's MS_NOUSER is
 * a negative int there, which would sign-extend in the xlat table. */
#define MS_NODATA_ (4096u | 8192u | (0xfu << 17))
#define MS_REMOUNT_ 32u

/* mount(source, target, fstype, flags, data), as strace: the type and the
 * data are strings only when the flags use them; the old MS_MGC_VAL magic
 * in the top 16 bits is named. */
SYS_FUNC(mount)
{
	uint64_t flags = ev->karg[3];
	bool magic = (flags & MS_MGC_MASK_) == MS_MGC_VAL_;
	bool has_type, has_data;
	struct val *v;

	if (magic)
		flags &= ~(uint64_t)MS_MGC_MASK_;
	has_data = !(flags & MS_NODATA_);
	has_type = has_data && !(flags & MS_REMOUNT_);
	arg_path(ctx, ev, 0);
	arg_path(ctx, ev, 1);
	if (has_type)
		arg_cstr(ctx, ev, 2);
	else
		arg_ptr(ctx, ev, 2);
	v = arg_slot(ctx, ev, 3);
	if (magic) {
		/* strace's print_xlat(MS_MGC_VAL), then the flags, each in
		 * its own -X style */
		struct val it[2];

		val_set_named_num(ctx, &it[0], NULL, MS_MGC_VAL_, "MS_MGC_VAL");
		val_set_flags(&it[1], NULL, flags, mount_flags, NULL);
		if (flags)
			val_set_or(ctx, v, v->name, it, 2);
		else
			arg_put(ctx, ev, 3, &it[0]);
	} else {
		val_set_flags(v, v->name, flags, mount_flags, NULL);
	}
	if (has_data)
		arg_cstr(ctx, ev, 4);
	else
		arg_ptr(ctx, ev, 4);
	return RVAL_DONE;
}

SYS_FUNC(umount2)
{
	arg_path(ctx, ev, 0);
	arg_flags(ctx, ev, 1, umount_flags, NULL);
	return RVAL_DONE;
}

SYS_FUNC(eventfd)
{
	if (!exiting)
		arg_uint(ctx, ev, 0);
	return ret_fd(ctx, ev, exiting);
}

/* sendfile(out, in, offset, count): the offset as "[0] => [5]" at exit. */
SYS_FUNC(sendfile)
{
	struct val *v, *items;

	if (!exiting) {
		arg_fd(ctx, ev, 0);
		arg_fd(ctx, ev, 1);
		v = arg_slot(ctx, ev, 2);
		val_set_int64p(ctx, v, v->name, ev->karg[2]);
		arg_count(ev, 4);
		return RVAL_EXIT;
	}
	v = arg_slot(ctx, ev, 2);
	if (ev->karg[2] && !ev->err && v->kind == V_ARRAY) {
		items = val_new_array(ctx, 3);
		items[0] = *v;
		items[0].name = NULL;
		val_set_text(ctx, &items[1], NULL, "=>");
		val_set_int64p(ctx, &items[2], NULL, ev->karg[2]);
		val_set_op(v, v->name, items, 3, " ");
	} else {
		val_set_int64p(ctx, v, v->name, ev->karg[2]);
	}
	v->flags |= VF_EXIT;
	arg_uint(ctx, ev, 3);
	return RVAL_DONE;
}

/* One struct timespec of utimensat's pair: UTIME_NOW, UTIME_OMIT or the
 * time with its date. */
static void set_utime(struct dctx *c, struct val *v, const struct timespec *ts)
{
	struct val t, *f;

	f = val_new_array(c, 2);
	val_set_int(&f[0], "tv_sec", ts->tv_sec);
	val_set_uint(&f[1], "tv_nsec", (uint64_t)ts->tv_nsec);
	val_set_struct(&t, NULL, f, 2, false);
	if (ts->tv_nsec == UTIME_NOW || ts->tv_nsec == UTIME_OMIT) {
		/* the name; -X raw: the structure; -X verbose: both */
		val_set_num_text(c, v, NULL, &t, ts->tv_nsec == UTIME_NOW ? "UTIME_NOW"
									: "UTIME_OMIT");
		return;
	}
	val_set_commented(c, v, NULL, &t, time_text(c, ts->tv_sec, (uint64_t)ts->tv_nsec));
}

SYS_FUNC(utimensat)
{
	struct timespec ts[2];
	struct val *v;

	arg_dirfd(ctx, ev, 0);
	arg_path(ctx, ev, 1);
	v = arg_slot(ctx, ev, 2);
	if (!ev->karg[2] || !tread(ctx, ev->karg[2], ts, sizeof(ts))) {
		val_set_ptr(v, v->name, ev->karg[2]);
	} else {
		struct val *items = val_new_array(ctx, 2);

		set_utime(ctx, &items[0], &ts[0]);
		set_utime(ctx, &items[1], &ts[1]);
		val_set_local_array(ctx, v, v->name, items, 2);
	}
	arg_flags(ctx, ev, 3, at_flags, NULL);
	return RVAL_DONE;
}

/* mode at i and, for device files, the device number at i + 1. */
static void mknod_args(struct dctx *c, struct event *ev, unsigned i)
{
	uint32_t mode = (uint32_t)ev->karg[i];
	struct val *v = arg_slot(c, ev, i);

	val_set_mode(c, v, v->name, mode);
	if (S_ISCHR(mode) || S_ISBLK(mode)) {
		char buf[64];
		uint64_t dev = ev->karg[i + 1];

		/* the kernel's old u32 encoding: major in bits 8-19 */
		snprintf(buf, sizeof(buf), "makedev(%#x, %#x)",
			 (unsigned)((dev >> 8) & 0xfff), (unsigned)((dev & 0xff) | ((dev >> 12) & 0xfff00)));
		v = arg_slot(c, ev, i + 1);
		{
			struct val num;

			val_set_hex(&num, NULL, dev);
			val_set_num_text(c, v, v->name, &num, buf);
		}
	}
}

SYS_FUNC(mknod)
{
	arg_path(ctx, ev, 0);
	mknod_args(ctx, ev, 1);
	return RVAL_DONE;
}

SYS_FUNC(mknodat)
{
	arg_dirfd(ctx, ev, 0);
	arg_path(ctx, ev, 1);
	mknod_args(ctx, ev, 2);
	return RVAL_DONE;
}

/* memfd_create's flags: MFD_* then the hugetlb page size as
 * "N<<MFD_HUGE_SHIFT" (bits 26-31), as strace. */
static void memfd_flags(struct dctx *c, struct event *ev, unsigned i)
{
	struct val *v = arg_slot(c, ev, i);
	uint32_t flags = (uint32_t)ev->karg[i];
	uint32_t huge = flags & (0x3fu << 26);
	char buf[32];

	if (!huge) {
		val_set_flags(v, v->name, flags, memfd_create_flags, NULL);
		return;
	}
	/* one number with a text, as strace's print_xlat_ex: the text, -X
	 * raw the number, -X verbose both */
	{
		const char *low = flags & ~huge ? xlat_flags_text(c, memfd_create_flags,
								 flags & ~huge) : NULL;
		char *text;
		size_t len;

		snprintf(buf, sizeof(buf), "%u<<MFD_HUGE_SHIFT", huge >> 26);
		len = (low ? strlen(low) + 1 : 0) + strlen(buf) + 1;
		text = arena_alloc(c->arena, len);
		snprintf(text, len, "%s%s%s", low ? low : "", low ? "|" : "", buf);
		val_set_named_num(c, v, v->name, flags, text);
	}
}

SYS_FUNC(memfd_create)
{
	if (!exiting) {
		arg_cstr(ctx, ev, 0);
		memfd_flags(ctx, ev, 1);
	}
	return ret_fd(ctx, ev, exiting);
}

SYS_FUNC(inotify_init)
{
	return ret_fd(ctx, ev, exiting);
}

SYS_FUNC(inotify_init1)
{
	if (!exiting)
		arg_flags(ctx, ev, 0, inotify_init_flags, NULL);
	return ret_fd(ctx, ev, exiting);
}

/* inotify_add_watch(fd, pathname, IN_* mask) */
SYS_FUNC(inotify_add_watch)
{
	arg_fd(ctx, ev, 0);
	arg_path(ctx, ev, 1);
	arg_flags(ctx, ev, 2, inotify_flags, NULL);
	ev->args[2].u = (uint32_t)ev->karg[2];
	return RVAL_DONE;
}

SYS_FUNC(inotify_rm_watch)
{
	arg_fd(ctx, ev, 0);
	arg_int(ctx, ev, 1);
	return RVAL_DONE;
}

SYS_FUNC(eventfd2)
{
	if (!exiting) {
		arg_uint(ctx, ev, 0);
		arg_flags(ctx, ev, 1, efd_flags, NULL);
	}
	return ret_fd(ctx, ev, exiting);
}

/* ---- the mount API (open_tree, move_mount, fsopen, fsconfig, fsmount,
 * fspick, mount_setattr), as strace 6.1 ---- */

SYS_FUNC(open_tree)
{
	if (!exiting) {
		arg_dirfd(ctx, ev, 0);
		arg_path(ctx, ev, 1);
		arg_flags(ctx, ev, 2, open_tree_flags, NULL);
	}
	return ret_fd(ctx, ev, exiting);
}

SYS_FUNC(move_mount)
{
	arg_dirfd(ctx, ev, 0);
	arg_path(ctx, ev, 1);
	arg_dirfd(ctx, ev, 2);
	arg_path(ctx, ev, 3);
	arg_flags(ctx, ev, 4, move_mount_flags, NULL);
	return RVAL_DONE;
}

SYS_FUNC(fsopen)
{
	if (!exiting) {
		arg_cstr(ctx, ev, 0);
		arg_flags(ctx, ev, 1, fsopen_flags, NULL);
	}
	return ret_fd(ctx, ev, exiting);
}

SYS_FUNC(fspick)
{
	if (!exiting) {
		arg_dirfd(ctx, ev, 0);
		arg_path(ctx, ev, 1);
		arg_flags(ctx, ev, 2, fspick_flags, NULL);
	}
	return ret_fd(ctx, ev, exiting);
}

SYS_FUNC(fsmount)
{
	if (!exiting) {
		arg_fd(ctx, ev, 0);
		arg_flags(ctx, ev, 1, fsmount_flags, NULL);
		arg_flags(ctx, ev, 2, mount_attr_flags, NULL);
	}
	return ret_fd(ctx, ev, exiting);
}

enum { FSC_SET_FLAG, FSC_SET_STRING, FSC_SET_BINARY, FSC_SET_PATH, FSC_SET_PATH_EMPTY,
       FSC_SET_FD };

/* fsconfig(fd, cmd, key, value, aux): key, value and aux as cmd reads them */
SYS_FUNC(fsconfig)
{
	uint32_t cmd = (uint32_t)ev->karg[1];
	int aux = (int)ev->karg[4];
	struct val *v;

	arg_fd(ctx, ev, 0);
	arg_enum(ctx, ev, 1, fsconfig_cmds);
	if (cmd <= FSC_SET_FD)
		arg_cstr(ctx, ev, 2);
	else
		arg_ptr(ctx, ev, 2);
	switch (cmd) {
	case FSC_SET_STRING:
		arg_cstr(ctx, ev, 3);
		break;
	case FSC_SET_PATH:
	case FSC_SET_PATH_EMPTY:
		arg_path(ctx, ev, 3);
		break;
	case FSC_SET_BINARY:
		if (aux >= 0 && aux <= 1024 * 1024) {
			arg_buf(ctx, ev, 3, (uint64_t)aux);
			if (ev->args[3].kind == V_STR)
				ev->args[3].flags |= VF_HEXSTR;
			break;
		}
		/* fall through */
	default:
		arg_ptr(ctx, ev, 3);
		break;
	}
	v = arg_slot(ctx, ev, 4);
	if (cmd == FSC_SET_PATH || cmd == FSC_SET_PATH_EMPTY)
		arg_dirfd(ctx, ev, 4);
	else if (cmd == FSC_SET_FD)
		arg_fd(ctx, ev, 4);
	else
		val_set_int(v, v->name, aux);
	return RVAL_DONE;
}

/* struct mount_attr (linux/mount.h) */
struct mount_attr_k {
	uint64_t attr_set, attr_clr, propagation, userns_fd;
};

static void decode_mount_attr(struct dctx *c, struct val *v, const char *name,
			      uint64_t addr, uint64_t size)
{
	struct mount_attr_k a;
	struct val *f;
	size_t n = size < sizeof(a) ? (size_t)size : sizeof(a);

	memset(&a, 0, sizeof(a));
	if (size < 32 /* MOUNT_ATTR_SIZE_VER0 */ || !tread(c, addr, &a, n)) {
		val_set_ptr(v, name, addr);
		return;
	}
	f = val_new_array(c, 5);
	val_set_flags(&f[0], "attr_set", a.attr_set, mount_attr_attr, NULL);
	val_set_flags(&f[1], "attr_clr", a.attr_clr, mount_attr_attr, NULL);
	val_set_enum(&f[2], "propagation", a.propagation, mount_attr_propagation);
	if (a.userns_fd > 0x7fffffff || !((a.attr_set | a.attr_clr) & 0x00100000 /* IDMAP */))
		val_set_uint(&f[3], "userns_fd", a.userns_fd);
	else
		val_set_fd(c, &f[3], "userns_fd", (int64_t)a.userns_fd);
	val_set_struct(v, name, f, 4 + val_nonzero_bytes(c, &f[4], addr, sizeof(a), size), false);
}

SYS_FUNC(mount_setattr)
{
	struct val *v;

	arg_dirfd(ctx, ev, 0);
	arg_path(ctx, ev, 1);
	arg_flags(ctx, ev, 2, mount_setattr_flags, NULL);
	v = arg_slot(ctx, ev, 3);
	decode_mount_attr(ctx, v, v->name, ev->karg[3], ev->karg[4]);
	arg_uint(ctx, ev, 4);
	return RVAL_DONE;
}

/* utimes's and futimesat's struct timeval[2]: [{tv_sec=.., tv_usec=..}
 * / * date * /, ...], or the address. */
static void decode_timeval_pair(struct dctx *c, struct val *v, const char *name, uint64_t addr)
{
	struct timeval tv[2];
	struct val *items;

	if (!addr || !tread(c, addr, tv, sizeof(tv))) {
		val_set_ptr(v, name, addr);
		return;
	}
	items = val_new_array(c, 2);
	for (unsigned i = 0; i < 2; i++) {
		struct val t, *f = val_new_array(c, 2);

		val_set_int(&f[0], "tv_sec", tv[i].tv_sec);
		val_set_int(&f[1], "tv_usec", tv[i].tv_usec);
		val_set_struct(&t, NULL, f, 2, false);
		val_set_commented(c, &items[i], NULL, &t,
				  tv[i].tv_usec >= 0 && tv[i].tv_usec < 1000000
				  ? time_text(c, tv[i].tv_sec, (uint64_t)tv[i].tv_usec * 1000) : NULL);
	}
	val_set_local_array(c, v, name, items, 2);
}

SYS_FUNC(utimes)
{
	struct val *v;

	arg_path(ctx, ev, 0);
	v = arg_slot(ctx, ev, 1);
	decode_timeval_pair(ctx, v, v->name, ev->karg[1]);
	return RVAL_DONE;
}

SYS_FUNC(futimesat)
{
	struct val *v;

	arg_dirfd(ctx, ev, 0);
	arg_path(ctx, ev, 1);
	v = arg_slot(ctx, ev, 2);
	decode_timeval_pair(ctx, v, v->name, ev->karg[2]);
	return RVAL_DONE;
}

/* utime(path, {actime=N / * date * /, modtime=N / * date * /}) */
SYS_FUNC(utime)
{
	struct { int64_t actime, modtime; } u;
	struct val *v;

	arg_path(ctx, ev, 0);
	v = arg_slot(ctx, ev, 1);
	if (!ev->karg[1] || !tread(ctx, ev->karg[1], &u, sizeof(u))) {
		val_set_ptr(v, v->name, ev->karg[1]);
	} else {
		struct val *f = val_new_array(ctx, 2), t;

		val_set_int(&t, NULL, u.actime);
		val_set_commented(ctx, &f[0], "actime", &t, time_text(ctx, u.actime, 0));
		val_set_int(&t, NULL, u.modtime);
		val_set_commented(ctx, &f[1], "modtime", &t, time_text(ctx, u.modtime, 0));
		val_set_struct(v, v->name, f, 2, false);
	}
	return RVAL_DONE;
}

/* ---- fanotify ---- */

/* fanotify_init(flags, event_f_flags): the class, then FAN_* flags */
SYS_FUNC(fanotify_init)
{
	uint32_t flags = (uint32_t)ev->karg[0];
	struct val *v;

	if (exiting)
		return ret_fd(ctx, ev, exiting);
	v = arg_slot(ctx, ev, 0);
	if (flags & ~0xcu) {
		struct val *items = val_new_array(ctx, 2);

		val_set_enum(&items[0], NULL, flags & 0xc, fan_classes);
		val_set_flags(&items[1], NULL, flags & ~0xcu, fan_init_flags, NULL);
		/* each part in its own -X style: "0x8|0xe00" under -X raw */
		val_set_or(ctx, v, v->name, items, 2);
	} else {
		val_set_enum(v, v->name, flags, fan_classes);
	}
	v = arg_slot(ctx, ev, 1);
	val_set_open_flags(ctx, v, v->name, (uint32_t)ev->karg[1]);
	return ret_fd(ctx, ev, exiting);
}

/* fanotify_mark(fd, flags, mask, dirfd, pathname): FAN_NOFD by name */
SYS_FUNC(fanotify_mark)
{
	struct val *v;

	arg_fd(ctx, ev, 0);
	arg_flags(ctx, ev, 1, fan_mark_flags, NULL);
	arg_flags(ctx, ev, 2, fan_event_flags, NULL);
	v = arg_slot(ctx, ev, 3);
	if ((int)ev->karg[3] == -1) {
		struct val num;

		val_set_int(&num, NULL, -1);
		val_set_num_text(ctx, v, v->name, &num, "FAN_NOFD");
	}
	else
		arg_dirfd(ctx, ev, 3);
	arg_path(ctx, ev, 4);
	return RVAL_DONE;
}
