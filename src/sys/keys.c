/*
 * Decoders of the key management calls: add_key, request_key, keyctl (its
 * commands as strace 6.1 prints them; the Diffie-Hellman and public key
 * commands show their argument registers).
 */
#include <stdio.h>

#include "sys/decode.h"
#include "sys/decode_extra.h"
#include "xlat/key_perms.h"
#include "xlat/key_reqkeys.h"
#include "xlat/key_spec.h"
#include "xlat/keyctl_commands.h"
#include "xlat/keyctl_move_flags.h"
#include "util/banned.h"

/* A key serial number: KEY_SPEC_USER_KEYRING or the decimal number. */
static void val_set_key(struct dctx *c, struct val *v, const char *name, int32_t id)
{
	const char *s = xlat_name(key_spec, (uint64_t)(int64_t)id);

	if (s)
		val_set_text(c, v, name, s);
	else
		val_set_int(v, name, id);
}

static void arg_key(struct dctx *c, struct event *ev, unsigned i)
{
	struct val *v = arg_slot(c, ev, i);

	val_set_key(c, v, v->name, (int32_t)ev->karg[i]);
}

/* strace's printuid: -1 as "-1", anything else unsigned */
static void arg_id(struct dctx *c, struct event *ev, unsigned i)
{
	struct val *v = arg_slot(c, ev, i);
	uint32_t id = (uint32_t)ev->karg[i];

	if (id == UINT32_MAX)
		val_set_int(v, v->name, -1);
	else
		val_set_uint(v, v->name, id);
}

SYS_FUNC(add_key)
{
	arg_cstr(ctx, ev, 0);
	arg_cstr(ctx, ev, 1);
	arg_buf(ctx, ev, 2, ev->karg[3]);
	arg_uint(ctx, ev, 3);
	arg_key(ctx, ev, 4);
	return RVAL_DONE;
}

SYS_FUNC(request_key)
{
	arg_cstr(ctx, ev, 0);
	arg_cstr(ctx, ev, 1);
	arg_cstr(ctx, ev, 2);
	arg_key(ctx, ev, 3);
	return RVAL_DONE;
}

enum {
	K_GET_KEYRING_ID, K_JOIN_SESSION_KEYRING, K_UPDATE, K_REVOKE, K_CHOWN, K_SETPERM,
	K_DESCRIBE, K_CLEAR, K_LINK, K_UNLINK, K_SEARCH, K_READ, K_INSTANTIATE, K_NEGATE,
	K_SET_REQKEY_KEYRING, K_SET_TIMEOUT, K_ASSUME_AUTHORITY, K_GET_SECURITY,
	K_SESSION_TO_PARENT, K_REJECT, K_INSTANTIATE_IOV, K_INVALIDATE, K_GET_PERSISTENT,
	K_RESTRICT_KEYRING = 29, K_MOVE = 30,
};

/* KEYCTL_DESCRIBE/READ/GET_SECURITY at exit: the buffer as far as the
 * kernel filled it, and its size. */
static void read_key_exit(struct dctx *c, struct event *ev)
{
	struct val *v = arg_slot(c, ev, 2);
	uint64_t len = ev->karg[3];

	if (ev->err) {
		val_set_ptr(v, v->name, ev->karg[2]);
	} else {
		uint64_t n = (uint64_t)ev->retval > len ? len : (uint64_t)ev->retval;

		val_read_buf(c, v, v->name, ev->karg[2], n);
		/* DESCRIBE and GET_SECURITY return a NUL-terminated string:
		 * a NUL as the last byte shown is left out, and then no "..."
		 * (strace's QUOTE_OMIT_TRAILING_0) */
		if ((int)ev->karg[0] != K_READ && v->kind == V_STR && v->s.len &&
		    !v->s.p[v->s.len - 1]) {
			v->s.len--;
			v->flags &= (uint16_t)~VF_TRUNC;
		}
	}
	v->flags |= VF_EXIT;
	arg_uint(c, ev, 3);
}

SYS_FUNC(keyctl)
{
	int cmd = (int)ev->karg[0];
	struct val *v;

	if (exiting) {
		read_key_exit(ctx, ev);
		return RVAL_DONE;
	}
	arg_enum(ctx, ev, 0, keyctl_commands);
	ev->nargs = 1;
	switch (cmd) {
	case K_GET_KEYRING_ID:
		arg_key(ctx, ev, 1);
		arg_int(ctx, ev, 2);
		break;
	case K_JOIN_SESSION_KEYRING:
		arg_cstr(ctx, ev, 1);
		break;
	case K_UPDATE:
		arg_key(ctx, ev, 1);
		arg_buf(ctx, ev, 2, ev->karg[3]);
		arg_uint(ctx, ev, 3);
		break;
	case K_REVOKE: case K_CLEAR: case K_INVALIDATE: case K_ASSUME_AUTHORITY:
		arg_key(ctx, ev, 1);
		break;
	case K_LINK: case K_UNLINK:
		arg_key(ctx, ev, 1);
		arg_key(ctx, ev, 2);
		break;
	case K_DESCRIBE: case K_READ: case K_GET_SECURITY:
		arg_key(ctx, ev, 1);
		arg_count(ev, 4);
		return RVAL_EXIT;
	case K_SEARCH:
		arg_key(ctx, ev, 1);
		arg_cstr(ctx, ev, 2);
		arg_cstr(ctx, ev, 3);
		arg_key(ctx, ev, 4);
		break;
	case K_CHOWN:
		arg_key(ctx, ev, 1);
		arg_id(ctx, ev, 2);
		arg_id(ctx, ev, 3);
		break;
	case K_SETPERM:
		arg_key(ctx, ev, 1);
		arg_flags(ctx, ev, 2, key_perms, NULL);
		ev->args[2].x.v = (uint32_t)ev->karg[2];
		break;
	case K_INSTANTIATE:
		arg_key(ctx, ev, 1);
		arg_buf(ctx, ev, 2, ev->karg[3]);
		arg_uint(ctx, ev, 3);
		arg_key(ctx, ev, 4);
		break;
	case K_NEGATE:
		arg_key(ctx, ev, 1);
		v = arg_slot(ctx, ev, 2);
		val_set_uint(v, v->name, (uint32_t)ev->karg[2]);
		arg_key(ctx, ev, 3);
		break;
	case K_SET_REQKEY_KEYRING: {
		const char *s = xlat_name(key_reqkeys, (uint64_t)(int64_t)(int)ev->karg[1]);
		struct val x;

		v = arg_slot(ctx, ev, 1);
		if (s) {
			val_set_text(ctx, v, v->name, s);
		} else {
			val_set_int(&x, NULL, (int)ev->karg[1]);
			val_set_commented(ctx, v, v->name, &x, "KEY_REQKEY_DEFL_???");
		}
		break;
	}
	case K_SET_TIMEOUT:
		arg_key(ctx, ev, 1);
		v = arg_slot(ctx, ev, 2);
		val_set_uint(v, v->name, (uint32_t)ev->karg[2]);
		break;
	case K_SESSION_TO_PARENT:
		break;
	case K_REJECT: {
		uint32_t e = (uint32_t)ev->karg[3];
		const char *en = errno_name((int)e);

		arg_key(ctx, ev, 1);
		v = arg_slot(ctx, ev, 2);
		val_set_uint(v, v->name, (uint32_t)ev->karg[2]);
		v = arg_slot(ctx, ev, 3);
		if (en)
			val_set_text(ctx, v, v->name, en);
		else
			val_set_uint(v, v->name, e);
		arg_key(ctx, ev, 4);
		break;
	}
	case K_INSTANTIATE_IOV:
		arg_key(ctx, ev, 1);
		v = arg_slot(ctx, ev, 2);
		decode_iovec(ctx, v, v->name, ev->karg[2], ev->karg[3], -1, false);
		arg_uint(ctx, ev, 3);
		arg_key(ctx, ev, 4);
		break;
	case K_GET_PERSISTENT:
		arg_id(ctx, ev, 1);
		arg_key(ctx, ev, 2);
		break;
	case K_RESTRICT_KEYRING:
		arg_key(ctx, ev, 1);
		arg_cstr(ctx, ev, 2);
		arg_cstr(ctx, ev, 3);
		break;
	case K_MOVE:
		arg_key(ctx, ev, 1);
		arg_key(ctx, ev, 2);
		arg_key(ctx, ev, 3);
		arg_flags(ctx, ev, 4, keyctl_move_flags, NULL);
		break;
	default:
		for (unsigned i = 1; i < 5; i++)
			arg_hex(ctx, ev, i);
		break;
	}
	return RVAL_DONE;
}
