/*
 * ptrace(2) as strace 6.1 prints it: the request, the pid, the address as
 * the request reads it (a struct user offset such as
 * "offsetof(struct user, u_debugreg)+8" or "8*RIP" for PEEKUSER/POKEUSER,
 * a regset for GETREGSET), and the data: a signal, PTRACE_O_* options, a
 * siginfo, a sigset, an iovec, or what the kernel wrote at exit ([word]).
 * The seccomp filters of PTRACE_SECCOMP_GET_FILTER and the structure of
 * PTRACE_GET_SYSCALL_INFO are shown by address.
 */
#include <stddef.h>
#include <stdio.h>
#include <sys/user.h>

#include "sys/decode.h"
#include "sys/pidns.h"
#include "sys/decode_extra.h"
#include "xlat/nt_descriptor_types.h"
#include "xlat/ptrace_cmds.h"
#include "xlat/ptrace_peeksiginfo_flags.h"
#include "xlat/ptrace_setoptions_flags.h"
#include "util/banned.h"

enum {
	P_TRACEME = 0, P_PEEKTEXT = 1, P_PEEKDATA = 2, P_PEEKUSER = 3, P_POKEUSER = 6,
	P_CONT = 7, P_KILL = 8, P_SINGLESTEP = 9, P_ATTACH = 16, P_DETACH = 17,
	P_SYSCALL = 24, P_SYSEMU = 31, P_SYSEMU_SINGLESTEP = 32, P_SINGLEBLOCK = 33,
	P_SETOPTIONS = 0x4200, P_GETEVENTMSG, P_GETSIGINFO, P_SETSIGINFO, P_GETREGSET,
	P_SETREGSET, P_SEIZE, P_INTERRUPT, P_LISTEN, P_PEEKSIGINFO, P_GETSIGMASK,
	P_SETSIGMASK, P_SECCOMP_GET_FILTER, P_SECCOMP_GET_METADATA, P_GET_SYSCALL_INFO,
};

/* strace's struct_user_offsets for x86_64 (linux/x86_64/userent.h) */
static const struct { uint64_t off; const char *name; } user_offsets[] = {
	{ 8 * 0, "8*R15" }, { 8 * 1, "8*R14" }, { 8 * 2, "8*R13" }, { 8 * 3, "8*R12" },
	{ 8 * 4, "8*RBP" }, { 8 * 5, "8*RBX" }, { 8 * 6, "8*R11" }, { 8 * 7, "8*R10" },
	{ 8 * 8, "8*R9" }, { 8 * 9, "8*R8" }, { 8 * 10, "8*RAX" }, { 8 * 11, "8*RCX" },
	{ 8 * 12, "8*RDX" }, { 8 * 13, "8*RSI" }, { 8 * 14, "8*RDI" },
	{ 8 * 15, "8*ORIG_RAX" }, { 8 * 16, "8*RIP" }, { 8 * 17, "8*CS" },
	{ 8 * 18, "8*EFL" }, { 8 * 19, "8*RSP" }, { 8 * 20, "8*SS" },
#define U(f) { offsetof(struct user, f), "offsetof(struct user, " #f ")" }
	U(u_fpvalid), U(i387), U(u_tsize), U(u_dsize), U(u_ssize), U(start_code),
	U(start_stack), U(signal), U(reserved), U(u_ar0), U(u_fpstate), U(magic),
	U(u_comm), U(u_debugreg),
#undef U
	{ sizeof(struct user), "sizeof(struct user)" },
};

/* PEEKUSER/POKEUSER's address as strace's print_user_offset_addr */
static void user_offset_val(struct dctx *c, struct val *v, const char *name, uint64_t addr)
{
	const size_t n = sizeof(user_offsets) / sizeof(user_offsets[0]);
	size_t i = n;
	char buf[96];

	while (i > 0 && user_offsets[i - 1].off > addr)
		i--;
	if (!i || (addr > user_offsets[i - 1].off && i == n)) {
		val_set_ptr(v, name, addr);
		return;
	}
	if (addr == user_offsets[i - 1].off)
		snprintf(buf, sizeof(buf), "%s", user_offsets[i - 1].name);
	else
		snprintf(buf, sizeof(buf), "%s+%llu", user_offsets[i - 1].name,
			 (unsigned long long)(addr - user_offsets[i - 1].off));
	val_set_text(c, v, name, buf);
}

/* [word] at addr (printnum_ptr / printnum_ulong), or the address. */
static void word_val(struct dctx *c, struct event *ev, unsigned i, bool hex)
{
	struct val *v = arg_slot(c, ev, i);
	uint64_t w;

	if (ev->err || !tread(c, ev->karg[i], &w, sizeof(w))) {
		val_set_ptr(v, v->name, ev->karg[i]);
	} else {
		struct val x;

		if (hex)
			val_set_ptr(&x, NULL, w);
		else
			val_set_uint(&x, NULL, w);
		val_set_boxed(c, v, v->name, &x);
	}
	v->flags |= VF_EXIT;
}

static void iov1_val(struct dctx *c, struct event *ev, unsigned i)
{
	struct val *v = arg_slot(c, ev, i);

	decode_iovec(c, v, v->name, ev->karg[i], 1, -1, true);
}

SYS_FUNC(ptrace)
{
	uint64_t req = ev->karg[0];
	uint64_t addr = ev->karg[2], data = ev->karg[3];
	struct val *v;

	if (exiting) {
		switch (req) {
		case P_PEEKTEXT: case P_PEEKDATA: case P_PEEKUSER:
			word_val(ctx, ev, 3, true);
			break;
		case P_GETEVENTMSG:
			word_val(ctx, ev, 3, false);
			break;
		case P_GETREGSET:
			iov1_val(ctx, ev, 3);
			ev->args[3].flags |= VF_EXIT;
			break;
		case P_GETSIGINFO:
			v = arg_slot(ctx, ev, 3);
			if (ev->err)
				val_set_ptr(v, v->name, data);
			else
				decode_siginfo_at(ctx, v, v->name, data);
			v->flags |= VF_EXIT;
			break;
		case P_GETSIGMASK:
			v = arg_slot(ctx, ev, 3);
			if (ev->err)
				val_set_ptr(v, v->name, data);
			else
				decode_sigset(ctx, v, v->name, data, addr);
			v->flags |= VF_EXIT;
			break;
		default:
			arg_ptr(ctx, ev, 3);
			break;
		}
		return RVAL_DONE;
	}
	arg_enum(ctx, ev, 0, ptrace_cmds);
	if (req == P_TRACEME)
		return RVAL_DONE;
	arg_pid(ctx, ev, 1, PT_TGID);
	switch (req) {
	case P_ATTACH: case P_INTERRUPT: case P_KILL: case P_LISTEN:
		return RVAL_DONE;
	case P_PEEKUSER: case P_POKEUSER:
		v = arg_slot(ctx, ev, 2);
		user_offset_val(ctx, v, v->name, addr);
		break;
	case P_GETREGSET: case P_SETREGSET:
		v = arg_slot(ctx, ev, 2);
		val_set_enum(v, v->name, (uint32_t)addr, nt_descriptor_types);
		break;
	case P_GETSIGMASK: case P_SETSIGMASK: case P_SECCOMP_GET_FILTER:
	case P_SECCOMP_GET_METADATA: case P_GET_SYSCALL_INFO:
		arg_uint(ctx, ev, 2);
		break;
	case P_PEEKSIGINFO: {
		struct { uint64_t off; uint32_t flags, nr; } psi;

		v = arg_slot(ctx, ev, 2);
		if (!tread(ctx, addr, &psi, sizeof(psi))) {
			val_set_ptr(v, v->name, addr);
		} else {
			struct val *f = val_new_array(ctx, 3);

			val_set_uint(&f[0], "off", psi.off);
			val_set_flags(&f[1], "flags", psi.flags, ptrace_peeksiginfo_flags, NULL);
			val_set_uint(&f[2], "nr", psi.nr);
			val_set_struct(v, v->name, f, 3, false);
		}
		break;
	}
	default:
		arg_ptr(ctx, ev, 2);
		break;
	}
	switch (req) {
	case P_CONT: case P_DETACH: case P_SYSCALL: case P_SINGLESTEP:
	case P_SINGLEBLOCK: case P_SYSEMU: case P_SYSEMU_SINGLESTEP:
		v = arg_slot(ctx, ev, 3);
		val_set_signal(ctx, v, v->name, (int)data);
		return RVAL_DONE;
	case P_SEIZE: case P_SETOPTIONS:
		arg_flags(ctx, ev, 3, ptrace_setoptions_flags, NULL);
		return RVAL_DONE;
	case P_SETSIGINFO:
		v = arg_slot(ctx, ev, 3);
		decode_siginfo_at(ctx, v, v->name, data);
		return RVAL_DONE;
	case P_SETSIGMASK:
		v = arg_slot(ctx, ev, 3);
		decode_sigset(ctx, v, v->name, data, addr);
		return RVAL_DONE;
	case P_SETREGSET:
		iov1_val(ctx, ev, 3);
		return RVAL_DONE;
	case P_PEEKTEXT: case P_PEEKDATA: case P_PEEKUSER: case P_GETEVENTMSG:
	case P_GETREGSET: case P_GETSIGINFO: case P_GETSIGMASK:
		arg_count(ev, 4);
		return RVAL_EXIT;
	default:
		arg_ptr(ctx, ev, 3);
		return RVAL_DONE;
	}
}
