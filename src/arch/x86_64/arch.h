/* x86_64 register access for the ptrace engine (one file per architecture). */
#ifndef RENACER_ARCH_H
#define RENACER_ARCH_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#define ARCH_NAME "x86_64"
#define AUDIT_ARCH_NATIVE 0xc000003eU   /* AUDIT_ARCH_X86_64 */
/* The stack pointer in the DWARF register numbering (rsp), for src/dwarf. */
#define ARCH_DWARF_SP_REGNO 7

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

#endif
