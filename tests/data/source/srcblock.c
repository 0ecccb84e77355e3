/*
 * Blocks in read(0) under two calls and an inlined helper, so that a
 * test can take its stack with eu-stack and gcore (gdb) while it waits and
 * then with renacer -k -p (tests/t/source_stack.sh).  It reads twice from
 * the same call, so that renacer, attached during the first read, surely
 * sees the second with the very same stack.
 */
#include <unistd.h>

static inline __attribute__((always_inline)) int wait_byte(char *c)
{
	return (int)read(0, c, 1);	/* MARK:block_read */
}

static int __attribute__((noinline)) inner(int n)
{
	char c = 0;
	int r = 0;
	volatile int times = 2;     /* one call site: the loop is not unrolled */

	for (int i = 0; i < times; i++)
		r += wait_byte(&c);	/* MARK:block_inner */
	return r + c + n;
}

static int __attribute__((noinline)) outer(int n)
{
	return inner(n + 1) * 2;	/* MARK:block_outer */
}

int main(int argc, char **argv)
{
	int r = outer(argc);	/* MARK:block_main */

	return r == 12345;
}
