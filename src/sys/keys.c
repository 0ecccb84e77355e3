/*
 * Decoders of the key management calls: add_key, request_key, keyctl (its
 * commands as strace 6.1 prints them, the Diffie-Hellman and public key
 * ones with their parameter structures).
 */
#include <linux/keyctl.h>
#include <stdio.h>
#include <string.h>

#include "sys/decode.h"
#include "sys/decode_extra.h"
#include "xlat/key_perms.h"
#include "xlat/key_reqkeys.h"
#include "xlat/key_spec.h"
#include "xlat/keyctl_caps0.h"
#include "xlat/keyctl_caps1.h"
#include "xlat/keyctl_commands.h"
#include "xlat/keyctl_move_flags.h"
#include "util/banned.h"

/* A key serial number: KEY_SPEC_USER_KEYRING or the decimal number (-X
 * raw: -4; -X verbose: -4 / * KEY_SPEC_USER_KEYRING * /). */
static void val_set_key(struct dctx *c, struct val *v, const char *name, int32_t id)
{
	const char *s = xlat_name(key_spec, (uint64_t)(int64_t)id);
	struct val num;

	val_set_int(&num, NULL, id);
	if (s)
		val_set_num_text(c, v, name, &num, s);
	else
		*v = num, v->name = name;
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
	K_DH_COMPUTE, K_PKEY_QUERY, K_PKEY_ENCRYPT, K_PKEY_DECRYPT, K_PKEY_SIGN,
	K_PKEY_VERIFY, K_RESTRICT_KEYRING, K_MOVE, K_CAPABILITIES,
};

/* __spare=[0x1, 0, ...] of n 32-bit words, when any is set */
static bool spare_val(struct dctx *c, struct val *v, const uint32_t *w, unsigned n)
{
	struct val *r = val_new_array(c, n);
	bool any = false;

	for (unsigned i = 0; i < n; i++) {
		any |= w[i] != 0;
		val_set_hex(&r[i], NULL, w[i]);
	}
	if (any)
		val_set_array(v, "__spare", r, n, false);
	return any;
}

/* struct keyctl_dh_params: {private=K, prime=K, base=K} */
static void dh_params_val(struct dctx *c, struct val *v, const char *name, uint64_t addr)
{
	struct keyctl_dh_params p;
	struct val *f;

	if (!tread(c, addr, &p, sizeof(p))) {
		val_set_ptr(v, name, addr);
		return;
	}
	f = val_new_array(c, 3);
	val_set_key(c, &f[0], "private", p.private);
	val_set_key(c, &f[1], "prime", p.prime);
	val_set_key(c, &f[2], "base", p.base);
	val_set_struct(v, name, f, 3, false);
}

/* struct keyctl_kdf_params: {hashname="...", otherinfo="...", otherinfolen=N} */
static void kdf_params_val(struct dctx *c, struct val *v, const char *name, uint64_t addr)
{
	struct keyctl_kdf_params p;
	struct val *f;
	unsigned n = 0;

	if (!tread(c, addr, &p, sizeof(p))) {
		val_set_ptr(v, name, addr);
		return;
	}
	f = val_new_array(c, 4);
	val_read_cstr(c, &f[n++], "hashname", (uint64_t)(uintptr_t)p.hashname,
		      c->opts->string_limit);
	val_read_buf(c, &f[n++], "otherinfo", (uint64_t)(uintptr_t)p.otherinfo, p.otherinfolen);
	val_set_uint(&f[n++], "otherinfolen", p.otherinfolen);
	if (spare_val(c, &f[n], p.__spare, 8))
		n++;
	val_set_struct(v, name, f, n, false);
}

/* struct keyctl_pkey_params: {key_id=K, in_len=N, out_len=N (in2_len=N for
 * KEYCTL_PKEY_VERIFY)}; false when it cannot be read */
static bool pkey_params_val(struct dctx *c, struct val *v, const char *name, uint64_t addr,
			    struct keyctl_pkey_params *p, bool verify)
{
	struct val *f;
	unsigned n = 0;

	if (!tread(c, addr, p, sizeof(*p))) {
		val_set_ptr(v, name, addr);
		return false;
	}
	f = val_new_array(c, 4);
	val_set_key(c, &f[n++], "key_id", p->key_id);
	val_set_uint(&f[n++], "in_len", p->in_len);
	val_set_uint(&f[n++], verify ? "in2_len" : "out_len", p->out_len);
	if (spare_val(c, &f[n], p->__spare, 7))
		n++;
	val_set_struct(v, name, f, n, false);
	return true;
}

/* KEYCTL_CAPABILITIES' bytes: the first two as flags, the rest in hex */
static void caps_item(struct dctx *c, struct val *item, const void *elem, void *arg)
{
	unsigned *idx = arg;
	uint8_t b = *(const uint8_t *)elem;

	if (*idx == 0)
		val_set_flags(item, NULL, b, keyctl_caps0, NULL);
	else if (*idx == 1)
		val_set_flags(item, NULL, b, keyctl_caps1, NULL);
	else
		val_set_hex(item, NULL, b);
	++*idx;
}

static void read_key_exit(struct dctx *c, struct event *ev);

/* The exit half of the commands that write to the caller's memory. */
static void keyctl_exit(struct dctx *c, struct event *ev)
{
	int cmd = (int)ev->karg[0];
	struct val *v;

	switch (cmd) {
	case K_DH_COMPUTE:
		v = arg_slot(c, ev, 2);
		if (ev->err)
			val_set_ptr(v, v->name, ev->karg[2]);
		else
			val_read_buf(c, v, v->name, ev->karg[2],
				     (uint64_t)ev->retval < ev->karg[3] ? (uint64_t)ev->retval
									: ev->karg[3]);
		v->flags |= VF_EXIT;
		arg_uint(c, ev, 3);
		v = arg_slot(c, ev, 4);
		kdf_params_val(c, v, v->name, ev->karg[4]);
		v->flags |= VF_EXIT;
		return;
	case K_PKEY_QUERY:
		/* the struct keyctl_pkey_query the kernel filled: its address */
		arg_ptr(c, ev, 4);
		return;
	case K_PKEY_ENCRYPT: case K_PKEY_DECRYPT: case K_PKEY_SIGN:
		v = arg_slot(c, ev, 4);
		if (ev->err || !(ev->karg[1] && ev->args[3].kind != V_PTR))
			val_set_ptr(v, v->name, ev->karg[4]);
		else
			val_read_buf(c, v, v->name, ev->karg[4], (uint64_t)ev->retval);
		v->flags |= VF_EXIT;
		return;
	case K_CAPABILITIES: {
		unsigned idx = 0;
		uint64_t len = (uint32_t)ev->karg[2];

		v = arg_slot(c, ev, 1);
		if (ev->err)
			val_set_ptr(v, v->name, ev->karg[1]);
		else
			decode_array(c, v, v->name, ev->karg[1],
				     (uint64_t)ev->retval < len ? (uint64_t)ev->retval : len, 1,
				     caps_item, &idx);
		v->flags |= VF_EXIT;
		v = arg_slot(c, ev, 2);
		val_set_uint(v, v->name, len);
		return;
	}
	default:
		read_key_exit(c, ev);
		return;
	}
}

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
		keyctl_exit(ctx, ev);
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
		val_set_int(&x, NULL, (int)ev->karg[1]);
		if (s) {
			val_set_num_text(ctx, v, v->name, &x, s);
		} else {
			struct val cm;

			val_set_commented(ctx, &cm, NULL, &x, "KEY_REQKEY_DEFL_???");
			val_set_xforms(ctx, v, v->name, &cm, &x, &cm);
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
		if (en) {
			struct val x;

			val_set_uint(&x, NULL, e);
			val_set_num_text(ctx, v, v->name, &x, en);
		} else {
			val_set_uint(v, v->name, e);
		}
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
		v = arg_slot(ctx, ev, 4);
		val_set_flags(v, v->name, (uint32_t)ev->karg[4], keyctl_move_flags, NULL);
		break;
	case K_DH_COMPUTE:
		v = arg_slot(ctx, ev, 1);
		dh_params_val(ctx, v, v->name, ev->karg[1]);
		arg_count(ev, 5);
		return RVAL_EXIT;
	case K_PKEY_QUERY:
		arg_key(ctx, ev, 1);
		arg_hex(ctx, ev, 2);
		arg_cstr(ctx, ev, 3);
		arg_count(ev, 5);
		return RVAL_EXIT;
	case K_PKEY_ENCRYPT: case K_PKEY_DECRYPT: case K_PKEY_SIGN: case K_PKEY_VERIFY: {
		struct keyctl_pkey_params p;
		bool ok;

		v = arg_slot(ctx, ev, 1);
		ok = pkey_params_val(ctx, v, v->name, ev->karg[1], &p, cmd == K_PKEY_VERIFY);
		arg_cstr(ctx, ev, 2);
		v = arg_slot(ctx, ev, 3);
		if (ok)
			val_read_buf(ctx, v, v->name, ev->karg[3], p.in_len);
		else
			val_set_ptr(v, v->name, ev->karg[3]);
		if (cmd != K_PKEY_VERIFY) {
			arg_count(ev, 5);
			return RVAL_EXIT;
		}
		v = arg_slot(ctx, ev, 4);
		if (ok)
			val_read_buf(ctx, v, v->name, ev->karg[4], p.out_len);
		else
			val_set_ptr(v, v->name, ev->karg[4]);
		break;
	}
	case K_CAPABILITIES:
		arg_count(ev, 3);
		return RVAL_EXIT;
	default:
		for (unsigned i = 1; i < 5; i++)
			arg_hex(ctx, ev, i);
		break;
	}
	return RVAL_DONE;
}
