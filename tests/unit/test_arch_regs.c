/*
 * Unit tests for arch_dwarf_regs_saved() (src/arch/x86_64/regs.c): the
 * registers the kernel saved at a syscall's entry (struct pt_regs, as the
 * eBPF recorder copies it) in the DWARF numbering the unwinder wants, for a
 * 64-bit and a 32-bit (ia32) task, checked against the kernel's pt_regs
 * layout written out here word by word.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "arch.h"

#include "util/banned.h"

/* The kernel's x86_64 struct pt_regs (arch/x86/include/asm/ptrace.h). */
enum { R15, R14, R13, R12, BP, BX, R11, R10, R9, R8, AX, CX, DX, SI, DI, ORIG_AX,
       IP, CS, FLAGS, SP, SS, NWORDS };

static void fill(uint64_t *w)
{
	for (unsigned i = 0; i < NWORDS; i++)
		w[i] = 0x1000 + i;
}

static void test_x86_64(void **state)
{
	uint64_t w[NWORDS];
	struct arch_dwarf_regs r;
	/* DWARF: rax rdx rcx rbx rsi rdi rbp rsp r8..r15 rip */
	const unsigned order[17] = { AX, DX, CX, BX, SI, DI, BP, SP, R8, R9, R10, R11,
				     R12, R13, R14, R15, IP };

	(void)state;
	fill(w);
	w[CS] = 0x33;
	assert_int_equal(arch_dwarf_regs_saved(w, sizeof(w), &r), 0);
	assert_int_equal(r.nregs, 17);
	for (unsigned i = 0; i < 17; i++)
		assert_int_equal(r.regs[i], w[order[i]]);
	assert_int_equal(r.pc, w[IP]);
	assert_int_equal(r.sp_regno, 7);
	assert_int_equal(r.regs[r.sp_regno], w[SP]);
	/* rbx rbp r12-r15 survive a call */
	assert_int_equal(r.callee_saved, 1u << 3 | 1u << 6 | 1u << 12 | 1u << 13 | 1u << 14 |
					 1u << 15);
}

static void test_ia32(void **state)
{
	uint64_t w[NWORDS];
	struct arch_dwarf_regs r;
	/* DWARF: eax ecx edx ebx esp ebp esi edi eip, 32 bits each */
	const unsigned order[9] = { AX, CX, DX, BX, SP, BP, SI, DI, IP };

	(void)state;
	fill(w);
	for (unsigned i = 0; i < NWORDS; i++)
		w[i] |= 0xffffffff00000000ull;
	w[CS] = 0x23;
	assert_int_equal(arch_dwarf_regs_saved(w, sizeof(w), &r), 0);
	assert_int_equal(r.nregs, 9);
	for (unsigned i = 0; i < 9; i++)
		assert_int_equal(r.regs[i], (uint32_t)w[order[i]]);
	assert_int_equal(r.pc, (uint32_t)w[IP]);
	assert_int_equal(r.sp_regno, 4);
}

static void test_short(void **state)
{
	uint64_t w[NWORDS];
	struct arch_dwarf_regs r;

	(void)state;
	fill(w);
	/* without ss (the last word) the block is not a whole pt_regs */
	assert_int_equal(arch_dwarf_regs_saved(w, sizeof(w) - 8, &r), -1);
	assert_int_equal(arch_dwarf_regs_saved(w, 0, &r), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_x86_64),
		cmocka_unit_test(test_ia32),
		cmocka_unit_test(test_short),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
