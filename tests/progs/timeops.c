/*
 * Makes the time syscalls renacer decodes, bypassing the vDSO with
 * syscall(2): clock_gettime/clock_getres for every clock and bad ones,
 * nanosleep and clock_nanosleep (relative, TIMER_ABSTIME, invalid, and one
 * interrupted by a signal so the remaining time is shown), gettimeofday,
 * time, timerfd_* and POSIX timers, and a sleep resumed by restart_syscall.  Prints nothing, exits 0.
 */
#include <signal.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

static void on_alarm(int s)
{
	(void)s;
}

int main(void)
{
	struct timespec ts, rem;
	struct timeval tv;
	struct timezone tz;
	struct itimerval it;
	struct sigaction sa;
	time_t t;
	int clocks[] = { CLOCK_REALTIME, CLOCK_MONOTONIC, CLOCK_PROCESS_CPUTIME_ID,
			 CLOCK_THREAD_CPUTIME_ID, CLOCK_MONOTONIC_RAW, CLOCK_REALTIME_COARSE,
			 CLOCK_MONOTONIC_COARSE, CLOCK_BOOTTIME, CLOCK_TAI, 99, -2 };

	for (unsigned i = 0; i < sizeof(clocks) / sizeof(clocks[0]); i++) {
		syscall(SYS_clock_gettime, clocks[i], &ts);
		syscall(SYS_clock_getres, clocks[i], &ts);
	}
	syscall(SYS_clock_gettime, CLOCK_MONOTONIC, (void *)8);
	syscall(SYS_clock_getres, CLOCK_MONOTONIC, NULL);
	ts.tv_sec = 0;
	ts.tv_nsec = -1;
	syscall(SYS_clock_settime, CLOCK_MONOTONIC, &ts);

	ts.tv_sec = 0;
	ts.tv_nsec = 1000000;
	syscall(SYS_nanosleep, &ts, &rem);
	syscall(SYS_nanosleep, &ts, NULL);
	ts.tv_nsec = 2000000000;
	syscall(SYS_nanosleep, &ts, NULL);
	syscall(SYS_nanosleep, (void *)8, NULL);
	ts.tv_nsec = 100;
	clock_nanosleep(CLOCK_MONOTONIC, 0, &ts, &rem);
	clock_nanosleep(CLOCK_BOOTTIME, 0, &ts, NULL);
	syscall(SYS_clock_gettime, CLOCK_MONOTONIC, &ts);
	syscall(SYS_clock_nanosleep, CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, &rem);
	ts.tv_sec = 0;
	ts.tv_nsec = 100;
	syscall(SYS_clock_nanosleep, CLOCK_MONOTONIC, 6, &ts, NULL);
	syscall(SYS_clock_nanosleep, 99, 0, &ts, NULL);

	/* a sleep cut short by SIGALRM shows the time left */
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_alarm;
	sigaction(SIGALRM, &sa, NULL);
	memset(&it, 0, sizeof(it));
	it.it_value.tv_usec = 20000;
	setitimer(ITIMER_REAL, &it, NULL);
	ts.tv_sec = 100;
	ts.tv_nsec = 0;
	syscall(SYS_nanosleep, &ts, &rem);

	{
		struct itimerspec its = { { 0, 0 }, { 100, 500 } }, old;
		struct sigevent sev;
		int tfd, id = -1;

		tfd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC | TFD_NONBLOCK);
		timerfd_settime(tfd, 0, &its, &old);
		timerfd_settime(tfd, TFD_TIMER_ABSTIME, &its, NULL);
		timerfd_gettime(tfd, &old);
		timerfd_create(99, 0);
		close(tfd);
		memset(&sev, 0, sizeof(sev));
		sev.sigev_notify = SIGEV_SIGNAL;
		sev.sigev_signo = SIGUSR1;
		sev.sigev_value.sival_int = 5;
		syscall(SYS_timer_create, CLOCK_MONOTONIC, &sev, &id);
		syscall(SYS_timer_settime, id, 0, &its, &old);
		syscall(SYS_timer_gettime, id, &old);
		syscall(SYS_timer_getoverrun, id);
		syscall(SYS_timer_delete, id);
		sev.sigev_notify = SIGEV_NONE;
		syscall(SYS_timer_create, CLOCK_REALTIME, &sev, &id);
		syscall(SYS_timer_delete, id);
		/* no value: strace leaves sigev_value out (timeout(1) does this) */
		sev.sigev_notify = SIGEV_SIGNAL;
		sev.sigev_signo = SIGALRM;
		sev.sigev_value.sival_ptr = NULL;
		syscall(SYS_timer_create, CLOCK_REALTIME, &sev, &id);
		syscall(SYS_timer_delete, id);
		syscall(SYS_timer_create, CLOCK_REALTIME, NULL, (void *)8);
	}
	/* a timer signal that is ignored by default (SIGURG) stops a traced
	 * sleep, which the kernel then resumes with restart_syscall */
	{
		struct sigevent sev;
		struct itimerspec its = { { 0, 0 }, { 0, 20000000 } };
		int id = -1;

		memset(&sev, 0, sizeof(sev));
		sev.sigev_notify = SIGEV_SIGNAL;
		sev.sigev_signo = SIGURG;
		sev.sigev_value.sival_int = 77;
		syscall(SYS_timer_create, CLOCK_MONOTONIC, &sev, &id);
		syscall(SYS_timer_settime, id, 0, &its, NULL);
		ts.tv_sec = 0;
		ts.tv_nsec = 100000000;
		syscall(SYS_nanosleep, &ts, NULL);
		syscall(SYS_timer_delete, id);
	}
		syscall(SYS_gettimeofday, &tv, &tz);
	syscall(SYS_gettimeofday, &tv, NULL);
	syscall(SYS_gettimeofday, NULL, NULL);
	syscall(SYS_time, &t);
	syscall(SYS_time, NULL);
	return 0;
}
