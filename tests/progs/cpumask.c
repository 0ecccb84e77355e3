/*
 * CPU masks as a program sees them, for the CPU placement tests
 * (tests/t/engine_cpus.sh): what sched_getaffinity and /proc/self/status
 * say in the process, a thread and a child, after a burst of syscalls; and
 * busy tasks whose masks the test samples from outside.  See usage().
 */
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* Prints set as taskset -c writes it: "0-1,3". */
static void print_list(const char *what, const cpu_set_t *set)
{
	int first = 1;

	printf("%s ", what);
	for (int i = 0; i < CPU_SETSIZE; i++) {
		int j = i;
		if (!CPU_ISSET(i, set))
			continue;
		while (j + 1 < CPU_SETSIZE && CPU_ISSET(j + 1, set))
			j++;
		printf(j > i ? "%s%d-%d" : "%s%d", first ? "" : ",", i, j);
		first = 0;
		i = j;
	}
	printf("\n");
}

static void show(const char *who)
{
	cpu_set_t set;
	char line[256], what[64];
	FILE *f;

	if (sched_getaffinity(0, sizeof(set), &set) < 0) {
		perror("sched_getaffinity");
		exit(1);
	}
	snprintf(what, sizeof(what), "%s affinity", who);
	print_list(what, &set);
	f = fopen("/proc/thread-self/status", "r");
	while (f && fgets(line, sizeof(line), f))
		if (!strncmp(line, "Cpus_allowed_list:", 18))
			printf("%s status %s", who, line + 18 + strspn(line + 18, " \t"));
	if (f)
		fclose(f);
	fflush(stdout);
}

static void calls(long n)
{
	for (long i = 0; i < n; i++)
		syscall(SYS_getppid);
}

static void *show_thread(void *arg)
{
	(void)arg;
	calls(1000);
	show("thread");
	return NULL;
}

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static double until;

/* Computes for about 0.2 ms, then makes a call, until the deadline. */
static void *busy(void *arg)
{
	(void)arg;
	while (now() < until) {
		double t = now();
		while (now() - t < 0.0002)
			;
		syscall(SYS_getppid);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "";

	if (!strcmp(mode, "show")) {
		/* a burst of calls (renacer co-locates), then the masks seen by
		 * the process, a new thread and a child */
		pthread_t t;
		pid_t pid;
		calls(20000);
		show("process");
		pthread_create(&t, NULL, show_thread, NULL);
		pthread_join(t, NULL);
		pid = fork();
		if (pid == 0) {
			calls(1000);
			show("child");
			_exit(0);
		}
		waitpid(pid, NULL, 0);
		return 0;
	}
	if (!strcmp(mode, "busy") && (argc == 4 || argc == 5)) {
		/* N tasks (the main thread and N-1 more) compute and make calls
		 * for MS ms; prints its pid first.  With DIR, first opens
		 * DIR/status, and "status" relative to DIR (not /proc files) */
		int n = atoi(argv[2]);
		pthread_t t;
		if (argc == 5) {
			char path[4096];
			int d = open(argv[4], O_RDONLY | O_DIRECTORY);
			snprintf(path, sizeof(path), "%s/status", argv[4]);
			close(open(path, O_RDONLY));
			close(openat(d, "status", O_RDONLY));
			close(d);
		}
		until = now() + atol(argv[3]) / 1000.0;
		printf("%d\n", (int)getpid());
		fflush(stdout);
		for (int i = 1; i < n; i++)
			pthread_create(&t, NULL, busy, NULL);
		busy(NULL);
		return 0;
	}
	fprintf(stderr, "usage: cpumask show | busy N MS [DIR]\n");
	return 2;
}
