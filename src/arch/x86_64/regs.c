/* x86_64 registers through PTRACE_GETREGS (fallback path, see arch.h). */
#include "arch.h"

#include <stddef.h>
#include <sys/ptrace.h>
#include <sys/user.h>

#include "util/banned.h"

int arch_get_sc(pid_t tid, struct arch_sc *sc)
{
	struct user_regs_struct r;

	if (ptrace(PTRACE_GETREGS, tid, NULL, &r) < 0)
		return -1;
	sc->nr = (long)r.orig_rax;
	sc->compat = r.cs == 0x23;
	if (sc->compat) {
		sc->args[0] = (uint32_t)r.rbx;
		sc->args[1] = (uint32_t)r.rcx;
		sc->args[2] = (uint32_t)r.rdx;
		sc->args[3] = (uint32_t)r.rsi;
		sc->args[4] = (uint32_t)r.rdi;
		sc->args[5] = (uint32_t)r.rbp;
	} else {
		sc->args[0] = r.rdi;
		sc->args[1] = r.rsi;
		sc->args[2] = r.rdx;
		sc->args[3] = r.r10;
		sc->args[4] = r.r8;
		sc->args[5] = r.r9;
	}
	sc->rval = (int64_t)r.rax;
	sc->ip = r.rip;
	sc->sp = r.rsp;
	return 0;
}

int arch_set_scno(pid_t tid, long nr)
{
	return ptrace(PTRACE_POKEUSER, tid, (void *)offsetof(struct user_regs_struct, orig_rax),
		      (void *)nr) < 0 ? -1 : 0;
}

int arch_set_rval(pid_t tid, int64_t rval)
{
	return ptrace(PTRACE_POKEUSER, tid, (void *)offsetof(struct user_regs_struct, rax),
		      (void *)rval) < 0 ? -1 : 0;
}

uint64_t arch_get_ip(pid_t tid)
{
	struct user_regs_struct r;

	if (ptrace(PTRACE_GETREGS, tid, NULL, &r) < 0)
		return 0;
	return r.rip;
}
