/*
 * For memory_usage tests: `assert_alloc MB` maps MB MiB of anonymous
 * memory with one mmap, writes every page (so it becomes resident), and
 * unmaps it.  `assert_alloc MB child` does it in a forked child that the
 * parent waits for.  `assert_alloc 0` maps nothing.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

static int alloc(size_t mb)
{
	size_t len = mb << 20;
	if (!len)
		return 0;
	char *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return 1;
	for (size_t i = 0; i < len; i += 4096)
		p[i] = 1;
	return munmap(p, len) != 0;
}

int main(int argc, char **argv)
{
	size_t mb = argc > 1 ? (size_t)atol(argv[1]) : 0;
	if (argc > 2 && !strcmp(argv[2], "child")) {
		pid_t pid = fork();
		if (pid == 0)
			_exit(alloc(mb));
		int st;
		if (pid < 0 || waitpid(pid, &st, 0) != pid)
			return 1;
		return WIFEXITED(st) ? WEXITSTATUS(st) : 1;
	}
	return alloc(mb);
}
