/*
 * A process tree for the OTLP tests: the parent fails an openat, writes,
 * starts two threads, forks a child that execs itself as "child" (which
 * forks a grandchild), takes a signal, reaps everything and exits 3.
 *   otlpprog [ENVFILE]   also writes $TRACEPARENT (or "-") to ENVFILE
 *   otlpprog burst N     N getppid calls, then exit 0 (the benchmark)
 */
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

static void *worker(void *arg)
{
	char buf[32];
	int n = snprintf(buf, sizeof(buf), "thread %ld\n", (long)(intptr_t)arg);

	syscall(SYS_gettid);
	if (write(1, buf, (size_t)n) < 0)
		return NULL;
	return NULL;
}

static void on_usr1(int sig)
{
	(void)sig;
}

static int child(void)
{
	pid_t p = fork();

	if (p == 0) {
		if (write(1, "grandchild\n", 11) < 0)
			_exit(1);
		_exit(0);
	}
	if (p > 0)
		waitpid(p, NULL, 0);
	if (write(1, "child\n", 6) < 0)
		return 1;
	return 0;
}

int main(int argc, char **argv)
{
	pthread_t th[2];
	pid_t p;
	int fd;

	if (argc > 1 && !strcmp(argv[1], "child"))
		return child();
	if (argc > 2 && !strcmp(argv[1], "burst")) {
		long n = atol(argv[2]);
		for (long i = 0; i < n; i++)
			syscall(SYS_getppid);
		return 0;
	}
	if (argc > 1) {
		const char *tp = getenv("TRACEPARENT");
		FILE *f = fopen(argv[1], "w");
		if (!f)
			return 1;
		fprintf(f, "%s\n", tp ? tp : "-");
		fclose(f);
	}
	fd = open("/nonexistent/otlp", O_RDONLY);
	if (fd >= 0)
		close(fd);
	if (write(1, "parent\n", 7) < 0)
		return 1;
	for (long i = 0; i < 2; i++)
		pthread_create(&th[i], NULL, worker, (void *)i);
	for (int i = 0; i < 2; i++)
		pthread_join(th[i], NULL);
	p = fork();
	if (p == 0) {
		execl("/proc/self/exe", "otlpprog", "child", (char *)NULL);
		_exit(127);
	}
	signal(SIGUSR1, on_usr1);
	raise(SIGUSR1);
	waitpid(p, NULL, 0);
	return 3;
}
