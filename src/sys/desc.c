/*
 * Decoders of descriptor calls: dup*, pipe*, fcntl, getdents64.  New
 * descriptors print with their path under -y; pipe fds and fcntl's
 * F_GETLK structure are read at exit.
 */
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "sys/decode.h"
#include "sys/pidns.h"
#include "xlat/dirent_types.h"
#include "xlat/f_owner_types.h"
#include "xlat/f_seals.h"
#include "xlat/fcntlcmds.h"
#include "xlat/fdflags.h"
#include "xlat/lease_cmds.h"
#include "xlat/lockfcmds.h"
#include "xlat/notifyflags.h"
#include "xlat/whence_codes.h"

#undef O_LARGEFILE
#define O_LARGEFILE 0100000
#include "xlat/o_flags.h"

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

SYS_FUNC(dup)
{
	if (!exiting)
		arg_fd(ctx, ev, 0);
	return ret_fd(ctx, ev, exiting);
}

SYS_FUNC(dup2)
{
	if (!exiting) {
		arg_fd(ctx, ev, 0);
		arg_fd(ctx, ev, 1);
	}
	return ret_fd(ctx, ev, exiting);
}

SYS_FUNC(dup3)
{
	if (!exiting) {
		arg_fd(ctx, ev, 0);
		arg_fd(ctx, ev, 1);
		arg_flags(ctx, ev, 2, o_flags, NULL);
	}
	return ret_fd(ctx, ev, exiting);
}

/* pipe/pipe2's int[2] at exit: [3, 4], or the address on failure. */
static void out_pipefd(struct dctx *c, struct event *ev)
{
	struct val *v = arg_slot(c, ev, 0);
	int fds[2];

	if (ev->err || !tread(c, ev->karg[0], fds, sizeof(fds))) {
		val_set_ptr(v, v->name, ev->karg[0]);
	} else {
		/* an array: cut at the string limit of elements, as strace */
		unsigned n = c->opts->string_limit < 2 ? c->opts->string_limit : 2;
		struct val *items = val_new_array(c, 2);

		val_set_fd(c, &items[0], NULL, fds[0]);
		val_set_fd(c, &items[1], NULL, fds[1]);
		val_set_array(v, v->name, items, n, n < 2);
	}
	v->flags |= VF_EXIT;
}

SYS_FUNC(pipe)
{
	if (!exiting) {
		arg_count(ev, 1);
		return RVAL_EXIT;
	}
	out_pipefd(ctx, ev);
	return RVAL_DONE;
}

SYS_FUNC(pipe2)
{
	if (!exiting) {
		arg_count(ev, 2);
		return RVAL_EXIT;
	}
	out_pipefd(ctx, ev);
	arg_flags(ctx, ev, 1, o_flags, NULL);
	return RVAL_DONE;
}

/* struct flock at addr; l_pid only when the kernel filled it (F_GETLK). */
static void set_flock(struct dctx *c, struct val *v, const char *name, uint64_t addr,
		      bool with_pid)
{
	struct flock fl;
	struct val *f;

	if (!tread(c, addr, &fl, sizeof(fl))) {
		val_set_ptr(v, name, addr);
		return;
	}
	f = val_new_array(c, 5);
	val_set_enum(&f[0], "l_type", (uint16_t)fl.l_type, lockfcmds);
	val_set_enum(&f[1], "l_whence", (uint16_t)fl.l_whence, whence_codes);
	val_set_int(&f[2], "l_start", fl.l_start);
	val_set_int(&f[3], "l_len", fl.l_len);
	val_set_pid(c, &f[4], "l_pid", fl.l_pid, PT_TGID);
	val_set_struct(v, name, f, with_pid ? 5 : 4, false);
}

static void set_owner_ex(struct dctx *c, struct val *v, const char *name, uint64_t addr)
{
	struct f_owner_ex o;
	struct val *f;

	if (!tread(c, addr, &o, sizeof(o))) {
		val_set_ptr(v, name, addr);
		return;
	}
	f = val_new_array(c, 2);
	val_set_enum(&f[0], "type", (uint32_t)o.type, f_owner_types);
	/* F_OWNER_TID, F_OWNER_PID, F_OWNER_PGRP */
	val_set_pid(c, &f[1], "pid", o.pid, o.type == 0 ? PT_TID : o.type == 1 ? PT_TGID :
					  o.type == 2 ? PT_PGID : PT_NONE);
	val_set_struct(v, name, f, 2, false);
}

/* A signal number as strace's printsignal: SIGIO, or the number. */
static void val_set_signo(struct dctx *c, struct val *v, const char *name, int sig)
{
	const char *s = sig ? signal_name(sig) : NULL;

	if (s)
		val_set_text(c, v, name, s);
	else
		val_set_int(v, name, sig);
}

/* fcntl at exit: results that print with a comment, output structures. */
static int fcntl_exit(struct dctx *c, struct event *ev, int cmd)
{
	struct val *aux;

	switch (cmd) {
	case F_DUPFD:
	case F_DUPFD_CLOEXEC:
		ret_set_fd(c, ev);
		return RVAL_DONE;
	case F_GETLK:
	case F_OFD_GETLK: {
		struct val *v = arg_slot(c, ev, 2);

		if (ev->err)
			val_set_ptr(v, v->name, ev->karg[2]);
		else
			set_flock(c, v, v->name, ev->karg[2], true);
		v->flags |= VF_EXIT;
		return RVAL_DONE;
	}
	case F_GETOWN_EX: {
		struct val *v = arg_slot(c, ev, 2);

		if (ev->err)
			val_set_ptr(v, v->name, ev->karg[2]);
		else
			set_owner_ex(c, v, v->name, ev->karg[2]);
		v->flags |= VF_EXIT;
		return RVAL_DONE;
	}
	}
	if (cmd == F_GETOWN) {
		/* a process group comes back negative: not translated */
		ret_set_pid(c, ev, PT_TGID);
		return RVAL_DONE;
	}
	if (ev->err)
		return RVAL_DONE;
	aux = arena_calloc(c->arena, sizeof(*aux));
	switch (cmd) {
	case F_GETFD:
		if (!ev->retval)
			return RVAL_DONE;
		val_set_flags(aux, "flags", (uint64_t)ev->retval, fdflags, NULL);
		break;
	case F_GETFL: {
		/* strace's sprint_open_modes: names in every -X style */
		const char *t = open_flags_text(c, (uint64_t)ev->retval);

		if (t)
			val_set_text(c, aux, "flags", t);
		else
			val_set_open_flags(c, aux, "flags", (uint64_t)ev->retval);
		break;
	}
	case F_GETLEASE:
		val_set_enum(aux, NULL, (uint64_t)ev->retval, lease_cmds);
		break;
	case F_GET_SEALS:
		val_set_flags(aux, "seals", (uint64_t)ev->retval, f_seals, NULL);
		break;
	case F_GETSIG:
		if (!ev->retval || !signal_name((int)ev->retval))
			return RVAL_DONE;
		val_set_text(c, aux, NULL, signal_name((int)ev->retval));
		ev->ret_aux = aux;
		return RVAL_DONE;
	default:
		return RVAL_DONE;
	}
	ev->rv_fmt = RV_HEX;
	ev->ret_aux = aux;
	return RVAL_DONE;
}

SYS_FUNC(fcntl)
{
	int cmd = (int)ev->karg[1];
	struct val *v;

	if (exiting)
		return fcntl_exit(ctx, ev, cmd);
	arg_fd(ctx, ev, 0);
	arg_enum(ctx, ev, 1, fcntlcmds);
	switch (cmd) {
	case F_DUPFD:
	case F_DUPFD_CLOEXEC:
		arg_int(ctx, ev, 2);
		ev->rv_fmt = RV_FD;
		return ctx->opts->decode_fds ? RVAL_EXIT : RVAL_DONE;
	case F_SETFD:
		arg_flags(ctx, ev, 2, fdflags, NULL);
		return RVAL_DONE;
	case F_SETFL:
		v = arg_slot(ctx, ev, 2);
		val_set_open_flags(ctx, v, v->name, ev->karg[2]);
		return RVAL_DONE;
	case F_SETLK:
	case F_SETLKW:
	case F_OFD_SETLK:
	case F_OFD_SETLKW:
		v = arg_slot(ctx, ev, 2);
		set_flock(ctx, v, v->name, ev->karg[2], false);
		return RVAL_DONE;
	case F_SETOWN:
		v = arg_slot(ctx, ev, 2);
		val_set_pid_tgid_pgid(ctx, v, v->name, (int)ev->karg[2]);
		return RVAL_DONE;
	case F_SETPIPE_SZ:
		arg_int(ctx, ev, 2);
		return RVAL_DONE;
	case F_SETSIG:
		v = arg_slot(ctx, ev, 2);
		val_set_signo(ctx, v, v->name, (int)ev->karg[2]);
		return RVAL_DONE;
	case F_SETLEASE:
		arg_enum(ctx, ev, 2, lease_cmds);
		return RVAL_DONE;
	case F_NOTIFY:
		arg_flags(ctx, ev, 2, notifyflags, NULL);
		return RVAL_DONE;
	case F_ADD_SEALS:
		arg_flags(ctx, ev, 2, f_seals, NULL);
		return RVAL_DONE;
	case F_SETOWN_EX:
		v = arg_slot(ctx, ev, 2);
		set_owner_ex(ctx, v, v->name, ev->karg[2]);
		return RVAL_DONE;
	case F_GETLK:
	case F_OFD_GETLK:
	case F_GETOWN_EX:
		arg_count(ev, 3);
		return RVAL_EXIT;
	case F_GETFD:
	case F_GETFL:
	case F_GETLEASE:
	case F_GET_SEALS:
	case F_GETSIG:
		return RVAL_EXIT;
	case F_GETOWN:
		return ctx->opts->decode_pids ? RVAL_EXIT : RVAL_DONE;
	case F_GETPIPE_SZ:
		return RVAL_DONE;
	default:
		arg_hex(ctx, ev, 2);
		return RVAL_DONE;
	}
}

/*
 * -v: the entries, all of them and whole names, as strace: getdents64's
 * struct linux_dirent64 {d_ino, d_off, d_reclen, d_type, d_name} (the
 * name at 19) as [{d_ino=..., d_off=..., d_reclen=..., d_type=DT_REG,
 * d_name="..."}, ...]; getdents's struct linux_dirent {d_ino, d_off,
 * d_reclen, d_name, ..., d_type in the record's last byte} (the name at
 * 18) with d_name before d_type.
 */
static void set_dirents(struct dctx *c, struct val *v, const char *name,
			const char *buf, uint64_t len, unsigned entries, bool d64)
{
	const unsigned head = d64 ? 19 : 18;
	/* at most DECODE_MAX_ELEMS entries, then "..." (strace shows all) */
	unsigned max = entries < DECODE_MAX_ELEMS ? entries : DECODE_MAX_ELEMS;
	struct val *items = val_new_array(c, max);
	uint64_t off = 0;
	unsigned k = 0;

	while (k < max && off + head <= len) {
		uint64_t ino, room;
		int64_t doff;
		uint16_t reclen;
		struct val *f = val_new_array(c, 5);
		const char *nm = buf + off + head;
		uint8_t type;

		memcpy(&ino, buf + off, 8);
		memcpy(&doff, buf + off + 8, 8);
		memcpy(&reclen, buf + off + 16, 2);
		room = (reclen > head && off + reclen <= len) ? reclen - head : len - off - head;
		type = d64 ? (uint8_t)buf[off + 18]
			   : (reclen > head && off + reclen <= len) ? (uint8_t)buf[off + reclen - 1] : 0;
		val_set_uint(&f[0], "d_ino", ino);
		if (d64)
			val_set_int(&f[1], "d_off", doff);
		else
			val_set_uint(&f[1], "d_off", (uint64_t)doff);
		val_set_uint(&f[2], "d_reclen", reclen);
		val_set_enum(&f[d64 ? 3 : 4], "d_type", type, dirent_types);
		val_set_str(c, &f[d64 ? 4 : 3], "d_name", nm, strnlen(nm, room), false);
		val_set_struct(&items[k++], NULL, f, 5, false);
		off += reclen;
	}
	val_set_array(v, name, items, k, k < entries);
}

/* getdents/getdents64(fd, dirp, count) at exit: the buffer's address and
 * "/ * N entries * /", or the entries with -v. */
static int getdents_common(struct dctx *ctx, struct event *ev, int exiting, bool d64)
{
	const unsigned head = d64 ? 19 : 18;
	struct val *v, *parts;
	char *buf, text[32];
	unsigned entries = 0;
	uint64_t len;

	if (!exiting) {
		arg_fd(ctx, ev, 0);
		arg_count(ev, 3);
		return RVAL_EXIT;
	}
	v = arg_slot(ctx, ev, 1);
	len = ev->err ? 0 : (uint64_t)ev->retval;
	if (ev->err || len > ev->karg[2] || len > (1u << 24)) {
		val_set_ptr(v, v->name, ev->karg[1]);
		goto count;
	}
	buf = arena_alloc(ctx->arena, len ? len : 1);
	if (len && !tread(ctx, ev->karg[1], buf, len)) {
		val_set_ptr(v, v->name, ev->karg[1]);
		goto count;
	}
	for (uint64_t off = 0; off + head <= len; entries++) {
		uint16_t reclen;

		memcpy(&reclen, buf + off + 16, sizeof(reclen));
		if (!reclen)
			break;
		off += reclen;
	}
	if (ctx->opts->verbose) {
		set_dirents(ctx, v, v->name, buf, len, entries, d64);
		goto count;
	}
	parts = val_new_array(ctx, 2);
	val_set_ptr(&parts[0], NULL, ev->karg[1]);
	snprintf(text, sizeof(text), "%u entries", entries);
	val_set_comment(ctx, &parts[1], text);
	val_set_op(v, v->name, parts, 2, " ");
count:
	v->flags |= VF_EXIT;
	arg_uint(ctx, ev, 2);
	return RVAL_DONE;
}

SYS_FUNC(getdents64)
{
	return getdents_common(ctx, ev, exiting, true);
}

SYS_FUNC(getdents)
{
	return getdents_common(ctx, ev, exiting, false);
}
