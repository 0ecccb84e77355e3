/*
 * A target for the attach tests (tests/t/engine_attach_*.sh): busy
 * multi-threaded processes that renacer -p attaches to while they run,
 * exit or exec.  Each mode prints its pid on stdout (then "ready" once its
 * threads run) so the test knows when and whom to attach; see usage().
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static volatile int stop;
static pthread_barrier_t started, gate;
static int gated;                /* busy threads wait at the gate first */

/* Sleeps ms; a sleep cut short by anything but EINTR (a tracer that got
 * the restart of an interrupted call wrong) ends the process with 3. */
static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
	while (nanosleep(&ts, &ts) < 0) {
		if (errno != EINTR) {
			fprintf(stderr, "attachee: nanosleep: %s (errno %d)\n",
				strerror(errno), errno);
			exit(3);
		}
	}
}

/* The reported workload: a cheap syscall, then a short sleep. */
static void *busy_thread(void *arg)
{
	(void)arg;
	pthread_barrier_wait(&started);
	if (gated)
		pthread_barrier_wait(&gate);
	while (!stop) {
		syscall(SYS_getppid);
		usleep(100);
	}
	return NULL;
}

/* Starts n threads running fn and waits until each one runs. */
static void start_threads_fn(int n, void *(*fn)(void *))
{
	pthread_attr_t attr;
	pthread_t t;

	pthread_barrier_init(&started, NULL, (unsigned)n + 1);
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, 64 * 1024);
	for (int i = 0; i < n; i++) {
		if (pthread_create(&t, &attr, fn, NULL) != 0) {
			fprintf(stderr, "attachee: cannot create thread %d\n", i);
			exit(2);
		}
	}
	pthread_barrier_wait(&started);
}

static void start_threads(int n)
{
	start_threads_fn(n, busy_thread);
}

static void say_ready(void)
{
	printf("%d ready\n", (int)getpid());
	fflush(stdout);
}

static void *short_thread(void *arg)
{
	(void)arg;
	syscall(SYS_getppid);
	return NULL;
}

/* Creates tasks all the time: a thread that makes one call and ends, then
 * a child process that ends at once, and reaps both. */
static void *churn_thread(void *arg)
{
	(void)arg;
	pthread_barrier_wait(&started);
	while (!stop) {
		pthread_t t;
		pid_t pid;

		if (pthread_create(&t, NULL, short_thread, NULL) == 0)
			pthread_join(t, NULL);
		pid = fork();
		if (pid == 0)
			_exit(0);
		if (pid > 0)
			waitpid(pid, NULL, 0);
		usleep(100);
	}
	return NULL;
}

static void *exec_later(void *arg)
{
	char **argv = arg;
	char *const nargv[] = { argv[0], "busy", "2", argv[3], NULL };

	sleep_ms(atol(argv[4]));
	execv(argv[0], nargv);
	_exit(99);
}

/* Whether a tracer has seized the main thread yet (TracerPid). */
static int leader_traced(void)
{
	char line[256];
	int traced = 0;
	FILE *f;

	snprintf(line, sizeof(line), "/proc/%d/status", (int)getpid());
	f = fopen(line, "r");
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, "TracerPid:", 10))
			traced = atoi(line + 10) != 0;
	fclose(f);
	return traced;
}

/* exec-on-attach: execs as soon as a tracer has seized the main thread,
 * that is while it is still seizing the others (this thread is the last
 * one created, so the last one seized). */
static void *exec_on_attach(void *arg)
{
	char **argv = arg;
	char *const nargv[] = { argv[0], "busy", "2", argv[3], NULL };

	while (!leader_traced())
		usleep(50);
	execv(argv[0], nargv);
	_exit(99);
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "";

	if (!strcmp(mode, "busy") && (argc == 4 || (argc == 5 && !strcmp(argv[4], "gate")))) {
		/* N threads loop getppid(); usleep(100); the main thread
		 * sleeps MS, then returns from main (exit_group).  With
		 * "gate", all of them first wait (idle) for a SIGUSR1 */
		int n = atoi(argv[2]);
		if (argc == 5) {
			sigset_t set;
			int sig;
			gated = 1;
			pthread_barrier_init(&gate, NULL, (unsigned)n + 1);
			sigemptyset(&set);
			sigaddset(&set, SIGUSR1);
			sigprocmask(SIG_BLOCK, &set, NULL);
			start_threads(n);
			say_ready();
			while (sigwait(&set, &sig) != 0)
				;
			pthread_barrier_wait(&gate);
		} else {
			start_threads(n);
			say_ready();
		}
		sleep_ms(atol(argv[3]));
		return 0;
	}
	if (!strcmp(mode, "churn") && argc == 4) {
		/* N threads that create threads and child processes all the
		 * time; the main thread sleeps MS, then exits */
		start_threads_fn(atoi(argv[2]), churn_thread);
		say_ready();
		sleep_ms(atol(argv[3]));
		return 0;
	}
	if (!strcmp(mode, "exec") && argc == 5) {
		/* N busy threads; after EXEC_MS a non-leader thread execs
		 * "attachee busy 2 MS" (the new image sleeps MS and exits) */
		pthread_t t;
		start_threads(atoi(argv[2]));
		say_ready();
		pthread_create(&t, NULL, exec_later, argv);
		pthread_join(t, NULL);
		return 98;
	}
	if (!strcmp(mode, "exec-on-attach") && argc == 4) {
		/* N busy threads; a non-leader thread execs "attachee busy 2
		 * MS" while a tracer attaches (the exec waits for the tracer
		 * to reap the threads it killed) */
		pthread_t t;
		start_threads(atoi(argv[2]));
		pthread_create(&t, NULL, exec_on_attach, argv);
		say_ready();
		pthread_join(t, NULL);
		return 98;
	}
	fprintf(stderr, "usage: attachee busy N MS [gate] | churn N MS | exec N MS EXEC_MS"
		" | exec-on-attach N MS\n");
	return 2;
}
