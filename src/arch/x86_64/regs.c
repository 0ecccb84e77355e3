/* x86_64 registers through PTRACE_GETREGS (fallback path, see arch.h). */
#include "arch.h"

#include <stddef.h>
#include <string.h>
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

static void dwarf_regs_of(const struct user_regs_struct *rp, struct arch_dwarf_regs *d)
{
	const struct user_regs_struct r = *rp;

	if (r.cs == 0x23) {
		/* an i386 process: eax ecx edx ebx esp ebp esi edi eip */
		const uint64_t v[9] = { r.rax, r.rcx, r.rdx, r.rbx, r.rsp, r.rbp, r.rsi,
					r.rdi, r.rip };
		for (unsigned i = 0; i < 9; i++)
			d->regs[i] = (uint32_t)v[i];
		d->nregs = 9;
		d->pc = (uint32_t)r.rip;
		d->sp_regno = 4;
		d->callee_saved = 1u << 3 | 1u << 5 | 1u << 6 | 1u << 7;
	} else {
		/* rax rdx rcx rbx rsi rdi rbp rsp r8..r15 rip */
		const uint64_t v[17] = { r.rax, r.rdx, r.rcx, r.rbx, r.rsi, r.rdi, r.rbp, r.rsp,
					 r.r8, r.r9, r.r10, r.r11, r.r12, r.r13, r.r14, r.r15,
					 r.rip };
		for (unsigned i = 0; i < 17; i++)
			d->regs[i] = v[i];
		d->nregs = 17;
		d->pc = r.rip;
		d->sp_regno = 7;
		d->callee_saved = 1u << 3 | 1u << 6 | 1u << 12 | 1u << 13 | 1u << 14 | 1u << 15;
	}
}

int arch_dwarf_regs(pid_t tid, struct arch_dwarf_regs *d)
{
	struct user_regs_struct r;

	if (ptrace(PTRACE_GETREGS, tid, NULL, &r) < 0)
		return -1;
	dwarf_regs_of(&r, d);
	return 0;
}

int arch_dwarf_regs_saved(const void *regs, size_t len, struct arch_dwarf_regs *d)
{
	struct user_regs_struct r;

	/* the kernel's struct pt_regs is struct user_regs_struct up to ss */
	if (len < offsetof(struct user_regs_struct, fs_base))
		return -1;
	memset(&r, 0, sizeof(r));
	memcpy(&r, regs, offsetof(struct user_regs_struct, fs_base));
	dwarf_regs_of(&r, d);
	return 0;
}
