/*
 * Hostile programs of issue 18 for the watchdog test (tests/t/reliab_hangs.sh):
 * each mode does one thing that once left a tracee stopped or a tracer
 * waiting forever.  Each ends with the status named below when its parent
 * is a tracer that is not its ptrace tracer (traceme-signal stops for good
 * under a parent that does not trace it, as under a shell: strace and the
 * ptrace back end make its TRACEME fail with EPERM).
 *
 *   clone-ptrace     clone(fn, stack, CLONE_PTRACE|SIGCHLD), wait for the
 *                    child (which exits 32); exits with the child's status
 *   vfork-ptrace     the same with CLONE_VFORK|CLONE_PTRACE|SIGCHLD (33)
 *   late-clone-ptrace MS  sleeps MS milliseconds (time for a tracer to
 *                    attach), then does what clone-ptrace does (32)
 *   traceme-signal   ptrace(PTRACE_TRACEME), raise a handled SIGUSR1,
 *                    exit 41 (whether or not TRACEME succeeded)
 *   traceme-child    fork; the child calls PTRACE_TRACEME and raises
 *                    SIGSTOP; the parent, its tracer, continues it and
 *                    waits: exits with the child's 42 (a debugger's pattern)
 */
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static volatile sig_atomic_t got_usr1;

static void on_usr1(int sig)
{
	(void)sig;
	got_usr1 = 1;
}

static int child_fn(void *arg)
{
	return (int)(long)arg;
}

static int clone_wait(int flags, int code)
{
	size_t size = 64 * 1024;
	char *stack = malloc(size);
	pid_t pid;
	int st;

	if (!stack)
		return 1;
	pid = clone(child_fn, stack + size, flags | SIGCHLD, (void *)(long)code);
	if (pid < 0) {
		perror("clone");
		return 1;
	}
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR) {
			perror("waitpid");
			return 1;
		}
	if (!WIFEXITED(st)) {
		fprintf(stderr, "child did not exit: status 0x%x\n", st);
		return 1;
	}
	return WEXITSTATUS(st);
}

static int traceme_child(void)
{
	pid_t pid = fork();
	int st;

	if (pid < 0)
		return 1;
	if (pid == 0) {
		if (ptrace(PTRACE_TRACEME, 0, NULL, NULL) < 0)
			_exit(42);      /* traced already: nothing to debug */
		raise(SIGSTOP);
		_exit(42);
	}
	for (;;) {
		if (waitpid(pid, &st, 0) < 0) {
			if (errno == EINTR)
				continue;
			perror("waitpid");
			return 1;
		}
		if (WIFEXITED(st))
			return WEXITSTATUS(st);
		if (WIFSIGNALED(st))
			return 128 + WTERMSIG(st);
		/* a stop of our tracee: let it go on, signal suppressed */
		ptrace(PTRACE_CONT, pid, NULL, NULL);
	}
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "";

	if (!strcmp(mode, "clone-ptrace"))
		return clone_wait(CLONE_PTRACE, 32);
	if (!strcmp(mode, "late-clone-ptrace") && argc == 3) {
		struct timespec ts = { atol(argv[2]) / 1000, (atol(argv[2]) % 1000) * 1000000L };

		while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
			;
		return clone_wait(CLONE_PTRACE, 32);
	}
	if (!strcmp(mode, "vfork-ptrace"))
		return clone_wait(CLONE_PTRACE | CLONE_VFORK | CLONE_VM, 33);
	if (!strcmp(mode, "traceme-signal")) {
		struct sigaction sa;

		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = on_usr1;
		sigaction(SIGUSR1, &sa, NULL);
		ptrace(PTRACE_TRACEME, 0, NULL, NULL);
		raise(SIGUSR1);
		return got_usr1 ? 41 : 1;
	}
	if (!strcmp(mode, "traceme-child"))
		return traceme_child();
	fprintf(stderr, "usage: hostile clone-ptrace|vfork-ptrace|late-clone-ptrace MS|traceme-signal|traceme-child\n");
	return 2;
}
