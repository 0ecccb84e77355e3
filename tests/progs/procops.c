/*
 * Makes the process syscalls renacer decodes, deterministically under -f:
 * fork, vfork, clone (CLONE_VM with a stack), clone3 (CLONE_PIDFD,
 * CLONE_PARENT_SETTID), a thread (pthread_create: clone3), wait4 with every
 * kind of status and rusage, execve (of itself, and failing ones with long
 * argv), execveat, children killed by signals, exit/exit_group, prlimit64,
 * getrlimit/setrlimit, getrusage, arch_prctl, uname, priorities.  SIGCHLD is
 * kept blocked and collected with sigtimedwait after each child, so no
 * signal arrives at a random point.  "procops exec" is the exec'ed child.
 */
#include <asm/prctl.h>
#include <fcntl.h>
#include <linux/sched.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static char stack[65536] __attribute__((aligned(16)));

static int clone_child(void *arg)
{
	(void)arg;
	return 7;
}

static void *thread_main(void *arg)
{
	return arg;
}

/* Consumes the pending SIGCHLD of the child just reaped. */
static void collect(void)
{
	sigset_t s;
	siginfo_t si;
	struct timespec ts = { 0, 0 };

	sigemptyset(&s);
	sigaddset(&s, SIGCHLD);
	sigtimedwait(&s, &si, &ts);
}

int main(int argc, char **argv)
{
	sigset_t s;
	int st;
	pid_t p;
	struct rusage ru;
	struct rlimit rl;
	struct rlimit64 r64;
	struct utsname u;
	unsigned long fs;
	pthread_t t;
	struct clone_args ca;
	int pidfd = -1;
	pid_t ptid = 0;
	char *many[41];
	char *env[] = { "A=1", "B=2", NULL };

	if (argc > 1 && !strcmp(argv[1], "exec"))
		return 3;

	sigemptyset(&s);
	sigaddset(&s, SIGCHLD);
	sigprocmask(SIG_BLOCK, &s, NULL);

	p = fork();
	if (p == 0)
		_exit(0);
	wait4(p, &st, 0, NULL);
	collect();

	p = vfork();
	if (p == 0)
		_exit(5);
	wait4(p, &st, __WALL, &ru);
	collect();
	wait4(p, &st, 0, NULL);
	wait4(-1, &st, WNOHANG, NULL);

	p = clone(clone_child, stack + sizeof(stack), CLONE_VM | CLONE_FS | SIGCHLD, NULL);
	waitpid(p, &st, __WCLONE | __WALL);
	collect();

	p = fork();
	if (p == 0) {
		kill(getpid(), SIGTERM);
		_exit(1);
	}
	wait4(p, &st, 0, NULL);
	collect();

	p = fork();
	if (p == 0) {
		rl.rlim_cur = rl.rlim_max = 0;
		setrlimit(RLIMIT_CORE, &rl);
		syscall(SYS_tgkill, getpid(), getpid(), SIGQUIT);
		_exit(1);
	}
	wait4(p, &st, 0, &ru);
	collect();

	/* exec of itself, and failing execs */
	p = fork();
	if (p == 0) {
		char *av[] = { argv[0], "exec", NULL };

		execv(argv[0], av);
		_exit(9);
	}
	wait4(p, &st, 0, NULL);
	collect();
	p = fork();
	if (p == 0) {
		for (int i = 0; i < 40; i++)
			many[i] = i == 3 ? "a rather long argument that is longer than thirty-two bytes"
					 : "arg";
		many[40] = NULL;
		execve("/nonexistent/prog", many, env);
		syscall(SYS_execve, "/nonexistent/prog", NULL, NULL);
		syscall(SYS_execveat, AT_FDCWD, "nonexistent", many + 35, env, AT_SYMLINK_NOFOLLOW);
		syscall(SYS_exit, 9);
	}
	wait4(p, &st, 0, NULL);
	collect();

	/* clone3 with a pidfd */
	memset(&ca, 0, sizeof(ca));
	ca.flags = CLONE_PARENT_SETTID | CLONE_PIDFD;
	ca.exit_signal = SIGCHLD;
	ca.pidfd = (unsigned long)&pidfd;
	ca.parent_tid = (unsigned long)&ptid;
	p = syscall(SYS_clone3, &ca, sizeof(ca));
	if (p == 0)
		syscall(SYS_exit_group, 4);
	wait4(p, &st, 0, NULL);
	collect();
	close(pidfd);
	syscall(SYS_clone3, NULL, sizeof(ca));
	syscall(SYS_clone3, &ca, 8);

	/* a thread */
	pthread_create(&t, NULL, thread_main, NULL);
	pthread_join(t, NULL);

	/* resources */
	getrlimit(RLIMIT_NOFILE, &rl);
	setrlimit(RLIMIT_NOFILE, &rl);
	r64.rlim_cur = 1024 * 1024;
	r64.rlim_max = RLIM64_INFINITY;
	prlimit64(0, RLIMIT_CORE, &r64, NULL);
	prlimit64(getpid(), RLIMIT_AS, NULL, &r64);
	r64.rlim_cur = 1024;
	r64.rlim_max = 2048;
	prlimit64(0, RLIMIT_CORE, &r64, &r64);
	prlimit64(0, 99, NULL, &r64);
	syscall(SYS_getrlimit, 99, &rl);
	getrusage(RUSAGE_SELF, &ru);
	getrusage(RUSAGE_CHILDREN, &ru);
	getrusage(12345, &ru);
	syscall(SYS_arch_prctl, ARCH_GET_FS, &fs);
	syscall(SYS_arch_prctl, ARCH_GET_FS, 8);
	syscall(SYS_arch_prctl, 0x1234, 0);
	uname(&u);
	getpriority(PRIO_PROCESS, 0);
	setpriority(PRIO_USER, 0, 0);
	getpriority(99, 0);
	syscall(SYS_set_robust_list, NULL, 1);
	return 0;
}
