/* x86_64 register access for the ptrace engine (one file per architecture). */
#ifndef RENACER_ARCH_H
#define RENACER_ARCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define ARCH_NAME "x86_64"
#define AUDIT_ARCH_NATIVE 0xc000003eU   /* AUDIT_ARCH_X86_64 */

/* A syscall stop as read from the registers. */
struct arch_sc {
	long nr;               /* syscall number (orig_rax) */
	uint64_t args[6];
	int64_t rval;          /* rax */
	bool compat;           /* a 32-bit (int 0x80 / ia32) syscall */
	uint64_t ip, sp;
};

/*
 * Reads the syscall state of a stopped tracee with PTRACE_GETREGS (the
 * fallback when PTRACE_GET_SYSCALL_INFO is missing).  Returns 0 or -1.
 */
int arch_get_sc(pid_t tid, struct arch_sc *sc);

/*
 * Tampering (-e inject=): at a syscall-entry stop, replaces the syscall
 * number (orig_rax; -1 makes the kernel skip the call with ENOSYS); at a
 * syscall-exit stop, sets the value the call returns (rax).  0 or -1.
 */
int arch_set_scno(pid_t tid, long nr);
int arch_set_rval(pid_t tid, int64_t rval);

/* The instruction pointer of a stopped tracee (-i), or 0 when unknown. */
uint64_t arch_get_ip(pid_t tid);

/* A stopped thread's registers for a DWARF unwinder (src/dwarf). */
struct arch_dwarf_regs {
	uint64_t regs[17];     /* in the DWARF numbering of the process's ABI */
	unsigned nregs;        /* 17 (x86_64: rax..r15, rip) or 9 (i386) */
	uint64_t pc;
	unsigned sp_regno;     /* the stack pointer's DWARF number (7, or 4) */
	uint32_t callee_saved; /* bit N: DWARF register N keeps its value across
				  a call (x86_64: rbx rbp r12-r15; i386: ebx
				  ebp esi edi) */
};

/* Reads them with PTRACE_GETREGS; 0, or -1 with errno set. */
int arch_dwarf_regs(pid_t tid, struct arch_dwarf_regs *r);

/*
 * The same from the registers the kernel saved at a syscall's entry (its
 * struct pt_regs, len bytes, as the eBPF recorder copies it); -1 when len
 * is too short to hold them.
 */
int arch_dwarf_regs_saved(const void *regs, size_t len, struct arch_dwarf_regs *r);

#endif
