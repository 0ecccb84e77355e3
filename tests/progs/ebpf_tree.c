/*
 * Known syscall counts across processes and threads, for the eBPF back
 * end's tests (tests/t/ebpf_*.sh): the same counts under strace -f -c,
 * renacer --backend ptrace and --backend ebpf.
 *
 *   ebpf_tree tree     four children (one through a pipe, one failing
 *                      calls, one killed by SIGKILL and one by SIGTERM
 *                      inside read), each waited for
 *   ebpf_tree threads  four threads making calls, joined; a fifth blocked
 *                      in pause() when the process exits
 *   ebpf_tree storm N  N getppid calls
 *
 * No signal handlers (SIGCHLD would add rt_sigreturn calls that depend on
 * timing) and no allocation in threads (malloc arenas depend on timing).
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

/* n failing openat calls (ENOENT) and n getppid calls */
static void calls(int n)
{
	for (int i = 0; i < n; i++) {
		if (open("/nonexistent/renacer-ebpf", O_RDONLY) >= 0)
			_exit(3);
		syscall(SYS_getppid);
	}
}

/*
 * A child that says it is ready, then blocks in read until sig kills it.
 * The parent waits for the word and then 300 ms, so that the child is
 * inside read (the counts do not depend on how busy the machine is).
 */
static void blocked_child(int sig)
{
	int p[2], ready[2], status;
	char buf[1];
	pid_t c;

	if (pipe(p) < 0 || pipe(ready) < 0)
		_exit(1);
	c = fork();
	if (c == 0) {
		close(p[1]);
		if (write(ready[1], "r", 1) != 1 || read(p[0], buf, 1) < 0)
			_exit(1);
		_exit(0);
	}
	close(p[0]);
	close(ready[1]);
	if (read(ready[0], buf, 1) != 1)
		_exit(1);
	sleep_ms(300);
	kill(c, sig);
	waitpid(c, &status, 0);
	close(p[1]);
	close(ready[0]);
}

static int tree(void)
{
	int p[2], status;
	char buf[64];
	pid_t a, b;

	if (pipe(p) < 0)
		return 1;
	a = fork();
	if (a == 0) {           /* writes into the pipe */
		close(p[0]);
		for (int i = 0; i < 5; i++)
			if (write(p[1], "0123456789", 10) != 10)
				_exit(1);
		_exit(0);
	}
	close(p[1]);
	/* 10 bytes a read, whatever the timing: 5 reads and the one at EOF */
	while (read(p[0], buf, 10) > 0)
		;
	close(p[0]);
	waitpid(a, &status, 0);

	b = fork();
	if (b == 0) {           /* failing calls, then exit(7) */
		calls(20);
		_exit(7);
	}
	waitpid(b, &status, 0);

	/* two children that block in read, killed there: by SIGKILL, then by
	 * SIGTERM (no handler) */
	blocked_child(SIGKILL);
	blocked_child(SIGTERM);
	calls(3);
	return 0;
}

static void *worker(void *arg)
{
	calls((int)(long)arg);
	return NULL;
}

static void *blocker(void *arg)
{
	(void)arg;
	pause();
	return NULL;
}

static int threads(void)
{
	pthread_t t[5];

	for (long i = 0; i < 4; i++)
		if (pthread_create(&t[i], NULL, worker, (void *)(10 * (i + 1))))
			return 1;
	for (int i = 0; i < 4; i++)
		pthread_join(t[i], NULL);
	if (pthread_create(&t[4], NULL, blocker, NULL))
		return 1;
	sleep_ms(200);
	exit(0);                /* the blocker dies inside pause() */
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "";

	if (!strcmp(mode, "tree"))
		return tree();
	if (!strcmp(mode, "threads"))
		return threads();
	if (!strcmp(mode, "storm")) {
		long n = argc > 2 ? atol(argv[2]) : 1000000;
		for (long i = 0; i < n; i++)
			syscall(SYS_getppid);
		return 0;
	}
	fprintf(stderr, "usage: ebpf_tree tree|threads|storm [N]\n");
	return 2;
}
