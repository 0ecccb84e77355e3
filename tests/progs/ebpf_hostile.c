/*
 * Programs that hung or outlived the eBPF back end (issue 18), for
 * tests/t/ebpf_hostile.sh, which runs each under both back ends with a
 * timeout (tests/t/reliab_hangs.sh has the others).
 *
 *   ebpf_hostile traceme       PTRACE_TRACEME, then raises SIGUSR1, which
 *                              it handles; exits 41 (as under strace,
 *                              where the request fails)
 *   ebpf_hostile traceme-exec  PTRACE_TRACEME, then executes itself with
 *                              "exit 42": a tracer that is no debugger
 *                              must not turn the exec's SIGTRAP into a death
 *   ebpf_hostile traceme-stop  PTRACE_TRACEME, then SIGSTOP to itself,
 *                              which a SIGCONT from a child ends; exits 43
 *   ebpf_hostile clone-ptrace  clone(CLONE_PTRACE | SIGCHLD) of a child
 *                              that exits 32, waited for; exits with it
 *   ebpf_hostile tree MS       a child and a grandchild that sleep MS ms,
 *                              and the process itself the same; prints
 *                              the three pids on one line first (for the
 *                              kill -9 test)
 *   ebpf_hostile exit N        exits N
 */
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static volatile sig_atomic_t got;

static void on_sig(int sig)
{
	got = sig;
}

static int clone_child(void *arg)
{
	(void)arg;
	return 32;
}

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) < 0)
		;
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "";

	if (!strcmp(mode, "traceme")) {
		signal(SIGUSR1, on_sig);
		ptrace(PTRACE_TRACEME, 0, NULL, NULL);
		raise(SIGUSR1);
		return got == SIGUSR1 ? 41 : 1;
	}
	if (!strcmp(mode, "traceme-exec")) {
		char *const av[] = { argv[0], "exit", "42", NULL };

		ptrace(PTRACE_TRACEME, 0, NULL, NULL);
		execv(argv[0], av);
		return 1;
	}
	if (!strcmp(mode, "traceme-stop")) {
		pid_t self = getpid(), c;

		ptrace(PTRACE_TRACEME, 0, NULL, NULL);
		c = fork();
		if (c == 0) {
			sleep_ms(200);
			kill(self, SIGCONT);
			_exit(0);
		}
		raise(SIGSTOP);
		waitpid(c, NULL, 0);
		return 43;
	}
	if (!strcmp(mode, "clone-ptrace")) {
		static char stack[64 * 1024];
		int status;
		pid_t c = clone(clone_child, stack + sizeof(stack), CLONE_PTRACE | SIGCHLD, NULL);

		if (c < 0 || waitpid(c, &status, 0) != c)
			return 1;
		return WIFEXITED(status) ? WEXITSTATUS(status) : 2;
	}
	if (!strcmp(mode, "tree") && argc == 3) {
		long ms = atol(argv[2]);
		int p[2];
		pid_t c;

		if (pipe(p) < 0)
			return 1;
		c = fork();
		if (c == 0) {
			pid_t g = fork();
			if (g == 0) {
				close(p[0]);
				close(p[1]);
				sleep_ms(ms);
				_exit(0);
			}
			if (write(p[1], &g, sizeof(g)) != sizeof(g))
				_exit(1);
			close(p[0]);
			close(p[1]);
			sleep_ms(ms);
			_exit(0);
		}
		{
			pid_t g;
			if (read(p[0], &g, sizeof(g)) != sizeof(g))
				return 1;
			printf("%d %d %d\n", (int)getpid(), (int)c, (int)g);
			fflush(stdout);
		}
		sleep_ms(ms);
		return 0;
	}
	if (!strcmp(mode, "exit") && argc == 3)
		return atoi(argv[2]);
	fprintf(stderr, "usage: ebpf_hostile traceme|traceme-exec|traceme-stop|clone-ptrace|"
		"tree MS|exit N\n");
	return 2;
}
