/*
 * seccomp user notification ioctls ('!', linux/seccomp.h): the
 * notification received (its syscall by name), the response sent, the id
 * checked and the descriptor added.
 */
#include <linux/audit.h>
#include <linux/seccomp.h>

#include "sys/compat.h"
#include "sys/ioc.h"
#include "sys/pidns.h"
#include "xlat/audit_arch.h"
#include "xlat/open_mode_flags.h"
#include "xlat/seccomp_ioctl_addfd_flags.h"
#include "xlat/seccomp_ioctl_resp_flags.h"

#include "util/banned.h"

/* The number SECCOMP_IOCTL_NOTIF_ID_VALID had before Linux 5.7. */
#define ID_VALID_WRONG_DIR _IOR(SECCOMP_IOC_MAGIC, 2, __u64)

/*
 * nr=__NR_getpid for the native architecture's numbers (-X verbose:
 * 39 / * __NR_getpid * /), 3 / * read * / for another personality's, the
 * number alone without a name.
 */
static void syscall_nr(struct dctx *c, struct val *v, uint32_t nr, uint32_t arch)
{
	const char *name = NULL, *prefix = NULL;
	struct val num, ab, vb;

	if (arch == AUDIT_ARCH_X86_64 && !(nr & X32_SYSCALL_BIT)) {
		const struct sysent *se = sysent_get(nr);

		name = se ? se->name : NULL;
		prefix = "__NR_";
	} else if (arch == AUDIT_ARCH_X86_64) {
		const struct compat_sysent *ce = compat_get(PERS_X32, nr & ~X32_SYSCALL_BIT);

		name = ce ? ce->name : NULL;
	} else if (arch == AUDIT_ARCH_I386) {
		const struct compat_sysent *ce = compat_get(PERS_32, nr);

		name = ce ? ce->name : NULL;
	}
	val_set_uint(&num, NULL, nr);
	if (!name) {
		*v = num;
		v->name = "nr";
		return;
	}
	if (prefix)
		val_set_text(c, &ab, NULL, ioc_printf(c, "%s%s", prefix, name));
	else
		val_set_commented(c, &ab, NULL, &num, name);
	val_set_commented(c, &vb, NULL, &num, prefix ? ioc_printf(c, "%s%s", prefix, name) : name);
	ioc_set_xalt(c, v, "nr", &ab, &num, &vb);
}

static void notif(struct ioc *io, struct val *v, const char *name, const struct seccomp_notif *n)
{
	struct dctx *c = io->c;
	struct val *f = val_new_array(c, 4), *d = val_new_array(c, 4);

	syscall_nr(c, &d[0], (uint32_t)n->data.nr, n->data.arch);
	val_set_enum(&d[1], "arch", n->data.arch, audit_arch);
	val_set_ptr(&d[2], "instruction_pointer", n->data.instruction_pointer);
	ioc_set_local_array(io, &d[3], "args", n->data.args, 6, sizeof(n->data.args[0]), NUM_X);
	FLD_X(&f[0], *n, id);
	val_set_pid(c, &f[1], "pid", (int)n->pid, PT_TGID);
	FLD_X(&f[2], *n, flags);
	val_set_struct(&f[3], "data", d, 4, false);
	val_set_struct(v, name, f, 4, false);
}

/* NOTIF_RECV: the structure the program passes is all zero, normally, and
 * shows only at exit; one that is not shows at entry and " => " exit. */
static int recv(struct ioc *io)
{
	struct seccomp_notif n;
	struct val *v, after = { .name = NULL };

	if (!io->exiting) {
		v = ioc_val(io);
		if (!ioc_read(io, v, io->arg, &n, sizeof(n)))
			return IOC_DONE;
		if (ioc_all_zero(&n, sizeof(n))) {
			v->kind = V_NONE;
			return IOC_EXIT;
		}
		notif(io, v, v->name, &n);
		return IOC_EXIT;
	}
	if (io->ev->args[2].kind == V_NONE) {
		v = ioc_val(io);
		if (ioc_read(io, v, io->arg, &n, sizeof(n)))
			notif(io, v, v->name, &n);
		return IOC_DONE;
	}
	if (ioc_read(io, &after, io->arg, &n, sizeof(n)))
		notif(io, &after, NULL, &n);
	ioc_set_after(io, &after);
	return IOC_DONE;
}

/* error=-EPERM (-X raw: -1, -X verbose: -1 / * -EPERM * /), or the number */
static void err_field(struct dctx *c, struct val *v, const char *name, int32_t err)
{
	const char *s = err < 0 ? errno_name(-err) : NULL;
	struct val num, ab, vb;

	val_set_int(&num, NULL, err);
	if (!s) {
		*v = num;
		v->name = name;
		return;
	}
	val_set_text(c, &ab, NULL, ioc_printf(c, "-%s", s));
	val_set_commented(c, &vb, NULL, &num, ioc_printf(c, "-%s", s));
	ioc_set_xalt(c, v, name, &ab, &num, &vb);
}

static int send(struct ioc *io)
{
	struct seccomp_notif_resp r;
	struct val *v = ioc_val(io), *f;

	if (ioc_read(io, v, io->arg, &r, sizeof(r))) {
		f = val_new_array(io->c, 4);
		FLD_X(&f[0], r, id);
		FLD_D(&f[1], r, val);
		err_field(io->c, &f[2], "error", r.error);
		val_set_flags(&f[3], "flags", r.flags, seccomp_ioctl_resp_flags, NULL);
		val_set_struct(v, v->name, f, 4, false);
	}
	return IOC_DONE;
}

static int addfd(struct ioc *io)
{
	struct seccomp_notif_addfd a;
	struct val *v = ioc_val(io), *f;

	if (ioc_read(io, v, io->arg, &a, sizeof(a))) {
		f = val_new_array(io->c, 5);
		FLD_X(&f[0], a, id);
		val_set_flags(&f[1], "flags", a.flags, seccomp_ioctl_addfd_flags, NULL);
		val_set_fd(io->c, &f[2], "srcfd", (int)a.srcfd);
		FLD_D(&f[3], a, newfd);
		val_set_flags(&f[4], "newfd_flags", a.newfd_flags, open_mode_flags, NULL);
		val_set_struct(v, v->name, f, 5, false);
	}
	return IOC_DONE;
}

int ioctl_seccomp(struct ioc *io)
{
	switch (io->code) {
	case SECCOMP_IOCTL_NOTIF_RECV:
		return recv(io);
	case SECCOMP_IOCTL_NOTIF_SEND:
		return send(io);
	case SECCOMP_IOCTL_NOTIF_ID_VALID: case ID_VALID_WRONG_DIR:
		return ioc_arg_num(io, 8, NUM_X);
	case SECCOMP_IOCTL_NOTIF_ADDFD:
		return addfd(io);
	}
	return IOC_DEFAULT;
}
