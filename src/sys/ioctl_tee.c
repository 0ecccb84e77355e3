/*
 * Trusted Execution Environment ioctls (0xa4, linux/tee.h): the version,
 * sessions, invocations and supplicant requests (a struct tee_ioctl_buf_data
 * pointing at the argument structure and its parameters), shared memory.
 * The requests with parameters show "{buf_len=N, buf_ptr={...}" at entry
 * and " => {...}}" after a successful call.
 */
#include <stddef.h>
#include <string.h>
#include <linux/tee.h>

#include "sys/ioc.h"
#include "xlat/tee_ioctl_gen_caps.h"
#include "xlat/tee_ioctl_impl_ids.h"
#include "xlat/tee_ioctl_login_types.h"
#include "xlat/tee_ioctl_optee_caps.h"
#include "xlat/tee_ioctl_origins.h"
#include "xlat/tee_ioctl_param_attr_types.h"
#include "xlat/tee_ioctl_shm_flags.h"

#include "util/banned.h"

/* A request of OP-TEE trees that never reached the kernel's uapi (no
 * name), decoded as strace does. */
struct tee_shm_register_fd_data {
	int64_t fd;
	uint64_t size;
	uint32_t flags;
	uint8_t pad1[4];
	int32_t id;
	uint8_t pad2[4];
} __attribute__((aligned(8)));
#define TEE_SHM_REGISTER_FD _IOWR(TEE_IOC_MAGIC, TEE_IOC_BASE + 8, \
				  struct tee_shm_register_fd_data)

static int version(struct ioc *io)
{
	struct tee_ioctl_version_data d;
	struct val *v, *f;

	if (!io->exiting)
		return IOC_EXIT;
	v = ioc_val(io);
	if (!ioc_read(io, v, io->arg, &d, sizeof(d)))
		return IOC_DONE;
	f = val_new_array(io->c, 3);
	val_set_enum(&f[0], "impl_id", d.impl_id, tee_ioctl_impl_ids);
	val_set_flags(&f[1], "gen_caps", d.gen_caps, tee_ioctl_gen_caps, NULL);
	if (d.impl_id == TEE_IMPL_ID_OPTEE)
		val_set_flags(&f[2], "impl_caps", d.impl_caps, tee_ioctl_optee_caps, NULL);
	else
		FLD_X(&f[2], d, impl_caps);
	val_set_struct(v, v->name, f, 3, false);
	return IOC_DONE;
}

static void param_elem(struct dctx *c, struct val *item, const void *elem, void *arg)
{
	struct tee_ioctl_param p;
	struct val *f = val_new_array(c, 4), ty;

	(void)arg;
	memcpy(&p, elem, sizeof(p));
	val_set_enum(&ty, NULL, p.attr & ~(uint64_t)TEE_IOCTL_PARAM_ATTR_META,
		     tee_ioctl_param_attr_types);
	if (p.attr & TEE_IOCTL_PARAM_ATTR_META) {
		struct val *o = val_new_array(c, 2);

		o[0] = ty;
		val_set_text(c, &o[1], NULL, "|TEE_IOCTL_PARAM_ATTR_META");
		val_set_op(&f[0], "attr", o, 2, NULL);
	} else {
		f[0] = ty;
		f[0].name = "attr";
	}
	switch (p.attr) {
	case TEE_IOCTL_PARAM_ATTR_TYPE_NONE:
		val_set_struct(item, NULL, f, 1, false);
		return;
	case TEE_IOCTL_PARAM_ATTR_TYPE_MEMREF_INPUT:
	case TEE_IOCTL_PARAM_ATTR_TYPE_MEMREF_OUTPUT:
	case TEE_IOCTL_PARAM_ATTR_TYPE_MEMREF_INOUT:
		val_set_hex(&f[1], "shm_offs", p.a);
		val_set_hex(&f[2], "size", p.b);
		val_set_uint(&f[3], "shm_id", p.c);
		break;
	default:
		FLD_X(&f[1], p, a);
		FLD_X(&f[2], p, b);
		FLD_X(&f[3], p, c);
		break;
	}
	val_set_struct(item, NULL, f, 4, false);
}

/* params=[...] of n parameters after the argument structure (NULL when
 * there are none) */
static void params(struct ioc *io, struct val *v, const struct tee_ioctl_buf_data *b,
		   size_t arg_size, uint32_t n)
{
	uint64_t addr = n ? b->buf_ptr + arg_size : 0;

	ioc_array(io, v, "params", addr, n, sizeof(struct tee_ioctl_param), UINT64_MAX,
		  param_elem, NULL);
}

/* {buf_len=N, buf_ptr=0x...} */
static void buf_plain(struct ioc *io, struct val *v, const char *name,
		      const struct tee_ioctl_buf_data *b)
{
	struct val *f = val_new_array(io->c, 2);

	FLD_U(&f[0], *b, buf_len);
	FLD_PTR(&f[1], *b, buf_ptr);
	val_set_struct(v, name, f, 2, false);
}

/*
 * strace's buffer checks: the struct tee_ioctl_buf_data at the argument
 * into b and the argument structure it points at into a; false when
 * something else was shown in v (the address, or buf_len and buf_ptr when
 * the length is out of range, the structure unreadable or, at entry, the
 * length not that of the structure and its num_params parameters).
 */
static bool fetch(struct ioc *io, struct val *v, const char *name, struct tee_ioctl_buf_data *b,
		  void *a, size_t arg_size, size_t num_params_off)
{
	uint32_t n;

	if (!ioc_read(io, v, io->arg, b, sizeof(*b)))
		return false;
	if (b->buf_len > TEE_MAX_ARG_SIZE || b->buf_len < arg_size ||
	    !tread(io->c, b->buf_ptr, a, arg_size)) {
		buf_plain(io, v, name, b);
		return false;
	}
	memcpy(&n, (const char *)a + num_params_off, sizeof(n));
	if (!io->exiting && arg_size + (uint64_t)n * sizeof(struct tee_ioctl_param) != b->buf_len) {
		buf_plain(io, v, name, b);
		return false;
	}
	return true;
}

/* The header of the open structure: buf_len; the caller adds buf_ptr. */
static struct val *open_buf(struct ioc *io, const struct tee_ioctl_buf_data *b)
{
	struct val *st = ioc_open_struct(io, 2);

	FLD_U(ioc_next(st), *b, buf_len);
	return st;
}

/* At exit: the buf_ptr item becomes "{...} => out"; false when nothing
 * is to follow (the entry showed no structure, or the call failed). */
static struct val *reopen_buf(struct ioc *io)
{
	struct val *st = ioc_reopen(io);

	if (!st || io->ev->err || st->c.n < 2)
		return NULL;
	return st;
}

static void set_changed(struct ioc *io, struct val *st, const struct val *out)
{
	struct val *last = &st->c.items[st->c.n - 1], *p = val_new_array(io->c, 3);

	p[0] = *last;
	p[0].name = NULL;
	val_set_text(io->c, &p[1], NULL, " => ");
	p[2] = *out;
	p[2].name = NULL;
	val_set_op(last, last->name, p, 3, NULL);
}

static void session_id(struct val *v, const char *name, uint32_t s)
{
	val_set_hex(v, name, s);
}

static int open_session(struct ioc *io)
{
	struct dctx *c = io->c;
	struct tee_ioctl_buf_data b;
	struct tee_ioctl_open_session_arg a;
	const size_t off = offsetof(struct tee_ioctl_open_session_arg, num_params);
	struct val tmp, *st, *f;
	unsigned n = 0;

	if (!io->exiting) {
		struct val *v = ioc_val(io);
		const unsigned char *u = a.uuid;

		if (!fetch(io, v, v->name, &b, &a, sizeof(a), off))
			return IOC_DONE;
		st = open_buf(io, &b);
		f = val_new_array(c, 6);
		val_set_text(c, &f[n++], "uuid",
			     ioc_printf(c, "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-"
					"%02x%02x%02x%02x%02x%02x", u[0], u[1], u[2], u[3], u[4],
					u[5], u[6], u[7], u[8], u[9], u[10], u[11], u[12], u[13],
					u[14], u[15]));
		val_set_enum(&f[n++], "clnt_login", a.clnt_login, tee_ioctl_login_types);
		switch (a.clnt_login) {
		case TEE_IOCTL_LOGIN_PUBLIC: case TEE_IOCTL_LOGIN_USER:
		case TEE_IOCTL_LOGIN_APPLICATION: case TEE_IOCTL_LOGIN_USER_APPLICATION:
			break;
		case TEE_IOCTL_LOGIN_GROUP: case TEE_IOCTL_LOGIN_GROUP_APPLICATION: {
			uint32_t gid;

			memcpy(&gid, a.clnt_uuid, sizeof(gid));
			if (gid == UINT32_MAX)
				val_set_int(&f[n++], "clnt_uuid", -1);
			else
				val_set_uint(&f[n++], "clnt_uuid", gid);
			break;
		}
		default:
			ioc_set_int_array(c, &f[n++], "clnt_uuid", a.clnt_uuid,
					  sizeof(a.clnt_uuid), 1, NUM_X);
		}
		FLD_U(&f[n++], a, cancel_id);
		FLD_U(&f[n++], a, num_params);
		params(io, &f[n++], &b, sizeof(a), a.num_params);
		val_set_struct(ioc_next(st), "buf_ptr", f, n, false);
		return IOC_EXIT;
	}
	st = reopen_buf(io);
	if (!st)
		return IOC_DONE;
	if (fetch(io, &tmp, NULL, &b, &a, sizeof(a), off)) {
		f = val_new_array(c, 4);
		session_id(&f[n++], "session", a.session);
		FLD_U(&f[n++], a, ret);
		val_set_enum(&f[n++], "ret_origin", a.ret_origin, tee_ioctl_origins);
		params(io, &f[n++], &b, sizeof(a), a.num_params);
		val_set_struct(&tmp, NULL, f, n, false);
	}
	set_changed(io, st, &tmp);
	return IOC_DONE;
}

static int invoke(struct ioc *io)
{
	struct dctx *c = io->c;
	struct tee_ioctl_buf_data b;
	struct tee_ioctl_invoke_arg a;
	const size_t off = offsetof(struct tee_ioctl_invoke_arg, num_params);
	struct val tmp, *st, *f;
	unsigned n = 0;

	if (!io->exiting) {
		struct val *v = ioc_val(io);

		if (!fetch(io, v, v->name, &b, &a, sizeof(a), off))
			return IOC_DONE;
		st = open_buf(io, &b);
		f = val_new_array(c, 5);
		FLD_U(&f[n++], a, func);
		session_id(&f[n++], "session", a.session);
		FLD_U(&f[n++], a, cancel_id);
		FLD_U(&f[n++], a, num_params);
		params(io, &f[n++], &b, sizeof(a), a.num_params);
		val_set_struct(ioc_next(st), "buf_ptr", f, n, false);
		return IOC_EXIT;
	}
	st = reopen_buf(io);
	if (!st)
		return IOC_DONE;
	if (fetch(io, &tmp, NULL, &b, &a, sizeof(a), off)) {
		f = val_new_array(c, 3);
		FLD_U(&f[n++], a, ret);
		val_set_enum(&f[n++], "ret_origin", a.ret_origin, tee_ioctl_origins);
		params(io, &f[n++], &b, sizeof(a), a.num_params);
		val_set_struct(&tmp, NULL, f, n, false);
	}
	set_changed(io, st, &tmp);
	return IOC_DONE;
}

static int suppl_recv(struct ioc *io)
{
	struct dctx *c = io->c;
	struct tee_ioctl_buf_data b;
	struct tee_iocl_supp_recv_arg a;
	const size_t off = offsetof(struct tee_iocl_supp_recv_arg, num_params);
	struct val tmp, *st, *f;
	unsigned n = 0;

	if (!io->exiting) {
		struct val *v = ioc_val(io);

		if (!fetch(io, v, v->name, &b, &a, sizeof(a), off))
			return IOC_DONE;
		st = open_buf(io, &b);
		f = val_new_array(c, 3);
		FLD_U(&f[n++], a, func);
		FLD_U(&f[n++], a, num_params);
		params(io, &f[n++], &b, sizeof(a), a.num_params);
		val_set_struct(ioc_next(st), "buf_ptr", f, n, false);
		return IOC_EXIT;
	}
	st = reopen_buf(io);
	if (!st)
		return IOC_DONE;
	if (fetch(io, &tmp, NULL, &b, &a, sizeof(a), off)) {
		f = val_new_array(c, 2);
		FLD_U(&f[n++], a, num_params);
		params(io, &f[n++], &b, sizeof(a), a.num_params);
		val_set_struct(&tmp, NULL, f, n, false);
	}
	set_changed(io, st, &tmp);
	return IOC_DONE;
}

static int suppl_send(struct ioc *io)
{
	struct dctx *c = io->c;
	struct tee_ioctl_buf_data b;
	struct tee_iocl_supp_send_arg a;
	const size_t off = offsetof(struct tee_iocl_supp_send_arg, num_params);
	struct val tmp, *st, *f;
	unsigned n = 0;

	if (!io->exiting) {
		struct val *v = ioc_val(io);

		if (!fetch(io, v, v->name, &b, &a, sizeof(a), off))
			return IOC_DONE;
		st = open_buf(io, &b);
		f = val_new_array(c, 2);
		FLD_U(&f[n++], a, num_params);
		params(io, &f[n++], &b, sizeof(a), a.num_params);
		val_set_struct(ioc_next(st), "buf_ptr", f, n, false);
		return IOC_EXIT;
	}
	st = reopen_buf(io);
	if (!st)
		return IOC_DONE;
	if (fetch(io, &tmp, NULL, &b, &a, sizeof(a), off)) {
		f = val_new_array(c, 2);
		FLD_U(&f[n++], a, ret);
		params(io, &f[n++], &b, sizeof(a), a.num_params);
		val_set_struct(&tmp, NULL, f, n, false);
	}
	set_changed(io, st, &tmp);
	return IOC_DONE;
}

static bool alloc_in(struct ioc *io, struct val *v, const void *buf)
{
	struct tee_ioctl_shm_alloc_data d;
	struct val *f = val_new_array(io->c, 2);

	memcpy(&d, buf, sizeof(d));
	FLD_X(&f[0], d, size);
	val_set_flags(&f[1], "flags", d.flags, tee_ioctl_shm_flags, NULL);
	val_set_struct(v, v->name, f, 2, false);
	return true;
}

static bool alloc_out(struct ioc *io, struct val *v, const void *buf)
{
	struct tee_ioctl_shm_alloc_data d;
	struct val *f = val_new_array(io->c, 3);

	memcpy(&d, buf, sizeof(d));
	FLD_X(&f[0], d, size);
	val_set_flags(&f[1], "flags", d.flags, tee_ioctl_shm_flags, NULL);
	FLD_D(&f[2], d, id);
	val_set_struct(v, v->name, f, 3, false);
	return true;
}

static bool register_fd_in(struct ioc *io, struct val *v, const void *buf)
{
	struct tee_shm_register_fd_data d;
	struct val *f = val_new_array(io->c, 2);

	memcpy(&d, buf, sizeof(d));
	val_set_fd(io->c, &f[0], "fd", (int)d.fd);
	val_set_flags(&f[1], "flags", d.flags, tee_ioctl_shm_flags, NULL);
	val_set_struct(v, v->name, f, 2, false);
	return true;
}

static bool register_fd_out(struct ioc *io, struct val *v, const void *buf)
{
	struct tee_shm_register_fd_data d;
	struct val *f = val_new_array(io->c, 2);

	memcpy(&d, buf, sizeof(d));
	FLD_X(&f[0], d, size);
	FLD_D(&f[1], d, id);
	val_set_struct(v, v->name, f, 2, false);
	return true;
}

static bool register_in(struct ioc *io, struct val *v, const void *buf)
{
	struct tee_ioctl_shm_register_data d;
	struct val *f = val_new_array(io->c, 3);

	memcpy(&d, buf, sizeof(d));
	FLD_PTR(&f[0], d, addr);
	FLD_X(&f[1], d, length);
	val_set_flags(&f[2], "flags", d.flags, tee_ioctl_shm_flags, NULL);
	val_set_struct(v, v->name, f, 3, false);
	return true;
}

static bool register_out(struct ioc *io, struct val *v, const void *buf)
{
	struct tee_ioctl_shm_register_data d;
	struct val *f = val_new_array(io->c, 3);

	memcpy(&d, buf, sizeof(d));
	FLD_X(&f[0], d, length);
	val_set_flags(&f[1], "flags", d.flags, tee_ioctl_shm_flags, NULL);
	FLD_D(&f[2], d, id);
	val_set_struct(v, v->name, f, 3, false);
	return true;
}

int ioctl_tee(struct ioc *io)
{
	struct val *v, *f;

	switch (io->code) {
	case TEE_IOC_VERSION:
		return version(io);
	case TEE_IOC_OPEN_SESSION:
		return open_session(io);
	case TEE_IOC_INVOKE:
		return invoke(io);
	case TEE_IOC_CANCEL: {
		struct tee_ioctl_cancel_arg a;

		v = ioc_val(io);
		if (ioc_read(io, v, io->arg, &a, sizeof(a))) {
			f = val_new_array(io->c, 2);
			FLD_U(&f[0], a, cancel_id);
			session_id(&f[1], "session", a.session);
			val_set_struct(v, v->name, f, 2, false);
		}
		return IOC_DONE;
	}
	case TEE_IOC_CLOSE_SESSION: {
		struct tee_ioctl_close_session_arg a;

		v = ioc_val(io);
		if (ioc_read(io, v, io->arg, &a, sizeof(a))) {
			f = val_new_array(io->c, 1);
			session_id(&f[0], "session", a.session);
			val_set_struct(v, v->name, f, 1, false);
		}
		return IOC_DONE;
	}
	case TEE_IOC_SUPPL_RECV:
		return suppl_recv(io);
	case TEE_IOC_SUPPL_SEND:
		return suppl_send(io);
	case TEE_IOC_SHM_ALLOC:
		return ioc_changed(io, sizeof(struct tee_ioctl_shm_alloc_data), alloc_in,
				   alloc_out);
	case TEE_SHM_REGISTER_FD:
		return ioc_changed(io, sizeof(struct tee_shm_register_fd_data), register_fd_in,
				   register_fd_out);
	case TEE_IOC_SHM_REGISTER:
		return ioc_changed(io, sizeof(struct tee_ioctl_shm_register_data), register_in,
				   register_out);
	}
	return IOC_DEFAULT;
}
