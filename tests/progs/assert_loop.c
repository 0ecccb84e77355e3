/*
 * For span_count tests: `assert_loop N` makes N getppid calls (and
 * nothing else after the C runtime's start-up).
 */
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 0;
	for (long i = 0; i < n; i++)
		syscall(SYS_getppid);
	return 0;
}
