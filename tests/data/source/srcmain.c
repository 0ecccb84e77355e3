/*
 * Source correlation test program (tests/t/source_lines.sh): every call
 * marked MARK:name must be reported by `renacer -s` at exactly the line of
 * its marker, from the main program, a shared library, a dlopen-ed
 * library, a thread, a forked child and, after exec, another program.
 * Usage: srcmain PLUGIN.so EXEC-PROGRAM
 */
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

int lib_write(void);	/* srclib.c, in libsrclib.so */

static inline __attribute__((always_inline)) int helper(void)
{
	return (int)write(1, "inline\n", 7);	/* MARK:inline */
}

static void *thread_main(void *arg)
{
	if (write(1, "thread\n", 7) < 0)	/* MARK:thread */
		abort();
	return arg;
}

static int __attribute__((noinline)) recurse(int n)
{
	if (n > 0)
		return recurse(n - 1) + 1;
	if (write(1, "recurse\n", 8) < 0)	/* MARK:recurse */
		abort();
	return 0;
}

int main(int argc, char **argv)
{
	pthread_t th;
	pid_t pid;
	void *h;
	int (*plugin_write)(void);
	FILE *f;

	if (argc < 3)
		return 2;
	if (write(1, "main\n", 5) < 0)	/* MARK:main */
		return 1;
	if (helper() < 0)
		return 1;
	f = fopen("/dev/null", "r");	/* MARK:fopen */
	if (f)
		fclose(f);
	if (recurse(3) != 3)
		return 1;
	if (lib_write() < 0)	/* MARK:call_lib */
		return 1;
	h = dlopen(argv[1], RTLD_NOW);	/* MARK:dlopen */
	if (!h)
		return 1;
	plugin_write = (int (*)(void))dlsym(h, "plugin_write");
	if (!plugin_write || plugin_write() < 0)
		return 1;
	if (pthread_create(&th, NULL, thread_main, NULL) != 0 || pthread_join(th, NULL) != 0)
		return 1;
	pid = fork();
	if (pid == 0) {
		if (write(1, "child\n", 6) < 0)	/* MARK:child */
			_exit(1);
		_exit(0);
	}
	if (pid < 0 || waitpid(pid, NULL, 0) != pid)
		return 1;
	execl(argv[2], argv[2], (char *)NULL);	/* MARK:execve */
	return 1;
}
