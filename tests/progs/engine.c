/*
 * Test program for the engine's robustness tests (tests/t/engine_*.sh).
 * Each mode exercises one situation a tracer must survive; see usage().
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

static volatile sig_atomic_t got_usr2;

static void on_usr2(int sig)
{
	(void)sig;
	got_usr2++;
}

static void *exec_thread(void *arg)
{
	char *const argv[] = { (char *)arg, "exec-from-thread", NULL };
	execv((char *)arg, argv);
	_exit(99);
}

static void *spin_thread(void *arg)
{
	(void)arg;
	for (;;)
		pause();
	return NULL;
}

static void *loop_thread(void *arg)
{
	long n = *(long *)arg;
	for (long i = 0; i < n; i++)
		syscall(SYS_getppid);
	return NULL;
}

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "";

	if (!strcmp(mode, "block")) {
		/* blocks in read until killed; says it is ready first */
		char c;
		if (write(1, "ready\n", 6) != 6)
			return 1;
		return (int)read(0, &c, 1) < 0;
	}
	if (!strcmp(mode, "orphan")) {
		/* the parent exits at once; its child lives on and writes later */
		pid_t pid = fork();
		if (pid == 0) {
			sleep_ms(300);
			if (write(1, "child done\n", 11) != 11)
				_exit(1);
			_exit(7);
		}
		return 3;
	}
	if (!strcmp(mode, "many")) {
		/* N short-lived children, each waited for */
		int n = argc > 2 ? atoi(argv[2]) : 1000, i, bad = 0;
		for (i = 0; i < n; i++) {
			int st;
			pid_t pid = fork();
			if (pid < 0)
				return 2;
			if (pid == 0)
				_exit(i & 1);
			if (waitpid(pid, &st, 0) != pid || WEXITSTATUS(st) != (i & 1))
				bad++;
		}
		printf("children %d bad %d\n", n, bad);
		return bad != 0;
	}
	if (!strcmp(mode, "thread-exec")) {
		/* a non-leader thread calls execve while another thread runs */
		pthread_t t1, t2;
		if (argc < 3)
			return 2;
		pthread_create(&t1, NULL, spin_thread, NULL);
		pthread_create(&t2, NULL, exec_thread, argv[2]);
		pthread_join(t2, NULL);
		return 98;
	}
	if (!strcmp(mode, "exec-from-thread")) {
		printf("exec ok\n");
		return 5;
	}
	if (!strcmp(mode, "vfork")) {
		int st;
		pid_t pid = vfork();
		if (pid == 0) {
			execl("/bin/true", "true", (char *)NULL);
			_exit(127);
		}
		waitpid(pid, &st, 0);
		return WIFEXITED(st) ? WEXITSTATUS(st) : 1;
	}
	if (!strcmp(mode, "signals")) {
		/* blocks SIGTERM, ignores SIGUSR1, handles SIGUSR2: none is lost */
		sigset_t set;
		int i;
		signal(SIGUSR1, SIG_IGN);
		signal(SIGUSR2, on_usr2);
		sigemptyset(&set);
		sigaddset(&set, SIGTERM);
		sigprocmask(SIG_BLOCK, &set, NULL);
		kill(getpid(), SIGTERM);      /* stays pending: blocked */
		kill(getpid(), SIGUSR1);      /* ignored */
		for (i = 0; i < 5; i++) {
			kill(getpid(), SIGUSR2);
			sleep_ms(1);
		}
		printf("usr2 %d\n", (int)got_usr2);
		fflush(stdout);
		sigprocmask(SIG_UNBLOCK, &set, NULL);   /* SIGTERM kills us now */
		return 0;
	}
	if (!strcmp(mode, "badmem")) {
		/* syscalls whose pointers are invalid: EFAULT, no crash */
		char *bad = (char *)1;
		int fd = open(bad, O_RDONLY);
		void *volatile badbuf = (void *)16;
		ssize_t n = write(1, badbuf, 8);
		printf("open %d %d write %zd %d\n", fd, fd < 0 ? errno : 0, n, n < 0 ? errno : 0);
		return 0;
	}
	if (!strcmp(mode, "segv")) {
		volatile int *p = NULL;
		return *p;
	}
	if (!strcmp(mode, "exit")) {
		return argc > 2 ? atoi(argv[2]) : 0;
	}
	if (!strcmp(mode, "loop")) {
		/* N getppid calls: a syscall-heavy run for memory and speed */
		long n = argc > 2 ? atol(argv[2]) : 1000000, i;
		for (i = 0; i < n; i++)
			syscall(SYS_getppid);
		return 0;
	}
	if (!strcmp(mode, "calls") && argc == 3) {
		/* N getppid calls in the process, in a thread and in a child
		 * (filtered runs never stop for them) */
		long n = atol(argv[2]);
		pthread_t t;
		pid_t pid = fork();
		if (pid == 0) {
			for (long i = 0; i < n; i++)
				syscall(SYS_getppid);
			_exit(0);
		}
		pthread_create(&t, NULL, loop_thread, &n);
		for (long i = 0; i < n; i++)
			syscall(SYS_getppid);
		pthread_join(t, NULL);
		waitpid(pid, NULL, 0);
		return 0;
	}
	if (!strcmp(mode, "sleep")) {
		/* sleeps (in nanosleep) for the given ms, printing its pid first */
		printf("%d\n", (int)getpid());
		fflush(stdout);
		sleep_ms(argc > 2 ? atol(argv[2]) : 10000);
		return 0;
	}
	fprintf(stderr, "usage: engine block|orphan|many [N]|thread-exec PROG|vfork|"
		"signals|badmem|segv|exit N|loop N|calls N|sleep MS\n");
	return 2;
}
