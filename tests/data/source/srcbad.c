/*
 * Stacks an unwinder cannot walk (tests/t/source_bad.sh): a function whose
 * call frame information says it is its own caller (the stack "loops"),
 * and a call made with the stack pointer in unmapped memory.  renacer must
 * print what it knows and go on.
 */
#include <unistd.h>

long loopy(void);
long badstack(void);

__asm__(
	".text\n"
	".globl loopy\n"
	".type loopy, @function\n"
	"loopy:\n"
	"	.cfi_startproc\n"
	"	.cfi_def_cfa %rsp, 0\n"
	"	.cfi_offset %rip, -8\n"
	"	leaq 1f(%rip), %rax\n"
	"	movq %rax, -8(%rsp)\n"
	"	movl $39, %eax\n"          /* getpid */
	"	syscall\n"
	"1:	nop\n"                    /* the pc at the stop: still "looping" */
	"	.cfi_def_cfa %rsp, 8\n"
	"	.cfi_offset %rip, -8\n"
	"	ret\n"
	"	.cfi_endproc\n"
	".size loopy, .-loopy\n"
	".globl badstack\n"
	".type badstack, @function\n"
	"badstack:\n"
	"	.cfi_startproc\n"
	"	movq %rsp, saved_sp(%rip)\n"
	"	movq $0x1000, %rsp\n"       /* nothing is mapped there */
	"	movl $186, %eax\n"          /* gettid */
	"	syscall\n"
	"	movq saved_sp(%rip), %rsp\n"
	"	ret\n"
	"	.cfi_endproc\n"
	".size badstack, .-badstack\n"
	".local saved_sp\n"
	".comm saved_sp, 8, 8\n");

int main(void)
{
	if (loopy() != getpid())	/* MARK:loopy_call */
		return 1;
	if (badstack() <= 0)	/* MARK:badstack_call */
		return 1;
	if (write(1, "survived\n", 9) < 0)	/* MARK:survived */
		return 1;
	return 0;
}
