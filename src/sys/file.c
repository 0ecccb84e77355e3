/*
 * Decoders of calls that take a path: the open family, access, readlink,
 * unlink/rename/mkdir/rmdir, link/symlink, chmod/chown, truncate, getcwd,
 * chdir.  Output arguments (readlink's and getcwd's buffers) at exit.
 */
#include <fcntl.h>
#include <linux/openat2.h>
#include <stdint.h>
#include <string.h>

#include "sys/decode.h"
#include "sys/decode_extra.h"
#include "xlat/access_modes.h"
#include "xlat/at_flags.h"
#include "xlat/faccessat_flags.h"
#include "xlat/name_to_handle_at_flags.h"
#include "xlat/open_access_modes.h"
#include "xlat/open_resolve_flags.h"
#include "xlat/rename_flags.h"

/* glibc's O_LARGEFILE is 0 on x86_64; the kernel's value is wanted here. */
#undef O_LARGEFILE
#define O_LARGEFILE 0100000
#include "xlat/open_mode_flags.h"

#include "util/banned.h"

/* The kernel's __O_TMPFILE bit (glibc's macro includes O_DIRECTORY). */
#define KERNEL_O_TMPFILE 020000000

/* open's mode argument matters with O_CREAT or O_TMPFILE; strace 6.1 shows
 * it for the kernel's __O_TMPFILE bit alone as well. */
static bool takes_mode(uint64_t flags)
{
	return (flags & O_CREAT) || (flags & KERNEL_O_TMPFILE);
}

void val_set_open_flags(struct dctx *c, struct val *v, const char *name, uint64_t flags)
{
	uint64_t rest = flags & ~(uint64_t)3;
	struct val *items;

	if (!rest) {
		val_set_enum(v, name, flags & 3, open_access_modes);
		return;
	}
	items = val_new_array(c, 2);
	val_set_enum(&items[0], NULL, flags & 3, open_access_modes);
	val_set_flags(&items[1], NULL, rest, open_mode_flags, NULL);
	val_set_op(v, name, items, 2, "|");
}

const char *open_flags_text(struct dctx *c, uint64_t flags)
{
	const char *mode = xlat_name(open_access_modes, flags & 3);
	const char *rest = (flags & ~3ULL) ? xlat_flags_text(c, open_mode_flags, flags & ~3ULL)
					   : NULL;
	size_t n;
	char *s;

	if (!mode || ((flags & ~3ULL) && !rest))
		return NULL;
	n = strlen(mode) + (rest ? strlen(rest) + 1 : 0);
	s = arena_alloc(c->arena, n + 1);
	memcpy(s, mode, strlen(mode) + 1);
	if (rest) {
		s[strlen(mode)] = '|';
		memcpy(s + strlen(mode) + 1, rest, strlen(rest) + 1);
	}
	return s;
}

/* flags at i, and the mode at i + 1 when the call creates a file. */
static void open_flags_mode(struct dctx *c, struct event *ev, unsigned i)
{
	uint64_t flags = ev->karg[i];
	struct val *v = arg_slot(c, ev, i);

	val_set_open_flags(c, v, v->name, flags);
	if (takes_mode(flags))
		arg_oct(c, ev, i + 1);
}

/* The result is a new descriptor: with -y its path is read at exit. */
static int ret_fd(struct dctx *c, struct event *ev, int exiting)
{
	if (exiting) {
		ret_set_fd(c, ev);
		return RVAL_DONE;
	}
	ev->rv_fmt = RV_FD;
	return c->opts->decode_fds ? RVAL_EXIT : RVAL_DONE;
}

SYS_FUNC(open)
{
	if (!exiting) {
		arg_path(ctx, ev, 0);
		open_flags_mode(ctx, ev, 1);
	}
	return ret_fd(ctx, ev, exiting);
}

SYS_FUNC(openat)
{
	if (!exiting) {
		arg_dirfd(ctx, ev, 0);
		arg_path(ctx, ev, 1);
		open_flags_mode(ctx, ev, 2);
	}
	return ret_fd(ctx, ev, exiting);
}

SYS_FUNC(creat)
{
	if (!exiting) {
		arg_path(ctx, ev, 0);
		arg_oct(ctx, ev, 1);
	}
	return ret_fd(ctx, ev, exiting);
}

SYS_FUNC(openat2)
{
	struct open_how how;
	struct val *v, *f;
	unsigned n = 0;

	if (exiting)
		return ret_fd(ctx, ev, exiting);
	arg_dirfd(ctx, ev, 0);
	arg_path(ctx, ev, 1);
	v = arg_slot(ctx, ev, 2);
	if (ev->karg[3] < sizeof(how) || !tread(ctx, ev->karg[2], &how, sizeof(how))) {
		arg_ptr(ctx, ev, 2);
	} else {
		f = val_new_array(ctx, 4);
		val_set_open_flags(ctx, &f[n++], "flags", how.flags);
		if (how.mode || takes_mode(how.flags))
			val_set_oct(&f[n++], "mode", how.mode);
		val_set_flags(&f[n++], "resolve", how.resolve, open_resolve_flags, NULL);
		if (val_nonzero_bytes(ctx, &f[n], ev->karg[2], sizeof(how), ev->karg[3]))
			n++;
		val_set_struct(v, v->name, f, n, false);
	}
	arg_uint(ctx, ev, 3);
	return ret_fd(ctx, ev, exiting);
}

SYS_FUNC(close)
{
	arg_fd(ctx, ev, 0);
	return RVAL_DONE;
}

SYS_FUNC(access)
{
	arg_path(ctx, ev, 0);
	arg_flags(ctx, ev, 1, access_modes, NULL);
	return RVAL_DONE;
}

SYS_FUNC(faccessat)
{
	arg_dirfd(ctx, ev, 0);
	arg_path(ctx, ev, 1);
	arg_flags(ctx, ev, 2, access_modes, NULL);
	return RVAL_DONE;
}

SYS_FUNC(faccessat2)
{
	arg_dirfd(ctx, ev, 0);
	arg_path(ctx, ev, 1);
	arg_flags(ctx, ev, 2, access_modes, NULL);
	arg_flags(ctx, ev, 3, faccessat_flags, NULL);
	return RVAL_DONE;
}

/* A buffer the kernel filled with retval bytes, or its address on failure. */
static void out_buf(struct dctx *c, struct event *ev, unsigned i)
{
	if (ev->err)
		arg_ptr(c, ev, i);
	else
		arg_buf(c, ev, i, (uint64_t)ev->retval);
}

SYS_FUNC(readlink)
{
	if (!exiting) {
		arg_path(ctx, ev, 0);
		arg_count(ev, 3);
		return RVAL_EXIT;
	}
	out_buf(ctx, ev, 1);
	arg_raw_uint(ctx, ev, 2);   /* raw: strace prints the whole register */
	return RVAL_DONE;
}

SYS_FUNC(readlinkat)
{
	if (!exiting) {
		arg_dirfd(ctx, ev, 0);
		arg_path(ctx, ev, 1);
		arg_count(ev, 4);
		return RVAL_EXIT;
	}
	out_buf(ctx, ev, 2);
	arg_raw_uint(ctx, ev, 3);   /* raw: strace prints the whole register */
	return RVAL_DONE;
}

SYS_FUNC(unlink)
{
	arg_path(ctx, ev, 0);
	return RVAL_DONE;
}

SYS_FUNC(rmdir)
{
	arg_path(ctx, ev, 0);
	return RVAL_DONE;
}

SYS_FUNC(chdir)
{
	arg_path(ctx, ev, 0);
	return RVAL_DONE;
}

SYS_FUNC(chroot)
{
	arg_path(ctx, ev, 0);
	return RVAL_DONE;
}

SYS_FUNC(fchdir)
{
	arg_fd(ctx, ev, 0);
	return RVAL_DONE;
}

SYS_FUNC(unlinkat)
{
	arg_dirfd(ctx, ev, 0);
	arg_path(ctx, ev, 1);
	arg_flags(ctx, ev, 2, at_flags, NULL);
	return RVAL_DONE;
}

/* Two paths: rename, link, symlink. */
static int two_paths(struct dctx *c, struct event *ev)
{
	arg_path(c, ev, 0);
	arg_path(c, ev, 1);
	return RVAL_DONE;
}

SYS_FUNC(rename) { return two_paths(ctx, ev); }
SYS_FUNC(link) { return two_paths(ctx, ev); }
SYS_FUNC(symlink) { return two_paths(ctx, ev); }

SYS_FUNC(symlinkat)
{
	arg_path(ctx, ev, 0);
	arg_dirfd(ctx, ev, 1);
	arg_path(ctx, ev, 2);
	return RVAL_DONE;
}

SYS_FUNC(renameat)
{
	arg_dirfd(ctx, ev, 0);
	arg_path(ctx, ev, 1);
	arg_dirfd(ctx, ev, 2);
	arg_path(ctx, ev, 3);
	return RVAL_DONE;
}

SYS_FUNC(renameat2)
{
	SYS_FUNC_NAME(renameat)(ctx, ev, exiting);
	arg_flags(ctx, ev, 4, rename_flags, NULL);
	return RVAL_DONE;
}

SYS_FUNC(linkat)
{
	SYS_FUNC_NAME(renameat)(ctx, ev, exiting);
	arg_flags(ctx, ev, 4, at_flags, NULL);
	return RVAL_DONE;
}

SYS_FUNC(mkdir)
{
	arg_path(ctx, ev, 0);
	arg_oct(ctx, ev, 1);
	return RVAL_DONE;
}

SYS_FUNC(mkdirat)
{
	arg_dirfd(ctx, ev, 0);
	arg_path(ctx, ev, 1);
	arg_oct(ctx, ev, 2);
	return RVAL_DONE;
}

SYS_FUNC(chmod)
{
	arg_path(ctx, ev, 0);
	arg_oct(ctx, ev, 1);
	return RVAL_DONE;
}

SYS_FUNC(fchmod)
{
	arg_fd(ctx, ev, 0);
	arg_oct(ctx, ev, 1);
	return RVAL_DONE;
}

SYS_FUNC(fchmodat)
{
	arg_dirfd(ctx, ev, 0);
	arg_path(ctx, ev, 1);
	arg_oct(ctx, ev, 2);
	return RVAL_DONE;
}

/* uid/gid: -1 prints as -1, the rest unsigned (strace's printuid). */
static void arg_id(struct dctx *c, struct event *ev, unsigned i)
{
	struct val *v = arg_slot(c, ev, i);

	if ((uint32_t)ev->karg[i] == UINT32_MAX)
		val_set_int(v, v->name, -1);
	else
		val_set_uint(v, v->name, (uint32_t)ev->karg[i]);
}

SYS_FUNC(chown)
{
	arg_path(ctx, ev, 0);
	arg_id(ctx, ev, 1);
	arg_id(ctx, ev, 2);
	return RVAL_DONE;
}

SYS_FUNC(lchown) { return SYS_FUNC_NAME(chown)(ctx, ev, exiting); }

SYS_FUNC(fchown)
{
	arg_fd(ctx, ev, 0);
	arg_id(ctx, ev, 1);
	arg_id(ctx, ev, 2);
	return RVAL_DONE;
}

SYS_FUNC(fchownat)
{
	arg_dirfd(ctx, ev, 0);
	arg_path(ctx, ev, 1);
	arg_id(ctx, ev, 2);
	arg_id(ctx, ev, 3);
	arg_flags(ctx, ev, 4, at_flags, NULL);
	return RVAL_DONE;
}

SYS_FUNC(truncate)
{
	arg_path(ctx, ev, 0);
	arg_long(ctx, ev, 1);
	return RVAL_DONE;
}

SYS_FUNC(ftruncate)
{
	arg_fd(ctx, ev, 0);
	arg_long(ctx, ev, 1);
	return RVAL_DONE;
}

SYS_FUNC(umask)
{
	/* the kernel takes an int and keeps S_IRWXUGO; strace shows a umode_t,
	 * the low 16 bits */
	struct val *v = arg_slot(ctx, ev, 0);

	val_set_oct(v, v->name, (uint16_t)ev->karg[0]);
	ev->rv_fmt = RV_OCT;
	return RVAL_DONE;
}

SYS_FUNC(getcwd)
{
	if (!exiting) {
		arg_count(ev, 2);
		return RVAL_EXIT;
	}
	if (ev->err) {
		arg_ptr(ctx, ev, 0);
	} else {
		struct val *v = arg_slot(ctx, ev, 0);
		val_read_path(ctx, v, v->name, ev->karg[0]);
		v->flags |= VF_EXIT;
	}
	arg_uint(ctx, ev, 1);
	return RVAL_DONE;
}

/* struct file_handle's f_handle bytes in hex, "..." past MAX_HANDLE_SZ, or
 * "???" when they cannot be read (strace's print_f_handle). */
static void f_handle_val(struct dctx *c, struct val *v, uint64_t addr, uint32_t bytes)
{
	uint32_t n = bytes < 128 ? bytes : 128;
	char buf[128];

	if (addr + 8 > 8 && tread(c, addr + 8, buf, n)) {
		val_set_str(c, v, "f_handle", buf, n, bytes > n);
		v->flags |= VF_HEXSTR;
	} else {
		val_set_text(c, v, "f_handle", "???");
	}
}

/* name_to_handle_at(dirfd, path, handle, mount_id, flags): handle_bytes at
 * entry, the handle and the mount id at exit */
SYS_FUNC(name_to_handle_at)
{
	struct { uint32_t handle_bytes; int32_t handle_type; } h;
	struct val *v = arg_slot(ctx, ev, 2);
	struct val *f;

	if (!exiting) {
		arg_dirfd(ctx, ev, 0);
		arg_path(ctx, ev, 1);
		v = arg_slot(ctx, ev, 2);
		if (!tread(ctx, ev->karg[2], &h, sizeof(h))) {
			val_set_ptr(v, v->name, ev->karg[2]);
			arg_ptr(ctx, ev, 3);
			arg_flags(ctx, ev, 4, name_to_handle_at_flags, NULL);
			return RVAL_DONE;
		}
		f = val_new_array(ctx, 1);
		val_set_uint(&f[0], "handle_bytes", h.handle_bytes);
		val_set_struct(v, v->name, f, 1, false);
		arg_count(ev, 5);
		return RVAL_EXIT;
	}
	f = val_new_array(ctx, 3);
	f[0] = v->c.items[0];
	if ((!ev->err || ev->err == 75 /* EOVERFLOW */) && tread(ctx, ev->karg[2], &h, sizeof(h))) {
		unsigned n = 1;

		if (h.handle_bytes != f[0].u) {
			struct val a = f[0], b;

			a.name = NULL;
			val_set_uint(&b, NULL, h.handle_bytes);
			val_set_changed(ctx, &f[0], "handle_bytes", &a, &b);
		}
		if (!ev->err) {
			val_set_int(&f[n++], "handle_type", h.handle_type);
			f_handle_val(ctx, &f[n++], ev->karg[2], h.handle_bytes);
		}
		val_set_struct(v, v->name, f, n, false);
	} else {
		val_set_struct(v, v->name, f, 1, false);
	}
	v->flags |= VF_EXIT;
	v = arg_slot(ctx, ev, 3);
	val_read_int_boxed(ctx, v, v->name, ev->karg[3]);
	v->flags |= VF_EXIT;
	arg_flags(ctx, ev, 4, name_to_handle_at_flags, NULL);
	return RVAL_DONE;
}

SYS_FUNC(open_by_handle_at)
{
	struct { uint32_t handle_bytes; int32_t handle_type; } h;
	struct val *v;

	if (exiting) {
		ret_set_fd(ctx, ev);
		return RVAL_DONE;
	}
	arg_fd(ctx, ev, 0);
	v = arg_slot(ctx, ev, 1);
	if (!tread(ctx, ev->karg[1], &h, sizeof(h))) {
		val_set_ptr(v, v->name, ev->karg[1]);
	} else {
		struct val *f = val_new_array(ctx, 3);

		val_set_uint(&f[0], "handle_bytes", h.handle_bytes);
		val_set_int(&f[1], "handle_type", h.handle_type);
		f_handle_val(ctx, &f[2], ev->karg[1], h.handle_bytes);
		val_set_struct(v, v->name, f, 3, false);
	}
	v = arg_slot(ctx, ev, 2);
	val_set_open_flags(ctx, v, v->name, (uint32_t)ev->karg[2]);
	ev->rv_fmt = RV_FD;
	return ctx->opts->decode_fds ? RVAL_EXIT : RVAL_DONE;
}
