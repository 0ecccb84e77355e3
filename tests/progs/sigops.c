/*
 * Makes the signal syscalls renacer decodes: rt_sigaction (handlers, SIG_IGN,
 * SIG_DFL, flags, masks, full masks), rt_sigprocmask (each how, bad how, bad
 * pointer), sigaltstack, kill/tkill/tgkill/rt_sigqueueinfo with delivered
 * signals and their siginfo, a caught SIGSEGV, rt_sigpending, rt_sigsuspend,
 * rt_sigtimedwait, signalfd4 and pidfd_send_signal.  Single-threaded,
 * prints nothing, exits 0.
 */
#include <setjmp.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static sigjmp_buf jb;

static void on_sig(int s)
{
	(void)s;
}

static void on_segv(int s)
{
	(void)s;
	siglongjmp(jb, 1);
}

static void on_info(int s, siginfo_t *si, void *uc)
{
	(void)s;
	(void)si;
	(void)uc;
}

/* signalfd4 with and without flags, a bad descriptor; pidfd_send_signal */
static void signalfd_calls(const sigset_t *s)
{
	int fd = signalfd(-1, s, SFD_CLOEXEC | SFD_NONBLOCK);
	int pfd;

	signalfd(fd, s, 0);
	signalfd(1234, s, 0);
	close(fd);
	pfd = syscall(SYS_pidfd_open, getpid(), 0);
	syscall(SYS_pidfd_send_signal, pfd, 0, NULL, 0);
	syscall(SYS_pidfd_send_signal, pfd, SIGURG, NULL, 0);
	close(pfd);
}

int main(void)
{
	struct sigaction sa, old;
	sigset_t s, o;
	stack_t ss, oss;
	union sigval sv;
	siginfo_t si;
	struct timespec ts = { 0, 1000 };

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_sig;
	sa.sa_flags = SA_RESTART;
	sigaddset(&sa.sa_mask, SIGTERM);
	sigaddset(&sa.sa_mask, SIGRTMIN + 1);
	sigaction(SIGUSR1, &sa, NULL);
	sigaction(SIGUSR2, &sa, NULL);
	sigaction(SIGUSR1, NULL, &old);
	sa.sa_handler = SIG_IGN;
	sa.sa_flags = 0;
	sigfillset(&sa.sa_mask);
	sigaction(SIGPIPE, &sa, &old);
	sa.sa_handler = SIG_DFL;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = SA_NODEFER | SA_RESETHAND | SA_ONSTACK;
	sigaction(SIGHUP, &sa, NULL);
	sa.sa_sigaction = on_info;
	sa.sa_flags = SA_SIGINFO | SA_NOCLDSTOP;
	sigaction(SIGRTMIN + 2, &sa, NULL);
	sa.sa_handler = on_segv;
	sa.sa_flags = SA_NODEFER;
	sigaction(SIGSEGV, &sa, NULL);
	sigaction(SIGKILL, &sa, NULL);
	syscall(SYS_rt_sigaction, SIGUSR1, NULL, NULL, 4);
	syscall(SYS_rt_sigaction, SIGUSR1, (void *)8, NULL, 8);

	sigemptyset(&s);
	sigaddset(&s, SIGCHLD);
	sigaddset(&s, SIGINT);
	sigprocmask(SIG_BLOCK, &s, &o);
	sigprocmask(SIG_UNBLOCK, &s, NULL);
	sigfillset(&s);
	sigdelset(&s, SIGKILL);
	sigprocmask(SIG_SETMASK, &s, &o);
	sigprocmask(SIG_SETMASK, &o, NULL);
	syscall(SYS_rt_sigprocmask, 7, NULL, NULL, 8);
	syscall(SYS_rt_sigprocmask, SIG_BLOCK, (void *)8, NULL, 8);
	syscall(SYS_rt_sigprocmask, SIG_BLOCK, &s, NULL, 4);
	syscall(SYS_rt_sigprocmask, SIG_BLOCK, NULL, &o, 8);

	ss.ss_sp = malloc(SIGSTKSZ);
	ss.ss_size = SIGSTKSZ;
	ss.ss_flags = 0;
	sigaltstack(&ss, &oss);
	sigaltstack(NULL, &oss);
	ss.ss_flags = 12345;
	sigaltstack(&ss, NULL);

	raise(SIGUSR1);
	kill(getpid(), SIGUSR1);
	syscall(SYS_tkill, syscall(SYS_gettid), SIGUSR1);
	sv.sival_int = 42;
	sigqueue(getpid(), SIGRTMIN + 2, sv);
	if (!sigsetjmp(jb, 1))
		*(volatile int *)16 = 1;
	kill(getpid(), 0);
	kill(-1, 12345);
	syscall(SYS_tgkill, getpid(), syscall(SYS_gettid), 0);

	/* a pending blocked signal: sigpending, sigtimedwait, sigsuspend */
	sigemptyset(&s);
	sigaddset(&s, SIGUSR2);
	sigprocmask(SIG_BLOCK, &s, NULL);
	raise(SIGUSR2);
	sigpending(&o);
	sigtimedwait(&s, &si, &ts);
	sigtimedwait(&s, NULL, &ts);
	signalfd_calls(&s);
	raise(SIGUSR2);
	sigemptyset(&o);
	sigsuspend(&o);
	return 0;
}
