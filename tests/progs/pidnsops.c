/*
 * Calls whose arguments and results are process ids, made from inside a
 * new pid namespace (tests/t/decode_pidns.sh: --pidns-translation shows
 * each id's number in renacer's namespace too).  Exits 77 when a pid
 * namespace cannot be made here.
 */
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <string.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

static void calls(void)
{
	pid_t me, kid;
	struct rlimit rl;
	int fds[2], st;
	siginfo_t si;
	sigset_t chld;

	/* no SIGCHLD delivery racing the waits */
	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	sigprocmask(SIG_BLOCK, &chld, NULL);

	me = getpid();
	syscall(SYS_gettid);
	getppid();
	getpgid(0);
	getpgid(me);
	getsid(me);
	setpgid(0, me);
	getpgrp();
	kill(me, 0);
	kill(-me, 0);
	syscall(SYS_tkill, me, 0);
	syscall(SYS_tgkill, me, me, 0);
	sched_getscheduler(me);
	syscall(SYS_prlimit64, me, RLIMIT_NOFILE, NULL, &rl);
	getpriority(PRIO_PROCESS, me);
	getpriority(PRIO_PGRP, me);
	if (pipe(fds) == 0) {
		fcntl(fds[0], F_SETOWN, me);
		fcntl(fds[0], F_GETOWN);
	}
	kid = fork();
	if (kid == 0)
		_exit(3);
	/* the kernel fills no si_utime/si_stime for waitid: zeroed here, or
	 * strace's run and renacer's show different stack garbage */
	memset(&si, 0, sizeof(si));
	waitid(P_PID, kid, &si, WEXITED | WNOWAIT);
	wait4(kid, &st, 0, NULL);
	/* ids no process has: shown as they are */
	kill(12345, 0);
	getpgid(54321);
}

int main(void)
{
	pid_t pid;
	int st;

	if (unshare(CLONE_NEWPID) < 0)
		return 77;
	pid = fork();
	if (pid < 0)
		return 77;
	if (pid == 0) {
		calls();
		_exit(0);
	}
	if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st))
		return 1;
	return WEXITSTATUS(st);
}
