/*
 * Decoders of system administration calls: syslog, sethostname,
 * setdomainname, swapon/swapoff, reboot, ustat, acct, x86 I/O privilege
 * (iopl, ioperm) and LDT/TLS descriptors (modify_ldt, set_thread_area,
 * get_thread_area), kcmp, protection keys, userfaultfd, memfd_secret,
 * process_mrelease, Landlock, kernel modules (init_module, finit_module,
 * delete_module), pivot_root, uselib, lookup_dcookie.  All at entry but for the output structures noted.
 */
#include <stdio.h>
#include <string.h>
#include <sys/sysmacros.h>

#include "sys/decode.h"
#include "sys/pidns.h"
#include "sys/decode_extra.h"
#include "xlat/bootflags1.h"
#include "xlat/bootflags2.h"
#include "xlat/bootflags3.h"
#include "xlat/delete_module_flags.h"
#include "xlat/kcmp_types.h"
#include "xlat/kexec_arch_values.h"
#include "xlat/kexec_file_load_flags.h"
#include "xlat/kexec_load_flags.h"
#include "xlat/landlock_create_ruleset_flags.h"
#include "xlat/landlock_rule_types.h"
#include "xlat/landlock_ruleset_access_fs.h"
#include "xlat/memfd_secret_flags.h"
#include "xlat/module_init_flags.h"
#include "xlat/pkey_access.h"
#include "xlat/swap_flags.h"
#include "xlat/syslog_action_type.h"
#include "xlat/syslog_console_levels.h"
#include "xlat/uffd_flags.h"
#include "util/banned.h"

/* "2 / * SYSLOG_ACTION_READ * /": strace's XLAT_STYLE_VERBOSE with a decimal. */
static void val_set_num_named(struct dctx *c, struct val *v, const char *name, int x,
			      const struct xlat *xl)
{
	const char *s = xlat_name(xl, (uint32_t)x);
	struct val n;

	val_set_int(&n, NULL, x);
	val_set_commented(c, v, name, &n, s ? s : xl->unknown);
}

enum { SYSLOG_READ = 2, SYSLOG_READ_ALL = 3, SYSLOG_READ_CLEAR = 4,
       SYSLOG_CONSOLE_LEVEL = 8, SYSLOG_SIZE_BUFFER = 10 };

/* ---- kexec ---------------------------------------------------------------- */

/* struct kexec_segment: {buf=0x..., bufsz=N, mem=0x..., memsz=N} */
static void kexec_segment_item(struct dctx *c, struct val *item, const void *elem, void *arg)
{
	uint64_t s[4];
	struct val *f = val_new_array(c, 4);

	memcpy(s, elem, sizeof(s));
	val_set_ptr(&f[0], "buf", s[0]);
	val_set_uint(&f[1], "bufsz", s[1]);
	val_set_ptr(&f[2], "mem", s[2]);
	val_set_uint(&f[3], "memsz", s[3]);
	val_set_struct(item, NULL, f, 4, false);
}

/* kexec_load(entry, nr_segments, segments, flags): the segments when there
 * are at most KEXEC_SEGMENT_MAX (16); flags as the architecture, then the
 * other bits */
SYS_FUNC(kexec_load)
{
	uint64_t flags = ev->karg[3];
	struct val *v, it[2];
	unsigned n = 0;

	arg_ptr(ctx, ev, 0);
	arg_uint(ctx, ev, 1);
	v = arg_slot(ctx, ev, 2);
	if (ev->karg[1] > 16)
		val_set_ptr(v, v->name, ev->karg[2]);
	else
		decode_array(ctx, v, v->name, ev->karg[2], ev->karg[1], 4 * sizeof(uint64_t),
			     kexec_segment_item, NULL);
	v = arg_slot(ctx, ev, 3);
	val_set_enum(&it[n++], NULL, flags & 0xffff0000u, kexec_arch_values);
	if (flags & ~0xffff0000ULL)
		val_set_flags(&it[n++], NULL, flags & ~0xffff0000ULL, kexec_load_flags, NULL);
	val_set_or(ctx, v, v->name, it, n);
	return RVAL_DONE;
}

/* kexec_file_load(kernel_fd, initrd_fd, cmdline_len, cmdline, flags) */
SYS_FUNC(kexec_file_load)
{
	struct val *v;

	arg_fd(ctx, ev, 0);
	arg_fd(ctx, ev, 1);
	arg_uint(ctx, ev, 2);
	v = arg_slot(ctx, ev, 3);
	val_read_buf(ctx, v, v->name, ev->karg[3], ev->karg[2]);
	arg_flags(ctx, ev, 4, kexec_file_load_flags, NULL);
	return RVAL_DONE;
}

/* syslog(type, bufp, len): actions that ignore bufp and len show only the
 * type; reads show the buffer at exit. */
SYS_FUNC(syslog)
{
	int type = (int)ev->karg[0];
	int len = (int)ev->karg[2];
	struct val *v;

	if (!exiting) {
		v = arg_slot(ctx, ev, 0);
		val_set_num_named(ctx, v, v->name, type, syslog_action_type);
	}
	switch (type) {
	case 0: case 1: case 5: case 6: case 7: case 9: case SYSLOG_SIZE_BUFFER:
		return RVAL_DONE;
	case SYSLOG_READ: case SYSLOG_READ_ALL: case SYSLOG_READ_CLEAR:
		if (!exiting) {
			arg_count(ev, 3);
			return RVAL_EXIT;
		}
		v = arg_slot(ctx, ev, 1);
		if (ev->err)
			val_set_ptr(v, v->name, ev->karg[1]);
		else
			val_read_buf(ctx, v, v->name, ev->karg[1], (uint64_t)ev->retval);
		v->flags |= VF_EXIT;
		arg_int(ctx, ev, 2);
		return RVAL_DONE;
	case SYSLOG_CONSOLE_LEVEL:
		arg_ptr(ctx, ev, 1);
		v = arg_slot(ctx, ev, 2);
		val_set_num_named(ctx, v, v->name, len, syslog_console_levels);
		return RVAL_DONE;
	default:
		arg_ptr(ctx, ev, 1);
		arg_int(ctx, ev, 2);
		return RVAL_DONE;
	}
}

/* sethostname(name, len) and setdomainname: the name as len bytes, or its
 * address when len is over __NEW_UTS_LEN (64). */
SYS_FUNC(sethostname)
{
	uint32_t len = (uint32_t)ev->karg[1];
	struct val *v = arg_slot(ctx, ev, 0);

	if (len > 64)
		val_set_ptr(v, v->name, ev->karg[0]);
	else
		val_read_buf(ctx, v, v->name, ev->karg[0], len);
	arg_uint(ctx, ev, 1);
	return RVAL_DONE;
}

SYS_FUNC(setdomainname)
{
	return SYS_FUNC_NAME(sethostname)(ctx, ev, exiting);
}

/* swapon(path, flags): SWAP_FLAG_* then the priority (low 15 bits). */
SYS_FUNC(swapon)
{
	uint32_t flags = (uint32_t)ev->karg[1];
	uint32_t prio = flags & 0x7fff;
	struct val *v;

	arg_path(ctx, ev, 0);
	v = arg_slot(ctx, ev, 1);
	flags &= ~0x7fffu;
	if (flags) {
		struct val *items = val_new_array(ctx, 2);

		val_set_flags(&items[0], NULL, flags, swap_flags, NULL);
		val_set_uint(&items[1], NULL, prio);
		val_set_op(v, v->name, items, 2, "|");
	} else {
		val_set_uint(v, v->name, prio);
	}
	return RVAL_DONE;
}

SYS_FUNC(swapoff)
{
	arg_path(ctx, ev, 0);
	return RVAL_DONE;
}

SYS_FUNC(acct)
{
	arg_path(ctx, ev, 0);
	return RVAL_DONE;
}

/* reboot(magic1, magic2, cmd, arg): arg only for LINUX_REBOOT_CMD_RESTART2. */
SYS_FUNC(reboot)
{
	uint32_t cmd = (uint32_t)ev->karg[2];

	arg_enum(ctx, ev, 0, bootflags1);
	arg_enum(ctx, ev, 1, bootflags2);
	arg_enum(ctx, ev, 2, bootflags3);
	if (cmd == 0xA1B2C3D4u) {
		struct val *v = arg_slot(ctx, ev, 3);

		val_read_cstr(ctx, v, v->name, ev->karg[3], ctx->opts->string_limit);
	}
	return RVAL_DONE;
}

/* "makedev(0x8, 0x1)" of a dev_t. */
static void val_set_devt(struct dctx *c, struct val *v, const char *name, uint64_t dev)
{
	char buf[64];

	snprintf(buf, sizeof(buf), "makedev(%#x, %#x)", major(dev), minor(dev));
	val_set_text(c, v, name, buf);
}

/* struct ustat (glibc's layout): f_tfree, f_tinode; the names are not shown. */
struct ustat_k {
	int32_t f_tfree;
	uint64_t f_tinode;
	char f_fname[6];
	char f_fpack[6];
};

SYS_FUNC(ustat)
{
	struct val *v;
	struct ustat_k u;

	if (!exiting) {
		v = arg_slot(ctx, ev, 0);
		val_set_devt(ctx, v, v->name, (uint32_t)ev->karg[0]);
		arg_count(ev, 2);
		return RVAL_EXIT;
	}
	v = arg_slot(ctx, ev, 1);
	if (ev->err || !tread(ctx, ev->karg[1], &u, sizeof(u))) {
		val_set_ptr(v, v->name, ev->karg[1]);
	} else {
		struct val *f = val_new_array(ctx, 2);

		val_set_int(&f[0], "f_tfree", u.f_tfree);
		val_set_uint(&f[1], "f_tinode", u.f_tinode);
		val_set_struct(v, v->name, f, 2, false);
	}
	v->flags |= VF_EXIT;
	return RVAL_DONE;
}

SYS_FUNC(iopl)
{
	arg_int(ctx, ev, 0);
	return RVAL_DONE;
}

SYS_FUNC(ioperm)
{
	arg_hex(ctx, ev, 0);
	arg_hex(ctx, ev, 1);
	arg_int(ctx, ev, 2);
	return RVAL_DONE;
}

/* struct user_desc (asm/ldt.h), with its flag bits. */
struct user_desc_k {
	uint32_t entry_number;
	uint32_t base_addr;
	uint32_t limit;
	uint32_t bits;   /* seg_32bit:1 contents:2 read_exec_only:1 limit_in_pages:1
			    seg_not_present:1 useable:1 lm:1 */
};

static void hex8(struct dctx *c, struct val *v, const char *name, uint32_t x)
{
	char buf[16];

	snprintf(buf, sizeof(buf), "%#08x", x);
	val_set_text(c, v, name, buf);
}

/* The fields after entry_number, appended to f from index n. */
static unsigned user_desc_rest(struct dctx *c, struct val *f, unsigned n,
			       const struct user_desc_k *d)
{
	static const char *const names[] = { "seg_32bit", "contents", "read_exec_only",
		"limit_in_pages", "seg_not_present", "useable", "lm" };
	static const unsigned shift[] = { 0, 1, 3, 4, 5, 6, 7 };
	static const unsigned width[] = { 1, 2, 1, 1, 1, 1, 1 };

	hex8(c, &f[n++], "base_addr", d->base_addr);
	hex8(c, &f[n++], "limit", d->limit);
	for (unsigned i = 0; i < 7; i++)
		val_set_uint(&f[n++], names[i], (d->bits >> shift[i]) & ((1u << width[i]) - 1));
	return n;
}

/* A whole struct user_desc at addr, or its address. */
static void decode_user_desc(struct dctx *c, struct val *v, const char *name, uint64_t addr)
{
	struct user_desc_k d;
	struct val *f;
	unsigned n = 0;

	if (!tread(c, addr, &d, sizeof(d))) {
		val_set_ptr(v, name, addr);
		return;
	}
	f = val_new_array(c, 10);
	val_set_uint(&f[n++], "entry_number", d.entry_number);
	n = user_desc_rest(c, f, n, &d);
	val_set_struct(v, name, f, n, false);
}

/* modify_ldt(func, ptr, bytecount): ptr as a user_desc when bytecount is
 * its size.  The kernel returns an int in a long: -ENOSYS comes back as
 * 4294967258, which strace shows as that number with the error. */
SYS_FUNC(modify_ldt)
{
	struct val *v;

	if (!exiting) {
		arg_int(ctx, ev, 0);
		v = arg_slot(ctx, ev, 1);
		if (ev->karg[2] != sizeof(struct user_desc_k))
			val_set_ptr(v, v->name, ev->karg[1]);
		else
			decode_user_desc(ctx, v, v->name, ev->karg[1]);
		arg_uint(ctx, ev, 2);
		return RVAL_EXIT;
	}
	if (!ev->err && (uint64_t)ev->retval >= 0xfffff000u)
		ev->err = (int)-(uint32_t)ev->retval;
	return RVAL_DONE;
}

SYS_FUNC(set_thread_area)
{
	struct user_desc_k d;

	if (!exiting) {
		struct val *v = arg_slot(ctx, ev, 0);

		decode_user_desc(ctx, v, v->name, ev->karg[0]);
		return RVAL_EXIT;
	}
	if (!ev->err && tread(ctx, ev->karg[0], &d, sizeof(d))) {
		struct val *aux = arena_calloc(ctx->arena, sizeof(*aux));
		char buf[32];

		snprintf(buf, sizeof(buf), "entry_number=%u", d.entry_number);
		val_set_text(ctx, aux, NULL, buf);
		ev->ret_aux = aux;
	}
	return RVAL_DONE;
}

/* get_thread_area(u_info): entry_number at entry, the rest at exit (", ..."
 * when the call failed). */
SYS_FUNC(get_thread_area)
{
	struct val *v = arg_slot(ctx, ev, 0);
	struct user_desc_k d;
	struct val *f;

	if (!exiting) {
		uint32_t entry;

		if (!tread(ctx, ev->karg[0], &entry, sizeof(entry))) {
			val_set_ptr(v, v->name, ev->karg[0]);
			return RVAL_DONE;
		}
		f = val_new_array(ctx, 1);
		val_set_uint(&f[0], "entry_number", entry);
		val_set_struct(v, v->name, f, 1, false);
		return RVAL_EXIT;
	}
	f = val_new_array(ctx, 10);
	val_set_uint(&f[0], "entry_number", v->c.n ? v->c.items[0].u : 0);
	if (ev->err || !tread(ctx, ev->karg[0], &d, sizeof(d))) {
		val_set_struct(v, v->name, f, 1, true);
		return RVAL_DONE;
	}
	if (d.entry_number != f[0].u) {
		struct val a = f[0], b;

		val_set_uint(&b, NULL, d.entry_number);
		a.name = NULL;
		val_set_changed(ctx, &f[0], "entry_number", &a, &b);
	}
	val_set_struct(v, v->name, f, user_desc_rest(ctx, f, 1, &d), false);
	return RVAL_DONE;
}

/* A descriptor of process pid: with -y its path in /proc/PID/fd. */
static void val_set_pid_fd(struct dctx *c, struct val *v, const char *name, int pid,
			   int64_t fd)
{
	struct dctx other = *c;

	if (pid <= 0) {   /* no /proc/PID: strace prints the number */
		val_set_int(v, name, (int)fd);
		return;
	}
	other.tid = pid;
	val_set_fd(&other, v, name, (int)fd);
}

struct kcmp_epoll_slot_k {
	uint32_t efd, tfd, toff;
};

/* kcmp(pid1, pid2, type, idx1, idx2): the indexes as the type reads them. */
SYS_FUNC(kcmp)
{
	int pid1 = (int)ev->karg[0], pid2 = (int)ev->karg[1];
	uint32_t type = (uint32_t)ev->karg[2];
	struct kcmp_epoll_slot_k s;
	struct val *v;

	arg_pid(ctx, ev, 0, PT_TGID);
	arg_pid(ctx, ev, 1, PT_TGID);
	arg_enum(ctx, ev, 2, kcmp_types);
	switch (type) {
	case 0:   /* KCMP_FILE */
		val_set_pid_fd(ctx, arg_slot(ctx, ev, 3), ev->args[3].name, pid1, ev->karg[3]);
		val_set_pid_fd(ctx, arg_slot(ctx, ev, 4), ev->args[4].name, pid2, ev->karg[4]);
		break;
	case 7:   /* KCMP_EPOLL_TFD */
		val_set_pid_fd(ctx, arg_slot(ctx, ev, 3), ev->args[3].name, pid1, ev->karg[3]);
		v = arg_slot(ctx, ev, 4);
		if (!tread(ctx, ev->karg[4], &s, sizeof(s))) {
			val_set_ptr(v, v->name, ev->karg[4]);
		} else {
			struct val *f = val_new_array(ctx, 3);

			val_set_pid_fd(ctx, &f[0], "efd", pid2, s.efd);
			val_set_pid_fd(ctx, &f[1], "tfd", pid2, s.tfd);
			val_set_uint(&f[2], "toff", s.toff);
			val_set_struct(v, v->name, f, 3, false);
		}
		break;
	case 1: case 2: case 3: case 4: case 5: case 6:
		break;
	default:
		arg_hex(ctx, ev, 3);
		arg_hex(ctx, ev, 4);
		break;
	}
	return RVAL_DONE;
}

SYS_FUNC(pkey_alloc)
{
	arg_hex(ctx, ev, 0);
	arg_flags(ctx, ev, 1, pkey_access, NULL);
	return RVAL_DONE;
}

SYS_FUNC(pkey_free)
{
	arg_int(ctx, ev, 0);
	return RVAL_DONE;
}

static int ret_fd(struct dctx *c, struct event *ev, int exiting)
{
	if (exiting) {
		ret_set_fd(c, ev);
		return RVAL_DONE;
	}
	ev->rv_fmt = RV_FD;
	return c->opts->decode_fds ? RVAL_EXIT : RVAL_DONE;
}

SYS_FUNC(userfaultfd)
{
	if (!exiting)
		arg_flags(ctx, ev, 0, uffd_flags, NULL);
	return ret_fd(ctx, ev, exiting);
}

SYS_FUNC(memfd_secret)
{
	if (!exiting)
		arg_flags(ctx, ev, 0, memfd_secret_flags, NULL);
	return ret_fd(ctx, ev, exiting);
}

SYS_FUNC(process_mrelease)
{
	arg_fd(ctx, ev, 0);
	arg_hex(ctx, ev, 1);
	return RVAL_DONE;
}

/* ---- Landlock ---- */

SYS_FUNC(landlock_create_ruleset)
{
	uint64_t addr = ev->karg[0], size = ev->karg[1];
	uint32_t flags = (uint32_t)ev->karg[2];
	struct val *v;
	uint64_t fs;

	if (exiting)
		return ret_fd(ctx, ev, exiting);
	v = arg_slot(ctx, ev, 0);
	/* struct landlock_ruleset_attr { __u64 handled_access_fs; } */
	if (size < sizeof(fs) || !tread(ctx, addr, &fs, sizeof(fs))) {
		val_set_ptr(v, v->name, addr);
	} else {
		struct val *f = val_new_array(ctx, 1);

		val_set_flags(&f[0], "handled_access_fs", fs, landlock_ruleset_access_fs, NULL);
		val_set_struct(v, v->name, f, 1, size > sizeof(fs));
	}
	arg_uint(ctx, ev, 1);
	arg_flags(ctx, ev, 2, landlock_create_ruleset_flags, NULL);
	/* LANDLOCK_CREATE_RULESET_VERSION returns the ABI version, not an fd */
	if (flags & 1)
		return RVAL_DONE;
	return ret_fd(ctx, ev, exiting);
}

SYS_FUNC(landlock_add_rule)
{
	struct { uint64_t allowed_access; int32_t parent_fd; } __attribute__((packed)) pb;
	struct val *v;

	arg_fd(ctx, ev, 0);
	arg_enum(ctx, ev, 1, landlock_rule_types);
	v = arg_slot(ctx, ev, 2);
	if ((uint32_t)ev->karg[1] != 1 /* LANDLOCK_RULE_PATH_BENEATH */ ||
	    !tread(ctx, ev->karg[2], &pb, sizeof(pb))) {
		val_set_ptr(v, v->name, ev->karg[2]);
	} else {
		struct val *f = val_new_array(ctx, 2);

		val_set_flags(&f[0], "allowed_access", pb.allowed_access,
			      landlock_ruleset_access_fs, NULL);
		val_set_fd(ctx, &f[1], "parent_fd", pb.parent_fd);
		val_set_struct(v, v->name, f, 2, false);
	}
	arg_hex(ctx, ev, 3);
	return RVAL_DONE;
}

SYS_FUNC(landlock_restrict_self)
{
	arg_fd(ctx, ev, 0);
	arg_hex(ctx, ev, 1);
	return RVAL_DONE;
}

/* ---- kernel modules ---- */

SYS_FUNC(init_module)
{
	arg_ptr(ctx, ev, 0);
	arg_uint(ctx, ev, 1);
	arg_cstr(ctx, ev, 2);
	return RVAL_DONE;
}

SYS_FUNC(finit_module)
{
	arg_fd(ctx, ev, 0);
	arg_cstr(ctx, ev, 1);
	arg_flags(ctx, ev, 2, module_init_flags, NULL);
	return RVAL_DONE;
}

SYS_FUNC(delete_module)
{
	arg_cstr(ctx, ev, 0);
	arg_flags(ctx, ev, 1, delete_module_flags, NULL);
	return RVAL_DONE;
}

SYS_FUNC(pivot_root)
{
	arg_path(ctx, ev, 0);
	arg_path(ctx, ev, 1);
	return RVAL_DONE;
}

SYS_FUNC(uselib)
{
	arg_path(ctx, ev, 0);
	return RVAL_DONE;
}

/* lookup_dcookie(cookie, buf, len): all at exit, the path on success */
SYS_FUNC(lookup_dcookie)
{
	struct val *v;

	if (!exiting) {
		arg_count(ev, 3);
		return RVAL_EXIT;
	}
	arg_uint(ctx, ev, 0);
	v = arg_slot(ctx, ev, 1);
	if (ev->err)
		val_set_ptr(v, v->name, ev->karg[1]);
	else
		val_read_buf(ctx, v, v->name, ev->karg[1], (uint64_t)ev->retval);
	v->flags |= VF_EXIT;
	arg_uint(ctx, ev, 2);
	return RVAL_DONE;
}
