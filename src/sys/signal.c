/*
 * Signal decoders: rt_sigaction, rt_sigprocmask, rt_sigreturn, sigaltstack,
 * rt_sigpending/suspend/timedwait/queueinfo, kill/tkill/tgkill, signalfd,
 * pidfd_send_signal; and the shared decode_siginfo_val (see decode.h).
 */
#include "sys/decode.h"

#include <errno.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/user.h>

#include "sys/tmem.h"
#include "sys/decode_extra.h"
#include "sys/pidns.h"
#include "xlat/audit_arch.h"
#include "xlat/sa_handler_values.h"
#include "xlat/sigact_flags.h"
#include "xlat/sigaltstack_flags.h"
#include "xlat/sigbus_codes.h"
#include "xlat/sigchld_codes.h"
#include "xlat/sigfpe_codes.h"
#include "xlat/sigill_codes.h"
#include "xlat/siginfo_codes.h"
#include "xlat/sigpoll_codes.h"
#include "xlat/sigprocmaskcmds.h"
#include "xlat/sigprof_codes.h"
#include "xlat/sigsegv_codes.h"
#include "xlat/sigsys_codes.h"
#include "xlat/sfd_flags.h"
#include "xlat/sigtrap_codes.h"
#include "util/banned.h"

#define SA_RESTORER_FLAG 0x04000000UL

/* The kernel's struct sigaction on x86_64 (not glibc's). */
struct k_sigaction {
	uint64_t handler;
	uint64_t flags;
	uint64_t restorer;
	uint64_t mask;
};

/* ---- siginfo -------------------------------------------------------------- */

static const struct xlat *si_code_table(int signo)
{
	switch (signo) {
	case SIGTRAP: return sigtrap_codes;
	case SIGCHLD: return sigchld_codes;
	case SIGIO: return sigpoll_codes;
	case SIGPROF: return sigprof_codes;
	case SIGILL: return sigill_codes;
	case SIGFPE: return sigfpe_codes;
	case SIGSEGV: return sigsegv_codes;
	case SIGBUS: return sigbus_codes;
	case SIGSYS: return sigsys_codes;
	}
	return NULL;
}

/* A growable field list for one structure. */
struct fields {
	struct val *it;
	unsigned n;
};

static struct val *field(struct fields *f)
{
	return &f->it[f->n++];
}

static void sinfo_source(struct dctx *c, struct fields *f, const siginfo_t *si)
{
	val_set_pid(c, field(f), "si_pid", si->si_pid, PT_TGID);
	val_set_uint(field(f), "si_uid", si->si_uid);
}

static void sinfo_value(struct dctx *c, struct fields *f, const siginfo_t *si)
{
	val_set_int(field(f), "si_int", si->si_int);
	val_set_ptr(field(f), "si_ptr", (uint64_t)(uintptr_t)si->si_ptr);
}

static void si_code_val(struct dctx *c, struct val *v, const siginfo_t *si)
{
	uint64_t code = (uint64_t)(int64_t)si->si_code;
	const struct xlat *xl = siginfo_codes;

	if (!xlat_name(xl, code)) {
		xl = si_code_table(si->si_signo);
		if (!xlat_name(xl, code)) {
			val_set_hex(v, "si_code", (uint32_t)si->si_code);
			return;
		}
	}
	if (si->si_code < 0) {
		/* the number in 32 bits under -X raw/verbose (0xfffffffa
		 * / * SI_TKILL * /), as strace 6.1 */
		struct val num;

		val_set_hex(&num, NULL, (uint32_t)si->si_code);
		val_set_num_text(c, v, "si_code", &num, xlat_name(xl, code));
		return;
	}
	val_set_enum(v, "si_code", code, xl);
}

/* The fields after si_code (strace's print_si_info). */
static void si_info(struct dctx *c, struct fields *f, const siginfo_t *si)
{
	if (si->si_errno) {
		const char *e = errno_name(si->si_errno);

		if (e)
			val_set_text(c, field(f), "si_errno", e);
		else
			val_set_uint(field(f), "si_errno", (unsigned)si->si_errno);
	}
	if (si->si_code <= 0) {
		switch (si->si_code) {
		case SI_USER:
		case SI_TKILL:
			sinfo_source(c, f, si);
			break;
		case SI_TIMER:
			val_set_hex(field(f), "si_timerid", (unsigned)si->si_timerid);
			val_set_int(field(f), "si_overrun", si->si_overrun);
			sinfo_value(c, f, si);
			break;
		case SI_SIGIO:
			val_set_int(field(f), "si_band", si->si_band);
			val_set_fd(c, field(f), "si_fd", si->si_fd);
			break;
		default:
			sinfo_source(c, f, si);
			if (si->si_ptr)
				sinfo_value(c, f, si);
			break;
		}
		return;
	}
	switch (si->si_signo) {
	case SIGCHLD:
		sinfo_source(c, f, si);
		if (si->si_code == CLD_EXITED)
			val_set_int(field(f), "si_status", si->si_status);
		else
			val_set_signal(c, field(f), "si_status", si->si_status);
		val_set_clock_t(c, field(f), "si_utime", (uint64_t)si->si_utime);
		val_set_clock_t(c, field(f), "si_stime", (uint64_t)si->si_stime);
		break;
	case SIGILL:
	case SIGFPE:
	case SIGTRAP:
		val_set_ptr(field(f), "si_addr", (uint64_t)(uintptr_t)si->si_addr);
		break;
	case SIGBUS:
		val_set_ptr(field(f), "si_addr", (uint64_t)(uintptr_t)si->si_addr);
		if (si->si_code == BUS_MCEERR_AR || si->si_code == BUS_MCEERR_AO)
			val_set_hex(field(f), "si_addr_lsb", (unsigned)si->si_addr_lsb);
		break;
	case SIGSEGV:
		val_set_ptr(field(f), "si_addr", (uint64_t)(uintptr_t)si->si_addr);
		if (si->si_code == SEGV_BNDERR) {
			val_set_ptr(field(f), "si_lower", (uint64_t)(uintptr_t)si->si_lower);
			val_set_ptr(field(f), "si_upper", (uint64_t)(uintptr_t)si->si_upper);
		} else if (si->si_code == SEGV_PKUERR) {
			val_set_uint(field(f), "si_pkey", si->si_pkey);
		}
		break;
	case SIGIO:
		if (si->si_code == POLL_IN || si->si_code == POLL_OUT || si->si_code == POLL_MSG) {
			val_set_int(field(f), "si_band", si->si_band);
			val_set_fd(c, field(f), "si_fd", si->si_fd);
		}
		break;
	case SIGSYS: {
		const struct sysent *se = sysent_get(si->si_syscall);

		val_set_ptr(field(f), "si_call_addr", (uint64_t)(uintptr_t)si->si_call_addr);
		if (se && se->name && si->si_arch == AUDIT_ARCH_X86_64) {
			struct val *v = field(f);
			size_t n = strlen(se->name);
			char *s = arena_alloc(c->arena, n + 6);

			memcpy(s, "__NR_", 5);
			memcpy(s + 5, se->name, n + 1);
			val_set_text(c, v, "si_syscall", s);
		} else {
			val_set_uint(field(f), "si_syscall", (unsigned)si->si_syscall);
		}
		val_set_enum(field(f), "si_arch", si->si_arch, audit_arch);
		break;
	}
	default:
		if (si->si_pid || si->si_uid)
			sinfo_source(c, f, si);
		if (si->si_ptr)
			sinfo_value(c, f, si);
		break;
	}
}

void decode_siginfo_val(struct dctx *c, struct val *v, const void *siginfo)
{
	const siginfo_t *si = siginfo;
	struct fields f = { val_new_array(c, 12), 0 };

	if (si->si_signo) {
		val_set_signal(c, field(&f), "si_signo", si->si_signo);
		si_code_val(c, field(&f), si);
		si_info(c, &f, si);
	}
	val_set_struct(v, NULL, f.it, f.n, false);
}

/* A siginfo_t in tracee memory, or its address. */
void decode_siginfo_at(struct dctx *c, struct val *v, const char *name, uint64_t addr)
{
	siginfo_t si;

	if (!tread(c, addr, &si, sizeof(si))) {
		val_set_ptr(v, name, addr);
		return;
	}
	decode_siginfo_val(c, v, &si);
	v->name = name;
}

/* ---- sigaction ------------------------------------------------------------ */

static void decode_sigaction(struct dctx *c, struct val *v, const char *name, uint64_t addr)
{
	struct k_sigaction sa;
	struct val *it;
	unsigned n = 0;

	if (!tread(c, addr, &sa, sizeof(sa))) {
		val_set_ptr(v, name, addr);
		return;
	}
	it = val_new_array(c, 4);
	if (xlat_name(sa_handler_values, sa.handler))
		val_set_enum(&it[n++], "sa_handler", sa.handler, sa_handler_values);
	else
		val_set_ptr(&it[n++], "sa_handler", sa.handler);
	val_set_sigset(&it[n], "sa_mask", sa.mask);
	if (__builtin_popcountll(sa.mask) >= 42)
		it[n].flags |= VF_SIGSET_NOT;
	else
		it[n].flags &= (uint16_t)~VF_SIGSET_NOT;
	n++;
	val_set_flags(&it[n++], "sa_flags", sa.flags, sigact_flags, NULL);
	if (sa.flags & SA_RESTORER_FLAG)
		val_set_ptr(&it[n++], "sa_restorer", sa.restorer);
	val_set_struct(v, name, it, n, false);
}

static void arg_signal(struct dctx *c, struct event *ev, unsigned i)
{
	struct val *v = arg_slot(c, ev, i);

	val_set_signal(c, v, v->name, (int)ev->karg[i]);
}

/* rt_sigaction(sig, act, oldact, sigsetsize): oldact at exit. */
SYS_FUNC(rt_sigaction)
{
	struct val *v;

	if (!exiting) {
		arg_signal(ctx, ev, 0);
		v = arg_slot(ctx, ev, 1);
		decode_sigaction(ctx, v, v->name, ev->karg[1]);
		arg_count(ev, 4);
		return RVAL_EXIT;
	}
	arg_out(ctx, ev, 2, decode_sigaction);
	arg_uint(ctx, ev, 3);
	return RVAL_DONE;
}

/* rt_sigprocmask(how, set, oldset, sigsetsize): oldset at exit. */
SYS_FUNC(rt_sigprocmask)
{
	struct val *v;

	if (!exiting) {
		arg_enum(ctx, ev, 0, sigprocmaskcmds);
		v = arg_slot(ctx, ev, 1);
		decode_sigset(ctx, v, v->name, ev->karg[1], ev->karg[3]);
		arg_count(ev, 4);
		return RVAL_EXIT;
	}
	v = arg_slot(ctx, ev, 2);
	if (ev->err)
		val_set_ptr(v, v->name, ev->karg[2]);
	else
		decode_sigset(ctx, v, v->name, ev->karg[2], ev->karg[3]);
	v->flags |= VF_EXIT;
	arg_uint(ctx, ev, 3);
	return RVAL_DONE;
}

SYS_FUNC(rt_sigpending)
{
	struct val *v;

	if (!exiting) {
		arg_count(ev, 2);
		return RVAL_EXIT;
	}
	v = arg_slot(ctx, ev, 0);
	if (ev->err)
		val_set_ptr(v, v->name, ev->karg[0]);
	else
		decode_sigset_min(ctx, v, v->name, ev->karg[0], ev->karg[1], 1);
	v->flags |= VF_EXIT;
	arg_uint(ctx, ev, 1);
	return RVAL_DONE;
}

SYS_FUNC(rt_sigsuspend)
{
	struct val *v = arg_slot(ctx, ev, 0);

	decode_sigset(ctx, v, v->name, ev->karg[0], ev->karg[1]);
	arg_uint(ctx, ev, 1);
	return RVAL_DONE;
}

/* rt_sigtimedwait(set, info, timeout, sigsetsize): info at exit; the
 * result is a signal number. */
SYS_FUNC(rt_sigtimedwait)
{
	struct val *v;

	if (!exiting) {
		v = arg_slot(ctx, ev, 0);
		decode_sigset(ctx, v, v->name, ev->karg[0], ev->karg[3]);
		arg_count(ev, 4);
		return RVAL_EXIT;
	}
	v = arg_slot(ctx, ev, 1);
	if (ev->err || !ev->karg[1])
		val_set_ptr(v, v->name, ev->karg[1]);
	else
		decode_siginfo_at(ctx, v, v->name, ev->karg[1]);
	v->flags |= VF_EXIT;
	v = arg_slot(ctx, ev, 2);
	decode_timespec(ctx, v, v->name, ev->karg[2]);
	v->flags |= VF_EXIT;
	arg_uint(ctx, ev, 3);
	if (!ev->err && ev->retval > 0) {
		const char *s = signal_name((int)ev->retval);

		if (s) {
			struct val *aux = arena_calloc(ctx->arena, sizeof(*aux));

			val_set_text(ctx, aux, NULL, s);
			ev->ret_aux = aux;
		}
	}
	return RVAL_DONE;
}

SYS_FUNC(rt_sigqueueinfo)
{
	struct val *v;

	arg_pid(ctx, ev, 0, PT_TGID);
	arg_signal(ctx, ev, 1);
	v = arg_slot(ctx, ev, 2);
	decode_siginfo_at(ctx, v, v->name, ev->karg[2]);
	return RVAL_DONE;
}

SYS_FUNC(rt_tgsigqueueinfo)
{
	struct val *v;

	arg_pid(ctx, ev, 0, PT_TGID);
	arg_pid(ctx, ev, 1, PT_TID);
	arg_signal(ctx, ev, 2);
	v = arg_slot(ctx, ev, 3);
	decode_siginfo_at(ctx, v, v->name, ev->karg[3]);
	return RVAL_DONE;
}

/* ---- rt_sigreturn --------------------------------------------------------- */

/*
 * rt_sigreturn({mask=[...]}): the mask the handler restores, from the signal
 * frame at the stack pointer (the ucontext after the popped return address).
 */
SYS_FUNC(rt_sigreturn)
{
#if defined(__x86_64__)
	struct val *v, *it;
	uint64_t sp;
	const uint64_t off = 8 + 8 + 24 + 256; /* uc_flags, uc_link, uc_stack, uc_mcontext */

	/* (the live tracee's, or the one recorded with the call: sys/tmem.h) */
	if (tmem_stack_pointer(ctx->tid, &sp) < 0)
		return RVAL_DONE;
	v = arg_slot(ctx, ev, 0);
	v->name = "mask";
	/* strace: {mask=0x...} when the set cannot be read (or with
	 * -e verbose= leaving the call out) */
	it = val_new_array(ctx, 1);
	decode_sigset_min(ctx, it, "mask", sp + off, 8, 8);
	val_set_struct(v, "mask", it, 1, false);
	ev->nargs = 1;
#endif
	return RVAL_DONE;
}

/* ---- sigaltstack ---------------------------------------------------------- */

static void decode_stack_t(struct dctx *c, struct val *v, const char *name, uint64_t addr)
{
	stack_t ss;
	struct val *it;

	if (!tread(c, addr, &ss, sizeof(ss))) {
		val_set_ptr(v, name, addr);
		return;
	}
	it = val_new_array(c, 3);
	val_set_ptr(&it[0], "ss_sp", (uint64_t)(uintptr_t)ss.ss_sp);
	val_set_flags(&it[1], "ss_flags", (uint32_t)ss.ss_flags, sigaltstack_flags, NULL);
	val_set_uint(&it[2], "ss_size", ss.ss_size);
	val_set_struct(v, name, it, 3, false);
}

SYS_FUNC(sigaltstack)
{
	struct val *v;

	if (!exiting) {
		v = arg_slot(ctx, ev, 0);
		decode_stack_t(ctx, v, v->name, ev->karg[0]);
		arg_count(ev, 2);
		return RVAL_EXIT;
	}
	arg_out(ctx, ev, 1, decode_stack_t);
	return RVAL_DONE;
}

/* ---- kill ----------------------------------------------------------------- */

SYS_FUNC(kill)
{
	{
		struct val *v = arg_slot(ctx, ev, 0);

		val_set_pid_tgid_pgid(ctx, v, v->name, (int)ev->karg[0]);
	}
	arg_signal(ctx, ev, 1);
	return RVAL_DONE;
}

SYS_FUNC(tkill)
{
	arg_pid(ctx, ev, 0, PT_TID);
	arg_signal(ctx, ev, 1);
	return RVAL_DONE;
}

SYS_FUNC(tgkill)
{
	arg_pid(ctx, ev, 0, PT_TGID);
	arg_pid(ctx, ev, 1, PT_TID);
	arg_signal(ctx, ev, 2);
	return RVAL_DONE;
}

/* ---- signalfd, pidfd_send_signal ------------------------------------------ */

SYS_FUNC(signalfd4)
{
	struct val *v;

	if (!exiting) {
		arg_fd(ctx, ev, 0);
		v = arg_slot(ctx, ev, 1);
		decode_sigset(ctx, v, v->name, ev->karg[1], ev->karg[2]);
		arg_uint(ctx, ev, 2);
		arg_flags(ctx, ev, 3, sfd_flags, NULL);
		return RVAL_EXIT;
	}
	ret_set_fd(ctx, ev);
	return RVAL_DONE;
}

SYS_FUNC(signalfd)
{
	struct val *v;

	if (!exiting) {
		arg_fd(ctx, ev, 0);
		v = arg_slot(ctx, ev, 1);
		decode_sigset(ctx, v, v->name, ev->karg[1], ev->karg[2]);
		arg_uint(ctx, ev, 2);
		return RVAL_EXIT;
	}
	ret_set_fd(ctx, ev);
	return RVAL_DONE;
}

/* pidfd_send_signal(pidfd, sig, info, flags) */
SYS_FUNC(pidfd_send_signal)
{
	struct val *v;

	arg_fd(ctx, ev, 0);
	arg_signal(ctx, ev, 1);
	v = arg_slot(ctx, ev, 2);
	decode_siginfo_at(ctx, v, v->name, ev->karg[2]);
	arg_hex(ctx, ev, 3);   /* strace: PRINT_VAL_X */
	return RVAL_DONE;
}

/* restart_syscall(<... resuming interrupted clock_nanosleep ...>) */
SYS_FUNC(restart_syscall)
{
	const char *n = restart_take(ctx->tid);
	char buf[96];
	struct val *v = arg_slot(ctx, ev, 0);

	snprintf(buf, sizeof(buf), "<... resuming interrupted %s ...>", n ? n : "system call");
	val_set_text(ctx, v, "resuming", buf);
	ev->nargs = 1;
	return RVAL_DONE;
}
